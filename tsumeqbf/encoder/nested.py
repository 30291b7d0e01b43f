"""Encoding ``nested``: the pruned game of ``compact`` without its two solver aids, for
comparison: gate definitions are not guarded (a solver must satisfy every later ply even
after the defender picked an illegal reply), and the last ply stays a universal move
choice, not expanded into clauses.

>>> from tsumeqbf.rules import Position
>>> enc = encode(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1)
>>> enc.encoding, len(enc.first_moves)
('nested', 4)
"""

from __future__ import annotations

from ..rules.position import Position
from .game import Encoded, PlyGame


class Nested(PlyGame):
    """``compact`` without its solver aids (and the uchifuzume escape as a witness move)."""

    name = "nested"
    guarded = False
    expand_last = False
    expand_escapes = False


def encode(pos: Position, n: int, **choices) -> Encoded:
    """Mate(pos, n) as a QBF; ``choices``: ``attacker_moves``, ``defender_moves``."""
    return Nested(pos, n, **choices).encode()
