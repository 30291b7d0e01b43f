"""The formula as its file holds it: QDIMACS or QCIR written and read back, the QCIR gates
as clauses that define each gate both ways."""

from __future__ import annotations

import re
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
    """QCIR-14 in the cleansed form the encoder writes: every variable quantified once,
    every gate defined once before it is used, over quantified variables and earlier
    gates; anything else is refused (a second definition or a free variable would make
    it another formula than the one checked)."""
    prefix, clauses, units = [], [], set()
    gates: dict[int, tuple[str, list[int]]] = {}
    quantified: set[int] = set()
    output = None
    lines = text.splitlines()
    if not re.fullmatch(r"#QCIR-G14(\s+\d+)?", lines[0].strip()):
        raise TsumeError(f"{path}: line 1: not a QCIR-14 header ('#QCIR-G14')")
    for no, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            if line.startswith(("exists(", "forall(")):
                q = "e" if line[0] == "e" else "a"
                if gates or not line.endswith(")"):
                    raise ValueError(line)
                vs = [int(x) for x in line[line.index("(") + 1:-1].split(",") if x.strip()]
                again = next((v for v in vs if v <= 0 or v in quantified or vs.count(v) > 1), None)
                if again is not None:
                    raise TsumeError(f"{path}: line {no}: variable {again} quantified twice "
                                     f"(or not a variable)")
                quantified.update(vs)
                prefix.append((q, vs))
            elif line.startswith("output("):
                if output is not None or not line.endswith(")"):
                    raise ValueError(line)
                output = int(line[7:-1])
            else:
                g, rhs = line.split("=")
                op, args = rhs.strip().split("(", 1)
                if not args.endswith(")"):
                    raise ValueError(args)
                lits = [int(x) for x in args[:-1].split(",") if x.strip()]
                if op.strip() not in ("and", "or"):
                    raise ValueError(op)
                g = int(g)
                if g <= 0 or g in gates or g in quantified:
                    raise TsumeError(f"{path}: line {no}: gate {g} defined twice (or over a "
                                     f"variable)")
                unknown = next((x for x in lits if abs(x) not in quantified
                                and abs(x) not in gates), None)
                if unknown is not None:
                    raise TsumeError(f"{path}: line {no}: {abs(unknown)} is neither a "
                                     f"quantified variable nor a gate defined before")
                gates[g] = (op.strip(), lits)
        except TsumeError:
            raise
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
