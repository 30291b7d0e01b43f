"""Encoding ``lifted``: the defender's replies as symbolic move fields, not a candidate list.

The idea is that of the lifted encodings of board games in Q-sage (Shaik and van de Pol):
a move is a few fields of variables checked by per-square constraints, so that the move
part of the formula grows with the board and the plies, not with the number of moves a
ply may have. Here, at each lifted defender ply t (universal variables on level t-1):

* ``src``: one binary field over the origins of the ply's possible board moves followed by
  the kinds it may drop (a value past them names nothing);
* ``dst``: one binary field over the squares those moves may reach;
* ``promote``: one bit (only when some possible move promotes).

The fields' domains are what :func:`.reach.generate` lists for the ply (its evasions: the
defender is always in check here), the reachability bound of ``compact``; the formula
over them does not look at that list again.

Every assignment of these fields is a reply the defender may pick; legal(t) is true
exactly for the legal ones. A value past a domain, an origin without the defender's piece,
a kind it does not hold, a target its piece does not reach, a promotion that is not
allowed or a missing forced one: each makes legal(t) false, which lies in the antecedent
of the nested implication. No clause ever mentions the universal variables alone.

Legality is built from shared decoded gates:

* ``from == x`` and ``to == y`` per square (a minterm of ``src`` or ``dst``), the file and
  rank of each (an OR over the squares of that file or rank), and ``dx == d``, ``dy == e``
  per displacement (an OR over the W (H) pairs of files (ranks));
* ``moving(p)``: the piece on ``from`` is p, an OR over the origins where p may stand;
* the move's shape, per piece code: an OR of displacements (its steps, and each slide
  direction at every distance), the same few gates whichever square it stands on;
* the path of a slide, per square z and direction u: z is blocked when it is occupied,
  ``from`` lies behind z along u (a square where a slider along u may stand) and ``to``
  lies beyond it;
* promotion from the ranks (zone of ``from`` or ``to``; the last rank or two forcing it),
  drops from ``to`` (empty, not a dead rank, nifu per file, hand count >= 1).

The next state is per square: piece'(y, q) = (to == y ∧ result == q) ∨ (piece(y, q) ∧
¬(to == y) ∧ ¬(from == y)), where ``result == q`` comes from ``moving``, ``promote``
and the dropped kind; hands change by the kind captured on ``to`` or the kind dropped.
Reachability (``Reach``, ``advance``) still bounds which (square, code) pairs a state
has gates for; a reply whose arriving piece the next state could not hold is illegal by
a constraint of its own, which loses no legal reply (every evasion is a listed move).

Choices made, and why:

* The attacker keeps the candidate list of ``compact`` (binary index bits, existential):
  its candidates are few because each must be able to give check, and the first move is
  decoded from them. ``--attacker-moves`` applies; ``--defender-moves`` does not.
* Uchifuzume asks whether the side a pawn drop checks has a legal move. For the
  attacker's drops the defender's escape stays an existential witness, a candidate list
  of board moves (:meth:`.game.PlyGame.has_legal_move`); for the defender's drops the
  attacker's escape is a circuit over its candidate moves (:meth:`.game.PlyGame.can_move`), as in
  ``compact``, so that no universal witness sits beside the defender's reply.
* ``lifted`` expands the last ply n+1 as ``compact`` does (every listed reply illegal,
  each tested on the state that one known move changes): that removes the innermost
  universal block. ``lifted-nested`` lifts the last ply too; it is the pure form and much
  harder for the solvers (see docs/encodings.md). At n = 1 ``lifted`` therefore has no
  lifted ply; the defender's plies 2..n-1 are lifted.

>>> from tsumeqbf.rules import Position
>>> enc = encode(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1)
>>> enc.encoding, enc.formula.num_vars > 0, len(enc.first_moves) >= 2
('lifted', True, True)
"""

from __future__ import annotations

from ..rules.geometry import DIRECTIONS, SLIDE_VECTORS, STEP_VECTORS, Geometry
from ..rules.moves import board_move, drop_move
from ..rules.pieces import (BASE_KIND, BLACK, HAND_KINDS, KING, KNIGHT, LANCE, PAWN,
                            PROMOTED, UNPROMOTED, piece_code)
from ..rules.position import Position
from .facts import Rules
from .formula import Formula, neg
from .game import VERSION as GAME_VERSION
from .game import Encoded, PlyGame
from .reach import Reach
from .states import AfterMove

VERSION = f"lifted-1/{GAME_VERSION}"


def _nbits(size: int) -> int:
    return (size - 1).bit_length() if size > 1 else 0


class Field:
    """An unsigned binary number of ``size`` values held by variables; ``eq(v)`` is the
    (shared) minterm of value v, False for a value outside 0..size-1.

    >>> f = Formula()
    >>> fld = Field(f, "x", 3, 1)
    >>> len(fld.bits), fld.eq(3), fld.value({fld.bits[0]: True, fld.bits[1]: True})
    (2, False, 3)
    """

    def __init__(self, f: Formula, name: str, size: int, level: int):
        self.f, self.size = f, size
        self.bits = [f.var(f"{name}{i}", level) for i in range(_nbits(size))]
        self._eq: dict[int, object] = {}

    def eq(self, v: int):
        if not 0 <= v < self.size:
            return False
        g = self._eq.get(v)
        if g is None:
            g = self._eq[v] = self.f.and_(b if v >> j & 1 else -b for j, b in enumerate(self.bits))
        return g

    def value(self, values: dict[int, bool]) -> int:
        return sum(1 << j for j, b in enumerate(self.bits) if values.get(b, False))


def _displacements(code: int):
    """(steps, slides) of a piece code as (dx, dy) on the board's x (towards file 1) and
    y (towards the last rank) axes."""
    kind, sign = code & 15, 1 if code >> 4 == BLACK else -1
    steps = [(dx, sign * dy) for dx, dy in STEP_VECTORS[kind]]
    slides = [(dx, sign * dy) for dx, dy in SLIDE_VECTORS[kind]]
    return steps, slides


class LiftedMove:
    """One ply's move of colour ``c`` in state ``prev`` as fields on ``level``: the
    legality ``legal_move`` (pseudo-legal, arriving piece representable in ``reach``) and
    the next state ``next`` (a :class:`LiftedState` over ``reach``).

    The fields' domains are the origins, drop kinds and targets that ``cands`` (the
    ply's possible moves, a superset of its legal ones) use; the constraints over them do
    not look at ``cands`` again."""

    def __init__(self, f: Formula, rules: Rules, prev, c: int, level: int, name: str,
                 reach: Reach, cands):
        geo: Geometry = rules.geo
        self.f, self.rules, self.geo, self.prev, self.c = f, rules, geo, prev, c
        self.origins = sorted({m.frm for m in cands if m.frm >= 0})
        self.kinds = sorted({m.code & 15 for m in cands if m.frm < 0})
        self.targets = sorted({m.to for m in cands})
        self.src = Field(f, f"{name}_src", len(self.origins) + len(self.kinds), level)
        self.dst = Field(f, f"{name}_dst", len(self.targets), level)
        self._origin = {x: i for i, x in enumerate(self.origins)}
        self._target = {y: i for i, y in enumerate(self.targets)}
        R = prev.reach.codes
        self.mine = sorted({p for x in self.origins for p in R[x] if p >> 4 == c})
        promotes = any(m.frm >= 0 and m.result != m.code for m in cands)
        self.promote = f.var(f"{name}_promote", level) if promotes else False
        self.bits = self.src.bits + self.dst.bits + ([self.promote] if promotes else [])
        self._cache: dict = {}
        f.choices[name] = self
        self.legal_move = self._legal(reach)
        self.next = LiftedState(self, reach)

    # -- decoded fields ------------------------------------------------------------------
    def _memo(self, key, build):
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = build()
        return v

    def from_is(self, s: int):
        """A board move from s (the mover's piece leaves s)."""
        return self.src.eq(self._origin.get(s, -1))

    left = from_is

    def to_is(self, s: int):
        return self.dst.eq(self._target.get(s, -1))

    def dropped(self, k: int):
        if k not in self.kinds:
            return False
        return self.src.eq(len(self.origins) + self.kinds.index(k))

    def _axis(self, end: str, axis: int, v: int):
        """The file (axis 0, as x) or rank (axis 1, as y) of ``from`` or ``to`` is v."""
        squares, is_ = ((self.origins, self.from_is) if end == "from"
                        else (self.targets, self.to_is))
        return self._memo((end, axis, v), lambda: self.f.or_(
            is_(s) for s in squares if self.geo.xy[s][axis] == v))

    def moving(self, p: int):
        """A board move of the piece code p (which stands on ``from``)."""
        prev = self.prev
        return self._memo(("moving", p), lambda: self.f.or_(
            self.f.and_([self.from_is(x), prev.piece(x, p)])
            for x in self.origins if p in prev.reach.codes[x]))

    def result(self, q: int):
        """The code that stands on ``to`` after the move is q."""
        if q >> 4 != self.c:
            return False

        def build():
            f, kind = self.f, q & 15
            terms = [f.and_([self.moving(q), neg(self.promote)])]
            if kind in UNPROMOTED:
                terms.append(f.and_([self.moving(piece_code(UNPROMOTED[kind], self.c)),
                                     self.promote]))
            if kind in HAND_KINDS:
                terms.append(self.dropped(kind))
            return f.or_(terms)
        return self._memo(("result", q), build)

    def _rows(self, end: str, rows):
        return self.f.or_(self._axis(end, 1, r) for r in rows)

    def _d(self, axis: int, d: int):
        """On ``axis`` (0: x, 1: y), the coordinate of ``to`` minus that of ``from`` is d."""
        size = self.geo.width if axis == 0 else self.geo.height
        return self._memo(("d", axis, d), lambda: self.f.or_(
            self.f.and_([self._axis("from", axis, i), self._axis("to", axis, i + d)])
            for i in range(max(0, -d), min(size, size - d))))

    def _shape(self, p: int):
        """The displacement from ``from`` to ``to`` is one of p's moves on an empty board."""
        def build():
            f, geo = self.f, self.geo
            steps, slides = _displacements(p)
            terms = [f.and_([self._d(0, dx), self._d(1, dy)]) for dx, dy in steps]
            for dx, dy in slides:
                terms += [f.and_([self._d(0, k * dx), self._d(1, k * dy)])
                          for k in range(1, max(geo.width, geo.height))]
            return f.or_(terms)
        return self._memo(("shape", p), build)

    def _blocked(self):
        """A slide passes over an occupied square: some z is occupied, ``from`` lies behind
        it along a slide direction u of a piece that may stand there, ``to`` beyond it."""
        f, geo, prev, rules = self.f, self.geo, self.prev, self.rules
        R = prev.reach.codes
        dirs = {}
        for p in self.mine:
            for u in _displacements(p)[1]:
                dirs.setdefault(u, set()).add(p)
        terms = []
        for (ux, uy), sliders in dirs.items():
            d_fwd = _direction(ux, uy)
            d_back = _direction(-ux, -uy)
            for z in geo.squares:
                occ = rules.occ(prev, z)
                if occ is False:
                    continue
                behind = f.or_(self.from_is(x) for x in geo.ray8[z][d_back]
                               if R[x] & sliders)
                if behind is False:
                    continue
                beyond = f.or_(self.to_is(y) for y in geo.ray8[z][d_fwd])
                terms.append(f.and_([behind, beyond, occ]))
        return f.or_(terms)

    # -- legality ------------------------------------------------------------------------
    def _legal(self, reach: Reach):
        f, geo, prev, rules, c = self.f, self.geo, self.prev, self.rules, self.c
        w = geo.width
        to_on = f.or_(self.to_is(y) for y in self.targets)
        own_at_to = f.or_(f.and_([self.to_is(y), rules.own(prev, y, c)]) for y in self.targets)
        occ_at_to = f.or_(f.and_([self.to_is(y), rules.occ(prev, y)]) for y in self.targets)

        def rows(table):
            return sorted({s // w for s in geo.squares if table[c][s]})
        to_last = self._rows("to", rows(geo.last_rank))
        to_last_two = self._rows("to", rows(geo.last_two))
        in_zone = f.or_([self._rows("from", rows(geo.in_zone)),
                         self._rows("to", rows(geo.in_zone))])

        # board moves
        shaped = f.or_(f.and_([self.moving(p), self._shape(p)]) for p in self.mine)
        dead = f.or_([f.and_([f.or_([self.moving(piece_code(PAWN, c)),
                                     self.moving(piece_code(LANCE, c))]), to_last]),
                      f.and_([self.moving(piece_code(KNIGHT, c)), to_last_two])])
        can_promote = f.and_([f.or_(self.moving(p) for p in self.mine if p & 15 in PROMOTED),
                              in_zone])
        promotion_ok = f.or_([f.and_([neg(self.promote), neg(dead)]),
                              f.and_([self.promote, can_promote])])
        board_ok = f.and_([shaped, neg(own_at_to), neg(self._blocked()), promotion_ok])

        # drops
        pawn = piece_code(PAWN, c)
        nifu = f.or_(f.and_([self._axis("to", 0, i), f.or_(prev.piece(s, pawn)
                                                   for s in range(i, geo.size, w))])
                     for i in range(w))
        placed = {PAWN: f.and_([neg(to_last), neg(nifu)]), LANCE: neg(to_last),
                  KNIGHT: neg(to_last_two)}
        drop_ok = f.and_([neg(occ_at_to), f.or_(
            f.and_([self.dropped(k), prev.hand(c, k, 1), placed.get(k, True)])
            for k in self.kinds)])

        # the arriving piece must be one the next state can hold on that square
        unheld = f.or_(f.and_([self.to_is(y), self.result(q)])
                       for y in self.targets for q in self._results()
                       if q not in reach.codes[y])
        return f.and_([to_on, f.or_([board_ok, drop_ok]), neg(unheld)])

    def _results(self) -> list[int]:
        """The codes a move of this ply may leave on ``to``."""
        out = set(self.mine)
        out |= {piece_code(PROMOTED[p & 15], self.c) for p in self.mine if p & 15 in PROMOTED}
        out |= {piece_code(k, self.c) for k in self.kinds}
        return sorted(out)

    def pawn_drop_check(self, king: int):
        """A pawn drop right in front of ``king`` (a code of the other colour)."""
        f, geo, prev = self.f, self.geo, self.prev
        if PAWN not in self.kinds:
            return False
        pawn = piece_code(PAWN, self.c)
        front = f.or_(f.and_([self.to_is(y), f.or_(prev.piece(k, king)
                                                    for k in geo.steps[pawn][y])])
                      for y in self.targets)
        return f.and_([self.dropped(PAWN), front])

    def decode(self, values: dict[int, bool]) -> int | None:
        """The move an assignment of the fields names (None for a value past a domain);
        whether it is legal is the formula's business."""
        i, j = self.src.value(values), self.dst.value(values)
        if j >= len(self.targets) or i >= len(self.origins) + len(self.kinds):
            return None
        to = self.targets[j]
        if i >= len(self.origins):
            return drop_move(self.kinds[i - len(self.origins)], to)
        promote = self.promote is not False and values.get(self.promote, False)
        return board_move(self.origins[i], to, promote)


def _direction(dx: int, dy: int) -> int:
    return DIRECTIONS.index((dx, dy))


class LiftedState(AfterMove):
    """The state after a :class:`LiftedMove`: per square and code, per hand count."""

    def __init__(self, move: LiftedMove, reach: Reach):
        self.move, self.f, self.prev, self.c, self.reach = move, move.f, move.prev, move.c, reach
        self._cache: dict = {}

    def _memo(self, key, build):
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = build()
        return v

    def piece(self, s: int, p: int):
        if p not in self.reach.codes[s]:
            return False
        f, m = self.f, self.move
        return self._memo(("b", s, p), lambda: f.or_([
            f.and_([self.prev.piece(s, p), neg(m.left(s)), neg(m.to_is(s))]),
            f.and_([m.to_is(s), m.result(p)])]))

    def captured(self, k: int):
        """The mover captures a piece that goes to its hand as kind ``k``."""
        def build():
            f, prev, m = self.f, self.prev, self.move
            return f.or_(f.and_([m.to_is(s), prev.piece(s, q)])
                         for s in m.geo.squares for q in prev.reach.codes[s]
                         if q >> 4 != self.c and q & 15 != KING and BASE_KIND[q & 15] == k)
        return self._memo(("cap", k), build)

    def dropped(self, k: int):
        return self.move.dropped(k)


class Lifted(PlyGame):
    """``compact`` whose defender plies are :class:`LiftedMove` fields; the last ply
    expanded as ``compact``'s."""

    name = "lifted"
    version = VERSION

    def defender_ply(self, t: int, state, cands):
        # the evasions that any reachable state allows bound the next state's gates (the
        # defender is in check here, so every legal reply is among them)
        if not cands:
            return False, None
        f, rules, defender = self.f, self.rules, self.defender
        move = LiftedMove(f, rules, state, defender, t - 1, f"m{t}",
                          self.next_reach(t, state, cands), cands)
        nxt = move.next
        parts = [move.legal_move, neg(rules.in_check(nxt, defender))]
        pdc = move.pawn_drop_check(piece_code(KING, self.attacker))
        if pdc is not False:
            parts.append(f.or_([neg(pdc), self.can_move(nxt, self.attacker)]))
        return f.and_(parts), nxt


class LiftedNested(Lifted):
    """``lifted`` with the last ply lifted too."""

    name = "lifted-nested"
    expand_last = False


def encode(pos: Position, n: int, *, attacker_moves: str = "binary", **_ignored) -> Encoded:
    """Encoding ``lifted``: the registry's entry (:mod:`tsumeqbf.encoder.registry`)."""
    return Lifted(pos, n, attacker_moves=attacker_moves).encode()


def encode_nested(pos: Position, n: int, *, attacker_moves: str = "binary",
                  **_ignored) -> Encoded:
    """Encoding ``lifted-nested``: the last ply lifted too."""
    return LiftedNested(pos, n, attacker_moves=attacker_moves).encode()
