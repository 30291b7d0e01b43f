"""Depth-first proof-number search (Nagai's df-pn) for the bounded question Mate(P, n).

The search runs on any ``Game`` (see ``game.py``): shogi positions or abstract AND/OR
graphs. OR nodes are the attacker's turns, AND nodes the defender's. Each node of the
bounded search is a (position, plies left) pair; a terminal AND node (no legal reply) is
proven, an AND node with plies left 0 and a legal reply is disproven, and an OR node with no
check is disproven.

With ``mobility`` (the default) a check not seen before starts with its proof number equal
to its number of replies, and a check without reply, or with a reply but no plies left, is
settled when its parent expands it rather than as a node of its own (zukou-050 at 9 plies:
48,486 nodes instead of 129,005). With ``group_drops`` (the default; games that name a
``drop_group``) an AND node counts its drops onto one square once, the largest, in that
start and in its proof-number sum, as the unbounded solver does; both only steer the search.

Results carry their depth: a proof with d plies left also proves the position with more
plies left (a mate within d is a mate within any larger bound) and a disproof with d plies
left also disproves it with fewer. Unsolved numbers are kept per (position, plies left).
Thresholds use the 1+ε trick. The table has a size limit; when it is full the entries
with the least work behind them go first (solved entries are kept longest).

>>> from tsumeqbf.dfpn.game import GraphGame
>>> import networkx as nx
>>> g = nx.DiGraph([("r", "a"), ("a", "m")]); nx.set_node_attributes(g, {"r": "or", "a": "and", "m": "or"}, "kind")
>>> DfPn(GraphGame(g, "r")).solve(1).proven
False
"""

from __future__ import annotations

import contextlib
import sys
import time
from dataclasses import dataclass, field

from ..limits import memory_exceeded

INF = 10 ** 9  # a solved node's number; thresholds of INF mean "no limit"


def capped_sum(total: int, infinite: bool) -> int:
    """A proof- or disproof-number sum: INF only when a term is INF (a solved child). A
    finite sum past the range stays at INF - 1, so it is never taken for a solved node: on
    long problems a sum over many lines can pass 10**9 (zukou-043's root disproof number
    did, after 470k nodes)."""
    return INF if infinite else min(INF - 1, total)


def count_node(search) -> None:
    """One more node for a search with ``nodes``, ``max_nodes`` and ``deadline`` (a
    time.monotonic() value, read every 256 nodes); SearchAborted past either limit, or
    past the memory limits of :func:`tsumeqbf.limits.limits` (read every 4096 nodes)."""
    search.nodes += 1
    if search.max_nodes is not None and search.nodes > search.max_nodes:
        raise SearchAborted(f"node limit {search.max_nodes} reached")
    if search.deadline is not None and search.nodes % 256 == 0 and time.monotonic() > search.deadline:
        raise SearchAborted("time limit reached")
    if search.nodes % 4096 == 0 and (reason := memory_exceeded()):
        raise SearchAborted(reason)  # the memory limits of tsumeqbf.limits in force
    if search.nodes % 1024 == 0 and getattr(search, "on_nodes", None) is not None:
        search.on_nodes()


def drop_least_work(table: dict) -> None:
    """Drop the half of a table's unsolved entries (``.work``) with the least work behind them."""
    items = sorted(table.items(), key=lambda kv: kv[1].work)
    for k, _ in items[: len(items) // 2]:
        del table[k]


@contextlib.contextmanager
def deep_recursion(limit: int = 20_000):
    """Unbounded searches and proof walks recurse once per ply: raise Python's limit."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def child_thresholds(is_or: bool, th_pn: int, th_dn: int, pn: int, dn: int, cpn: int, cdn: int,
                     second: int, epsilon: float) -> tuple[int, int]:
    """The thresholds a node gives its most promising child (numbers cpn, cdn): the 1+ε
    trick lets the child's number grow a little past the second-best sibling's ``second``."""
    grow = int(second * (1 + epsilon)) + 1 if second < INF else INF
    if is_or:
        return min(th_pn, grow), _share(th_dn, dn, cdn)
    return _share(th_pn, pn, cpn), min(th_dn, grow)


def _share(th: int, total: int, child: int) -> int:
    """A summed child's threshold: what the node's sum may still grow by. No limit (INF)
    stays no limit, so that a node whose sum is stuck at INF - 1 still searches."""
    return INF if th >= INF else min(INF - 1, th - total + child)


class SearchAborted(Exception):
    """The node or time limit was reached (or the numbers overflowed)."""


@dataclass
class Result:
    proven: bool | None  # None: unknown (limit reached)
    best_move: object = None
    nodes: int = 0
    tt_hits: int = 0
    time_s: float = 0.0
    tt_size: int = 0


@dataclass
class _Entry:
    pn: int
    dn: int
    work: int = 0


@dataclass
class DfPn:
    game: object
    max_nodes: int | None = None
    deadline: float | None = None  # time.monotonic() value
    tt_limit: int = 2_000_000
    epsilon: float = 0.25
    mobility: bool = True  # a new check starts with pn = its number of replies
    group_drops: bool = True  # an AND node counts its drops onto one square once (the largest)
    # no_mate(game): True when the game's node is known to have no mate at all (an
    # unbounded search's disproofs, see shortest.py); asked for the children of an
    # expanded node that the table holds no proof or disproof of
    no_mate: object = None
    # on_nodes(): called every 1,024 nodes (the searches after a proof report progress and
    # hear a stop through it)
    on_nodes: object = None
    nodes: int = 0
    tt_hits: int = 0
    table: dict = field(default_factory=dict)  # (key, depth) -> _Entry, unsolved numbers
    proofs: dict = field(default_factory=dict)  # key -> smallest depth proven (OR/AND kept apart by key)
    disproofs: dict = field(default_factory=dict)  # key -> largest depth disproven

    # -- the table ---------------------------------------------------------------------
    def lookup(self, key, depth: int) -> tuple[int, int]:
        return self._find(key, depth) or (1, 1)

    def _find(self, key, depth: int) -> tuple[int, int] | None:
        """The stored numbers, or None when the table holds nothing for the node."""
        p = self.proofs.get(key)
        if p is not None and p <= depth:
            self.tt_hits += 1
            return 0, INF
        d = self.disproofs.get(key)
        if d is not None and d >= depth:
            self.tt_hits += 1
            return INF, 0
        e = self.table.get((key, depth))
        if e is None:
            return None
        self.tt_hits += 1
        return e.pn, e.dn

    def store(self, key, depth: int, pn: int, dn: int, work: int) -> None:
        if pn == 0:
            if self.proofs.get(key, INF) > depth:
                self.proofs[key] = depth
            self.table.pop((key, depth), None)
        elif dn == 0:
            if self.disproofs.get(key, -1) < depth:
                self.disproofs[key] = depth
            self.table.pop((key, depth), None)
        else:
            e = self.table.get((key, depth))
            if e is None:
                if len(self.table) >= self.tt_limit:
                    drop_least_work(self.table)
                self.table[(key, depth)] = _Entry(pn, dn, work)
            else:
                e.pn, e.dn, e.work = pn, dn, e.work + work

    # -- the search --------------------------------------------------------------------
    def solve(self, n: int) -> Result:
        """Mate within ``n`` plies (odd) from the game's current OR node."""
        start = time.perf_counter()
        game = self.game
        key = game.key()
        try:
            pn, dn = self.lookup(key, n)
            while pn != 0 and dn != 0:
                pn, dn = self._mid(n, INF, INF)
        except SearchAborted:
            return Result(None, None, self.nodes, self.tt_hits,
                          time.perf_counter() - start, len(self.table))
        best = None
        if pn == 0:
            for m in game.moves():
                with game.played(m):
                    ok = self.lookup(game.key(), n - 1)[0] == 0
                if ok:
                    best = m
                    break
        return Result(pn == 0, best, self.nodes, self.tt_hits, time.perf_counter() - start,
                      len(self.table))

    def _start_check(self, key, depth: int) -> tuple[int, int]:
        """Numbers of a check not seen before (the game is at it, an AND node with
        ``depth`` plies left), from its replies: none is mate, any with no plies left is
        no mate (both stored, as the node's own search would), else pn = their number."""
        replies = self.game.reply_count(self.group_drops)
        if not replies:
            self.store(key, 0, 0, INF, 0)  # mate holds at any depth
            return 0, INF
        if depth == 0:
            self.store(key, 0, INF, 0, 0)
            return INF, 0
        return replies, 1

    def _mid(self, depth: int, th_pn: int, th_dn: int) -> tuple[int, int]:
        """Search the current node (``depth`` plies left) until a threshold is reached;
        returns its numbers. The numbers of the children are also kept locally, so the
        search moves on even when the table has dropped them (a small table)."""
        game = self.game
        count_node(self)
        key = game.key()
        is_or = game.is_or()
        moves = game.moves()
        if not moves:  # OR: no check, not mate; AND: no reply, mate
            pn, dn = (INF, 0) if is_or else (0, INF)
            self.store(key, depth, pn, dn, 1)
            return pn, dn
        if not is_or and depth == 0:  # the defender still has a move and no plies are left
            self.store(key, depth, INF, 0, 1)
            return INF, 0
        child_depth = depth - 1
        child_keys = []
        local = [(1, 1)] * len(moves)
        for i, m in enumerate(moves):
            game.play(m)
            ck = game.key()
            child_keys.append(ck)
            if (self.no_mate is not None and ck not in self.disproofs
                    and ck not in self.proofs and self.no_mate(game)):
                self.disproofs[ck] = INF  # no mate within any number of plies
            if is_or and self.mobility and self._find(ck, child_depth) is None:
                local[i] = self._start_check(ck, child_depth)
            game.undo()
        groups = ([game.drop_group(m) for m in moves] if not is_or and self.group_drops
                  else [None] * len(moves))
        nodes_before = self.nodes
        while True:
            # the node's numbers from its children; ``first`` is the most promising child
            best_i, best, second, other_sum = -1, INF + 1, INF + 1, 0
            infinite = False
            group_max: dict = {}
            for i, ck in enumerate(child_keys):
                found = self._find(ck, child_depth)
                cpn, cdn = local[i] = found or local[i]
                small, large = (cpn, cdn) if is_or else (cdn, cpn)
                g = groups[i]
                infinite = infinite or large >= INF
                if g is None:
                    other_sum += large
                else:  # a sum of maxima is 0 only when every reply is proven
                    group_max[g] = max(group_max.get(g, 0), large)
                if small < best:
                    best_i, second, best = i, best, small
                elif small < second:
                    second = small
            other_sum = capped_sum(other_sum + sum(group_max.values()), infinite)
            if is_or:
                pn, dn = best, other_sum
            else:
                pn, dn = other_sum, best
            if pn >= th_pn or dn >= th_dn or pn == 0 or dn == 0:
                self.store(key, depth, pn, dn, self.nodes - nodes_before + 1)
                return pn, dn
            self.store(key, depth, pn, dn, 0)
            cpn, cdn = local[best_i]
            c_th_pn, c_th_dn = child_thresholds(is_or, th_pn, th_dn, pn, dn, cpn, cdn, second,
                                                self.epsilon)
            with game.played(moves[best_i]):
                local[best_i] = self._mid(child_depth, c_th_pn, c_th_dn)
