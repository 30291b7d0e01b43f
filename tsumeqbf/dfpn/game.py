"""The small game protocol df-pn runs on, with shogi and graph implementations.

A game has a current node and answers ``key()`` (hashable, different for OR and AND
nodes), ``is_or()``, ``moves()`` (an OR node's attacking moves, an AND node's replies),
``play(move)`` and ``undo()``.

>>> from tsumeqbf.rules import Position
>>> g = ShogiGame(Position.from_sfen("2k/3/1GP b - 1", zone=2))
>>> g.is_or(), len(g.moves())
(True, 4)
"""

from __future__ import annotations


class ShogiGame:
    """A tsume position: OR nodes are the attacker's turns (moves: legal checks), AND
    nodes the defender's (moves: every legal reply)."""

    def __init__(self, pos):
        self.pos = pos
        self.attacker = pos.turn

    def key(self):
        return self.pos.key

    def is_or(self) -> bool:
        return self.pos.turn == self.attacker

    def moves(self) -> list:
        return self.pos.checks() if self.pos.turn == self.attacker else self.pos.legal_moves()

    def play(self, m) -> None:
        self.pos.push(m)

    def undo(self) -> None:
        self.pos.pop()


class GraphGame:
    """An AND/OR graph: a networkx DiGraph whose nodes carry ``kind`` "or" or "and"; an
    OR node without successors is a failure for the attacker, an AND node without
    successors a success (the defender has no move)."""

    def __init__(self, graph, root):
        self.graph = graph
        self.path = [root]

    def key(self):
        return self.path[-1]

    def is_or(self) -> bool:
        return self.graph.nodes[self.path[-1]]["kind"] == "or"

    def moves(self) -> list:
        return sorted(self.graph.successors(self.path[-1]), key=str)

    def play(self, m) -> None:
        self.path.append(m)

    def undo(self) -> None:
        self.path.pop()
