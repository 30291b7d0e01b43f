"""The ``dfpn`` engine for ``tsumeqbf mate`` and ``batch``: bounded df-pn, Mate(P, n).

Option ``backend`` chooses the search: ``rules``, :class:`~.core.DfPn` in Python on the
rules engine, any board; ``native``, the same search compiled (:mod:`tsumeqbf.native`),
standard 9x9 with hands only, verified against brute force (tests/test_native.py);
``auto`` (the default), native where it can answer (built, standard 9x9 with hands), else
rules. Every answer names the backend that gave it.

>>> from tsumeqbf.rules import Position
>>> answer = solve_mate(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1, Limits(), {})
>>> answer.status is Status.MATE, answer.facts["backend"]
(True, 'rules')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..rules import Position, TsumeError
from ..settings import Settings, setting
from ..values import Answer, Limits, Status  # noqa: F401 (Status: the docstring's example)
from .core import DfPn
from .game import ShogiGame

#: the searches option ``backend`` chooses from (auto: the fastest that can answer)
BACKENDS = ("auto", "rules", "native")


@dataclass(frozen=True)
class MateOptions(Settings):
    """How engine ``dfpn`` answers (:mod:`tsumeqbf.settings`); the answer carries it."""

    backend: str = setting(
        "auto", "engine dfpn: its search in Python on the rules engine (rules) or compiled "
                "(native: standard 9x9 with hands only); auto (the default): native where "
                "it can answer, else rules", choices=BACKENDS)

    def __post_init__(self):
        if self.backend not in BACKENDS:
            raise TsumeError(f"unknown dfpn backend {self.backend!r}; choose one of "
                             f"{', '.join(BACKENDS)}")


def chosen_backend(pos: Position, settings: MateOptions, n: int | None = None) -> str:
    """The search that answers ``pos`` (to ``n`` plies) under ``settings``: its
    ``backend``, and for ``auto`` native where the core is built and answers the
    question, else rules."""
    if settings.backend != "auto":
        return settings.backend
    from .. import native

    return "native" if native.available() and native.unsupported(pos, n=n) is None else "rules"


def solve_mate(pos: Position, n: int, limits: Limits, options: dict) -> Answer:
    settings = MateOptions.from_config(options)
    # the answer names the one chosen
    settings = replace(settings, backend=chosen_backend(pos, settings, n))
    if settings.backend == "native":
        from .. import native

        res = native.mate(pos, n, max_nodes=limits.max_nodes, timeout=limits.seconds_left())
        return _answer(pos, res["proven"], res["best_move"], **settings.row(),
                       nodes=res["nodes"], tt_hits=res["tt_hits"], tt_size=res["tt_size"])
    search = DfPn(ShogiGame(pos.copy()), max_nodes=limits.max_nodes, deadline=limits.deadline)
    res = search.solve(n)
    return _answer(pos, res.proven, res.best_move, **settings.row(), nodes=res.nodes,
                   tt_hits=res.tt_hits, tt_size=res.tt_size)


def _answer(pos: Position, proven, best_move, **facts) -> Answer:
    if proven is None:
        return Answer.unknown("node or time limit reached", facts=facts)
    return Answer.decided(proven, first_move=pos.usi(best_move) if proven else None,
                          facts=facts)
