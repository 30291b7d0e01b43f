"""Mate(P, n) of RULES.md as a QBF.

The prefix follows the game: the attacker's move at ply t (odd) is chosen by existential
bits on level t-1, the defender's reply at ply t+1 by universal bits on level t; each
state is a circuit over the previous state and the chosen move, built lazily so that only
the facts the rules ask about get gates. The matrix is the nested implication

    ok(1) ∧ (legal(2) → ok(3) ∧ (legal(4) → … ∧ (legal(n+1) → ⊥)))

where ok(t) says the attacker's move is legal and gives check and legal(t) says the
defender's move is legal. A mate before ply n costs nothing: every reply is then illegal.
Out-of-range move codes select no candidate, so they are illegal in the antecedent rather
than forbidden by clauses on universal variables.

Uchifuzume needs an existential fact on each side: an attacker's pawn drop is legal only
with a witness defender reply (existential bits, the attacker's level), and a defender's
pawn drop that checks the attacker's king is legal only with a witness attacker move
(universal bits beside the defender's move: the defender names the escape).

Encodings (``ENCODINGS``):

* ``paper``: the founding paper's own structure under its no-hands rules (module
  ``paper``): every piece code on every square at every ply, moves as (from, to) pairs.
* ``paper-hands``: the paper's grounding carried over to the full rules: the whole
  grounded state (every square x every piece code, and every hand count) at every ply
  including n+1, the initial state as variables fixed by unit clauses, moves as binary
  codes over all squares with no reachability pruning, gate definitions guarded.
* ``compact``: constant folding of the initial position, per-ply reachability (only the
  (square, piece) pairs that can occur get gates), attacker candidates limited to moves
  that can give check, defender candidates limited to possible evasions, and only the
  state facts the rules ask about.

>>> from tsumeqbf.rules import Position
>>> enc = encode(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1)
>>> enc.formula.num_vars > 0, len(enc.first_moves) >= 2
(True, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..rules.geometry import Geometry
from ..rules.moves import board_move, drop_move
from ..rules.pieces import (BASE_KIND, HAND_KINDS, KING, KNIGHT, LANCE, PAWN, PROMOTED,
                            piece_code)
from ..rules.position import Position
from .choice import ATTACKER_CHOICES, DEFENDER_CHOICES, MoveChoice, make_choice
from .formula import Formula, neg

ENCODINGS = ("compact", "nested", "paper", "paper-hands")
VERSION = "3"  # 3: rule memo keyed by state objects, not id() (a stale-id bug)
#: compact: let the attacker claim an early mate (expanded check of every reply)
CLAIM_MATE = False  # measured: no gain once gate definitions are guarded


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


def _color(code: int) -> int:
    return code >> 4


# -- reachability ------------------------------------------------------------------------

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
    target_ok = [E[t] or any(_color(q) == opp for q in R[t]) for t in range(n)]
    out: list[Cand] = []
    for f in range(n):
        for p in R[f]:
            if _color(p) != c:
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
            if _color(q) != by or not geo.rays[q][x]:
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
    capture = {s for s, codes in enumerate(reach.codes) if any(_color(q) == opp for q in codes)}
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
                if _color(q) != c and q & 15 != KING:
                    captures.add(BASE_KIND[q & 15])
    for k in captures:
        hand[c][k] = min(totals.get(k, 0), hand[c][k] + 1)
    return Reach([frozenset(x) for x in codes], empty, hand)


# -- states as circuits ------------------------------------------------------------------

class InitialState:
    def __init__(self, f: Formula, pos: Position, reach: Reach, fold: bool):
        self.f, self.reach = f, reach
        self.board, self.hands = pos.board, pos.hands
        self.fold = fold
        self._vars: dict = {}
        self._occ: dict = {}

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


class NextState:
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
                    if _color(q) != self.c and q & 15 != KING and BASE_KIND[q & 15] == k:
                        terms.append(f.and_([self.entered(s), prev.piece(s, q)]))
            return f.or_(terms)
        return self._memo(("cap", k), build)

    def dropped(self, k: int):
        return self._memo(("drop", k), lambda: self._any(self.drops.get(k, ())))

    def hand(self, c: int, k: int, j: int):
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


class Rules:
    """Rule facts about any state (memoised per state object)."""

    def __init__(self, f: Formula, geo: Geometry):
        self.f, self.geo = f, geo
        # keyed by the state object itself (identity hash): the key keeps the state alive,
        # so a freed state's id can never be reused for another and hit a stale entry
        self._cache: dict = {}
        self._rays: dict = {}  # (state, "ray", square, colour, direction) -> literals
        self._sight: dict = {}  # (square, colour) -> the squares seen from it

    def _memo(self, key, build):
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = build()
            self.f.label(v, "_".join(map(str, key[1:])))
        return v

    def occ(self, st, s):
        return self._memo((st, "occ", s),
                          lambda: self.f.or_(st.piece(s, p) for p in st.reach.codes[s]))

    def own(self, st, s, c):
        return self._memo((st, "own", s, c), lambda: self.f.or_(
            st.piece(s, p) for p in st.reach.codes[s] if _color(p) == c))

    def attacked(self, st, s, by):
        """Square ``s`` is attacked by colour ``by`` in state ``st``."""
        if isinstance(st, MovedView) and not self._seen_from(s, by) & {st.m.frm, st.m.to}:
            return self.attacked(st.st, s, by)  # the move is out of sight: the same gate

        def build():
            geo = self.geo
            terms = []
            for d in range(len(geo.ray8[s])):
                terms += self._ray_terms(st, s, by, d)
            knight = piece_code(KNIGHT, by)
            terms += [st.piece(x, knight) for x in geo.knight_from[by][s]
                      if knight in st.reach.codes[x]]
            return self.f.or_(terms)
        return self._memo((st, "att", s, by), build)

    def _seen_from(self, s, by) -> frozenset:
        """The squares whose content can change whether ``s`` is attacked by ``by``."""
        key = (s, by)
        seen = self._sight.get(key)
        if seen is None:
            seen = self._sight[key] = frozenset(
                [x for ray in self.geo.ray8[s] for x in ray] + list(self.geo.knight_from[by][s]))
        return seen

    def _ray_terms(self, st, s, by, d):
        """The attacks on ``s`` by ``by`` along direction ``d``: a list of literals. A state
        that one known move changes (a :class:`MovedView`) shares those of its base state
        on every ray that does not pass through the move's two squares: on a 9x9 board at
        the last ply this is most of the encoder's work, repeated for every reply."""
        key = (st, "ray", s, by, d)
        terms = self._rays.get(key)
        if terms is None:
            ray = self.geo.ray8[s][d]
            if isinstance(st, MovedView) and st.m.to not in ray and st.m.frm not in ray:
                terms = self._ray_terms(st.st, s, by, d)
            else:
                terms = self._build_ray_terms(st, ray, self.geo.near[by][d], self.geo.far[by][d])
            self._rays[key] = terms
        return terms

    def _build_ray_terms(self, st, ray, near, far) -> list:
        if not ray:
            return []
        f, R = self.f, st.reach.codes
        terms = [st.piece(ray[0], q) for q in R[ray[0]] if q in near]
        # the path is built only up to the last square a slider may stand on
        clear, pending = True, []
        for prev_sq, x in zip(ray, ray[1:]):
            pending.append(prev_sq)
            hits = [st.piece(x, q) for q in R[x] if q in far]
            if not hits:
                continue
            for z in pending:
                clear = f.and_([clear, neg(self.occ(st, z))])
            pending = []
            if clear is False:
                break
            terms.append(f.and_([clear, f.or_(hits)]))
        return terms

    def in_check(self, st, c):
        king = piece_code(KING, c)
        return self._memo((st, "check", c), lambda: self.f.or_(
            self.f.and_([st.piece(s, king), self.attacked(st, s, 1 - c)])
            for s in range(self.geo.size) if king in st.reach.codes[s]))

    def valid(self, st, m: Cand, c: int):
        """Candidate ``m`` is a pseudo-legal move of colour ``c`` in ``st``."""
        f, geo = self.f, self.geo
        if m.frm >= 0:
            return f.and_([st.piece(m.frm, m.code), neg(self.own(st, m.to, c))]
                          + [neg(self.occ(st, x)) for x in geo.between[m.frm][m.to]])
        kind = m.code & 15
        lits = [st.hand(c, kind, 1), neg(self.occ(st, m.to))]
        if kind == PAWN:  # nifu: no unpromoted pawn of the dropper on the file
            file_ = m.to % geo.width
            lits += [neg(st.piece(x, m.code)) for x in range(file_, geo.size, geo.width)]
        return f.and_(lits)

    def chosen_valid(self, st, choice: MoveChoice, c: int):
        return self.f.or_(self.f.and_([choice.sel(i), self.valid(st, m, c)])
                          for i, m in enumerate(choice.cands))


# -- the encoding ------------------------------------------------------------------------

@dataclass
class Encoded:
    formula: Formula
    first_moves: list[Cand]
    first_choice: MoveChoice | None
    encoding: str
    encode_s: float
    stats: dict = field(default_factory=dict)

    def decode_first_move(self, values: dict[int, bool]) -> Cand | None:
        """The attacker's first move from an assignment of the formula's own variables."""
        if self.first_choice is None:
            return None
        return self.first_choice.decode(values)


def _totals(pos: Position) -> dict[int, int]:
    totals: dict[int, int] = {}
    for code in pos.board:
        if code and code & 15 != KING:
            k = BASE_KIND[code & 15]
            totals[k] = totals.get(k, 0) + 1
    for c in (0, 1):
        for k in HAND_KINDS:
            totals[k] = totals.get(k, 0) + pos.hands[c][k]
    return totals


def _full_reach(pos: Position, totals: dict[int, int], used_kinds_only: bool) -> Reach:
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


def encoding_options(encoding: str, options: dict) -> dict:
    """The keyword arguments of :func:`encode` that an engine's or a command's options
    ask for (``used_kinds_only``, ``attacker_moves``, ``defender_moves``), checked:
    ValueError with one line for a choice that does not exist or does not apply."""
    out = {"used_kinds_only": bool(options.get("used_kinds_only"))}
    for side, allowed in (("attacker_moves", ATTACKER_CHOICES),
                          ("defender_moves", DEFENDER_CHOICES)):
        kind = options.get(side) or "binary"
        if kind not in allowed:
            raise ValueError(f"unknown {side.replace('_', ' ')} choice {kind!r}; choose one "
                             f"of {', '.join(allowed)}")
        if kind != "binary" and encoding == "paper":
            raise ValueError(f"encoding paper chooses moves by (from, to) pairs; "
                             f"{side.replace('_', ' ')} {kind!r} does not apply")
        out[side] = kind
    return out


def encode(pos: Position, n: int, encoding: str = "compact", *,
           used_kinds_only: bool = False, attacker_moves: str = "binary",
           defender_moves: str = "binary") -> Encoded:
    """The QBF that is true exactly when Mate(pos, n) holds. ``attacker_moves`` and
    ``defender_moves`` say how each side's move is chosen (:mod:`.choice`; not for
    ``paper``, which has its own)."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    if encoding == "paper":
        from .paper import encode_paper
        return encode_paper(pos, n, used_kinds_only=used_kinds_only)
    start = time.perf_counter()
    paper = encoding == "paper-hands"
    expand_last = encoding == "compact"
    guarded = encoding != "nested"
    geo = pos.geo
    f = Formula()
    rules = Rules(f, geo)
    attacker, defender = pos.turn, 1 - pos.turn
    totals = {} if pos.no_hands else _totals(pos)  # no hands: nothing ever reaches a hand
    if paper:
        reach = _full_reach(pos, totals, used_kinds_only)
    else:
        reach = Reach([frozenset([code]) if code else frozenset() for code in pos.board],
                      [not code for code in pos.board],
                      [[pos.hands[c][k] for k in range(8)] for c in (0, 1)])
    state = InitialState(f, pos, reach, fold=not paper)
    states = [state]
    if paper:
        _ground(state, geo)
    act = True
    first_choice = None
    for t in range(1, n + 2):
        mover = attacker if t % 2 else defender
        if guarded:
            f.guard = act  # every gate first built from here on is used only while act
        cands = generate(geo, state.reach, mover, check_filter=not paper and t % 2 == 1,
                         evasion_filter=not paper and t % 2 == 0)
        if t == n + 1 and expand_last:
            _no_legal_reply(f, rules, geo, state, cands, defender, act, t - 1, totals)
            break
        next_reach = reach if paper else advance(state.reach, cands, mover, totals)
        choice = make_choice(f, cands, t - 1, f"m{t}",
                             attacker_moves if t % 2 else defender_moves)
        if t == 1:
            first_choice = choice
        nxt = NextState(f, state, choice, mover, next_reach)
        if t % 2:  # the attacker: a legal move that gives check
            parts = [choice.well_formed(act), rules.chosen_valid(state, choice, mover),
                     rules.in_check(nxt, defender), neg(rules.in_check(nxt, attacker))]
            pawn_drops = [i for i, m in enumerate(cands) if m.frm < 0 and m.code & 15 == PAWN]
            if pawn_drops:
                pd = f.or_(choice.sel(i) for i in pawn_drops)
                parts.append(f.or_([neg(pd), _has_legal_move(
                    f, rules, geo, nxt, defender, t - 1, f"w{t}", totals, paper)]))
            f.add_clause([neg(act), f.and_(parts)])
        else:  # the defender: a legal reply
            parts = [choice.well_formed(), rules.chosen_valid(state, choice, mover),
                     neg(rules.in_check(nxt, defender))]
            king_a = piece_code(KING, attacker)
            pdc_terms = []
            for i, m in enumerate(cands):
                if m.frm < 0 and m.code & 15 == PAWN:
                    for front in geo.steps[m.code][m.to]:
                        pdc_terms.append(f.and_([choice.sel(i), state.piece(front, king_a)]))
            pdc = f.or_(pdc_terms)
            if pdc is not False:
                parts.append(f.or_([neg(pdc), _has_legal_move(
                    f, rules, geo, nxt, attacker, t - 1, f"w{t}", totals, paper)]))
            legal = f.and_(parts)
            if t == n + 1:
                f.add_clause([neg(act), neg(legal)])
            else:
                if expand_last and CLAIM_MATE:
                    # The attacker may claim mate now: its existential flag makes the
                    # expanded "every reply is illegal" clauses binding and switches the
                    # later plies off, so a solver can prove a short mate without
                    # reasoning about the universal replies.
                    claim = f.var(f"mate{t - 1}", t - 2)
                    _no_legal_reply(f, rules, geo, state, cands, defender,
                                    f.and_([act, claim]), t - 1, totals)
                    act = f.and_([act, neg(claim), legal])
                else:
                    act = f.and_([act, legal])
                if act is False and not paper:
                    break  # no legal reply can reach the later plies: they ask nothing
        if paper:
            _ground(nxt, geo)
        state = nxt
        states.append(state)
    f.comments += [f"tsumeqbf encoding={encoding} version={VERSION}",
                   f"sfen={pos.sfen()}", f"n={n} zone={geo.zone}",
                   f"board={geo.width}x{geo.height}"]
    return Encoded(f, first_choice.cands, first_choice, encoding,
                   time.perf_counter() - start)


class MovedView:
    """The state ``st`` after one known board move or drop: a constant change of two squares."""

    def __init__(self, st, m: Cand):
        self.st, self.m = st, m
        codes = list(st.reach.codes)
        if m.frm >= 0:
            codes[m.frm] = frozenset()
        codes[m.to] = frozenset([m.result])
        self.reach = Reach(codes, st.reach.may_empty, st.reach.hand_max)

    def piece(self, s: int, p: int):
        if s == self.m.to:
            return p == self.m.result
        if s == self.m.frm:
            return False
        return self.st.piece(s, p)


def _no_legal_reply(f, rules, geo, st, cands, defender, act, level, totals) -> None:
    """The innermost universal block expanded: every candidate reply is illegal in ``st``.

    Each candidate changes at most two squares, so its king-safety test shares most gates
    with the others; the formula loses a quantifier alternation. A defender's pawn drop
    that checks the attacker's king is legal only if the attacker has an escape: that
    escape stays universal (bits on ``level``, one witness per such drop), because
    ∀w distributes over the conjunction of the expanded clauses.
    """
    attacker = 1 - defender
    king_a = piece_code(KING, attacker)
    views = [MovedView(st, m) for m in cands]
    for i, (m, view) in enumerate(zip(cands, views)):
        parts = [rules.valid(st, m, defender), neg(rules.in_check(view, defender))]
        if m.frm < 0 and m.code & 15 == PAWN:
            gives = f.or_(st.piece(x, king_a) for x in geo.steps[m.code][m.to])
            if gives is not False:
                parts.append(f.or_([neg(gives), _has_legal_move(
                    f, rules, geo, view, attacker, level, f"w{level + 1}_{i}", totals, False)]))
        f.add_clause([neg(act), neg(f.and_(parts))])


def _ground(st, geo) -> None:
    """The paper grounds the whole state of every ply: every (square, piece) and hand fact."""
    for s in range(geo.size):
        for p in st.reach.codes[s]:
            st.piece(s, p)
    for c in (0, 1):
        for k in HAND_KINDS:
            for j in range(1, st.reach.hand_max[c][k] + 1):
                st.hand(c, k, j)


def _has_legal_move(f, rules, geo, st, c, level, name, totals, paper):
    """A witness that colour ``c`` has a legal board move in ``st`` (its bits on ``level``).

    Used only after a pawn-drop check, which no drop can answer: board moves suffice.
    """
    cands = generate(geo, st.reach, c, board_only=True, evasion_filter=not paper)
    if not cands:
        return False
    choice = MoveChoice(f, cands, level, name)
    nxt = NextState(f, st, choice, c, st.reach if paper else advance(st.reach, cands, c, totals))
    return f.and_([rules.chosen_valid(st, choice, c), neg(rules.in_check(nxt, c))])
