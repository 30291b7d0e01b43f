"""The founding paper's encoding of Mate(P, n), under the no-hands rules it was written for.

Ishiwaki, Yoshinaka and Shinohara fix the whole formula by the board and the number of
plies; the position enters only as unit clauses on the initial state. The prefix is

    ∃state0 ∃move1 ∃state1 ∀move2 ∃state2 … ∀move(n+1) ∃state(n+1)

* a state is a piece code on every square: one variable per (square, code) for every code
  of the code set (all 28, or with ``used_kinds_only`` the codes that occur in the
  position and their promotions), grounded at every ply, with its occupancy, ownership and
  attack maps (which codes attack each square, and whether a colour does);
* a move is chosen by (from, to) square pairs, each with and without promotion: 2·N·(N-1)
  variables a ply, existential for the attacker and universal for the defender;
* the next state is a function of the state and the move (frame and effect gates);
* "in check" is the paper's equation: the king's square is attacked by the other colour.

The matrix is the nested implication of the other encodings,

    ok(1) ∧ (legal(2) → ok(3) ∧ (legal(4) → … (legal(n+1) → ⊥)))

so a defender's universal choice that is not exactly one legal move (two pairs, none, an
empty origin, a blocked path) only falsifies its ``legal(t)`` antecedent: the defender
loses by it, and no clause ever constrains the universal variables. Every gate is guarded
by the line's activity literal, so a line is over for the solver once it is decided.

>>> from tsumeqbf.rules import Position
>>> pos = Position.from_sfen("2k/3/1GP b - 1", zone=2, no_hands=True)
>>> enc = encode_paper(pos, 1, used_kinds_only=True)
>>> enc.formula.num_vars > 0, len(enc.first_choice.bits) == 2 * 9 * 8
(True, True)
"""

from __future__ import annotations

import time

from ..rules.errors import TsumeError
from ..rules.geometry import DIRECTIONS, SLIDE_VECTORS, Geometry
from ..rules.moves import board_move
from ..rules.pieces import (ALL_KINDS, KING, KNIGHT, LANCE, PAWN, PROMOTED, UNPROMOTED,
                            piece_code)
from ..rules.position import Position
from .formula import Formula, neg

VERSION = "paper-1"


def code_set(pos: Position, used_kinds_only: bool) -> list[int]:
    """The piece codes that get a variable on every square.

    All 28 codes; with ``used_kinds_only`` the paper's "unused piece kinds removed": the
    kinds on the board, their promotions and the king, for both colours.

    >>> from tsumeqbf.rules import Position
    >>> p = Position.from_sfen("2k/3/1GP b - 1", zone=2, no_hands=True)
    >>> code_set(p, True)  # pawn, gold, king, tokin of either colour
    [1, 5, 8, 9, 17, 21, 24, 25]
    """
    if not used_kinds_only:
        return [piece_code(k, c) for c in (0, 1) for k in ALL_KINDS]
    kinds = {code & 15 for code in pos.board if code} | {KING}
    kinds |= {PROMOTED[k] for k in kinds if k in PROMOTED}
    return [piece_code(k, c) for c in (0, 1) for k in sorted(kinds)]


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
        self.frm = [f.or_(self.var[a, b, pr] for b in range(n) if b != a for pr in (0, 1))
                    for a in range(n)]
        self.to = [f.or_(self.var[a, b, pr] for a in range(n) if a != b for pr in (0, 1))
                   for b in range(n)]
        self.promote = f.or_(v for (a, b, pr), v in self.var.items() if pr)
        self.plain = f.or_(v for (a, b, pr), v in self.var.items() if not pr)
        for s in range(n):
            f.label(self.frm[s], f"{name}_from{geo.usi(s)}")
            f.label(self.to[s], f"{name}_to{geo.usi(s)}")

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
    seen, clashes = False, []
    for lit in lits:
        clashes.append(f.and_([seen, lit]))
        seen = f.or_([seen, lit])
    return f.and_([seen, neg(f.or_(clashes))])


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
                 for d in sorted({d for p in self.mine for d in _slide_dirs_of(p)})}
        terms = []
        for (s, p), lit in self.from_code.items():
            ways = [move.to[t] for t in geo.steps[p][s]]
            ways += [f.and_([lines[d][0][s], neg(lines[d][1])]) for d in _slide_dirs_of(p)]
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


def _slide_dirs_of(p: int) -> list[int]:
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
        var = move.var
        self.frm = [self._or(var[a, b, pr] for b in range(n) if b != a for pr in (0, 1))
                    for a in range(n)]
        self.to = [self._or(var[a, b, pr] for a in range(n) if a != b for pr in (0, 1))
                   for b in range(n)]
        self.promote = self._or(v for (a, b, pr), v in var.items() if pr)
        self.plain = self._or(v for (a, b, pr), v in var.items() if not pr)
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
            seen, clashes = False, []
            for lit in lits:
                clashes.append(self._and([seen, lit]))
                seen = self._or([seen, lit])
            return self._or(clashes)
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
            for d in _slide_dirs_of(p):
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


class PaperMoveChoice:
    """The first ply's move variables, decoded into the attacker's first move."""

    def __init__(self, move: Move, pos: Position):
        self.move, self.pos = move, pos
        self.bits = move.bits

    def decode(self, values: dict[int, bool]):
        chosen = self.move.decode(values)
        if len(chosen) != 1:
            return None
        a, b, pr = chosen[0]
        return PaperCand(board_move(a, b, bool(pr)))


class PaperCand:
    """A decoded move (the ``Cand`` interface the solver engine uses)."""

    def __init__(self, m: int):
        self._m = m

    def move(self) -> int:
        return self._m


def encode_paper(pos: Position, n: int, *, used_kinds_only: bool = False):
    """The QBF of the paper's structure; true exactly when Mate(pos, n) holds under the
    no-hands rules."""
    from .shogi import Encoded

    if not pos.no_hands:
        raise TsumeError("encoding 'paper' is the paper's rules without hands: add --no-hands "
                         "(or use --encoding paper-hands for the full rules)")
    start = time.perf_counter()
    geo = pos.geo
    f = Formula(polarity=True)
    codes = code_set(pos, used_kinds_only)
    attacker, defender = pos.turn, 1 - pos.turn
    cells = {}
    for s in range(geo.size):
        for p in codes:
            v = cells[s, p] = f.var(f"s0_{geo.usi(s)}_{p}", 0)
            f.assert_(v if pos.board[s] == p else -v)
    state = State(f, geo, codes, cells, "s0")
    state.ground(derived=True)  # fixed by the unit clauses: free for a solver
    act = True
    first = None
    for t in range(1, n + 2):
        f.guard = act  # every gate built from here on is used only while the line is on
        mover = attacker if t % 2 else defender
        move = Move(f, geo, t - 1, f"m{t}")
        first = first or move
        if t % 2:  # the attacker: a legal move that gives check
            ply = Ply(f, geo, codes, state, move, mover, f"s{t}")
            nxt = ply.next
            ok = f.and_([ply.legal, nxt.in_check(defender), neg(nxt.in_check(attacker))])
            f.add_clause([neg(act), ok])
        else:  # the defender: a legal reply, else it has lost
            evidence = Fault(f, geo, codes, state, move, mover, f"fault{t}")
            fault = evidence.fault
            if t == n + 1:
                f.add_clause([neg(act), fault])
                evidence.ground_after()  # state n+1, as the facts the check test reads
            act = f.and_([act, neg(fault)])
            f.guard = act  # the next state matters only after a legal reply
            nxt = Ply(f, geo, codes, state, move, mover, f"s{t}", legal=False).next
        if t <= n:
            nxt.ground()
        state = nxt
    f.comments += [f"tsumeqbf encoding=paper version={VERSION}", "rules=no-hands",
                   f"sfen={pos.sfen()}", f"n={n} zone={geo.zone}",
                   f"board={geo.width}x{geo.height}",
                   f"codes={'all' if not used_kinds_only else ','.join(map(str, codes))}"]
    choice = PaperMoveChoice(first, pos)
    moves = [PaperCand(m) for m in pos.checks()]
    return Encoded(f, moves, choice, "paper", time.perf_counter() - start)
