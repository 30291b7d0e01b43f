"""Depth-first proof-number search on shogi or AND/OR graphs.

* bounded: ``DfPn(game).solve(n)`` answers Mate(P, n) exactly;
* unbounded: ``TsumeSearch(game).solve()``, and ``solve_tsume(pos)`` for the answer a
  tsume-shogi reader expects (main line, length);
* ``make_game(pos, "cshogi")``: the unbounded solver's game with cshogi's move generator
  (standard 9x9 only, optional).
"""

from .core import INF, DfPn, Result, SearchAborted
from .cshogi_backend import CshogiTsumeGame, make_game
from .game import GraphGame, ShogiGame, TsumeGame
from .solve import solve_tsume
from .tsume import TsumeResult, TsumeSearch

__all__ = ["INF", "CshogiTsumeGame", "DfPn", "GraphGame", "Result", "SearchAborted",
           "ShogiGame", "TsumeGame", "TsumeResult", "TsumeSearch", "make_game", "solve_tsume"]
