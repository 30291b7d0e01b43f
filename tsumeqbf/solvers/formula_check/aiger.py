"""The checked functions as an AIGER certificate, and the check of such a certificate
against the formula alone (neither the strategy nor the encoder)."""

from __future__ import annotations

from ...rules import TsumeError
from .clauses import matrix_clauses
from .result import CheckFailed, CheckResult
from .sat import solve_cnf
from .written import read_written


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
    from ...arguments import output

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
    clauses += matrix_clauses(written, mate, lambda: next(fresh))
    sat, _ = solve_cnf(clauses, None)
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
