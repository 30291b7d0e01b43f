"""``tsumeqbf batch``: one engine over a JSONL file of cases, resumable.

Each case runs in its own worker process (so a timeout can stop any engine) with at
most ``jobs`` at once. A result line is appended and flushed the moment its case ends, so
an interrupted batch keeps every finished line; running again with the same output file
skips the ids already there. A case that fails never stops the batch.

The process pool itself (:func:`iter_pool`) is shared with the experiment runner.
"""

from __future__ import annotations

import functools
import json
import multiprocessing as mp
import os
import time
from multiprocessing.connection import wait
from typing import Any, Callable, Iterator, NamedTuple

from .progress import Progress
from .rules import Position, TsumeError
from .stop import Stopped, signals_held, worker_signals

#: seconds a worker gets beyond the engine's own timeout before it is stopped
GRACE_S = 5.0
#: seconds a worker asked to stop (SIGTERM: it kills its solver's group) gets before SIGKILL
STOP_S = 5.0


def read_cases(path: str) -> list[dict]:
    """Parse the cases file; a bad line is an error naming the file and line."""
    cases, seen = [], set()
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                case = json.loads(line)
            except json.JSONDecodeError as exc:
                raise TsumeError(f"{path}:{lineno}: not JSON ({exc.msg})") from None
            if not isinstance(case, dict):
                raise TsumeError(f"{path}:{lineno}: each line must be a JSON object")
            missing = [k for k in ("id", "sfen", "n") if k not in case]
            if missing:
                raise TsumeError(f"{path}:{lineno}: missing key(s) {', '.join(missing)}")
            if case["id"] in seen:
                raise TsumeError(f"{path}:{lineno}: duplicate id {case['id']!r}")
            seen.add(case["id"])
            cases.append(case)
    return cases


def finished_ids(path: str) -> set:
    """Ids already written to an output file (a torn last line is ignored)."""
    done = set()
    if not os.path.exists(path):
        return done
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            try:
                done.add(json.loads(line)["id"])
            except (json.JSONDecodeError, KeyError, TypeError):
                continue
    return done


def _drop_torn_line(path: str) -> None:
    """Cut a last line that a killed run left without its newline, so appends stay valid."""
    if not os.path.exists(path):
        return
    with open(path, "rb+") as fh:
        data = fh.read()
        if data and not data.endswith(b"\n"):
            fh.truncate(data.rfind(b"\n") + 1)


def solve_case(case: dict, engine: str, timeout: float | None, options: dict) -> dict:
    """Run one case in this process; every failure becomes a status "error" row. The row
    says what made it (:func:`tsumeqbf.provenance.row_fields`)."""
    from .engines import run_engine
    from .provenance import row_fields

    start = time.perf_counter()
    try:
        pos = Position.from_sfen(case["sfen"], zone=case.get("zone"))
        result = run_engine(engine, pos, case["n"], timeout=timeout, options=options)
    except TsumeError as exc:
        result = {"status": "error", "mate": None, "error": str(exc)}
    except Exception as exc:  # an engine crash must not stop the batch
        result = {"status": "error", "mate": None, "error": f"{type(exc).__name__}: {exc}"}
    result.setdefault("engine", engine)
    result.setdefault("first_move", None)
    result.setdefault("time_s", round(time.perf_counter() - start, 6))
    result.update(row_fields(engine, options))
    return merge_row(case, result)


def merge_row(case: dict, result: dict) -> dict:
    """Input keys plus result keys; an input key the result also sets (say an expected
    ``mate`` verdict) is kept as ``input_<key>`` rather than overwritten."""
    row = {(f"input_{k}" if k in result else k): v for k, v in case.items()}
    row.update(result)
    return row


class Lost(NamedTuple):
    """What :func:`iter_pool` yields for a task whose worker gave no result."""
    reason: str
    timed_out: bool  # killed at the time limit (else it died or raised)


class Finished(NamedTuple):
    task: Any
    result: Any  # the work function's return value, or a Lost
    elapsed_s: float
    running: int  # tasks still running when this one was yielded


def _worker(conn, work, task, parent: int):
    # Ctrl-C and a hangup reach the whole process group: the parent decides what stops.
    # It stops a worker with SIGTERM (as does the parent's death), which unwinds through
    # the worker's clean-up (its solver's group killed) and ends it without a traceback.
    try:
        worker_signals(parent)
        try:
            result = work(task)
        except Exception as exc:
            result = Lost(f"worker raised {type(exc).__name__}: {exc}", False)
        conn.send(result)
    except Stopped as exc:
        raise SystemExit(exc.exit_status) from None
    finally:
        conn.close()


def _stop(procs: list) -> None:
    """Stop workers: SIGTERM to each (it ends its solver's group and exits), SIGKILL to
    those still running ``STOP_S`` later."""
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    deadline = time.monotonic() + STOP_S
    for proc in procs:
        proc.join(max(0.0, deadline - time.monotonic()))
        if proc.is_alive():
            proc.kill()
            proc.join()


def iter_pool(tasks, work: Callable[[Any], Any], jobs: int = 1,
              kill_after: float | None = None) -> Iterator[Finished]:
    """Run ``work(task)`` for every task, each in its own process, at most ``jobs`` at once;
    yield a :class:`Finished` the moment each ends, in finishing order.

    A worker still running ``kill_after`` seconds after it started is stopped (engines
    keep their own timeouts; this catches those that do not return) and yields
    ``Lost(..., timed_out=True)``; one that dies yields ``Lost(..., timed_out=False)``.
    Closing the generator early (or an exception such as KeyboardInterrupt or
    :class:`tsumeqbf.stop.Stopped` in the caller's loop or in the wait) stops the workers
    still running. A worker is stopped with SIGTERM, so that it kills its solver's
    process group first, and killed if still there ``STOP_S`` later.

    >>> sorted(f.result for f in iter_pool([1, 2, 3], abs, jobs=2))
    [1, 2, 3]
    """
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    running: dict = {}  # connection -> (process, task, started)
    queue = list(reversed(list(tasks)))
    try:
        while queue or running:
            while queue and len(running) < jobs:
                task = queue.pop()
                parent, child = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_worker, args=(child, work, task, os.getpid()))
                with signals_held():  # the child unholds them once its own handlers are set
                    proc.start()
                child.close()
                running[parent] = (proc, task, time.monotonic())
            next_kill = None
            if kill_after:
                oldest = min(started for (_, _, started) in running.values())
                next_kill = max(0.0, oldest + kill_after - time.monotonic())
            for conn in wait(list(running), timeout=next_kill):
                proc, task, started = running.pop(conn)
                try:
                    result = conn.recv()
                except EOFError:
                    result = Lost(f"worker died (exit code {proc.exitcode})", False)
                conn.close()
                proc.join()
                yield Finished(task, result, time.monotonic() - started, len(running))
            if kill_after:
                now = time.monotonic()
                for conn, (proc, task, started) in list(running.items()):
                    if now - started >= kill_after:
                        _stop([proc])
                        conn.close()
                        del running[conn]
                        yield Finished(task, Lost(f"killed after {now - started:.1f} s", True),
                                       now - started, len(running))
    finally:
        _stop([proc for proc, _, _ in running.values()])
        for conn in running:
            conn.close()


def run_batch(cases_path: str, output_path: str, engine: str = "brute", jobs: int = 1,
              timeout: float | None = None, options: dict | None = None,
              progress: bool = True) -> dict:
    """Run every unfinished case; returns counts per status for this run."""
    from .engines import get_engine
    from .provenance import row_fields

    if jobs < 1:
        raise TsumeError(f"--jobs must be at least 1, got {jobs}")
    get_engine(engine)  # an unknown engine is an input error, before any case runs
    cases = read_cases(cases_path)
    done = finished_ids(output_path)
    todo = [c for c in cases if c["id"] not in done]
    work = functools.partial(solve_case, engine=engine, timeout=timeout, options=dict(options or {}))
    counts: dict[str, int] = {}
    _drop_torn_line(output_path)
    with open(output_path, "a", encoding="utf-8") as out, \
            Progress("batch", len(todo), unit="case", enabled=progress and bool(todo)) as meter:
        pool = iter_pool(todo, work, jobs, timeout + GRACE_S if timeout else None)
        try:
            for end in pool:
                row = end.result
                if isinstance(row, Lost):
                    row = merge_row(end.task, {
                        "engine": engine, "status": "unknown" if row.timed_out else "error",
                        "mate": None, "first_move": None, "time_s": round(end.elapsed_s, 6),
                        "error": f"timeout after {timeout} s" if row.timed_out else row.reason,
                        **row_fields(engine, options)})
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
                out.flush()
                counts[row["status"]] = counts.get(row["status"], 0) + 1
                meter.update(**dict(sorted(counts.items())))
        finally:
            pool.close()  # kills the workers still running (Ctrl-C, a write error)
    return counts
