"""``tsumeqbf solve SFEN [--max-nodes N] [--timeout S] [--shortest] [--heuristics ABC] [--checkpoint FILE] [--seed FILE] [--json]``:
unbounded df-pn with the answer a tsume-shogi reader expects."""

from __future__ import annotations

import contextlib
import json
import sys

from ..arguments import STDOUT, output_file, positive_float, positive_int
from ..progress import Progress
from ..rules import TsumeError
from ..rules.problem_files import POSITION_HELP, load_position, write_kif
from ..values import Status, plies, reason_of
from .core import INF
from .options import SolveOptions


def register(sub) -> None:
    p = sub.add_parser("solve", help="solve a tsume problem without a bound (df-pn)")
    p.add_argument("sfen", help=POSITION_HELP)
    p.add_argument("--zone", type=int, default=None, help="promotion-zone depth Z")
    p.add_argument("--tsume-hands", action="store_true",
                   help="9x9 only: the defender holds every piece not on the board or in the attacker's hand")
    p.add_argument("--max-nodes", type=positive_int, default=None,
                   help="node limit of the proof (default: none)")
    p.add_argument("--timeout", type=positive_float, default=None,
                   help="seconds for the whole search: the proof and the search for a shorter "
                        "line (default: none)")
    SolveOptions.add_flags(p)
    p.add_argument("--kif", metavar="FILE", default=None, type=output_file,
                   help="write the answer as a KIF record with the start diagram (FILE.kif in "
                        "Shift_JIS, other names in UTF-8; '-': standard output, the answer "
                        "then on stderr)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=cmd_solve)


def cmd_solve(args) -> int:
    from .solve import solve_tsume

    options = SolveOptions.from_args(args)
    if STDOUT in (options.checkpoint, *options.seeds):
        raise TsumeError("a checkpoint is read back: --checkpoint and --seed take a file, not -")
    pos = load_position(args.sfen, zone=args.zone, tsume_hands=args.tsume_hands)
    show = not args.quiet

    with Progress("solve", args.max_nodes, unit="node", enabled=show,
                  log_step=1_000_000) as bar:
        def progress(search):
            pn, dn = search.root_status()
            bar.advance_to(search.nodes, proofs=f"{search.proof_count:,}",
                           root=root_text(pn, dn))

        out = solve_tsume(pos, options, max_nodes=args.max_nodes, timeout=args.timeout,
                          progress=progress if show else None,
                          on_phase=lambda text: bar.phase(f"solve: {text}"), answer_on_stop=True)
    if args.kif:  # the diagram alone when there is no answer: the problem still imports
        write_kif(args.kif, pos, out["pv"] or [])
    if args.kif == STDOUT:  # standard output holds the record alone: the answer goes to stderr
        with contextlib.redirect_stdout(sys.stderr):
            return _report(args, pos, out)
    return _report(args, pos, out)


def root_text(pn: int, dn: int) -> str:
    """The root's numbers as the progress line shows them: once the root is proven (the
    searches for a shorter line then run) a word, not INF.

    >>> root_text(3, 5), root_text(0, INF), root_text(INF, 0)
    ('3/5', 'proven', 'disproven')
    """
    return "proven" if pn == 0 else "disproven" if dn == 0 else f"{pn}/{dn}"


def _report(args, pos, out: dict) -> int:
    """Print the answer; the exit status."""
    status = Status(out["status"])
    if args.json:
        print(json.dumps({"sfen": pos.sfen(), **out}, ensure_ascii=False))
    else:
        head = (f"mate in {out['length']}" if status is Status.MATE
                else status.word if status is Status.NOMATE else status.value)
        spent = f"{out['nodes']:,} nodes, {out['time_s']:.2f} s"
        if out.get("pv") and out["total_s"] - out["time_s"] >= 0.01:
            spent += f"; {out['total_s']:.2f} s with the search for a shorter line"
        print(f"{head}  [{spent}]")
        if out["pv"]:
            print("USI: " + " ".join(out["pv"]))
            print("    " + " ".join(out["pv_ja"]))
            print(shortest_note(out))
        if out.get("answer") == "bounded":
            print(f"note: the exact shortest line (bounded df-pn, every ply counted); the "
                  f"proofs' line had {out['proof_length']}")
        if out.get("shorter_mate_exists"):
            print(f"note: bounded df-pn finds a mate within {plies(out['length'] - 2)}")
        if out["seeds"]:
            print(f"seeds: {out['seeded_proofs']:,} proofs taken in from {len(out['seeds'])} file(s)")
        if args.kif:
            print(f"KIF: {args.kif}")
        if out["checkpoint"]:
            went_on = (f"went on from {out['resumed_nodes']:,} nodes; "
                       if out["resumed_nodes"] else "")
            print(f"checkpoint: {went_on}tables written to {out['checkpoint']}")
        if reason_of(out):
            print(f"tsumeqbf: {status}: {reason_of(out)}", file=sys.stderr)
    if out.get("stopped"):
        print(f"tsumeqbf: stopped by {out['stopped']} while looking for a shorter line; the "
              f"answer is the line found so far", file=sys.stderr)
        return out["exit_status"]
    return 0 if status.decided else 1


def shortest_note(out: dict, asks: str = "--shortest") -> str:
    """The line that says whether a mate's answer is the exact shortest; ``asks`` names
    what asks for it until it is known (the USI engine: its option).

    >>> shortest_note({"shortest_exact": True, "length": 7, "plies": 7})
    'shortest: exact (bounded df-pn: no mate within 5 plies, every ply counted)'
    >>> shortest_note({"shortest_exact": False, "length": 17, "plies": 17})[:45]
    'shortest: not proven (the shortest line found'
    >>> shortest_note({"shortest_exact": False, "length": 17, "plies": 17, "no_mate_within": 9})[:70]
    'shortest: not proven (bounded df-pn: no mate within 9 plies, every ply'
    >>> shortest_note({"shortest_exact": True, "length": 3, "plies": 3})
    'shortest: exact (bounded df-pn: no mate within 1 ply, every ply counted)'
    >>> shortest_note({"shortest_exact": False, "length": 17, "plies": 17},
    ...               asks="the option Shortest").split("; ")[-1]
    'the option Shortest asks bounded df-pn until it knows)'
    """
    if out.get("shortest_exact"):
        if out["length"] <= 1:
            return "shortest: exact (a mate in 1)"
        return (f"shortest: exact (bounded df-pn: no mate within {plies(out['length'] - 2)}, "
                f"every ply counted)")
    if out.get("no_mate_within"):  # (the native core's bounded search says how far it got)
        return (f"shortest: not proven (bounded df-pn: no mate within "
                f"{plies(out['no_mate_within'])}, every ply counted, then the budget ran out; "
                f"{asks} asks it until it knows)")
    return (f"shortest: not proven (the shortest line found within the budget; {asks} "
            f"asks bounded df-pn until it knows)")
