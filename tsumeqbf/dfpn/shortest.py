"""Is there a mate shorter than the proof's line? Bounded df-pn that starts from the proof.

After the unbounded search has proven the root with a line of L plies (every ply counted),
:func:`shorter_mate` asks bounded df-pn for Mate(P, n), n = 1, 3, ... up to L - 2, on the
same game, with a table that starts from what the unbounded tables know
(:func:`seeded_dfpn`):

* a position they hold as no mate (a disproof that depends on no repetition, with its
  hand dominance) has no mate within any number of plies: a shortest mate never repeats
  a position (along it the distance to mate falls at every ply), so a bound cannot make
  a mate appear where no mate without repetition exists;
* a proven position with a distance to mate (:func:`answer.rank_proven`, every ply
  counted) mates within that many plies.

The answer is (True, line) with the shortest line when a mate within L - 2 exists
(the first n found is the shortest, since every smaller one was refuted), (False, None)
when none does (the proof's L plies are the shortest, every ply counted), and (None,
None) when the budget ran out first.

>>> from tsumeqbf.rules import Position
>>> from tsumeqbf.dfpn.game import TsumeGame
>>> from tsumeqbf.dfpn.tsume import TsumeSearch
>>> g = TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2)); s = TsumeSearch(g); _ = s.solve()
>>> found, line = shorter_mate(seeded_dfpn(s, g, None), g, 1)
>>> found, [g.pos.usi(m) for m in line]
(True, ['2c1b'])
"""

from __future__ import annotations

from .answer import AnswerError
from .core import DfPn


def seeded_dfpn(search, game, rank: dict | None, max_nodes: int | None = None,
                deadline: float | None = None) -> DfPn:
    """A bounded df-pn on ``game`` (left at its node) whose table starts from the
    unbounded ``search``'s disproofs (looked up as positions are met) and from the
    distances of ``rank`` (None: none)."""
    tables = search.tables

    def no_mate(g) -> bool:
        return tables.is_disproven(g.dominance())

    progress = search.progress  # the unbounded search's watcher hears of this one too
    bounded = DfPn(game, max_nodes=max_nodes, deadline=deadline, no_mate=no_mate,
                   group_drops=search.options.group_drops,
                   on_nodes=None if progress is None else lambda: progress(search))
    if rank:
        bounded.proofs.update(rank)
    return bounded


def shorter_mate(bounded: DfPn, game, below: int):
    """(True, line), (False, None) or (None, None): see the module's docstring. ``below``
    is the longest mate asked for (the proof's plies minus 2)."""
    n = None
    for k in range(1, below + 1, 2):
        res = bounded.solve(k)
        if res.proven is None:
            return None, None
        if res.proven:
            n = k
            break
    if n is None:
        return False, None
    line = _line(bounded, game, n)
    return True, line


def _line(bounded: DfPn, game, n: int) -> list | None:
    """A mate in exactly ``n`` plies from the current node, where no shorter one exists:
    the attacker keeps to the plies left, the defender takes the reply whose shortest
    mate is longest (None when the budget runs out on the way)."""
    line = []
    try:
        while True:
            moves = game.moves()
            if not moves:
                return line
            if game.is_or():
                # Mate(node, n) is proven, so the table holds a check proven within n - 1
                res = bounded.solve(n)
                if res.proven is None:
                    return None
                if res.best_move is None:
                    raise AnswerError(f"no check proven within {n - 1} plies below a proven node")
                choice = res.best_move
                n -= 1
            else:
                choice, longest = None, -1
                for m in moves:
                    with game.played(m):
                        k = _shortest_within(bounded, n - 1)
                    if k is None:
                        return None
                    if k > longest:
                        choice, longest = m, k
                n = longest
            line.append(choice)
            game.play(choice)
    finally:
        for _ in line:
            game.undo()


def _shortest_within(bounded: DfPn, most: int) -> int | None:
    """The smallest odd k <= ``most`` with a mate in k from the current node (proven to
    exist), None when the budget runs out."""
    for k in range(1, most + 1, 2):
        res = bounded.solve(k)
        if res.proven is None:
            return None
        if res.proven:
            return k
    raise AnswerError(f"no mate within {most} plies below a node proven to mate within it")

