"""Unbounded df-pn for real tsume problems: no depth bound, repetition a failure for the
attacker, and the GHI problem handled.

How the tables stay sound:

* **Proofs** are kept per board (with side to move) as a list of (attacker's hand,
  defender's hand, sequence number). A proof with hands (A, D) proves the same board when
  the attacker holds at least A and the defender at most D (hand dominance): every move of
  the proof stays legal and the defender has no new reply. A proof never relies on a
  repetition, so it holds whatever the path (the attacker can always replay the finite
  proof tree from the first occurrence of a position). The sequence number orders proofs
  in time, so the answer printer can walk proven children without going round a cycle.
* **Disproofs** that use no repetition are kept the same way (attacker at most A, defender
  at least D). A disproof that depends on a repetition (the GHI problem: Kishimoto and
  Müller) is a *twin* entry keyed by the position and the exact path that led to it, so a
  position that mates by another path is never marked unprovable. A disproof depends on
  the path when an OR node has a path-dependent child, or when every disproven child of an
  AND node is path-dependent.
* **Numbers** of unsolved nodes are only guidance; they are stored per position with the
  work spent and the smallest distance from the root at which the node was seen. A child
  first seen nearer the root than the current node's child depth is reached by another,
  shorter path (a DAG merge, Kishimoto's source-node idea): its number is then counted
  once with ``max`` rather than added again (double-count correction, ``dag=True``).

Nagai's heuristics, each switchable by letter (``heuristics="ABCDEF"``):

A  at an AND node a non-promoting capture of the checker is left out of the proof-number
   sum while the promoting capture is still unproven;
B  captures of the checker by the same kind of piece are counted once (the largest);
C  a table "this move answers that move" keyed on the previous move breaks ties;
D  a move played from an earlier position with the same board on the current line is
   preferred among equals;
E  among equals the child with the smaller subtree (work) is preferred;
F  a new OR node starts with its disproof number equal to the number of directions it
   can check from (ten at most).

``simulation=True`` adds Kawano's simulation: before an AND node searches a reply while a
sibling reply is proven, it replays the sibling's proof (the same attacker moves, every
reply of the new line covered by a proven reply of the old one); when the replay reaches
mate on every line, its nodes are stored as proven. The replay checks every move with the
rules, so a success is a genuine proof.

Independently of the letters, ``mobility=True`` (the default) starts a new AND node with
its proof number equal to its number of replies, and proves a check without reply at once.
``group_drops=True`` (the default, ours) counts an AND node's drops onto one square, the
interpositions of every kind the defender holds, once (the largest proof number), in its
proof-number sum and in that starting number: after the attacker's answer they tend to
lead to the same few positions, and seven kinds times every square between would otherwise
make any distant check look hopeless. Like B it changes only which node is searched next,
never what counts as proven (a sum of maxima is 0 only when every child is proven).
``group_interpositions=True`` goes further: every interposition, on any square and by a
drop or a board move, is counted once (the largest). A distant check then costs what a
near one does, as most interpositions are simply captured; on zukou-008 after 12 plies the
distant bishop sacrifice B*8g was otherwise never searched enough to be proven.

``mate_probe`` (off by default) looks a few plies ahead before a node is first searched,
as cshogi's DfPn does: 1 proves an AND node whose every reply mates in 1, 3 also an OR node
that mates in 3. What it proves is stored like any proof; the positions it asks for a mate
in 1 are counted in ``probes``, not in ``nodes``.

>>> from tsumeqbf.rules import Position
>>> from tsumeqbf.dfpn.game import TsumeGame
>>> TsumeSearch(TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2))).solve().proven
True
"""

from __future__ import annotations

import os
import pickle
import time
from dataclasses import dataclass, field
from operator import ge

from .core import (INF, SearchAborted, capped_sum, child_thresholds, count_node,
                   deep_recursion, drop_least_work)
from ..rules.moves import is_drop, move_from, move_to
from .game import dominance_of

HEURISTICS = "ABCDEF"
CHECKPOINT_FORMAT = "tsumeqbf-tables-1"  # bump when what save_tables writes changes
_MIX = 0x9E3779B97F4A7C15
_MANY = 99  # "any number" of a kind in an allowed defender's hand
_MASK = (1 << 64) - 1


def read_checkpoint(path) -> dict:
    """What :meth:`TsumeSearch.save_tables` wrote to ``path`` (load only files you wrote:
    a pickle can run code); TsumeError when it cannot be read or is of another version."""
    from ..rules import TsumeError
    try:
        with open(path, "rb") as fh:
            state = pickle.load(fh)
    except OSError as exc:
        raise TsumeError(f"cannot read checkpoint {path}: {exc.strerror or exc}") from None
    except Exception as exc:  # a truncated or foreign file: unpickling fails many ways
        raise TsumeError(f"checkpoint {path} is not readable ({type(exc).__name__})") from None
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        raise TsumeError(f"{path} is not a checkpoint of this version ({CHECKPOINT_FORMAT})")
    return state


def check_heuristics(letters: str) -> str:
    letters = letters.upper()
    bad = sorted(set(letters) - set(HEURISTICS))
    if bad:
        from ..rules import TsumeError
        raise TsumeError(f"unknown heuristic(s) {''.join(bad)}; choose from {HEURISTICS}")
    return "".join(sorted(set(letters)))


def _back(bound, here, there) -> list:
    """A child's hand bound in its parent's terms: the move changed the hand from
    ``here`` to ``there`` (a drop takes one away, a capture adds one)."""
    return [b - (t - h) for b, h, t in zip(bound, here, there)]


def _path_step(path_key: int, key) -> int:
    """The path key of a node's children from the node's own path key and position key
    (twin entries are keyed by it, so every search must compute it the same way)."""
    return ((path_key ^ hash(key)) * _MIX + 1) & _MASK


def _promotion_group(m):
    """A board move and its promoting twin share this (a drop or a plain move is its own)."""
    return m if is_drop(m) else ("board", move_from(m), move_to(m))


def _promotion_pairs(moves, groups) -> list:
    """``groups`` with each reply made with and without promotion (both legal) put in one
    group, unless it is in a group already: the defender's choice to promote seldom
    changes the attacker's answer, so the pair counts once in the proof-number sum."""
    keys = [_promotion_group(m) for m in moves]
    seen, paired = set(), set()
    for k in keys:
        (paired if k in seen else seen).add(k)
    return [g if g is not None or k not in paired else k for k, g in zip(keys, groups)]


def _dominates(big: tuple, small: tuple) -> bool:
    return all(map(ge, big, small))


@dataclass
class TsumeResult:
    proven: bool | None  # None: node or time limit reached
    nodes: int = 0
    time_s: float = 0.0
    tt_size: int = 0
    proofs: int = 0
    disproofs: int = 0
    twins: int = 0
    reason: str = ""
    tt_hits: int = 0  # children whose numbers came from the tables


@dataclass(slots=True)  # millions of these on long runs: about 330 bytes each with the tables
class _Entry:
    pn: int
    dn: int
    work: int
    min_depth: int
    # the dominance triple spelt out (a tuple of three would be 64 bytes more), for
    # inherited numbers: board key, attacker's hand, defender's hand
    board: object
    att: tuple
    dfn: tuple


@dataclass
class TsumeSearch:
    game: object
    max_nodes: int | None = None
    deadline: float | None = None  # time.monotonic() value
    heuristics: str = ""
    dag: bool = True
    mobility: bool = True  # a new AND node starts with pn = its number of replies
    simulation: bool = False  # Kawano's simulation of a proven sibling's proof
    simulation_budget: int = 2_000  # nodes per simulation attempt
    proof_pieces: bool = True  # store (dis)proofs with the hands they need (proof pieces)
    group_drops: bool = True  # an AND node counts its drops onto one square once (the largest)
    group_interpositions: bool = False  # ... and every interposition of any square once
    group_promotions: bool = False  # ... and a reply with and without promotion once
    inherit: bool = True  # a new position starts from the numbers of the same board with
    # other hands (see _inherited)
    mate_probe: int = 0  # probes when a node is first searched: 1, an AND node whose every
    # reply mates in 1 is proven at once; 3, an OR node with a check whose every reply
    # mates in 1 too
    tt_limit: int = 1_000_000
    epsilon: float = 0.25
    progress: object = None  # callable(search) called every progress_every nodes
    progress_every: int = 100_000
    nodes: int = 0
    seq: int = 0
    table: dict = field(default_factory=dict)  # key -> _Entry (unsolved numbers)
    proofs: dict = field(default_factory=dict)  # board key -> [(att, dfn, seq)]
    disproofs: dict = field(default_factory=dict)  # board key -> [(att, dfn)]
    twins: dict = field(default_factory=dict)  # (key, path key) -> True
    answers: dict = field(default_factory=dict)  # heuristic C: previous move -> move
    root_numbers: tuple = (1, 1)

    def __post_init__(self):
        self.heuristics = check_heuristics(self.heuristics)
        if self.mate_probe not in (0, 1, 3):
            raise ValueError(f"mate_probe must be 0, 1 or 3, not {self.mate_probe!r}")
        game = self.game
        self._dom = getattr(game, "dominance", None) or (lambda: dominance_of(game))
        self._on_path: set = set()
        self._hands: dict = {}  # hand tuple -> the one copy the tables keep (see _hand)
        # board key -> the key of the unsolved table's position with that board, or a list
        # of them in the order stored when there are more (most boards have one position,
        # and a list of one would be 72 bytes more)
        self._boards: dict = {}
        self._line: list = []  # (board key, move played) along the current line, heuristic D
        self._simulated: set = set()  # (AND node key, reply) pairs already tried
        self.simulations = [0, 0]  # attempts, successes
        self.tt_hits = 0
        self.probes = 0  # positions the mate probes asked for a mate in 1 (not nodes)

    # -- the tables ----------------------------------------------------------------------
    def _hand(self, hand: tuple) -> tuple:
        """One shared tuple per distinct hand: the tables keep millions of hands but only
        a few thousand differ, and a tuple of seven numbers is 112 bytes."""
        return self._hands.setdefault(hand, hand)

    def proof_seq(self, dom) -> int | None:
        """Smallest sequence number of a stored proof that covers ``dom``, else None."""
        bkey, att, dfn = dom
        best = None
        for a, d, s in self.proofs.get(bkey, ()):
            if _dominates(att, a) and _dominates(d, dfn) and (best is None or s < best):
                best = s
        return best

    def is_disproven(self, dom) -> bool:
        return self._disproof_covering(dom) is not None

    def _store_proof(self, key, dom, pieces=None) -> None:
        """Store a proof of ``dom``; ``pieces`` (attacker's hand needed, defender's hand
        allowed) widens it to every hand pair between them and ``dom``'s."""
        self.seq += 1
        att, dfn = pieces if pieces is not None else dom[1:]
        self.proofs.setdefault(dom[0], []).append((self._hand(att), self._hand(dfn), self.seq))
        self._unlist(key, dom)

    def _covering(self, dom):
        """(attacker's hand, defender's hand) of a stored proof that covers ``dom``."""
        bkey, att, dfn = dom
        for a, d, _ in self.proofs.get(bkey, ()):
            if _dominates(att, a) and _dominates(d, dfn):
                return a, d
        return None

    def _proof_pieces(self, dom, is_or: bool, proven_children) -> tuple | None:
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
        if not self.proof_pieces:
            return None
        _, att, dfn = dom
        if not is_or and not proven_children:
            return tuple(0 for _ in att), tuple(_MANY if d else 0 for d in dfn)
        need, allow = [0] * len(att), list(_MANY for _ in dfn)
        for cdom in proven_children:
            cover = self._covering(cdom)
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

    def _store_disproof(self, key, dom, path_key, path_dependent: bool, pieces=None) -> None:
        """Store a disproof of ``dom`` (a twin entry when it depends on the path);
        ``pieces`` (attacker's hand allowed, defender's hand needed) widens a
        path-independent one to every hand pair between them and ``dom``'s."""
        if path_dependent:
            if len(self.twins) >= self.tt_limit:
                self.twins.clear()  # a cache of path-bound results: dropping it is sound
            self.twins[(key, path_key)] = True
        else:
            att, dfn = pieces if pieces is not None else dom[1:]
            self.disproofs.setdefault(dom[0], []).append((self._hand(att), self._hand(dfn)))
            self._unlist(key, dom)

    def _disproof_pieces(self, dom, is_or: bool, disproven_children) -> tuple | None:
        """Disproof pieces, the dual of :meth:`_proof_pieces`: the largest attacker's hand
        and the smallest defender's hand for which the same disproof holds on this board
        (an OR node through every check, an AND node through one reply, an OR node
        without a check through none), or None (keep the node's own hands). An OR node
        allows the attacker no kind it does not hold, since a drop of it could be a new
        check; without a check at all it allows any number of the kinds it holds."""
        if not self.proof_pieces:
            return None
        _, att, dfn = dom
        if is_or and not disproven_children:
            return tuple(_MANY if a else 0 for a in att), tuple(0 for _ in dfn)
        allow, need = list(_MANY for _ in att), [0] * len(dfn)
        for cdom in disproven_children:
            cover = self._disproof_covering(cdom)
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

    def _disproof_covering(self, dom):
        """(attacker's hand, defender's hand) of a stored path-independent disproof that
        covers ``dom``."""
        bkey, att, dfn = dom
        for a, d in self.disproofs.get(bkey, ()):
            if _dominates(a, att) and _dominates(dfn, d):
                return a, d
        return None

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

    def _index_boards(self) -> None:
        """Build ``_boards`` afresh from the unsolved table."""
        self._boards = {}
        for k, e in self.table.items():
            self._list_board(e.board, k)

    def _same_board(self, bkey):
        """Keys of the unsolved positions with board ``bkey`` (there is one at least)."""
        same = self._boards[bkey]
        return same if type(same) is list else (same,)

    def _store_numbers(self, key, pn, dn, work, depth, dom) -> None:
        e = self.table.get(key)
        if e is None:
            if len(self.table) >= self.tt_limit:
                drop_least_work(self.table)
                self._index_boards()
            self.table[key] = e = _Entry(pn, dn, work, depth, dom[0], self._hand(dom[1]),
                                         self._hand(dom[2]))
            self._list_board(dom[0], key)
        else:
            e.pn, e.dn, e.work = pn, dn, e.work + work
            if depth < e.min_depth:
                e.min_depth = depth

    # -- checkpoints ---------------------------------------------------------------------
    def save_tables(self, path, identity: dict) -> None:
        """Write what the search has found to ``path`` (a pickle) for a later run to go on
        from: proofs, disproofs, twin entries, the unsolved numbers, heuristic C's table
        and the node count, with ``identity`` (what the caller needs to match, such as the
        problem's SFEN). The file is written beside and renamed over ``path``, so an old
        checkpoint is never left half overwritten. Safe at any point of a search: the line
        being searched is not part of it, and every stored result holds whatever the path."""
        state = {"format": CHECKPOINT_FORMAT, "identity": identity, "nodes": self.nodes,
                 "seq": self.seq, "proofs": self.proofs, "disproofs": self.disproofs,
                 "twins": self.twins, "answers": self.answers, "tt_hits": self.tt_hits,
                 "probes": self.probes,
                 # rows, not objects: pickling millions of objects is seven times slower
                 "table": [(k, e.pn, e.dn, e.work, e.min_depth, e.board, e.att, e.dfn)
                           for k, e in self.table.items()]}
        tmp = f"{path}.tmp"
        with open(tmp, "wb") as fh:
            pickle.dump(state, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)

    def load_tables(self, path, identity: dict) -> None:
        """Go on from a checkpoint :meth:`save_tables` wrote (load only files you wrote:
        a pickle can run code). TsumeError when it cannot be read or was written for
        another ``identity``; the node count goes on from the checkpoint's."""
        from ..rules import TsumeError
        state = read_checkpoint(path)
        if state["identity"] != identity:
            theirs = ", ".join(f"{k} {v}" for k, v in state["identity"].items())
            raise TsumeError(f"checkpoint {path} is of another problem or options ({theirs})")
        for name in ("nodes", "seq", "proofs", "disproofs", "twins", "answers", "tt_hits",
                     "probes"):
            setattr(self, name, state[name])
        hand = self._hand
        self.table = {k: _Entry(pn, dn, work, depth, board, hand(att), hand(dfn))
                      for k, pn, dn, work, depth, board, att, dfn in state["table"]}
        self._index_boards()

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
        hand = self._hand
        added = 0
        for bkey, entries in proofs.items():
            mine = self.proofs.setdefault(bkey, [])
            held = {(a, d) for a, d, _ in mine}
            for att, dfn, seq in entries:
                if (att, dfn) not in held:
                    mine.append((hand(att), hand(dfn), seq + shift))
                    added += 1
        return added

    # -- the search ----------------------------------------------------------------------
    def solve(self) -> TsumeResult:
        """Prove or disprove the game's current OR node without a depth bound."""
        start = time.perf_counter()
        reason = ""
        try:
            with deep_recursion():
                proven = self._solve_root()
        except SearchAborted as exc:
            proven, reason = None, str(exc)
        return TsumeResult(proven, self.nodes, time.perf_counter() - start, len(self.table),
                           sum(map(len, self.proofs.values())),
                           sum(map(len, self.disproofs.values())), len(self.twins), reason,
                           self.tt_hits)

    def root_status(self) -> tuple[int, int]:
        """The root's current (pn, dn), for progress lines."""
        return self.root_numbers

    def current_line(self) -> list:
        """The moves from the root to the node being searched: df-pn's most-proving line
        at this moment (read from a progress callback; empty between searches)."""
        return [m for _, m in self._line if m is not None]

    def children_numbers(self, path_key: int = 0) -> list[tuple]:
        """(move, pn, dn, work) of each child of the game's current node, read from the
        tables without searching: where a search spent its nodes. A solved child shows
        0 or INF; ``work`` is the nodes spent below a child still unsolved (0 once it is
        solved, or if it was never searched or was dropped from the table). ``path_key``
        is the node's own, as the search gave it (0 at the root; twin entries are looked
        up by it). The tables are left as they were."""
        game = self.game
        moves, hits = game.moves(), self.tt_hits
        own_path = _path_step(path_key, game.key())  # as the search keys the children
        rows = []
        for m, child in zip(moves, self._children(moves, game.is_or(), store=False)):
            found = self._numbers(child, own_path)
            pn, dn = found[:2] if found is not None else child[3]
            entry = self.table.get(child[0])
            rows.append((m, pn, dn, entry.work if entry is not None else 0))
        self.tt_hits = hits  # a report, not part of the search
        return rows

    def busiest_line(self, max_plies: int = 60) -> list[tuple]:
        """The line a search cut short was stuck in: from the game's current node (the
        root), the child with the most work below it, then its busiest child, and so on,
        read from the tables like :meth:`children_numbers`. Each step is (move, pn, dn,
        work, share), share being the move's part of its siblings' work. It stops at a
        node whose children have no work recorded, at a repetition or after
        ``max_plies``; the game is left at the node it started from.

        >>> from tsumeqbf.rules import Position
        >>> from tsumeqbf.dfpn.game import TsumeGame
        >>> TsumeSearch(TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2))).busiest_line()
        []
        """
        game = self.game
        line, seen, path_key = [], {game.key()}, 0
        try:
            while len(line) < max_plies:
                rows = self.children_numbers(path_key)
                total = sum(r[3] for r in rows)
                if not total:
                    break
                move, pn, dn, work = max(rows, key=lambda r: r[3])
                path_key = _path_step(path_key, game.key())
                game.play(move)
                line.append((move, pn, dn, work, work / total))
                if game.key() in seen:
                    break
                seen.add(game.key())
        finally:
            for _ in line:
                game.undo()
        return line

    def _solve_root(self) -> bool:
        return self._settle(0, 0, root=True)

    def _settle(self, depth: int, path_key: int, root: bool = False) -> bool:
        """Search the current node with infinite thresholds until it is proven or
        disproven (a repetition of a position on the path is a failure)."""
        key, dom = self.game.key(), self._dom()
        while True:
            if self.proof_seq(dom) is not None:
                return True
            if self.is_disproven(dom) or (key, path_key) in self.twins or key in self._on_path:
                return False
            pn, dn, _ = self._mid(depth, path_key, INF, INF)
            if root:
                self.root_numbers = (pn, dn)
            if pn == 0 or dn == 0:
                return pn == 0
            # with no thresholds only a solved node returns (a sum past the range stays
            # at INF - 1, see capped_sum); anything else would loop here for ever
            raise SearchAborted(f"search returned unsolved (pn {pn}, dn {dn})")

    def solve_below(self, line: list, budget: int) -> bool | None:
        """Prove or disprove the node reached by playing ``line`` from the current node
        (the root), with at most ``budget`` more nodes; None when they run out. The
        results go to the same tables: the positions of ``line`` count as the path (a
        repetition of one is a failure) and path-dependent disproofs get the path keys
        the search from the root would give them."""
        game = self.game
        path_key, played = 0, 0
        saved_limit = self.max_nodes
        limit = self.nodes + budget
        self.max_nodes = limit if saved_limit is None else min(saved_limit, limit)
        try:
            for m in line:
                key = game.key()
                path_key = _path_step(path_key, key)
                self._on_path.add(key)
                self._line.append((self._dom()[0], m))
                game.play(m)
                played += 1
            with deep_recursion():
                return self._settle(len(line), path_key)
        except SearchAborted:
            return None
        finally:
            for _ in range(played):
                game.undo()
                self._on_path.discard(game.key())
                self._line.pop()
            self.max_nodes = saved_limit

    def _tick(self) -> None:
        count_node(self)
        if self.progress is not None and self.nodes % self.progress_every == 0:
            self.progress(self)

    def _children(self, moves, is_or: bool, store: bool = True):
        """Per move: key, dominance triple, repetition flag, initial numbers. A check
        without reply is stored as proven, unless ``store`` is False (a report)."""
        game = self.game
        on_path = self._on_path
        table = self.table
        use_f = "F" in self.heuristics and not is_or and hasattr(game, "check_directions")
        # games that can tell a child's key without playing the move save two makes and
        # unmakes per child (most children are never searched)
        peek = None if use_f else getattr(game, "child_dominance", None)
        out = []
        for m in moves:
            if peek is None:
                game.play(m)
                ck, dom = game.key(), self._dom()
            else:
                ck, dom = peek(m)
            repeated = ck in on_path
            init = (1, 1)
            fresh = not repeated and ck not in table
            if fresh and use_f:
                init = (1, game.check_directions() or 1)
            elif fresh and is_or and self.mobility and self.proof_seq(dom) is None:
                # a check starts with as many proof-number units as it has replies; a
                # check without reply is mate and proven at once
                replies = self._replies_here() if peek is None else self._replies_after(m)
                if replies:
                    init = (replies, 1)
                elif store:
                    self._store_proof(ck, dom, self._proof_pieces(dom, False, []))
                else:
                    init = (0, INF)
            # inherited numbers are floors for unsolved positions, not for a mate the
            # report found without storing it
            if fresh and self.inherit and init[0] and dom[0] in self._boards:
                init = self._inherited(dom, init)
            out.append((ck, dom, repeated, init))
            if peek is None:
                game.undo()
        return out

    def _inherited(self, dom, init) -> tuple:
        """Starting numbers of a new position from the unsolved ones of the same board with
        other hands (as cshogi's DfPn starts its table entries): where the attacker holds
        at least as much and the defender at most as much, the mate is no harder, so that
        proof number is a floor for ours; where the attacker holds less and the defender
        more, that disproof number is. Only guidance: proofs and disproofs are unchanged.
        Positions on the current path are left out: a descendant starting from its
        ancestor's number feeds it back into the ancestor's sum, and on a generated 4x4
        position the numbers grew without bound that way."""
        _, att, dfn = dom
        pn, dn = init
        on_path = self._on_path
        table = self.table
        for k in self._same_board(dom[0]):
            if k in on_path:
                continue
            e = table[k]
            a, d = e.att, e.dfn
            if e.pn > pn and all(map(ge, a, att)) and all(map(ge, dfn, d)):
                pn = e.pn
            if e.dn > dn and all(map(ge, att, a)) and all(map(ge, d, dfn)):
                dn = e.dn
        return pn, dn

    # -- mate probes ---------------------------------------------------------------------
    def _probe(self, key, dom, is_or, moves) -> bool:
        """Before a new node is searched: prove it when it mates within a few plies
        (``mate_probe``), storing each proof as df-pn would, children first. The probe's
        positions count in ``probes``, not ``nodes``: cshogi's DfPn (DeepLearningShogi's
        dfpn.cpp) likewise tries every new OR node's mates in 3 and every new AND node's
        replies' mates in 1 outside its node count, so node counts compare only with the
        same probes. A child on the current path is never used (a repetition is no proof)."""
        if is_or:
            if self.mate_probe < 3:
                return False
            for m in moves:
                ck, cdom = self._peek(m)
                if (ck not in self._on_path and self.proof_seq(cdom) is None
                        and self._played(m, self._probe_all_replies_mate_in_1, ck, cdom)):
                    self._store_proof(key, dom, self._proof_pieces(dom, True, [cdom]))
                    return True
            return False
        return self._probe_all_replies_mate_in_1(key, dom, moves)

    def _probe_all_replies_mate_in_1(self, key, dom, moves=None) -> bool:
        """Prove the current AND node when every reply leads to a mate in 1."""
        proven = []
        for m in self.game.moves() if moves is None else moves:
            ck, cdom = self._peek(m)
            if self.proof_seq(cdom) is None and (
                    ck in self._on_path or not self._played(m, self._probe_mate_in_1, ck, cdom)):
                return False
            proven.append(cdom)
        self._store_proof(key, dom, self._proof_pieces(dom, False, proven))
        return True

    def _probe_mate_in_1(self, key, dom) -> bool:
        """Prove the current OR node when one of its checks leaves no reply."""
        self.probes += 1
        game = self.game
        find = getattr(game, "mate_in_1", None)
        if find is not None:
            mate = find()
        else:
            mate = next((c for c in game.moves() if not self._replies_after(c)), None)
        if mate is None:
            return False
        mk, mdom = self._peek(mate)
        self._store_proof(mk, mdom, self._proof_pieces(mdom, False, []))
        self._store_proof(key, dom, self._proof_pieces(dom, True, [mdom]))
        return True

    def _peek(self, m):
        """(key, dominance triple) of the current node's child through move ``m``."""
        game = self.game
        peek = getattr(game, "child_dominance", None)
        if peek is not None:
            return peek(m)
        game.play(m)
        try:
            return game.key(), self._dom()
        finally:
            game.undo()

    def _played(self, m, probe, key, dom) -> bool:
        """``probe(key, dom)`` run on the child through move ``m``."""
        self.game.play(m)
        try:
            return probe(key, dom)
        finally:
            self.game.undo()

    def _replies_after(self, m) -> int:
        """The starting proof number of check ``m`` of the current node (see
        :meth:`_replies_here`), without keeping the move played."""
        game = self.game
        if not self.group_promotions and hasattr(game, "reply_count_after"):
            return game.reply_count_after(m, self.group_drops, self.group_interpositions)
        game.play(m)
        try:
            return self._replies_here()
        finally:
            game.undo()

    def _replies_here(self) -> int:
        """The current AND node's replies, grouped as :meth:`_aggregate` groups them."""
        game = self.game
        drop_group = getattr(game, "drop_group", None)
        if drop_group is not None and not self.group_promotions:
            return game.reply_count(self.group_drops, self.group_interpositions)
        replies = game.moves()
        interposition = self.group_interpositions and getattr(game, "interposition_group", None)
        if replies and drop_group and (self.group_drops or self.group_promotions or interposition):
            replies = {(interposition and interposition(r))
                       or (self.group_drops and drop_group(r))
                       or (_promotion_group(r) if self.group_promotions else r)
                       for r in replies}
        return len(replies)

    def _numbers(self, child, path_key):
        """(pn, dn, path-dependent, found) of a child from the tables."""
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

    def _mid(self, depth: int, path_key: int, th_pn: int, th_dn: int) -> tuple[int, int, bool]:
        """Search the current node until a threshold is reached; returns (pn, dn,
        path-dependent disproof)."""
        game = self.game
        self._tick()
        key, dom = game.key(), self._dom()
        is_or = game.is_or()
        moves = game.moves()
        if not moves:  # OR: no check, not mate; AND: no reply, mate
            if is_or:
                self._store_disproof(key, dom, path_key, False, self._disproof_pieces(dom, True, []))
                return INF, 0, False
            self._store_proof(key, dom, self._proof_pieces(dom, False, []))
            return 0, INF, False
        if self.mate_probe and key not in self.table and self._probe(key, dom, is_or, moves):
            return 0, INF, False
        h = self.heuristics
        own_path = _path_step(path_key, key)
        children = self._children(moves, is_or)
        n = len(moves)
        local: list = [(c[3][0], c[3][1], False) for c in children]
        groups = [None] * n
        twins_of = [None] * n
        if not is_or:
            if "B" in h and hasattr(game, "capture_group"):
                groups = [game.capture_group(m) for m in moves]
            if self.group_interpositions and hasattr(game, "interposition_group"):
                # every drop is an interposition: this grouping takes in the one below
                groups = [game.interposition_group(m) or g for m, g in zip(moves, groups)]
            elif self.group_drops and hasattr(game, "drop_group"):
                groups = [game.drop_group(m) or g for m, g in zip(moves, groups)]
            if self.group_promotions and hasattr(game, "drop_group"):
                groups = _promotion_pairs(moves, groups)
            if "A" in h and hasattr(game, "promotion_twin"):
                index = {m: i for i, m in enumerate(moves)}
                twins_of = [index.get(game.promotion_twin(m, index)) for m in moves]
        prev_move = self._line[-1][1] if self._line else None
        preferred = set()
        if "C" in h and prev_move is not None and prev_move in self.answers:
            preferred.add(self.answers[prev_move])
        if "D" in h:
            bkey = dom[0]
            preferred.update(mv for b, mv in self._line if b == bkey)
        child_depth = depth + 1
        self._on_path.add(key)
        self._line.append((dom[0], None))
        nodes_before = self.nodes
        try:
            while True:
                nums = []
                for i, c in enumerate(children):
                    found = self._numbers(c, own_path)
                    if found is not None:
                        local[i] = found[:3]
                    nums.append(local[i])
                pn, dn, dep, best_i, second = self._aggregate(is_or, nums, children, groups, twins_of,
                                                             child_depth, moves, preferred)
                if pn == 0 or dn == 0 or pn >= th_pn or dn >= th_dn:
                    work = self.nodes - nodes_before + 1
                    if pn == 0:
                        proven = [children[best_i][1]] if is_or else [c[1] for c in children]
                        self._store_proof(key, dom, self._proof_pieces(dom, is_or, proven))
                        if "C" in h and prev_move is not None and is_or:
                            self.answers[prev_move] = moves[best_i]
                    elif dn == 0:
                        pieces = None
                        if not dep:
                            # an AND node through one reply disproven whatever the path
                            used = ([c[1] for c in children] if is_or else
                                    [c[1] for c, n in zip(children, nums) if n[1] == 0 and not n[2]][:1])
                            pieces = self._disproof_pieces(dom, is_or, used) if used else None
                        self._store_disproof(key, dom, path_key, dep, pieces)
                        if "C" in h and prev_move is not None and not is_or:
                            self.answers[prev_move] = moves[best_i]
                    else:
                        self._store_numbers(key, pn, dn, work, depth, dom)
                    return pn, dn, dep
                self._store_numbers(key, pn, dn, 0, depth, dom)
                if depth == 0:
                    # the table may drop the root's entry (work is counted on return, and the
                    # root returns last): the progress line reads these instead
                    self.root_numbers = (pn, dn)
                cpn, cdn, _ = nums[best_i]
                c_th_pn, c_th_dn = child_thresholds(is_or, th_pn, th_dn, pn, dn, cpn, cdn, second,
                                                    self.epsilon)
                if (self.simulation and not is_or and cpn != 0
                        and self._try_simulation(key, moves, nums, best_i)):
                    continue
                self._line[-1] = (dom[0], moves[best_i])
                game.play(moves[best_i])
                try:
                    local[best_i] = self._mid(child_depth, own_path, c_th_pn, c_th_dn)
                finally:
                    game.undo()
        finally:
            self._on_path.discard(key)
            self._line.pop()

    # -- simulation (Kawano) -------------------------------------------------------------
    def _try_simulation(self, key, moves, nums, target) -> bool:
        """Replay a proven sibling's proof on reply ``target`` of the current AND node."""
        if (key, moves[target]) in self._simulated:
            return False
        self._simulated.add((key, moves[target]))
        source = next((j for j, n in enumerate(nums) if n[0] == 0), None)
        if source is None:
            return False
        self.simulations[0] += 1
        old, new = self.game.clone(), self.game.clone()
        old.play(moves[source])
        new.play(moves[target])
        budget = [self.simulation_budget]
        ok = self._simulate_or(new, old, budget)
        self.simulations[1] += ok
        return ok

    def _simulation_step(self, new, budget):
        """(done, dom): done is True when ``new`` is proven already, False when the budget
        is spent, None to go on."""
        dom = dominance_of(new)
        if self.proof_seq(dom) is not None:
            return True, dom
        budget[0] -= 1
        if budget[0] < 0:
            return False, dom
        self._tick()
        return None, dom

    def _simulate_or(self, new, old, budget) -> bool:
        done, dom = self._simulation_step(new, budget)
        if done is not None:
            return done
        seq = self.proof_seq(dominance_of(old))
        if seq is None:
            return False
        move = None
        for m in old.moves():
            old.play(m)
            s = self.proof_seq(dominance_of(old))
            old.undo()
            if s is not None and s < seq:
                move = m
                break
        if move is None or move not in new.moves():
            return False
        old.play(move)
        new.play(move)
        try:
            ok = self._simulate_and(new, old, budget)
        finally:
            old.undo()
            new.undo()
        if ok:
            self._store_proof(new.key(), dom)
        return ok

    def _simulate_and(self, new, old, budget) -> bool:
        done, dom = self._simulation_step(new, budget)
        if done is not None:
            return done
        replies = new.moves()
        covered = set(old.moves())
        if any(r not in covered for r in replies):
            return False
        for r in replies:
            old.play(r)
            new.play(r)
            try:
                ok = self._simulate_or(new, old, budget)
            finally:
                old.undo()
                new.undo()
            if not ok:
                return False
        self._store_proof(new.key(), dom)
        return True

    def _aggregate(self, is_or, nums, children, groups, twins_of, child_depth, moves, preferred):
        """The node's numbers from its children, whether a disproof depends on the path,
        the child to search next and the second-best number (for the 1+ε threshold)."""
        dag = self.dag
        table = self.table
        # the "small" number picks the child; the "large" ones are summed
        best_i, best, second = -1, INF + 1, INF + 1
        total = 0
        shared_max = 0
        group_max: dict = {}
        infinite = False
        tie_break = bool(preferred) or "E" in self.heuristics  # else _prefer says no
        for i, (cpn, cdn, _) in enumerate(nums):
            small, large = (cpn, cdn) if is_or else (cdn, cpn)
            if small < best:
                best_i, second, best = i, best, small
            elif (small == best and tie_break and best < INF
                  and self._prefer(i, best_i, moves, children, preferred)):
                best_i, second = i, small
            elif small < second:
                second = small
            if large == 0:
                continue
            if large >= INF:
                infinite = True
            if not is_or:
                t = twins_of[i]
                if t is not None and nums[t][0] != 0:
                    continue  # heuristic A: the promoting capture speaks for both
                g = groups[i]
                if g is not None:
                    group_max[g] = max(group_max.get(g, 0), large)
                    continue
            if dag and large < INF:
                e = table.get(children[i][0])
                if e is not None and e.min_depth < child_depth:
                    shared_max = max(shared_max, large)
                    continue
            total += large
        total += shared_max + sum(group_max.values())
        total = capped_sum(total, infinite)
        if is_or:
            pn, dn = best, total
            dep = dn == 0 and any(n[2] for n in nums)
        else:
            pn, dn = total, best
            dep = dn == 0 and all(n[2] for n in nums if n[1] == 0)
        return pn, dn, dep, best_i, second

    def _prefer(self, i, j, moves, children, preferred) -> bool:
        """Tie-break between children with equal numbers: is child i better than child j?
        C/D preferred moves first, then (E) the smaller subtree, then move order."""
        pi, pj = moves[i] in preferred, moves[j] in preferred
        if pi != pj:
            return pi
        if "E" in self.heuristics:
            ei, ej = self.table.get(children[i][0]), self.table.get(children[j][0])
            wi, wj = (ei.work if ei else 0), (ej.work if ej else 0)
            if wi != wj:
                return wi < wj
        return False
