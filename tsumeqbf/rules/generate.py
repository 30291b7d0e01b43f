"""Seeded random questions for agreement tests and experiments.

A question is a valid tsume position (defender king, defender not in check) on a W x H
board, with a few pieces on the board and in hand, chosen so that drops, promotions, nifu
and uchifuzume situations come up often. The same seed always gives the same questions.

>>> qs = question_set(seed=1, count=3, sizes=[(3, 3)], plies=[1])
>>> [q["id"] for q in qs]
['g1-0000', 'g1-0001', 'g1-0002']
"""

from __future__ import annotations

import random

from .errors import TsumeError
from .geometry import default_zone, geometry
from .pieces import (BISHOP, BLACK, DRAGON, GOLD, HORSE, KING, KNIGHT, LANCE, PAWN,
                     PRO_PAWN, PRO_SILVER, ROOK, SILVER, WHITE, piece_code)
from .position import Position

#: board piece kinds with weights: pawns and golds are common in tsume problems
_BOARD_KINDS = [PAWN] * 4 + [LANCE, KNIGHT, SILVER, SILVER, GOLD, GOLD, BISHOP, ROOK,
                             PRO_PAWN, PRO_SILVER, HORSE, DRAGON]
_HAND_KINDS = [PAWN] * 3 + [LANCE, KNIGHT, SILVER, GOLD, GOLD, BISHOP, ROOK]

#: the bounds a question set's arguments are checked against where they come from a file
#: (experiment configurations, family specs): the set is made whole before the first
#: question is asked, so a count is a list held in memory; a seed is TOML's 64-bit integer
#: (and names the ids); a piece bound is how many pieces are drawn at most: a board holds
#: 80 besides the defender's king, and the standard set 38 in hand
MAX_COUNT, MAX_SEED = 100_000, 2 ** 63 - 1
MAX_BOARD_PIECES, MAX_HAND_PIECES = 80, 38


def bound_of(name: str) -> int:
    """The most a piece bound of :func:`random_question` may be.

    >>> bound_of("attacker_hand"), bound_of("defender_pieces")
    (38, 80)
    """
    return MAX_HAND_PIECES if name.endswith("_hand") else MAX_BOARD_PIECES


def random_question(rng: random.Random, width: int, height: int, *, zone: int | None = None,
                    attacker_pieces: int = 4, defender_pieces: int = 1,
                    attacker_hand: int = 3, defender_hand: int = 1,
                    attacker_king: bool | None = None, tries: int = 200) -> Position:
    """One random valid question with sente to move (the attacker).

    Piece counts are upper bounds: each is drawn uniformly from 0..bound, and placement on a
    full board stops early. ``attacker_king=None`` flips a coin.
    """
    if zone is None:
        zone = default_zone(height)
    geo = geometry(width, height, zone)
    n_squares = width * height
    for _ in range(tries):
        board = [0] * n_squares
        free = list(range(n_squares))
        rng.shuffle(free)
        # the defender's king mostly on its own back ranks, where tsume problems live
        king = free.pop() if rng.random() < 0.4 else rng.randrange(min(2, height) * width)
        if king in free:
            free.remove(king)
        board[king] = piece_code(KING, WHITE)
        # attacking pieces mostly near the king, so that a good share of questions mate
        kf, kr = king % width, king // width
        near = [s for s in free if max(abs(s % width - kf), abs(s // width - kr)) <= 2]
        with_king = rng.random() < 0.5 if attacker_king is None else attacker_king
        if with_king and free:
            board[free.pop()] = piece_code(KING, BLACK)
        for color, bound in ((BLACK, attacker_pieces), (WHITE, defender_pieces)):
            for _ in range(rng.randint(min(1, bound) if color == BLACK else 0, bound)):
                pool = near if near and rng.random() < 0.7 else free
                if not pool:
                    break
                s = rng.choice(pool)
                for squares in (free, near):
                    if s in squares:
                        squares.remove(s)
                board[s] = piece_code(rng.choice(_BOARD_KINDS), color)
        hands = [[0] * 8, [0] * 8]
        for color, bound in ((BLACK, attacker_hand), (WHITE, defender_hand)):
            for _ in range(rng.randint(0, bound)):
                hands[color][rng.choice(_HAND_KINDS)] += 1
        pos = Position(geo, board, hands, BLACK)
        try:
            pos.validate_question()
        except TsumeError:
            continue
        return pos
    raise TsumeError(f"no valid question found on {width}x{height} in {tries} tries")


def question_set(seed: int, count: int, sizes=((3, 3), (4, 4), (5, 5)), plies=(1, 3, 5),
                 *, prefix: str | None = None, **piece_bounds) -> list[dict]:
    """``count`` questions as batch cases: ``{"id", "sfen", "n", "zone", "width", "height"}``.

    Sizes and plies cycle so that every combination appears; ``piece_bounds`` go to
    :func:`random_question`.
    """
    rng = random.Random(seed)
    prefix = f"g{seed}" if prefix is None else prefix
    cases = []
    for i in range(count):
        width, height = sizes[i % len(sizes)]
        n = plies[(i // len(sizes)) % len(plies)]
        zone = default_zone(height)
        pos = random_question(rng, width, height, zone=zone, **piece_bounds)
        cases.append({"id": f"{prefix}-{i:04d}", "sfen": pos.sfen(), "n": n, "zone": zone,
                      "width": width, "height": height})
    return cases
