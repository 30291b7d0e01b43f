"""Where an Edo answer's length differs from the stated one, bounded df-pn says which is right.

    python -m tsumeqbf.bench lengths [--rows FILE,...] [--max-plies K] [--max-nodes N]
                                     [--ids ID,...] [--backend rules|cshogi] [--csv FILE] [--resume]

The stated lengths of the Edo records are the recorded lines' lengths, not verified minimax
lengths (tsumeqbf/data/SOURCES.md), and df-pn's answer is the best line its proofs hold, not
always the shortest mate. For every solved problem in the unbounded rows (``bench dfpn``'s
CSVs; a later file's row replaces an earlier one's) whose answer length differs from the
stated one, bounded df-pn (exact Mate(P, n), every ply counted) answers, where n is at most
``--max-plies``:

* ``stated``: is there a mate within the stated length?
* ``shorter``: is there a mate within our raw line's plies minus 2? If not, our line is a
  shortest mate counting every ply.

Both questions share one search (a proof at fewer plies holds at more). ``finding`` says
what follows; rows are written as problems finish and ``--resume`` keeps them.
"""

from __future__ import annotations

import csv
from pathlib import Path

from ..arguments import BenchParser, positive_int_or_default, table_csv
from ..data import read_rows
from ..dfpn import DfPn
from ..dfpn.cshogi_backend import BACKENDS, make_game
from ..rules import Position
from ..provenance import FIELDS as PROVENANCE, row_fields
from ..usage import measured
from ..values import Status
from . import BenchError
from .dfpn import open_rows, pick_edo

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_ROWS = "results/runs/dfpn-edo/dfpn-edo-1m.csv,results/runs/dfpn-edo/dfpn-zukou-10m.csv"
FIELDS = ["id", "stated_length", "length", "plies", "max_nodes", "stated_mate", "stated_nodes",
          "shorter_n", "shorter_mate", "shorter_nodes", "finding", "cpu_s", *PROVENANCE]


def differing(rows_files: list[Path]) -> dict[str, dict]:
    """The solved rows whose length differs from the stated one, by id (later files win)."""
    by_id: dict[str, dict] = {}
    for path in rows_files:
        with open(path, encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                by_id[row["id"]] = row
    return {i: r for i, r in by_id.items()
            if r["status"] == Status.MATE and int(r["length"]) != int(r["stated_length"])}


def finding(stated: int, length: int, stated_mate: bool | None, shorter_mate: bool | None) -> str:
    """What the two bounded verdicts say about a length difference (None: not decided).

    >>> finding(9, 21, False, False)
    'no mate within the stated length (every ply counted); ours is a shortest mate'
    >>> finding(13, 19, True, True)
    'a mate within the stated length exists: ours is not the shortest'
    >>> finding(51, 17, None, False)
    'shorter than stated; ours is a shortest mate'
    """
    ours_shortest = shorter_mate is False
    if stated_mate is True and length > stated:
        return "a mate within the stated length exists: ours is not the shortest"
    if shorter_mate is True:
        return "a mate shorter than ours exists"
    if stated_mate is False:
        return "no mate within the stated length (every ply counted)" + ("; ours is a shortest mate" if ours_shortest else "")
    if length < stated:
        return "shorter than stated" + ("; ours is a shortest mate" if ours_shortest else "")
    return "ours is a shortest mate" if ours_shortest else "undecided"


def audit(pos, stated: int, plies: int, length: int, max_plies: int, max_nodes: int,
          backend: str) -> dict:
    """The bounded verdicts for one problem (see the module docstring)."""
    search = DfPn(make_game(pos.copy(), backend))
    asked = {"stated": stated if stated <= max_plies and stated < plies else None,
             "shorter": plies - 2 if 1 <= plies - 2 <= max_plies else None}
    out = {"stated_mate": "-", "stated_nodes": "", "shorter_n": asked["shorter"] or "",
           "shorter_mate": "-", "shorter_nodes": ""}
    verdicts = {"stated": None, "shorter": None}
    for n in sorted({v for v in asked.values() if v}):  # one search when both ask the same n
        before = search.nodes
        search.max_nodes = before + max_nodes
        res = search.solve(n)
        for name in (k for k, v in asked.items() if v == n):
            verdicts[name] = res.proven
            out[f"{name}_mate"], out[f"{name}_nodes"] = Status.of(res.proven).value, search.nodes - before
    out["finding"] = finding(stated, length, verdicts["stated"], verdicts["shorter"])
    return out


def main(argv: list[str]) -> int:
    ap = BenchParser(prog="python -m tsumeqbf.bench lengths")
    ap.add_argument("--rows", default=DEFAULT_ROWS,
                    help=f"bench dfpn CSVs, comma-separated (default {DEFAULT_ROWS})")
    ap.add_argument("--max-plies", type=positive_int_or_default, default=15,
                    help="largest bound asked (odd)")
    ap.add_argument("--max-nodes", type=positive_int_or_default, default=2_000_000,
                    help="nodes per question")
    ap.add_argument("--ids", default=None, help="only these problems (zukou-050,musou-007)")
    ap.add_argument("--backend", choices=BACKENDS, default="rules")
    ap.add_argument("--csv", type=table_csv, default=None)
    ap.add_argument("--resume", action="store_true",
                    help="keep the problems already in --csv (delete a row to ask it again, "
                         "say with more nodes)")
    args = ap.parse_args(argv)
    files = [ROOT / f if not Path(f).is_absolute() else Path(f) for f in args.rows.split(",")]
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        raise BenchError(f"no such rows file: {', '.join(missing)}")
    rows = differing(files)
    problems = pick_edo(read_rows("open_tsume_zukou_musou.csv"), 200, args.ids)
    todo = [p for p in problems if p["id"] in rows]
    if args.resume and not args.csv:
        raise BenchError("--resume needs --csv")
    sink, writer, done = open_rows(args.csv, args.resume, FIELDS)
    done = {problem for problem, _ in done}
    print(f"{len(todo)} solved problems whose length differs from the stated one"
          + (f", {len(done)} already in {args.csv}" if done else ""), flush=True)
    try:
        for p in todo:
            if p["id"] in done:
                continue
            r = rows[p["id"]]
            stated, length, plies = int(r["stated_length"]), int(r["length"]), int(r["plies"])
            with measured() as used:
                out = audit(Position.from_sfen(p["sfen"]), stated, plies, length, args.max_plies,
                            args.max_nodes, args.backend)
            row = {"id": p["id"], "stated_length": stated, "length": length, "plies": plies,
                   "max_nodes": args.max_nodes, **out, "cpu_s": round(used.cpu_s, 3),
                   **row_fields("tsume", {"backend": args.backend})}
            if writer:
                writer.writerow(row)
                sink.flush()
            print(f"{p['id']:10s} stated {stated:3d} ours {length:3d} ({plies} plies)  "
                  f"stated: {out['stated_mate']:7s} shorter: {out['shorter_mate']:7s} "
                  f"{out['finding']}", flush=True)
    finally:
        if sink:
            sink.close()
    return 0
