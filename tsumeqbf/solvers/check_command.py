"""``tsumeqbf check-formula FILE [--sfen SFEN] [-n N] [--encoding E] ...``: a written
formula's truth value proven from an independent strategy (:mod:`.formula_check`).

The question and the encoding default to what the file's ``FILE.names.json`` sidecar (or,
without one, its comment lines) says, the rules and the move-choice axes to what its
header says (``encode`` and ``family`` write them); options given override the file. One line on stdout when proven (exit 0); otherwise one line
on stderr naming the encoding, the question and the line of play to investigate (exit 1).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys

from ..arguments import STDOUT, output_file, positive_float, positive_int, positive_int_or_default
from ..rules import TsumeError, check_n
from ..rules.problem_files import load_position
from ..values import Status
from .formula_check import (CheckFailed, CheckUnknown, DEFAULT_MAX_LINES, check_aiger,
                            check_file, write_aiger, write_certificate)


def register(sub) -> None:
    from ..encoder.command import move_choice_args
    from ..encoder.registry import ENCODINGS

    p = sub.add_parser("check-formula",
                       help="prove a written QDIMACS/QCIR formula's truth value from a "
                            "brute-force or df-pn strategy and SAT calls (no QBF solver)")
    p.add_argument("file", help="the formula, as `encode` wrote it (QDIMACS or QCIR)")
    p.add_argument("--sfen", default=None, help="the question (default: the file's sidecar)")
    p.add_argument("-n", type=int, default=None, help="odd number of plies (default: the file's)")
    p.add_argument("--zone", type=int, default=None, help="promotion-zone depth Z")
    p.add_argument("--no-hands", action="store_true", help="the no-hands rules (paper needs them)")
    p.add_argument("--encoding", default=None, choices=ENCODINGS,
                   help="the encoding that wrote the file (default: the file's)")
    p.add_argument("--used-kinds-only", action="store_true", help="as `encode` took it")
    move_choice_args(p)
    p.add_argument("--strategy", default="reference", choices=("reference", "dfpn"),
                   help="where the strategy comes from: brute force (default) or the Python df-pn")
    p.add_argument("--max-nodes", type=positive_int, default=None,
                   help="node limit of the strategy's searches")
    p.add_argument("--max-lines", type=positive_int_or_default, default=DEFAULT_MAX_LINES,
                   help=f"lines of play the strategy may have (default {DEFAULT_MAX_LINES:,})")
    p.add_argument("--timeout", type=positive_float, default=None,
                   help="seconds for the whole check")
    p.add_argument("--certificate", default=None, metavar="PATH", type=output_file,
                   help="write the checked strategy (JSON) there ('-': standard output, the "
                        "result then on stderr)")
    p.add_argument("--aiger", default=None, metavar="PATH", type=output_file,
                   help="write the checked Skolem (true) or Herbrand (false) functions there "
                        "as an ASCII AIGER certificate ('-': standard output, the result then "
                        "on stderr)")
    p.add_argument("--verify-aiger", default=None, metavar="PATH",
                   help="check an AIGER certificate against FILE instead (no strategy, no "
                        "encoder)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=cmd_check_formula)


def file_question(path: str) -> dict:
    """sfen, n, zone, encoding as the sidecar or the file's comment lines give them, and
    from the comment lines (the header of tsumeqbf/encoder/header.py) the rules
    (``no_hands``) and the move-choice axes where the file names them."""
    out: dict = {}
    try:
        with open(path) as fh:
            for line in fh:
                if not line.startswith(("c ", "# ", "#QCIR")):
                    if not line.startswith("c") and not line.startswith("#"):
                        break
                text = line[2:].strip()
                if m := re.match(r"tsumeqbf encoding=(\S+)", text):
                    out["encoding"] = m.group(1)
                elif text.startswith("sfen="):
                    out["sfen"] = text[5:]
                elif m := re.match(r"n=(\d+) zone=(\d+)", text):
                    out["n"], out["zone"] = int(m.group(1)), int(m.group(2))
                elif text.startswith("rules="):
                    out["no_hands"] = text == "rules=no-hands"
                elif m := re.match(r"attacker-moves=(\S+) defender-moves=(\S+) "
                                   r"used-kinds-only=(yes|no)$", text):
                    out["attacker_moves"], out["defender_moves"] = m.group(1), m.group(2)
                    out["used_kinds_only"] = m.group(3) == "yes"
    except OSError as exc:
        raise TsumeError(f"cannot read {path}: {exc.strerror}") from None
    sidecar = path + ".names.json"
    if os.path.exists(sidecar):
        try:
            with open(sidecar) as fh:
                data = json.load(fh)
            out.update({k: data.get(k) for k in ("sfen", "n", "zone", "encoding")})
        except (OSError, ValueError):
            pass
    return out


def cmd_check_formula(args) -> int:
    from ..encoder.registry import encoding_options

    if args.verify_aiger:
        return _verify_aiger(args)
    if args.certificate == args.aiger == STDOUT:
        raise TsumeError("--certificate and --aiger cannot both be standard output")
    known = file_question(args.file)
    sfen = args.sfen or known.get("sfen")
    n = args.n if args.n is not None else known.get("n")
    encoding = args.encoding or known.get("encoding")
    if not sfen or n is None or not encoding:
        raise TsumeError(f"{args.file}: the question is not known from the file; give --sfen, "
                         f"-n and --encoding")
    check_n(n)
    zone = args.zone if args.zone is not None else known.get("zone")
    pos = load_position(sfen, zone=zone)
    if args.no_hands or known.get("no_hands") or encoding == "paper":
        pos = pos.with_no_hands()
    pos.validate_question()
    # the move choices given, else those the file's header names
    asked = {k: known[k] for k in ("attacker_moves", "defender_moves", "used_kinds_only")
             if k in known}
    asked.update({k: v for k, v in vars(args).items()
                  if k in ("attacker_moves", "defender_moves", "used_kinds_only") and v})
    try:
        choices = encoding_options(encoding, asked)
    except ValueError as exc:
        raise TsumeError(str(exc)) from None
    try:
        result = check_file(args.file, pos, n, encoding, strategy=args.strategy,
                            choices=choices, max_nodes=args.max_nodes, timeout=args.timeout,
                            max_lines=args.max_lines)
    except (CheckFailed, CheckUnknown) as exc:
        status = "not proven" if isinstance(exc, CheckFailed) else Status.UNKNOWN.value
        print(f"tsumeqbf: {status}: {encoding}, {pos.sfen()} n={n}: {exc}", file=sys.stderr)
        if args.json:
            print(json.dumps({"file": args.file, "encoding": encoding, "sfen": pos.sfen(),
                              "n": n, "status": status, "reason": str(exc),
                              "line": getattr(exc, "line", [])}))
        return 1
    if args.certificate:
        write_certificate(result, args.certificate, pos)
    if args.aiger:
        write_aiger(result, args.aiger)
    if STDOUT in (args.certificate, args.aiger):  # standard output holds the file alone
        with contextlib.redirect_stdout(sys.stderr):
            return _report(args, result, encoding, pos, n)
    return _report(args, result, encoding, pos, n)


def _report(args, result, encoding: str, pos, n: int) -> int:
    """Print the proven result; exit status 0."""
    if args.json:
        print(json.dumps({"file": args.file, "encoding": encoding, "sfen": pos.sfen(), "n": n,
                          "status": "proven", "truth": result.truth, "format": result.fmt,
                          "strategy": result.strategy, "strategy_nodes": result.nodes,
                          "conditions": result.lines, "clauses": result.clauses,
                          "seconds": round(result.seconds, 3)}))
        return 0
    print(f"{result.line()}: {result.nodes} strategy nodes, {result.lines} conditions, "
          f"{result.clauses} clauses, {result.seconds:.2f} s")
    return 0


def _verify_aiger(args) -> int:
    try:
        truth = check_aiger(args.file, args.verify_aiger)
    except CheckFailed as exc:
        print(f"tsumeqbf: not proven: {args.file} by {args.verify_aiger}: {exc.message}",
              file=sys.stderr)
        return 1
    word = "true" if truth else "false"
    if args.json:
        print(json.dumps({"file": args.file, "certificate": args.verify_aiger,
                          "status": "proven", "truth": truth}))
    else:
        print(f"proven {word}: {args.file} by the certificate {args.verify_aiger}")
    return 0
