"""Moves are small ints, so move lists are cheap and hashable.

Bits 0-6 hold the destination square, bits 7-13 the origin square (or ``DROP_BASE + kind``
for a drop) and bit 14 the promotion flag.

>>> m = board_move(56, 47, promote=True)
>>> move_from(m), move_to(m), is_promotion(m), is_drop(m)
(56, 47, True, False)
"""

from __future__ import annotations

DROP_BASE = 96


def board_move(frm: int, to: int, promote: bool = False) -> int:
    return to | frm << 7 | (1 << 14 if promote else 0)


def drop_move(kind: int, to: int) -> int:
    return to | (DROP_BASE + kind) << 7


def move_to(m: int) -> int:
    return m & 127


def move_from(m: int) -> int:
    """Origin square of a board move (meaningless for a drop)."""
    return (m >> 7) & 127


def is_drop(m: int) -> bool:
    return (m >> 7) & 127 >= DROP_BASE


def drop_kind(m: int) -> int:
    return ((m >> 7) & 127) - DROP_BASE


def is_promotion(m: int) -> bool:
    return bool(m >> 14 & 1)
