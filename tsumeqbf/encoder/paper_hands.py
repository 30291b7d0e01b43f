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

from ..rules.position import Position
from .game import Encoded, build


def encode(pos: Position, n: int, **choices) -> Encoded:
    """Mate(pos, n) as a QBF; ``choices``: ``used_kinds_only``, ``attacker_moves``,
    ``defender_moves``."""
    return build(pos, n, "paper-hands", grounded=True, expand_last=False, guarded=True,
                 **choices)
