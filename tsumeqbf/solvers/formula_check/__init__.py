"""A written formula's truth value proven without a QBF solver, from an independent strategy.

A QBF ``Q1 X1 ... Qk Xk . M`` is true when every existential variable has a function of
the universals quantified before it (a Skolem function) under which ``M`` holds for every
universal assignment, and false when every universal variable has a function of the
existentials before it (a Herbrand function) under which ``M`` fails for every existential
assignment. Both are one SAT call once the functions are clauses:

- **mate** (true): ¬M ∧ (e = f(u) for every existential e) is unsatisfiable, every
  universal free;
- **no mate** (false): M ∧ (u = g(e) for every universal u) is unsatisfiable, every
  existential free.

The functions come from a strategy that brute force or the Python df-pn finds and the
rules engine replays (:func:`tsumeqbf.solvers.certify.certify`): a tree of the solver
side's moves, with every move of the other side that the rules engine lists. Each of the
strategy's moves becomes the values of the variables that choose it at its ply, under the
condition that the other side's earlier choices have the codes of the line that leads
there: a decision list whose default (every variable false) covers every other assignment,
illegal and out-of-range codes included. What else the side needs: the attacker's witness
reply to its pawn drop and the defender's named escape after its own (found by the rules
engine), the at-most-one auxiliaries of one-hot attacker choices (solved for each code),
the fixed initial-state variables (the file's unit clauses) and, in a QDIMACS file, each
gate by its definition (below). Any function is allowed: a wrong one makes the check fail,
never pass. What the check verifies is that each function reads only variables of the
other quantifier in earlier blocks of the file's own prefix.

The formula is the file: its prefix and its matrix (QDIMACS clauses, or the QCIR circuit
with every gate defined both ways). The encoder is run again in memory only to learn the
candidate lists that give codes their meaning and the numbering the writer gave the
variables; neither can make a wrong formula pass.

QCIR keeps the gates as gates: only the choice variables are quantified, and the circuit
defines the rest. A QDIMACS file holds the gates as existential variables whose
definitions may be guarded or one-way (a clause ``g ∨ ¬x ∨ ¬y ∨ off`` does not say which
literal is the guard), so for mate each gate's function is the encoder's definition of
it (g = AND of its inputs), read from the formula built in memory; for "no mate" the gates
are existentials and stay free.

>>> from tsumeqbf.rules import Position
>>> import tempfile, os
>>> from tsumeqbf.encoder.registry import encode
>>> pos = Position.from_sfen("2k/3/1GP b - 1", zone=2)
>>> path = os.path.join(tempfile.mkdtemp(), "f.qcir")
>>> write_formula(encode(pos, 1, "compact"), path)
>>> check_file(path, pos, 1, "compact").line()
'proven true: compact, 2k/3/1GP b - 1 n=1 (QCIR, strategy by reference)'
"""

from __future__ import annotations

import json
import time

from ...encoder.registry import encode
from ...encoder.size import check_plies
from ...limits import LimitReached, limits
from ...rules import Position
from ..certify import CertificateFailure, CertificateIncomplete, certify
from .aiger import check_aiger, write_aiger
from .clauses import check_clauses, numbering
from .codes import line_of, choice_code
from .functions import DEFAULT_MAX_LINES, Functions, walk_mate, walk_nomate, strategy_ask
from .result import CheckFailed, CheckResult, CheckUnknown
from .sat import SAT_SOLVER, SAT_SOLVER_WITH_DEADLINE, solve_cnf
from .written import Written, read_written, write_formula

__all__ = ["CheckFailed", "CheckResult", "CheckUnknown", "DEFAULT_MAX_LINES", "SAT_SOLVER",
           "SAT_SOLVER_WITH_DEADLINE", "Written", "check_aiger", "check_file", "choice_code",
           "read_written", "strategy_ask", "write_aiger", "write_certificate", "write_formula"]


def check_file(path: str, pos: Position, n: int, encoding: str, *, strategy: str = "reference",
               choices: dict | None = None, max_nodes: int | None = None,
               timeout: float | None = None, max_lines: int = DEFAULT_MAX_LINES,
               max_strategy_nodes: int = 200_000, enc=None) -> CheckResult:
    """Prove the truth value of the formula in ``path`` (QDIMACS or QCIR, written for
    Mate(pos, n) by ``encoding`` with the move-choice ``choices``) from the strategy of
    ``strategy``. Raises :class:`CheckFailed` (not proven: the line to investigate) or
    :class:`CheckUnknown`. ``enc``: the :class:`~tsumeqbf.encoder.game.Encoded` that wrote
    the file, when the caller has it (else the question is encoded again): only its
    candidate lists and numbering are used, never its clauses."""
    start = time.monotonic()
    deadline = None if timeout is None else start + timeout
    written = read_written(path)
    if enc is None:  # within the deadline and the machine's memory, as every encoding
        check_plies(n)
        try:
            with limits(deadline=deadline):
                enc = encode(pos, n, encoding, **(choices or {}))
        except LimitReached as exc:
            raise CheckUnknown(f"the question encoded again: {exc}") from None
    ask = strategy_ask(strategy, max_nodes, deadline)
    root = ask(pos.copy(), n)
    if root.verdict is None:
        raise CheckUnknown(f"no strategy: {root.reason}")
    try:
        cert = certify(pos, n, root.verdict, ask, root.move, max_nodes=max_strategy_nodes)
    except CertificateIncomplete as exc:
        raise CheckUnknown(f"no strategy: {exc.reason}") from None
    except CertificateFailure as exc:
        raise CheckFailed(f"the strategy fails the rules: {exc.message}", exc.line) from None
    num_of = numbering(enc, written.fmt)
    fn = Functions(enc.formula, num_of, {v for _, vs in written.prefix for v in vs},
                    written.top, max_lines)
    choices_by_name = enc.formula.choices
    walk = pos.copy()
    if root.verdict:
        walk_mate(fn, choices_by_name, walk, cert.tree, 1, n, fn.true, [])
    else:
        walk_nomate(fn, choices_by_name, walk, cert.tree, 1, n, fn.true, [])
    clauses = check_clauses(written, enc, fn, num_of, root.verdict)
    sat, model = solve_cnf(clauses, deadline)
    if sat:
        line = line_of(model, enc.formula, num_of, pos, n)
        raise CheckFailed(f"the formula {'fails' if root.verdict else 'holds'} against the "
                          f"{'mating' if root.verdict else 'refuting'} strategy", line)
    result = CheckResult(root.verdict, written.fmt, encoding, pos.sfen(), n, strategy,
                         fn.lines, cert.nodes, len(clauses), time.monotonic() - start, cert)
    result.functions, result.written = fn, written
    return result


def write_certificate(result: CheckResult, path: str, pos: Position) -> None:
    """The checked strategy as JSON (the format of :class:`.certify.Certificate`)."""
    data = result.certificate.to_json(pos)
    data.update(formula_truth=result.truth, encoding=result.encoding, checked=result.fmt)
    from ...arguments import output

    with output(path) as fh:  # "-": standard output
        json.dump(data, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
