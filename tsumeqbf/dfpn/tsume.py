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

``simulation=True`` adds Kawano's simulation (:mod:`.simulation`): before an AND node
searches a reply while a sibling reply is proven, it replays the sibling's proof; when the
replay reaches mate on every line, its nodes are stored as proven. The replay checks every
move with the rules, so a success is a genuine proof.

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
distant bishop sacrifice B*8g was otherwise never searched enough to be proven. The
groupings live in :mod:`.replies`.

``mate_probe`` (off by default) looks a few plies ahead before a node is first searched,
as cshogi's DfPn does (:mod:`.probes`): 1 proves an AND node whose every reply mates in 1,
3 also an OR node that mates in 3. What it proves is stored like any proof; the positions
it asks for a mate in 1 are counted in ``probes``, not in ``nodes``.

The options are one frozen :class:`~.options.TsumeOptions`; the tables are a
:class:`~.tables.TsumeTables`, written to and read from files by :mod:`.checkpoint`; the
reports of where the nodes went are in :mod:`.report`.

>>> from tsumeqbf.rules import Position
>>> from tsumeqbf.dfpn.game import TsumeGame
>>> TsumeSearch(TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2))).solve().proven
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from . import checkpoint, report
from .checkpoint import CHECKPOINT_FORMAT, read_checkpoint
from .core import INF, SearchAborted, capped_sum, child_thresholds, count_node, deep_recursion
from .options import HEURISTICS, TsumeOptions, check_heuristics
from .probes import MateProbes
from .replies import count_replies, count_replies_after, promotion_twins, reply_groups
from .simulation import Simulation
from .tables import TsumeTables, path_step

# read_checkpoint, check_heuristics and their constants are imported from here by older code
__all__ = ["CHECKPOINT_FORMAT", "HEURISTICS", "TsumeOptions", "TsumeResult", "TsumeSearch",
           "check_heuristics", "read_checkpoint"]


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


@dataclass(slots=True)
class _Node:
    """What an expanded node keeps while it is searched."""

    key: object
    dom: tuple
    is_or: bool
    depth: int  # plies from the root
    path_key: int  # its own, as its parent gave it
    moves: list
    children: list  # per move: key, dominance, repetition flag, starting numbers
    groups: list  # per reply: the group it counts once in (None: on its own)
    twins_of: list  # per reply: its promoting twin's index (heuristic A)
    prev_move: object  # the move that led here (heuristic C)
    preferred: set  # moves preferred among equals (heuristics C and D)


class TsumeSearch:
    """Unbounded df-pn on ``game`` from its current OR node. ``options`` (a TsumeOptions)
    or its fields as keywords say how to search; ``max_nodes``, ``deadline`` (a
    time.monotonic() value) and ``progress`` (called with the search every
    ``progress_every`` nodes) bound and watch one run."""

    tables_type = TsumeTables  # a subclass may keep its tables otherwise (tests do)

    def __init__(self, game, max_nodes: int | None = None, deadline: float | None = None, *,
                 progress=None, progress_every: int = 100_000,
                 options: TsumeOptions | None = None, **option_values):
        self.game = game
        self.options = replace(options or TsumeOptions(), **option_values)
        self.max_nodes, self.deadline = max_nodes, deadline
        self.progress, self.progress_every = progress, progress_every
        self.nodes = 0
        self.answers: dict = {}  # heuristic C: previous move -> move
        self.root_numbers: tuple = (1, 1)
        self.tables = self.tables_type(self.options.tt_limit, self.options.proof_pieces)
        self._dom = game.dominance
        self._on_path: set = set()
        self._line: list = []  # (board key, move played) along the current line, heuristic D
        self._simulation = Simulation(self.tables, self._tick, self.options.simulation_budget)
        self._probes = MateProbes(game, self.tables, self._on_path, self.options.mate_probe)

    # -- what the tables hold ------------------------------------------------------------
    table = property(lambda self: self.tables.table, doc="key -> unsolved numbers")
    proofs = property(lambda self: self.tables.proofs, doc="board key -> [(att, dfn, seq)]")
    disproofs = property(lambda self: self.tables.disproofs, doc="board key -> [(att, dfn)]")
    twins = property(lambda self: self.tables.twins, doc="(key, path key) -> True")
    simulations = property(lambda self: self._simulation.counts, doc="[attempts, successes]")

    @property
    def proof_count(self) -> int:
        """Proofs in the tables (a progress line shows it)."""
        return sum(map(len, self.tables.proofs.values()))

    @property
    def tt_hits(self) -> int:
        """Children whose numbers came from the tables."""
        return self.tables.tt_hits

    @property
    def probes(self) -> int:
        """Positions the mate probes asked for a mate in 1 (not nodes)."""
        return self._probes.count

    @probes.setter
    def probes(self, count: int) -> None:
        self._probes.count = count

    def proof_seq(self, dom) -> int | None:
        """See :meth:`TsumeTables.proof_seq`."""
        return self.tables.proof_seq(dom)

    def is_disproven(self, dom) -> bool:
        return self.tables.is_disproven(dom)

    def save_tables(self, path, identity: dict) -> None:
        """See :func:`tsumeqbf.dfpn.checkpoint.save_tables`."""
        checkpoint.save_tables(self, path, identity)

    def load_tables(self, path, identity: dict) -> None:
        """See :func:`tsumeqbf.dfpn.checkpoint.load_tables`."""
        checkpoint.load_tables(self, path, identity)

    # -- reports -------------------------------------------------------------------------
    def root_status(self) -> tuple[int, int]:
        """The root's current (pn, dn), for progress lines."""
        return self.root_numbers

    def current_line(self) -> list:
        """The moves from the root to the node being searched: df-pn's most-proving line
        at this moment (read from a progress callback; empty between searches)."""
        return [m for _, m in self._line if m is not None]

    def children_numbers(self, path_key: int = 0) -> list[tuple]:
        """See :func:`tsumeqbf.dfpn.report.children_numbers`."""
        return report.children_numbers(self, path_key)

    def busiest_line(self, max_plies: int = 60) -> list[tuple]:
        """See :func:`tsumeqbf.dfpn.report.busiest_line`."""
        return report.busiest_line(self, max_plies)

    # -- the search ----------------------------------------------------------------------
    def solve(self) -> TsumeResult:
        """Prove or disprove the game's current OR node without a depth bound."""
        start = time.perf_counter()
        reason = ""
        try:
            with deep_recursion():
                proven = self._settle(0, 0, root=True)
        except SearchAborted as exc:
            proven, reason = None, str(exc)
        tables = self.tables
        return TsumeResult(proven, self.nodes, time.perf_counter() - start, len(tables.table),
                           sum(map(len, tables.proofs.values())),
                           sum(map(len, tables.disproofs.values())), len(tables.twins), reason,
                           tables.tt_hits)

    def _settle(self, depth: int, path_key: int, root: bool = False) -> bool:
        """Search the current node with infinite thresholds until it is proven or
        disproven (a repetition of a position on the path is a failure)."""
        key, dom = self.game.key(), self._dom()
        tables = self.tables
        while True:
            if tables.proof_seq(dom) is not None:
                return True
            if (tables.is_disproven(dom) or (key, path_key) in tables.twins
                    or key in self._on_path):
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
                path_key = path_step(path_key, key)
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
        use_f = "F" in self.options.heuristics and not is_or
        if not use_f:
            # games that can tell a child's key without playing the move save two makes
            # and unmakes per child (most children are never searched)
            return [self._child(m, *game.child_dominance(m), is_or, False, False, store)
                    for m in moves]
        out = []
        for m in moves:
            with game.played(m):
                out.append(self._child(m, game.key(), self._dom(), is_or, True, use_f, store))
        return out

    def _child(self, m, ck, dom, is_or: bool, at_child: bool, use_f: bool, store: bool):
        """(key, dominance, repetition flag, starting numbers) of child ``ck`` through
        move ``m``; the game is at the child when ``at_child`` (always with ``use_f``:
        heuristic F counts its checks), else at the parent."""
        options, tables = self.options, self.tables
        repeated = ck in self._on_path
        init = (1, 1)
        fresh = not repeated and ck not in tables.table
        if fresh and use_f:
            init = (1, self.game.check_directions() or 1)
        elif fresh and is_or and options.mobility and tables.proof_seq(dom) is None:
            # a check starts with as many proof-number units as it has replies; a
            # check without reply is mate and proven at once
            replies = (count_replies(self.game, options) if at_child
                       else count_replies_after(self.game, m, options))
            if replies:
                init = (replies, 1)
            elif store:
                tables.store_proof(ck, dom, tables.proof_pieces(dom, False, []))
            else:
                init = (0, INF)
        # inherited numbers are floors for unsolved positions, not for a mate the
        # report found without storing it
        if fresh and options.inherit and init[0] and tables.has_board(dom[0]):
            init = tables.inherited(dom, init, self._on_path)
        return ck, dom, repeated, init

    # -- one node ------------------------------------------------------------------------
    def _mid(self, depth: int, path_key: int, th_pn: int, th_dn: int) -> tuple[int, int, bool]:
        """Search the current node (``depth`` plies from the root, ``path_key`` its own)
        until a threshold is reached; returns (pn, dn, path-dependent disproof)."""
        game = self.game
        self._tick()
        key, dom = game.key(), self._dom()
        is_or = game.is_or()
        moves = game.moves()
        if not moves:  # OR: no check, not mate; AND: no reply, mate
            return self._store_leaf(key, dom, path_key, is_or)
        if (self.options.mate_probe and key not in self.tables.table
                and self._probes.prove_new_node(key, dom, is_or, moves)):
            return 0, INF, False
        node = self._expand(key, dom, is_or, depth, path_key, moves)
        self._on_path.add(key)
        self._line.append((dom[0], None))
        try:
            return self._search(node, th_pn, th_dn)
        finally:
            self._on_path.discard(key)
            self._line.pop()

    def _store_leaf(self, key, dom, path_key, is_or: bool) -> tuple[int, int, bool]:
        """An OR node without a check is disproven, an AND node without a reply proven."""
        tables = self.tables
        if is_or:
            tables.store_disproof(key, dom, path_key, False, tables.disproof_pieces(dom, True, []))
            return INF, 0, False
        tables.store_proof(key, dom, tables.proof_pieces(dom, False, []))
        return 0, INF, False

    def _expand(self, key, dom, is_or: bool, depth: int, path_key: int, moves) -> _Node:
        """The current node's children and what orders them, before it joins the path."""
        game = self.game
        children = self._children(moves, is_or)
        if is_or:
            groups, twins_of = [None] * len(moves), [None] * len(moves)
        else:
            groups = reply_groups(game, moves, self.options)
            twins_of = promotion_twins(game, moves, self.options)
        prev_move = self._line[-1][1] if self._line else None
        return _Node(key, dom, is_or, depth, path_key, moves, children, groups, twins_of,
                     prev_move, self._preferred(prev_move, dom[0]))

    def _preferred(self, prev_move, bkey) -> set:
        """Moves preferred among equals: (C) the move that last answered ``prev_move``
        and (D) those played from positions of board ``bkey`` earlier on the line."""
        h = self.options.heuristics
        preferred = set()
        if "C" in h and prev_move is not None and prev_move in self.answers:
            preferred.add(self.answers[prev_move])
        if "D" in h:
            preferred.update(mv for b, mv in self._line if b == bkey)
        return preferred

    def _search(self, node: _Node, th_pn: int, th_dn: int) -> tuple[int, int, bool]:
        """The df-pn loop of an expanded node: search its most promising child until the
        node's numbers pass a threshold. The children's numbers are also kept locally, so
        the search moves on even when the table has dropped them (a small table)."""
        game, tables = self.game, self.tables
        local = [(c[3][0], c[3][1], False) for c in node.children]
        own_path = path_step(node.path_key, node.key)
        child_depth = node.depth + 1
        nodes_before = self.nodes
        while True:
            nums = self._child_numbers(node, local, own_path)
            pn, dn, dep, best_i, second = self._aggregate(node, nums)
            if pn == 0 or dn == 0 or pn >= th_pn or dn >= th_dn:
                self._store_result(node, pn, dn, dep, nums, best_i,
                                   self.nodes - nodes_before + 1)
                return pn, dn, dep
            tables.store_numbers(node.key, pn, dn, 0, node.depth, node.dom)
            if node.depth == 0:
                # the table may drop the root's entry (work is counted on return, and the
                # root returns last): the progress line reads these instead
                self.root_numbers = (pn, dn)
            cpn, cdn, _ = nums[best_i]
            c_th_pn, c_th_dn = child_thresholds(node.is_or, th_pn, th_dn, pn, dn, cpn, cdn,
                                                second, self.options.epsilon)
            if (self.options.simulation and not node.is_or and cpn != 0
                    and self._simulation.try_reply(game, node.key, node.moves, nums, best_i)):
                continue
            best = node.moves[best_i]
            self._line[-1] = (node.dom[0], best)
            with game.played(best):
                local[best_i] = self._mid(child_depth, own_path, c_th_pn, c_th_dn)

    def _child_numbers(self, node: _Node, local: list, own_path: int) -> list:
        """(pn, dn, path-dependent) of each child: from the tables where they hold it
        (kept in ``local`` too), else the last known."""
        lookup = self.tables.lookup
        nums = []
        for i, c in enumerate(node.children):
            found = lookup(c, own_path)
            if found is not None:
                local[i] = found[:3]
            nums.append(local[i])
        return nums

    def _store_result(self, node: _Node, pn, dn, dep, nums, best_i, work) -> None:
        """Store what the node's search ended with: a proof, a disproof (with the pieces
        of the children that disprove it whatever the path) or its numbers."""
        tables, children, is_or = self.tables, node.children, node.is_or
        key, dom = node.key, node.dom
        if pn == 0:
            proven = [children[best_i][1]] if is_or else [c[1] for c in children]
            tables.store_proof(key, dom, tables.proof_pieces(dom, is_or, proven))
            if is_or:
                self._remember_answer(node, best_i)
        elif dn == 0:
            pieces = None
            if not dep:
                # an AND node through one reply disproven whatever the path
                used = ([c[1] for c in children] if is_or else
                        [c[1] for c, n in zip(children, nums) if n[1] == 0 and not n[2]][:1])
                pieces = tables.disproof_pieces(dom, is_or, used) if used else None
            tables.store_disproof(key, dom, node.path_key, dep, pieces)
            if not is_or:
                self._remember_answer(node, best_i)
        else:
            tables.store_numbers(key, pn, dn, work, node.depth, dom)

    def _remember_answer(self, node: _Node, best_i: int) -> None:
        """Heuristic C: the move that settled the node for its side answers the move that
        led to it."""
        if "C" in self.options.heuristics and node.prev_move is not None:
            self.answers[node.prev_move] = node.moves[best_i]

    def _aggregate(self, node: _Node, nums):
        """The node's numbers from its children's ``nums``, whether a disproof depends on
        the path, the child to search next and the second-best number (for the 1+ε
        threshold)."""
        is_or, groups, twins_of = node.is_or, node.groups, node.twins_of
        dag = self.options.dag
        table = self.tables.table
        child_depth = node.depth + 1
        # the "small" number picks the child; the "large" ones are summed
        best_i, best, second = -1, INF + 1, INF + 1
        total = 0
        shared_max = 0
        group_max: dict = {}
        infinite = False
        tie_break = bool(node.preferred) or "E" in self.options.heuristics  # else _prefer says no
        for i, (cpn, cdn, _) in enumerate(nums):
            small, large = (cpn, cdn) if is_or else (cdn, cpn)
            if small < best:
                best_i, second, best = i, best, small
            elif small == best and tie_break and best < INF and self._prefer(i, best_i, node):
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
                e = table.get(node.children[i][0])
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

    def _prefer(self, i, j, node: _Node) -> bool:
        """Tie-break between children with equal numbers: is child i better than child j?
        C/D preferred moves first, then (E) the smaller subtree, then move order."""
        moves, preferred = node.moves, node.preferred
        pi, pj = moves[i] in preferred, moves[j] in preferred
        if pi != pj:
            return pi
        if "E" in self.options.heuristics:
            table = self.tables.table
            ei, ej = table.get(node.children[i][0]), table.get(node.children[j][0])
            wi, wj = (ei.work if ei else 0), (ej.work if ej else 0)
            if wi != wj:
                return wi < wj
        return False
