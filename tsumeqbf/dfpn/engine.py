"""The ``dfpn`` engine for ``tsumeqbf mate`` and ``batch``: bounded df-pn on the rules engine.

>>> from tsumeqbf.rules import Position
>>> solve_mate(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1, None, {})["status"]
'mate'
"""

from __future__ import annotations

import time

from ..rules import Position
from .core import DfPn
from .game import ShogiGame


def solve_mate(pos: Position, n: int, timeout: float | None, options: dict) -> dict:
    deadline = time.monotonic() + timeout if timeout else None
    search = DfPn(ShogiGame(pos.copy()), max_nodes=options.get("max_nodes"), deadline=deadline)
    res = search.solve(n)
    out = {"nodes": res.nodes, "tt_hits": res.tt_hits, "tt_size": res.tt_size}
    if res.proven is None:
        return {**out, "status": "unknown", "mate": None, "error": "node or time limit reached"}
    out.update(status="mate" if res.proven else "nomate", mate=res.proven)
    if res.proven:
        out["first_move"] = pos.usi(res.best_move)
    return out
