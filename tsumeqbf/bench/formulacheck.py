"""The strategy check at depth: written formulas of real problems proven without a QBF solver.

    python -m tsumeqbf.bench formulacheck [--lengths 3,5,7,9,11] [--per-length 1]
                                          [--encodings enumerated,compact,lifted]
                                          [--format qcir|qdimacs] [--strategy dfpn|reference]
                                          [--timeout S] [--asked mate,nomate]

For the first ``--per-length`` YaneuraOu samples of each stated length d, each encoding
writes Mate(P, d) (a mate) and Mate(P, d - 2) (no mate, the samples' lengths being the
shortest) to a temporary file, and :func:`tsumeqbf.solvers.formula_check.check_file`
proves its truth value from the strategy of ``--strategy``. A line per formula: the
sample, n, encoding, the expected truth, the result (``proven true``, ``proven false``,
``not proven`` with the line, ``unknown`` with the reason), the seconds to encode and
write, the seconds of the check (reading the file, the strategy, its replay, the SAT
call; the encoding in memory is the one that wrote the file), the clauses of the SAT call. The summary counts proven formulas and failures (the goal: 0).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from ..data import collection_cases
from ..encoder.registry import encode
from ..limits import LimitReached, limits
from ..rules import Position
from ..solvers.formula_check import CheckFailed, CheckUnknown, check_file, write_formula
from ..values import Status


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m tsumeqbf.bench formulacheck")
    p.add_argument("--lengths", default="3,5,7,9,11")
    p.add_argument("--per-length", type=int, default=1)
    p.add_argument("--encodings", default="enumerated,compact,lifted")
    p.add_argument("--format", default="qcir", choices=("qcir", "qdimacs"))
    p.add_argument("--strategy", default="dfpn", choices=("dfpn", "reference"))
    p.add_argument("--timeout", type=float, default=120.0,
                   help="seconds to encode, and again for the check, per formula")
    p.add_argument("--asked", default="mate,nomate",
                   help="mate: at the stated length d; nomate: at d - 2 (default both)")
    args = p.parse_args(argv)
    lengths = [int(x) for x in args.lengths.split(",")]
    cases = [c for c in collection_cases("yaneuraou_mate_samples.csv") if c["n"] in lengths]
    chosen = []
    for d in lengths:
        chosen += [c for c in cases if c["n"] == d][:args.per_length]
    print(f"{'sample':22} {'n':>2} {'encoding':11} {'expect':6} {'encode s':>8} "
          f"{'check s':>8} {'clauses':>9}  result")
    counts = {"proven": 0, "not proven": 0, Status.UNKNOWN: 0}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, f"f.{args.format}")
        for case in chosen:
            pos = Position.from_sfen(case["sfen"])
            asked = args.asked.split(",")
            for n, expect in ((case["n"], True), (case["n"] - 2, False)):
                if n < 1 or Status.of(expect) not in asked:
                    continue
                for encoding in args.encodings.split(","):
                    status, line = _one(pos, n, encoding, path, args)
                    counts[status] += 1
                    print(f"{case['id'][:22]:22} {n:>2} {encoding:11} {str(expect):6} {line}",
                          flush=True)
    print(f"proven {counts['proven']}, not proven {counts['not proven']} (the goal: 0), "
          f"unknown {counts[Status.UNKNOWN]}")
    return 0


def _one(pos, n, encoding, path, args) -> tuple[str, str]:
    start = time.monotonic()
    try:
        with limits(start + args.timeout):
            enc = encode(pos, n, encoding)
            write_formula(enc, path)
    except LimitReached as exc:
        return Status.UNKNOWN, (f"{time.monotonic() - start:8.1f} {'':>8} {'':>9}  "
                                f"unknown: {exc.reason}")
    encode_s = time.monotonic() - start
    try:
        r = check_file(path, pos, n, encoding, strategy=args.strategy, timeout=args.timeout,
                       enc=enc)
    except CheckFailed as exc:
        return "not proven", (f"{encode_s:8.1f} {time.monotonic() - start - encode_s:8.1f} "
                              f"{'':>9}  not proven: {exc}")
    except CheckUnknown as exc:
        return Status.UNKNOWN, (f"{encode_s:8.1f} {time.monotonic() - start - encode_s:8.1f} "
                                f"{'':>9}  unknown: {exc}")
    return "proven", (f"{encode_s:8.1f} {r.seconds:8.1f} {r.clauses:>9}  "
                      f"proven {'true' if r.truth else 'false'} ({r.nodes} strategy nodes, "
                      f"{r.lines} conditions)")
