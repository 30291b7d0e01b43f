"""Dispatch ``python -m tsumeqbf.bench {movegen,qbf,dfpn,answers,lengths,along,certify,bloqqer,undecided,formulacheck,native-ab,usi-mate} [options]``."""

import importlib
import sys

BENCHMARKS = ("movegen", "qbf", "dfpn", "answers", "lengths", "along", "certify", "bloqqer",
              "undecided", "formulacheck", "native-ab", "usi-mate")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in BENCHMARKS:
        print(f"usage: python -m tsumeqbf.bench {{{','.join(BENCHMARKS)}}} [options]", file=sys.stderr)
        return 2
    try:
        module = importlib.import_module(f"tsumeqbf.bench.{argv[0].replace('-', '_')}")
    except ModuleNotFoundError as exc:
        print(f"tsumeqbf.bench: benchmark {argv[0]!r} is not available ({exc})", file=sys.stderr)
        return 2
    return module.main(argv[1:]) or 0


sys.exit(main(sys.argv[1:]))
