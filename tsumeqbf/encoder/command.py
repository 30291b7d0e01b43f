"""``tsumeqbf encode SFEN -n N [--zone Z] [--encoding E] [--no-hands] [--format F] -o FILE``.

Writes the QDIMACS file (or with ``--format qcir`` the QCIR-14 circuit), a sidecar
``FILE.names.json`` that maps each variable number to its name (gates are named by their
role where they have one), and prints the formula's statistics. ``--timeout`` and
``--memory-mb`` bound the encoding and the writing (:func:`tsumeqbf.limits.limits`); past
one the command says ``unknown`` with the reason, exits 1 and leaves no partial file.
``-o -`` writes the formula to standard output, without the sidecar, and the statistics
to stderr.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time

from ..arguments import STDOUT, is_stream, output, output_file, positive_float, positive_int
from ..limits import LimitReached, limits
from ..progress import phase, phase_notes, shows_phases
from ..rules import Position, TsumeError, check_n
from ..rules.problem_files import POSITION_HELP, load_position
from .formula import qdimacs_pieces
from .header import header_lines
from .qcir import circuit, qcir_pieces
from .registry import DEFAULT_ENCODING, ENCODINGS, EncodingOptions, encode, encoding_options
from .size import check_plies


def register(sub) -> None:
    p = sub.add_parser("encode", help="write Mate(P, n) as a QDIMACS file")
    p.add_argument("sfen", help=POSITION_HELP)
    p.add_argument("-n", type=int, required=True, help="odd number of plies")
    p.add_argument("--zone", type=int, default=None, help="promotion-zone depth Z")
    p.add_argument("--tsume-hands", action="store_true",
                   help="9x9 only: the defender holds every remaining piece")
    p.add_argument("--no-hands", action="store_true",
                   help="the no-hands rules: captured pieces leave the game (encoding paper needs them)")
    p.add_argument("--encoding", default=DEFAULT_ENCODING, choices=ENCODINGS,
                   help=f"QBF encoding (default {DEFAULT_ENCODING})")
    p.add_argument("--used-kinds-only", action="store_true",
                   help="paper encoding: variables only for piece kinds in the position")
    move_choice_args(p)
    p.add_argument("--format", default="qdimacs", choices=("qdimacs", "qcir"),
                   help="QDIMACS (prenex CNF) or QCIR-14 (the circuit: gates and an output)")
    p.add_argument("-o", "--output", required=True, type=output_file,
                   help="file to write, with FILE.names.json beside it ('-': standard output, "
                        "no names file, the statistics on stderr)")
    p.add_argument("--timeout", type=positive_float, default=None,
                   help="seconds for encoding and writing")
    p.add_argument("--memory-mb", type=positive_int, default=None,
                   help="memory limit (MB) of the encoder (this process's resident memory)")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.add_argument("--quiet", action="store_true",
                   help="no progress: without it, a phase (listing, encoding, writing) that "
                        "lasts over a second is named on stderr, with its time (under --json "
                        "only when stderr is a terminal)")
    p.set_defaults(func=cmd_encode)


def move_choice_args(p) -> None:
    """``--attacker-moves`` and ``--defender-moves``, left unset unless given."""
    EncodingOptions.add_flags(p, ("attacker_moves", "defender_moves"), given_only=True)


def formula_stats(prefix, clauses) -> dict:
    return {"vars": max((v for _, vs in prefix for v in vs), default=0),
            "clauses": len(clauses), "blocks": len(prefix),
            "literals": sum(len(c) for c in clauses),
            "universals": sum(len(vs) for q, vs in prefix if q == "a")}


def cmd_encode(args) -> int:
    start = time.monotonic()
    check_n(args.n)
    check_plies(args.n)
    pos = load_position(args.sfen, zone=args.zone, tsume_hands=args.tsume_hands)
    if args.no_hands:
        pos = pos.with_no_hands()
    pos.validate_question()
    try:
        choices = encoding_options(args.encoding, vars(args))
    except ValueError as exc:
        raise TsumeError(str(exc)) from None
    deadline = None if args.timeout is None else start + args.timeout
    try:
        with limits(deadline, args.memory_mb) as budget, \
                phase_notes("encode", shows_phases(args.json, args.quiet)):
            phase("encoding")
            enc = encode(pos, args.n, args.encoding, **choices)
            enc.formula.comments = header_lines(enc, pos, args.encoding, choices)
            budget.stage = f"writing the {args.format.upper()}"
            phase("writing")
            stats = (_write_qcir if args.format == "qcir" else _write)(args, pos, enc)
    except LimitReached as exc:
        print(f"tsumeqbf: unknown: {exc.reason}", file=sys.stderr)
        return 1
    say = sys.stderr if args.output == STDOUT else sys.stdout
    shown = "standard output" if args.output == STDOUT else args.output
    if args.json:
        print(json.dumps(stats), file=say)
    elif args.format == "qcir":
        print(f"wrote {shown}: {stats['vars']} variables, {stats['gates']} gates, "
              f"{stats['blocks']} blocks, encoded in {stats['encode_s']:.3f} s", file=say)
    else:
        print(f"wrote {shown}: {stats['vars']} variables, {stats['clauses']} clauses, "
              f"{stats['blocks']} blocks, {stats['literals']} literals, "
              f"encoded in {stats['encode_s']:.3f} s", file=say)
    return 0


def _write(args, pos: Position, enc) -> dict:
    """Write the QDIMACS file and its names sidecar. Returns the statistics."""
    prefix, clauses, old_of_new = enc.formula.prefix_and_matrix()
    _write_files(args, pos, enc, qdimacs_pieces(prefix, clauses, enc.formula.comments),
                 {new: old for new, old in enumerate(old_of_new) if new and old})
    return {"file": args.output, "encoding": args.encoding, **formula_stats(prefix, clauses),
            "encode_s": round(enc.encode_s, 6)}


def _write_qcir(args, pos: Position, enc) -> dict:
    """Write the QCIR-14 file and its names sidecar. Returns the statistics."""
    prefix, gates, _, old_of = circuit(enc.formula)
    _write_files(args, pos, enc, qcir_pieces(prefix, gates, enc.formula.comments), old_of)
    return {"file": args.output, "encoding": args.encoding, "format": "qcir",
            "vars": sum(len(vs) for _, vs in prefix), "gates": len(gates),
            "blocks": len(prefix), "universals": sum(len(vs) for q, vs in prefix if q == "forall"),
            "encode_s": round(enc.encode_s, 6)}


def _write_files(args, pos: Position, enc, pieces, old_of: dict) -> None:
    """The formula's file and its names sidecar; both are removed if writing stops (a
    limit, Ctrl-C, a full disk). Standard output, a device or a FIFO gets the formula
    alone, and is never removed."""
    alone = args.output == STDOUT or is_stream(args.output)
    files = () if alone else (args.output, args.output + ".names.json")
    try:
        with output(args.output) as fh:
            for piece in pieces:
                fh.write(piece)
        if not files:
            return
        names = {str(new): enc.formula.names[old] or f"g{old}" for new, old in old_of.items()}
        with open(files[1], "w") as fh:
            json.dump({"sfen": pos.sfen(), "n": args.n, "zone": pos.geo.zone,
                       "encoding": args.encoding, "format": args.format, "names": names,
                       "first_moves": [pos.usi(c.move()) for c in enc.first_moves]}, fh)
    except BrokenPipeError:  # its reader closed standard output: 141, as every command
        _remove(files)
        raise
    except OSError as exc:
        _remove(files)
        raise TsumeError(f"cannot write {args.output}: {exc.strerror}") from None
    except BaseException:
        _remove(files)
        raise


def _remove(paths) -> None:
    for path in paths:
        with contextlib.suppress(OSError):
            os.unlink(path)
