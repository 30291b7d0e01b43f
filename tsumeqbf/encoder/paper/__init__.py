"""The founding paper's encoding of Mate(P, n), under the no-hands rules it was written for.

Ishiwaki, Yoshinaka and Shinohara fix the whole formula by the board and the number of
plies; the position enters only as unit clauses on the initial state. The prefix is

    ∃state0 ∃move1 ∃state1 ∀move2 ∃state2 … ∀move(n+1) ∃state(n+1)

* a state is a piece code on every square: one variable per (square, code) for every code
  of the code set (all 28, or with ``used_kinds_only`` the kinds on the board, their
  promotions and the king, for both colours), at every ply up to n+1 (``state``);
* a move is chosen by (from, to) square pairs, each with and without promotion: 2·N·(N-1)
  variables a ply, existential for the attacker and universal for the defender;
* the next state is a function of the state and the move (frame and effect gates); "in
  check" is the paper's equation: the king's square is attacked by the other colour.

The matrix is the nested implication of the other encodings,

    ok(1) ∧ (¬fault(2) → ok(3) ∧ (¬fault(4) → … fault(n+1)))

where ok(t) says the attacker's move is legal and gives check (``attacker``) and fault(t)
that the defender's universal choice is not one legal move: none or several variables
true, an impossible move, or its king left attacked (``defender``). The fault is shown by
one-way gates built only from what the choice does, so no clause constrains the universal
variables and a solver refutes an illegal reply by naming that reply's own variable. Every
gate is guarded by the line's activity literal, and every definition keeps only the
direction its use needs (``Formula.polarity``), so a line is over for the solver once it
is decided.

>>> from tsumeqbf.rules import Position
>>> pos = Position.from_sfen("2k/3/1GP b - 1", zone=2, no_hands=True)
>>> enc = encode_paper(pos, 1, used_kinds_only=True)
>>> enc.formula.num_vars > 0, len(enc.first_choice.bits) == 2 * 9 * 8
(True, True)
"""

from __future__ import annotations

import time

from ...rules.errors import TsumeError
from ...rules.moves import board_move
from ...rules.pieces import ALL_KINDS, PROMOTED, piece_code
from ...rules.position import Position
from ..formula import Formula, neg
from ..game import Encoded, question_comments
from .attacker import Ply
from .defender import Fault
from .state import Move, State

VERSION = "paper-2"


def code_set(pos: Position, used_kinds_only: bool) -> list[int]:
    """The piece codes that get a variable on every square.

    All 28 codes; with ``used_kinds_only`` the paper's "unused piece kinds removed": the
    codes that occur or can arise. Under the no-hands rules a code arises only by the
    promotion of a piece of the same colour, so these are the codes on the board and their
    promoted codes.

    >>> from tsumeqbf.rules import Position
    >>> p = Position.from_sfen("2k/3/1GP b - 1", zone=2, no_hands=True)
    >>> code_set(p, True)  # the attacker's pawn, gold and tokin, the defender's king
    [1, 5, 9, 24]
    """
    if not used_kinds_only:
        return [piece_code(k, c) for c in (0, 1) for k in ALL_KINDS]
    codes = {code for code in pos.board if code}
    codes |= {piece_code(PROMOTED[code & 15], code >> 4) for code in codes
              if code & 15 in PROMOTED}
    return sorted(codes)


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
                   *question_comments(pos, n),
                   f"codes={'all' if not used_kinds_only else ','.join(map(str, codes))}"]
    choice = PaperMoveChoice(first, pos)
    moves = [PaperCand(m) for m in pos.checks()]
    return Encoded(f, moves, choice, "paper", time.perf_counter() - start)


def encode(pos: Position, n: int, *, used_kinds_only: bool = False, attacker_moves: str = "binary",
           defender_moves: str = "binary"):
    """The registry's entry (:mod:`tsumeqbf.encoder.registry`): moves are chosen by (from,
    to) pairs, so only the binary move-choice setting (the axes' default) is accepted."""
    if (attacker_moves, defender_moves) != ("binary", "binary"):
        raise ValueError("encoding paper chooses moves by (from, to) pairs; the move-choice "
                         "axes do not apply")
    return encode_paper(pos, n, used_kinds_only=used_kinds_only)
