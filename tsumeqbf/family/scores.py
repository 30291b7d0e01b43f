"""The QBF solvers' scores on a written family: ``tsumeqbf family-score DIR``.

Each solver of :data:`tsumeqbf.solvers.runner.SOLVERS` is run (through
:func:`~tsumeqbf.solvers.runner.run_solver`) on every file of ``DIR/index.csv`` in a
format it reads (:data:`READS`: all five read QDIMACS, Qute alone QCIR), under a limit
on its CPU seconds that the kernel enforces (RLIMIT_CPU, so the machine's load does not
move it) and a wall-clock guard well above it. A row per cell: its verdict against the
truth the index records (proven without a QBF solver), ``wrong`` where it decided the
other way (a finding, never dropped), its CPU seconds, and the provenance fields of every
result row (:mod:`tsumeqbf.provenance`).

Rows are appended to the CSV as cells finish; a run started again with the same CSV
skips every cell it already holds for the same file bytes (``md5``) and limits (CPU and
memory), so an interrupt loses only the cells then running. A file whose bytes are not
those the index lists, or whose header's truth is not the index's, is refused before any
solver runs: the score of other bytes, or against another truth, would mean nothing. The
summary counts the cells of the run asked for (:func:`this_run`), not every row the CSV
keeps.

PAR-2 as the QBF field counts it: decided cells at their CPU seconds, every other cell
(unknown, error, or a wrong answer) at twice the limit.

>>> par2([{"decided": "1", "wrong": "0", "cpu_s": "3.0", "cpu_limit": "60"},
...        {"decided": "0", "wrong": "0", "cpu_s": "60.1", "cpu_limit": "60"}])
61.5
"""

from __future__ import annotations

import csv
import os
import statistics
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass

from ..provenance import FIELDS, row_fields
from ..rules import TsumeError
from ..solvers.runner import SOLVERS, SolverError, run_solver, solvers_stopped
from ..values import Status
from .writer import columns_problem, file_md5s, is_comment, read_index

#: the formats each solver reads (tried on the family's files: DepQBF, RAReQS, CAQE and
#: QFun stop at a QCIR file's first ``#``; Qute reads both)
READS = {"qdimacs": tuple(SOLVERS), "qcir": ("qute",)}
#: the columns of scores.csv, in order
SCORE_COLUMNS = ("id", "file", "format", "question", "board", "n", "encoding", "truth",
                 "solver", "status", "decided", "wrong", "cpu_s", "wall_s", "peak_mb",
                 "cpu_limit", "memory_mb", "message", "md5", "command",
                 *(f for f in FIELDS if f != "solver"))


@dataclass(frozen=True)
class ScoreLimits:
    cpu_s: int = 60  # the solver's CPU seconds (RLIMIT_CPU)
    wall_factor: float = 10.0  # the wall-clock guard, in multiples of cpu_s
    memory_mb: int = 4096  # the solver's address space (RLIMIT_AS)


def cells(index: list[dict], solvers, every: int = 1) -> list[tuple[dict, str]]:
    """(index row, solver) of every file in a format the solver reads, in index order;
    with ``every`` K, only the files of every K-th formula (a sample, to estimate a run).

    >>> rows = [{"id": f"f{k}", "format": fmt} for k in range(3) for fmt in ("qdimacs", "qcir")]
    >>> [(r["id"], r["format"], s) for r, s in cells(rows, ("depqbf", "qute"), every=2)]
    [('f0', 'qdimacs', 'depqbf'), ('f0', 'qdimacs', 'qute'), ('f0', 'qcir', 'qute'), ('f2', 'qdimacs', 'depqbf'), ('f2', 'qdimacs', 'qute'), ('f2', 'qcir', 'qute')]
    """
    ids = list(dict.fromkeys(row["id"] for row in index))
    kept = set(ids[::every])
    return [(row, s) for row in index if row["id"] in kept
            for s in solvers if s in READS.get(row["format"], ())]


def header_fields(path: str) -> dict[str, str]:
    """The ``key=value`` words of the file's comment header (QDIMACS ``c``, QCIR ``#``
    lines before the first other line)."""
    out: dict[str, str] = {}
    with open(path, "rb") as fh:
        for line in fh:
            if line.startswith(b"#QCIR"):
                continue
            if not is_comment(line):
                break
            for word in line[2:].decode("utf-8", "replace").split():
                key, eq, value = word.partition("=")
                if eq and key not in out:
                    out[key] = value
    return out


def score_cell(folder: str, row: dict, solver: str, limits: ScoreLimits,
               command: str = "") -> dict:
    """Run ``solver`` on the file of index ``row``; its scores.csv row."""
    path = os.path.join(folder, row["file"])
    try:
        result = run_solver(solver, path, timeout=limits.cpu_s * limits.wall_factor,
                            memory_mb=limits.memory_mb, cpu_limit=limits.cpu_s)
        status, message = result.status, result.message
        cpu_s, wall_s, peak = result.cpu_s, result.time_s, result.peak_mb
    except SolverError as exc:
        status, message, cpu_s, wall_s, peak = Status.ERROR.value, str(exc), None, None, None
    decided = status in ("true", "false")
    provenance = row_fields(solver, {"encoding": row["encoding"]})
    provenance["encoder_version"] = (header_fields(path).get("encoder-version")
                                     or provenance["encoder_version"])
    return {"id": row["id"], "file": row["file"], "format": row["format"],
            "question": row["question"], "board": row["board"], "n": row["n"],
            "encoding": row["encoding"], "truth": row["truth"], "solver": solver,
            "status": status, "decided": int(decided),
            "wrong": int(decided and status != row["truth"]),
            "cpu_s": None if cpu_s is None else round(cpu_s, 3),
            "wall_s": None if wall_s is None else round(wall_s, 3),
            "peak_mb": None if peak is None else round(peak, 1), "cpu_limit": limits.cpu_s,
            "memory_mb": limits.memory_mb, "message": message[:200], "md5": row["md5"],
            "command": command, **provenance}


#: the columns the summary reads as numbers: (column, may be empty, whole number)
_NUMBERS = (("n", False, True), ("decided", False, True), ("wrong", False, True),
            ("cpu_limit", False, True), ("memory_mb", False, True), ("cpu_s", True, False),
            ("wall_s", True, False), ("peak_mb", True, False), ("load", True, False))


def _bad_number(row: dict) -> str | None:
    """What is wrong with a row's numbers (a CSV edited by hand), else None.

    >>> _bad_number({"n": "3", "decided": "1", "wrong": "0", "cpu_limit": "60",
    ...              "memory_mb": "4096", "cpu_s": "", "wall_s": "0.1", "peak_mb": "2.5",
    ...              "load": "0.4"}) is None
    True
    >>> _bad_number({"n": "3", "decided": "yes"})
    "decided 'yes' is not a whole number"
    """
    for column, empty_ok, whole in _NUMBERS:
        text = row.get(column, "")
        if text == "" and empty_ok:
            continue
        try:
            float(text) if not whole else int(text)
        except ValueError:
            return f"{column} {text!r} is not a {'whole ' if whole else ''}number"
    return None


def _few(names: list) -> str:
    """Names for a one-line message: the first four, then how many more.

    >>> _few(["a", "b"]), _few(list("abcdefg"))
    ('a, b', 'a, b, c, d and 3 more')
    """
    return ", ".join(names) if len(names) <= 5 else f"{', '.join(names[:4])} and {len(names) - 4} more"


def read_scores(path: str) -> list[dict]:
    """The complete rows of an existing scores CSV (a last line cut by a kill is dropped);
    a CSV of other columns, or with a row whose numbers are not numbers, is refused,
    never overwritten."""
    if not os.path.exists(path):
        return []
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            rows = list(reader)
            columns = reader.fieldnames
    except UnicodeDecodeError:
        raise TsumeError(f"{path}: not a scores CSV (not UTF-8 text); give another --csv") from None
    except (OSError, csv.Error) as exc:
        raise TsumeError(f"cannot read {path}: {exc}") from None
    if columns is not None and tuple(columns) != SCORE_COLUMNS:
        raise TsumeError(f"{path}: not a scores CSV of this version "
                         f"({columns_problem(columns, SCORE_COLUMNS, _few)}); give another --csv")
    if rows and (None in rows[-1] or rows[-1].get(SCORE_COLUMNS[-1]) is None):
        rows.pop()  # the line a kill cut short
    for line, row in enumerate(rows, 2):
        bad = "fields" if None in row or None in row.values() else _bad_number(row)
        if bad:
            raise TsumeError(f"{path}: line {line}: " + (
                f"does not have the header's {len(SCORE_COLUMNS)} fields" if bad == "fields"
                else bad) + "; not a scores CSV as family-score writes it")
    return rows


def _key(row: dict) -> tuple:
    """What makes a cell the same cell again: the file's bytes, the solver, the limits."""
    return (row["file"], row["md5"], row["solver"], str(row["cpu_limit"]),
            str(row["memory_mb"]))


def _cell_key(row: dict, solver: str, limits: ScoreLimits) -> tuple:
    """:func:`_key` of the cell of index row ``row`` and ``solver`` under ``limits``."""
    return (row["file"], row["md5"], solver, str(limits.cpu_s), str(limits.memory_mb))


def cell_keys(index: list[dict], solvers, limits: ScoreLimits, every: int = 1) -> set:
    """The keys (:func:`_key`) of the cells a run with these solvers, limits and sample asks."""
    return {_cell_key(row, s, limits) for row, s in cells(index, solvers, every)}


def this_run(rows: list[dict], index: list[dict], solvers, limits: ScoreLimits,
             every: int = 1) -> list[dict]:
    """The rows of a scores CSV that are cells of this run: what its summary counts (a CSV
    also holds the rows of runs with other solvers, limits or family bytes)."""
    keys = cell_keys(index, solvers, limits, every)
    # one row a cell, the last (two runs that shared a CSV at once may both have run one)
    return list({_key(r): r for r in rows if _key(r) in keys}.values())


def check_files(folder: str, index: list[dict]) -> None:
    """Every indexed file exists with the bytes the index lists and a header whose
    ``truth=`` is the index's; else one line (a tampered family is never scored)."""
    for row in index:
        path = os.path.join(folder, row["file"])
        if not os.path.isfile(path):
            raise TsumeError(f"{path}: listed in index.csv but missing; write the family again")
        if file_md5s(path)[0] != row["md5"]:
            raise TsumeError(f"{path}: not the bytes index.csv lists (md5); write the family again")
        said = header_fields(path).get("truth")
        if said != row["truth"]:
            raise TsumeError(f"{path}: its header says truth={said or '(none)'}, index.csv "
                             f"says {row['truth']}; write the family again")


def score_family(folder: str, csv_path: str, solvers=tuple(SOLVERS),
                 limits: ScoreLimits = ScoreLimits(), jobs: int = 1, command: str = "",
                 every: int = 1, log=None) -> list[dict]:
    """Score every cell of the family in ``folder`` not yet in ``csv_path``, appending a
    row as each finishes (``command``, the command line that runs it, in each); returns
    every row of the CSV (those kept and the new)."""
    index = read_index(folder)
    check_files(folder, index)
    kept = read_scores(csv_path)
    with open(csv_path, "w", encoding="utf-8", newline="") as fh:  # without a cut line
        writer = csv.DictWriter(fh, fieldnames=SCORE_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(kept)
    have = {_key(r) for r in kept}
    todo = [(row, s) for row, s in cells(index, solvers, every)
            if _cell_key(row, s, limits) not in have]
    if log:
        print(f"{len(todo)} cells to run, {len(kept)} kept from {csv_path}", file=log, flush=True)
    new = []
    with open(csv_path, "a", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=SCORE_COLUMNS, lineterminator="\n")

        def record(out: dict) -> None:
            writer.writerow(out)
            fh.flush()
            new.append(out)
            if log:
                print(f"[{len(new)}/{len(todo)}] {out['file']} {out['solver']}: {out['status']}"
                      f"{' WRONG' if out['wrong'] else ''} {out['cpu_s']} CPU s",
                      file=log, flush=True)

        if jobs <= 1:
            for row, solver in todo:
                record(score_cell(folder, row, solver, limits, command))
        else:
            _run_pool(todo, jobs, record, folder, limits, command)
    return kept + new


#: seconds the main thread waits for a cell at a time: a stop signal the kernel gave a
#: worker thread is acted on by the main thread when it next wakes
WAKE_S = 0.5


def _run_pool(todo, jobs: int, record, folder: str, limits: ScoreLimits, command: str) -> None:
    """The cells on ``jobs`` threads, each recorded the moment it finishes, whatever the
    order. On an interrupt the cells finished by then are recorded, the solvers still
    running are killed (their threads would otherwise hold the exit until each ends) and
    nothing after is kept."""
    pool = ThreadPoolExecutor(jobs)
    pending = {pool.submit(score_cell, folder, row, s, limits, command) for row, s in todo}
    done: set = set()
    try:
        while pending:
            done, pending = wait(pending, timeout=WAKE_S, return_when=FIRST_COMPLETED)
            while done:
                record(done.pop().result())
    except BaseException:
        # (taken before the kill: a cell whose solver is killed must not be recorded)
        finished = [f for f in (*done, *pending) if f.done() and not f.cancelled()
                    and f.exception() is None]
        with solvers_stopped():  # until every thread has ended: a solver it starts dies too
            try:
                pool.shutdown(wait=False, cancel_futures=True)
                for future in finished:
                    record(future.result())
            finally:
                pool.shutdown(wait=True)
        raise
    pool.shutdown(wait=True)


def par2(rows: list[dict]) -> float | None:
    """Penalised average CPU seconds: a decided, right cell at its CPU seconds, any other
    at twice its limit."""
    if not rows:
        return None
    return statistics.fmean(float(r["cpu_s"]) if int(r["decided"]) and not int(r["wrong"])
                            else 2 * float(r["cpu_limit"]) for r in rows)


def _label(row: dict) -> str:
    """A solver and, where it reads more than one format, the format."""
    many = sum(row["solver"] in names for names in READS.values()) > 1
    return f"{row['solver']} ({row['format']})" if many else row["solver"]


def _board_key(board: str) -> tuple:
    w, _, h = board.partition("x")
    return (int(w), int(h)) if w.isdigit() and h.isdigit() else (0, 0)


def _spread(values) -> str:
    values = sorted({v for v in values if v not in (None, "")})
    return ", ".join(values) if len(values) <= 3 else f"{values[0]} ... {values[-1]} ({len(values)})"


def render_scores(rows: list[dict], asked: int | None = None) -> str:
    """scores.md from the rows of scores.csv alone: who ran it and how, per solver the
    totals, per board x plies group each solver's decided cells and PAR-2, and every
    wrong answer by name."""
    labels = sorted({_label(r) for r in rows}, key=lambda x: (list(SOLVERS).index(x.split()[0]), x))
    loads = [float(r["load"]) for r in rows if r.get("load")]
    cpu_s = sum(float(r["cpu_s"] or 0) for r in rows)
    lines = ["# The QBF solvers on the benchmark family", "",
             f"Made by `{_spread(r['command'] for r in rows)}` "
             f"(then with `--report-only` to draw this page from the CSV alone)."
             f" {len(rows)} cells" + (f" of {asked}" if asked is not None else "") +
             f", {len({r['file'] for r in rows})} files; limit {_spread(r['cpu_limit'] for r in rows)}"
             f" CPU s and {_spread(r['memory_mb'] for r in rows)} MB a cell; "
             f"{cpu_s / 3600:.2f} CPU hours in the solvers. Code {_spread(r['commit'] for r in rows)}"
             f"; encoder {_spread(r['encoder_version'] for r in rows)}; {_spread(r['cpu_model'] for r in rows)}"
             + (f", 1-minute load {min(loads):.2f} to {max(loads):.2f}" if loads else "") + ".",
             "", "A decided cell is right when it matches the truth the index records (brute "
             "force, df-pn on the rules engine and the strategy check of that file); "
             "PAR-2 counts a decided, right cell at its CPU seconds and every other cell "
             "(unknown, error, wrong) at twice the limit.", "",
             "| solver | version | cells | decided | true | false | wrong | unknown | error | PAR-2 CPU s |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for label in labels:
        mine = [r for r in rows if _label(r) == label]
        count = lambda **kv: sum(all(r[k] == v for k, v in kv.items()) for r in mine)  # noqa: E731
        lines.append(f"| {label} | {_spread(r['solver_version'] for r in mine)} | {len(mine)} | "
                     f"{count(decided='1')} | {count(status='true')} | {count(status='false')} | "
                     f"{count(wrong='1')} | {count(status=Status.UNKNOWN)} | {count(status=Status.ERROR)} | "
                     f"{par2(mine):.1f} |")
    groups = sorted({(r["board"], int(r["n"])) for r in rows},
                    key=lambda g: (_board_key(g[0]), g[1]))
    lines += ["", "Per board and plies: decided of cells (PAR-2 CPU s).", "",
              "| board | n | " + " | ".join(labels) + " |",
              "|---|---:|" + "---:|" * len(labels)]
    for board, n in groups:
        cols = []
        for label in labels:
            mine = [r for r in rows if _label(r) == label and r["board"] == board
                    and int(r["n"]) == n]
            cols.append(f"{sum(r['decided'] == '1' for r in mine)}/{len(mine)} "
                        f"({par2(mine):.1f})" if mine else "")
        lines.append(f"| {board} | {n} | " + " | ".join(cols) + " |")
    wrong = [r for r in rows if r["wrong"] == "1"]
    lines += ["", f"Wrong answers: {len(wrong)}."]
    lines += [f"- {r['solver']} says {r['status']} on `{r['file']}` (truth {r['truth']}; "
              f"{r['cpu_s']} CPU s; {r['solver_version']})" for r in wrong]
    errors = [r for r in rows if r["status"] == Status.ERROR]
    if errors:
        lines += ["", f"Errors: {len(errors)}."]
        lines += [f"- {r['solver']} on `{r['file']}`: {r['message']}" for r in errors[:20]]
    return "\n".join(lines) + "\n"
