"""The strategy check at depth: written formulas of real problems proven without a QBF solver.

    python -m tsumeqbf.bench formulacheck [--lengths 3,5,7,9,11] [--per-length 1]
                                          [--encodings enumerated,compact,lifted]
                                          [--format qcir|qdimacs] [--strategy dfpn|reference]
                                          [--timeout S] [--asked mate,nomate]
    python -m tsumeqbf.bench formulacheck --edo [--max-length 13] [--cpu-limit S]
                                          [--encodings ...] [--format ...] [--strategy ...]

For the first ``--per-length`` YaneuraOu samples of each stated length d, each encoding
writes Mate(P, d) (a mate) and Mate(P, d - 2) (no mate, the samples' lengths being the
shortest) to a temporary file, and :func:`tsumeqbf.solvers.formula_check.check_file`
proves its truth value from the strategy of ``--strategy``. A line per formula: the
sample, n, encoding, the expected truth, the result (``proven true``, ``proven false``,
``not proven`` with the line, ``unknown`` with the reason), the seconds to encode and
write, the seconds of the check (reading the file, the strategy, its replay, the SAT
call; the encoding in memory is the one that wrote the file), the clauses of the SAT call. The summary counts proven formulas and failures (the goal: 0).

``--edo``: the Edo problems (将棋図巧, 将棋無双) of at most ``--max-length`` plies, each
asked at its stated length (a mate or not, as the strategy finds: most of them mate only
later under these rules), each encoding written by ``tsumeqbf encode`` and checked by
``tsumeqbf check-formula``, both as child processes under the kernel's CPU limit
(``--cpu-limit``, RLIMIT_CPU), so the seconds are CPU seconds by ``os.wait4`` and a
loaded machine does not change which formulas finish. A formula the encoder does not
write within the limit is counted apart (``not written``), as is a check the limit
stops (``unknown``).
"""

from __future__ import annotations

import os
import tempfile
import time

from ..arguments import BenchParser, positive_float_or_default, positive_int_or_default
from ..data import collection_cases
from ..encoder.registry import encode
from ..limits import LimitReached, limits
from ..rules import Position
from ..solvers.formula_check import CheckFailed, CheckUnknown, check_file, write_formula
from ..values import Status


def main(argv: list[str]) -> int:
    p = BenchParser(prog="python -m tsumeqbf.bench formulacheck")
    p.add_argument("--lengths", default="3,5,7,9,11")
    p.add_argument("--per-length", type=positive_int_or_default, default=1)
    p.add_argument("--encodings", default="enumerated,compact,lifted")
    p.add_argument("--format", default="qcir", choices=("qcir", "qdimacs"))
    p.add_argument("--strategy", default="dfpn", choices=("dfpn", "reference"))
    p.add_argument("--timeout", type=positive_float_or_default, default=120.0,
                   help="seconds to encode, and again for the check, per formula")
    p.add_argument("--asked", default="mate,nomate",
                   help="mate: at the stated length d; nomate: at d - 2 (default both)")
    p.add_argument("--edo", action="store_true",
                   help="the Edo problems at their stated lengths instead of the samples")
    p.add_argument("--max-length", type=positive_int_or_default, default=13,
                   help="--edo: the longest stated")
    p.add_argument("--cpu-limit", type=positive_int_or_default, default=600,
                   help="--edo: CPU seconds to encode, and again for the check, per formula")
    args = p.parse_args(argv)
    if args.edo:
        return _edo(args)
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


def _edo(args) -> int:
    cases = [c for c in collection_cases("open_tsume_zukou_musou.csv")
             if c["n"] <= args.max_length]
    print(f"{'problem':10} {'n':>2} {'encoding':11} {'encode CPU s':>12} {'check CPU s':>11} "
          f"{'peak MB':>7}  result", flush=True)
    counts = {"proven": 0, "not proven": 0, Status.UNKNOWN: 0, "not written": 0}
    cpu = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            for encoding in args.encodings.split(","):
                status, line, seconds = _edo_one(case, encoding, tmp, args)
                counts[status] += 1
                cpu += seconds
                print(f"{case['id']:10} {case['n']:>2} {encoding:11} {line}", flush=True)
    print(f"{sum(counts.values())} formulas: proven {counts['proven']}, not proven "
          f"{counts['not proven']} (the goal: 0), unknown {counts[Status.UNKNOWN]} (CPU limit "
          f"{args.cpu_limit} s), not written {counts['not written']}; {cpu:.1f} CPU s in all")
    return 0


def _edo_one(case, encoding, tmp, args) -> tuple[str, str, float]:
    """Encode and check one formula, each a child process under RLIMIT_CPU; (status, the
    report's columns, CPU seconds)."""
    import json

    path = os.path.join(tmp, f"{case['id']}-{encoding}.{args.format}")
    n = str(case["n"])
    enc = _tsumeqbf(["encode", case["sfen"], "-n", n, "--encoding", encoding, "--format",
                     args.format, "-o", path, "--quiet"], args.cpu_limit)
    enc_s = enc.cpu_s or 0.0
    if enc.code != 0:
        why = "CPU limit" if enc.cpu_limited() else (enc.err.strip().splitlines() or ["?"])[-1]
        return "not written", f"{enc_s:12.1f} {'':>11} {enc.peak_mb or 0:7.0f}  not written: {why}", enc_s
    chk = _tsumeqbf(["check-formula", path, "--sfen", case["sfen"], "-n", n, "--encoding",
                     encoding, "--strategy", args.strategy, "--json"], args.cpu_limit)
    os.remove(path)
    chk_s = chk.cpu_s or 0.0
    cols = f"{enc_s:12.1f} {chk_s:11.1f} {max(enc.peak_mb or 0, chk.peak_mb or 0):7.0f}"
    if chk.cpu_limited():
        return Status.UNKNOWN, f"{cols}  unknown: CPU limit", enc_s + chk_s
    try:
        res = json.loads(chk.out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return "not proven", f"{cols}  not proven: {chk.err.strip()[-200:]}", enc_s + chk_s
    if res["status"] == "proven":
        return "proven", (f"{cols}  proven {'true' if res['truth'] else 'false'} "
                          f"({res['strategy_nodes']} strategy nodes, {res['conditions']} "
                          f"conditions, {res['clauses']} clauses)"), enc_s + chk_s
    status = Status.UNKNOWN if res["status"] == Status.UNKNOWN.value else "not proven"
    return status, f"{cols}  {res['status']}: {res['reason']}", enc_s + chk_s


def _tsumeqbf(argv: list[str], cpu_limit: int):
    """``python -m tsumeqbf ARGV`` in a process group of its own under RLIMIT_CPU."""
    import sys

    from ..solvers.runner import SolverSpec, run_child

    return run_child(SolverSpec("tsumeqbf", ()), sys.executable, ["-m", "tsumeqbf", *argv],
                     timeout=None, memory_mb=None, cpu_limit=cpu_limit)
