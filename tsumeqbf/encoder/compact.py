"""Encoding ``compact``: the game of :mod:`.game` with everything the
position lets us leave out left out.

* the initial position folded into constants;
* per-ply reachability: only the (square, piece) pairs that can occur get gates;
* attacker candidates limited to moves that can give check, defender candidates to
  possible evasions; only the state facts the rules ask about;
* gate definitions guarded by the line's activity literal, so a line of play that is over
  (an illegal reply) asks nothing more of the solver;
* the innermost universal ply expanded: every candidate reply of ply n+1 is ruled out by
  clauses of its own, one quantifier alternation fewer;
* whether the attacker can answer a defender's pawn-drop check (else the drop is
  uchifuzume, illegal) is a circuit over the attacker's moves, not a universal witness.

>>> from tsumeqbf.rules import Position
>>> enc = encode(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1)
>>> enc.encoding, len(enc.first_moves)
('compact', 4)
"""

from __future__ import annotations

from ..rules.position import Position
from .game import Encoded, PlyGame


class Compact(PlyGame):
    """The loop with its default steps: guarded, last ply expanded, escapes as circuits."""

    name = "compact"


def encode(pos: Position, n: int, **choices) -> Encoded:
    """Mate(pos, n) as a QBF; ``choices``: ``attacker_moves``, ``defender_moves``."""
    return Compact(pos, n, **choices).encode()
