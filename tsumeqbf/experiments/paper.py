"""The founding paper's questions and published numbers (Ishiwaki et al., Tables 1-6).

Shared by the experiments (the ``paper`` instance source, the ``paper-tables`` report) and
``python -m tsumeqbf.bench qbf``. Table membership comes from the tables themselves
(``ishiwaki_tables.csv``), not from the figures file's looser ``paper_tables`` tags.

>>> [q["id"] for q in table_questions([1])]
['paper-fig5-n1', 'paper-fig6-n1', 'paper-fig6-n3']
>>> row = paper_rows()[0]
>>> row["table"], row["board"], row["plies"], row["variables"], row["mate"]
(1, '3x3', 1, 3860, True)
"""

from __future__ import annotations

from ..data import read_jsonl, read_rows
from ..rules import TsumeError

#: package data files (see tsumeqbf/data/SOURCES.md)
TABLES_CSV = "ishiwaki_tables.csv"
FIGURES_JSONL = "figures.jsonl"
#: tables 5 and 6 repeat 3 and 4 with the variables of unused piece kinds removed
UNUSED_KINDS_REMOVED = (5, 6)


def paper_rows() -> list[dict]:
    """Every printed row of Tables 1-6, typed (``mate`` is the paper's SAT/UNSAT)."""
    return [{"table": int(r["table"]), "figure": r["figure"], "board": r["board"],
             "plies": int(r["plies"]), "variables": int(r["variables"]),
             "clauses": int(r["clauses"]), "result": r["result"],
             "mate": r["result"] == "SAT", "encoder_s": float(r["encoder_s"]),
             "solver_s": float(r["solver_s"]), "note": r["note"]}
            for r in read_rows(TABLES_CSV)]


def figure_questions() -> list[dict]:
    """The questions behind the tables, each with ``figure`` ("5".."8") and ``board`` ("3x3")."""
    out = read_jsonl(FIGURES_JSONL)
    for q in out:
        q["figure"] = q["id"].split("-")[1].removeprefix("fig")
        q["board"] = f"{q['width']}x{q['height']}"
    return out


def question_key(q: dict) -> tuple[str, str, int]:
    """(figure, board, plies): how a table row names its question."""
    return (q["figure"], q["board"], q.get("plies", q.get("n")))


def table_questions(tables=range(1, 7)) -> list[dict]:
    """Instances for the questions of the given tables, in table order, each once:
    ``id, sfen, n, zone, mate, figure, board, tables`` (the tables that print it)."""
    wanted = set(tables)
    by_key = {question_key(q): q for q in figure_questions()}
    out: dict[str, dict] = {}
    for row in paper_rows():
        if row["table"] not in wanted:
            continue
        q = by_key.get(question_key(row))
        if q is None:
            raise TsumeError(f"{FIGURES_JSONL}: no question for figure {row['figure']} "
                             f"on {row['board']} at {row['plies']} plies (table {row['table']})")
        inst = out.setdefault(q["id"], {
            "id": q["id"], "sfen": q["sfen"], "n": q["n"], "zone": q["zone"], "mate": q["mate"],
            "figure": q["figure"], "board": q["board"], "tables": []})
        if row["table"] not in inst["tables"]:
            inst["tables"].append(row["table"])
    return list(out.values())
