"""The unbounded search's tables: proofs, disproofs, twin entries and unsolved numbers.

How they stay sound (see also :mod:`tsumeqbf.dfpn.tsume`):

* **proofs** are kept per board (with side to move) as a list of (attacker's hand,
  defender's hand, sequence number); one proves the same board wherever the attacker
  holds at least and the defender at most those hands (hand dominance). The sequence
  number orders proofs in time, so the answer walks proven children without a cycle.
* **disproofs** that use no repetition are kept the same way, the other way round;
* **twins**: disproofs that depend on a repetition, keyed by position and path key;
* **table**: the numbers of unsolved positions, with the work spent below them, the
  smallest distance from the root they were seen at, and their board and hands (for
  :meth:`TsumeTables.inherited`). When it is full the half with the least work goes.

Proof pieces (:meth:`TsumeTables.proof_pieces`, :meth:`TsumeTables.disproof_pieces`)
widen a (dis)proof to every hand pair for which the same moves still work.

>>> t = TsumeTables(limit=10, pieces=True)
>>> t.store_proof("k", ("board", (1, 0), (0, 0)))
>>> t.proof_seq(("board", (2, 0), (0, 0))), t.proof_seq(("board", (0, 0), (0, 0)))
(1, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import ge

from .core import INF, drop_least_work

_MANY = 99  # "any number" of a kind in an allowed defender's hand
_MIX = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def path_step(path_key: int, key) -> int:
    """The path key of a node's children from the node's own path key and position key
    (twin entries are keyed by it, so every search must compute it the same way)."""
    return ((path_key ^ hash(key)) * _MIX + 1) & _MASK


def _back(bound, here, there) -> list:
    """A child's hand bound in its parent's terms: the move changed the hand from
    ``here`` to ``there`` (a drop takes one away, a capture adds one)."""
    return [b - (t - h) for b, h, t in zip(bound, here, there)]


def _dominates(big: tuple, small: tuple) -> bool:
    return all(map(ge, big, small))


#: bytes an unsolved entry takes with what the tables keep beside it (measured with
#: tracemalloc: an unbounded search of zukou-001 stopped at 60,000 nodes held 27,827
#: unsolved entries and 6,883 proofs and disproofs in 9.19 MB, 330 bytes per entry);
#: the USI engine's USI_Hash (MB) is turned into a table size with it
ENTRY_BYTES = 330


@dataclass(slots=True)  # millions of these on long runs: about 330 bytes each with the tables
class Entry:
    """The numbers of an unsolved position."""

    pn: int
    dn: int
    work: int
    min_depth: int
    # the dominance triple spelt out (a tuple of three would be 64 bytes more), for
    # inherited numbers: board key, attacker's hand, defender's hand
    board: object
    att: tuple
    dfn: tuple


class TsumeTables:
    """What an unbounded search has found; ``limit`` caps the unsolved and twin entries,
    ``pieces`` widens (dis)proofs by their proof pieces."""

    def __init__(self, limit: int, pieces: bool):
        self.limit = limit
        self.pieces = pieces
        self.seq = 0  # the last proof's sequence number
        self.tt_hits = 0  # children whose numbers came from the tables
        self.table: dict = {}  # key -> Entry (unsolved numbers)
        self.proofs: dict = {}  # board key -> [(att, dfn, seq)]
        self.disproofs: dict = {}  # board key -> [(att, dfn)]
        self.twins: dict = {}  # (key, path key) -> True
        self._hands: dict = {}  # hand tuple -> the one copy the tables keep (see hand)
        # board key -> the key of the unsolved table's position with that board, or a list
        # of them in the order stored when there are more (most boards have one position,
        # and a list of one would be 72 bytes more)
        self._boards: dict = {}

    def hand(self, hand: tuple) -> tuple:
        """One shared tuple per distinct hand: the tables keep millions of hands but only
        a few thousand differ, and a tuple of seven numbers is 112 bytes."""
        return self._hands.setdefault(hand, hand)

    # -- reading -------------------------------------------------------------------------
    def proof_seq(self, dom) -> int | None:
        """Smallest sequence number of a stored proof that covers ``dom``, else None."""
        bkey, att, dfn = dom
        best = None
        for a, d, s in self.proofs.get(bkey, ()):
            if _dominates(att, a) and _dominates(d, dfn) and (best is None or s < best):
                best = s
        return best

    def is_disproven(self, dom) -> bool:
        return self.disproof_covering(dom) is not None

    def proof_covering(self, dom):
        """(attacker's hand, defender's hand) of a stored proof that covers ``dom``."""
        bkey, att, dfn = dom
        for a, d, _ in self.proofs.get(bkey, ()):
            if _dominates(att, a) and _dominates(d, dfn):
                return a, d
        return None

    def disproof_covering(self, dom):
        """(attacker's hand, defender's hand) of a stored path-independent disproof that
        covers ``dom``."""
        bkey, att, dfn = dom
        for a, d in self.disproofs.get(bkey, ()):
            if _dominates(a, att) and _dominates(dfn, d):
                return a, d
        return None

    def lookup(self, child, path_key):
        """(pn, dn, path-dependent, found) of a child (key, dominance, repetition flag,
        starting numbers) reached on the path ``path_key``; None when nothing is stored."""
        ck, dom, repeated, _ = child
        if repeated:
            return INF, 0, True, True
        # proof_seq and is_disproven spelt out: this runs for every child on every pass
        bkey, att, dfn = dom
        for a, d, _ in self.proofs.get(bkey, ()):
            if all(map(ge, att, a)) and all(map(ge, d, dfn)):
                self.tt_hits += 1
                return 0, INF, False, True
        for a, d in self.disproofs.get(bkey, ()):
            if all(map(ge, a, att)) and all(map(ge, dfn, d)):
                self.tt_hits += 1
                return INF, 0, False, True
        if (ck, path_key) in self.twins:
            self.tt_hits += 1
            return INF, 0, True, True
        e = self.table.get(ck)
        if e is not None:
            self.tt_hits += 1
            return e.pn, e.dn, False, True
        return None

    def inherited(self, dom, init, skip) -> tuple:
        """Starting numbers of a new position from the unsolved ones of the same board with
        other hands (as cshogi's DfPn starts its table entries): where the attacker holds
        at least as much and the defender at most as much, the mate is no harder, so that
        proof number is a floor for ours; where the attacker holds less and the defender
        more, that disproof number is. Only guidance: proofs and disproofs are unchanged.
        Positions in ``skip`` (the current path) are left out: a descendant starting from
        its ancestor's number feeds it back into the ancestor's sum, and on a generated
        4x4 position the numbers grew without bound that way."""
        _, att, dfn = dom
        pn, dn = init
        table = self.table
        for k in self.same_board(dom[0]):
            if k in skip:
                continue
            e = table[k]
            a, d = e.att, e.dfn
            if e.pn > pn and all(map(ge, a, att)) and all(map(ge, dfn, d)):
                pn = e.pn
            if e.dn > dn and all(map(ge, att, a)) and all(map(ge, d, dfn)):
                dn = e.dn
        return pn, dn

    def has_board(self, bkey) -> bool:
        """Whether an unsolved position with board ``bkey`` is stored."""
        return bkey in self._boards

    def same_board(self, bkey):
        """Keys of the unsolved positions with board ``bkey`` (there is one at least)."""
        same = self._boards[bkey]
        return same if type(same) is list else (same,)

    # -- storing -------------------------------------------------------------------------
    def store_proof(self, key, dom, pieces=None) -> None:
        """Store a proof of ``dom``; ``pieces`` (attacker's hand needed, defender's hand
        allowed) widens it to every hand pair between them and ``dom``'s."""
        self.seq += 1
        att, dfn = pieces if pieces is not None else dom[1:]
        self.proofs.setdefault(dom[0], []).append((self.hand(att), self.hand(dfn), self.seq))
        self._unlist(key, dom)

    def store_disproof(self, key, dom, path_key, path_dependent: bool, pieces=None) -> None:
        """Store a disproof of ``dom`` (a twin entry when it depends on the path);
        ``pieces`` (attacker's hand allowed, defender's hand needed) widens a
        path-independent one to every hand pair between them and ``dom``'s."""
        if path_dependent:
            if len(self.twins) >= self.limit:
                self.twins.clear()  # a cache of path-bound results: dropping it is sound
            self.twins[(key, path_key)] = True
        else:
            att, dfn = pieces if pieces is not None else dom[1:]
            self.disproofs.setdefault(dom[0], []).append((self.hand(att), self.hand(dfn)))
            self._unlist(key, dom)

    def store_numbers(self, key, pn, dn, work, depth, dom) -> None:
        """Keep an unsolved position's numbers, adding ``work`` to what it had."""
        e = self.table.get(key)
        if e is None:
            if len(self.table) >= self.limit:
                drop_least_work(self.table)
                self.index_boards()
            self.table[key] = Entry(pn, dn, work, depth, dom[0], self.hand(dom[1]),
                                    self.hand(dom[2]))
            self._list_board(dom[0], key)
        else:
            e.pn, e.dn, e.work = pn, dn, e.work + work
            if depth < e.min_depth:
                e.min_depth = depth

    def add_proofs(self, proofs: dict) -> int:
        """Take in the proofs of another search (``read_checkpoint(path)["proofs"]``, of a
        checkpoint written with the same hashing and the same attacker): a proof holds
        whatever the path and wherever the search started, so a position proven apart,
        such as one hard reply of a long problem, is proven here too. They are numbered
        before this search's own proofs, in their own order, so a proven node's children
        still come earlier. Only proofs: the answer read off the tables walks every
        proven reply with the rules, so it checks them, while a disproof taken in could
        not be checked. Proofs it already holds (from the same seed before a checkpoint)
        are not added again. Returns how many were added."""
        before = min((s for entries in self.proofs.values() for _, _, s in entries), default=1)
        last = max((s for entries in proofs.values() for _, _, s in entries), default=0)
        shift = before - 1 - last  # the other search's last proof comes just before ours
        hand = self.hand
        added = 0
        for bkey, entries in proofs.items():
            mine = self.proofs.setdefault(bkey, [])
            held = {(a, d) for a, d, _ in mine}
            for att, dfn, seq in entries:
                if (att, dfn) not in held:
                    mine.append((hand(att), hand(dfn), seq + shift))
                    added += 1
        return added

    # -- proof pieces --------------------------------------------------------------------
    def proof_pieces(self, dom, is_or: bool, proven_children) -> tuple | None:
        """Proof pieces of a node proven through ``proven_children`` (each a child's
        dominance triple; an OR node gives the one check it is proven by, an AND node
        every reply, none for a mate): the smallest attacker's hand and the largest
        defender's hand for which the same proof holds on this board, or None (keep the
        node's own hands).

        A move changes the hands by a fixed difference, so a child's needed attacker hand
        A_c means A_c minus that difference here (a dropped piece is needed one more, a
        captured one one less, never below zero), and its allowed defender hand likewise.
        An AND node needs the most any reply needs and allows the least any reply
        allows; the defender may not gain a kind it does not hold, since a drop of it
        could be a new reply. A mate allows any number of the kinds the defender holds
        (more of them make no new move) and none of the others."""
        if not self.pieces:
            return None
        _, att, dfn = dom
        if not is_or and not proven_children:
            return tuple(0 for _ in att), tuple(_MANY if d else 0 for d in dfn)
        need, allow = [0] * len(att), list(_MANY for _ in dfn)
        for cdom in proven_children:
            cover = self.proof_covering(cdom)
            if cover is None:
                return None
            a_c, d_c = cover
            need = [max(n, x, 0) for n, x in zip(need, _back(a_c, att, cdom[1]))]
            allow = [min(a, x) for a, x in zip(allow, _back(d_c, dfn, cdom[2]))]
        if not is_or:
            allow = [a if held else 0 for a, held in zip(allow, dfn)]
        if any(n > a for n, a in zip(need, att)) or any(a < d for a, d in zip(allow, dfn)):
            return None  # cannot happen for sound entries; keep the exact hands then
        return tuple(need), tuple(allow)

    def disproof_pieces(self, dom, is_or: bool, disproven_children) -> tuple | None:
        """Disproof pieces, the dual of :meth:`proof_pieces`: the largest attacker's hand
        and the smallest defender's hand for which the same disproof holds on this board
        (an OR node through every check, an AND node through one reply, an OR node
        without a check through none), or None (keep the node's own hands). An OR node
        allows the attacker no kind it does not hold, since a drop of it could be a new
        check; without a check at all it allows any number of the kinds it holds."""
        if not self.pieces:
            return None
        _, att, dfn = dom
        if is_or and not disproven_children:
            return tuple(_MANY if a else 0 for a in att), tuple(0 for _ in dfn)
        allow, need = list(_MANY for _ in att), [0] * len(dfn)
        for cdom in disproven_children:
            cover = self.disproof_covering(cdom)
            if cover is None:
                return None
            a_c, d_c = cover
            allow = [min(a, x) for a, x in zip(allow, _back(a_c, att, cdom[1]))]
            need = [max(n, x, 0) for n, x in zip(need, _back(d_c, dfn, cdom[2]))]
        if is_or:
            allow = [a if held else 0 for a, held in zip(allow, att)]
        if any(a < h for a, h in zip(allow, att)) or any(n > d for n, d in zip(need, dfn)):
            return None
        return tuple(allow), tuple(need)

    # -- the board index -----------------------------------------------------------------
    def _unlist(self, key, dom) -> None:
        """A solved position leaves the table of unsolved numbers."""
        if self.table.pop(key, None) is not None:
            boards, bkey = self._boards, dom[0]
            same = boards.get(bkey)
            if type(same) is list:
                if key in same:
                    same.remove(key)
                if len(same) == 1:
                    boards[bkey] = same[0]
            elif same == key:
                del boards[bkey]

    def _list_board(self, bkey, key) -> None:
        """Note that unsolved position ``key`` has board ``bkey`` (see ``_boards``)."""
        boards = self._boards
        same = boards.get(bkey)
        if same is None:
            boards[bkey] = key
        elif type(same) is list:
            same.append(key)
        else:
            boards[bkey] = [same, key]

    def index_boards(self) -> None:
        """Build the board index afresh from the unsolved table."""
        self._boards = {}
        for k, e in self.table.items():
            self._list_board(e.board, k)
