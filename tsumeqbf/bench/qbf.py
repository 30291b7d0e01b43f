"""QBF sizes and times per question, encoding and solver, beside the founding paper's figures.

    python -m tsumeqbf.bench qbf [--solvers depqbf,rareqs] [--encodings paper,compact]
                                 [--timeout S] [--yaneuraou K] [--samples 5,7] [--no-figures]
                                 [--attacker-moves C] [--defender-moves C] [--paper-max-width W]

Questions: the founding paper's figures (``figures.jsonl`` in ``tsumeqbf/data``), the first K
mate-in-3 positions of YaneuraOu's samples (real 9x9 games, both sides holding pieces) and,
with ``--samples``, every sample of the stated lengths given, asked at its length.
Encoding ``paper`` asks the figures under the paper's no-hands rules and skips the samples
(they hold pieces in hand).
For each it prints variables, clauses, encode and solve seconds and the verdict, and for the
paper's questions the paper's own variables, clauses and DepQBF 6.0 seconds (Tables 1-4),
with the ratio of our variables and clauses to the paper's. A solver that runs out of time
shows ``timeout``; the run goes on.
"""

from __future__ import annotations

import time

from ..arguments import (BenchParser, non_negative_int, positive_float_or_default,
                        positive_int_or_default)
from ..data import collection_cases
from ..encoder.command import formula_stats
from ..encoder.registry import ENCODINGS, encode
from ..experiments.paper import figure_questions, paper_rows, question_key
from ..rules import Position
from ..solvers.engine import solve_mate
from ..values import Limits, Status, verdict_of
from . import BenchError


def paper_index() -> dict[tuple, dict]:
    """(figure, board, plies) -> the paper's row from Tables 1-4 (all piece kinds)."""
    rows = {}
    for row in paper_rows():
        if row["table"] <= 4:
            rows.setdefault(question_key(row), row)
    return rows


def questions(yaneuraou: int, lengths: list[int] = (), figures: bool = True) -> list[dict]:
    """The paper's figures, the first ``yaneuraou`` mate-in-3 samples, and every sample
    whose stated length is in ``lengths`` (asked at that length)."""
    out = figure_questions() if figures else []
    samples = collection_cases("yaneuraou_mate_samples.csv")
    mate3 = [q for q in samples if q["n"] == 3][:yaneuraou]
    chosen = mate3 + [q for q in samples if q["n"] in lengths and q not in mate3]
    return out + [{**q, "zone": None, "width": 9, "height": 9} for q in chosen]


def main(argv: list[str]) -> int:
    ap = BenchParser(prog="python -m tsumeqbf.bench qbf")
    ap.add_argument("--solvers", default="depqbf,rareqs")
    ap.add_argument("--encodings", default="paper,compact,enumerated")
    ap.add_argument("--timeout", type=positive_float_or_default, default=60.0,
                    help="seconds per solver call")
    ap.add_argument("--yaneuraou", type=non_negative_int, default=5,
                    help="how many mate-in-3 samples")
    ap.add_argument("--samples", default="",
                    help="stated lengths (e.g. 5,7): every YaneuraOu sample of those lengths, "
                         "asked at its length")
    ap.add_argument("--no-figures", action="store_true", help="leave out the paper's figures")
    ap.add_argument("--attacker-moves", default="binary", help="move choice axis (see encode)")
    ap.add_argument("--defender-moves", default="binary", help="move choice axis (see encode)")
    ap.add_argument("--paper-max-width", type=positive_int_or_default, default=9,
                    help="skip the paper encoding on wider boards (it is slow to solve)")
    ap.add_argument("--max-plies", type=positive_int_or_default, default=11)
    args = ap.parse_args(argv)
    encodings = [e for e in args.encodings.split(",") if e]
    bad = [e for e in encodings if e not in ENCODINGS]
    if bad:
        raise BenchError(f"unknown encoding {bad[0]!r}; choose from {', '.join(ENCODINGS)}")
    solvers = [s for s in args.solvers.split(",") if s]
    paper = paper_index()
    header = (f"{'question':24s} {'enc':11s} {'vars':>7s} {'clauses':>8s} {'enc_s':>6s} "
              f"{'solver':7s} {'solve_s':>8s} {'verdict':8s} | {'paper vars':>10s} "
              f"{'clauses':>8s} {'solve_s':>8s} | {'vars%':>6s} {'cls%':>6s}")
    print(header)
    print("-" * len(header))
    lengths = [int(x) for x in args.samples.split(",") if x]
    for q in questions(args.yaneuraou, lengths, not args.no_figures):
        if q["n"] > args.max_plies:
            continue
        full_rules = Position.from_sfen(q["sfen"], zone=q["zone"])
        ref = paper.get(question_key(q)) if "figure" in q else None
        for encoding in encodings:
            if encoding.startswith("paper") and q["width"] > args.paper_max_width:
                continue
            pos = full_rules
            if encoding == "paper":  # the paper's question: its rules, without hands
                if any(any(h) for h in full_rules.hands):
                    continue
                pos = full_rules.with_no_hands()
            axes = {} if encoding == "paper" else {"attacker_moves": args.attacker_moves,
                                                   "defender_moves": args.defender_moves}
            enc = encode(pos, q["n"], encoding, **axes)
            stats = formula_stats(*enc.formula.prefix_and_matrix()[:2])
            for solver in solvers:
                started = time.monotonic()
                r = solve_mate(pos, q["n"], Limits.within(args.timeout),
                               {"solver": solver, "encoding": encoding, **axes})
                verdict = "ERROR" if r.status is Status.ERROR else r.status.word
                if r.status.decided and r.verdict != verdict_of(q):
                    verdict = "WRONG"  # never expected: the figures' verdicts are the paper's
                solve_s = (r.timings.solve_s if r.timings.solve_s is not None
                           else time.monotonic() - started)
                line = (f"{q['id']:24s} {encoding:11s} {stats['vars']:7d} {stats['clauses']:8d} "
                        f"{enc.encode_s:6.2f} {solver:7s} {solve_s:8.2f} {verdict:8s} |")
                if ref:
                    pv, pc = ref["variables"], ref["clauses"]
                    line += (f" {pv:10d} {pc:8d} {ref['solver_s']:8.2f} |"
                             f" {100 * stats['vars'] / pv:5.1f}% {100 * stats['clauses'] / pc:5.1f}%")
                print(line, flush=True)
                if r.status is Status.ERROR:
                    print(f"    error: {r.error}", flush=True)
    print("\npaper: DepQBF 6.0 on the authors' machine; vars%/cls%: ours as a share of the paper's.")
    return 0
