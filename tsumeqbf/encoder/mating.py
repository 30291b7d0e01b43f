"""Encoding ``mating``: ``enumerated`` whose last attacker ply offers only the checks that
mate, with the positions listed far past ``enumerated``'s cap.

A line that lasts all n plies must end in a mate at ply n (an earlier mate ends the line
before it, and costs nothing there: every reply is illegal). So ply n need offer only the
checks that mate in one of its positions, and ply n+1 only the legal replies of the
positions those checks reach where they do not mate. This is exact when every position of
ply n is listed: a mating move of a real line is a mate in a listed position, so it is
offered; and whatever offered check the attacker picks in a position where it is legal, the
defender's legal replies there are offered, so a check that does not mate is answered.
Where the positions of ply n would exceed :data:`POSITIONS_CAP`, the plies go on as in
``enumerated`` (by reach past the cap, every check offered at ply n).

The listing is cheap with cshogi's generator: on the YaneuraOu mate-in-9 samples ply 9 has
24,000-355,000 positions, listed in 1-3 s, and offers 300-750 mating moves where
``enumerated`` offers 3,500-7,600 checks by reach (docs/encodings.md, "mating").

The formula still decides every move's legality and the mate with its own circuits; the
rules engine decides only which moves are offered (as in ``enumerated``, a legal move or a
mate the engine failed to list would be missing from the formula too).

>>> from tsumeqbf.rules import Position
>>> pos = Position.from_sfen("2k/3/1GP b - 1", zone=2)
>>> sorted(pos.usi(m.move()) for m in encode(pos, 1).first_moves)  # enumerated offers 4
['1c1b+', '2c1b']
"""

from __future__ import annotations

from ..rules.position import Position
from .enumerated import Enumerated
from .game import Encoded

#: at most this many positions per ply are listed (cshogi lists about 100,000 a second)
POSITIONS_CAP = 400_000


class Mating(Enumerated):
    """``enumerated`` with a larger cap and only mating checks at ply n."""

    name = "mating"
    cap = POSITIONS_CAP
    mates_last = True


def encode(pos: Position, n: int, **choices) -> Encoded:
    """Mate(pos, n) as a QBF; ``choices``: ``attacker_moves``, ``defender_moves``."""
    return Mating(pos, n, **choices).encode()
