"""Mate probes: before the unbounded search first expands a node, a short look ahead.

With depth 1 an AND node whose every reply mates in 1 is proven at once; with depth 3
also an OR node with a check after which every reply mates in 1. What a probe proves is
stored as df-pn would store it, children first, with its proof pieces. The positions a
probe asks for a mate in 1 are counted in ``count``, not as nodes: cshogi's DfPn
(DeepLearningShogi's dfpn.cpp) likewise tries every new OR node's mates in 3 and every
new AND node's replies' mates in 1 outside its node count, so node counts compare only
with the same probes. A child on the current path is never used (a repetition is no
proof).
"""

from __future__ import annotations


class MateProbes:
    """The probes of one search: its ``game`` and ``tables``, the set of positions on its
    current path (``on_path``, shared, not copied) and the probe ``depth`` (1 or 3)."""

    def __init__(self, game, tables, on_path: set, depth: int):
        self.game, self.tables, self.on_path = game, tables, on_path
        self.depth = depth
        self.count = 0  # positions asked for a mate in 1

    def prove_new_node(self, key, dom, is_or: bool, moves) -> bool:
        """Prove the current node (key ``key``, dominance ``dom``, ``moves`` its moves)
        when it mates within the probe's depth."""
        if not is_or:
            return self._all_replies_mate_in_1(key, dom, moves)
        if self.depth < 3:
            return False
        tables, game = self.tables, self.game
        for m in moves:
            ck, cdom = game.child_dominance(m)
            if ck in self.on_path or tables.proof_seq(cdom) is not None:
                continue
            with game.played(m):
                proven = self._all_replies_mate_in_1(ck, cdom)
            if proven:
                tables.store_proof(key, dom, tables.proof_pieces(dom, True, [cdom]))
                return True
        return False

    def _all_replies_mate_in_1(self, key, dom, moves=None) -> bool:
        """Prove the current AND node when every reply leads to a mate in 1."""
        game, tables = self.game, self.tables
        proven = []
        for m in game.moves() if moves is None else moves:
            ck, cdom = game.child_dominance(m)
            if tables.proof_seq(cdom) is None:
                if ck in self.on_path:
                    return False
                with game.played(m):
                    if not self._mate_in_1(ck, cdom):
                        return False
            proven.append(cdom)
        tables.store_proof(key, dom, tables.proof_pieces(dom, False, proven))
        return True

    def _mate_in_1(self, key, dom) -> bool:
        """Prove the current OR node when one of its checks leaves no reply."""
        self.count += 1
        game, tables = self.game, self.tables
        mate = game.mate_in_1()
        if mate is None:
            return False
        mk, mdom = game.child_dominance(mate)
        tables.store_proof(mk, mdom, tables.proof_pieces(mdom, False, []))
        tables.store_proof(key, dom, tables.proof_pieces(dom, True, [mdom]))
        return True
