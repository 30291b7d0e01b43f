"""The QBF engines: encode Mate(P, n), run a solver, check its answer with the rules.

The engine's ``timeout`` and ``memory_mb`` bound the whole question: the encoder and the
QDIMACS writer run inside :func:`tsumeqbf.limits.limits` (the deadline, this
process's resident memory within ``memory_mb``, and always a reserve of the machine's
memory left available), and the solver gets the seconds that remain and ``memory_mb`` of
address space. Past a limit the answer is ``unknown`` with the reason (``timeout while
encoding``, ``memory limit while writing the QDIMACS``, ``timeout in the solver``...).

A true verdict's first move is always checked: the outermost block's assignment is
decoded into the attacker's first move, which the rules engine must find a legal check. A
certificate that decodes to anything else is a disagreement between the encoder, the
solver and the rules: it is reported as an error, never hidden. With option ``certify``
the whole strategy behind either verdict is checked (:mod:`tsumeqbf.solvers.certify`):
sub-questions of the positions reached are encoded and solved again, and every node is
judged by the rules.

>>> from tsumeqbf.rules import Position
>>> r = solve_mate(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1, 30, {"solver": "depqbf"})
>>> r["status"], r["first_move"] in ("2c1b", "1c1b+")
('mate', True)
>>> r = solve_mate(Position.from_sfen("2k/3/1GP b - 1", zone=2), 999, 0.5, {"solver": "depqbf"})
>>> r["status"], r["error"]
('unknown', 'timeout while encoding')
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass

from ..encoder.formula import qdimacs_pieces
from ..arguments import positive_float
from ..encoder.registry import EncodingOptions, encode
from ..encoder.size import check_plies
from ..limits import LimitReached, check_budget, limits
from ..progress import held_phase, phase
from ..rules import Position
from ..settings import Settings, setting
from .certify import (DEFAULT_MAX_NODES, Answer, CertificateFailure, CertificateIncomplete,
                      certify)
from .runner import SOLVERS, SolverError, certifying_solvers, find_solver, run_solver

#: solvers whose output carries the outermost block's assignment on a true verdict
CERTIFYING = set(certifying_solvers())


@dataclass(frozen=True)
class CertifyOptions(Settings):
    """Whether and how a QBF verdict is certified (:mod:`.certify`): the QBF engine's and
    the portfolio's."""

    certify: bool = setting(
        False, "QBF engines: check the solver side's whole strategy with the rules engine "
               "(sub-questions re-encoded and re-solved); a strategy that fails is an error "
               "naming the node")
    # seconds for the certification (None: the question's timeout again)
    certify_timeout: float | None = setting(
        None, "seconds for the certification (default: the question's --timeout again; "
              "none without one)", type=positive_float)
    certify_max_nodes: int | None = None  # strategy nodes checked at most (None: the default)
    strategy: str | None = None  # a file for the checked strategy tree (mate --strategy)


@dataclass(frozen=True)
class QbfOptions(EncodingOptions, CertifyOptions):
    """How a QBF engine answers (:mod:`tsumeqbf.settings`): the solver, the encoding with
    its move choices, the certification; the answer carries it."""

    solver: str = setting("depqbf", "engine qbf: a solver name or the path of any QDIMACS "
                                    "solver executable (default: depqbf)")

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "solver", self.solver or "depqbf")


def solve_mate(pos: Position, n: int, timeout: float | None, options: dict) -> dict:
    """Engine function (see tsumeqbf.engines): the options of :class:`QbfOptions`, and
    ``memory_mb``."""
    check_plies(n)
    try:
        settings = QbfOptions.from_config(options)
        question = question_of(options)
    except (ValueError, SolverError) as exc:
        return _error(str(exc))
    deadline = None if timeout is None else time.monotonic() + timeout
    result = _solve(pos, n, question, deadline)
    for name, value in settings.row().items():  # the answer carries its options
        result.setdefault(name, value)
    if settings.certify and result["status"] in ("mate", "nomate"):
        result.update(_certify(pos, n, result, question, timeout, settings))
    return result


def question_of(options: dict) -> "_Question":
    """How :func:`solve_mate` asks its questions under ``options`` (solver, encoding and
    its choices, memory), checked: ValueError or SolverError with one line for an unknown
    encoding or choice or a missing solver, before any encoding."""
    settings = QbfOptions.from_config(options)
    find_solver(settings.solver)
    return _Question(settings.solver, settings.encoding, settings.choices(),
                     options.get("memory_mb"))


def certify_answer(pos: Position, n: int, result: dict, timeout: float | None,
                   options: dict) -> dict:
    """What ``certify`` adds to ``result``, a decided answer to Mate(pos, n) found under
    ``options`` by another process (the portfolio's member): the same check as
    :func:`solve_mate`'s, its sub-questions asked under ``options`` here."""
    return _certify(pos, n, result, question_of(options), timeout,
                    QbfOptions.from_config(options))


@dataclass(frozen=True)
class _Question:
    """How every question of one engine call is asked: the root's and, when certifying,
    its sub-questions'."""
    solver: str
    encoding: str
    choices: dict  # encode's keyword arguments (encoding_options)
    memory_mb: int | None


def _solve(pos: Position, n: int, q: _Question, deadline: float | None) -> dict:
    """Encode Mate(pos, n), run the solver within the deadline, read its verdict."""
    start = time.monotonic()
    try:
        with limits(deadline, q.memory_mb) as budget:
            phase("encoding")
            enc = encode(pos, n, q.encoding, **q.choices)
            budget.stage = "writing the QDIMACS"
            phase("writing")
            path, sizes, old_of_new = _write_question(enc, q.encoding)
    except LimitReached as exc:
        return {"encoding": q.encoding, "encode_s": round(time.monotonic() - start, 6),
                "status": "unknown", "mate": None, "error": exc.reason}
    try:
        enc.formula.release()  # written out: the solver should not share the machine with it
        remaining = None if deadline is None else max(0.01, deadline - time.monotonic())
        phase("solving")
        res = run_solver(q.solver, path, timeout=remaining, memory_mb=q.memory_mb,
                         num_vars=sizes["vars"])
    except SolverError as exc:
        return {**_error(str(exc)), **sizes}
    finally:
        os.unlink(path)
    return _verdict(pos, enc, q.solver, res, old_of_new, {**sizes, "solve_s": round(res.time_s, 6)})


def _certify(pos: Position, n: int, result: dict, q: _Question, timeout: float | None,
             options: CertifyOptions) -> dict:
    """The fields a certification adds to the engine's answer: ``certified``,
    ``strategy_nodes``, ``certify_s`` and, when it cannot finish, ``certify_reason``; a
    strategy that fails the rules turns the answer into an error naming the node. Its
    seconds are ``certify_timeout``, by default the question's timeout again."""
    start = time.monotonic()
    limit = timeout if options.certify_timeout is None else options.certify_timeout
    deadline = None if limit is None else start + limit

    def ask(sub: Position, k: int) -> Answer:
        if deadline is not None and time.monotonic() >= deadline:
            return Answer(None, reason=f"timeout after {limit:.1f} s")
        res = _solve(sub, k, q, deadline)
        if res["status"] == "error" and res.get("solver_verdict") is not None:
            return Answer(None, lie=res["error"])
        if res["status"] in ("unknown", "error"):
            return Answer(None, reason=res.get("error", ""))
        return Answer(res["mate"], sub.parse_usi(res["first_move"]) if res.get("first_move")
                      else None)

    root_move = pos.parse_usi(result["first_move"]) if result.get("first_move") else None
    out = {"certified": False}
    try:
        with held_phase("certifying"):  # its sub-questions' phases are not named apart
            cert = certify(pos, n, result["mate"], ask, root_move,
                           options.certify_max_nodes or DEFAULT_MAX_NODES)
    except CertificateFailure as exc:
        out.update(status="error", mate=None, solver_verdict=result["mate"],
                   error=f"certificate failed {exc}")
    except CertificateIncomplete as exc:
        out["certify_reason"] = exc.reason
    else:
        out.update(certified=True, strategy_nodes=cert.nodes, certify_calls=cert.calls)
        if options.strategy:
            cert.write(options.strategy, pos)
        if cert.main_line:
            out["main_line"] = cert.main_line
    out["certify_s"] = round(time.monotonic() - start, 6)
    return out


def _write_question(enc, encoding: str) -> tuple[str, dict, list[int]]:
    """Write the encoded question to a temporary QDIMACS file, piece by piece (no string
    the size of the file); returns its path, the formula's sizes and ``old_of_new``."""
    prefix, clauses, old_of_new = enc.formula.prefix_and_matrix()
    sizes = {"encoding": encoding, "vars": max((v for _, vs in prefix for v in vs), default=0),
             "clauses": len(clauses), "blocks": len(prefix), "encode_s": round(enc.encode_s, 6)}
    fd, path = tempfile.mkstemp(suffix=".qdimacs", prefix="tsumeqbf-")
    try:
        with os.fdopen(fd, "w") as fh:
            for piece in qdimacs_pieces(prefix, clauses, enc.formula.comments):
                fh.write(piece)
        check_budget()  # the last piece may have taken the time that was left
    except BaseException:  # a limit, Ctrl-C or a full disk: no file left behind
        os.unlink(path)
        raise
    return path, sizes, old_of_new


def _verdict(pos: Position, enc, solver: str, res, old_of_new, out: dict) -> dict:
    """The engine's answer from the solver's result; a true verdict's certificate checked."""
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
