"""Depth-first proof-number search on shogi or AND/OR graphs.

* bounded: ``DfPn(game).solve(n)`` answers Mate(P, n) exactly;
* unbounded: ``TsumeSearch(game).solve()``, and ``solve_tsume(pos)`` for the answer a
  tsume-shogi reader expects (main line, length);
* ``make_game(pos, "cshogi")``: the unbounded solver's game with cshogi's move generator
  (standard 9x9 only, optional).

The rooms (df-pn never imports the encoder):

* ``game``: the game protocol (``with game.played(move):``) on shogi and on graphs;
* ``cshogi_backend``: the same game with cshogi's move generator;
* ``core``: the bounded search ``DfPn`` and the helpers both searches share;
* ``engine``: the ``dfpn`` engine for ``tsumeqbf mate`` and ``batch``;
* ``tsume``: the unbounded search ``TsumeSearch`` itself, on
* ``options``: what it is asked to do, one frozen ``TsumeOptions``;
* ``tables``: what it has found (proofs, disproofs, twins, unsolved numbers);
* ``checkpoint``: those tables in a file, to go on from;
* ``replies``: how an AND node's replies are grouped in its proof number;
* ``probes``: the mate probes before a node is first searched;
* ``simulation``: Kawano's simulation of a proven sibling's proof;
* ``report``: where a search spent its nodes;
* ``answer``: the main line and its length read off the tables;
* ``solve``: ``solve_tsume``, all of it for one problem, and ``command``: ``tsumeqbf solve``.
"""

from .core import INF, DfPn, Result, SearchAborted
from .cshogi_backend import CshogiTsumeGame, make_game
from .game import GraphGame, ShogiGame, TsumeGame
from .solve import solve_tsume
from .options import TsumeOptions
from .tsume import TsumeResult, TsumeSearch

__all__ = ["INF", "CshogiTsumeGame", "DfPn", "GraphGame", "Result", "SearchAborted",
           "ShogiGame", "TsumeGame", "TsumeOptions", "TsumeResult", "TsumeSearch", "make_game",
           "solve_tsume"]
