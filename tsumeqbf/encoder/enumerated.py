"""Encoding ``enumerated``: ``compact`` whose first plies offer only the legal moves of the
positions that lines of play reach, enumerated by the rules engine (:mod:`.lines`), and
whose states there hold only what those positions hold. Past ``POSITIONS_CAP`` positions
at a ply, the later plies go on by reach as in ``compact``.

On the YaneuraOu mate-in-5 samples this cuts the candidates of plies 3-6 from about 440,
490, 2,950 and 3,160 (sample mate5-2) to 115, 80, 386 and the reach of the last: the
formula is a fraction of ``compact``'s.

>>> from tsumeqbf.rules import Position
>>> enc = encode(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1)
>>> enc.encoding, len(enc.first_moves)
('enumerated', 4)
"""

from __future__ import annotations

from ..progress import phase
from ..rules.position import Position
from .game import Encoded, PlyGame
from .lines import enumerate_plies
from .reach import Cand, Reach

#: at most this many positions per ply are enumerated (a ply's legal moves are listed
#: from them in about 0.1 ms each)
POSITIONS_CAP = 10_000


class Enumerated(PlyGame):
    """``compact`` whose first plies' candidates and reach are the enumerated ones."""

    name = "enumerated"
    #: at most this many positions a ply are listed
    cap = POSITIONS_CAP
    #: ply n offers only the checks that mate (encoding ``mating``)
    mates_last = False

    def initial_state(self):
        # the enumeration is part of the encoding's time, so it is made here
        phase("listing")
        self.planned = enumerate_plies(self.pos, self.n, self.cap, self.mates_last)
        return super().initial_state()

    def candidates(self, t: int, state) -> list[Cand]:
        if t <= len(self.planned):
            return self.planned[t - 1][0]
        return super().candidates(t, state)

    def next_reach(self, t: int, state, cands: list[Cand]) -> Reach:
        if t <= len(self.planned):
            return self.planned[t - 1][1]
        return super().next_reach(t, state, cands)


def encode(pos: Position, n: int, **choices) -> Encoded:
    """Mate(pos, n) as a QBF; ``choices``: ``attacker_moves``, ``defender_moves``."""
    return Enumerated(pos, n, **choices).encode()
