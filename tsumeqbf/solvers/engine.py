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
>>> r = solve_mate(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1, Limits.within(30),
...                {"solver": "depqbf"})
>>> r.status is Status.MATE, r.first_move in ("2c1b", "1c1b+")
(True, True)
>>> r = solve_mate(Position.from_sfen("2k/3/1GP b - 1", zone=2), 999, Limits.within(0.5),
...                {"solver": "depqbf"})
>>> r.status is Status.UNKNOWN, r.error
(True, 'timeout while encoding')
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from dataclasses import dataclass

from ..encoder.formula import qdimacs_pieces
from ..arguments import positive_float_or_default, positive_int_or_default
from ..encoder.registry import EncodingOptions, encode
from ..encoder.size import check_plies
from ..limits import LimitReached, check_budget, limits as bounded
from ..progress import held_phase, phase
from ..rules import Position
from ..settings import Settings, setting
from ..values import Answer, Certification, Limits, Status, Timings
from .certify import Answer as SubAnswer
from .certify import DEFAULT_MAX_NODES, CertificateFailure, CertificateIncomplete, certify
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
              "none without one)", type=positive_float_or_default)
    certify_max_nodes: int | None = setting(
        None, f"strategy nodes the certification checks at most (default {DEFAULT_MAX_NODES:,}); "
              "a larger strategy is reported not certified", flag="--certify-nodes",
        type=positive_int_or_default, metavar="N")
    strategy: str | None = None  # a file for the checked strategy tree (mate --strategy)


@dataclass(frozen=True)
class QbfOptions(CertifyOptions, EncodingOptions):
    """How a QBF engine answers (:mod:`tsumeqbf.settings`): the solver, the encoding with
    its move choices (:mod:`tsumeqbf.encoder.choice`), the certification; the answer
    carries it."""

    solver: str = setting("depqbf", "engine qbf: a solver name or the path of any QDIMACS "
                                    "solver executable (default: depqbf)")

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "solver", self.solver or "depqbf")


def solve_mate(pos: Position, n: int, limits: Limits, options: dict) -> Answer:
    """Engine function (see tsumeqbf.engines): the options of :class:`QbfOptions`;
    ``limits``' memory bounds the encoder and the solver."""
    check_plies(n)
    try:
        settings = QbfOptions.from_config(options)
        question = question_of(options, limits.memory_mb)
    except (ValueError, SolverError) as exc:
        return Answer.failed(str(exc))
    answer = _solve(pos, n, question, limits.deadline)
    # the answer carries its options (its own facts, such as the encoding, first)
    answer = answer.replace(facts={**settings.row(), **answer.facts})
    if settings.certify and answer.status.decided:
        answer = _certify(pos, n, answer, question, limits, settings)
    return answer


def question_of(options: dict, memory_mb: float | None = None) -> "_Question":
    """How :func:`solve_mate` asks its questions under ``options`` (solver, encoding and
    its choices) within ``memory_mb``, checked: ValueError or SolverError with one line
    for an unknown encoding or choice or a missing solver, before any encoding."""
    settings = QbfOptions.from_config(options)
    find_solver(settings.solver)
    return _Question(settings.solver, settings.encoding, settings.choices(), memory_mb)


def certify_answer(pos: Position, n: int, answer: Answer, limits: Limits,
                   options: dict) -> Answer:
    """``answer``, a decided answer to Mate(pos, n) found under ``options`` by another
    process (the portfolio's member), with ``certify``'s check: the same as
    :func:`solve_mate`'s, its sub-questions asked under ``options`` here."""
    return _certify(pos, n, answer, question_of(options, limits.memory_mb), limits,
                    QbfOptions.from_config(options))


@dataclass(frozen=True)
class _Question:
    """How every question of one engine call is asked: the root's and, when certifying,
    its sub-questions'."""
    solver: str
    encoding: str
    choices: dict  # encode's keyword arguments (encoding_options)
    memory_mb: int | None


@dataclass
class Written:
    """A question encoded and written to a QDIMACS file (``path``) for solvers to read:
    what a true verdict's certificate is decoded with (``enc``, whose formula is
    released once written, and ``old_of_new``), the formula's sizes, the encoder's
    seconds."""
    enc: object  # tsumeqbf.encoder.game.Encoded
    path: str
    sizes: dict
    old_of_new: list[int]
    timings: Timings


def write_question(pos: Position, n: int, limits: Limits, options: dict) -> Written | Answer:
    """Mate(pos, n) encoded and written as :func:`solve_mate` does under ``options``,
    once, for several solvers to read (the portfolio's members that share an encoding;
    :func:`solve_written` answers for each): the :class:`Written` question, whose file
    the caller removes, or the ``unknown`` answer past a limit."""
    check_plies(n)
    return _write(pos, n, question_of(options, limits.memory_mb), limits.deadline)


def solve_written(pos: Position, written: Written | Answer, limits: Limits,
                  options: dict) -> Answer:
    """:func:`solve_mate`'s answer (never certified) under ``options`` to the question
    :func:`write_question` wrote (or its answer past a limit), the file left in place."""
    settings = QbfOptions.from_config(options)
    answer = written
    if isinstance(written, Written):
        answer = _run(pos, written, question_of(options, limits.memory_mb), limits.deadline)
    return answer.replace(facts={**settings.row(), **answer.facts})


def _solve(pos: Position, n: int, q: _Question, deadline: float | None) -> Answer:
    """Encode Mate(pos, n), run the solver within the deadline, read its verdict."""
    written = _write(pos, n, q, deadline)
    if isinstance(written, Answer):
        return written
    try:
        return _run(pos, written, q, deadline)
    finally:
        os.unlink(written.path)


def _write(pos: Position, n: int, q: _Question, deadline: float | None) -> Written | Answer:
    """Encode Mate(pos, n) and write it within the deadline and ``q``'s memory; the
    encoder's formula is released once written (the solver should not share the machine
    with it)."""
    start = time.monotonic()
    try:
        with bounded(deadline, q.memory_mb) as budget:
            phase("encoding")
            enc = encode(pos, n, q.encoding, **q.choices)
            budget.stage = "writing the QDIMACS"
            phase("writing")
            path, sizes, old_of_new = _write_question(enc, q.encoding)
    except LimitReached as exc:
        return Answer.unknown(exc.reason, facts={"encoding": q.encoding},
                              timings=Timings(encode_s=round(time.monotonic() - start, 6)))
    try:
        enc.formula.release()
    except BaseException:
        os.unlink(path)
        raise
    return Written(enc, path, sizes, old_of_new, Timings(encode_s=round(enc.encode_s, 6)))


def _run(pos: Position, written: Written, q: _Question, deadline: float | None) -> Answer:
    """Run ``q``'s solver on the written question within the deadline, read its verdict."""
    phase("solving")
    try:
        res = run_solver(q.solver, written.path, timeout=Limits(deadline).seconds_left(),
                         memory_mb=q.memory_mb, num_vars=written.sizes["vars"])
    except SolverError as exc:
        return Answer.failed(str(exc), facts=written.sizes, timings=written.timings)
    return _verdict(pos, written.enc, q.solver, res, written.old_of_new, written.sizes,
                    dataclasses.replace(written.timings, solve_s=round(res.time_s, 6)))


def _certify(pos: Position, n: int, answer: Answer, q: _Question, limits: Limits,
             options: CertifyOptions) -> Answer:
    """``answer`` with its :class:`~tsumeqbf.values.Certification` (when it cannot
    finish, ``certify_reason`` says why); a strategy that fails the rules turns the
    answer into an error naming the node. Its seconds are ``certify_timeout``, by default
    the question's timeout again."""
    start = time.monotonic()
    limit = limits.seconds if options.certify_timeout is None else options.certify_timeout
    deadline = None if limit is None else start + limit

    def ask(sub: Position, k: int) -> SubAnswer:
        if deadline is not None and time.monotonic() >= deadline:
            return SubAnswer(None, reason=f"timeout after {limit:.1f} s")
        res = _solve(sub, k, q, deadline)
        if res.status is Status.ERROR and res.facts.get("solver_verdict") is not None:
            return SubAnswer(None, lie=res.error)
        if not res.status.decided:
            return SubAnswer(None, reason=res.error or "")
        return SubAnswer(res.verdict, sub.parse_usi(res.first_move) if res.first_move else None)

    root_move = pos.parse_usi(answer.first_move) if answer.first_move else None
    try:
        with held_phase("certifying"):  # its sub-questions' phases are not named apart
            cert = certify(pos, n, answer.verdict, ask, root_move,
                           options.certify_max_nodes or DEFAULT_MAX_NODES)
    except CertificateFailure as exc:
        return answer.replace(status=Status.ERROR, verdict=None,
                              error=f"certificate failed {exc}",
                              facts={"solver_verdict": answer.verdict},
                              certification=Certification(False, certify_s=_since(start)))
    except (CertificateIncomplete, LimitReached) as exc:
        # (a limit of the whole call, its CPU seconds or its memory, met while checking:
        # the verdict was found within it and stands, unchecked, as when a sub-question
        # meets the limit)
        return answer.replace(certification=Certification(
            False, certify_s=_since(start), certify_reason=exc.reason))
    if options.strategy:
        cert.write(options.strategy, pos)
    return answer.replace(facts={"certify_calls": cert.calls}, certification=Certification(
        True, cert.nodes, _since(start), main_line=cert.main_line or None))


def _since(start: float) -> float:
    return round(time.monotonic() - start, 6)


def _write_question(enc, encoding: str) -> tuple[str, dict, list[int]]:
    """Write the encoded question to a temporary QDIMACS file, piece by piece (no string
    the size of the file); returns its path, the formula's sizes and ``old_of_new``."""
    prefix, clauses, old_of_new = enc.formula.prefix_and_matrix()
    sizes = {"encoding": encoding, "vars": max((v for _, vs in prefix for v in vs), default=0),
             "clauses": len(clauses), "blocks": len(prefix)}
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


def _verdict(pos: Position, enc, solver: str, res, old_of_new, facts: dict,
             timings: Timings) -> Answer:
    """The engine's answer from the solver's result; a true verdict's certificate checked."""
    if res.status in (Status.UNKNOWN, Status.ERROR):
        return Answer(res.status, error=res.message, facts=facts, timings=timings)
    if res.status == "false":
        return Answer.decided(False, facts=facts, timings=timings)
    if solver not in CERTIFYING and solver in SOLVERS:
        # this solver prints no assignment
        return Answer.decided(True, facts={**facts, "certificate": "none"}, timings=timings)
    values = {old_of_new[v]: val for v, val in res.assignment.items() if v < len(old_of_new)}
    in_formula = set(old_of_new[1:])
    if any(b in in_formula and b not in values for b in enc.first_choice.bits):
        # the solver left a first-move bit unassigned
        return Answer.decided(True, facts={**facts, "certificate": "missing"}, timings=timings)
    cand = enc.decode_first_move(values)
    move = cand.move() if cand is not None else None
    if move is None or move not in pos.checks():
        shown = pos.usi(move) if move is not None else "no candidate"
        return Answer.failed(f"disagreement: {solver} says mate but its certificate decodes "
                             f"to {shown}, which is not a legal check",
                             facts={**facts, "solver_verdict": True}, timings=timings)
    return Answer.decided(True, first_move=pos.usi(move),
                          facts={**facts, "certificate": "checked"}, timings=timings)
