"""Depth-first proof-number search on shogi or AND/OR graphs.

* bounded: ``DfPn(game).solve(n)`` answers Mate(P, n) exactly;
* unbounded: ``TsumeSearch(game).solve()``, and ``solve_tsume(pos)`` for the answer a
  tsume-shogi reader expects (main line, length).
"""

from .core import INF, DfPn, Result, SearchAborted
from .game import GraphGame, ShogiGame, TsumeGame
from .solve import solve_tsume
from .tsume import TsumeResult, TsumeSearch

__all__ = ["INF", "DfPn", "GraphGame", "Result", "SearchAborted", "ShogiGame", "TsumeGame",
           "TsumeResult", "TsumeSearch", "solve_tsume"]
