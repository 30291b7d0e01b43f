"""Dispatch ``python -m tsumeqbf.bench {movegen,qbf,dfpn,answers,lengths,along,certify,bloqqer,undecided,formulacheck,native-ab,usi-mate} [options]``.

Each benchmark's ``--help`` says what it takes. Bad input that a benchmark raises
(:class:`~tsumeqbf.bench.BenchError` for an option, a combination of options or a file it
refuses; TsumeError, another ValueError of its arguments, a file that cannot be read or
written or is not text) ends in one line on stderr, ``tsumeqbf.bench NAME: error: MESSAGE``,
and exit status 2, as the command line's; Ctrl-C in 130. So does an option argparse
refuses (each bench's parser is :class:`~tsumeqbf.arguments.BenchParser`):
a number that is not one, a fraction where a count is asked, or one below its bound (0 is
refused wherever it would mean nothing, as for ``--repeat``; ``--edo 0`` is no problems)."""

import importlib
import sys

from ..arguments import failure_text

BENCHMARKS = ("movegen", "qbf", "dfpn", "answers", "lengths", "along", "certify", "bloqqer",
              "undecided", "formulacheck", "native-ab", "usi-mate")
USAGE = f"usage: python -m tsumeqbf.bench {{{','.join(BENCHMARKS)}}} [options]"


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if not argv or argv[0] not in BENCHMARKS:
        unknown = f"unknown benchmark {argv[0]!r}\n" if argv else ""
        print(f"{unknown}{USAGE}", file=sys.stderr)
        return 2
    try:
        module = importlib.import_module(f"tsumeqbf.bench.{argv[0].replace('-', '_')}")
    except ModuleNotFoundError as exc:
        print(f"tsumeqbf.bench: benchmark {argv[0]!r} is not available ({exc})", file=sys.stderr)
        return 2
    try:
        return module.main(argv[1:]) or 0
    except KeyboardInterrupt:
        print(f"tsumeqbf.bench {argv[0]}: interrupted", file=sys.stderr)
        return 130
    except (ValueError, OSError) as exc:  # BenchError, TsumeError, UnicodeDecodeError
        print(f"tsumeqbf.bench {argv[0]}: error: {failure_text(exc)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
