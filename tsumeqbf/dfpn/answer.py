"""The answer a tsume-shogi reader expects, read off a finished unbounded search.

Over the proven part of the tables (every proof has a sequence number and a proven
node's children were proven earlier, so the walk is finite) each proven node gets a value
(length, pieces left in the attacker's hand at the end):

* the attacker picks the shortest mate, then the one that uses up its hand;
* the defender picks the longest defence, then the line that leaves the attacker no
  pieces in hand;
* a useless interposition (muda-ai) is not counted: an interposition away from the king
  (a piece put next to the king always counts) whose line starts
  with the attacker capturing the interposed piece and is at most two plies longer than
  the defender's best other reply (or than an immediate mate when there is none) only
  delays the same mate, so the defender is not credited with it. When every reply is such
  an interposition the check is mate, as tsume-shogi counts it.

The length is the shortest within the proofs found; ``shortest_check`` asks the bounded
solver whether a mate two plies shorter exists.

>>> from tsumeqbf.rules import Position
>>> from tsumeqbf.dfpn.game import TsumeGame
>>> from tsumeqbf.dfpn.tsume import TsumeSearch
>>> g = TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2)); s = TsumeSearch(g); _ = s.solve()
>>> [g.pos.usi(m) for m in principal_variation(s, g)]
['2c1b']
"""

from __future__ import annotations

from ..rules.moves import move_to
from .core import deep_recursion
from .game import dominance_of


class AnswerError(Exception):
    """The tables do not hold a complete proof (should not happen after a proof)."""


def principal_variation(search, game, muda: bool = True) -> list:
    """The main line of a proven root: a list of moves (the game is left unchanged).
    ``muda=False`` counts every interposition (the raw number of plies)."""
    with deep_recursion():
        memo: dict = {}
        _value(search, game, memo, muda)
        line = []
        while True:
            entry = memo.get(game.key())
            if entry is None or entry[2] is None:
                break
            line.append(entry[2])
            game.play(entry[2])
        for _ in line:
            game.undo()
        return line


def _hand_size(game) -> int:
    return sum(dominance_of(game)[1])


def _value(search, game, memo, muda=True):
    """(length, attacker's pieces left, best move or None) of the current proven node."""
    key = game.key()
    if key in memo:
        return memo[key]
    seq = search.proof_seq(dominance_of(game))
    if seq is None:
        raise AnswerError("a node of the proof is not proven in the tables")
    moves = game.moves()
    if not moves:  # AND node without a reply: mate (an OR node here has a check)
        memo[key] = (0, _hand_size(game), None)
        return memo[key]
    scored = []
    for m in moves:
        game.play(m)
        child_seq = search.proof_seq(dominance_of(game))
        if child_seq is not None and child_seq < seq:
            length, left, best = _value(search, game, memo, muda)
            scored.append((m, 1 + length, left, best))
        elif not game.is_or():
            game.undo()
            continue  # an OR node skips checks that were not part of its proof
        game.undo()
    if game.is_or():
        if not scored:
            raise AnswerError("a proven OR node has no proven check")
        m, length, left, _ = min(scored, key=lambda s: (s[1], s[2]))
        memo[key] = (length, left, m)
        return memo[key]
    if len(scored) != len(moves):
        raise AnswerError("a proven AND node has an unproven reply")
    counted = _without_useless_interpositions(game, scored) if muda else scored
    if not counted:
        memo[key] = (0, _hand_size(game), None)
    else:
        m, length, left, _ = max(counted, key=lambda s: (s[1], -s[2]))
        memo[key] = (length, left, m)
    return memo[key]


def _without_useless_interpositions(game, scored):
    is_inter = getattr(game, "is_interposition", None)
    if is_inter is None:
        return scored
    inter = [s for s in scored if is_inter(s[0])]
    if not inter:
        return scored
    others = [s for s in scored if not is_inter(s[0])]
    base = max((s[1] for s in others), default=0)
    kept = list(others)
    near_king = getattr(game, "next_to_king", lambda sq: False)
    for m, length, left, reply in inter:
        captured_at_once = reply is not None and move_to(reply) == move_to(m)
        if near_king(move_to(m)) or not (captured_at_once and length <= base + 2):
            kept.append((m, length, left, reply))
    return kept


def shortest_line(pos, bound: int, max_nodes: int | None = None, deadline: float | None = None):
    """The shortest mate counting every ply (every interposition too), by bounded df-pn:
    the smallest odd n <= bound with Mate(pos, n), then a line where the attacker keeps to
    that length and the defender takes the reply with the longest shortest mate. Returns
    the list of moves, or None when the budget ran out or no mate within ``bound``."""
    from .core import DfPn
    from .game import ShogiGame

    game = ShogiGame(pos.copy())
    search = DfPn(game, max_nodes=max_nodes, deadline=deadline)

    def mate(k):
        res = search.solve(k)
        if res.proven is None:
            raise _OutOfBudget
        return res.proven

    try:
        n = next((k for k in range(1, bound + 1, 2) if mate(k)), None)
        if n is None:
            return None
        line = []
        while True:
            moves = game.moves()
            if not moves:
                break
            if game.is_or():
                choice = None
                for m in moves:
                    game.play(m)
                    ok = n - 1 >= 0 and _and_mates(search, game, n - 1)
                    game.undo()
                    if ok:
                        choice = m
                        break
                n -= 1
            else:
                longest = -1
                for m in moves:
                    game.play(m)
                    k = next(k for k in range(1, n, 2) if mate(k))
                    game.undo()
                    if k > longest:
                        choice, longest = m, k
                n = longest
            line.append(choice)
            game.play(choice)
        return line
    except _OutOfBudget:
        return None


class _OutOfBudget(Exception):
    pass


def _and_mates(search, game, k) -> bool:
    """Mate(AND node, k): every reply mates within k - 1 (the bounded solver's root is an
    OR node, so the replies are asked one by one)."""
    moves = game.moves()
    if not moves:
        return True
    if k == 0:
        return False
    for m in moves:
        game.play(m)
        res = search.solve(k - 1)
        game.undo()
        if res.proven is None:
            raise _OutOfBudget
        if not res.proven:
            return False
    return True


def shortest_check(pos, length: int, max_nodes: int | None = None, deadline: float | None = None):
    """Whether a mate within ``length - 2`` plies exists (bounded df-pn): False means the
    length is the shortest (counting every interposition), None that the budget ran out."""
    from .core import DfPn
    from .game import ShogiGame

    if length <= 1:
        return False
    res = DfPn(ShogiGame(pos.copy()), max_nodes=max_nodes, deadline=deadline).solve(length - 2)
    return res.proven
