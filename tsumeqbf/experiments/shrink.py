"""Shrinking a failing question to a minimal one that still fails.

Greedy delta debugging on pieces: try removing one piece at a time (a board piece other
than a king, or one piece from either hand) and keep the first removal after which the
question still fails; stop when no single removal does. Candidates that are not valid
questions (the removal uncovers a check on the defender) are skipped.

>>> from tsumeqbf.rules import Position
>>> pos = Position.from_sfen("2k/3/1GP b 2P 1", zone=2)
>>> has_gold = lambda p: "G" in p.sfen().split()[0]
>>> shrink(pos, has_gold).position.sfen()
'2k/3/1G1 b - 1'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from ..rules import Position, TsumeError
from ..rules.pieces import HAND_KINDS, KING


@dataclass(frozen=True)
class Shrunk:
    position: Position
    removed: int  # pieces removed
    tries: int  # calls of the predicate


def removals(pos: Position) -> Iterator[Position]:
    """Every valid question with one piece fewer than ``pos``: board pieces (not kings)
    square by square, then hand pieces (attacker's hand first), kind by kind."""
    for s, code in enumerate(pos.board):
        if code and code & 15 != KING:
            board = pos.board[:]
            board[s] = 0
            yield from _valid(Position(pos.geo, board, pos.hands, pos.turn))
    for color in (pos.turn, pos.turn ^ 1):
        for kind in HAND_KINDS:
            if pos.hands[color][kind]:
                hands = [pos.hands[0][:], pos.hands[1][:]]
                hands[color][kind] -= 1
                yield from _valid(Position(pos.geo, pos.board[:], hands, pos.turn))


def _valid(pos: Position) -> list[Position]:
    try:
        pos.validate_question()
    except TsumeError:
        return []
    return [pos]


def shrink(pos: Position, still_fails: Callable[[Position], bool], max_tries: int = 500) -> Shrunk:
    """The smallest question reached from ``pos`` by single-piece removals that keep
    ``still_fails`` true (``pos`` itself is assumed to fail)."""
    current, removed, tries = pos, 0, 0
    progress = True
    while progress and tries < max_tries:
        progress = False
        for candidate in removals(current):
            tries += 1
            if still_fails(candidate):
                current, removed, progress = candidate, removed + 1, True
                break
            if tries >= max_tries:
                break
    return Shrunk(current, removed, tries)
