"""Encoding ``paper-hands``: the founding paper's grounding carried over to the full rules
(hands and drops).

The whole grounded state (every square x every piece code, and every hand count) at
every ply including n+1; the initial state as variables fixed by unit clauses; moves as
binary codes over all squares with no reachability pruning; gate definitions guarded.
With ``used_kinds_only`` only the kinds in the position, their promotions and the kings
get state variables.

>>> from tsumeqbf.rules import Position
>>> enc = encode(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1, used_kinds_only=True)
>>> enc.encoding, enc.formula.num_vars > 100
('paper-hands', True)
"""

from __future__ import annotations

from ..rules.pieces import HAND_KINDS
from ..rules.position import Position
from .game import Encoded, PlyGame
from .reach import Cand, Reach, full_reach, generate
from .states import InitialState


class PaperHands(PlyGame):
    """Every state grounded over one reach, every move of a ply a candidate."""

    name = "paper-hands"
    grounded = True
    expand_last = False
    expand_escapes = False

    def initial_state(self):
        self.reach = full_reach(self.pos, self.totals, self.used_kinds_only)
        state = InitialState(self.f, self.pos, self.reach, fold=False)
        self.settle(state)
        return state

    def settle(self, state) -> None:
        """Every (square, piece) and hand fact of ``state``."""
        for s in range(self.geo.size):
            for p in state.reach.codes[s]:
                state.piece(s, p)
        for c in (0, 1):
            for k in HAND_KINDS:
                for j in range(1, state.reach.hand_max[c][k] + 1):
                    state.hand(c, k, j)

    def candidates(self, t: int, state) -> list[Cand]:
        return generate(self.geo, state.reach, self.mover(t))

    def next_reach(self, t: int, state, cands: list[Cand]) -> Reach:
        return self.reach


def encode(pos: Position, n: int, **choices) -> Encoded:
    """Mate(pos, n) as a QBF; ``choices``: ``used_kinds_only``, ``attacker_moves``,
    ``defender_moves``."""
    return PaperHands(pos, n, **choices).encode()
