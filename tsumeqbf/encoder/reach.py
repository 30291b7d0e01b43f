"""Which moves each ply of a game encoding can hold: candidate moves and reachability.

A :class:`Reach` over-approximates the states a ply can hold (the piece codes each square
may carry, whether it may be empty, the most of each kind a hand may hold); :func:`generate`
lists the candidate moves of a colour in all of them, optionally only those that may give
check (the attacker) or may answer a check (the defender); :func:`advance` is the reach
after a ply.

>>> from tsumeqbf.rules import Position
>>> pos = Position.from_sfen("2k/3/1GP b - 1", zone=2)
>>> reach = initial_reach(pos)
>>> sorted(pos.usi(m.move()) for m in generate(pos.geo, reach, 0, check_filter=True))
['1c1b', '1c1b+', '2c1b', '2c2b']
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.geometry import Geometry
from ..rules.moves import board_move, drop_move
from ..rules.pieces import (BASE_KIND, HAND_KINDS, KING, KNIGHT, LANCE, PAWN, PROMOTED,
                            piece_code, piece_color)
from ..rules.position import Position


@dataclass(frozen=True)
class Cand:
    """A candidate move: ``frm`` is -1 for a drop; ``code`` moves (or is dropped) and
    ``result`` is the code that stands on ``to`` afterwards."""
    frm: int
    to: int
    code: int
    result: int

    def move(self) -> int:
        if self.frm < 0:
            return drop_move(self.code & 15, self.to)
        return board_move(self.frm, self.to, self.result != self.code)


@dataclass
class Reach:
    """An over-approximation of the states a ply can hold."""
    codes: list[frozenset]  # codes[s]: the piece codes that may stand on s
    may_empty: list[bool]
    hand_max: list[list[int]]  # hand_max[colour][kind]


def generate(geo: Geometry, reach: Reach, c: int, *, check_filter: bool = False,
             evasion_filter: bool = False, board_only: bool = False) -> list[Cand]:
    """Candidate moves of colour ``c`` in every state that ``reach`` allows."""
    R, E = reach.codes, reach.may_empty
    n = geo.size
    opp = 1 - c
    target_ok = [E[t] or any(piece_color(q) == opp for q in R[t]) for t in range(n)]
    out: list[Cand] = []
    for f in range(n):
        for p in R[f]:
            if piece_color(p) != c:
                continue
            kind = p & 15
            targets = list(geo.steps[p][f])
            for ray in geo.rays[p][f]:
                for t in ray:
                    targets.append(t)
                    if not E[t]:
                        break
            for t in targets:
                if not target_ok[t]:
                    continue
                if kind in PROMOTED and (geo.in_zone[c][f] or geo.in_zone[c][t]):
                    out.append(Cand(f, t, p, piece_code(PROMOTED[kind], c)))
                dead = ((kind in (PAWN, LANCE) and geo.last_rank[c][t])
                        or (kind == KNIGHT and geo.last_two[c][t]))
                if not dead:
                    out.append(Cand(f, t, p, p))
    if not board_only:
        for kind in HAND_KINDS:
            if reach.hand_max[c][kind] <= 0:
                continue
            code = piece_code(kind, c)
            for t in range(n):
                if not E[t]:
                    continue
                if kind in (PAWN, LANCE) and geo.last_rank[c][t]:
                    continue
                if kind == KNIGHT and geo.last_two[c][t]:
                    continue
                out.append(Cand(-1, t, code, code))
    if check_filter:
        out = _may_check(geo, reach, c, out)
    if evasion_filter:
        out = _may_evade(geo, reach, c, out)
    return out


def _king_squares(reach: Reach, c: int) -> list[int]:
    k = piece_code(KING, c)
    return [s for s, codes in enumerate(reach.codes) if k in codes]


def _line_squares(geo: Geometry, reach: Reach, by: int, kings: list[int]) -> set[int]:
    """Squares strictly between a possible slider of ``by`` and a possible king square."""
    out: set[int] = set()
    for x, codes in enumerate(reach.codes):
        for q in codes:
            if piece_color(q) != by or not geo.rays[q][x]:
                continue
            for ks in kings:
                if any(ks in ray for ray in geo.rays[q][x]):
                    out.update(geo.between[x][ks])
    return out


def _may_check(geo, reach, c, cands):
    kings = _king_squares(reach, 1 - c)
    discover = _line_squares(geo, reach, c, kings)
    return [m for m in cands
            if any(m.to in geo.check_from[m.result][ks] for ks in kings)
            or (m.frm >= 0 and m.frm in discover)]


def _may_evade(geo, reach, c, cands):
    opp = 1 - c
    kings = _king_squares(reach, c)
    capture = {s for s, codes in enumerate(reach.codes) if any(piece_color(q) == opp for q in codes)}
    block = _line_squares(geo, reach, opp, kings)
    king = piece_code(KING, c)
    return [m for m in cands if m.code == king or (m.to in block)
            or (m.frm >= 0 and m.to in capture)]


def advance(reach: Reach, cands: list[Cand], c: int, totals: dict[int, int]) -> Reach:
    codes = [set(x) for x in reach.codes]
    empty = list(reach.may_empty)
    hand = [list(h) for h in reach.hand_max]
    captures = set()
    for m in cands:
        codes[m.to].add(m.result)
        if m.frm >= 0:
            empty[m.frm] = True
            for q in reach.codes[m.to]:
                if piece_color(q) != c and q & 15 != KING:
                    captures.add(BASE_KIND[q & 15])
    for k in captures:
        hand[c][k] = min(totals.get(k, 0), hand[c][k] + 1)
    return Reach([frozenset(x) for x in codes], empty, hand)



def initial_reach(pos: Position) -> Reach:
    """The reach of the position itself: exactly its pieces and hands."""
    return Reach([frozenset([code]) if code else frozenset() for code in pos.board],
                 [not code for code in pos.board],
                 [[pos.hands[c][k] for k in range(8)] for c in (0, 1)])


def piece_totals(pos: Position) -> dict[int, int]:
    """How many pieces of each kind (unpromoted) the position holds, on the board and in
    hand: a bound on any hand count."""
    totals: dict[int, int] = {}
    for code in pos.board:
        if code and code & 15 != KING:
            k = BASE_KIND[code & 15]
            totals[k] = totals.get(k, 0) + 1
    for c in (0, 1):
        for k in HAND_KINDS:
            totals[k] = totals.get(k, 0) + pos.hands[c][k]
    return totals


def full_reach(pos: Position, totals: dict[int, int], used_kinds_only: bool) -> Reach:
    """No pruning: every code on every square, every hand count up to the totals (the
    grounding of ``paper-hands``)."""
    geo = pos.geo
    kinds = set(range(1, 15))
    if used_kinds_only:
        base = {BASE_KIND[code & 15] for code in pos.board if code} | {
            k for c in (0, 1) for k in HAND_KINDS if pos.hands[c][k]}
        kinds = base | {PROMOTED[k] for k in base if k in PROMOTED} | {KING}
    codes = frozenset(piece_code(k, c) for k in kinds for c in (0, 1))
    kings = [piece_code(KING, c) for c in (0, 1) if pos.kings[c] >= 0]
    codes = frozenset(q for q in codes if q & 15 != KING or q in kings)
    return Reach([codes] * geo.size, [True] * geo.size,
                 [[totals.get(k, 0) if k in HAND_KINDS else 0 for k in range(8)]
                  for _ in (0, 1)])

