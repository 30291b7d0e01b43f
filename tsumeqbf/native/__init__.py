"""The native core: standard 9x9 move generation, bounded and unbounded df-pn, compiled
(C++17).

The extension ``_core`` is built from ``_core.cpp`` and the headers it includes (a part
each, one translation unit) by the package's ordinary build (``pip install``, ``make
setup``; in a checkout, ``python setup.py build_ext --inplace``). It
speaks our encodings (piece codes, squares, moves: :mod:`tsumeqbf.rules.moves`), so its
move lists are compared one for one with the rules engine's. It serves only the standard
board with hands (9 x 9, zone 3): :func:`unsupported` says why another question is not
its, and the Python search answers those. Without the built extension :func:`available`
is False and :func:`require` raises one clear TsumeError.

>>> from tsumeqbf.rules import Position
>>> pos = Position.from_sfen("7k1/9/7G1/9/9/9/9/9/9 b G 1")
>>> unsupported(pos) is None, unsupported(Position.from_sfen("2k/3/1GP b - 1", zone=2))
(True, 'the native core plays only standard 9x9 shogi (zone 3), not 3x3 with zone 2')
"""

from __future__ import annotations

import time

from ..limits import memory_exceeded
from ..rules import InvalidQuestion, TsumeError
from ..settings import TABLE_ENTRIES
from ..usage import NO_LIMIT_S
from ..values import check_seconds

#: the interface version this package calls (``_core.VERSION``): a core built from older
#: source lacks some of it and counts as not built
CORE_VERSION = 12

try:
    from . import _core
except ImportError as exc:  # not built: a source checkout without build_ext, or no compiler
    _core = None
    _why_missing = str(exc)
else:
    _why_missing = ""
    if getattr(_core, "VERSION", 1) != CORE_VERSION:
        _why_missing = (f"the built core is version {getattr(_core, 'VERSION', 1)}, its source "
                        f"{CORE_VERSION}: build it again")
        _core = None


def available() -> bool:
    """Whether the compiled core is importable."""
    return _core is not None


def require():
    """The compiled module, or TsumeError saying how to build it."""
    if _core is None:
        raise TsumeError("the native core is not built (pip install . builds it; in a checkout: "
                         f"python setup.py build_ext --inplace): {_why_missing}")
    return _core


#: the most pieces of a kind in hand the core's positions hold (a byte each), and its
#: unbounded search's (tsume_table.h: a count of MANY = 99 in a proof's hand means "any
#: number", so a hand holds fewer)
HAND_MAX = 255
UNBOUNDED_HAND_MAX = 98


#: the most plies a bounded question may ask of the core (it counts them in a C int)
MOST_PLIES = 2 ** 31 - 1


def node_limit(max_nodes: int | None) -> int:
    """A node limit as the core takes it: -1 for none (None, or more than it counts).

    >>> node_limit(None), node_limit(10), node_limit(10 ** 30)
    (-1, 10, -1)
    """
    return -1 if max_nodes is None or max_nodes >= 2 ** 63 else max_nodes


def time_limit(seconds: float | None) -> float | None:
    """A time limit in seconds as the core and Python's timed waits take it: None (no
    limit) for None and for NO_LIMIT_S (68 years) or more. The core's clock counts
    nanoseconds from boot in 64 bits, so a limit past about 292 years wrapped round and
    stopped its search at once ('solve --timeout 1e10'), and threading's waits refuse one
    past TIMEOUT_MAX (OverflowError).

    >>> time_limit(2.5), time_limit(None), time_limit(99999999999999 / 1000)
    (2.5, None, None)
    """
    return None if seconds is None or seconds >= NO_LIMIT_S else seconds


def core_seconds(timeout: float | None) -> float:
    """A time limit as the core's calls take it: -1.0 for none (None, or what
    :func:`time_limit` makes none). 0 is a limit with no time left, not none: the search
    stops at its first reading of the clock (every 256 nodes), as the Python search does
    at a deadline already passed, so that a caller counting down to a deadline may pass
    what is left; the CLI refuses 0 (omitting ``--timeout`` is no limit). ValueError for
    a negative or NaN limit, which the core would read as none.

    >>> core_seconds(None), core_seconds(0), core_seconds(2.5), core_seconds(1e10)
    (-1.0, 0.0, 2.5, -1.0)
    >>> core_seconds(-1)
    Traceback (most recent call last):
    ValueError: a time limit is 0 seconds or more (None: no limit), not -1
    """
    check_seconds(timeout)
    seconds = time_limit(timeout)
    return -1.0 if seconds is None else float(seconds)


def unsupported(pos, unbounded: bool = False, n: int | None = None) -> str | None:
    """Why the native core cannot answer a question on ``pos`` (of ``n`` plies, when
    bounded), or None when it can; ``unbounded``: with its unbounded search
    (:func:`tsume`), which holds fewer in hand.

    >>> from tsumeqbf.rules import Position
    >>> many = Position.from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G99P 1")
    >>> unsupported(many) is None, unsupported(many, unbounded=True)
    (True, "the native core's unbounded search holds at most 98 pieces of a kind in hand")
    """
    g = pos.geo
    if n is not None and n > MOST_PLIES:
        return f"the native core answers at most {MOST_PLIES:,} plies, not {n:,}"
    if (g.width, g.height, g.zone) != (9, 9, 3):
        return (f"the native core plays only standard 9x9 shogi (zone 3), not "
                f"{g.width}x{g.height} with zone {g.zone}")
    if pos.no_hands:
        return "the native core does not play the no-hands rules"
    most = UNBOUNDED_HAND_MAX if unbounded else HAND_MAX
    if any(n > most for hand in pos.hands for n in hand):
        search = "'s unbounded search" if unbounded else ""
        return f"the native core{search} holds at most {most} pieces of a kind in hand"
    return None


def check_supported(pos, unbounded: bool = False, n: int | None = None) -> None:
    """InvalidQuestion when the native core cannot answer on ``pos`` (``unbounded``: with
    its unbounded search; ``n``: the plies of a bounded question); TsumeError when it is
    not built."""
    why = unsupported(pos, unbounded, n)
    if why:
        raise InvalidQuestion(why)
    require()


def position_args(pos) -> tuple:
    """The position as the core takes it: board bytes, hand bytes, side to move."""
    return bytes(pos.board), bytes(pos.hands[0] + pos.hands[1]), pos.turn


def legal_moves(pos) -> list[int]:
    """Every legal move of the side to move, as :meth:`Position.legal_moves` lists them
    (the order may differ)."""
    check_supported(pos)
    return _core.legal_moves(*position_args(pos))


def checks(pos) -> list[int]:
    """The legal checks of the side to move, as :meth:`Position.checks` (order aside)."""
    check_supported(pos)
    return _core.checks(*position_args(pos))


def fold_counts(sfens: list[str]) -> list[tuple[int, int]]:
    """Per position, an SFEN of standard 9x9 shogi as cshogi writes it: the legal moves of
    the side to move and how many of them leave the other side no legal check that mates
    (ply n - 1 of the encoding ``dag-fold``, :mod:`tsumeqbf.encoder.dag`). ValueError on a
    text it cannot read; TsumeError when the core is not built.

    >>> fold_counts(["4k4/4G4/9/9/9/9/9/9/4K4 w - 1"])  # the king takes the gold: no mate
    [(1, 1)]
    """
    return require().fold_counts(sfens)


def fold_checks(sfens: list[str]) -> list[list[tuple[int, int]]]:
    """Per position (an SFEN as :func:`fold_counts` takes), for each legal check of the side
    to move in the core's order, the :func:`fold_counts` of the position after it: plies
    n - 2 and n - 1 of ``dag-fold`` in one call.

    >>> fold_checks(["4k4/9/4G4/9/9/9/9/9/4K4 b G 1"])[0].count((0, 0))  # G*5b mates
    1
    """
    return require().fold_checks(sfens)


def fold_wins(sfens: list[str]) -> list[int]:
    """Per position (an SFEN as :func:`fold_counts` takes), how many legal checks of the
    side to move lose no reply by :func:`fold_checks`' counts (every reply is answered by
    a check that mates): plies n - 2 and n - 1 of ``dag-fold-reduced``, each check's test
    ended by the first reply it loses.

    >>> fold_wins(["4k4/9/4G4/9/9/9/9/9/4K4 b G 1"])  # G*5b mates
    [1]
    """
    return require().fold_wins(sfens)


def mate(pos, n: int, max_nodes: int | None = None, timeout: float | None = None,
         tt_limit: int = 2_000_000, mobility: bool = True, group_drops: bool = True) -> dict:
    """Bounded df-pn, Mate(pos, n) exactly (the search of :class:`tsumeqbf.dfpn.DfPn` in
    the core): ``proven`` True/False, None at a node, time or memory limit (``reason``;
    ``timeout`` None is no limit, 0 none left: :func:`core_seconds`;
    the memory limits of :mod:`tsumeqbf.limits`, read every 4,096 nodes), the first
    move of a mate, nodes and seconds. A signal (Ctrl-C) stops it with KeyboardInterrupt.

    """
    check_supported(pos, n=n)
    start = time.perf_counter()
    proven, best, nodes, tt_hits, tt_size, reason = _core.mate(
        *position_args(pos), n, node_limit(max_nodes),
        core_seconds(timeout), tt_limit, mobility, group_drops,
        memory_exceeded, 4096)
    return {"proven": proven, "best_move": best, "nodes": nodes, "tt_hits": tt_hits,
            "tt_size": tt_size, "reason": reason, "time_s": time.perf_counter() - start}


def shortest_mate(pos, most: int, max_nodes: int | None = None, timeout: float | None = None,
                  tt_limit: int = 2_000_000, mobility: bool = True,
                  group_drops: bool = True, on_nodes=None) -> dict:
    """The shortest mate within ``most`` plies (odd), every ply counted: bounded df-pn asks
    Mate(pos, most) first, within half of ``max_nodes`` and of ``timeout``: no mate there
    is the whole answer (a line of ``most`` + 2 plies is then the shortest). When there is
    one, or that first question is still open, it asks Mate(pos, k) for k = 1, 3, ... with
    the same table (``most`` again last if it was open), then reads a line of the shortest
    length (the attacker keeping to the plies left, the defender taking the first reply
    whose shortest mate is the longest). ``found`` True with the ``line``, False when there
    is no mate within ``most``, None at a limit (``reason``); ``refuted``: the largest k
    shown to have no mate (-1: none). ``max_nodes`` and ``timeout`` are for the whole; ``on_nodes()`` is
    called every 4,096 nodes (progress; an exception it raises stops the search).

    >>> from tsumeqbf.rules import Position
    >>> pos = Position.from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1")
    >>> out = shortest_mate(pos, 5)
    >>> out["found"], [pos.usi(m) for m in out["line"]], out["refuted"]
    (True, ['G*5b'], -1)
    """
    check_supported(pos, n=most)
    start = time.perf_counter()

    def tick():  # (progress, then the memory limits mate() reads)
        on_nodes()
        return memory_exceeded()

    found, line, refuted, nodes, reason = _core.shortest(
        *position_args(pos), most, node_limit(max_nodes),
        core_seconds(timeout), tt_limit, mobility, group_drops,
        memory_exceeded if on_nodes is None else tick, 4096)
    return {"found": found, "line": line, "refuted": refuted, "nodes": nodes,
            "reason": reason, "time_s": time.perf_counter() - start}


def tsume(pos, max_nodes: int | None = None, timeout: float | None = None,
          tt_limit: int = TABLE_ENTRIES, mobility: bool = True, group_drops: bool = True,
          dag: bool = True, inherit: bool = True, group_interpositions: bool = False) -> dict:
    """Unbounded df-pn (:class:`tsumeqbf.dfpn.TsumeSearch` with its defaults: repetition a
    failure, path-dependent disproofs as twin entries, proof and disproof pieces, the DAG
    correction and inherited numbers, ``dag`` and ``inherit``; ``group_interpositions``
    as its option; none of Nagai's heuristics): ``proven`` True/False, None at a limit
    (``reason``), and for a mate a ``line`` read off the proofs (every ply counted, the
    attacker taking the check with the shallowest proof, the defender the reply with the
    deepest; not the answer convention of :func:`tsumeqbf.dfpn.solve_tsume`, which reads
    the core's tables through :mod:`tsumeqbf.dfpn.native_solve`, and to be replayed)."""
    check_supported(pos, unbounded=True)
    start = time.perf_counter()
    search = _core.Tsume(*position_args(pos), tt_limit, mobility, group_drops, dag, inherit,
                         group_interpositions)
    proven, reason = search.solve(node_limit(max_nodes), core_seconds(timeout))
    line = search.line() if proven else []
    nodes, tt_hits, tt_size, proofs, disproofs, twins = search.stats()
    return {"proven": proven, "line": line, "nodes": nodes, "tt_hits": tt_hits,
            "tt_size": tt_size, "proofs": proofs, "disproofs": disproofs, "twins": twins,
            "reason": reason, "time_s": time.perf_counter() - start}
