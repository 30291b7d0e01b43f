"""What certification costs: its seconds against the question's, on the agreement questions.

    python -m tsumeqbf.bench certify [--solver depqbf] [--encoding compact] [--count 60]
                                     [--sizes 3x3,4x4,5x5] [--plies 1,3,5] [--timeout S]

Questions are the agreement experiment's generator (seed 2024) on the given boards and
plies. Each is asked with ``--certify``; a line per question gives the verdict, the
question's seconds (encoding, writing and solving), the certification's seconds, their
ratio, the strategy nodes checked and the sub-questions solved. The summary gives, per
verdict, the median and largest ratio and how many questions certified within 10x (the
goal) and within 10x plus one second. A question the solver does not decide in time is
counted apart.
"""

from __future__ import annotations

import statistics

from ..arguments import BenchParser, positive_float_or_default, positive_int_or_default
from ..engines import run_engine
from ..values import Status
from ..rules import Position
from ..rules.generate import question_set

GOAL = 10.0


def main(argv: list[str]) -> int:
    p = BenchParser(prog="python -m tsumeqbf.bench certify")
    p.add_argument("--solver", default="depqbf")
    p.add_argument("--encoding", default="compact")
    p.add_argument("--count", type=positive_int_or_default, default=60)
    p.add_argument("--sizes", default="3x3,4x4,5x5")
    p.add_argument("--plies", default="1,3,5")
    p.add_argument("--timeout", type=positive_float_or_default, default=30.0,
                   help="seconds a question (and again "
                   "for its certification)")
    args = p.parse_args(argv)
    sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",")]
    plies = [int(x) for x in args.plies.split(",")]
    qs = question_set(seed=2024, count=args.count, sizes=sizes, plies=plies)
    print(f"{'question':12} {'n':>2} {'verdict':8} {'ask s':>8} {'certify s':>9} {'ratio':>7} "
          f"{'nodes':>6} {'calls':>5}")
    ratios: dict[Status, list[tuple[float, float]]] = {Status.MATE: [], Status.NOMATE: []}
    other: dict[str, int] = {}
    for q in qs:
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        r = run_engine(args.solver, pos, q["n"], timeout=args.timeout,
                       options={"encoding": args.encoding, "certify": True})
        cert = r.certification
        if cert is None or not cert.certified:
            why = (cert and cert.certify_reason) or r.error or r.status.value
            other[why.split(" after")[0]] = other.get(why.split(" after")[0], 0) + 1
            print(f"{q['id']:12} {q['n']:>2} {r.status:8} not certified: {why}")
            continue
        ask = r.timings.time_s - cert.certify_s
        ratio = cert.certify_s / ask
        ratios[r.status].append((ratio, cert.certify_s - GOAL * ask))
        print(f"{q['id']:12} {q['n']:>2} {r.status:8} {ask:8.3f} {cert.certify_s:9.3f} "
              f"{ratio:7.2f} {cert.strategy_nodes:>6} {r.facts['certify_calls']:>5}", flush=True)
    print()
    for verdict, got in ratios.items():
        if got:
            within = sum(ratio <= GOAL for ratio, _ in got)
            within_1s = sum(over <= 1.0 for _, over in got)
            print(f"{verdict:7} {len(got)} certified: ratio median {statistics.median(r for r, _ in got):.2f}, "
                  f"max {max(r for r, _ in got):.2f}; within {GOAL:g}x {within}/{len(got)}, "
                  f"within {GOAL:g}x + 1 s {within_1s}/{len(got)}")
    for why, count in sorted(other.items()):
        print(f"not certified: {count} ({why})")
    return 0
