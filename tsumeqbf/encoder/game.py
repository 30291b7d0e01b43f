"""Mate(P, n) of RULES.md as a QBF: the game built ply by ply, shared by the encodings
``compact``, ``nested`` and ``paper-hands`` (each a module of its own, with its settings).

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
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..progress import phase
from ..rules.pieces import HAND_KINDS, KING, PAWN, piece_code
from ..rules.position import Position
from .choice import MoveChoice, make_choice
from .facts import Rules
from .formula import Formula, neg
from .lines import enumerate_plies
from .reach import Cand, advance, full_reach, generate, initial_reach, piece_totals
from .states import InitialState, MovedView, NextState

#: compact: let the attacker claim an early mate (expanded check of every reply)
CLAIM_MATE = False  # measured: no gain once gate definitions are guarded
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


def build(pos: Position, n: int, encoding: str, *, grounded: bool, expand_last: bool,
          guarded: bool, expand_escapes: bool = False, used_kinds_only: bool = False,
          attacker_moves: str = "binary", defender_moves: str = "binary",
          positions_cap: int = 0) -> Encoded:
    """The QBF that is true exactly when Mate(pos, n) holds, built with the settings of
    the encoding named ``encoding``: ``grounded`` (every fact of every state, no pruning),
    ``expand_last`` (the innermost universal ply expanded into clauses), ``guarded``
    (gate definitions guarded by the line's activity) and ``expand_escapes`` (whether the
    attacker can answer a defender's pawn-drop check is a circuit over its candidate
    moves, not a witness move on universal bits). ``attacker_moves`` and
    ``defender_moves`` say how each side's move is chosen (:mod:`.choice`). With
    ``positions_cap`` the first plies offer the legal moves of the positions that lines
    reach, while there are at most that many (:mod:`.lines`)."""
    start = time.perf_counter()
    paper = grounded
    geo = pos.geo
    f = Formula()
    rules = Rules(f, geo)
    attacker, defender = pos.turn, 1 - pos.turn
    totals = {} if pos.no_hands else piece_totals(pos)  # no hands: nothing ever reaches a hand
    if paper:
        reach = full_reach(pos, totals, used_kinds_only)
    else:
        reach = initial_reach(pos)
    state = InitialState(f, pos, reach, fold=not paper)
    if positions_cap:
        phase("listing")
    planned = enumerate_plies(pos, n, positions_cap) if positions_cap else []
    phase("encoding")
    if paper:
        _ground(state, geo)
    act = True
    first_choice = None
    for t in range(1, n + 2):
        mover = attacker if t % 2 else defender
        if guarded:
            f.guard = act  # every gate first built from here on is used only while act
        if t <= len(planned):
            cands, planned_reach = planned[t - 1]
        else:
            cands = generate(geo, state.reach, mover, check_filter=not paper and t % 2 == 1,
                             evasion_filter=not paper and t % 2 == 0)
        if t == n + 1 and expand_last:
            _no_legal_reply(f, rules, geo, state, cands, defender, act, t - 1, totals,
                            expand_escapes)
            break
        if paper:
            next_reach = reach
        elif t <= len(planned):
            next_reach = planned_reach
        else:
            next_reach = advance(state.reach, cands, mover, totals)
        choice = make_choice(f, cands, t - 1, f"m{t}",
                             attacker_moves if t % 2 else defender_moves)
        if t == 1:
            first_choice = choice
        nxt = NextState(f, state, choice, mover, next_reach)
        if t % 2:  # the attacker: a legal move that gives check
            attacker_ply(f, rules, geo, state, nxt, choice, act, t, totals, paper)
        else:  # the defender: a legal reply
            parts = [choice.well_formed(), rules.chosen_valid(state, choice, mover),
                     neg(rules.in_check(nxt, defender))]
            king_a = piece_code(KING, attacker)
            pdc_terms, drops = [], []
            for i, m in enumerate(cands):
                if m.frm < 0 and m.code & 15 == PAWN:
                    for front in geo.steps[m.code][m.to]:
                        term = f.and_([choice.sel(i), state.piece(front, king_a)])
                        if term is not False:
                            pdc_terms.append(term)
                            drops.append(m)
            pdc = f.or_(pdc_terms)
            if pdc is not False:
                parts.append(f.or_([neg(pdc), _escape(f, rules, geo, nxt, attacker, t - 1, f"w{t}",
                                                      totals, paper, expand_escapes, drops)]))
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
    f.comments += [f"tsumeqbf encoding={encoding} version={VERSION}",
                   f"sfen={pos.sfen()}", f"n={n} zone={geo.zone}",
                   f"board={geo.width}x{geo.height}"]
    return Encoded(f, first_choice.cands, first_choice, encoding,
                   time.perf_counter() - start)


def attacker_ply(f, rules, geo, state, nxt, choice, act, t, totals, paper) -> None:
    """Ply ``t`` (odd) while the line is on (``act``): the attacker's chosen move is a
    legal check; a pawn drop among its candidates needs a defender's reply to exist (an
    existential witness: uchifuzume is not mate)."""
    attacker, defender = nxt.c, 1 - nxt.c
    parts = [choice.well_formed(act), rules.chosen_valid(state, choice, attacker),
             rules.in_check(nxt, defender), neg(rules.in_check(nxt, attacker))]
    pawn_drops = [i for i, m in enumerate(choice.cands) if m.frm < 0 and m.code & 15 == PAWN]
    if pawn_drops:
        pd = f.or_(choice.sel(i) for i in pawn_drops)
        parts.append(f.or_([neg(pd), _has_legal_move(
            f, rules, geo, nxt, defender, t - 1, f"w{t}", totals, paper,
            [choice.cands[i] for i in pawn_drops])]))
    f.add_clause([neg(act), f.and_(parts)])


def _no_legal_reply(f, rules, geo, st, cands, defender, act, level, totals,
                    expand_escapes=False) -> None:
    """The innermost universal block expanded: every candidate reply is illegal in ``st``,
    where ``act`` implies that the defender is in check (the attacker's last move gave it).

    A king's move is illegal when its target square is attacked. Any other reply leaves
    the king on its square, so a clause per square the king may stand on says: the reply
    is not playable, or the king is elsewhere, or the square is still attacked. The check
    is known, so only the squares from which the reply's target is in sight need a clause:
    a reply out of sight of the king neither captures nor blocks the checker, and vacating
    a square only opens lines. The attacks off the lines through the reply's two squares
    are the base state's, one gate shared by every reply (:meth:`Rules.attacks_after`);
    the formula loses a quantifier alternation.

    A defender's pawn drop that checks the attacker's king is legal only if the attacker
    has an escape: with ``expand_escapes`` a circuit over the attacker's candidate moves,
    else a witness move that stays universal (bits on ``level``, one per such drop),
    because ∀w distributes over the conjunction of the expanded clauses.
    """
    attacker = 1 - defender
    king_a, king_d = piece_code(KING, attacker), piece_code(KING, defender)
    king_squares = [s for s in range(geo.size) if king_d in st.reach.codes[s]]
    watching: dict[int, list[int]] = {}  # target -> the king squares it is in sight of
    for i, m in enumerate(cands):
        view = MovedView(st, m)
        parts = [rules.valid(st, m, defender)]
        if m.frm < 0 and m.code & 15 == PAWN:
            gives = f.or_(st.piece(x, king_a) for x in geo.steps[m.code][m.to])
            if gives is not False:
                parts.append(f.or_([neg(gives), _escape(f, rules, geo, view, attacker, level,
                                                        f"w{level + 1}_{i}", totals, False,
                                                        expand_escapes, [m])]))
        if m.code == king_d and m.frm >= 0:
            f.add_clause([neg(act), neg(f.and_(parts + [neg(rules.in_check(view, defender))]))])
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


def _ground(st, geo) -> None:
    """The paper grounds the whole state of every ply: every (square, piece) and hand fact."""
    for s in range(geo.size):
        for p in st.reach.codes[s]:
            st.piece(s, p)
    for c in (0, 1):
        for k in HAND_KINDS:
            for j in range(1, st.reach.hand_max[c][k] + 1):
                st.hand(c, k, j)


def _has_legal_move(f, rules, geo, st, c, level, name, totals, paper, drops=None):
    """A witness that colour ``c`` has a legal board move in ``st`` (its bits on ``level``).

    Used only after a pawn-drop check, which no drop can answer: board moves suffice.
    With ``drops``, the pawn drops that may be the check, only their answers are offered
    (:func:`_pawn_check_answers`), except under ``paper``, whose grounded witness keeps
    every board move.
    """
    cands = generate(geo, st.reach, c, board_only=True, evasion_filter=not paper)
    kings: tuple = ()
    if drops is not None and not paper:
        cands, fronts = _pawn_check_answers(geo, cands, drops)
        king = piece_code(KING, c)  # after an answer the king stands on a front or its target
        kings = tuple(sorted(set(fronts) | {m.to for m in cands if m.code == king}))
    if not cands:
        return False
    choice = MoveChoice(f, cands, level, name)
    choice.drops = drops  # the pawn drops it answers (a strategy's witness is found after one)
    nxt = NextState(f, st, choice, c, st.reach if paper else advance(st.reach, cands, c, totals))
    return f.and_([rules.chosen_valid(st, choice, c), neg(rules.in_check(nxt, c, kings))])


def _pawn_check_answers(geo, cands, drops) -> tuple[list, tuple]:
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


def _escape(f, rules, geo, st, attacker, level, name, totals, paper, expand, drops):
    """The attacker can answer the defender's pawn-drop check in ``st`` (one of
    ``drops``): a circuit (``expand``) or a witness move on universal bits of ``level``
    named ``name``."""
    if expand:
        return _can_move(f, rules, geo, st, attacker, drops)
    return _has_legal_move(f, rules, geo, st, attacker, level, name, totals, paper, drops)


def _can_move(f, rules, geo, st, c, drops=None):
    """Colour ``c`` has a legal board move in ``st``, as a circuit: some candidate is valid
    and leaves its king safe (each candidate a known move on ``st``, so the king-safety
    tests share the gates of the squares it does not touch).

    The defender's pawn-drop check asks this of the attacker. As a witness move the
    question put universal bits beside the defender's reply, and QBF solvers paid for
    them on every reply (DepQBF took 14 s instead of 0.15 s on a 3x3 mate in 3 where the
    defender holds a pawn); as a circuit it has no variables of its own. Board moves
    suffice: no drop answers a pawn's check. With ``drops``, the pawn drops that may be
    the check, only their answers are asked (:func:`_pawn_check_answers`).
    """
    cands = generate(geo, st.reach, c, board_only=True, evasion_filter=True)
    kings: tuple = ()
    if drops is not None:  # a king's move is tested on its target (Rules.in_check)
        cands, kings = _pawn_check_answers(geo, cands, drops)
    return f.or_(f.and_([rules.valid(st, m, c),
                         neg(rules.in_check(MovedView(st, m), c, kings))]) for m in cands)
