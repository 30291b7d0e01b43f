"""The brute-force reference: plain depth-bounded AND/OR search, the ground truth.

It answers Mate(P, n) of RULES.md literally: the attacker needs a legal check after which
the defender has no legal move, or (n >= 3) every legal reply leaves Mate(.., n - 2).
The memo is keyed on the exact position (not a hash) and the plies left, so it cannot
confuse two positions; nothing else is clever here on purpose.

>>> from tsumeqbf.rules import Position
>>> mate_within(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1)
True
"""

from __future__ import annotations

import time

from ..limits import memory_exceeded
from .position import Position, check_n


class SearchLimit(Exception):
    """Raised when a node, time or memory limit stops the search before it has an answer."""


class ReferenceSolver:
    """Depth-bounded exhaustive search with a memo on (exact position, plies left)."""

    def __init__(self, max_nodes: int | None = None, deadline: float | None = None):
        self.memo: dict[tuple, bool] = {}
        self.nodes = 0
        self.max_nodes = max_nodes
        self.deadline = deadline

    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimit(f"node limit {self.max_nodes} reached")
        if self.deadline is not None and self.nodes % 256 == 0 and time.monotonic() > self.deadline:
            raise SearchLimit("time limit reached")
        if self.nodes % 4096 == 0 and (reason := memory_exceeded()):
            raise SearchLimit(reason)  # the memory limits of tsumeqbf.limits in force

    def mate(self, pos: Position, n: int) -> bool:
        """Mate(pos, n): the side to move mates within n plies, every move a check."""
        key = (pos.exact_key(), n)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self._tick()
        result = any(self._check_mates(pos, m, n) for m in pos.checks())
        self.memo[key] = result
        return result

    def _check_mates(self, pos: Position, m: int, n: int) -> bool:
        """Whether check ``m`` forces mate within n plies (the defender to reply)."""
        pos.push(m)
        try:
            replies = pos.legal_moves()
            if not replies:
                return True
            if n < 3:
                return False
            for d in replies:
                pos.push(d)
                try:
                    if not self.mate(pos, n - 2):
                        return False
                finally:
                    pos.pop()
            return True
        finally:
            pos.pop()

    def mating_moves(self, pos: Position, n: int) -> list[int]:
        """Every first move that forces mate within n plies."""
        return [m for m in pos.checks() if self._check_mates(pos, m, n)]


def mate_within(pos: Position, n: int, **limits) -> bool:
    """Mate(P, n) of RULES.md."""
    check_n(n)
    return ReferenceSolver(**limits).mate(pos, n)


def mating_moves(pos: Position, n: int, **limits) -> list[int]:
    """The set of first moves that mate within n plies."""
    check_n(n)
    return ReferenceSolver(**limits).mating_moves(pos, n)


def minimal_mate_length(pos: Position, bound: int, **limits) -> int | None:
    """The smallest odd k <= bound with Mate(P, k), or None when there is none."""
    check_n(bound)
    solver = ReferenceSolver(**limits)
    for k in range(1, bound + 1, 2):
        if solver.mate(pos, k):
            return k
    return None
