"""Where a problem is hard for df-pn: solve from the positions along its recorded line.

    python -m tsumeqbf.bench along ID [--plies 22,20,... | --after "MOVES"] [--max-nodes N]
                                      [--tt-entries N] [--backend rules|cshogi]
                                      [--mate-probe 0|1|3] [--group-interpositions]
                                      [--top K] [--csv FILE]

The recorded lines are in ``tsumeqbf/data/recorded_lines.csv`` (id, source, USI line).
For each number of plies played k (the attacker to move: k even), from the end of the line
back to the start or as ``--plies`` lists them, the unbounded solver runs from the position
after k plies with the node budget, and so does cshogi's DfPn when it is installed
(maximum depth 1000; its own rules, not an oracle). Without ``--plies`` the walk back
stops after two positions in a row stay unsolved: every earlier position contains them.

Where a run ends unsolved, the row says where its nodes went: the root's checks with the
most work below them, and the recorded move's share of all the work. A problem is hard
where the recorded move gets a small share: df-pn spends its nodes on checks that look as
promising and are not mates (zukou-008, 12 plies in: B*8g, the recorded move, had 599 of
1.5M nodes, G*4c 1.1M). The busiest line goes on from the busiest check: at each node the
move with the most work below it, with its share of its siblings' work, down to where the
search was stuck.

``--after "MOVES"`` (repeatable) solves the position after those moves instead, on the
recorded line or off it: a defender's alternative that the recorded line does not show
can be where the work is (zukou-008: 4a3c, the knight taking on 3c, in place of the
recorded 3b3c).
"""

from __future__ import annotations

import csv
import time

from ..arguments import (BenchParser, int_at_least, non_negative_int, positive_int_or_default,
                        table_csv)
from ..data import read_rows
from ..dfpn.core import INF
from ..dfpn.cshogi_backend import BACKENDS, make_game
from ..dfpn.tsume import TsumeSearch
from ..provenance import FIELDS as PROVENANCE, row_fields
from ..rules import Position, TsumeError
from ..settings import TABLE_ENTRIES
from ..values import Status
from . import BenchError
from .dfpn import cshogi_dfpn

CSHOGI_MAX_DEPTH = 1000  # set explicitly, not left to cshogi's default: the lines are long
FIELDS = ("id", "plies", "next", "status", "nodes", "time_s", "pn", "dn", "recorded_share",
          "busiest", "busiest_line", "cshogi_proven", "cshogi_nodes", "after", *PROVENANCE)


def recorded_lines() -> dict[str, list[str]]:
    """id -> the recorded line (USI moves) of every problem that has one.

    >>> len(recorded_lines()["zukou-091"])
    27
    """
    return {r["id"]: r["line"].split() for r in read_rows("recorded_lines.csv")}


def problem_sfen(problem_id: str) -> str:
    for r in read_rows("open_tsume_zukou_musou.csv"):
        if r["id"] == problem_id:
            return r["sfen"]
    raise TsumeError(f"unknown problem id {problem_id!r} (ids look like zukou-008)")


def position_after(sfen: str, line: list[str], plies: int) -> Position:
    """The position after the first ``plies`` moves of ``line``, each checked legal."""
    pos = Position.from_sfen(sfen)
    for text in line[:plies]:
        pos.push(pos.parse_usi(text))
    return pos


def where_the_work_went(search: TsumeSearch, usi, recorded: str | None, top: int):
    """(recorded move's share of the root's children's work or None, the ``top`` busiest
    children as "MOVE:WORK" text)."""
    rows = [(work, usi(m)) for m, _, _, work in search.children_numbers()]
    total = sum(w for w, _ in rows)
    share = None
    if total and recorded is not None:
        share = sum(w for w, text in rows if text == recorded) / total
    busiest = " ".join(f"{text}:{w}" for w, text in sorted(rows, key=lambda r: -r[0])[:top] if w)
    return share, busiest


def _line_text(search: TsumeSearch, pos) -> str:
    """:meth:`TsumeSearch.busiest_line` from ``pos`` as "MOVE:SHARE" text (USI)."""
    walk, out = pos.copy(), []
    for move, _, _, _, share in search.busiest_line():
        out.append(f"{walk.usi(move)}:{share:.0%}")
        walk.push(move)
    return " ".join(out)


def solve_after(pos, recorded, max_nodes, tt_entries, backend, top=3, mate_probe=0,
                group_interpositions=False) -> dict:
    """Our unbounded search from ``pos``, whose recorded next move is ``recorded`` (USI, or
    "-" at the end of the line, or None off it): status, nodes, seconds, the root's numbers
    and, when it stays unsolved, where the nodes went: the busiest checks, and the busiest
    line (each move the one with the most work below it among its siblings, with its
    share) (``mate_probe`` as in ``solve --mate-probe``: cshogi's DfPn probes likewise
    outside its node count)."""
    game = make_game(pos.copy(), backend)
    search = TsumeSearch(game, max_nodes=max_nodes, tt_limit=tt_entries, mate_probe=mate_probe,
                         group_interpositions=group_interpositions)
    start = time.perf_counter()
    res = search.solve()  # node and time limits end as unknown (proven None)
    took = time.perf_counter() - start
    pn, dn = search.root_numbers
    row = {"status": Status.of(res.proven).value,
           "nodes": res.nodes, "time_s": round(took, 3), "pn": pn, "dn": dn,
           "recorded_share": "", "busiest": "", "busiest_line": ""}
    if res.proven is None:
        share, busiest = where_the_work_went(search, pos.usi, recorded, top)
        row.update(recorded_share="" if share is None else round(share, 4), busiest=busiest,
                   busiest_line=_line_text(search, pos))
    return row


def walk_back(problem_id, line, sfen, plies, max_nodes, tt_entries, backend, cshogi, top,
              emit=print, mate_probe=0, group_interpositions=False) -> list[dict]:
    """Rows for each number of plies played in ``plies`` (in that order). With
    ``plies=None``: every even number from the end of the line down to 0, stopping after
    two unsolved positions in a row."""
    walk = plies if plies is not None else range((len(line) - 1) // 2 * 2, -1, -2)
    rows, unsolved_in_a_row = [], 0
    for k in walk:
        recorded = line[k] if k < len(line) else "-"
        row = _row(problem_id, sfen, line[:k], position_after(sfen, line, k), recorded,
                   max_nodes, tt_entries, backend, cshogi, top, mate_probe,
                   group_interpositions)
        rows.append(row)
        emit(row)
        unsolved_in_a_row = unsolved_in_a_row + 1 if row["status"] == Status.UNKNOWN else 0
        if plies is None and unsolved_in_a_row == 2:
            break
    return rows


def _row(problem_id, sfen, moves, pos, recorded, max_nodes, tt_entries, backend, cshogi, top,
         mate_probe, group_interpositions) -> dict:
    """One row: our search from ``pos`` (reached by ``moves``), and cshogi's DfPn beside
    when it is given."""
    row = {"id": problem_id, "plies": len(moves), "next": recorded or "",
           **solve_after(pos, recorded, max_nodes, tt_entries, backend, top, mate_probe,
                         group_interpositions)}
    if cshogi is not None:
        row["cshogi_proven"], row["cshogi_nodes"] = cshogi_dfpn(
            cshogi, sfen, max_nodes, CSHOGI_MAX_DEPTH, moves)[:2]
    return row


def checked_after(sfen: str, moves: list[str]) -> Position:
    """The position after ``moves``, each checked legal, the attacker to move again."""
    if len(moves) % 2:
        raise TsumeError(f"--after needs an even number of moves (the attacker to move), "
                         f"not {len(moves)}")
    return position_after(sfen, moves, len(moves))


def solve_after_moves(problem_id, moves, pos, sfen, line, max_nodes, tt_entries, backend,
                      cshogi, top, emit=print, mate_probe=0, group_interpositions=False) -> dict:
    """The row for ``pos``, the position after ``moves`` (USI, checked by
    :func:`checked_after`; on the recorded ``line`` or off it: a defender's alternative the
    recorded line does not show)."""
    on_line = bool(line) and moves == line[:len(moves)]
    recorded = (line[len(moves)] if len(moves) < len(line) else "-") if on_line else None
    row = {**_row(problem_id, sfen, moves, pos, recorded, max_nodes, tt_entries, backend,
                  cshogi, top, mate_probe, group_interpositions), "after": " ".join(moves)}
    emit(row)
    return row


def _print_row(row: dict) -> None:
    theirs = (f" | {str(row['cshogi_proven']):7s} {row['cshogi_nodes']:>10,}"
              if "cshogi_nodes" in row else "")
    where = (f"  recorded {row['recorded_share']:.1%} of the work; busiest {row['busiest']}"
             if row["recorded_share"] != "" else "")
    numbers = "/".join("inf" if x >= INF else str(x) for x in (row["pn"], row["dn"]))
    print(f"{row['plies']:5d} {row['next'] or '(off)':7s} {row['status']:8s} {row['nodes']:>10,} "
          f"{row['time_s']:8.1f} {numbers:16s}{theirs}{where}", flush=True)
    if row.get("busiest_line"):
        print(f"      busiest line: {row['busiest_line']}", flush=True)


def parse_plies(text: str | None, length: int) -> list[int] | None:
    """``--plies`` as numbers, each even (the attacker to move) and within the line.

    >>> parse_plies("22,20", 41), parse_plies(None, 41)
    ([22, 20], None)
    """
    if text is None:
        return None
    try:
        out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise TsumeError(f"--plies takes even numbers separated by commas, not {text!r}") from None
    bad = [k for k in out if k % 2 or not 0 <= k < length]
    if bad or not out:
        raise TsumeError(f"--plies must be even numbers from 0 to {length - 1} (the attacker "
                         f"to move), not {text!r}")
    return out


def main(argv: list[str]) -> int:
    ap = BenchParser(prog="python -m tsumeqbf.bench along")
    ap.add_argument("id", help="a problem with a recorded line (tsumeqbf/data/recorded_lines.csv)")
    ap.add_argument("--plies", default=None, help="plies played, e.g. 22,20,18 (default: walk back)")
    ap.add_argument("--after", action="append", default=None, metavar="MOVES",
                    help='instead: the position after these USI moves from the start, on '
                         'the recorded line or off it (an even number, e.g. "P*4c 4b4c 2d3c '
                         '4a3c"; repeat for more positions); any Edo problem id')
    ap.add_argument("--max-nodes", type=positive_int_or_default, default=1_000_000)
    ap.add_argument("--tt-entries", type=int_at_least(2), default=TABLE_ENTRIES)
    ap.add_argument("--backend", choices=BACKENDS, default="cshogi")
    ap.add_argument("--mate-probe", type=int, choices=(0, 1, 3), default=0,
                    help="as solve: probe new nodes for mates in 1 (1) or 3 (3), as cshogi's "
                         "DfPn does outside its node count")
    ap.add_argument("--group-interpositions", action="store_true",
                    help="as solve: every interposition of an AND node counted once")
    ap.add_argument("--top", type=non_negative_int, default=3,
                    help="busiest checks shown for an unsolved run")
    ap.add_argument("--no-cshogi", action="store_true", help="do not run cshogi's DfPn beside")
    ap.add_argument("--csv", type=table_csv, default=None, help="write the rows to this CSV file")
    args = ap.parse_args(argv)
    try:
        lines = recorded_lines()
        if args.after is not None:
            lines.setdefault(args.id, [])  # a line of our own needs no recorded one
        if args.id not in lines:
            raise TsumeError(f"no recorded line for {args.id!r}; lines: {', '.join(sorted(lines))}")
        if args.after is not None and args.plies is not None:
            raise TsumeError("give --plies or --after, not both")
        line, sfen = lines[args.id], problem_sfen(args.id)
        plies = parse_plies(args.plies, len(line))
        # bad moves end here, before any output
        afters = [(moves.split(), checked_after(sfen, moves.split()))
                  for moves in args.after or ()]
        cshogi = None
        if not args.no_cshogi:
            try:
                import cshogi
            except ImportError:
                pass  # cshogi's DfPn is only run beside ours when it is installed
        shown = (f"after {' / '.join(args.after)}" if args.after is not None
                 else f"{len(line)}-ply recorded line")
        print(f"{args.id}: {shown}, {args.max_nodes:,} nodes a position, "
              f"table {args.tt_entries:,} entries, backend {args.backend}, "
              f"mate probes {args.mate_probe}"
              + (", interpositions grouped" if args.group_interpositions else ""))
        print(f"{'plies':>5s} {'next':7s} {'status':8s} {'nodes':>10s} {'s':>8s} {'root pn/dn':16s}"
              + (f" | {'cshogi':7s} {'nodes':>10s}" if cshogi else ""))
        if args.after is not None:
            rows = [solve_after_moves(args.id, moves, pos, sfen, line, args.max_nodes,
                                      args.tt_entries, args.backend, cshogi, args.top,
                                      emit=_print_row, mate_probe=args.mate_probe,
                                      group_interpositions=args.group_interpositions)
                    for moves, pos in afters]
        else:
            rows = walk_back(args.id, line, sfen, plies, args.max_nodes, args.tt_entries,
                             args.backend, cshogi, args.top, emit=_print_row,
                             mate_probe=args.mate_probe,
                             group_interpositions=args.group_interpositions)
    except TsumeError as exc:
        raise BenchError(str(exc)) from None
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as fh:
            out = csv.DictWriter(fh, fieldnames=FIELDS, extrasaction="ignore")
            out.writeheader()
            made = row_fields("tsume", {"backend": args.backend})
            out.writerows({**row, **made} for row in rows)
        print(f"rows: {args.csv}")
    return 0
