"""Evidence that the defender's universal choice is not one legal move.

The defender's move variables are universal: no clause may constrain them. Its illegal
choices make it lose through a fault that the solver shows with one-way gates built from
what the choice does (see :class:`Fault`).
"""

from __future__ import annotations

from ...rules.geometry import Geometry
from ...rules.pieces import KING, KNIGHT, LANCE, PAWN, PROMOTED, UNPROMOTED, piece_code
from ..formula import Formula, neg
from .state import Move, State, line_facts, slide_dirs_of, some_and_two


class Fault:
    """Evidence that a universal choice of the defender is not one legal move.

    Every gate here is built from what the choice *does* (an origin, a target, a
    promotion flag that some true variable asserts) and from the previous state, never
    from what it does not do, and is used only positively, so its definitions point one
    way (``gate -> inputs``). Claiming a fault therefore names only the variables that
    are true, and a solver's cube for an illegal reply is that reply's own variable.

    Sound: each piece of evidence implies an illegal choice (when two or more variables
    are true the choice is illegal anyway). Complete: every illegal choice has evidence:
    none or several variables true, an origin without a piece of the mover, a target out
    of the piece's reach or behind a blocker, a target holding the mover's own piece, a
    promotion the rules forbid or a move that leaves a piece without moves, and the
    mover's king attacked after the move.
    """

    def __init__(self, f: Formula, geo: Geometry, codes: list[int], prev: State, move: Move,
                 c: int, tag: str):
        self.f, self.geo, self.codes, self.prev, self.move, self.c = f, geo, codes, prev, move, c
        self.tag = tag
        n = geo.size
        self.frm, self.to, self.promote, self.plain = move.asserted(self._or)
        self.mine = [p for p in codes if p >> 4 == c]
        self.moved = {(a, p): self._and([self.frm[a], prev.x(a, p)])
                      for a in range(n) for p in self.mine}
        self._not_to = [self._elsewhere(self.to, s) for s in range(n)]
        self._not_from = [self._elsewhere(self.frm, s) for s in range(n)]
        self._after: dict = {}
        self._clears: dict = {}
        self._sliders: dict = {}
        self._attacks: dict = {}
        faults = [self._and(neg(v) for v in move.bits), self._several()]
        faults += [self._and([self.frm[a], neg(prev.own(a, c))]) for a in range(n)]
        faults += [self._and([self.to[b], prev.own(b, c)]) for b in range(n)]
        faults += [self._unreachable(), self._bad_promotion(), self._king_attacked()]
        self.fault = self._or(faults)

    def _and(self, lits):
        return self.f.and_(lits, self.tag)

    def _or(self, lits):
        return self.f.or_(lits, self.tag)

    def _several(self):
        """Two or more variables true: two origins, two targets, or both promotion flags."""
        def two_of(lits):
            return some_and_two(lits, self._or, self._and)[1]
        return self._or([two_of(self.frm), two_of(self.to),
                         self._and([self.promote, self.plain])])

    def _elsewhere(self, lits, s):
        """Some asserted square of ``lits`` other than ``s``."""
        return self._or(lit for x, lit in enumerate(lits) if x != s)

    def _unreachable(self):
        geo, terms = self.geo, []
        lines = {}
        for (a, p), lit in self.moved.items():
            reach = set(geo.steps[p][a])
            for ray in geo.rays[p][a]:
                reach.update(ray)
            ways = [self.to[b] for b in range(geo.size) if b != a and b not in reach]
            for d in slide_dirs_of(p):
                if d not in lines:
                    lines[d] = line_facts(geo, d, self.frm, self.to, self.prev.occ,
                                          self._or, self._and)
                beyond, blocked = lines[d]
                ways.append(self._and([beyond[a], blocked]))
            terms.append(self._and([lit, self._or(ways)]))
        return self._or(terms)

    def _bad_promotion(self):
        geo, c = self.geo, self.c
        n = geo.size
        unpromotable = self._or(lit for (a, p), lit in self.moved.items() if p & 15 not in PROMOTED)
        outside = self._and([self._or(self.frm[a] for a in range(n) if not geo.in_zone[c][a]),
                             self._or(self.to[b] for b in range(n) if not geo.in_zone[c][b])])
        last = self._or(self.to[b] for b in range(n) if geo.last_rank[c][b])
        last_two = self._or(self.to[b] for b in range(n) if geo.last_two[c][b])
        short = self._or(lit for (a, p), lit in self.moved.items() if p & 15 in (PAWN, LANCE))
        knight = self._or(lit for (a, p), lit in self.moved.items() if p & 15 == KNIGHT)
        return self._or([self._and([self.promote, self._or([unpromotable, outside])]),
                         self._and([self.plain, self._or([self._and([short, last]),
                                                          self._and([knight, last_two])])])])

    def after(self, s: int, p: int):
        """Code ``p`` stands on ``s`` after the move (shown by the move's own effects:
        it stood there and the move neither left nor entered ``s``, or it arrived)."""
        key = (s, p)
        if key not in self._after:
            stay = self._and([self.prev.x(s, p), self._not_from[s], self._not_to[s]])
            arrive = False
            if p >> 4 == self.c:
                arrive = self._and([self.to[s], self._arrives(p)])
            self._after[key] = self._or([stay, arrive])
        return self._after[key]

    def _arrives(self, p: int):
        moved = self._or(lit for (a, q), lit in self.moved.items() if q == p)
        terms = [self._and([moved, self.plain])]
        base = UNPROMOTED.get(p & 15)
        if base is not None:
            code = piece_code(base, self.c)
            terms.append(self._and([self.promote, self._or(
                lit for (a, q), lit in self.moved.items() if q == code)]))
        return self._or(terms)

    def ground_after(self) -> None:
        """Keep the state after the move as facts shown: every (square, code), and both
        colours' attack maps on it."""
        for s in range(self.geo.size):
            for p in self.codes:
                self.f.keep(self.after(s, p), both=False)
            for by in (0, 1):
                self.f.keep(self.attacked_after(s, by), both=False)

    def _clear(self, y: int):
        """Square ``y`` is empty after the move: it was empty and is not the target, or
        it is the origin."""
        if y not in self._clears:
            self._clears[y] = self._or([self._and([neg(self.prev.occ(y)), self._not_to[y]]),
                                        self.frm[y]])
        return self._clears[y]

    def _stands(self, y: int, codes, by: int):
        """A piece of colour ``by`` and of one of ``codes`` stands on ``y`` after the move."""
        return self._or(self.after(y, q) for q in codes if q in self.codes and q >> 4 == by)

    def _slider(self, y: int, d: int, by: int):
        """A far slider of ``by`` along ``d`` stands on ``y`` or beyond it, path clear."""
        key = (y, d, by)
        if key not in self._sliders:
            r = self.geo.ray8[y][d]
            self._sliders[key] = self._or([
                self._stands(y, self.geo.far[by][d], by),
                self._and([self._clear(y), self._slider(r[0], d, by)]) if r else False])
        return self._sliders[key]

    def attacked_after(self, s: int, by: int):
        """Square ``s`` is attacked by colour ``by`` after the move."""
        key = (s, by)
        if key not in self._attacks:
            geo = self.geo
            terms = [self._stands(y, [piece_code(KNIGHT, by)], by) for y in geo.knight_from[by][s]]
            for d, ray in enumerate(geo.ray8[s]):
                if ray:
                    terms.append(self._stands(ray[0], geo.near[by][d], by))
                    if len(ray) > 1:
                        terms.append(self._and([self._clear(ray[0]), self._slider(ray[1], d, by)]))
            self._attacks[key] = self._or(terms)
        return self._attacks[key]

    def _king_attacked(self):
        """The mover's king stands attacked after the move: it moved to an attacked
        square, or stayed while the move opened a line or left it in check."""
        king = piece_code(KING, self.c)
        if king not in self.codes:
            return False
        return self._or(self._and([self.after(s, king), self.attacked_after(s, 1 - self.c)])
                        for s in range(self.geo.size))
