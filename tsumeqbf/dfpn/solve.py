"""Solve a tsume problem without a bound and print the answer: ``solve_tsume(pos, ...)``.

The options are one :class:`~.options.SolveOptions` (the command line's flags, engine
``tsume``'s options and the USI engine's are built from it); the fields named here are
its fields.

After a proof (``first_plies``: its line's plies), two searches look for a shorter
line. First more nodes of the unbounded search try the open checks along the main
line (:func:`answer.shorten`; ``shorten_spent`` in the output: its nodes); then, when the best
line read off the proofs has L plies (every ply counted) and L is at most
``shortest_up_to``, bounded df-pn asks for a mate within 1, 3, ... L - 2 plies (the
Python search's with its table started from the proofs, :mod:`.shortest`; the native
core's in the core from the root alone, first whether there is any within L - 2,
:func:`.native_solve.shorter_mate`). ``shortest_exact`` in the output says
whether the answer is the exact shortest: bounded df-pn has shown that no mate within
``length`` - 2 plies exists, every ply counted (``shortest_plies``, ``pv_shortest``:
the shortest line counting every ply; with the native core, when its budget runs out
first, ``no_mate_within``: the most plies within which it showed there is no mate). By
default the two get a share of the proof's
work (:class:`_AfterProof`: each as many nodes as the proof took, at least 10,000 and
20,000, the native core's bounded search at least 1,000,000, and together as much time,
at least 30 s); with ``shortest=True`` bounded
df-pn runs on a line of any length until it knows, within ``max_nodes`` and
``timeout``, and the shortening gets the proof's nodes, at least 50,000.
``shorten_nodes`` sets the shortening's nodes either way; ``after_nodes`` counts the
nodes of both. When the bounded line is shorter than the
line read off the proofs, it becomes the answer (``answer``: "bounded",
otherwise "proof"). ``mate_probe`` (1 or 3) proves a new node whose replies all mate
in 1 (or, with 3, that mates in 3) before searching it; ``probes`` counts the
positions the probes asked for a mate in 1. ``inherit`` starts a new position from the
numbers of the same board with other hands (:meth:`TsumeTables.inherited`).

``checkpoint`` (a file) keeps a long search: when the file exists the search goes on
from it (``resumed_nodes``; ``nodes`` and ``max_nodes`` then count from the first
run), and the tables are written to it every ``checkpoint_every`` nodes, at the end
and on an interrupt (:meth:`TsumeSearch.save_tables`, :meth:`NativeSearch.save_tables`:
each search's file is its own, :mod:`.checkpoint`).

``seeds`` (checkpoint files of other problems or of positions of this one, written
with the same hashing and attacker) add their proofs before the search starts
(:meth:`TsumeTables.add_proofs`; ``seeded_proofs``): a hard position solved apart,
say on another machine, then counts as proven. The answer is still read off the
whole proof tree with the rules, so a seed's proofs are checked where used.

>>> from tsumeqbf.rules import Position
>>> out = solve_tsume(Position.from_sfen("2k/3/1GP b - 1", zone=2))
>>> out["status"] is Status.MATE, out["pv"], out["length"]
(True, ['2c1b'], 1)
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from dataclasses import replace

from ..rules import Position, TsumeError, line_to_japanese
from ..values import Answer, Limits, Status
from .answer import AnswerError, principal_variation, shorten, shortest_check
from .cshogi_backend import make_game
from .shortest import seeded_dfpn, shorter_mate
from .game import TsumeGame
from .checkpoint import read_checkpoint
from .native_solve import (NativeGame, NativeSearch, fastest_backend,
                           new_search as native_search, refuse_unsupported,
                           shorter_mate as native_shorter_mate)
from .options import SOLVE_BACKENDS, SolveOptions
from .tsume import TsumeSearch

__all__ = ["SOLVE_BACKENDS", "SolveOptions", "replay_answer", "solve_engine", "solve_tsume"]


def solve_tsume(pos, options: SolveOptions | None = None, *, max_nodes: int | None = None,
                timeout: float | None = None, limits: Limits | None = None, progress=None,
                progress_every: int = 100_000, on_phase=None, on_search=None,
                answer_on_stop: bool = False, **option_values) -> dict:
    """Unbounded df-pn; a dict with status (a :class:`~tsumeqbf.values.Status`), pv (USI),
    pv_ja, length (useless interpositions not counted), plies (every ply counted),
    nodes, time_s and table sizes, and every field of ``options`` (a :class:`SolveOptions`,
    or its fields as keywords), under its name. ``max_nodes`` and ``timeout`` bound the
    whole of it (``timeout`` None: no limit, 0: none left), or ``limits`` (a
    :class:`~tsumeqbf.values.Limits`: engine ``tsume``'s, its deadline as it is) in their
    place.

    What it does after a proof, with checkpoints and with seeds: see the module's
    docstring.

    ``time_s`` and ``proof_cpu_s`` are the proof's wall-clock and CPU seconds (this
    thread). ``progress`` is called with the search every ``progress_every`` nodes (the USI engine
    asks often, to report and to stop within a second); ``on_phase(text)`` is told when the
    proof is found and the searches for a shorter line begin. ``total_s`` is the time of
    all of it, ``time_s`` that of the proof. ``on_search(search)`` is told the search as
    soon as it is made: a caller whose limit stops the proof by an exception (a CPU limit)
    reads the nodes searched from it, however few came before the stop.

    With ``answer_on_stop``, a stop (Ctrl-C, SIGTERM: a KeyboardInterrupt) that comes
    during the searches for a shorter line ends them and the answer is the line found so
    far, with ``stopped`` (the signal's name) and ``exit_status``; without it, or during
    the proof itself, the stop goes on up to the caller."""
    options = replace(options or SolveOptions(), **option_values)
    if limits is None:
        limits = Limits.within(timeout, max_nodes=max_nodes)
    max_nodes, deadline = limits.max_nodes, limits.deadline
    if options.backend == "auto":  # the answer names the one chosen
        options = replace(options, backend=fastest_backend(pos, options))
    if options.backend == "native":
        refuse_unsupported(options)
    started = time.monotonic()
    pos.validate_question()
    if options.backend == "native":  # the compiled search, its tables read by the same code
        game, search = native_search(pos, max_nodes, deadline, options, progress=progress,
                                     progress_every=progress_every)
    else:
        game = make_game(pos.copy(), options.backend)
        search = TsumeSearch(game, max_nodes=max_nodes, deadline=deadline, progress=progress,
                             progress_every=progress_every, options=options.search_options())
    if on_search is not None:
        on_search(search)
    proof_cpu = time.thread_time()
    res, resumed, seeded = _prove(search, game, pos, options, progress)
    out = {"status": Status.of(res.proven),
           "mate": res.proven, "pv": None, "pv_ja": None, "length": None,
           "nodes": res.nodes, "time_s": round(res.time_s, 6),
           "proof_cpu_s": round(time.thread_time() - proof_cpu, 6), "proofs": res.proofs,
           "disproofs": res.disproofs, "twins": res.twins, "tt_size": res.tt_size,
           "tt_hits": res.tt_hits, **options.row(), "simulations": search.simulations,
           "resumed_nodes": resumed, "probes": search.probes, "seeded_proofs": seeded}
    if res.reason:
        out["error"] = res.reason
    stops = _Stops(answer_on_stop)
    if res.proven:
        try:
            _answer(out, pos, search, res, game, options, stops,
                    _AfterProof(res, options.shortest, options.shorten_nodes, max_nodes, deadline,
                                AFTER_FLOOR_BOUNDED_NATIVE if options.backend == "native"
                                else AFTER_FLOOR_BOUNDED),
                    on_phase)
        except AnswerError as exc:  # a bug: say so rather than print a wrong line
            out.update(status=Status.ERROR, error=f"answer extraction failed: {exc}")
            return out
        if options.check_shortest and stops.stopped is None:
            # of the proofs' line, which bounded df-pn's may have replaced
            length = out.get("proof_length", out["length"])
            shorter = stops.run(shortest_check, pos, length, max_nodes=max_nodes,
                                deadline=deadline, backend=options.backend)
            if stops.stopped is None:
                out["shorter_mate_exists"] = shorter
    if stops.stopped is not None:
        out.update(stopped=str(stops.stopped) or "SIGINT",
                   exit_status=getattr(stops.stopped, "exit_status", 130))
    out["total_s"] = round(time.monotonic() - started, 6)
    return out


def _prove(search, game, pos, options: SolveOptions, progress):
    """Run the proof search, from and to ``options.checkpoint`` when there is one, its
    seeds taken in first: its result, the nodes it resumed from and the proofs the seeds
    gave."""
    checkpoint, resumed = options.checkpoint, 0
    if checkpoint is None:
        seeded = _add_seeds(search, options.seeds, pos)
        return search.solve(), resumed, seeded
    # the root's hash too: tables from another hashing (a changed Zobrist seed) would
    # look up wrong positions, so such a file is refused like another problem's
    identity = {"sfen": pos.sfen(), "zone": pos.geo.zone, "root_key": game.key()}
    if os.path.exists(checkpoint):
        search.load_tables(checkpoint, identity)
        resumed = search.nodes
    seeded = _add_seeds(search, options.seeds, pos)
    search.progress = _saving(search, progress, checkpoint, identity, options.checkpoint_every)
    try:
        return search.solve(), resumed, seeded
    finally:  # at the end, and on Ctrl-C: nothing found so far is lost
        # the proof's tables alone: checkpoints taken during the searches for a shorter
        # line after it counted their nodes as the proof's, and a run again from the file
        # then gave them that many more (the count grew with every run)
        search.progress = progress
        search.save_tables(checkpoint, identity)


class _Stops:
    """Runs the searches for a shorter line; a stop (KeyboardInterrupt) ends one, which
    then gives None, when the caller asked for the answer found so far
    (``answer_on_stop``); ``stopped`` is the first such stop."""

    def __init__(self, answer_on_stop: bool):
        self.answer_on_stop, self.stopped = answer_on_stop, None

    def run(self, work, *args, **kwargs):
        try:
            return work(*args, **kwargs)
        except KeyboardInterrupt as exc:
            if not self.answer_on_stop:
                raise
            self.stopped = exc
            return None


def _answer(out: dict, pos, search, res, game, options: SolveOptions, stops: _Stops,
            after: _AfterProof, on_phase) -> None:
    """The proven answer's line into ``out``: read off the proofs after the shortening,
    then the exact shortest when bounded df-pn finds a shorter line."""
    first = principal_variation(search, game, muda=False)
    rank, spent, first_rank = None, 0, None
    if len(first) > 1:  # a mate in 1 is the shortest
        if on_phase is not None and after.shorten_nodes:
            on_phase(f"mate proven, a line of {len(first)} plies ({res.nodes:,} nodes, "
                     f"{res.time_s:.2f} s); looking for shorter mates with up to "
                     f"{after.shorten_nodes:,} more nodes{after.time_text()}")
        before = search.nodes
        with after.limits(search):
            rank, spent, first_rank = (stops.run(shorten, search, game, after.shorten_nodes)
                                       or (None, search.nodes - before, None))
    # the answer walks the whole proof tree (every reply of every defender node); with
    # cshogi's move generator it walks it with ours, an independent check (the native
    # core's tables answer only its own keys: its lines are replayed with ours below). A
    # stop can leave the game below the root (the searches after the proof play moves
    # outside try/finally), so after one the answer is read from a new game
    if options.backend == "native":
        reader = game if stops.stopped is None else NativeGame(pos.copy())
    else:
        reader = (game if options.backend == "rules" and stops.stopped is None
                  else TsumeGame(pos.copy()))
    line = principal_variation(search, reader, rank=rank)
    raw = principal_variation(search, reader, muda=False, rank=rank)
    if rank is not None and first_rank is not rank:
        # the proof's own ranking (None: the proofs' order) still holds (proofs are
        # never dropped) and its line can be the shorter by the convention
        # (:func:`.answer.shorten`)
        alone = principal_variation(search, reader, rank=first_rank)
        if len(alone) < len(line):
            line, raw = alone, principal_variation(search, reader, muda=False, rank=first_rank)
    found, short = (False, None) if len(raw) <= 1 else (None, None)
    if (len(raw) > 1 and stops.stopped is None
            and (options.shortest or len(raw) <= options.shortest_up_to)):
        if on_phase is not None:
            on_phase(f"a line of {len(raw)} plies; bounded df-pn looks for a mate "
                     f"within {len(raw) - 2} plies{after.bounded_text()}")
        if options.backend == "native":  # the core's bounded search, from the root alone
            watch = search.progress  # (its clock goes on while the core searches)
            found, short, out["bounded_nodes"], refuted = stops.run(
                native_shorter_mate, pos, len(raw) - 2, after.bounded_nodes, after.deadline,
                group_drops=options.group_drops,
                on_nodes=None if watch is None else lambda: watch(search)) or (None, None, 0, -1)
            if found is None and refuted > 0:  # what it showed before its budget ran out
                out["no_mate_within"] = refuted
        else:
            bounded = seeded_dfpn(search, game, rank, max_nodes=after.bounded_nodes,
                                  deadline=after.deadline)
            found, short = stops.run(shorter_mate, bounded, game, len(raw) - 2) or (None, None)
            out["bounded_nodes"] = bounded.nodes
    out.update(pv=[pos.usi(m) for m in line], pv_ja=line_to_japanese(pos, line),
               length=len(line), plies=len(raw), first_plies=len(first), shorten_spent=spent,
               answer="proof", shortest_exact=found is not None)
    out["after_nodes"] = spent + out.get("bounded_nodes", 0)
    if found:
        _exact(out, pos, short)
    elif found is False:
        out.update(shortest_plies=len(raw), pv_shortest=[pos.usi(m) for m in raw])
    if options.backend == "native":  # lines read through the core's moves: ours check them
        wrong = _unreplayable(pos, out["pv"], out.get("pv_shortest"))
        if wrong:
            raise AnswerError(f"the native answer does not replay as mate: {wrong}")


def _exact(out: dict, pos, short) -> None:
    """Bounded df-pn's shortest line ``short`` (None: none shorter within its limits)."""
    out["pv_shortest"] = [pos.usi(m) for m in short] if short else None
    out["shortest_plies"] = len(short) if short else None
    out["shortest_exact"] = short is not None
    if short and len(short) < out["length"]:
        # the proofs hold no line this short (zukou-036: 19 plies found, 13 exact):
        # answer with the exact one; every ply of it counts, so its length can only
        # overstate the tsume length
        out.update(pv=out["pv_shortest"], pv_ja=line_to_japanese(pos, short),
                   proof_length=out["length"], length=len(short), plies=len(short),
                   answer="bounded")


#: without ``shortest``, the searches after a proof get this share of the proof's nodes
#: (each) and of its time (together), at least the floors: bounded df-pn decides most
#: short mates within its floor (the YaneuraOu mate-in-11 samples in up to 18,272 nodes).
#: The seconds are wall clock, a guard: on an idle machine the nodes bind first; under
#: load 17 on this 2-core machine they still cut one YaneuraOu answer short (mate11-4:
#: 17 plies instead of 11), see docs/dfpn-notebook.md
AFTER_SHARE = 1.0
AFTER_FLOOR_BOUNDED = 20_000
AFTER_FLOOR_SHORTEN = 10_000
AFTER_FLOOR_S = 30.0
#: the native core's bounded df-pn after a proof: at least this many nodes (two to three
#: CPU seconds on the machines measured), where the Python search's floor would give it
#: a few milliseconds; what it decides and costs on the Edo problems is in
#: docs/dfpn-notebook.md
AFTER_FLOOR_BOUNDED_NATIVE = 1_000_000


class _AfterProof:
    """The limits of the searches for a shorter line after a proof. With ``shortest``
    bounded df-pn runs until it knows (within the caller's limits) and the shortening
    gets the proof's nodes, at least 50,000; without it each gets the proof's nodes (at
    least ``bounded_floor`` and AFTER_FLOOR_SHORTEN) and both together the proof's
    time (at least AFTER_FLOOR_S), the shortening the first half of it. ``shorten_nodes`` sets the
    shortening's nodes either way, and then its only limit besides the caller's time."""

    def __init__(self, res, shortest: bool, shorten_nodes, max_nodes, deadline,
                 bounded_floor: int = AFTER_FLOOR_BOUNDED):
        self.start = time.monotonic()
        self.shared = not shortest
        if shortest:
            self.shorten_nodes = max(res.nodes, 50_000)
            self.bounded_nodes = max_nodes
            self.deadline = deadline
        else:
            share = int(res.nodes * AFTER_SHARE)
            self.shorten_nodes = max(share, AFTER_FLOOR_SHORTEN)
            bounded = max(share, bounded_floor)
            self.bounded_nodes = bounded if max_nodes is None else min(bounded, max_nodes)
            end = self.start + max(res.time_s * AFTER_SHARE, AFTER_FLOOR_S)
            self.deadline = end if deadline is None else min(end, deadline)
        # the shortening the first half of the time, bounded df-pn the rest
        self.shorten_deadline = (self.start + (self.deadline - self.start) / 2
                                 if self.shared and self.deadline is not None else self.deadline)
        if shorten_nodes is not None:  # the caller's budget: nodes alone
            self.shorten_nodes, self.shorten_deadline = shorten_nodes, deadline

    def bounded_text(self) -> str:
        return f" with up to {self.bounded_nodes:,} nodes" if self.bounded_nodes else ""

    def time_text(self) -> str:
        end = self.shorten_deadline
        left = end - time.monotonic() if end is not None else None
        return f" and {max(left, 0):.1f} s" if self.shared and left is not None else ""

    @contextmanager
    def limits(self, search):
        """The unbounded search with this phase's deadline for the shortening."""
        saved, end = search.deadline, self.shorten_deadline
        if end is not None:
            search.deadline = end if saved is None else min(saved, end)
        try:
            yield
        finally:
            search.deadline = saved


def _add_seeds(search, seeds, pos) -> int:
    if isinstance(search, NativeSearch):  # the core's own files
        return sum(search.add_seed(path) for path in seeds)
    return sum(search.tables.add_proofs(_seed_proofs(path, pos)) for path in seeds)


def _seed_proofs(path, pos) -> dict:
    """The proofs of checkpoint ``path`` when they can serve a search from ``pos``: the
    same board size and zone, the same attacker and the same hashing (the key of the
    checkpoint's own problem, worked out here, must be the one it recorded)."""
    state = read_checkpoint(path)
    ident = state["identity"]
    try:
        theirs = Position.from_sfen(ident["sfen"], zone=ident["zone"])
    except TsumeError as exc:
        raise TsumeError(f"seed {path}: its problem cannot be read ({exc})") from None
    if theirs.geo is not pos.geo or theirs.turn != pos.turn:  # one Geometry per size and zone
        raise TsumeError(f"seed {path} is of another board, zone or attacker ({ident['sfen']})")
    if TsumeGame(theirs).key() != ident["root_key"]:
        raise TsumeError(f"seed {path} was written with another hashing")
    return state["proofs"]


def _saving(search, progress, path, identity, every: int):
    """A progress callback that also writes a checkpoint every ``every`` nodes (the
    search calls it every ``progress_every`` nodes, which ``every`` is rounded up to)."""
    search.progress_every = min(search.progress_every, max(every, 1))
    last = [search.nodes]

    def call(s):
        if progress is not None:
            progress(s)
        if s.nodes - last[0] >= every:
            s.save_tables(path, identity)
            last[0] = s.nodes

    return call


def _unreplayable(pos, *lines) -> str | None:
    """What is wrong with the first of ``lines`` (USI; None: none) that does not replay
    as mate with the rules engine (ending on useless interpositions allowed), else None."""
    for line in lines:
        if line is not None:
            check = replay_answer(pos, line)
            if not check.startswith("ok"):
                return check
    return None


def replay_answer(pos, usi_line: list[str]) -> str:
    """Check an answer with the rules: "ok" when every move is legal, every attacker move
    a check and the line ends in mate; "ok (ends on useless interpositions)" when it ends
    on a check; else what is wrong with it."""
    p = pos.copy()
    for i, text in enumerate(usi_line):
        try:
            m = p.parse_usi(text)
        except TsumeError as exc:  # an illegal move is the finding (a limit goes up)
            return f"ply {i + 1} {text}: {exc}"
        if i % 2 == 0 and m not in p.checks():
            return f"ply {i + 1} {text}: not a check"
        p.push(m)
    if len(usi_line) % 2 == 0:
        return "ends on a defender move"
    return "ok" if p.is_checkmate() else "ok (ends on useless interpositions)"


def solve_engine(pos, n: int, limits: Limits, options: dict) -> Answer:
    """Engine ``tsume`` for ``run_engine``: unbounded df-pn. ``n`` is not a bound here:
    the verdict says whether a mate exists at all, and ``length`` gives its length. The
    exact-shortest search after a proof is off unless option ``shortest_up_to`` asks for
    it (it would add up to ``max_nodes`` more nodes to every short proof), and so is the
    search for shorter mates unless option ``shorten_nodes`` gives it nodes."""
    out = solve_tsume(pos, SolveOptions.from_config(options, shortest_up_to=0, shorten_nodes=0),
                      limits=limits)
    out["first_move"] = out["pv"][0] if out.get("pv") else None
    out.pop("pv_ja", None)
    return Answer.from_dict(out)
