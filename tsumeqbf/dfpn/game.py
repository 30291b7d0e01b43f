"""The game df-pn runs on (:class:`Game`: every capability with its default), with shogi
and graph implementations.

A game has a current node and answers ``key()`` (hashable, different for OR and AND
nodes), ``is_or()``, ``moves()`` (an OR node's attacking moves, an AND node's replies),
``play(move)`` and ``undo()``; ``with game.played(move):`` plays a move for the block and
undoes it on leaving, however the block ends. The rest (dominance, reply counts, the
groups and facts behind Nagai's heuristics) has a default in :class:`Game` that a game
overrides when it can serve it.

>>> from tsumeqbf.rules import Position
>>> g = ShogiGame(Position.from_sfen("2k/3/1GP b - 1", zone=2))
>>> g.is_or(), len(g.moves())
(True, 4)
"""

from __future__ import annotations

from ..rules.moves import DROP_BASE, board_move, is_drop, is_promotion, move_from, move_to


def grouped_count(moves, group_drops: bool, drop_base: int = DROP_BASE) -> int:
    """How many of ``moves`` (integers laid out as ours: destination in bits 0-6, origin in
    bits 7-13, a drop's origin ``drop_base`` and up) there are, the drops onto one square
    counted once when ``group_drops``."""
    if not group_drops:
        return len(moves)
    # a board move stays itself, a drop becomes its square (negative: never a move)
    return len({m if (m >> 7) & 127 < drop_base else ~(m & 127) for m in moves})


class Played:
    """The context manager of :meth:`Game.played` (a class, not a generator: searches
    enter one per expanded node)."""

    __slots__ = ("game", "move")

    def __init__(self, game, move):
        self.game, self.move = game, move

    def __enter__(self):
        self.game.play(self.move)
        return self.game

    def __exit__(self, *exc) -> None:
        self.game.undo()


class Game:
    """Everything df-pn asks of a game. A game implements the first six methods; each
    of the others has a default that is right for any game, which a game overrides when
    it can do better (a heuristic it can serve, a shortcut it can take). The searches
    call these methods and ask nothing else of a game.

    >>> import networkx as nx
    >>> g = GraphGame(nx.DiGraph([("a", "b")]), "a")
    >>> g.dominance(), g.child_dominance("b"), g.drop_group("b"), g.check_directions()
    (('a', (), ()), ('b', ('b', (), ())), None, 0)
    """

    # -- what every game implements --------------------------------------------------------
    def key(self):
        """A hashable key of the current node (different for OR and AND nodes)."""
        raise NotImplementedError

    def is_or(self) -> bool:
        """Whether the current node is the attacker's."""
        raise NotImplementedError

    def moves(self) -> list:
        """An OR node's attacking moves, an AND node's replies."""
        raise NotImplementedError

    def play(self, move) -> None:
        raise NotImplementedError

    def undo(self) -> None:
        raise NotImplementedError

    def clone(self) -> "Game":
        """An independent game at the current node (for simulation)."""
        raise NotImplementedError

    def played(self, move) -> Played:
        """``with game.played(move):`` the game is at the node ``move`` leads to."""
        return Played(self, move)

    # -- dominance and shortcuts -----------------------------------------------------------
    def dominance(self) -> tuple:
        """(board key, attacker's hand, defender's hand) of the current node: a proof with
        hand H also proves the same board when the attacker holds more and the defender
        less. A game without hands gives (key, (), ())."""
        return self.key(), (), ()

    def child_dominance(self, m) -> tuple:
        """(key, dominance) of the node move ``m`` leads to; the game is left at its node
        (by default the move is played to read them)."""
        with self.played(m):
            return self.key(), self.dominance()

    def reply_count(self, group_drops: bool = True, group_interpositions: bool = False) -> int:
        """How many moves the side to move has, grouped as :meth:`drop_group` and
        :meth:`interposition_group` group them (by default there are no groups)."""
        return len(self.moves())

    def reply_count_after(self, m, group_drops: bool = True,
                          group_interpositions: bool = False) -> int:
        """:meth:`reply_count` at the node move ``m`` leads to (the game is left as it is)."""
        with self.played(m):
            return self.reply_count(group_drops, group_interpositions)

    def mate_in_1(self):
        """A move of the current OR node that leaves the defender no reply, else None.

        >>> from tsumeqbf.rules import Position
        >>> g = TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2))
        >>> g.pos.usi(g.mate_in_1())
        '2c1b'
        """
        for c in self.moves():
            if not self.reply_count_after(c, False):
                return c
        return None

    # -- reply groups and Nagai's heuristics (by default none applies) ---------------------
    def drop_group(self, m):
        """The group of drops onto one square that reply ``m`` is in (None: none)."""
        return None

    def interposition_group(self, m):
        """The group of every interposition, when reply ``m`` is one (None: it is not)."""
        return None

    def promotion_group(self, m):
        """Shared by a reply and its promoting twin (by default each move is its own)."""
        return m

    def capture_group(self, m):
        """Heuristic B: the group of captures of the checker that reply ``m`` is in."""
        return None

    def promotion_twin(self, m, moves_set):
        """Heuristic A: the promoting twin of reply ``m`` in ``moves_set`` (None: none)."""
        return None

    def check_directions(self) -> int:
        """Heuristic F: the current OR node's checks counted once per direction towards
        the defender's king (0: the game cannot tell; a check then starts at 1)."""
        return 0

    # -- the answer's useless interpositions (by default no reply is one) ------------------
    def is_interposition(self, m) -> bool:
        """A reply that puts a piece between the king and a distant checker."""
        return False

    def next_to_king(self, sq) -> bool:
        """Whether square ``sq`` touches the defender's king."""
        return False


class ShogiGame(Game):
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

    def drop_group(self, m):
        """Drops onto one square (interpositions of any kind) form one group."""
        return ("drop", move_to(m)) if is_drop(m) else None

    def interposition_group(self, m):
        """Every reply that is neither a king move nor a capture forms one group; None for
        the others. Against a check such a reply can only block the line, so this is
        :meth:`TsumeGame.is_interposition` on legal replies without its scan for checkers
        (it runs on every reply of every expanded AND node)."""
        p = self.pos
        if p.board[move_to(m)] or (not is_drop(m) and move_from(m) == p.kings[self.attacker ^ 1]):
            return None
        return "interposition"

    def reply_count(self, group_drops: bool = True, group_interpositions: bool = False) -> int:
        """How many moves the side to move has, the drops onto one square counted once
        when ``group_drops`` (as :meth:`drop_group` groups them), and every interposition
        once when ``group_interpositions`` (as :meth:`interposition_group`). A
        new check's starting proof number, counted on every check of every expanded OR
        node, so it is kept to one pass over plain integers."""
        moves = self.moves()
        if group_interpositions:
            rest = [m for m in moves if self.interposition_group(m) is None]
            return len(rest) + (len(rest) < len(moves))
        return grouped_count(moves, group_drops)

    def promotion_group(self, m):
        """A board move and its promoting twin share this (a drop or a plain move is its own)."""
        return m if is_drop(m) else ("board", move_from(m), move_to(m))

    def clone(self):
        twin = type(self).__new__(type(self))
        twin.pos, twin.attacker = self.pos.copy(), self.attacker
        return twin


class GraphGame(Game):
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

    def clone(self):
        return GraphGame(self.graph, self.path[-1])


class TsumeGame(ShogiGame):
    """ShogiGame plus what the unbounded solver and the answer printer need: hands for
    dominance, and the move facts behind Nagai's heuristics and useless interpositions."""

    def dominance(self):
        """(board key, attacker's hand, defender's hand): a proof with hand H also proves
        the same board when the attacker holds more and the defender less."""
        p = self.pos
        hands = p.hands
        a = self.attacker
        # read on every child of every expanded node: no helper calls
        return p.board_key, tuple(hands[a][1:8]), tuple(hands[a ^ 1][1:8])

    def child_dominance(self, m):
        """(key, dominance) of the node move ``m`` leads to, without playing it."""
        p = self.pos
        key, board_key, kind, change = p.key_after(m)
        hands = p.hands
        a = self.attacker
        att, dfn = hands[a][1:8], hands[a ^ 1][1:8]
        if change:
            (att if p.turn == a else dfn)[kind - 1] += change
        return key, (board_key, tuple(att), tuple(dfn))

    def reply_count_after(self, m, group_drops: bool = True,
                          group_interpositions: bool = False) -> int:
        """:meth:`reply_count` at the node move ``m`` leads to (the game is left as it is)."""
        # asked of every check of every expanded OR node: no context manager here
        self.play(m)
        try:
            return self.reply_count(group_drops, group_interpositions)
        finally:
            self.undo()

    def last_to(self) -> int:
        """Destination of the previous move (the checker's square at an AND node)."""
        return move_to(self.pos.move_stack[-1])

    def capture_group(self, m):
        """Heuristic B: a reply that captures the checking piece, grouped by the kind of
        the capturing piece (None for every other reply)."""
        p = self.pos
        if is_drop(m) or not p.move_stack or move_to(m) != self.last_to():
            return None
        return p.board[move_from(m)] & 15, is_promotion(m)

    def promotion_twin(self, m, moves_set):
        """Heuristic A: the promoting version of a non-promoting capture of the checker, when
        that version is also a legal reply (else None)."""
        if is_promotion(m) or is_drop(m) or move_to(m) != self.last_to():
            return None
        twin = board_move(move_from(m), move_to(m), promote=True)
        return twin if twin in moves_set else None

    def check_directions(self) -> int:
        """Heuristic F: the attacker's checks counted once per direction towards the
        defender's king (eight lines and two knight jumps, so at most ten)."""
        p = self.pos
        ek = p.kings[self.attacker ^ 1]
        w = p.geo.width
        kx, ky = ek % w, ek // w
        dirs = set()
        for m in self.moves():  # an OR node's moves are its checks
            t = move_to(m)
            dx, dy = t % w - kx, t // w - ky
            if abs(dx) == 1 and abs(dy) == 2:
                dirs.add((dx, dy))
            else:
                dirs.add(((dx > 0) - (dx < 0), (dy > 0) - (dy < 0)))
        return len(dirs)

    def is_interposition(self, m) -> bool:
        """A reply that puts a piece between the king and a distant checker."""
        p = self.pos
        k = p.kings[self.attacker ^ 1]
        to = move_to(m)
        if (not is_drop(m) and move_from(m) == k) or p.board[to]:
            return False
        return any(to in p.geo.between[k][s] for s in p.attackers(k, self.attacker))

    def next_to_king(self, sq: int) -> bool:
        """Whether square ``sq`` touches the defender's king."""
        p = self.pos
        k = p.kings[self.attacker ^ 1]
        w = p.geo.width
        return max(abs(sq % w - k % w), abs(sq // w - k // w)) == 1
