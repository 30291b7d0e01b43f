"""A ply played by existential move variables: its legality and the next state.

The attacker's move is existential, so its legality is a plain circuit the solver must
satisfy; the next state is a function of the previous state and the move (frame and effect
gates), and is built for the defender's plies too.
"""

from __future__ import annotations

from ...rules.geometry import Geometry
from ...rules.pieces import KNIGHT, LANCE, PAWN, PROMOTED, UNPROMOTED, piece_code
from ..formula import Formula, neg
from .state import Move, State, line_facts, slide_dirs_of


class Ply:
    """One ply: mover ``c`` plays ``move`` in ``prev``; ``legal`` and the next state."""

    def __init__(self, f: Formula, geo: Geometry, codes: list[int], prev: State, move: Move,
                 c: int, name: str, legal: bool = True):
        self.f, self.geo, self.codes, self.prev, self.move, self.c = f, geo, codes, prev, move, c
        self.mine = [p for p in codes if p >> 4 == c]
        n = geo.size
        # the code that moves: at most one, since one origin holds one piece
        self.from_code = {(s, p): f.and_([move.frm[s], prev.x(s, p)])
                          for s in range(n) for p in self.mine}
        self.moved = {p: f.or_(self.from_code[s, p] for s in range(n)) for p in self.mine}
        if legal:
            self.legal = f.and_([move.exactly_one(), self._reaches(), self._target_ok(),
                                 self._promotion_ok()])
        self.next = self._next_state(name)

    def _target_ok(self):
        f, move, prev = self.f, self.move, self.prev
        return neg(f.or_(f.and_([move.to[s], prev.own(s, self.c)]) for s in range(self.geo.size)))

    def _reaches(self):
        """The moving piece can go from its origin to the target: a step of its code, or a
        slide along one of its directions with the path clear."""
        f, geo, move = self.f, self.geo, self.move
        lines = {d: line_facts(self.geo, d, move.frm, move.to, self.prev.occ, f.or_, f.and_)
                 for d in sorted({d for p in self.mine for d in slide_dirs_of(p)})}
        terms = []
        for (s, p), lit in self.from_code.items():
            ways = [move.to[t] for t in geo.steps[p][s]]
            ways += [f.and_([lines[d][0][s], neg(lines[d][1])]) for d in slide_dirs_of(p)]
            terms.append(f.and_([lit, f.or_(ways)]))
        return f.or_(terms)

    def _promotion_ok(self):
        """Promotion only of a promotable piece that leaves or enters the zone; no plain
        move that leaves a pawn, lance or knight without a move."""
        f, geo, move, c = self.f, self.geo, self.move, self.c
        zone = f.or_([move.frm[s] for s in range(geo.size) if geo.in_zone[c][s]]
                     + [move.to[s] for s in range(geo.size) if geo.in_zone[c][s]])
        promotable = f.or_(self.moved[p] for p in self.mine if p & 15 in PROMOTED)
        last = f.or_(move.to[s] for s in range(geo.size) if geo.last_rank[c][s])
        last_two = f.or_(move.to[s] for s in range(geo.size) if geo.last_two[c][s])
        stuck = f.or_([f.and_([self.moved[p], last]) for p in self.mine if p & 15 in (PAWN, LANCE)]
                      + [f.and_([self.moved[p], last_two]) for p in self.mine if p & 15 == KNIGHT])
        return f.and_([f.or_([neg(move.promote), f.and_([promotable, zone])]),
                       f.or_([neg(move.plain), neg(stuck)])])

    def _arrives(self, p: int):
        """Code ``p`` stands on the target after the move."""
        f, move = self.f, self.move
        if p >> 4 != self.c:
            return False
        plain = f.and_([self.moved[p], neg(move.promote)])
        base = UNPROMOTED.get(p & 15)
        if base is None or piece_code(base, self.c) not in self.moved:
            return plain
        return f.or_([plain, f.and_([self.moved[piece_code(base, self.c)], move.promote])])

    def _next_state(self, name: str) -> State:
        f, move, prev = self.f, self.move, self.prev
        cells = {}
        arrives = {p: self._arrives(p) for p in self.codes}
        for s in range(self.geo.size):
            untouched = neg(f.or_([move.frm[s], move.to[s]]))
            for p in self.codes:
                cells[s, p] = f.or_([f.and_([prev.x(s, p), untouched]),
                                     f.and_([move.to[s], arrives[p]])])
                f.label(cells[s, p], f"{name}_{self.geo.usi(s)}_{p}")
        return State(f, self.geo, self.codes, cells, name)
