"""One interface over every engine that answers Mate(P, n): ``run_engine(name, ...)``.

Each engine is a function ``(pos, n, limits, options) -> Answer``: an
:class:`~tsumeqbf.values.Answer` with its :class:`~tsumeqbf.values.Status` (mate, nomate,
unknown, error), verdict and, when known, first move (USI). ``run_engine`` makes the
question's :class:`~tsumeqbf.values.Limits` once, before it loads the engine, and passes
them down whole: the deadline ``timeout`` seconds away, which the QBF engines share
between encoding, writing and the solver (status ``unknown``, the reason in ``error``,
past it), options ``memory_mb`` (the process's resident memory; QBF engines: the
encoder's, then the solver's address space; brute and df-pn: the search's) and
``max_nodes``; every engine also stops when the machine's memory reserve is reached
(:mod:`tsumeqbf.limits`). ``run_engine`` validates the question, times the call and
adds the ``engine``, its settings and ``time_s`` (the whole call); an engine that times
itself keeps its own seconds as ``solve_s`` (QBF engines: the solver alone; ``tsume``: the
search alone, without the answer extraction). It also adds the call's CPU seconds
``cpu_s`` (the solvers' own among them as ``solver_cpu_s``) and peak resident ``peak_mb``
by the kernel's accounting (:mod:`tsumeqbf.usage`); option ``cpu_limit`` bounds those CPU
seconds (``unknown`` past it, the kernel's RLIMIT_CPU). Each engine's package is imported
by its loader, a function of a few lines beside :data:`ENGINES`, when the engine is first
asked for, so that ``brute`` never pays for the QBF or df-pn packages; a new engine is a
loader and a line in :data:`ENGINES` (docs/layout.md shows one).

:data:`ENGINES` is the one list of engines that the command line and the experiment
configurations read; its QBF solvers are :data:`tsumeqbf.solvers.SOLVERS`, which also says
which of them certify a first move (the USI engine offers those). Layering: this module
stands above the packages that answer questions (``rules``, ``encoder``, ``solvers``,
``dfpn``), which never import it, since it imports them; what runs engines for a user
(``experiments``, ``usi``, ``batch``, ``cli``) does.

>>> from tsumeqbf.rules import Position
>>> answer = run_engine("brute", Position.from_sfen("2k/3/1GP b - 1", zone=2), 1)
>>> answer.status is Status.MATE, answer.first_move, answer.engine
(True, '2c1b', 'brute')
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field, fields
from typing import Callable, Mapping

from .limits import LimitReached, limits as bounded
from .rules import Position, TsumeError, check_n
from .settings import Settings
from .solvers.runner import SOLVERS
from .usage import cpu_limited, measured
from .values import Answer, Limits, Status

EngineFn = Callable[[Position, int, Limits, dict], Answer]


class UnknownEngine(TsumeError):
    pass


@dataclass(frozen=True)
class EngineSpec:
    #: the engine's function; a loader imports the engine's package only when it is asked
    #: for, so that ``brute`` never pays for the QBF or df-pn packages
    load: Callable[[], EngineFn]
    fixed: dict = field(default_factory=dict)  # options the engine always gets
    #: the limit of an experiment's [limits] that becomes this engine's option of that name:
    #: the QBF engines' memory, the searches' node count
    limit: str = "max_nodes"
    #: answers through a QBF solver (so its verdicts can be certified)
    qbf: bool = False
    #: the engine's options class (loaded as ``load`` is): its fields are the options it
    #: reads, besides :data:`RUN_OPTIONS`; every engine names one
    settings: Callable[[], type] | None = None


#: the options :func:`run_engine` reads of every engine's: its limits (numbers above 0)
#: and the question's form (switches)
RUN_LIMITS = ("cpu_limit", "memory_mb", "max_nodes")
RUN_SWITCHES = ("deepen", "no_hands")
RUN_OPTIONS = RUN_LIMITS + RUN_SWITCHES


def _brute_engine() -> EngineFn:
    return _brute


def _dfpn_engine() -> EngineFn:
    from .dfpn.engine import solve_mate
    return solve_mate


def _tsume_engine() -> EngineFn:
    from .dfpn.solve import solve_engine
    return solve_engine


def _qbf_engine() -> EngineFn:
    from .solvers.engine import solve_mate
    return solve_mate


def _portfolio_engine() -> EngineFn:
    from .solvers.portfolio import solve_mate
    return solve_mate


def _mate_settings() -> type:
    from .dfpn.engine import MateOptions
    return MateOptions


def _solve_settings() -> type:
    from .dfpn.options import SolveOptions
    return SolveOptions


def _qbf_settings() -> type:
    from .solvers.engine import QbfOptions
    return QbfOptions


def _portfolio_settings() -> type:
    from .solvers.portfolio import PortfolioOptions
    return PortfolioOptions


#: every engine by name, in the order the command line's help lists them
ENGINES: dict[str, EngineSpec] = {
    "brute": EngineSpec(_brute_engine, settings=lambda: BruteOptions),
    "dfpn": EngineSpec(_dfpn_engine, settings=_mate_settings),
    # unbounded df-pn: n is not a bound, the verdict says whether any mate exists
    "tsume": EngineSpec(_tsume_engine, settings=_solve_settings),
    **{solver: EngineSpec(_qbf_engine, {"solver": solver}, "memory_mb", qbf=True,
                          settings=_qbf_settings)
       for solver in SOLVERS},
    "qbf": EngineSpec(_qbf_engine, limit="memory_mb", qbf=True,  # --solver NAME or PATH
                      settings=_qbf_settings),
    # QBF configurations side by side, the first verdict wins (--members, --jobs)
    "portfolio": EngineSpec(_portfolio_engine, limit="memory_mb", qbf=True,
                            settings=_portfolio_settings),
}


def unknown_options(name: str, options) -> list[str]:
    """The keys of ``options`` that engine ``name`` does not read (a misspelt option
    would otherwise be carried, and named in a label, without effect).

    >>> unknown_options("depqbf", {"encoding": "compact", "certfy": True, "max_nodes": 9})
    ['certfy']
    >>> unknown_options("tsume", {"heuristics": "ABC", "all_moves": True})
    ['all_moves']
    """
    known = engine_options(name)
    return sorted(k for k in options if k not in known)


def engine_options(name: str) -> tuple[str, ...]:
    """Every option engine ``name`` reads, sorted: its settings' fields and the limits,
    but those it fixes (``depqbf``'s ``solver``: another would be ignored).

    >>> engine_options("brute")
    ('all_moves', 'cpu_limit', 'deepen', 'max_nodes', 'memory_mb', 'no_hands')
    >>> "solver" in engine_options("depqbf"), "solver" in engine_options("qbf")
    (False, True)
    """
    spec = ENGINES[name]
    return tuple(sorted(({f.name for f in fields(spec.settings())} | set(RUN_OPTIONS))
                        - set(spec.fixed)))


def option_problem(name: str, options: Mapping) -> str | None:
    """What is wrong with the values of engine ``name``'s ``options`` (a type, a choice,
    a limit not above 0, what its settings class refuses), else None: an experiment
    refuses them as it loads rather than failing each cell.

    >>> option_problem("brute", {"all_moves": "no"}), option_problem("dfpn", {"cpu_limit": -1})
    ("all_moves must be true or false, got 'no'", 'cpu_limit must be a number above 0, got -1')
    >>> option_problem("dfpn", {"backend": "fast"})
    "unknown dfpn backend 'fast'; choose one of auto, rules, native"
    """
    settings = ENGINES[name].settings()
    try:  # the class's own checks first: they say most
        settings.from_config(options)
    except (ValueError, TypeError) as exc:  # (TsumeError too: a ValueError)
        return str(exc)
    by_name = {f.name: f for f in fields(settings)}
    for key, value in options.items():
        if key in RUN_LIMITS:
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not 0 < value < math.inf):
                return f"{key} must be a number above 0, got {value!r}"
        elif key in RUN_SWITCHES:
            if not isinstance(value, bool):
                return f"{key} must be true or false, got {value!r}"
        elif key in by_name:
            f = by_name[key]
            choices, default = f.metadata.get("choices"), f.default
            if choices and value not in choices:
                return f"{key} must be one of {', '.join(map(str, choices))}, got {value!r}"
            if isinstance(default, bool) and not isinstance(value, bool):
                return f"{key} must be true or false, got {value!r}"
            if (type(default) in (int, float) and
                    (isinstance(value, bool) or not isinstance(value, (int, float)))):
                return f"{key} must be a number, got {value!r}"
            if isinstance(default, str) and not isinstance(value, str):
                return f"{key} must be a string, got {value!r}"
    return None


def engine_names() -> list[str]:
    return sorted(ENGINES)


def engines_limited_by(limit: str) -> tuple[str, ...]:
    """The engines that take ``limit`` (``memory_mb`` or ``max_nodes``) as an option.

    >>> engines_limited_by("max_nodes")
    ('brute', 'dfpn', 'tsume')
    """
    return tuple(name for name, spec in ENGINES.items() if spec.limit == limit)


def is_qbf_engine(name: str) -> bool:
    """Whether engine ``name`` answers through a QBF solver (and so can be certified).

    >>> is_qbf_engine("portfolio"), is_qbf_engine("dfpn")
    (True, False)
    """
    return name in ENGINES and ENGINES[name].qbf


def get_engine(name: str) -> tuple[EngineFn, dict]:
    """The engine function and its fixed options; UnknownEngine for a bad name."""
    if name not in ENGINES:
        raise UnknownEngine(f"unknown engine {name!r}; choose one of {', '.join(sorted(ENGINES))}")
    spec = ENGINES[name]
    try:
        return spec.load(), spec.fixed
    except ModuleNotFoundError as exc:
        raise UnknownEngine(f"engine {name!r} is not available in this build ({exc})") from None


def run_engine(name: str, pos: Position, n: int, timeout: float | None = None,
               options: dict | None = None, limits: Limits | None = None) -> Answer:
    """Answer Mate(pos, n) with engine ``name``; raises TsumeError on bad input.

    Option ``no_hands`` asks the question under the no-hands rules of RULES.md (every
    engine reads them from the position). Option ``deepen`` asks Mate(pos, 1), Mate(pos, 3),
    ... up to n within the one timeout and stops at the first mate: the answer is that
    question's, with ``mate_length`` the shortest mate and ``deepened`` the status and
    seconds of each question asked.

    ``limits`` are the question's when the caller already holds them (the USI engine's
    questions share one deadline); without them they are made here, ``timeout`` seconds
    from now, with options ``memory_mb`` and ``max_nodes``."""
    start = time.perf_counter()
    if not isinstance(pos, Position):
        raise TypeError(f"run_engine takes a Position (Position.from_sfen(...)), not "
                        f"{type(pos).__name__}")
    options = dict(options or {})
    if name in ENGINES:  # (an unknown name is get_engine's to say)
        unknown = unknown_options(name, options)
        if unknown:
            raise TsumeError(f"engine {name!r} has no option {', '.join(unknown)}; it reads "
                             f"{', '.join(engine_options(name))}")
        problem = option_problem(name, options)
        if problem:
            raise TsumeError(f"engine {name!r}: {problem}")
    if limits is None:  # from now: loading the engine is on the question's clock
        limits = Limits.within(timeout, options.get("memory_mb"), options.get("max_nodes"))
    check_n(n)
    if options.get("no_hands") and not pos.no_hands:
        pos = pos.with_no_hands()
    pos.validate_question()
    with measured() as used, cpu_limited(options.pop("cpu_limit", None)):
        fn, fixed = get_engine(name)
        options.update(fixed)
        if options.pop("deepen", False):
            answer = _deepening(fn, pos, n, limits, options)
        else:
            answer = _within_memory(fn, pos, n, limits, options)
    # the engine's own clock (tsume: the search alone, not the answer extraction after it)
    own = answer.timings.solve_s if answer.timings.solve_s is not None else answer.timings.time_s
    return answer.replace(engine=name, settings=options, timings={
        **used.row(), "solve_s": own, "time_s": round(time.perf_counter() - start, 6)})


def _deepening(fn: EngineFn, pos: Position, n: int, limits: Limits,
               options: dict) -> Answer:
    """The first of Mate(pos, 1), Mate(pos, 3), ..., Mate(pos, n) that is a mate, or the
    last answer (no mate within n, or the first question that was not decided), every
    question within the one deadline."""
    asked = []
    for k in range(1, n + 1, 2):
        start = time.monotonic()
        answer = _within_memory(fn, pos, k, limits, options)
        asked.append({"n": k, "status": answer.status.value,
                      "time_s": round(time.monotonic() - start, 6)})
        if answer.status is not Status.NOMATE:
            break
    answer = answer.with_facts(deepened=asked)
    if answer.status is Status.MATE:
        answer = answer.with_facts(mate_length=asked[-1]["n"])
    return answer


def _within_memory(fn: EngineFn, pos: Position, n: int, limits: Limits,
                   options: dict) -> Answer:
    """``fn``'s answer with the memory limits in force that searches read (``memory_mb``
    and the machine's reserve; a QBF engine sets its own around encoding)."""
    try:
        with bounded(memory_mb=limits.memory_mb, stage="searching") as budget:
            answer = fn(pos, n, limits, options)
    except LimitReached as exc:  # past them already as the engine starts
        return Answer.unknown(exc.reason)
    except RecursionError:  # the Python searches recurse a frame or two a ply
        return Answer.unknown(f"the search went deeper than Python's recursion allows "
                              f"({sys.getrecursionlimit()} frames) at n = {n}")
    if answer.status is Status.UNKNOWN and budget.reached:
        # a search's own message says only "limit reached"
        answer = answer.replace(error=budget.reached)
    return answer


@dataclass(frozen=True)
class BruteOptions(Settings):
    """How engine ``brute`` answers (:mod:`tsumeqbf.settings`); the answer carries it."""

    #: every mating first move (``mating_moves``), not only whether there is one
    all_moves: bool = True


def _brute(pos: Position, n: int, limits: Limits, options: dict) -> Answer:
    from .rules.reference import ReferenceSolver, SearchLimit

    settings = BruteOptions.from_config(options)
    solver = ReferenceSolver(max_nodes=limits.max_nodes, deadline=limits.deadline)
    try:
        moves = solver.mating_moves(pos, n) if settings.all_moves else None
        mate = bool(moves) if moves is not None else solver.mate(pos, n)
    except SearchLimit as exc:
        return Answer.unknown(str(exc), facts={"nodes": solver.nodes, **settings.row()})
    if not moves:
        return Answer.decided(mate, facts={"nodes": solver.nodes, **settings.row()})
    return Answer.decided(mate, first_move=pos.usi(moves[0]), facts={
        "nodes": solver.nodes, **settings.row(), "mating_moves": [pos.usi(m) for m in moves]})
