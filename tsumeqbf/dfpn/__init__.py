"""Depth-first proof-number search: ``DfPn(game).solve(n)`` on shogi or AND/OR graphs."""

from .core import INF, DfPn, Result, SearchAborted
from .game import GraphGame, ShogiGame

__all__ = ["INF", "DfPn", "GraphGame", "Result", "SearchAborted", "ShogiGame"]
