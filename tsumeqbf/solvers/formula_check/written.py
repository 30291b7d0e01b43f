"""The formula as its file holds it: QDIMACS or QCIR written and read back, the QCIR gates
as clauses that define each gate both ways."""

from __future__ import annotations

from dataclasses import dataclass

from ...encoder.formula import QdimacsError, qdimacs_pieces, read_qdimacs
from ...encoder.qcir import circuit, qcir_pieces
from ...rules import TsumeError


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
    # new variables are numbered past the largest the formula uses, not past the problem
    # line's count, which may declare any number more (2^31 of them filled the memory)
    top = max((v for _, vs in prefix for v in vs), default=0)
    return Written("qdimacs", prefix, clauses, None, {c[0] for c in clauses if len(c) == 1}, top)


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
