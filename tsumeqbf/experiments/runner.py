"""``tsumeqbf experiment run``: every cell (instance x engine configuration), resumable.

Cells run in worker processes (``tsumeqbf.batch.iter_pool``: one process per cell, killed
``GRACE_S`` after its timeout) or on a dask cluster; each finished cell is written to the
SQLite store in its own transaction. A cell's key is its instance id, engine and canonical
options, so a re-run skips every finished cell and never loses one. At the end, and on
Ctrl-C after the finished rows, the store is exported to ``results/NAME.csv``. When engines
disagree, each disagreement is shrunk to a minimal position that still disagrees
(``results/NAME-shrunk.csv``).

With ``repeat`` K every cell runs K times (rounds: every cell once, then every cell
again...); a repeat after the first is a cell of its own, its key ending ``#2``, ``#3``...

>>> cell_key("paper-fig5-n1", "depqbf", {"encoding": "compact", "memory_mb": 4096})
'paper-fig5-n1|depqbf|{"encoding":"compact","memory_mb":4096}'
>>> cell_key("q", "dfpn", {}, repeat=2)
'q|dfpn|{}#2'
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import os
import platform
import sys
import time
from pathlib import Path
from typing import Iterator

from ..batch import GRACE_S, Lost, answer_row, iter_pool, solve_case
from ..progress import Progress
from ..provenance import FIELDS as PROVENANCE, checkout, cpu_model
from ..rules import Position, TsumeError
from ..stop import stop_on_signals
from ..values import Answer, Status, Timings
from .analysis import disagreements
from .config import EngineConfig, Experiment, canonical_json
from .shrink import shrink
from .store import SHRUNK_COLUMNS, Store, read_csv

#: result keys copied into a cell's row (the rest of an engine's answer is dropped): the
#: portfolio's ``member`` is the member whose answer it gave
RESULT_KEYS = (*(name for name, _ in Answer.COLUMNS), *PROVENANCE, "member")


def cell_key(instance_id: str, engine: str, options: dict, repeat: int = 1) -> str:
    return f"{instance_id}|{engine}|{canonical_json(options)}" + (f"#{repeat}" if repeat > 1 else "")


def build_cells(exp: Experiment, repeat: int = 1) -> list[dict]:
    """Every cell, instance by instance, engines in configuration order; ``repeat``
    rounds of them."""
    return [make_cell(inst, eng, r) for r in range(1, repeat + 1)
            for inst in exp.instances for eng in exp.engines if eng.accepts(inst)]


def make_cell(inst: dict, eng: EngineConfig, repeat: int = 1) -> dict:
    return {"key": cell_key(inst["id"], eng.engine, eng.options, repeat), "instance": inst["id"],
            "sfen": inst["sfen"], "n": inst["n"], "zone": inst["zone"],
            "meta": canonical_json(inst.get("meta", {})), "engine": eng.engine,
            "label": eng.label, "options": eng.options, "timeout": eng.timeout_for(inst["id"]),
            "repeat": repeat}


@functools.lru_cache(maxsize=None)
def code_version() -> str:
    """``tsumeqbf VERSION, encoder VERSION`` plus the checkout's commit when there is one,
    ``-dirty`` when the package differs from it (results/ does not count: a run writes
    there itself); :func:`tsumeqbf.provenance.checkout`."""
    from .. import __version__
    from ..encoder.registry import VERSION

    text = f"tsumeqbf {__version__}, encoder {VERSION}"
    commit, clean = checkout()
    if commit:
        text += f", git {commit}" + ("" if clean else "-dirty")
    return text


@functools.lru_cache(maxsize=None)
def machine() -> str:
    """Platform, CPU model and count, Python: enough to compare timings across machines."""
    return (f"{platform.system()} {platform.machine()}, {cpu_model()}, {os.cpu_count()} cpus, "
            f"Python {platform.python_version()}")


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def cell_row(cell: dict, result: dict) -> dict:
    """The stored row of a finished cell."""
    row = {k: cell[k] for k in ("key", "instance", "sfen", "n", "zone", "meta", "engine",
                                "label", "timeout")}
    row["options"] = canonical_json(cell["options"])
    row.update({k: result.get(k) for k in RESULT_KEYS})
    row.update(code_version=code_version(), machine=machine(), finished_at=_now(),
               repeat=cell.get("repeat", 1), cpu_limit=cell["options"].get("cpu_limit"),
               jobs=cell.get("jobs"))
    return row


def _case(cell: dict) -> dict:
    return {"id": cell["instance"], "sfen": cell["sfen"], "n": cell["n"], "zone": cell["zone"]}


def run_cell(cell: dict) -> dict:
    """Answer one cell in this process (a pool worker or a dask worker); never raises."""
    return cell_row(cell, solve_case(_case(cell), cell["engine"], cell["timeout"], cell["options"]))


def lost_row(cell: dict, lost: Lost, elapsed_s: float) -> dict:
    """The row of a cell whose worker was killed at its time limit or died (its CPU
    seconds unknown: the worker took them along), with what would have answered it."""
    answer = Answer(Status.UNKNOWN if lost.timed_out else Status.ERROR, engine=cell["engine"],
                    error=lost.reason, timings=Timings(time_s=round(elapsed_s, 6)))
    return cell_row(cell, answer_row(_case(cell), answer, cell["options"]))


# -- executors: each yields (cell, row or Lost, elapsed seconds) -------------------------

def kill_after(cells: list[dict]) -> float | None:
    """When the pool kills a worker: the longest timeout plus grace (never, if a cell
    has no timeout); a certified cell may take its timeout again to certify."""
    if any(c["timeout"] is None for c in cells):
        return None
    return max((c["timeout"] * (2 if c["options"].get("certify") else 1) for c in cells),
               default=0) + GRACE_S


def local_results(cells: list[dict], jobs: int) -> Iterator[tuple]:
    # load each engine's modules once in this process, so forked workers start warm
    from ..engines import get_engine

    for engine in sorted({c["engine"] for c in cells}):
        with contextlib.suppress(Exception):  # a broken engine is each cell's error
            get_engine(engine)
    code_version(), machine()  # cached before the fork, not recomputed per cell
    with contextlib.closing(iter_pool(cells, run_cell, jobs, kill_after(cells))) as pool:
        for end in pool:
            yield end.task, end.result, end.elapsed_s


def dask_client(scheduler):
    """A dask.distributed Client for an address (or a Client as is), and whether we own it."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise TsumeError("--executor dask needs dask.distributed: "
                         "pip install 'tsumeqbf[cluster]'") from None
    if scheduler is None:
        raise TsumeError("--executor dask needs --scheduler ADDRESS")
    if isinstance(scheduler, Client):
        return scheduler, False
    try:
        return Client(scheduler, timeout=30), True
    except OSError as exc:
        raise TsumeError(f"cannot reach the dask scheduler {scheduler}: {exc}") from None


def dask_results(cells: list[dict], client) -> Iterator[tuple]:
    """Submit every cell to the dask cluster. Dask cannot kill a running task, so only the
    engines' own timeouts apply. A lost worker's cells run again elsewhere (dask's
    retries); a task that keeps killing its workers is the cell's error. A cell the
    cluster drops (the scheduler lost) is not stored, which would make a re-run skip it:
    the run stops with a :class:`TsumeError` after the cells answered so far."""
    from dask.distributed import CancelledError, as_completed
    from distributed.comm import CommClosedError

    started = time.monotonic()
    futures = {client.submit(run_cell, cell, pure=False): cell for cell in cells}
    answered = 0
    try:
        for future in as_completed(futures):
            cell = futures[future]
            try:
                result = future.result()
            except (CancelledError, CommClosedError):  # nothing here cancels a cell meanwhile
                raise TsumeError(f"lost the dask scheduler {client.scheduler.address}: "
                                 f"{len(futures) - answered} cells not answered (not stored); "
                                 f"run again to continue") from None
            except Exception as exc:  # a task that killed its workers: the cell's error
                result = Lost(f"dask: {type(exc).__name__}: {exc}", False)
            answered += 1
            yield cell, result, time.monotonic() - started
    finally:
        if client.status == "running":
            client.cancel(list(futures))  # Ctrl-C: nothing left running on the cluster


@contextlib.contextmanager
def quiet_dask_client():
    """While the run's client lives: distributed's own log lines about a lost scheduler
    (tracebacks on stderr) stay out; the run says it in one line."""
    import logging

    log = logging.getLogger("distributed.client")
    level = log.level
    log.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        log.setLevel(level)


# -- the run -----------------------------------------------------------------------------

def run_experiment(exp: Experiment, *, jobs: int = 1, executor: str = "local", scheduler=None,
                   results_dir: Path | None = None, progress: bool = True,
                   continue_csv: bool = False, repeat: int = 1, same_code: bool = False) -> dict:
    """Run every unfinished cell, shrink disagreements, export the CSVs; returns counts.

    ``continue_csv``: with no store yet, first take the finished cells of the exported CSV
    (:func:`seed_from_csv`), to continue a partial run committed from another machine.
    Off by default: a run on a fresh clone measures every cell on this machine.
    ``repeat``: run every cell that many times. ``same_code``: a stored cell that other
    code made (another commit or encoder version, :func:`code_version`) runs again, so
    that the CSV, and the report, come from this code alone."""
    if jobs < 1:
        raise TsumeError(f"--jobs must be at least 1, got {jobs}")
    if repeat < 1:
        raise TsumeError(f"--repeat must be at least 1, got {repeat}")
    if executor not in ("local", "dask"):
        raise TsumeError(f"unknown executor {executor!r}; choose local or dask")
    results = Path(results_dir) if results_dir else exp.results_dir
    client = dask_client(scheduler) if executor == "dask" else None  # fails before any file
    store = Store(results / f"{exp.name}.sqlite")
    counts: dict[str, int] = {}
    # SIGTERM (a batch system's time limit, ``kill``) and SIGHUP end a run the way Ctrl-C
    # does: the workers stop (their solvers' groups killed), the finished cells are stored
    # already and the CSV is still exported
    with stop_on_signals(), quiet_dask_client() if client else contextlib.nullcontext():
        return _run_cells(exp, store, results, jobs, client, progress, counts, continue_csv,
                          repeat, same_code)


def _run_cells(exp, store, results, jobs, client, progress, counts, continue_csv, repeat,
               same_code) -> dict:
    try:
        cells = build_cells(exp, repeat)
        seeded = continue_csv and seed_from_csv(store, cells, results / f"{exp.name}.csv",
                                                results / f"{exp.name}-shrunk.csv")
        if seeded and progress:
            print(f"{exp.name}: {seeded} finished cells taken from results/{exp.name}.csv "
                  f"(no store here yet)", file=sys.stderr, flush=True)
        if same_code:
            other = store.forget_other_code(code_version())
            if other and progress:
                print(f"{exp.name}: {other} stored cells of other code run again",
                      file=sys.stderr, flush=True)
        store.relabel({c["key"]: c["label"] for c in cells})
        finished, ran_out = store.finished_keys(), store.timed_out()
        others = len(finished - {c["key"] for c in cells})
        if others:  # said even when quiet: the CSV and the report will show them
            print(f"{exp.name}: the store holds {others} cells this configuration does not ask "
                  f"for (an engine, question or repeat since changed); the CSV and the report "
                  f"keep them: use another --out for this configuration alone",
                  file=sys.stderr, flush=True)
        todo = [{**c, "jobs": None if client else jobs} for c in cells
                if c["key"] not in finished or more_time(c, ran_out)]
        meter = Progress(f"[{exp.name}] cells", len(cells), initial=len(cells) - len(todo),
                         unit="cell", enabled=progress)
        stream = dask_results(todo, client[0]) if client else local_results(todo, jobs)
        failed = 0
        try:
            for done, (cell, result, elapsed) in enumerate(stream, 1):
                row = lost_row(cell, result, elapsed) if isinstance(result, Lost) else result
                store.record(row)
                counts[row["status"]] = counts.get(row["status"], 0) + 1
                failed += row["status"] == Status.ERROR
                meter.update(running=min(jobs, len(todo) - done), failed=failed)
        finally:
            stream.close()  # an exception here (Ctrl-C while storing) still stops the workers
            meter.close()
        if exp.report["shrink"]:
            counts["shrunk"] = shrink_disagreements(exp, store, jobs, progress)
    finally:
        store.export(results / f"{exp.name}.csv", results / f"{exp.name}-shrunk.csv")
        store.close()
        if client and client[1]:
            client[0].close()
    return counts


def more_time(cell: dict, ran_out: dict) -> bool:
    """Whether a cell that ran out of time (``ran_out``: key -> its timeout then) now has
    a larger budget, so that it runs again.

    >>> more_time({"key": "k", "timeout": 600.0}, {"k": 60.0}), more_time({"key": "k", "timeout": 60.0}, {"k": 60.0})
    (True, False)
    """
    if cell["key"] not in ran_out:
        return False
    had = ran_out[cell["key"]]
    return had is not None and (cell["timeout"] is None or cell["timeout"] > had)


def seed_from_csv(store: Store, cells: list[dict], csv_path: Path, shrunk_path: Path) -> int:
    """Fill an empty store from the exported CSV, so that a run resumes on another machine
    (or in a fresh clone) from the committed raw rows, as it would from its own store.

    The rows of cells that the configuration still has, asking the same question (same
    SFEN, n and zone), are taken as finished: a row from a changed configuration is run
    again, never reused. Rows of cells it does not have (another repeat, an engine taken
    out) are kept as they are, so that the CSV written after the run loses none of them.
    Returns how many rows were taken as finished; 0 when the store already has rows."""
    if store.finished_keys() or not csv_path.exists():
        return 0
    question = {c["key"]: (c["sfen"], c["n"], c["zone"]) for c in cells}
    rows = read_csv(csv_path)
    taken = [row for row in rows
             if question.get(row["key"]) == (row["sfen"], row["n"], row["zone"])]
    store.record_many(taken + [row for row in rows if row["key"] not in question])
    if taken and shrunk_path.exists():
        store.record_shrunk_many(read_csv(shrunk_path, SHRUNK_COLUMNS))
    return len(taken)


def shrink_disagreements(exp: Experiment, store: Store, jobs: int, progress: bool) -> int:
    """Shrink every disagreement not shrunk yet; returns how many were shrunk now."""
    engines = {e.label: e for e in exp.engines}
    done = {(r["instance"], r["label_a"], r["label_b"]) for r in store.shrunk_rows()}
    count = 0
    for d in disagreements(store.rows(), list(engines)):
        a, b = d["pair"]
        if (d["instance"], a, b) in done or a not in engines or b not in engines:
            continue
        if progress:
            print(f"[{exp.name}] shrinking {d['instance']}: {a} and {b} disagree", file=sys.stderr)
        store.record_shrunk(shrink_disagreement(d, engines[a], engines[b], jobs))
        count += 1
    return count


def shrink_disagreement(d: dict, eng_a: EngineConfig, eng_b: EngineConfig, jobs: int) -> dict:
    """Re-run the two engines on ever smaller positions (both in worker processes, with
    their timeouts) and keep the smallest on which they still disagree."""
    seen: dict[str, tuple] = {}

    def verdicts(pos: Position) -> tuple:
        sfen = pos.sfen()
        if sfen not in seen:
            inst = {"id": d["instance"], "sfen": sfen, "n": d["n"], "zone": pos.geo.zone}
            cells = [make_cell(inst, eng) for eng in (eng_a, eng_b)]
            got = {}
            with contextlib.closing(iter_pool(cells, run_cell, min(jobs, 2), kill_after(cells))) as pool:
                for end in pool:
                    got[end.task["label"]] = (None if isinstance(end.result, Lost)
                                              else Answer.from_row(end.result).verdict)
            seen[sfen] = (got[eng_a.label], got[eng_b.label])
        return seen[sfen]

    def still_disagrees(pos: Position) -> bool:
        ma, mb = verdicts(pos)
        return ma is not None and mb is not None and ma != mb

    original = Position.from_sfen(d["sfen"], zone=d["zone"])
    reproduced = still_disagrees(original)
    result = shrink(original, still_disagrees) if reproduced else None
    final = result.position if result else original
    mate_a, mate_b = verdicts(final)
    return {"instance": d["instance"], "label_a": eng_a.label, "label_b": eng_b.label,
            "n": d["n"], "zone": final.geo.zone, "sfen": d["sfen"], "reproduced": reproduced,
            "shrunk_sfen": final.sfen(), "mate_a": mate_a, "mate_b": mate_b,
            "removed": result.removed if result else 0, "tries": result.tries if result else 0}
