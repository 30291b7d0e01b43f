"""States and moves of the paper's encoding: a variable per (square, code) and per
(from, to, promote), and the facts read off them.

>>> from tsumeqbf.encoder.formula import Formula
>>> from tsumeqbf.rules.geometry import geometry
>>> move = Move(Formula(), geometry(3, 3, 2), 0, "m1")
>>> len(move.bits)  # every (from, to) pair of distinct squares, with and without promotion
144
"""

from __future__ import annotations

from ...rules.geometry import DIRECTIONS, SLIDE_VECTORS, Geometry
from ...rules.pieces import KING, piece_code
from ..formula import Formula, neg


class State:
    """A grounded state: every (square, code) as a literal, with occupancy, ownership and
    the attack maps built on demand and memoised."""

    def __init__(self, f: Formula, geo: Geometry, codes: list[int], cells: dict, name: str):
        self.f, self.geo, self.codes, self.name = f, geo, codes, name
        self.cells = cells  # (square, code) -> literal
        self._memo: dict = {}

    def x(self, s: int, p: int):
        return self.cells.get((s, p), False)

    def _get(self, key, build):
        v = self._memo.get(key)
        if v is None:
            v = self._memo[key] = build()
            self.f.label(v, f"{self.name}_{'_'.join(map(str, key))}")
        return v

    def occ(self, s: int):
        return self._get(("occ", s), lambda: self.f.or_(self.x(s, p) for p in self.codes))

    def own(self, s: int, c: int):
        return self._get(("own", s, c), lambda: self.f.or_(
            self.x(s, p) for p in self.codes if p >> 4 == c))

    def slide(self, s: int, d: int, by: int):
        """A slider of colour ``by`` attacks ``s`` along direction ``d``: it stands on the
        ray from ``s`` in direction ``d`` with nothing between."""
        ray = self.geo.ray8[s][d]
        if not ray:
            return False
        y = ray[0]
        sliders = [q for q in self.codes if q >> 4 == by and q in self.geo.far[by][d]]
        if not sliders:
            return False
        return self._get(("sl", s, d, by), lambda: self.f.or_(
            [self.x(y, q) for q in sliders]
            + [self.f.and_([neg(self.occ(y)), self.slide(y, d, by)])]))

    def stepped_by_code(self, s: int, p: int):
        """Square ``s`` is attacked by a piece of code ``p`` by a step or a jump (the
        per-code attack map; slides are per direction and colour, see ``slide``)."""
        return self._get(("atp", s, p), lambda: self.f.or_(
            self.x(y, p) for y in _step_sources(self.geo, p, s)))

    def attacked(self, s: int, by: int):
        return self._get(("att", s, by), lambda: self.f.or_(
            [self.stepped_by_code(s, p) for p in self.codes if p >> 4 == by]
            + [self.slide(s, d, by) for d in range(8)]))

    def in_check(self, c: int):
        """The paper's equation for check: c's king stands on a square the other attacks."""
        king = piece_code(KING, c)
        if king not in self.codes:
            return False
        return self._get(("check", c), lambda: self.f.or_(
            self.f.and_([self.x(s, king), self.attacked(s, 1 - c)])
            for s in range(self.geo.size)))

    def ground(self, derived: bool = False) -> None:
        """Keep the whole state, every (square, code), whether or not a rule asks for it
        (the paper's state variables); with ``derived`` also its occupancy, ownership and
        both colours' attack maps (else they are built only where a rule uses them)."""
        f = self.f
        for s in range(self.geo.size):
            for p in self.codes:
                f.keep(self.x(s, p))
            if derived:
                f.keep(self.occ(s))
                for c in (0, 1):
                    f.keep(self.own(s, c))
                    f.keep(self.attacked(s, c))


def _step_sources(geo: Geometry, p: int, s: int) -> list[int]:
    """Squares from which a piece of code ``p`` attacks ``s`` by one step (or a jump)."""
    return [y for y in range(geo.size) if s in geo.steps[p][y]]


class Move:
    """The move of one ply: a variable per (from, to, promote) with from != to."""

    def __init__(self, f: Formula, geo: Geometry, level: int, name: str):
        self.f, self.geo, self.name = f, geo, name
        n = geo.size
        self.var = {(a, b, pr): f.var(f"{name}_{geo.usi(a)}{geo.usi(b)}{'+' if pr else ''}", level)
                    for a in range(n) for b in range(n) if a != b for pr in (0, 1)}
        self.bits = list(self.var.values())
        f.choices[name] = self
        self.frm, self.to, self.promote, self.plain = self.asserted(f.or_)
        for s in range(n):
            f.label(self.frm[s], f"{name}_from{geo.usi(s)}")
            f.label(self.to[s], f"{name}_to{geo.usi(s)}")

    def asserted(self, or_):
        """(origins, targets, promote, plain) that the true variables assert, as ORs built
        by ``or_``: the origin and target per square, and whether some promotion, and some
        plain move, is chosen."""
        n, var = self.geo.size, self.var
        frm = [or_(var[a, b, pr] for b in range(n) if b != a for pr in (0, 1)) for a in range(n)]
        to = [or_(var[a, b, pr] for a in range(n) if a != b for pr in (0, 1)) for b in range(n)]
        return (frm, to, or_(v for (a, b, pr), v in var.items() if pr),
                or_(v for (a, b, pr), v in var.items() if not pr))

    def exactly_one(self):
        """Exactly one variable is true: one origin, one target, promotion or not."""
        f = self.f
        return f.and_([_exactly_one(f, self.frm), _exactly_one(f, self.to),
                       neg(f.and_([self.promote, self.plain]))])

    def decode(self, values: dict[int, bool]):
        """The (from, to, promote) triples set true in an assignment."""
        return [key for key, v in self.var.items() if values.get(v, False)]


def _exactly_one(f: Formula, lits):
    """At least one and at most one of ``lits``, as a circuit (prefix ORs, linear size)."""
    some, two = some_and_two(lits, f.or_, f.and_)
    return f.and_([some, neg(two)])


def some_and_two(lits, or_, and_):
    """(some, two): at least one, and at least two, of ``lits`` hold; prefix ORs, linear
    size, with the gates of ``or_`` and ``and_``."""
    seen, clashes = False, []
    for lit in lits:
        clashes.append(and_([seen, lit]))
        seen = or_([seen, lit])
    return seen, or_(clashes)


def slide_dirs_of(p: int) -> list[int]:
    """Directions (of DIRECTIONS) in which a piece of code ``p`` slides."""
    sign = 1 if p >> 4 == 0 else -1
    return [DIRECTIONS.index((dx, sign * dy)) for dx, dy in SLIDE_VECTORS[p & 15]]


def line_facts(geo: Geometry, d: int, frm, to, occ, or_, and_):
    """(beyond, blocked) for direction ``d``: ``beyond[s]`` says the target lies beyond
    ``s`` along ``d``; ``blocked`` that an occupied square lies strictly between the origin
    and the target, which then lie on one line in direction ``d``. ``frm[s]`` and ``to[s]``
    say that the move leaves or enters ``s``; linear in the board, no gate per pair."""
    back = DIRECTIONS.index(tuple(-x for x in DIRECTIONS[d]))
    behind = [False] * geo.size  # the origin lies behind s, looking along d
    for s in _line_order(geo, back):
        r = geo.ray8[s][back]
        behind[s] = or_([frm[r[0]], behind[r[0]]]) if r else False
    beyond = [False] * geo.size
    for s in _line_order(geo, d):
        r = geo.ray8[s][d]
        beyond[s] = or_([to[r[0]], beyond[r[0]]]) if r else False
    blocked = or_(and_([behind[s], beyond[s], occ(s)]) for s in range(geo.size))
    return beyond, blocked


def _line_order(geo: Geometry, d: int) -> list[int]:
    """Squares ordered so that each comes after its neighbour in direction ``d``."""
    return sorted(range(geo.size), key=lambda s: len(geo.ray8[s][d]))
