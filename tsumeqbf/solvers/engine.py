"""The QBF engines: encode Mate(P, n), run a solver, certify a true verdict's first move.

A true verdict is certified by decoding the outermost block's assignment into the
attacker's first move and checking with the rules engine that it is a legal check. A
certificate that decodes to anything else is a disagreement between the encoder, the
solver and the rules: it is reported as an error, never hidden.

>>> from tsumeqbf.rules import Position
>>> r = solve_mate(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1, 30, {"solver": "depqbf"})
>>> r["status"], r["first_move"] in ("2c1b", "1c1b+")
('mate', True)
"""

from __future__ import annotations

import time

from ..encoder.formula import write_qdimacs
from ..encoder.shogi import ENCODINGS, encode
from ..rules import Position
from .runner import SOLVERS, SolverError, run_solver

#: solvers whose output carries the outermost block's assignment on a true verdict
CERTIFYING = {"depqbf", "rareqs", "caqe", "qute"}


def solve_mate(pos: Position, n: int, timeout: float | None, options: dict) -> dict:
    """Engine function (see tsumeqbf.engines): options ``solver``, ``encoding``,
    ``memory_mb``, ``used_kinds_only``."""
    solver = options.get("solver", "depqbf")
    encoding = options.get("encoding") or "compact"
    if encoding not in ENCODINGS:
        return _error(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    start = time.monotonic()
    enc = encode(pos, n, encoding, used_kinds_only=bool(options.get("used_kinds_only")))
    prefix, clauses, old_of_new = enc.formula.prefix_and_matrix()
    text = write_qdimacs(prefix, clauses, enc.formula.comments)
    num_vars = max((v for _, vs in prefix for v in vs), default=0)
    sizes = {"encoding": encoding, "vars": num_vars, "clauses": len(clauses),
             "blocks": len(prefix), "encode_s": round(enc.encode_s, 6)}
    remaining = None if timeout is None else max(0.01, timeout - (time.monotonic() - start))
    try:
        res = run_solver(solver, text, timeout=remaining, memory_mb=options.get("memory_mb"),
                         num_vars=num_vars)
    except SolverError as exc:
        return {**_error(str(exc)), **sizes}
    out = {**sizes, "solve_s": round(res.time_s, 6)}
    if res.status in ("unknown", "error"):
        return {**out, "status": res.status, "mate": None, "error": res.message}
    if res.status == "false":
        return {**out, "status": "nomate", "mate": False}
    out.update(status="mate", mate=True)
    if solver not in CERTIFYING and solver in SOLVERS:
        out["certificate"] = "none"  # this solver prints no assignment
        return out
    values = {old_of_new[v]: val for v, val in res.assignment.items() if v < len(old_of_new)}
    in_formula = set(old_of_new[1:])
    if any(b in in_formula and b not in values for b in enc.first_choice.bits):
        out["certificate"] = "missing"  # the solver left a first-move bit unassigned
        return out
    cand = enc.decode_first_move(values)
    move = cand.move() if cand is not None else None
    if move is None or move not in pos.checks():
        shown = pos.usi(move) if move is not None else "no candidate"
        return {**out, "status": "error", "mate": None, "solver_verdict": True,
                "error": f"disagreement: {solver} says mate but its certificate decodes to "
                         f"{shown}, which is not a legal check"}
    out["first_move"] = pos.usi(move)
    out["certificate"] = "checked"
    return out


def _error(message: str) -> dict:
    return {"status": "error", "mate": None, "error": message}
