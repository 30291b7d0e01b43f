"""Time to the answer and the answer's length of ``tsumeqbf solve`` as a user runs it.

    python -m tsumeqbf.bench answers [--yaneuraou] [--ids ID,...] [--edo-up-to PLIES]
                                     [--shortest] [--csv FILE]

For each problem (the 42 YaneuraOu samples, Edo problems by id, and the Edo problems stated
at ``--edo-up-to`` plies or less) ``solve_tsume`` runs with its defaults (``--shortest``:
the exact shortest asked for) and one row says the stated length, the answer's length
(useless interpositions not counted) and plies, the first proof's plies, whether the
answer is the exact shortest (``shortest_exact``) and if not, with the native core, the most
plies within which its bounded search showed there is no mate (``no_mate_within``), the
nodes of the proof and of everything after it, the proof's seconds and the seconds to the
answer (wall clock, ``total_s``), the CPU seconds of the whole call and what made the row
(:data:`tsumeqbf.provenance.FIELDS`). Every answer is replayed with the rules. The summary
counts the answers proven the exact shortest and gives the CPU seconds.
"""

from __future__ import annotations

import csv
import statistics
import sys
import time

from ..arguments import BenchParser, positive_int, table_csv
from ..data import read_rows
from ..dfpn.solve import replay_answer, solve_tsume
from ..provenance import FIELDS as PROVENANCE, row_fields
from ..rules import Position
from . import BenchError
from .dfpn import pick_edo

FIELDS = ["id", "stated_length", "status", "length", "plies", "first_plies", "shortest_exact",
          "no_mate_within", "answer", "nodes", "after_nodes", "time_s", "total_s", "cpu_s",
          "replay", *PROVENANCE]


def problems(yaneuraou: bool, ids: str | None, edo_up_to: int | None = None) -> list[dict]:
    """(id, sfen, stated_length) rows: the YaneuraOu samples, then the Edo ids asked for,
    then the other Edo problems stated at ``edo_up_to`` plies or less.

    >>> [r["id"] for r in problems(False, "zukou-092", 9)]
    ['zukou-092', 'zukou-050', 'musou-065']
    """
    rows = []
    if yaneuraou:
        rows += [{"id": f"{r['yaneuraou_file'][:-5]}-{r['line_no']}", "sfen": r["sfen"],
                  "stated_length": r["stated_length"]}
                 for r in read_rows("yaneuraou_mate_samples.csv")]
    edo = read_rows("open_tsume_zukou_musou.csv")
    if ids:
        rows += pick_edo(edo, 0, ids)
    if edo_up_to is not None:
        asked = {r["id"] for r in rows}
        rows += [r for r in edo
                 if int(r["stated_length"]) <= edo_up_to and r["id"] not in asked]
    return rows


def run_one(row: dict, shortest: bool) -> dict:
    pos = Position.from_sfen(row["sfen"])
    kwargs = {"shortest": True} if shortest else {}
    cpu = time.process_time()
    out = solve_tsume(pos, **kwargs)
    cpu = time.process_time() - cpu
    return {"id": row["id"], "stated_length": row["stated_length"], "status": out["status"],
            "length": out["length"], "plies": out.get("plies"),
            "first_plies": out.get("first_plies"),
            "shortest_exact": out.get("shortest_exact", ""),
            "answer": out.get("answer"), "nodes": out["nodes"], "after_nodes": out.get("after_nodes"),
            "no_mate_within": out.get("no_mate_within", ""),
            "time_s": round(out["time_s"], 3), "total_s": round(out["total_s"], 3),
            "cpu_s": round(cpu, 3),
            "replay": replay_answer(pos, out["pv"]) if out["pv"] else "-",
            **row_fields("tsume", {"backend": out["backend"]}, pos)}


def summary(rows: list[dict]) -> str:
    """How many answers are proven the exact shortest, and the CPU seconds.

    >>> print(summary([{"shortest_exact": True, "cpu_s": 1.5}, {"shortest_exact": False, "cpu_s": 0.25}]))
    2 answers, 1 proven the exact shortest; 1.8 CPU s in all, 0.9 at the median
    """
    cpu = [r["cpu_s"] for r in rows]
    median = statistics.median(cpu) if cpu else 0.0
    exact = sum(r["shortest_exact"] is True for r in rows)
    return (f"{len(rows)} answers, {exact} proven the exact shortest; "
            f"{sum(cpu):.1f} CPU s in all, {median:.1f} at the median")


def main(argv: list[str]) -> int:
    ap = BenchParser(prog="python -m tsumeqbf.bench answers")
    ap.add_argument("--yaneuraou", action="store_true", help="the 42 YaneuraOu samples")
    ap.add_argument("--ids", default=None, help="Edo problems by id (zukou-029,musou-077)")
    ap.add_argument("--edo-up-to", type=positive_int, default=None, metavar="PLIES",
                    help="the Edo problems stated at PLIES or less")
    ap.add_argument("--shortest", action="store_true", help="solve --shortest (exact)")
    ap.add_argument("--csv", type=table_csv, default=None, help="write the rows to FILE as they finish")
    args = ap.parse_args(argv)
    rows = problems(args.yaneuraou, args.ids, args.edo_up_to)
    if not rows:
        raise BenchError("no problems (give --yaneuraou, --ids or --edo-up-to)")
    sink = open(args.csv, "w", newline="", encoding="utf-8") if args.csv else None
    writer = csv.DictWriter(sink, fieldnames=FIELDS) if sink else None
    if writer:
        writer.writeheader()
    out = csv.DictWriter(sys.stdout, fieldnames=FIELDS)
    out.writeheader()
    done = []
    for row in rows:
        result = run_one(row, args.shortest)
        done.append(result)
        out.writerow(result)
        sys.stdout.flush()
        if writer:
            writer.writerow(result)
            sink.flush()
    if sink:
        sink.close()
    print(summary(done))
    return 0
