"""The states of a game encoding as circuits: the position at each ply as a function of
the moves chosen before it, built lazily (a fact gets gates only when asked for).

* :class:`InitialState`: the position itself, folded to constants (or, for the grounded
  encodings, variables fixed by unit clauses);
* :class:`NextState`: the state after a ply's move choice;
* :class:`MovedView`: a state after one known move (the expanded last ply's replies).

Every state answers ``piece(s, p)`` (code ``p`` stands on square ``s``), ``hand(c, k, j)``
(colour ``c`` holds at least ``j`` of kind ``k``) and has a ``reach``.
"""

from __future__ import annotations

from ..rules.pieces import BASE_KIND, KING, piece_color
from ..rules.position import Position
from .choice import MoveChoice
from .formula import Formula, neg
from .reach import Cand, Reach


class InitialState:
    def __init__(self, f: Formula, pos: Position, reach: Reach, fold: bool):
        self.f, self.reach = f, reach
        self.board, self.hands = pos.board, pos.hands
        self.fold = fold
        self._vars: dict = {}

    def _const(self, key, name, value: bool):
        if self.fold:
            return value
        v = self._vars.get(key)
        if v is None:
            v = self._vars[key] = self.f.var(name, 0)
            self.f.assert_(v if value else -v)
        return v

    def piece(self, s: int, p: int):
        if p not in self.reach.codes[s]:
            return False
        return self._const(("b", s, p), f"s0_b{s}_{p}", self.board[s] == p)

    def hand(self, c: int, k: int, j: int):
        if j <= 0:
            return True
        if j > self.reach.hand_max[c][k]:
            return False
        return self._const(("h", c, k, j), f"s0_h{c}_{k}_{j}", self.hands[c][k] >= j)


class AfterMove:
    """A state one move of colour ``c`` after ``prev``, however the move is chosen: its
    hands follow what the move captures and drops (``captured(k)``, ``dropped(k)``)."""

    def hand(self, c: int, k: int, j: int):
        """Colour ``c`` holds at least ``j`` of kind ``k``."""
        if j <= 0:
            return True
        if j > self.reach.hand_max[c][k]:
            return False
        if c != self.c:
            return self.prev.hand(c, k, j)
        f, prev = self.f, self.prev

        def build():
            inc, dec = self.captured(k), self.dropped(k)
            return f.or_([f.and_([inc, prev.hand(c, k, j - 1)]),
                          f.and_([dec, prev.hand(c, k, j + 1)]),
                          f.and_([neg(inc), neg(dec), prev.hand(c, k, j)])])
        return self._memo(("h", c, k, j), build)


class NextState(AfterMove):
    """The state after ``choice`` is played by colour ``c`` in ``prev``."""

    def __init__(self, f: Formula, prev, choice: MoveChoice, c: int, reach: Reach):
        self.f, self.prev, self.choice, self.c, self.reach = f, prev, choice, c, reach
        self.by_from: dict[int, list[int]] = {}
        self.by_to: dict[int, list[int]] = {}
        self.arrive: dict[tuple, list[int]] = {}
        self.drops: dict[int, list[int]] = {}
        for i, m in enumerate(choice.cands):
            if m.frm >= 0:
                self.by_from.setdefault(m.frm, []).append(i)
            else:
                self.drops.setdefault(m.code & 15, []).append(i)
            self.by_to.setdefault(m.to, []).append(i)
            self.arrive.setdefault((m.to, m.result), []).append(i)
        self._cache: dict = {}

    def _memo(self, key, build):
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = build()
            self.f.label(v, f"s{self.choice.name[1:]}_{'_'.join(map(str, key))}")
        return v

    def _any(self, idx) -> object:
        return self.f.or_(self.choice.sel(i) for i in idx)

    def left(self, s):
        return self._memo(("from", s), lambda: self._any(self.by_from.get(s, ())))

    def entered(self, s):
        return self._memo(("to", s), lambda: self._any(self.by_to.get(s, ())))

    def piece(self, s: int, p: int):
        if p not in self.reach.codes[s]:
            return False
        f = self.f
        return self._memo(("b", s, p), lambda: f.or_([
            f.and_([self.prev.piece(s, p), neg(self.left(s)), neg(self.entered(s))]),
            self._any(self.arrive.get((s, p), ()))]))

    def captured(self, k: int):
        """The mover captures a piece that goes to its hand as kind ``k``."""
        def build():
            f, prev = self.f, self.prev
            terms = []
            for s in self.by_to:
                for q in prev.reach.codes[s]:
                    if piece_color(q) != self.c and q & 15 != KING and BASE_KIND[q & 15] == k:
                        terms.append(f.and_([self.entered(s), prev.piece(s, q)]))
            return f.or_(terms)
        return self._memo(("cap", k), build)

    def dropped(self, k: int):
        return self._memo(("drop", k), lambda: self._any(self.drops.get(k, ())))


class MovedView:
    """The state ``st`` after one known board move or drop: a constant change of two squares.
    A square of -1 is none: ``to`` -1 leaves only the origin vacated (the rules' facts
    share such partial views between the moves from, or to, one square)."""

    def __init__(self, st, m: Cand):
        self.st, self.m = st, m
        codes = list(st.reach.codes)
        if m.frm >= 0:
            codes[m.frm] = frozenset()
        if m.to >= 0:
            codes[m.to] = frozenset([m.result])
        self.reach = Reach(codes, st.reach.may_empty, st.reach.hand_max)

    def piece(self, s: int, p: int):
        if s == self.m.to:
            return p == self.m.result
        if s == self.m.frm:
            return False
        return self.st.piece(s, p)
