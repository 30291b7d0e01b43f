"""``tsumeqbf solve SFEN [--max-nodes N] [--timeout S] [--shortest] [--heuristics ABC] [--checkpoint FILE] [--seed FILE] [--json]``:
unbounded df-pn with the answer a tsume-shogi reader expects."""

from __future__ import annotations

import contextlib
import json
import sys

from ..arguments import STDOUT, non_negative_int, positive_float, positive_int
from ..progress import Progress
from ..rules import TsumeError
from ..rules.problem_files import POSITION_HELP, load_position, write_kif
from ..values import Status
from .solve import SOLVE_BACKENDS
from .options import check_heuristics


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
    p.add_argument("--tt-entries", type=int, default=1_000_000,
                   help="unsolved positions the table keeps before it drops the half with the "
                        "least work behind them (about 330 bytes each with the proofs beside "
                        "them; default 1,000,000)")
    p.add_argument("--heuristics", default="", help="Nagai's heuristics to switch on, letters of ABCDEF")
    p.add_argument("--no-dag", action="store_true", help="no double-count correction on DAGs")
    p.add_argument("--no-group-drops", action="store_true",
                   help="count every interposing drop in an AND node's proof number")
    p.add_argument("--group-interpositions", action="store_true",
                   help="count every interposition of an AND node (any square, drop or board "
                        "move) once in its proof number")
    p.add_argument("--group-promotions", action="store_true",
                   help="count a defender's move with and without promotion once in an AND "
                        "node's proof number")
    p.add_argument("--mate-probe", type=int, choices=(0, 1, 3), default=0,
                   help="before a node is first searched, prove it when every reply mates in 1 "
                        "(1), or also when it mates in 3 (3); cshogi's DfPn probes new nodes "
                        "likewise without counting them as nodes (default 0: none)")
    p.add_argument("--no-inherit", action="store_true",
                   help="start every new position at proof and disproof number 1 (or its reply "
                        "count), not from the same board's numbers with other hands")
    p.add_argument("--simulation", action="store_true",
                   help="Kawano's simulation: replay a proven sibling's proof on a similar reply")
    p.add_argument("--shortest", action="store_true",
                   help="answer with the exact shortest mate: after the proof, bounded df-pn runs "
                        "until it knows whether a shorter mate exists (within --max-nodes and "
                        "--timeout; default: the searches for a shorter line get as many nodes as "
                        "the proof took, at least 20,000 and 10,000, and its time, at least 30 s)")
    p.add_argument("--shorten-nodes", type=non_negative_int, default=None,
                   help="nodes the search for shorter mates along the proof's lines spends after "
                        "the proof (default: as many as the proof took, at least 10,000, or "
                        "50,000 with --shortest; 0: none)")
    p.add_argument("--backend", choices=SOLVE_BACKENDS, default="rules",
                   help="move generator: our rules engine, or cshogi's (standard 9x9 only, faster); "
                        "native: the compiled search (standard 9x9 only; its own line, every "
                        "ply counted: docs/dfpn.md)")
    p.add_argument("--check-shortest", action="store_true",
                   help="ask bounded df-pn whether a mate two plies shorter exists")
    p.add_argument("--checkpoint", metavar="FILE", default=None,
                   help="keep the search in FILE: go on from it when it exists (nodes and "
                        "--max-nodes count from the first run), write it every "
                        "--checkpoint-every nodes, at the end and on Ctrl-C")
    p.add_argument("--checkpoint-every", type=positive_int, default=10_000_000, metavar="N",
                   help="nodes between checkpoints (default 10,000,000)")
    p.add_argument("--seed", metavar="FILE", action="append", default=[],
                   help="take in the proofs of another checkpoint (a position of this problem "
                        "or another one, same hashing and attacker) before searching; "
                        "repeatable")
    p.add_argument("--kif", metavar="FILE", default=None,
                   help="write the answer as a KIF record with the start diagram (FILE.kif in "
                        "Shift_JIS, other names in UTF-8; '-': standard output, the answer "
                        "then on stderr)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=cmd_solve)


def cmd_solve(args) -> int:
    from .solve import solve_tsume

    if args.tt_entries < 2:
        raise TsumeError("--tt-entries must be at least 2")
    if STDOUT in (args.checkpoint, *args.seed):
        raise TsumeError("a checkpoint is read back: --checkpoint and --seed take a file, not -")
    heuristics = check_heuristics(args.heuristics)
    pos = load_position(args.sfen, zone=args.zone, tsume_hands=args.tsume_hands)
    show = not args.quiet

    with Progress("solve", args.max_nodes, unit="node", enabled=show,
                  log_step=1_000_000) as bar:
        def progress(search):
            pn, dn = search.root_status()
            bar.advance_to(search.nodes, proofs=f"{sum(map(len, search.proofs.values())):,}",
                           root=f"{pn}/{dn}")

        out = solve_tsume(pos, max_nodes=args.max_nodes, timeout=args.timeout,
                          heuristics=heuristics, dag=not args.no_dag,
                          group_drops=not args.no_group_drops,
                          group_promotions=args.group_promotions, mate_probe=args.mate_probe,
                          group_interpositions=args.group_interpositions,
                          inherit=not args.no_inherit, simulation=args.simulation,
                          check_shortest=args.check_shortest, shorten_nodes=args.shorten_nodes,
                          backend=args.backend, tt_limit=args.tt_entries,
                          progress=progress if show else None, checkpoint=args.checkpoint,
                          checkpoint_every=args.checkpoint_every, seeds=tuple(args.seed),
                          on_phase=lambda text: bar.phase(f"solve: {text}"),
                          answer_on_stop=True, shortest=args.shortest)
    if args.kif:  # the diagram alone when there is no answer: the problem still imports
        write_kif(args.kif, pos, out["pv"] or [])
    if args.kif == STDOUT:  # standard output holds the record alone: the answer goes to stderr
        with contextlib.redirect_stdout(sys.stderr):
            return _report(args, pos, out)
    return _report(args, pos, out)


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
            print(f"note: bounded df-pn finds a mate within {out['length'] - 2} plies")
        if args.seed:
            print(f"seeds: {out['seeded_proofs']:,} proofs taken in from {len(args.seed)} file(s)")
        if args.kif:
            print(f"KIF: {args.kif}")
        if args.checkpoint:
            went_on = (f"went on from {out['resumed_nodes']:,} nodes; "
                       if out["resumed_nodes"] else "")
            print(f"checkpoint: {went_on}tables written to {args.checkpoint}")
        if out.get("error"):
            print(f"tsumeqbf: {out['status']}: {out['error']}", file=sys.stderr)
    if out.get("stopped"):
        print(f"tsumeqbf: stopped by {out['stopped']} while looking for a shorter line; the "
              f"answer is the line found so far", file=sys.stderr)
        return out["exit_status"]
    return 0 if status.decided else 1


def shortest_note(out: dict) -> str:
    """The line that says whether a mate's answer is the exact shortest.

    >>> shortest_note({"shortest": True, "length": 7, "plies": 7})
    'shortest: exact (bounded df-pn: no mate within 5 plies, every ply counted)'
    >>> shortest_note({"shortest": False, "length": 17, "plies": 17})[:45]
    'shortest: not proven (the shortest line found'
    """
    if out.get("shortest"):
        if out["length"] <= 1:
            return "shortest: exact (a mate in 1)"
        return (f"shortest: exact (bounded df-pn: no mate within {out['length'] - 2} plies, "
                f"every ply counted)")
    return ("shortest: not proven (the shortest line found within the budget; --shortest "
            "asks bounded df-pn until it knows)")
