"""The CNF of the check's SAT call: the matrix (negated for a mate) and the side's
functions as clauses, each function checked to read only earlier blocks of the other
quantifier; for a mate every other existential gets a function too (constants, gates)."""

from __future__ import annotations

from ...encoder.choice import OneHotChoice
from ...encoder.qcir import circuit
from .functions import Functions
from .result import CheckFailed
from .sat import sigint_stops
from .written import Written


def numbering(enc, fmt: str) -> dict[int, int]:
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
    with sigint_stops(), Solver(name="minisat22", bootstrap_with=clauses) as s:
        for i in [None, *range(len(choice.bits))]:
            assume = [b if k == i else -b for k, b in enumerate(choice.bits)]
            if s.solve(assumptions=assume):
                model = set(s.get_model())
                out[i] = {v: v in model for v in aux}
    return out


def check_clauses(written: Written, enc, fn: Functions, num_of, mate: bool) -> list:
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
    return out + matrix_clauses(written, mate, fn.new)


def matrix_clauses(written: Written, mate: bool, new) -> list:
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


def _decision_list(fn: Functions, v: int, conds: list, group: list, default: bool) -> list:
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
                         fn: Functions) -> list:
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
