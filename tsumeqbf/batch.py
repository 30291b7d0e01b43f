"""``tsumeqbf batch``: one engine over a JSONL file of cases, resumable.

Each case runs in its own worker process (so a timeout can stop any engine) with at
most ``jobs`` at once. A result line is appended and flushed the moment its case ends, so
an interrupted batch keeps every finished line; running again with the same output file
skips the ids already there. A case that fails never stops the batch.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import sys
import time
from multiprocessing.connection import wait

from .rules import Position, TsumeError

#: seconds a worker gets beyond the engine's own timeout before it is killed
GRACE_S = 5.0


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
    """Run one case in this process; every failure becomes a status "error" row."""
    from .engines import run_engine

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
    return merge_row(case, result)


def merge_row(case: dict, result: dict) -> dict:
    """Input keys plus result keys; an input key the result also sets (say an expected
    ``mate`` verdict) is kept as ``input_<key>`` rather than overwritten."""
    row = {(f"input_{k}" if k in result else k): v for k, v in case.items()}
    row.update(result)
    return row


def _worker(conn, case, engine, timeout, options):
    try:
        conn.send(solve_case(case, engine, timeout, options))
    finally:
        conn.close()


def run_batch(cases_path: str, output_path: str, engine: str = "brute", jobs: int = 1,
              timeout: float | None = None, options: dict | None = None,
              progress: bool = True) -> dict:
    """Run every unfinished case; returns counts per status for this run."""
    from .engines import get_engine

    if jobs < 1:
        raise TsumeError(f"--jobs must be at least 1, got {jobs}")
    get_engine(engine)  # an unknown engine is an input error, before any case runs
    cases = read_cases(cases_path)
    done = finished_ids(output_path)
    todo = [c for c in cases if c["id"] not in done]
    options = dict(options or {})
    counts: dict[str, int] = {}
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    running: dict = {}  # connection -> (process, case, started)
    queue = list(reversed(todo))
    total = len(todo)
    finished = 0
    _drop_torn_line(output_path)
    with open(output_path, "a", encoding="utf-8") as out:
        def emit(row: dict) -> None:
            nonlocal finished
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            out.flush()
            finished += 1
            counts[row["status"]] = counts.get(row["status"], 0) + 1
            if progress:
                print(f"\r[{finished}/{total}] " + " ".join(f"{k}={v}" for k, v in sorted(counts.items())),
                      end="", file=sys.stderr, flush=True)

        try:
            while queue or running:
                while queue and len(running) < jobs:
                    case = queue.pop()
                    parent, child = ctx.Pipe(duplex=False)
                    proc = ctx.Process(target=_worker, args=(child, case, engine, timeout, options))
                    proc.start()
                    child.close()
                    running[parent] = (proc, case, time.monotonic())
                limit = timeout + GRACE_S if timeout else None
                now = time.monotonic()
                waits = [max(0.0, started + limit - now) for (_, _, started) in running.values()] if limit else []
                ready = wait(list(running), timeout=min(waits) if waits else None)
                for conn in ready:
                    proc, case, started = running.pop(conn)
                    try:
                        row = conn.recv()
                    except EOFError:
                        row = merge_row(case, {
                            "engine": engine, "status": "error", "mate": None, "first_move": None,
                            "time_s": round(time.monotonic() - started, 6),
                            "error": f"worker died (exit code {proc.exitcode})"})
                    conn.close()
                    proc.join()
                    emit(row)
                if limit:
                    now = time.monotonic()
                    for conn, (proc, case, started) in list(running.items()):
                        if now - started >= limit:
                            proc.kill()
                            proc.join()
                            conn.close()
                            del running[conn]
                            emit(merge_row(case, {
                                "engine": engine, "status": "unknown", "mate": None,
                                "first_move": None, "time_s": round(now - started, 6),
                                "error": f"timeout after {timeout} s"}))
        finally:
            for conn, (proc, _, _) in running.items():
                proc.kill()
                proc.join()
            if progress and total:
                print(file=sys.stderr)
    return counts
