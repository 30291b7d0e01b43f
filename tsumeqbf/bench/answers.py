"""Time to the answer and the answer's length of ``tsumeqbf solve`` as a user runs it.

    python -m tsumeqbf.bench answers [--yaneuraou] [--ids ID,...] [--shortest] [--csv FILE]

For each problem (the 42 YaneuraOu samples and/or Edo problems by id) ``solve_tsume`` runs
with its defaults (``--shortest``: the exact shortest asked for) and one row says the
stated length, the answer's length (useless interpositions not counted) and plies, the
first proof's plies, whether the answer is the exact shortest (``shortest``), the nodes of
the proof and of everything after it, the proof's seconds and the seconds to the answer
(wall clock, ``total_s``) and the CPU seconds of the whole call. Every answer is replayed
with the rules.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time

from ..arguments import table_csv
from ..data import read_rows
from ..dfpn.solve import replay_answer, solve_tsume
from ..rules import Position
from .dfpn import pick_edo

FIELDS = ["id", "stated_length", "status", "length", "plies", "first_plies", "shortest",
          "answer", "nodes", "after_nodes", "time_s", "total_s", "cpu_s", "replay"]


def problems(yaneuraou: bool, ids: str | None) -> list[dict]:
    """(id, sfen, stated_length) rows: the YaneuraOu samples, then the Edo ids asked for."""
    rows = []
    if yaneuraou:
        rows += [{"id": f"{r['yaneuraou_file'][:-5]}-{r['line_no']}", "sfen": r["sfen"],
                  "stated_length": r["stated_length"]}
                 for r in read_rows("yaneuraou_mate_samples.csv")]
    if ids:
        rows += pick_edo(read_rows("open_tsume_zukou_musou.csv"), 0, ids, "bench answers")
    return rows


def run_one(row: dict, shortest: bool) -> dict:
    pos = Position.from_sfen(row["sfen"])
    kwargs = {"shortest": True} if shortest else {}
    cpu = time.process_time()
    out = solve_tsume(pos, **kwargs)
    cpu = time.process_time() - cpu
    after = out.get("after_nodes", out.get("shorten_nodes"))
    return {"id": row["id"], "stated_length": row["stated_length"], "status": out["status"],
            "length": out["length"], "plies": out.get("plies"),
            "first_plies": out.get("first_plies"), "shortest": out.get("shortest", ""),
            "answer": out.get("answer"), "nodes": out["nodes"], "after_nodes": after,
            "time_s": round(out["time_s"], 3), "total_s": round(out["total_s"], 3),
            "cpu_s": round(cpu, 3),
            "replay": replay_answer(pos, out["pv"]) if out["pv"] else "-"}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tsumeqbf.bench answers")
    ap.add_argument("--yaneuraou", action="store_true", help="the 42 YaneuraOu samples")
    ap.add_argument("--ids", default=None, help="Edo problems by id (zukou-029,musou-077)")
    ap.add_argument("--shortest", action="store_true", help="solve --shortest (exact)")
    ap.add_argument("--csv", type=table_csv, default=None, help="write the rows to FILE as they finish")
    args = ap.parse_args(argv)
    rows = problems(args.yaneuraou, args.ids)
    if not rows:
        raise SystemExit("bench answers: no problems (give --yaneuraou and/or --ids)")
    sink = open(args.csv, "w", newline="", encoding="utf-8") if args.csv else None
    writer = csv.DictWriter(sink, fieldnames=FIELDS) if sink else None
    if writer:
        writer.writeheader()
    out = csv.DictWriter(sys.stdout, fieldnames=FIELDS)
    out.writeheader()
    for row in rows:
        result = run_one(row, args.shortest)
        out.writerow(result)
        sys.stdout.flush()
        if writer:
            writer.writerow(result)
            sink.flush()
    if sink:
        sink.close()
    return 0
