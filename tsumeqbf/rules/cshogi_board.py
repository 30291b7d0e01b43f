"""cshogi's C++ move generator on our terms: which questions it may answer, and its
squares, pieces and moves in our numbering.

cshogi follows standard shogi, which is our rule set on a 9x9 board with a zone of 3 ranks
and at most the standard 40 pieces; any other question is refused (RULES.md: a tool that
cannot follow a point must refuse the instance). Only its move *generator* is used, never
its DfPn or mate search (those are not full-rule). tests/test_dfpn_cshogi.py checks that
both generators give the same checks and replies on thousands of positions.

>>> from tsumeqbf.rules import Position
>>> pos = Position.from_sfen("7k1/9/7G1/9/9/9/9/9/9 b G 1")
>>> supports(pos), pos.geo.usi(SQUARE[1 * 9 + 2])   # cshogi's square 11 is 2c
(True, '2c')
"""

from __future__ import annotations

from .errors import TsumeError
from .geometry import geometry
from .pieces import BASE_KIND, BISHOP, GOLD, HAND_KINDS, ROOK, STANDARD_SET

#: cshogi's piece type (bits 0-3 of its piece) -> our kind: they differ at 5-7
KIND = [0, 1, 2, 3, 4, BISHOP, ROOK, GOLD, 8, 9, 10, 11, 12, 13, 14]
#: cshogi's square (9 * (file - 1) + rank - 1) -> ours on the standard board
SQUARE = [geometry(9, 9, 3).square(s // 9 + 1, s % 9 + 1) for s in range(81)]
#: cshogi's piece (type, plus 16 for gote) -> our code (kind, plus 16 for gote)
CODE = [0] * 32
for _cs in range(1, 15):
    CODE[_cs], CODE[_cs + 16] = KIND[_cs], KIND[_cs] | 16
#: cshogi's hand lists follow our HAND_KINDS order (pawn, lance, ..., rook)
HAND_ORDER = HAND_KINDS


def load():
    """The cshogi module, or one clear error naming what to install."""
    try:
        import cshogi
    except ImportError:
        raise TsumeError("cshogi's move generator needs the cshogi package "
                         "(pip install cshogi)") from None
    return cshogi


def unsupported(pos) -> str | None:
    """Why cshogi would answer ``pos`` under other rules than ours, or None."""
    geo = pos.geo
    if pos.no_hands:
        return "cshogi plays with hands; the no-hands rules need our own rules engine"
    if (geo.width, geo.height, geo.zone) != (9, 9, 3):
        return (f"cshogi plays standard 9x9 shogi only (zone 3), not "
                f"{geo.width}x{geo.height} with zone {geo.zone}")
    count = dict.fromkeys(STANDARD_SET, 0)
    for code in pos.board:
        if code:
            count[BASE_KIND[code & 15]] += 1
    for hand in pos.hands:
        for kind in HAND_KINDS:
            count[kind] += hand[kind]
    if any(n > STANDARD_SET[k] for k, n in count.items()):
        return "cshogi needs at most the standard 40 pieces; this position has more of some kind"
    return None


def supports(pos) -> bool:
    return unsupported(pos) is None
