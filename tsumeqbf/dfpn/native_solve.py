"""``solve --backend native``: the native core's unbounded search (:mod:`tsumeqbf.native`)
behind the interface :func:`~tsumeqbf.dfpn.solve.solve_tsume` asks of a search and a game,
so that the answer is read and shortened by the same code as the Python search's
(:mod:`.answer`).

* :class:`NativeGame` is a :class:`~.game.TsumeGame` on the core's position: its moves,
  keys and dominance are the core's (so they look up the core's tables), the facts the
  answer asks (interpositions, squares next to the king) are computed there too.
* :func:`shorter_mate` asks the core's bounded df-pn for the shortest mate after a proof
  (where the Python search's runs :mod:`.shortest` on its own tables).
* :class:`NativeSearch` is the unbounded search (proofs with proof pieces, path-dependent
  disproofs as twin entries, the DAG correction and inherited numbers, as
  :class:`~.tsume.TsumeSearch` with its defaults); its tables stay in the core between
  calls, so the search for shorter mates (:func:`.answer.shorten`) goes on in them with
  :meth:`NativeSearch.solve_below`.

The core has none of the heuristics, simulation or probes: :func:`refuse_unsupported`
refuses those options. Its checkpoints, and so its seeds, are files of its own
(:mod:`.checkpoint`). Every answer is replayed with the rules engine before it is
printed (:func:`~tsumeqbf.dfpn.solve.solve_tsume`).

>>> from tsumeqbf.rules import Position
>>> g = NativeGame(Position.from_sfen("7k1/9/7G1/9/9/9/9/9/9 b G 1"))
>>> s = NativeSearch(g); s.solve().proven, s.nodes
(True, 1)
>>> from tsumeqbf.dfpn.answer import principal_variation
>>> [g.pos.usi(m) for m in principal_variation(s, g)]
['G*2b']
"""

from __future__ import annotations

import time

from ..limits import memory_exceeded
from ..rules import TsumeError
from .answer import AnswerError
from .checkpoint import (add_native_proofs, checkpoint_kind, load_native,
                         read_native_identity, save_native)
from .game import Game, ShogiGame, TsumeGame
from .options import TsumeOptions
from .tsume import TsumeResult

#: solve_tsume's options the native core does not have, with the value that means "off"
UNSUPPORTED = {"heuristics": "", "simulation": False, "mate_probe": 0,
               "group_promotions": False, "proof_pieces": True}


def refuse_unsupported(options) -> None:
    """TsumeError naming the first option (of a SolveOptions) the native core does not have."""
    for name, off in UNSUPPORTED.items():
        if getattr(options, name) != off:
            raise TsumeError(f"backend 'native' has no option {name} (the Python search "
                             f"has: --backend rules)")


def fastest_backend(pos, options) -> str:
    """What backend ``auto`` means for ``pos`` asked with ``options`` (a SolveOptions):
    ``native`` when the core is built, plays the board and has every option asked for,
    else ``rules``; with a checkpoint or seed of the Python search's, ``rules`` (a run
    goes on where the last one stopped).

    >>> from tsumeqbf import native
    >>> from tsumeqbf.dfpn.options import SolveOptions
    >>> from tsumeqbf.rules import Position
    >>> nine = Position.from_sfen("7k1/9/7G1/9/9/9/9/9/9 b G 1")
    >>> fastest_backend(nine, SolveOptions()) == ("native" if native.available() else "rules")
    True
    >>> fastest_backend(nine, SolveOptions(heuristics="AB"))
    'rules'
    >>> fastest_backend(Position.from_sfen("2k/3/1GP b - 1", zone=2), SolveOptions())
    'rules'
    """
    from .. import native

    if not native.available() or native.unsupported(pos, unbounded=True):
        return "rules"
    if any(checkpoint_kind(path) == "python" for path in (options.checkpoint, *options.seeds)
           if path is not None):
        return "rules"
    try:
        refuse_unsupported(options)
    except TsumeError:
        return "rules"
    return "native"


class NativeGame(Game):
    """What :class:`~.game.TsumeGame` serves the answer and bounded df-pn, on a position
    that lives in the native core (see the module docstring). ``pos`` is the problem as
    given, not kept in step with the moves played."""

    def __init__(self, pos):
        from .. import native

        native.check_supported(pos, unbounded=True)  # (hands as the unbounded tables hold them)
        self.pos = pos
        self.attacker = pos.turn
        core = native.require().Game(*native.position_args(pos))
        self._core = core
        # the core's methods themselves: the searches call these once per node or child
        self.key, self.is_or, self.moves = core.key, core.is_or, core.moves
        self.play, self.undo, self.dominance = core.play, core.undo, core.dominance
        self.reply_count = core.reply_count
        self.is_interposition, self.next_to_king = core.is_interposition, core.next_to_king

    # what these ask is the core's: the Python bodies serve it as they are
    drop_group = ShogiGame.drop_group
    reply_count_after = TsumeGame.reply_count_after

    def interposition_group(self, m):
        """As :meth:`ShogiGame.interposition_group` on a legal reply to a check: every
        interposition in one group (None: a capture or a king move)."""
        return "interposition" if self.is_interposition(m) else None

    def clone(self):
        raise TsumeError("backend 'native' has no simulation")


class NativeSearch:
    """The native core's unbounded search with what :func:`~.solve.solve_tsume`, the
    answer (:mod:`.answer`), bounded df-pn's seeding (:mod:`.shortest`) and the progress
    callbacks ask of a :class:`~.tsume.TsumeSearch`. ``max_nodes`` counts every node of
    the search, ``deadline`` is a time.monotonic() value; both may be changed between
    calls (the searches after a proof narrow them). ``progress(search)`` is called every
    ``progress_every`` nodes; the memory limits of :mod:`tsumeqbf.limits` are checked
    every 4,096."""

    def __init__(self, game: NativeGame, max_nodes: int | None = None,
                 deadline: float | None = None, *, progress=None,
                 progress_every: int = 100_000, options: TsumeOptions | None = None):
        from .. import native

        self.game = game
        # what the core does: ``options``' table size, mobility, drop and interposition
        # grouping, DAG correction and inherited numbers
        options = options or TsumeOptions()
        self.options = TsumeOptions(dag=options.dag, inherit=options.inherit,
                                    mobility=options.mobility, group_drops=options.group_drops,
                                    group_interpositions=options.group_interpositions,
                                    tt_limit=options.tt_limit)
        self.max_nodes, self.deadline = max_nodes, deadline
        self.progress, self.progress_every = progress, progress_every
        self._core = native.require().Tsume(*native.position_args(game.pos),
                                            self.options.tt_limit, self.options.mobility,
                                            self.options.group_drops, self.options.dag,
                                            self.options.inherit,
                                            self.options.group_interpositions)
        self.proof_seq, self.is_disproven = self._core.proof_seq, self._core.is_disproven
        self.current_line = self._core.current_line
        self.tables = self  # what bounded df-pn's seeding asks: is_disproven
        self.simulations = [0, 0]
        self.probes = 0
        self._next_progress = progress_every

    # -- what the core holds -------------------------------------------------------------
    @property
    def nodes(self) -> int:
        return self._core.stats()[0]

    @property
    def tt_hits(self) -> int:
        return self._core.stats()[1]

    @property
    def table(self) -> range:
        """The unsolved entries, counted (the progress lines ask their number)."""
        return range(self._core.stats()[2])

    @property
    def proof_count(self) -> int:
        return self._core.stats()[3]

    @property
    def root_numbers(self) -> tuple[int, int]:
        return self._core.root_numbers()

    def root_status(self) -> tuple[int, int]:
        return self.root_numbers

    # -- checkpoints (:mod:`.checkpoint`) ------------------------------------------------
    def _identity(self, identity: dict) -> dict:
        """The caller's identity with what else a native checkpoint must match: the
        core's VERSION and the options that change what an unsolved entry's numbers mean."""
        from .. import native

        o = self.options
        return {**identity, "core_version": native.require().VERSION, "mobility": o.mobility,
                "group_drops": o.group_drops, "dag": o.dag, "inherit": o.inherit,
                "group_interpositions": o.group_interpositions}

    def save_tables(self, path, identity: dict) -> None:
        """The core's tables to ``path`` (:func:`.checkpoint.save_native`)."""
        save_native(self._core, path, self._identity(identity))

    def load_tables(self, path, identity: dict) -> None:
        """Go on from the checkpoint at ``path`` (:func:`.checkpoint.load_native`); the
        node count goes on from the checkpoint's."""
        load_native(self._core, path, self._identity(identity))

    def add_seed(self, path) -> int:
        """The proofs of the core's checkpoint ``path`` (of this problem or another one
        with the same attacker, written by this core VERSION) before this search's own
        (:func:`.checkpoint.add_native_proofs`); how many were new. TsumeError in one line
        for a file of another attacker, hashing or VERSION."""
        from .. import native
        from ..rules import Position

        theirs = read_native_identity(path, "seed")
        version = native.require().VERSION
        if theirs.get("core_version") != version:
            raise TsumeError(f"seed {path} was written by native core VERSION "
                             f"{theirs.get('core_version')}, this core is VERSION {version}")
        try:
            problem = Position.from_sfen(theirs["sfen"], zone=theirs["zone"])
        except (KeyError, TsumeError) as exc:
            raise TsumeError(f"seed {path}: its problem cannot be read ({exc})") from None
        if native.unsupported(problem, unbounded=True) or problem.turn != self.game.pos.turn:
            raise TsumeError(f"seed {path} is of another board, zone or attacker "
                             f"({theirs['sfen']})")
        if NativeGame(problem).key() != theirs.get("root_key"):
            raise TsumeError(f"seed {path} was written with another hashing")
        return add_native_proofs(self._core, path)

    def rank_proven(self, game: NativeGame, limit: int, known=None):
        """:func:`.answer.rank_proven` walked by the core (the same ranking; in Python the
        walk was nearly all of the search for shorter lines): without ``known``, a
        ``Ranking``; with it (a ``Ranking`` or a dict), a dict of the nodes it adds."""
        return self._core.rank_proven(game._core, limit, known)

    @staticmethod
    def ranking(entries=None):
        """A ``Ranking``: keys to distances, a mapping like a dict that only grows, which
        the core's walks read without a Python object per lookup (:func:`.answer._rank_update`
        ranks each round into one).

        >>> rank = NativeSearch.ranking({7: 3})
        >>> rank[8] = 1
        >>> rank.get(7), rank.get(9), 8 in rank, len(rank), rank == {7: 3, 8: 1}
        (3, None, True, 2, True)
        """
        from .. import native
        return native.require().Ranking(entries)

    def principal_variation(self, game: NativeGame, muda: bool = True, rank=None) -> list:
        """:func:`.answer.principal_variation` read by the core (the same line)."""
        try:
            return self._core.principal_variation(game._core, muda, rank)
        except LookupError as exc:
            raise AnswerError(str(exc)) from None

    # -- the search ----------------------------------------------------------------------
    def solve(self) -> TsumeResult:
        """Prove or disprove the root without a depth bound."""
        start = time.perf_counter()
        proven, reason = self._run(self._core.solve)
        nodes, hits, size, proofs, disproofs, twins = self._core.stats()
        return TsumeResult(proven, nodes, time.perf_counter() - start, size, proofs, disproofs,
                           twins, reason, hits)

    def solve_below(self, line: list, budget: int) -> bool | None:
        """Prove or disprove the node ``line`` leads to with at most ``budget`` more nodes
        (:meth:`TsumeSearch.solve_below`); None when they or the time run out."""
        limit = self.nodes + budget
        saved = self.max_nodes
        self.max_nodes = limit if saved is None else min(saved, limit)
        try:
            return self._run(lambda *limits: self._core.solve_below(line, *limits))[0]
        finally:
            self.max_nodes = saved

    def _run(self, call) -> tuple:
        """(verdict, reason) of a core call with this search's limits."""
        from .. import native

        seconds = native.core_seconds(
            None if self.deadline is None else max(self.deadline - time.monotonic(), 0.0))
        every = min(4096, self.progress_every) if self.progress else 4096
        self._next_progress = (self.nodes // self.progress_every + 1) * self.progress_every
        return call(native.node_limit(self.max_nodes), seconds, self._tick, every)

    def _tick(self) -> str | None:
        """The core's call every few thousand nodes: the reason a memory limit has passed
        (it ends the search), after progress (whose exception, a stop, ends it too)."""
        if self.progress is not None and self.nodes >= self._next_progress:
            self._next_progress += self.progress_every
            self.progress(self)
        return memory_exceeded()


def new_search(pos, max_nodes, deadline, options, **watch) -> tuple[NativeGame, NativeSearch]:
    """The game and the unbounded search :func:`~.solve.solve_tsume` runs on ``pos`` with
    ``options`` (a SolveOptions) and ``watch`` (progress, progress_every)."""
    game = NativeGame(pos.copy())
    return game, NativeSearch(game, max_nodes, deadline, options=options, **watch)


def shorter_mate(pos, below: int, max_nodes: int | None, deadline: float | None,
                 group_drops: bool = True, on_nodes=None) -> tuple:
    """:func:`.shortest.shorter_mate`'s answer for ``pos`` from the core's bounded df-pn
    (:func:`tsumeqbf.native.shortest_mate`, one table for every k; not started from the
    unbounded search's tables, so an independent search): (True, line) with the shortest
    line when a mate within ``below`` plies exists, (False, None) when none does, (None,
    None) when ``max_nodes`` or ``deadline`` (time.monotonic) comes first; then its nodes,
    and the most plies within which it showed there is no mate (-1: none).
    ``on_nodes()`` is called every 4,096 nodes.

    >>> from tsumeqbf.rules import Position
    >>> pos = Position.from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1")
    >>> found, line, nodes, refuted = shorter_mate(pos, 1, None, None)
    >>> found, [pos.usi(m) for m in line]
    (True, ['G*5b'])
    """
    from .. import native

    timeout = None if deadline is None else max(deadline - time.monotonic(), 0.0)
    try:
        out = native.shortest_mate(pos, below, max_nodes=max_nodes, timeout=timeout,
                                   group_drops=group_drops, on_nodes=on_nodes)
    except RuntimeError as exc:  # the core's tables contradict themselves: a bug
        raise AnswerError(str(exc)) from None
    line = out["line"] if out["found"] else None
    return out["found"], line, out["nodes"], out["refuted"]
