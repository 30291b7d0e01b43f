"""``tsumeqbf batch``: one engine over a JSONL file of cases, resumable.

Each case runs in its own worker process (so a timeout can stop any engine) with at
most ``jobs`` at once. A result line is appended and flushed the moment its case ends, so
an interrupted batch keeps every finished line. A case that fails never stops the batch.

Every line carries the run's :func:`configuration`: the engine, every option that can
change its answer (limits included), tsumeqbf's version and, for a QBF engine, the
encoding with its version and the solver with its version. Running again with the same
output file skips a case only where a line of the same case and the same configuration
is there; lines of other configurations (another engine, an older encoder or solver,
lines written before configurations were recorded) are kept and their cases run again.
Either way stderr says how many were skipped and why (:func:`resume_note`).

The process pool itself (:func:`iter_pool`) is shared with the experiment runner.
"""

from __future__ import annotations

import contextlib
import functools
import json
import multiprocessing as mp
import os
import signal
import time
from multiprocessing.connection import wait
from typing import Any, Callable, Iterator, NamedTuple

from .arguments import is_stream
from .progress import Progress
from .rules import Position, TsumeError
from .stop import Stopped, signals_held, worker_signals
from .values import Answer, Status, Timings

#: seconds a worker gets beyond the engine's own timeout before it is stopped
GRACE_S = 5.0
#: seconds a worker asked to stop (SIGTERM: it kills its solver's group) gets before SIGKILL
STOP_S = 5.0


def read_cases(path: str) -> list[dict]:
    """Parse the cases file; a bad line is an error naming the file and line."""
    cases, seen = [], set()
    for lineno, line in _text_lines(path, "cases file"):
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
        bad = _bad_field(case)
        if bad:
            raise TsumeError(f"{path}:{lineno}: {bad}")
        if case["id"] in seen:
            raise TsumeError(f"{path}:{lineno}: duplicate id {case['id']!r}")
        seen.add(case["id"])
        cases.append(case)
    if not cases:
        raise TsumeError(f"{path}: no cases (one JSON object a line: id, sfen, n)")
    return cases


def _text_lines(path: str, what: str):
    """(number, line) of a UTF-8 text file; a folder or a file that is not text is one
    TsumeError."""
    if os.path.isdir(path):
        raise TsumeError(f"{path}: a folder, not a {what}")
    with open(path, encoding="utf-8") as fh:
        try:
            yield from enumerate(fh, 1)
        except UnicodeDecodeError:
            raise TsumeError(f"{path}: not a {what} (not UTF-8 text)") from None


def _bad_field(case: dict) -> str | None:
    """What is wrong with a case's fields' types, else None: ``id`` a string or an
    integer, ``sfen`` a string, ``n`` and ``zone`` (optional) integers.

    >>> _bad_field({"id": ["x"], "sfen": "4k4/9/9/9/9/9/9/9/9 b P 1", "n": 1})
    "id must be a string or an integer, got ['x']"
    >>> _bad_field({"id": 7, "sfen": "4k4/9/9/9/9/9/9/9/9 b P 1", "n": 1.0})
    'n must be an integer, got 1.0'
    """
    def integer(value):
        return isinstance(value, int) and not isinstance(value, bool)

    if not (isinstance(case["id"], str) or integer(case["id"])):
        return f"id must be a string or an integer, got {case['id']!r}"
    if not isinstance(case["sfen"], str):
        return f"sfen must be a string, got {case['sfen']!r}"
    if not integer(case["n"]):
        return f"n must be an integer, got {case['n']!r}"
    if case.get("zone") is not None and not integer(case["zone"]):
        return f"zone must be an integer, got {case['zone']!r}"
    return None


def configuration(engine: str, options: dict, timeout: float | None) -> dict:
    """What a case's answer depends on besides the case: the engine, its options and
    limits, tsumeqbf's version and, for a QBF engine, the encoding (the default named),
    its move choices, the encoder's version and the solver's (:func:`solver_version`);
    for the portfolio, each member's label with those versions (not ``jobs``, which
    changes only which member answers first). An unknown engine, solver, member or
    encoding choice is a TsumeError.

    >>> configuration("brute", {"max_nodes": 10}, 5.0)["engine"]
    'brute'
    """
    from . import __version__
    from .engines import get_engine, is_qbf_engine

    _, fixed = get_engine(engine)
    options = {**options, **fixed}
    config = {"engine": engine, "timeout": timeout, "tsumeqbf": __version__,
              **{k: v for k, v in sorted(options.items()) if k != "strategy"}}
    if engine == "portfolio":
        from .solvers.portfolio import members_of
        from .solvers.runner import SolverError

        try:
            members = members_of(options)
        except (ValueError, SolverError) as exc:
            raise TsumeError(str(exc)) from None
        config.pop("jobs", None)
        config["members"] = [{"label": m.label, **_qbf_versions(m.options)} for m in members]
    elif is_qbf_engine(engine):
        from .solvers.engine import QbfOptions

        try:
            qbf = QbfOptions.from_config(options)
        except ValueError as exc:
            raise TsumeError(str(exc)) from None
        config.update(qbf.choices(), encoding=qbf.encoding, solver=qbf.solver,
                      **_qbf_versions(options))
    return config


def _qbf_versions(options: dict) -> dict:
    """The encoder's and the solver's versions for a QBF engine's options."""
    from .encoder.registry import encoding_version
    from .solvers.engine import QbfOptions
    from .solvers.runner import SolverError, is_known, solver_version

    qbf = QbfOptions.from_config(options)
    try:
        version = solver_version(qbf.solver)
    except SolverError as exc:
        if not is_known(qbf.solver):
            raise TsumeError(str(exc)) from None
        version = "not installed"  # each case says so as its error
    return {"encoder_version": encoding_version(qbf.encoding), "solver_version": version}


#: what a case asks: a line answers a case of its id only when they agree on these
QUESTION_KEYS = ("sfen", "n", "zone")


def question_of(row: dict) -> tuple:
    """The question a case or an answer's line asks (a line keeps a case's key that its
    answer also sets as ``input_KEY``)."""
    return tuple(row[f"input_{k}"] if f"input_{k}" in row else row.get(k) for k in QUESTION_KEYS)


def finished_ids(path: str, config: dict) -> tuple[dict, dict]:
    """The questions already answered in an output file under ``config``, by id, and the
    ids of the other lines by their configuration's canonical JSON ("null" for lines
    written before configurations were recorded). A torn last line is ignored."""
    done, others = {}, {}
    if path == "-" or not os.path.exists(path) or is_stream(path):
        return done, others
    for _, line in _text_lines(path, "JSONL file of answers"):
        try:
            row = json.loads(line)
            case_id = row["id"]
        except (json.JSONDecodeError, KeyError, TypeError):
            continue
        theirs = row.get("config")
        if not isinstance(theirs, dict):  # none recorded (or not one we wrote)
            theirs = None
        if theirs == config:
            done[case_id] = question_of(row)
        else:
            others.setdefault(json.dumps(theirs, sort_keys=True), set()).add(case_id)
    return done, others


def resume_note(output: str, config: dict, total: int, todo: list,
                others: dict) -> list[str]:
    """What a run says on stderr about the lines already in ``output``: how many cases it
    skips (answered there under this configuration), and how many it runs although lines
    of other configurations answer them (kept in the file), with what differs."""
    notes = []
    if total > len(todo):
        notes.append(f"tsumeqbf batch: {total - len(todo)} of {total} cases skipped: {output} "
                     f"already answers them with this configuration")
    ids = {case["id"] for case in todo}
    rerun = {key: ids & seen for key, seen in others.items() if ids & seen}
    if rerun:
        # the configuration nearest to this one says best what changed
        theirs = min(map(json.loads, rerun), key=lambda c: len(_differing(c, config))
                     if c is not None else len(config) + 1)
        why = ("written before tsumeqbf recorded configurations" if theirs is None
               else _difference(theirs, config))
        more = f"; {len(rerun)} configurations in all" if len(rerun) > 1 else ""
        notes.append(f"tsumeqbf batch: {len(set().union(*rerun.values()))} cases run although "
                     f"{output} has lines for them of another configuration ({why}{more}); "
                     f"those lines are kept")
    return notes


def _difference(theirs: dict, ours: dict) -> str:
    """The settings in which two configurations differ, theirs first: ``engine brute, not
    depqbf``."""
    keys = _differing(theirs, ours)
    said = [f"{k} {_shown(theirs.get(k))}, not {_shown(ours.get(k))}" for k in keys[:2]]
    return ", ".join(said) + (f" and {len(keys) - 2} more settings" if len(keys) > 2 else "")


def _differing(theirs: dict, ours: dict) -> list[str]:
    return [k for k in {**theirs, **ours} if theirs.get(k) != ours.get(k)]


def _shown(value) -> str:
    return "none" if value is None else str(value)


def _drop_torn_line(path: str) -> None:
    """Cut a last line that a killed run left without its newline, so appends stay valid."""
    if not os.path.exists(path):
        return
    with open(path, "rb+") as fh:
        data = fh.read()
        if data and not data.endswith(b"\n"):
            fh.truncate(data.rfind(b"\n") + 1)


def solve_case(case: dict, engine: str, timeout: float | None, options: dict) -> dict:
    """Run one case in this process; every failure becomes a status ``error`` row. The
    row says what made it (:func:`answer_row`)."""
    from .engines import run_engine

    start = time.perf_counter()
    try:
        pos = Position.from_sfen(case["sfen"], zone=case.get("zone"))
        answer = run_engine(engine, pos, case["n"], timeout=timeout, options=options)
    except TsumeError as exc:
        answer = Answer.failed(str(exc))
    except Exception as exc:  # an engine crash must not stop the batch
        answer = Answer.failed(f"{type(exc).__name__}: {exc}")
    if answer.timings.time_s is None:
        answer = answer.replace(timings={"time_s": round(time.perf_counter() - start, 6)})
    return answer_row(case, answer.replace(engine=answer.engine or engine), options)


def answer_row(case: dict, answer: Answer, options: dict) -> dict:
    """The row of a case's answer: its keys, the answer's and what made it
    (:func:`tsumeqbf.provenance.row_fields`; for the portfolio's verdict, of the member
    that gave it: its solver, its version and its encoding's)."""
    from .provenance import DFPN_ENGINES, row_fields

    answered = answer.facts.get("backend")  # the search that answered, whatever the default
    # without it (a killed worker's row), the search the question would have gone to
    asked = (question_position(case, options) if answer.engine in DFPN_ENGINES and not answered
             else None)
    member = answer.facts.get("member")
    if member:  # the portfolio's verdict: its member's solver and encoding made it
        from .solvers.portfolio import parse_member

        made = row_fields("qbf", {**options, **parse_member(member).options}, asked)
    else:
        made = row_fields(answer.engine, options, asked)
    if made["dfpn_backend"] and answered:
        made["dfpn_backend"] = answered
    return merge_row(case, {**answer.to_dict(), **made})


def question_position(case: dict, options: dict) -> Position | None:
    """The position a case asks about as an engine run with ``options`` sees it (under the
    no-hands rules where they ask for them); None for a bad SFEN."""
    try:
        pos = Position.from_sfen(case["sfen"], zone=case.get("zone"))
        return pos.with_no_hands() if options.get("no_hands") and not pos.no_hands else pos
    except (TsumeError, KeyError, ValueError):
        return None


def merge_row(case: dict, result: dict) -> dict:
    """Input keys plus result keys; an input key the result also sets (say an expected
    ``mate`` verdict) is kept as ``input_<key>`` rather than overwritten."""
    row = {(f"input_{k}" if k in result else k): v for k, v in case.items()}
    row.update(result)
    return row


def _ending(exitcode: int | None) -> str:
    """How a worker process ended, from its exit code (negative: the signal).

    >>> _ending(-9), _ending(1)
    ('killed by SIGKILL', 'exit code 1')
    """
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit code {exitcode}"


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
                    proc.join()  # (its exit code is known once it is reaped)
                    result = Lost(f"worker died ({_ending(proc.exitcode)})", False)
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


def case_seconds(timeout: float | None, options: dict) -> float | None:
    """Seconds a case may take before its worker is stopped: the engine's ``timeout``,
    under ``certify`` the certification's too (``certify_timeout``, by default the
    timeout again), and ``GRACE_S``; None without a timeout.

    >>> case_seconds(60, {}), case_seconds(60, {"certify": True}), case_seconds(None, {})
    (65.0, 125.0, None)
    >>> case_seconds(60, {"certify": True, "certify_timeout": 10})
    75.0
    """
    if timeout is None:
        return None
    certifying = options.get("certify_timeout") or timeout if options.get("certify") else 0
    return timeout + certifying + GRACE_S


def run_batch(cases_path: str, output_path: str, engine: str = "brute", jobs: int = 1,
              timeout: float | None = None, options: dict | None = None,
              progress: bool = True, log=None) -> dict:
    """Run every case not yet answered in ``output_path`` under this run's
    :func:`configuration` (``-``: standard output, every case runs); returns counts per
    status for this run. What it skips and keeps is said on ``log`` (stderr)."""
    import sys

    if jobs < 1:
        raise TsumeError(f"--jobs must be at least 1, got {jobs}")
    options = dict(options or {})
    config = configuration(engine, options, timeout)  # bad input, before any case runs
    cases = read_cases(cases_path)
    done, others = finished_ids(output_path, config)
    for case in cases:  # an id answered for another question: not an answer to skip on
        if case["id"] in done and done[case["id"]] != question_of(case):
            theirs = dict(zip(QUESTION_KEYS, done[case["id"]]))
            raise TsumeError(f"{output_path} answers case {case['id']!r} for another question "
                             f"({', '.join(f'{k} {v!r}' for k, v in theirs.items())}): give "
                             f"the case another id, or write to another file")
    todo = [c for c in cases if c["id"] not in done]
    for note in resume_note(output_path, config, len(cases), todo, others):
        print(note, file=log or sys.stderr)
    work = functools.partial(solve_case, engine=engine, timeout=timeout, options=options)
    counts: dict[str, int] = {}
    to_stdout = output_path == "-"
    if not to_stdout and not is_stream(output_path):
        _drop_torn_line(output_path)
    with (contextlib.nullcontext(sys.stdout) if to_stdout
          else open(output_path, "a", encoding="utf-8")) as out, \
            Progress("batch", len(todo), unit="case", enabled=progress and bool(todo)) as meter:
        pool = iter_pool(todo, work, jobs, case_seconds(timeout, options))
        try:
            for end in pool:
                row = end.result
                if isinstance(row, Lost):
                    row = answer_row(end.task, Answer(
                        Status.UNKNOWN if row.timed_out else Status.ERROR, engine=engine,
                        error=f"timeout after {timeout} s" if row.timed_out else row.reason,
                        timings=Timings(time_s=round(end.elapsed_s, 6))), options)
                row["config"] = config
                row["jobs"] = jobs  # cases at once: with cores and load, how busy the machine was
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
                out.flush()
                counts[row["status"]] = counts.get(row["status"], 0) + 1
                meter.update(**dict(sorted(counts.items())))
        finally:
            pool.close()  # kills the workers still running (Ctrl-C, a write error)
    return counts
