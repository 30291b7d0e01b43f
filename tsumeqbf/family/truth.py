"""A question's truth at each depth a family asks, established by two engines on the rules
engine's own move generator: brute force (:mod:`tsumeqbf.rules.reference`) and df-pn
(engine ``dfpn``, backend ``rules``). Not cshogi's df-pn: ``enumerated`` lists its moves
with cshogi, so an engine built on cshogi would not be independent of that encoding.

Both run under node limits and no clock, so that the same SPEC establishes the same
truths on any machine under any load (and so writes the same bytes). Where both answer
they must agree: a disagreement is a bug in one of them and stops the family.

The depths asked: the question's own n, and with ``pairs``, for a mate whose shortest
length d is known (every shorter depth known false), d itself and d - 2 (false), the
critical pair.

>>> from tsumeqbf.rules import Position
>>> t = establish(Position.from_sfen("2k/3/1GP b - 1", zone=2), 3, 1000, 1000)
>>> [(k, v.mate, v.proven_by) for k, v in sorted(t.items())]
[(1, True, ('brute-force', 'dfpn-rules')), (3, True, ('brute-force', 'dfpn-rules'))]
>>> shortest(t)
1
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engines import run_engine
from ..rules import Position, TsumeError
from ..values import Status

#: the names written in the header's ``proven-by`` and index.csv's ``proven_by``
BRUTE, DFPN, STRATEGY = "brute-force", "dfpn-rules", "strategy-check"


class Disagreement(TsumeError):
    """Brute force and df-pn answer one question differently: a bug to find."""


@dataclass(frozen=True)
class Truth:
    mate: bool
    proven_by: tuple  # the engines that established it, BRUTE and/or DFPN


def _answers(engine: str, pos: Position, depths, max_nodes: int) -> dict[int, bool]:
    """The answers of ``engine`` at ``depths`` (ascending), each its own search under
    the node limit, until its first mate or its first question the limit stops."""
    out: dict[int, bool] = {}
    if max_nodes <= 0:
        return out
    # (brute force stops at the first mating move; df-pn on the rules engine's moves)
    options = {"max_nodes": max_nodes,
               **({"backend": "rules"} if engine == "dfpn" else {"all_moves": False})}
    for k in depths:
        answer = run_engine(engine, pos, k, options=options)
        if not answer.status.decided:
            break
        out[k] = answer.verdict
        if out[k]:
            break
    return out


def establish(pos: Position, n: int, brute_max_nodes: int, dfpn_max_nodes: int,
              pairs: bool = True) -> dict[int, Truth]:
    """Truths at 1, 3, ... up to the first mate within ``n`` (with ``pairs``: every depth,
    so that the shortest mate is known) and at ``n``, as each engine reached them; the
    family writes the depths of :func:`asked_depths`. Raises :class:`Disagreement`."""
    depths = list(range(1, n + 1, 2)) if pairs else [n]
    found = {}
    for name, engine, nodes in ((BRUTE, "brute", brute_max_nodes),
                                (DFPN, "dfpn", dfpn_max_nodes)):
        found[name] = _answers(engine, pos, depths, nodes)
        if n not in found[name] and any(found[name].values()):
            # a mate shorter than n: n is asked as given, of each engine again
            found[name].update(_answers(engine, pos, [n], nodes))
    truths: dict[int, Truth] = {}
    for k in depths:
        said = {name: answers[k] for name, answers in found.items() if k in answers}
        if not said:
            continue
        if len(set(said.values())) > 1:
            raise Disagreement(f"{pos.sfen()} n={k}: brute force says "
                               f"{Status.of(said[BRUTE]).word}, df-pn (rules) "
                               f"{Status.of(said[DFPN]).word}")
        truths[k] = Truth(next(iter(said.values())), tuple(sorted(said)))
    return truths


def shortest(truths: dict[int, Truth]) -> int | None:
    """The shortest mate's length when every shorter depth is known false, else None."""
    for k in range(1, max(truths, default=0) + 1, 2):
        if k not in truths:
            return None
        if truths[k].mate:
            return k
    return None


def asked_depths(truths: dict[int, Truth], n: int, pairs: bool) -> list[int]:
    """The depths a family writes, known ones only: n, and with ``pairs`` the critical
    pair d, d - 2 of a mate of shortest length d.

    >>> t = {1: Truth(False, (BRUTE,)), 3: Truth(True, (BRUTE,)), 5: Truth(True, (BRUTE,))}
    >>> asked_depths(t, 5, True), asked_depths(t, 5, False)
    ([1, 3, 5], [5])
    """
    asked = {n} if n in truths else set()
    d = shortest(truths) if pairs else None
    if d is not None:
        asked.add(d)
        if d >= 3:
            asked.add(d - 2)
    return sorted(asked)
