"""The ``tsumeqbf`` command line.

    tsumeqbf mate SFEN -n N [--zone Z] [--engine E] [--no-hands] [--json] [--quiet]
    tsumeqbf batch CASES.jsonl --engine E [--jobs J] [--timeout S] -o OUT.jsonl
    tsumeqbf show SFEN [--zone Z] [--json]
    tsumeqbf --version

Sub-packages add their own commands (``encode``, ``solve``, ``experiment``, ``usi``)
through a ``register(subparsers)`` function in their ``command`` module. SFEN may also
name a problem file (``rules/problem_files.py``); a FILE written is standard output when
it is ``-`` (:mod:`tsumeqbf.arguments`). Every user error is one line on stderr and exit
status 2; a question left undecided (``unknown``, ``error``) exits 1. SIGTERM, SIGHUP
and SIGINT stop a command the way Ctrl-C does (:mod:`tsumeqbf.stop`): its clean-up runs
(no solver outlives it, finished results are kept) and it exits with 128 + the signal's
number.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys

from .arguments import (failure_text, output_file, positive_float, positive_int,
                        positive_int_or_default, to_stdout)
from .engines import ENGINES, is_qbf_engine
from .progress import phase, phase_notes, shows_phases
from .rules import Position, TsumeError
from .rules.problem_files import POSITION_HELP, load_position
from .scratch import scratch_dir
from .stop import Stopped, stop_on_signals
from .values import Answer, Question, Status


def _encode_commands(sub) -> None:
    from .encoder.command import register
    register(sub)


def _check_commands(sub) -> None:
    from .solvers.check_command import register
    register(sub)


def _solve_commands(sub) -> None:
    from .dfpn.command import register
    register(sub)


def _experiment_commands(sub) -> None:
    from .experiments.command import register
    register(sub)


def _usi_commands(sub) -> None:
    from .usi.command import register
    register(sub)


def _family_commands(sub) -> None:
    from .family.command import register
    register(sub)


#: what contributes sub-commands, each importing its package's ``command`` module and
#: calling its ``register(subparsers)``, in the order the help lists them
COMMANDS = (_encode_commands, _check_commands, _solve_commands, _experiment_commands,
            _usi_commands, _family_commands)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump), exit status 2."""

    def error(self, message: str):
        # the top-level parser's prog is the "tsumeqbf" that main's error line begins with
        raise TsumeError(message if " " not in self.prog else f"{self.prog}: {message}")


def _position_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("sfen", help=POSITION_HELP)
    p.add_argument("--zone", type=int, default=None,
                   help="promotion-zone depth Z (default: 3 on 9 ranks, ceil(H/3) otherwise)")
    p.add_argument("--tsume-hands", action="store_true",
                   help="9x9 only: the defender holds every piece not on the board or in the attacker's hand")


def _engine_options(args) -> dict:
    """The options dict the engines and ``batch`` read: the flags of the engines' options
    classes that were given, each checked against the engine that takes it, and the
    question's own (memory, CPU seconds, no hands, deepening)."""
    from .dfpn.engine import MateOptions
    from .solvers.engine import QbfOptions
    from .solvers.portfolio import PortfolioOptions

    given = {**QbfOptions.given(args), **PortfolioOptions.given(args), **MateOptions.given(args)}
    # the certification's own limits, taken only with --certify
    certify_limits = {name: given[name] for name in ("certify_timeout", "certify_max_nodes")
                      if given.get(name) is not None}
    options = {name: value for name, value in given.items()
               if value not in (None, False) and name not in certify_limits}
    if "solver" in options:
        options["solver"] = _check_solver(args.engine, options["solver"])
    if getattr(args, "max_nodes", None):
        options["max_nodes"] = args.max_nodes
    if getattr(args, "memory_mb", None):
        options["memory_mb"] = args.memory_mb
    if getattr(args, "cpu_limit", None) is not None:
        options["cpu_limit"] = args.cpu_limit
    if getattr(args, "no_hands", False):
        options["no_hands"] = True
    if getattr(args, "portfolio_jobs", None) is not None:
        options["jobs"] = args.portfolio_jobs
    for flag in ("members", "jobs"):
        if flag in options and args.engine != "portfolio":
            raise TsumeError(f"--{flag} sets the portfolio's members; engine {args.engine!r} "
                             f"is not the portfolio")
    if getattr(args, "deepen", False):
        options["deepen"] = True
    if "backend" in options and args.engine != "dfpn":
        raise TsumeError(f"--backend chooses the dfpn engine's search; engine {args.engine!r} "
                         f"has none")
    if getattr(args, "strategy", None):
        options.update(strategy=args.strategy, certify=True)
    if options.get("certify"):
        if not is_qbf_engine(args.engine):
            what = ("--strategy writes a QBF verdict's strategy" if getattr(args, "strategy", None)
                    else "--certify checks a QBF verdict")
            raise TsumeError(f"{what}; engine {args.engine!r} is not a QBF engine")
        options.update(certify_limits)
    elif "certify_max_nodes" in certify_limits:
        raise TsumeError("--certify-nodes caps what --certify checks; give it with --certify")
    if args.engine == "portfolio":  # a member that cannot run is bad input, said up front
        from .solvers.portfolio import checked
        from .solvers.runner import SolverError

        try:
            checked(options)
        except (ValueError, SolverError) as exc:
            raise TsumeError(str(exc)) from None
    return options


def _check_solver(engine: str, solver: str) -> str:
    """``--solver`` as engine qbf's solver; a name that is neither a solver nor an
    executable is bad input (exit 2), a known solver that is not installed is the
    engine's error (exit 1)."""
    from .solvers.runner import SolverError, find_solver, is_known

    if engine != "qbf":
        raise TsumeError(f"--solver picks the solver of engine qbf; engine {engine!r} "
                         f"{'runs its own' if is_qbf_engine(engine) else 'runs no QBF solver'}")
    if not is_known(solver):
        try:
            find_solver(solver)
        except SolverError as exc:
            raise TsumeError(str(exc)) from None
    return solver


def no_hands_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-hands", action="store_true",
                   help="the no-hands rules of RULES.md: a captured piece leaves the game, nobody "
                        "drops (the founding paper's rules; encoding 'paper' needs them)")


def _qbf_args(p: argparse.ArgumentParser) -> None:
    """The flags of ``mate`` and ``batch`` that choose how an engine answers: those of
    each engine's options class (left unset unless given) and the question's own."""
    from .dfpn.engine import MateOptions
    from .solvers.engine import QbfOptions
    from .solvers.portfolio import PortfolioOptions

    no_hands_arg(p)
    QbfOptions.add_flags(p, given_only=True)
    PortfolioOptions.add_flags(p, given_only=True)  # its certification flags are the QBF engine's
    p.add_argument("--memory-mb", type=positive_int, default=None,
                   help="memory limit (MB) of the question: this process's resident memory "
                        "while encoding or searching, the QBF solver's address space")
    p.add_argument("--cpu-limit", type=positive_float, default=None, metavar="S",
                   help="CPU seconds for the whole question (the search's or encoder's and "
                        "the solver's, by the kernel's count), as QBF competitions set limits")
    p.add_argument("--deepen", action="store_true",
                   help="ask 1, 3, 5, ... n plies and stop at the first mate (the shortest); "
                        "one timeout for all")
    MateOptions.add_flags(p, given_only=True)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tsumeqbf",
                     description="Mate within n plies in generalized tsume-shogi: QBF, df-pn and brute force.")
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="print the versions of tsumeqbf, its encoder and the QBF solvers")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("mate", help="answer Mate(P, n) with one engine")
    _position_args(p)
    p.add_argument("-n", type=int, required=True, help="odd number of plies")
    p.add_argument("--engine", default="brute", help=", ".join(ENGINES))
    _qbf_args(p)
    p.add_argument("--timeout", type=positive_float, default=None,
                   help="seconds for the whole question (QBF: encoding, writing, solving)")
    p.add_argument("--jobs", "-j", dest="portfolio_jobs", type=positive_int_or_default,
                   default=None,
                   help="engine portfolio: members run at once (default: the cores this "
                        "process may use)")
    p.add_argument("--max-nodes", type=positive_int, default=None,
                   help="node limit (brute, dfpn, tsume)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true",
                   help="no progress: without it, a phase (listing, encoding, writing, solving, "
                        "certifying) that lasts over a second is named on stderr, with its "
                        "time (under --json only when stderr is a terminal)")
    p.add_argument("--strategy", default=None, metavar="FILE", type=output_file,
                   help="with a QBF engine: certify, and write the checked strategy tree "
                        "(JSON) with its main line in USI and Japanese notation ('-': "
                        "standard output, the answer then on stderr)")
    p.set_defaults(func=cmd_mate)

    p = sub.add_parser("batch", help="run one engine over a JSONL file of cases")
    p.add_argument("cases", help="JSONL: one object per line with id, sfen, n and optional zone")
    p.add_argument("--engine", default="brute", help=", ".join(ENGINES) + " (default: brute)")
    _qbf_args(p)
    p.add_argument("--jobs", "-j", type=positive_int_or_default, default=1,
                   help="cases at once, each in its own process (default: 1)")
    p.add_argument("--timeout", type=positive_float, default=None,
                   help="seconds per case, for the whole question")
    p.add_argument("--max-nodes", type=positive_int, default=None,
                   help="node limit per case (brute, dfpn, tsume)")
    p.add_argument("-o", "--output", required=True, type=output_file,
                   help="output JSONL, appended ('-': standard output); a case already "
                        "answered there by this configuration (engine, options, limits, "
                        "versions) is skipped, lines of other configurations are kept")
    p.add_argument("--quiet", action="store_true",
                   help="no progress line (what is skipped is still said)")
    p.set_defaults(func=cmd_batch)

    p = sub.add_parser("show", help="print the diagram and the legal moves")
    _position_args(p)
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: the SFEN, the zone and every legal move")
    p.set_defaults(func=cmd_show)

    for add_commands in COMMANDS:
        try:
            add_commands(sub)
        except ModuleNotFoundError as exc:  # a sub-package left out of this build
            if exc.name is None or not exc.name.startswith(f"{__package__}."):
                raise
    return parser


class _Version(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit(0)


def version_text() -> str:
    """tsumeqbf's version, the encoder's (and the encodings' own) and each QBF solver's:
    what it prints for ``--version`` (at most ``VERSION_TIMEOUT_S`` each), the pyqbf
    release that built it, the start of its SHA-256, or why it cannot run."""
    from . import __version__
    from .encoder.registry import ENCODINGS, VERSION, encoding_version
    from .solvers.runner import SOLVERS, SolverError, find_solver, solver_version

    own = {}
    for encoding in ENCODINGS:
        if encoding_version(encoding) != VERSION:
            own.setdefault(encoding_version(encoding), []).append(encoding)
    lines = [f"tsumeqbf {__version__}",
             f"encoder {VERSION}" + "".join(f"; {', '.join(names)}: {version}"
                                            for version, names in own.items())]
    for name in SOLVERS:
        try:
            lines.append(f"{name}: {solver_version(name)} ({find_solver(name)[1]})")
        except SolverError:
            lines.append(f"{name}: not installed")
    return "\n".join(lines)


def _load_position(args) -> Position:
    return load_position(args.sfen, zone=args.zone, tsume_hands=args.tsume_hands)


def cmd_mate(args) -> int:
    from .engines import run_engine

    pos = _load_position(args)
    options = _engine_options(args)
    with phase_notes("mate", shows_phases(args.json, args.quiet)):
        phase("solving")  # brute force and df-pn search; a QBF engine names its own phases
        answer = run_engine(args.engine, pos, args.n, timeout=args.timeout, options=options)
    # with --strategy -, standard output holds the strategy alone
    say = sys.stderr if to_stdout(args.strategy) else sys.stdout
    if args.json:
        print(json.dumps({**Question.of(pos, args.n).to_dict(), **answer.to_dict()},
                         ensure_ascii=False), file=say)
    else:
        _print_answer(answer, args.n, say)
    return 0 if answer.status.decided else 1


def _print_answer(answer: Answer, n: int, say) -> None:
    """``mate``'s answer as text: the verdict, engine and seconds, the mating first moves,
    the certification; the reason it is not decided on stderr."""
    facts, cert = answer.facts, answer.certification
    verdict = {Status.MATE: f"mate within {facts.get('mate_length', n)}",
               Status.NOMATE: f"no mate within {n}"}.get(answer.status, answer.status.value)
    if answer.engine == "tsume":  # unbounded: its line's length, n no bound on it
        length = facts.get("length")
        if answer.status is Status.MATE and length is not None:
            verdict = f"mate in {length}" + _tsume_length_note(length, facts.get("plies"), n)
        elif answer.status is Status.NOMATE:
            verdict = "no mate at any length"
    engine = answer.engine + (f": {facts['member']}" if facts.get("member") else "")
    print(f"{verdict}  [{engine}, {answer.timings.time_s:.3f} s]", file=say)
    moves = facts.get("mating_moves") or ([answer.first_move] if answer.first_move else [])
    if moves:
        print("mating first moves: " + " ".join(moves), file=say)
    if cert is not None and cert.certified:
        print(f"certified: {cert.strategy_nodes} strategy nodes checked by the rules "
              f"in {cert.certify_s:.3f} s", file=say)
        if cert.main_line:
            print("main line: " + " ".join(cert.main_line), file=say)
    elif cert is not None and answer.status is not Status.ERROR:
        print(f"not certified: {cert.certify_reason or ''}", file=say)
    if answer.error:
        print(f"tsumeqbf: {answer.status}: {answer.error}", file=sys.stderr)
    if facts.get("certificate") == "missing" and cert is None:
        print("tsumeqbf: note: the solver said true without a first move, so nothing of its "
              "verdict was checked (--certify checks it)", file=sys.stderr)


def _tsume_length_note(length: int, plies: int | None, n: int) -> str:
    """What engine tsume's ``mate in LENGTH`` needs beside it: its line's plies when the
    length leaves useless interpositions out, and whether they pass n. Mate(P, n) counts
    every ply, so ``plies``, not the length, is what n bounds.

    >>> _tsume_length_note(3, 3, 3), _tsume_length_note(7, 9, 9)
    ('', ' (9 plies, every ply counted)')
    >>> print(_tsume_length_note(7, 9, 7))  # doctest: +ELLIPSIS
     (9 plies, every ply counted: more than n = 7: engine tsume does not bound the length, ...)
    """
    plies = length if plies is None else plies
    counted = f"{plies} plies, every ply counted" if plies != length else ""
    if plies <= n:
        return f" ({counted})" if counted else ""
    return (f" ({counted + ': ' if counted else ''}more than n = {n}: engine tsume does not "
            f"bound the length, so whether a mate within {n} exists is not decided)")


def cmd_batch(args) -> int:
    from .batch import run_batch

    options = _engine_options(args)
    if args.engine == "portfolio" and args.jobs >= 1:
        from .solvers.portfolio import default_jobs

        options["jobs"] = max(1, default_jobs() // args.jobs)  # the cores a case is given
    run_batch(args.cases, args.output, engine=args.engine, jobs=args.jobs, timeout=args.timeout,
              options=options, progress=not args.quiet)
    return 0


def cmd_show(args) -> int:
    from .rules import diagram, move_to_japanese

    pos = _load_position(args)
    moves = pos.legal_moves()
    checks = set(pos.checks())
    if args.json:
        print(json.dumps({"sfen": pos.sfen(), "zone": pos.geo.zone, "moves": [
            {"usi": pos.usi(m), "japanese": move_to_japanese(pos, m), "check": m in checks}
            for m in sorted(moves, key=pos.usi)]}, ensure_ascii=False))
        return 0
    print(diagram(pos))
    print(f"{len(moves)} legal moves ({len(checks)} checks):")
    for m in sorted(moves, key=pos.usi):
        print(f"  {pos.usi(m):7s} {move_to_japanese(pos, m)}{'  check' if m in checks else ''}")
    return 0


def main(argv: list[str] | None = None) -> int:
    if sys.stdout is None:  # started with it closed (`>&-`): an answer would vanish unsaid
        if sys.stderr is not None:
            print("tsumeqbf: error: standard output is closed", file=sys.stderr)
        return 2
    try:
        parser = build_parser()
        first = (sys.argv[1:] if argv is None else argv)[:1]
        if first and first[0].startswith("-") and first[0] not in ("-h", "--help", "--version"):
            # (argparse would say only that a command is required)
            raise TsumeError(f"unrecognized option {first[0]}: a command comes first")
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, --version: printed, nothing else to do
            return exc.code or 0
        with stop_on_signals(), scratch_dir():
            return args.func(args)
    except TsumeError as exc:
        print(f"tsumeqbf: error: {exc}", file=sys.stderr)
        return 2
    except FileNotFoundError as exc:
        print(f"tsumeqbf: error: no such file: {exc.filename}", file=sys.stderr)
        return 2
    except Stopped as exc:
        print("tsumeqbf: interrupted" if exc.signum == signal.SIGINT
              else f"tsumeqbf: stopped by {signal.Signals(exc.signum).name}", file=sys.stderr)
        return exc.exit_status
    except KeyboardInterrupt:
        print("tsumeqbf: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`| head`): nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as exc:  # a path that is a folder, unwritable, a full disk: the user's to fix
        print(f"tsumeqbf: error: {failure_text(exc)}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:  # a text file of ours read as UTF-8 (problem files say more)
        print(f"tsumeqbf: error: an input file is not UTF-8 text ({exc.reason} at byte "
              f"{exc.start})", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug, but still one line and a non-zero exit
        print(f"tsumeqbf: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
