"""Bounded df-pn speed on real problems: nodes, seconds and nodes per second.

    python -m tsumeqbf.bench dfpn [--max-nodes N]

Problems: the YaneuraOu mate-3..11 samples at their stated length (real 9x9 positions).
When cshogi is installed its ``DfPn`` runs on the same positions (unbounded, its own
rules: not an oracle, see tests/data/SOURCES.md) and its figures are printed beside ours.
The unbounded solver for the Edo collections is not built yet (issue 4).
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from ..dfpn import DfPn, ShogiGame
from ..rules import Position

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tsumeqbf.bench dfpn")
    ap.add_argument("--max-nodes", type=int, default=1_000_000)
    args = ap.parse_args(argv)
    try:
        import cshogi
    except ImportError:
        cshogi = None
    with open(DATA / "yaneuraou_mate_samples.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    print(f"{'problem':18s} {'n':>3s} {'verdict':8s} {'nodes':>8s} {'s':>7s} {'nodes/s':>8s}"
          + (f" | {'cshogi nodes':>12s} {'s':>7s} {'ratio':>6s}" if cshogi else ""))
    total_nodes = total_s = 0.0
    for r in rows:
        pos = Position.from_sfen(r["sfen"])
        n = int(r["stated_length"])
        start = time.perf_counter()
        res = DfPn(ShogiGame(pos), max_nodes=args.max_nodes).solve(n)
        took = time.perf_counter() - start
        total_nodes += res.nodes
        total_s += took
        verdict = {True: "mate", False: "no mate", None: "unknown"}[res.proven]
        line = (f"{r['yaneuraou_file'][:-5] + '-' + r['line_no']:18s} {n:3d} {verdict:8s} "
                f"{res.nodes:8d} {took:7.3f} {res.nodes / max(took, 1e-9):8.0f}")
        if cshogi:
            board = cshogi.Board(r["sfen"])
            search = cshogi.DfPn()
            search.set_max_search_node(args.max_nodes)
            start = time.perf_counter()
            search.search(board)
            c_s = time.perf_counter() - start
            line += f" | {search.searched_node:12d} {c_s:7.3f} {res.nodes / max(search.searched_node, 1):6.2f}"
        print(line, flush=True)
    print(f"\ntotal: {int(total_nodes)} nodes in {total_s:.2f} s, "
          f"{total_nodes / max(total_s, 1e-9):.0f} nodes/s (ratio: our nodes / cshogi's)")
    return 0
