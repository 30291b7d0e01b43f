"""Mate(P, n) of RULES.md as a QBF: the game built ply by ply, one loop (:class:`PlyGame`)
that the encodings ``compact``, ``nested``, ``enumerated``, ``lifted`` and
``paper-hands`` subclass, each in a module of its own that says what differs.

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
pawn drop that checks the attacker's king is legal only if the attacker can move: a
circuit over its candidate moves (``expand_escapes``), or a witness attacker move on
universal bits beside the defender's move (the defender names the escape).

An encoding overrides the loop's steps: the candidates of a ply (:meth:`PlyGame.candidates`,
:meth:`PlyGame.next_reach`), the states (:meth:`PlyGame.initial_state`,
:meth:`PlyGame.settle`), the legality of a ply (:meth:`PlyGame.attacker_legal`,
:meth:`PlyGame.defender_ply`) and the goal at the last ply (:meth:`PlyGame.no_legal_reply`
when ``expand_last``). The encoding ``paper`` keeps a loop of its own: its structure is the
paper's, not this one.

>>> from tsumeqbf.rules import Position
>>> class Plain(PlyGame):
...     name = "plain"
>>> enc = Plain(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1).encode()
>>> enc.encoding, len(enc.first_moves), enc.formula.comments[0]
('plain', 4, 'tsumeqbf encoding=plain version=8')
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..progress import phase
from ..rules.pieces import KING, PAWN, piece_code
from ..rules.position import Position
from .choice import MoveChoice, make_choice
from .facts import Rules
from .formula import Formula, neg
from .reach import Cand, Reach, advance, generate, initial_reach, piece_totals
from .states import InitialState, MovedView, NextState

#: the version of the encodings built here, written into every formula's comments
VERSION = "8"  # 8: a pawn-drop check's answers and their king-safety tests only around the pawn


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


def question_comments(pos: Position, n: int) -> list[str]:
    """The formula's comment lines that name the question (every encoding writes them)."""
    geo = pos.geo
    return [f"sfen={pos.sfen()}", f"n={n} zone={geo.zone}", f"board={geo.width}x{geo.height}"]


def pawn_check_answers(geo, cands, drops) -> tuple[list, tuple]:
    """Of ``cands``, the moves that may answer the check of one of the pawn ``drops``
    (the king's moves from the square in front of one, and captures on one), and those
    fronts. A pawn dropped next to the king can be neither blocked nor joined by a second
    checker (a drop uncovers no line), so every legal answer is among them; and wherever
    the check is given the king stands on a front, so a king-safety test after a move
    other than the king's need ask only about the fronts."""
    fronts = {x for m in drops for x in geo.steps[m.code][m.to]}
    targets = {m.to for m in drops}
    return ([m for m in cands if m.frm in fronts or m.to in targets],
            tuple(sorted(fronts)))


class PlyGame:
    """The QBF that is true exactly when Mate(pos, n) holds, built ply by ply; a subclass
    is an encoding: its ``name``, its settings (the class attributes below) and the steps
    it overrides. ``attacker_moves`` and ``defender_moves`` say how each side's move is
    chosen (:mod:`.choice`); ``used_kinds_only`` is read by the grounded encoding only.

    The loop owns the formula ``f``, the rule facts over it ``rules`` and the line's
    activity ``act`` (true while every reply so far was legal)."""

    #: the encoding's name, written into the formula's comments
    name = "game"
    #: the encodings' version, written into the formula's comments
    version = VERSION
    #: gate definitions guarded by the line's activity
    guarded = True
    #: the innermost universal ply expanded into clauses (:meth:`no_legal_reply`)
    expand_last = True
    #: whether the attacker can answer a defender's pawn-drop check is a circuit over its
    #: candidate moves, not a witness move on universal bits
    expand_escapes = True
    #: every fact of every state, every move of every ply: no pruning (the paper's way)
    grounded = False

    def __init__(self, pos: Position, n: int, *, attacker_moves: str = "binary",
                 defender_moves: str = "binary", used_kinds_only: bool = False):
        self.pos, self.n, self.geo = pos, n, pos.geo
        self.f = Formula()
        self.rules = Rules(self.f, self.geo)
        self.attacker, self.defender = pos.turn, 1 - pos.turn
        # no hands: nothing ever reaches a hand
        self.totals = {} if pos.no_hands else piece_totals(pos)
        self.move_choices = {self.attacker: attacker_moves, self.defender: defender_moves}
        self.used_kinds_only = used_kinds_only
        self.act = True

    def mover(self, t: int) -> int:
        return self.attacker if t % 2 else self.defender

    # -- the loop --------------------------------------------------------------------------
    def encode(self) -> Encoded:
        start = time.perf_counter()
        f, n = self.f, self.n
        state = self.initial_state()
        phase("encoding")
        first_choice = None
        for t in range(1, n + 2):
            if self.guarded:
                f.guard = self.act  # every gate first built from here on is used only while act
            cands = self.candidates(t, state)
            if t == n + 1 and self.expand_last:
                self.no_legal_reply(state, cands, self.act, t - 1)
                break
            if t % 2:  # the attacker: a legal move that gives check
                choice, nxt = self.choose(t, state, cands)
                if t == 1:
                    first_choice = choice
                self.attacker_legal(t, state, nxt, choice)
            else:  # the defender: a legal reply
                legal, nxt = self.defender_ply(t, state, cands)
                if t == n + 1:
                    f.add_clause([neg(self.act), neg(legal)])
                else:
                    self.act = f.and_([self.act, legal])
                    if self.act is False and not self.grounded:
                        break  # no legal reply can reach the later plies: they ask nothing
            self.settle(nxt)
            state = nxt
        f.comments += [f"tsumeqbf encoding={self.name} version={self.version}",
                       *question_comments(self.pos, n)]
        return Encoded(f, first_choice.cands, first_choice, self.name,
                       time.perf_counter() - start)

    # -- states ----------------------------------------------------------------------------
    def initial_state(self):
        """The position as ply 0's state (folded into constants)."""
        return InitialState(self.f, self.pos, initial_reach(self.pos), fold=True)

    def settle(self, state) -> None:
        """Called on each state the loop goes on from (none by default)."""

    # -- candidates ------------------------------------------------------------------------
    def candidates(self, t: int, state) -> list[Cand]:
        """The moves ply ``t`` offers in ``state``: the attacker's that may give check, the
        defender's that may evade it."""
        return generate(self.geo, state.reach, self.mover(t), check_filter=t % 2 == 1,
                        evasion_filter=t % 2 == 0)

    def next_reach(self, t: int, state, cands: list[Cand]) -> Reach:
        """What the state after ply ``t`` may hold: what ``cands`` can bring."""
        return advance(state.reach, cands, self.mover(t), self.totals)

    def choose(self, t: int, state, cands: list[Cand]):
        """(the move choice of ply ``t``, the state after it)."""
        mover = self.mover(t)
        reach = self.next_reach(t, state, cands)
        choice = make_choice(self.f, cands, t - 1, f"m{t}", self.move_choices[mover])
        return choice, NextState(self.f, state, choice, mover, reach)

    # -- legality --------------------------------------------------------------------------
    def attacker_legal(self, t: int, state, nxt, choice) -> None:
        """Ply ``t`` (odd) while the line is on: the attacker's chosen move is a legal
        check; a pawn drop among its candidates needs a defender's reply to exist (an
        existential witness: uchifuzume is not mate)."""
        f, rules, act = self.f, self.rules, self.act
        attacker, defender = self.attacker, self.defender
        parts = [choice.well_formed(act), rules.chosen_valid(state, choice, attacker),
                 rules.in_check(nxt, defender), neg(rules.in_check(nxt, attacker))]
        pawn_drops = [i for i, m in enumerate(choice.cands) if m.frm < 0 and m.code & 15 == PAWN]
        if pawn_drops:
            pd = f.or_(choice.sel(i) for i in pawn_drops)
            parts.append(f.or_([neg(pd), self.has_legal_move(
                nxt, defender, t - 1, f"w{t}", [choice.cands[i] for i in pawn_drops])]))
        f.add_clause([neg(act), f.and_(parts)])

    def defender_ply(self, t: int, state, cands: list[Cand]):
        """(legal, the state after): the defender's chosen reply at ply ``t`` is legal."""
        f, rules, defender = self.f, self.rules, self.defender
        choice, nxt = self.choose(t, state, cands)
        parts = [choice.well_formed(), rules.chosen_valid(state, choice, defender),
                 neg(rules.in_check(nxt, defender))]
        king_a = piece_code(KING, self.attacker)
        pdc_terms, drops = [], []
        for i, m in enumerate(cands):
            if m.frm < 0 and m.code & 15 == PAWN:
                for front in self.geo.steps[m.code][m.to]:
                    term = f.and_([choice.sel(i), state.piece(front, king_a)])
                    if term is not False:
                        pdc_terms.append(term)
                        drops.append(m)
        pdc = f.or_(pdc_terms)
        if pdc is not False:
            parts.append(f.or_([neg(pdc), self.escape(nxt, t - 1, f"w{t}", drops)]))
        return f.and_(parts), nxt

    # -- the goal at the last ply ----------------------------------------------------------
    def no_legal_reply(self, st, cands: list[Cand], act, level: int) -> None:
        """The innermost universal block expanded: every candidate reply is illegal in
        ``st``, where ``act`` implies that the defender is in check (the attacker's last
        move gave it).

        A king's move is illegal when its target square is attacked. Any other reply
        leaves the king on its square, so a clause per square the king may stand on says:
        the reply is not playable, or the king is elsewhere, or the square is still
        attacked. The check is known, so only the squares from which the reply's target
        is in sight need a clause: a reply out of sight of the king neither captures nor
        blocks the checker, and vacating a square only opens lines. The attacks off the
        lines through the reply's two squares are the base state's, one gate shared by
        every reply (:meth:`Rules.attacks_after`); the formula loses a quantifier
        alternation.

        A defender's pawn drop that checks the attacker's king is legal only if the
        attacker has an escape (:meth:`escape`: with a witness, bits on ``level``, one per
        such drop, that stay universal, because ∀w distributes over the conjunction of
        the expanded clauses).
        """
        f, rules, geo = self.f, self.rules, self.geo
        attacker, defender = self.attacker, self.defender
        king_a, king_d = piece_code(KING, attacker), piece_code(KING, defender)
        king_squares = [s for s in range(geo.size) if king_d in st.reach.codes[s]]
        watching: dict[int, list[int]] = {}  # target -> the king squares it is in sight of
        for i, m in enumerate(cands):
            view = MovedView(st, m)
            parts = [rules.valid(st, m, defender)]
            if m.frm < 0 and m.code & 15 == PAWN:
                gives = f.or_(st.piece(x, king_a) for x in geo.steps[m.code][m.to])
                if gives is not False:
                    parts.append(f.or_([neg(gives),
                                        self.escape(view, level, f"w{level + 1}_{i}", [m])]))
            if m.code == king_d and m.frm >= 0:
                f.add_clause([neg(act),
                              neg(f.and_(parts + [neg(rules.in_check(view, defender))]))])
                continue
            playable = f.and_(parts)
            if playable is False:
                continue
            kings = watching.get(m.to)
            if kings is None:
                kings = watching[m.to] = [s for s in king_squares
                                          if rules.in_sight(s, m.to, attacker)]
            for s in kings:
                if s != m.frm:
                    f.add_clause([neg(act), neg(playable), neg(st.piece(s, king_d))]
                                 + rules.attacks_after(view, s, attacker))

    # -- uchifuzume: whether the side a pawn drop checks can move ---------------------------
    def escape(self, st, level: int, name: str, drops):
        """The attacker can answer the defender's pawn-drop check in ``st`` (one of
        ``drops``): a circuit (``expand_escapes``) or a witness move on universal bits of
        ``level`` named ``name``."""
        if self.expand_escapes:
            return self.can_move(st, self.attacker, drops)
        return self.has_legal_move(st, self.attacker, level, name, drops)

    def has_legal_move(self, st, c: int, level: int, name: str, drops=None):
        """A witness that colour ``c`` has a legal board move in ``st`` (its bits on
        ``level``).

        Used only after a pawn-drop check, which no drop can answer: board moves suffice.
        With ``drops``, the pawn drops that may be the check, only their answers are
        offered (:func:`pawn_check_answers`), except when ``grounded``, whose witness
        keeps every board move.
        """
        f, geo, rules, grounded = self.f, self.geo, self.rules, self.grounded
        cands = generate(geo, st.reach, c, board_only=True, evasion_filter=not grounded)
        kings: tuple = ()
        if drops is not None and not grounded:
            cands, fronts = pawn_check_answers(geo, cands, drops)
            king = piece_code(KING, c)  # after an answer the king stands on a front or its target
            kings = tuple(sorted(set(fronts) | {m.to for m in cands if m.code == king}))
        if not cands:
            return False
        choice = MoveChoice(f, cands, level, name)
        choice.drops = drops  # the pawn drops it answers (a strategy's witness is found after one)
        reach = st.reach if grounded else advance(st.reach, cands, c, self.totals)
        nxt = NextState(f, st, choice, c, reach)
        return f.and_([rules.chosen_valid(st, choice, c), neg(rules.in_check(nxt, c, kings))])

    def can_move(self, st, c: int, drops=None):
        """Colour ``c`` has a legal board move in ``st``, as a circuit: some candidate is
        valid and leaves its king safe (each candidate a known move on ``st``, so the
        king-safety tests share the gates of the squares it does not touch).

        The defender's pawn-drop check asks this of the attacker. As a witness move the
        question put universal bits beside the defender's reply, and QBF solvers paid for
        them on every reply (DepQBF took 14 s instead of 0.15 s on a 3x3 mate in 3 where
        the defender holds a pawn); as a circuit it has no variables of its own. Board
        moves suffice: no drop answers a pawn's check. With ``drops``, the pawn drops that
        may be the check, only their answers are asked (:func:`pawn_check_answers`).
        """
        f, geo, rules = self.f, self.geo, self.rules
        cands = generate(geo, st.reach, c, board_only=True, evasion_filter=True)
        kings: tuple = ()
        if drops is not None:  # a king's move is tested on its target (Rules.in_check)
            cands, kings = pawn_check_answers(geo, cands, drops)
        return f.or_(f.and_([rules.valid(st, m, c),
                             neg(rules.in_check(MovedView(st, m), c, kings))]) for m in cands)

