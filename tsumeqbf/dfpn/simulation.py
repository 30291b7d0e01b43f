"""Kawano's simulation: prove a reply by replaying a proven sibling's proof.

Before an AND node searches a reply while a sibling reply is proven, the sibling's proof
is replayed on it: at each OR node the check the old line's proof used first (the
earliest proven child), at each AND node every reply of the new line, each covered by the
same reply on the old line. When the replay reaches proven nodes on every line within its
budget, its nodes are stored as proven. Every move is checked with the rules (the new
line plays only moves its own node lists), so a success is a genuine proof.
"""

from __future__ import annotations


class Simulation:
    """The simulations of one search: its ``tables``, ``tick()`` (count a node, as the
    search counts its own) and ``budget`` (nodes per attempt)."""

    def __init__(self, tables, tick, budget: int):
        self.tables, self.tick, self.budget = tables, tick, budget
        self.tried: set = set()  # (AND node key, reply) pairs already tried
        self.counts = [0, 0]  # attempts, successes

    def try_reply(self, game, key, moves, nums, target) -> bool:
        """Replay a proven sibling's proof on reply ``target`` of ``game``'s current AND
        node (key ``key``, replies ``moves`` with numbers ``nums``); once per reply."""
        if (key, moves[target]) in self.tried:
            return False
        self.tried.add((key, moves[target]))
        source = next((j for j, n in enumerate(nums) if n[0] == 0), None)
        if source is None:
            return False
        self.counts[0] += 1
        old, new = game.clone(), game.clone()
        old.play(moves[source])
        new.play(moves[target])
        ok = self._or_node(new, old, [self.budget])
        self.counts[1] += ok
        return ok

    def _step(self, new, budget):
        """(done, dom): done is True when ``new`` is proven already, False when the budget
        is spent, None to go on."""
        dom = new.dominance()
        if self.tables.proof_seq(dom) is not None:
            return True, dom
        budget[0] -= 1
        if budget[0] < 0:
            return False, dom
        self.tick()
        return None, dom

    def _or_node(self, new, old, budget) -> bool:
        done, dom = self._step(new, budget)
        if done is not None:
            return done
        move = self._first_proven_check(old)
        if move is None or move not in new.moves():
            return False
        with old.played(move), new.played(move):
            ok = self._and_node(new, old, budget)
        if ok:
            self.tables.store_proof(new.key(), dom)
        return ok

    def _first_proven_check(self, old):
        """The first check of ``old``'s proven OR node proven before the node itself."""
        proof_seq = self.tables.proof_seq
        seq = proof_seq(old.dominance())
        if seq is None:
            return None
        for m in old.moves():
            with old.played(m):
                s = proof_seq(old.dominance())
            if s is not None and s < seq:
                return m
        return None

    def _and_node(self, new, old, budget) -> bool:
        done, dom = self._step(new, budget)
        if done is not None:
            return done
        replies = new.moves()
        covered = set(old.moves())
        if any(r not in covered for r in replies):
            return False
        for r in replies:
            with old.played(r), new.played(r):
                ok = self._or_node(new, old, budget)
            if not ok:
                return False
        self.tables.store_proof(new.key(), dom)
        return True
