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
literal is the guard), so for "mate" each gate's function is the encoder's definition of
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
from dataclasses import dataclass

from ..encoder.choice import MoveChoice, OneHotChoice
from ..encoder.formula import QdimacsError, qdimacs_pieces, read_qdimacs
from ..encoder.qcir import circuit, qcir_pieces
from ..encoder.registry import encode
from ..rules import Position, TsumeError
from ..rules.moves import drop_kind, is_drop, is_promotion, move_from, move_to
from ..rules.pieces import KING, PAWN, piece_code
from .certify import Answer, CertificateFailure, CertificateIncomplete, certify

#: lines of play (strategy nodes expanded into lines) before the check gives up
DEFAULT_MAX_LINES = 2_000_000
#: the SAT solver of PySAT that decides the check; with a deadline one that PySAT can
#: interrupt (its CaDiCaL builds cannot be: measured, a timer's interrupt raises)
SAT_SOLVER = "cadical153"
SAT_SOLVER_WITH_DEADLINE = "glucose4"


class CheckFailed(TsumeError):
    """The formula is not proven by the strategy: a line of play to investigate."""

    def __init__(self, message: str, line: list[str]):
        self.message, self.line = message, list(line)
        super().__init__(f"{message}; line {' '.join(line) or '(the root)'}")


class CheckUnknown(TsumeError):
    """No strategy to check with (the search ran out of nodes or time), or too large."""


@dataclass
class CheckResult:
    truth: bool
    fmt: str
    encoding: str
    sfen: str
    n: int
    strategy: str
    lines: int = 0
    nodes: int = 0
    clauses: int = 0
    seconds: float = 0.0
    certificate: object = None

    def line(self) -> str:
        return (f"proven {'true' if self.truth else 'false'}: {self.encoding}, {self.sfen} "
                f"n={self.n} ({self.fmt.upper() if self.fmt == 'qcir' else 'QDIMACS'}, "
                f"strategy by {self.strategy})")


# -- the file -------------------------------------------------------------------------------
def write_formula(enc, path: str) -> None:
    """Write ``enc`` as the ``encode`` command does: QCIR when ``path`` ends in .qcir."""
    if path.endswith(".qcir"):
        prefix, gates, _, _ = circuit(enc.formula)
        pieces = qcir_pieces(prefix, gates, enc.formula.comments)
    else:
        prefix, clauses, _ = enc.formula.prefix_and_matrix()
        pieces = qdimacs_pieces(prefix, clauses, enc.formula.comments)
    with open(path, "w") as fh:
        for piece in pieces:
            fh.write(piece)


@dataclass
class Written:
    """A formula as read from its file: the prefix, CNF clauses that hold exactly when
    the matrix does (``output`` is its literal: for QDIMACS ``None``, the clauses are the
    matrix), the top-level unit literals and the largest variable number."""
    fmt: str
    prefix: list
    clauses: list
    output: int | None
    units: set
    top: int

    def block_of(self) -> dict[int, int]:
        return {v: i for i, (_, vs) in enumerate(self.prefix) for v in vs}


def read_written(path: str) -> Written:
    try:
        with open(path) as fh:
            text = fh.read()
    except OSError as exc:
        raise TsumeError(f"cannot read {path}: {exc.strerror}") from None
    if text.startswith("#QCIR"):
        return _read_qcir(text, path)
    try:
        num_vars, prefix, clauses, _ = read_qdimacs(text)
    except QdimacsError as exc:
        raise TsumeError(f"{path}: {exc}") from None
    prefix = [("a" if q == "a" else "e", vs) for q, vs in prefix]
    return Written("qdimacs", prefix, clauses, None,
                   {c[0] for c in clauses if len(c) == 1}, num_vars)


def _read_qcir(text: str, path: str) -> Written:
    prefix, clauses, units = [], [], set()
    gates: dict[int, tuple[str, list[int]]] = {}
    output = None
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            if line.startswith(("exists(", "forall(")):
                q = "e" if line[0] == "e" else "a"
                vs = [int(x) for x in line[line.index("(") + 1:-1].split(",") if x.strip()]
                prefix.append((q, vs))
            elif line.startswith("output("):
                output = int(line[7:-1])
            else:
                g, rhs = line.split("=")
                op, args = rhs.strip().split("(", 1)
                lits = [int(x) for x in args.rstrip(")").split(",") if x.strip()]
                if op.strip() not in ("and", "or"):
                    raise ValueError(op)
                gates[int(g)] = (op.strip(), lits)
        except ValueError:
            raise TsumeError(f"{path}: line {no}: not QCIR-14 as the encoder writes it") from None
    if output is None or output not in gates:
        raise TsumeError(f"{path}: no output gate")
    for g, (op, lits) in gates.items():  # every gate defined both ways: a function
        if op == "and":
            clauses += [[-g, x] for x in lits]
            clauses.append([g] + [-x for x in lits])
        else:
            clauses += [[g, -x] for x in lits]
            clauses.append([-g] + lits)
    if gates[output][0] == "and":
        units = {x for x in gates[output][1] if abs(x) not in gates}
    top = max([abs(x) for c in clauses for x in c] + [v for _, vs in prefix for v in vs] + [0])
    return Written("qcir", prefix, clauses, output, units, top)


# -- moves as the values of the variables that choose them --------------------------------
def _cand_index(cands, pos: Position, m: int):
    for i, c in enumerate(cands):
        if c.move() == m and (c.frm < 0 or pos.board[c.frm] == c.code):
            return i
    return None


def choice_code(choice, pos: Position, m: int) -> dict | None:
    """The values (formula variable -> bool) with which ``choice`` chooses move ``m`` of
    ``pos``; None when it does not offer ``m``."""
    if isinstance(choice, (MoveChoice, OneHotChoice)):
        i = _cand_index(choice.cands, pos, m)
        if i is None:
            return None
        if isinstance(choice, OneHotChoice):
            return {b: k == i for k, b in enumerate(choice.bits)}
        return {b: bool(i >> j & 1) for j, b in enumerate(choice.bits)}
    if hasattr(choice, "src"):  # a lifted move: fields
        if is_drop(m):
            if drop_kind(m) not in choice.kinds:
                return None
            src = len(choice.origins) + choice.kinds.index(drop_kind(m))
        elif move_from(m) in choice._origin:
            src = choice._origin[move_from(m)]
        else:
            return None
        dst = choice._target.get(move_to(m))
        if dst is None or (is_promotion(m) and choice.promote is False):
            return None
        out = {b: bool(src >> j & 1) for j, b in enumerate(choice.src.bits)}
        out.update({b: bool(dst >> j & 1) for j, b in enumerate(choice.dst.bits)})
        if choice.promote is not False:
            out[choice.promote] = is_promotion(m)
        return out
    if hasattr(choice, "var"):  # the paper's (from, to, promote) variables
        if is_drop(m):
            return None
        key = (move_from(m), move_to(m), int(is_promotion(m)))
        if key not in choice.var:
            return None
        return {v: k == key for k, v in choice.var.items()}
    raise TypeError(f"unknown move choice {choice!r}")


def _pawn_drop(m: int) -> bool:
    return is_drop(m) and drop_kind(m) == PAWN


# -- the strategy ---------------------------------------------------------------------------
def strategy_ask(source: str, max_nodes: int | None, deadline: float | None):
    """``ask(pos, k) -> Answer`` of certify, from brute force (``reference``) or the Python
    df-pn (``dfpn``), both on the rules engine."""
    if source == "reference":
        from ..rules.reference import ReferenceSolver, SearchLimit

        solver = ReferenceSolver(max_nodes=max_nodes, deadline=deadline)

        def ask(pos, k):
            try:
                return Answer(solver.mate(pos, k))
            except SearchLimit as exc:
                return Answer(None, reason=str(exc))
        return ask
    if source == "dfpn":
        from ..dfpn.core import DfPn
        from ..dfpn.game import ShogiGame

        def ask(pos, k):
            res = DfPn(ShogiGame(pos.copy()), max_nodes=max_nodes, deadline=deadline).solve(k)
            if res.proven is None:
                return Answer(None, reason="df-pn ran out of nodes or time")
            return Answer(res.proven, res.best_move if res.proven else None)
        return ask
    raise TsumeError(f"unknown strategy source {source!r}; choose reference or dfpn")


class _Functions:
    """The decision lists: rows (condition literal, values) per choice, built while the
    strategy's lines are walked; conditions are extra SAT variables above the file's."""

    def __init__(self, f, num_of, quantified: set, top: int, max_lines: int):
        self.f, self.max_lines = f, max_lines
        # a variable the file does not quantify (universal reduction dropped it) is read
        # and set by nobody: the matrix does not mention it
        self.num_of = {v: x for v, x in num_of.items() if x in quantified}
        self.next_var = top + 1
        self.clauses: list[list[int]] = []
        self.true = self.new()
        self.clauses.append([self.true])
        self.rows: dict[str, list] = {}  # choice name -> [(condition, {file var: bool})]
        self.reads: dict[int, list[int]] = {self.true: []}  # condition -> file vars read
        self.lines = 0
        # the functions as a circuit (for the AIGER certificate): condition -> (parent,
        # literals); (variable, its conditions, the group's, default); constants; gates
        self.defs: dict[int, tuple[int, list[int]]] = {}
        self.funcs: list[tuple[int, list, list, bool]] = []
        self.consts: dict[int, bool] = {}
        self.gates: dict[int, list[int]] = {}

    def new(self) -> int:
        v = self.next_var
        self.next_var += 1
        return v

    def file_values(self, values: dict) -> dict[int, bool]:
        out = {}
        for v, b in values.items():
            fv = self.num_of.get(v)
            if fv is not None:
                out[fv] = b
        return out

    def add(self, name: str, cond: int, values: dict) -> None:
        self.rows.setdefault(name, []).append((cond, self.file_values(values)))

    def narrow(self, cond: int, values: dict) -> int:
        """A condition: ``cond`` and the variables having ``values``."""
        self.lines += 1
        if self.lines > self.max_lines:
            raise CheckUnknown(f"strategy too large (more than {self.max_lines} lines)")
        lits = [v if b else -v for v, b in self.file_values(values).items()]
        r = self.new()
        self.clauses += [[-r, cond]] + [[-r, x] for x in lits]
        self.clauses.append([r, -cond] + [-x for x in lits])
        self.reads[r] = self.reads[cond] + [abs(x) for x in lits]
        self.defs[r] = (cond, lits)
        return r


def _walk_mate(fn: _Functions, choices, pos, tree, t, n, cond, line) -> None:
    """Rows for the attacker's strategy below ``tree`` (ply t, odd) under ``cond``."""
    move = pos.parse_usi(tree["move"])
    choice = choices.get(f"m{t}")
    code = choice_code(choice, pos, move) if choice is not None else None
    if code is None:
        raise CheckFailed(f"the encoding does not offer the strategy's move "
                          f"{tree['move']} at ply {t}", line + [tree["move"]])
    fn.add(f"m{t}", cond, code)
    pos.push(move)
    try:
        witness = choices.get(f"w{t}")
        if witness is not None and _pawn_drop(move):
            for r in pos.legal_moves():
                values = choice_code(witness, pos, r)
                if values is not None:
                    fn.add(f"w{t}", cond, values)
                    break
        for usi, sub in tree.get("replies", {}).items():
            reply = pos.parse_usi(usi)
            dchoice = choices.get(f"m{t + 1}")
            values = choice_code(dchoice, pos, reply) if dchoice is not None else None
            if values is None:
                continue  # a reply the formula does not offer needs no answer
            pos.push(reply)
            try:
                _walk_mate(fn, choices, pos, sub, t + 2, n, fn.narrow(cond, values),
                           line + [tree["move"], usi])
            finally:
                pos.pop()
    finally:
        pos.pop()


def _walk_nomate(fn: _Functions, choices, pos, tree, t, n, cond, line) -> None:
    """Rows for the defender's strategy below ``tree`` (the attacker to move at ply t)."""
    for usi, entry in tree["checks"].items():
        check = pos.parse_usi(usi)
        choice = choices.get(f"m{t}")
        values = choice_code(choice, pos, check) if choice is not None else None
        if values is None:
            continue  # a check the formula does not offer needs no reply
        c = fn.narrow(cond, values)
        pos.push(check)
        try:
            if "reply" in entry:
                reply = pos.parse_usi(entry["reply"])
            else:  # the last ply: any legal reply
                reply = _first_defence(pos)
            dname = f"m{t + 1}"
            if dname in choices:
                code = choice_code(choices[dname], pos, reply)
                if code is None:
                    raise CheckFailed(f"the encoding does not offer the defender's reply "
                                      f"{pos.usi(reply)} at ply {t + 1}",
                                      line + [usi, pos.usi(reply)])
                fn.add(dname, c, code)
                _escape_rows(fn, choices.get(f"w{t + 1}"), pos, reply, c)
            if t == n:
                for name, w in choices.items():  # the expanded last ply's drop witnesses
                    if name.startswith(f"w{t + 1}_"):
                        drop = w.drops[0].move()
                        if drop in pos.legal_moves():
                            _escape_rows(fn, w, pos, drop, c, name)
            if "then" in entry:
                pos.push(reply)
                try:
                    _walk_nomate(fn, choices, pos, entry["then"], t + 2, n, c,
                                 line + [usi, entry["reply"]])
                finally:
                    pos.pop()
        finally:
            pos.pop()


def _first_defence(pos: Position) -> int:
    king = pos.kings[pos.turn]
    replies = pos.legal_moves()
    return min(replies, key=lambda r: (is_drop(r) or move_from(r) != king, r))


def _escape_rows(fn, witness, pos, reply, cond, name=None) -> None:
    """The defender names the attacker's escape after its pawn drop ``reply``."""
    if witness is None or not _pawn_drop(reply):
        return
    pos.push(reply)
    try:
        for m in pos.legal_moves():
            values = choice_code(witness, pos, m)
            if values is not None:
                fn.add(name or witness.name, cond, values)
                return
    finally:
        pos.pop()


# -- the check ------------------------------------------------------------------------------
def _numbering(enc, fmt: str) -> dict[int, int]:
    """In-memory variable -> its number in the file, as the writer numbers them."""
    if fmt == "qcir":
        _, _, _, old_of = circuit(enc.formula)
        return {old: new for new, old in old_of.items()}
    _, _, old_of_new = enc.formula.prefix_and_matrix()
    return {old: new for new, old in enumerate(old_of_new) if new and old}


def _amo_values(f, choice, num_of) -> dict:
    """For a one-hot attacker choice: index (None: no bit set) -> values of its at-most-one
    auxiliaries that satisfy PySAT's clauses (solved once per index)."""
    from pysat.solvers import Solver

    prefix = f"{choice.name}_amo"
    aux = {v for v, nm in enumerate(f.names) if nm.startswith(prefix)}
    if not aux:
        return {}
    scope = aux | set(choice.bits)
    bits = set(choice.bits)  # the at-least-one clause (the line's own) is not theirs
    clauses = [c for c in f.clauses if c and all(abs(x) in scope for x in c)
               and not all(x in bits for x in c)]
    out = {}
    with Solver(name="minisat22", bootstrap_with=clauses) as s:
        for i in [None, *range(len(choice.bits))]:
            assume = [b if k == i else -b for k, b in enumerate(choice.bits)]
            if s.solve(assumptions=assume):
                model = set(s.get_model())
                out[i] = {v: v in model for v in aux}
    return out


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
    if enc is None:
        enc = encode(pos, n, encoding, **(choices or {}))
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
    num_of = _numbering(enc, written.fmt)
    fn = _Functions(enc.formula, num_of, {v for _, vs in written.prefix for v in vs},
                    written.top, max_lines)
    choices_by_name = enc.formula.choices
    walk = pos.copy()
    if root.verdict:
        _walk_mate(fn, choices_by_name, walk, cert.tree, 1, n, fn.true, [])
    else:
        _walk_nomate(fn, choices_by_name, walk, cert.tree, 1, n, fn.true, [])
    clauses = _check_clauses(written, enc, fn, num_of, root.verdict)
    sat, model = _solve(clauses, deadline)
    if sat:
        line = _line_of(model, enc.formula, num_of, pos, n)
        raise CheckFailed(f"the formula {'fails' if root.verdict else 'holds'} against the "
                          f"{'mating' if root.verdict else 'refuting'} strategy", line)
    result = CheckResult(root.verdict, written.fmt, encoding, pos.sfen(), n, strategy,
                         fn.lines, cert.nodes, len(clauses), time.monotonic() - start, cert)
    result.functions, result.written = fn, written
    return result


def _solve(clauses: list, deadline: float | None):
    """(satisfiable, model) by PySAT's solver; CheckUnknown past the deadline."""
    import threading

    from pysat.solvers import Solver

    name = SAT_SOLVER if deadline is None else SAT_SOLVER_WITH_DEADLINE
    with Solver(name=name, bootstrap_with=clauses) as s:
        if deadline is None:
            sat = s.solve()
        else:
            timer = threading.Timer(max(0.0, deadline - time.monotonic()), s.interrupt)
            timer.start()
            try:
                sat = s.solve_limited(expect_interrupt=True)
            finally:
                timer.cancel()
            if sat is None:
                raise CheckUnknown("timeout in the SAT call")
        return sat, (s.get_model() if sat else None)


def _check_clauses(written: Written, enc, fn: _Functions, num_of, mate: bool) -> list:
    """The CNF whose unsatisfiability proves the verdict: the matrix (negated for mate) and
    the side's functions, each checked to read only earlier blocks of the other quantifier."""
    side = "e" if mate else "a"
    block = written.block_of()
    quant = {v: q for q, vs in written.prefix for v in vs}
    f = enc.formula
    out = [list(c) for c in fn.clauses]
    defined: set[int] = set()
    supp: dict[int, int] = {}  # defined existential -> the last universal block it reads
    groups = dict(fn.rows)
    if mate:  # one-hot attacker choices need their auxiliaries' default on every ply
        groups.update({name: [] for name, c in f.choices.items()
                       if isinstance(c, OneHotChoice) and name not in groups})
    for name, rows in groups.items():
        choice = f.choices[name]
        default: dict[int, bool] = {}
        if mate and isinstance(choice, OneHotChoice):  # its at-most-one auxiliaries
            amo = _amo_values(f, choice, num_of)
            if amo:
                default = fn.file_values(amo[None])
                rows = [(c, {**vals, **fn.file_values(amo[_onehot_index(choice, vals, num_of)])})
                        for c, vals in rows]
        group = [c for c, _ in rows]
        targets = sorted({v for _, vals in rows for v in vals} | set(default))
        for v in targets:
            if quant.get(v) != side:
                raise CheckFailed(f"variable {v} of {name} is not "
                                  f"{'existential' if mate else 'universal'} in the file", [])
            for c in group:
                if any(quant.get(x) == side or block[x] >= block[v] for x in fn.reads[c]):
                    raise CheckFailed(f"the function of variable {v} ({name}) would read a "
                                      f"variable not before it", [])
            supp[v] = max((block[x] for c in group for x in fn.reads[c]), default=-1)
            conds = [c for c, vals in rows if vals.get(v)]
            out += _decision_list(fn, v, conds, group, default.get(v, False))
            fn.funcs.append((v, conds, group, default.get(v, False)))
        defined.update(targets)
    if mate:
        out += _constants_and_gates(written, enc, num_of, defined, supp, fn)
    return out + _matrix(written, mate, fn.new)


def _matrix(written: Written, mate: bool, new) -> list:
    """Clauses that hold exactly when the matrix does (for ``mate``: when it fails);
    ``new()`` gives a fresh variable (a selector per clause of a negated QDIMACS matrix)."""
    if written.fmt == "qcir":
        return written.clauses + [[-written.output if mate else written.output]]
    if not mate:
        return written.clauses
    out, sel = [], []
    for c in written.clauses:  # not the matrix: some clause has every literal false
        sel.append(new())
        out += [[-sel[-1], -x] for x in c]
    return out + [sel]


def _decision_list(fn: _Functions, v: int, conds: list, group: list, default: bool) -> list:
    """v is true exactly under one of ``conds`` (exclusive conditions of the lines where
    the strategy sets it), or under none of ``group`` (every line) when ``default``."""
    if not default:
        return [[v, -c] for c in conds] + [[-v, *conds]]
    some = fn.new()
    return ([[-some, *group]] + [[some, -c] for c in group] + [[v, -c] for c in conds]
            + [[v, some], [-v, *conds, -some]])


def _onehot_index(choice, vals: dict, num_of) -> int | None:
    for k, b in enumerate(choice.bits):
        if vals.get(num_of.get(b)):
            return k
    return None


def _constants_and_gates(written: Written, enc, num_of, defined: set, supp: dict,
                         fn: _Functions) -> list:
    """Mate: every existential the strategy does not choose gets a function too: an
    outermost variable fixed by a unit clause of the file is that constant, a QDIMACS gate
    its encoder definition (an AND of its inputs: universals before it, existentials whose
    own functions read only universals before it), anything else false."""
    out = []
    block = written.block_of()
    quant = {v: q for q, vs in written.prefix for v in vs}
    first = set(written.prefix[0][1]) if written.prefix and written.prefix[0][0] == "e" else set()
    f = enc.formula
    gates = {}
    if written.fmt == "qdimacs":
        for g in sorted(f._defs):  # inputs are made before their gate
            fg, (start, k) = num_of.get(g), f._defs[g]
            ins = [c[1] for c in f.clauses[start:start + k]]
            lits = [num_of.get(abs(x)) for x in ins]
            if fg is None or fg in defined or None in lits:
                continue
            lits = [x if y > 0 else -x for x, y in zip(lits, ins)]
            reads = [block[abs(x)] if quant.get(abs(x)) == "a" else supp.get(abs(x), -1)
                     for x in lits]
            if quant.get(fg) != "e" or max(reads, default=-1) >= block[fg]:
                continue  # not a function of what is before it: left false
            gates[fg] = lits
            supp[fg] = max(reads, default=-1)
    for q, vs in written.prefix:
        if q != "e":
            continue
        for v in vs:
            if v in defined:
                continue
            if v in first and (v in written.units or -v in written.units):
                out.append([v if v in written.units else -v])
                fn.consts[v] = v in written.units
            elif v in gates:
                ins = fn.gates[v] = gates[v]
                out += [[-v, x] for x in ins] + [[v] + [-x for x in ins]]
            else:
                out.append([-v])
    return out


def _line_of(model, f, num_of, pos: Position, n: int) -> list[str]:
    """The line of play a counter-model chooses, followed while its codes are legal moves."""
    values = {v: v in set(x for x in model if x > 0) for v in range(1, len(model) + 1)}
    pos = pos.copy()
    line = []
    for t in range(1, n + 2):
        choice = f.choices.get(f"m{t}")
        if choice is None:
            break
        moves = pos.checks() if t % 2 else pos.legal_moves()
        chosen = None
        for m in moves:
            code = choice_code(choice, pos, m)
            if code and all(values.get(num_of.get(v), False) == b for v, b in code.items()
                            if num_of.get(v)):
                chosen = m
                break
        if chosen is None:
            line.append(f"(ply {t}: {_illegal_code(choice, values, num_of, pos, t % 2 == 1)})")
            break
        line.append(pos.usi(chosen))
        pos.push(chosen)
    return line


def _illegal_code(choice, values: dict, num_of: dict, pos: Position, attacker: bool) -> str:
    """What a code that no legal move has names: the candidate it decodes to, if any."""
    what = "check" if attacker else "reply"
    decode = getattr(choice, "decode", None)
    cand = decode({v: values.get(num_of.get(v), False) for v in choice.bits}) if decode else None
    move = getattr(cand, "move", None)
    if move is None:
        return f"a code that is no legal {what}"
    return f"{pos.usi(move())}, which is no legal {what}"


def write_certificate(result: CheckResult, path: str, pos: Position) -> None:
    """The checked strategy as JSON (the format of :class:`.certify.Certificate`)."""
    data = result.certificate.to_json(pos)
    data.update(formula_truth=result.truth, encoding=result.encoding, checked=result.fmt)
    from ..arguments import output

    with output(path) as fh:  # "-": standard output
        json.dump(data, fh, ensure_ascii=False, indent=1)
        fh.write("\n")


# -- the functions as an AIGER certificate --------------------------------------------------
def write_aiger(result: CheckResult, path: str) -> None:
    """The checked functions as an ASCII AIGER circuit (``aag``): its inputs are the
    variables of the file that the functions read (symbols ``i<k> <variable>``), its
    outputs one function per variable of the proving side in the file's prefix, every
    existential for a true formula (Skolem functions), every universal for a false one
    (Herbrand functions), in prefix order (symbols ``o<k> <variable>``); a variable no
    function sets is the constant false. :func:`check_aiger` checks such a file against
    the formula without the strategy or the encoder."""
    fn, written = result.functions, result.written
    side = "e" if result.truth else "a"
    quant = {v: q for q, vs in written.prefix for v in vs}
    inputs = sorted({abs(x) for _, lits in fn.defs.values() for x in lits}
                    | {abs(x) for lits in fn.gates.values() for x in lits
                       if quant.get(abs(x)) != side})
    lit = {v: 2 * (i + 1) for i, v in enumerate(inputs)}
    ands: list[tuple[int, int, int]] = []

    def and2(a: int, b: int) -> int:
        if a == 0 or b == 0 or a == b ^ 1:
            return 0
        if a == 1 or a == b:
            return b
        if b == 1:
            return a
        out = 2 * (len(inputs) + len(ands) + 1)
        ands.append((out, max(a, b), min(a, b)))
        return out

    def and_all(ls) -> int:
        out = 1
        for x in ls:
            out = and2(out, x)
        return out

    def of(x: int) -> int:
        base = lit.get(abs(x), 0)
        return base if x > 0 else base ^ 1

    cond = {fn.true: 1}
    for r in sorted(fn.defs):  # a condition is made after its parent
        parent, lits = fn.defs[r]
        cond[r] = and_all([cond[parent]] + [of(x) for x in lits])
    for v, conds, group, default in fn.funcs:
        some = and_all(cond[c] ^ 1 for c in conds) ^ 1
        if default:
            some = and2(some ^ 1, and_all(cond[c] ^ 1 for c in group)) ^ 1
        lit[v] = some
    for v, b in fn.consts.items():
        lit[v] = int(b)
    for v, ins in fn.gates.items():  # in the order they were defined: inputs first
        lit[v] = and_all(of(x) for x in ins)
    outputs = [v for q, vs in written.prefix if q == side for v in vs]
    lines = [f"aag {len(inputs) + len(ands)} {len(inputs)} 0 {len(outputs)} {len(ands)}"]
    lines += [str(2 * (i + 1)) for i in range(len(inputs))]
    lines += [str(lit.get(v, 0)) for v in outputs]
    lines += [f"{a} {b} {c}" for a, b, c in ands]
    lines += [f"i{k} {v}" for k, v in enumerate(inputs)]
    lines += [f"o{k} {v}" for k, v in enumerate(outputs)]
    lines += ["c", f"tsumeqbf strategy certificate: {'Skolem' if result.truth else 'Herbrand'} "
              f"functions; formula {result.encoding}, {result.sfen} n={result.n}, "
              f"{'true' if result.truth else 'false'}"]
    from ..arguments import output

    with output(path) as fh:  # "-": standard output
        fh.write("\n".join(lines) + "\n")


def check_aiger(formula_path: str, aiger_path: str) -> bool:
    """The truth value that the AIGER certificate proves for the formula (True: its
    outputs are Skolem functions of the existentials, False: Herbrand functions of the
    universals); CheckFailed when it proves nothing. Checked: every variable of the side
    is an output, each output reads only inputs of the other quantifier in earlier
    blocks of the prefix, and one SAT call (as :func:`check_file`'s) is unsatisfiable."""
    written = read_written(formula_path)
    try:
        with open(aiger_path) as fh:
            rows = fh.read().split("\n")
        _, m, i, latches, o, a = rows[0].split()
        m, i, o, a = int(m), int(i), int(o), int(a)
        body = [[int(x) for x in r.split()] for r in rows[1:1 + i + int(latches) + o + a]]
        symbols = dict(r.split(" ", 1) for r in rows[1 + i + o + a:] if r[:1] in ("i", "o")
                       and " " in r)
    except (OSError, ValueError) as exc:
        raise TsumeError(f"{aiger_path}: not an ASCII AIGER certificate ({exc})") from None
    if int(latches):
        raise TsumeError(f"{aiger_path}: a certificate has no latches")
    in_var = {body[k][0] >> 1: int(symbols[f"i{k}"]) for k in range(i)}
    out_of = {int(symbols[f"o{k}"]): body[i + k][0] for k in range(o)}
    quant = {v: q for q, vs in written.prefix for v in vs}
    block = written.block_of()
    comment = "\n".join(rows[rows.index("c") + 1:]) if "c" in rows else ""
    if "Skolem" not in comment and "Herbrand" not in comment:
        raise TsumeError(f"{aiger_path}: the comment does not say Skolem or Herbrand functions")
    side = "e" if "Skolem" in comment else "a"
    if any(quant.get(v) != side for v in out_of):
        raise CheckFailed("the certificate's outputs are not variables of its side", [])
    if set(out_of) != {v for v in quant if quant[v] == side}:
        raise CheckFailed("the certificate does not set every variable of its side", [])
    if any(quant.get(v) in (None, side) for v in in_var.values()):
        raise CheckFailed("the certificate reads a variable of its own side", [])
    last = {n: block[v] for n, v in in_var.items()}  # AIG node -> latest block it reads
    top = written.top
    true = top + m + 1
    clauses = [[true]]
    for lhs, r0, r1 in body[i + o:]:
        last[lhs >> 1] = max(last.get(r0 >> 1, -1), last.get(r1 >> 1, -1))
        g = top + (lhs >> 1)
        x, y = _aig_lit(r0, in_var, top, true), _aig_lit(r1, in_var, top, true)
        clauses += [[-g, x], [-g, y], [g, -x, -y]]
    for v, l in out_of.items():
        if last.get(l >> 1, -1) >= block[v]:
            raise CheckFailed(f"the function of variable {v} reads a variable not before it", [])
        x = _aig_lit(l, in_var, top, true)
        clauses += [[-v, x], [v, -x]]
    mate = side == "e"
    fresh = iter(range(true + 1, true + 2 + len(written.clauses)))
    clauses += _matrix(written, mate, lambda: next(fresh))
    sat, _ = _solve(clauses, None)
    if sat:
        raise CheckFailed("the certificate's functions do not prove the formula", [])
    return mate


def _aig_lit(lit: int, in_var: dict, top: int, true: int) -> int:
    """An AIG literal as a SAT literal: inputs are the file's variables, AND nodes above
    ``top``, the constants 0 and 1 the variable ``true`` negated or not."""
    node = lit >> 1
    v = in_var.get(node, top + node) if node else true
    if not node:
        return true if lit & 1 else -true
    return -v if lit & 1 else v
