"""The formula as a circuit in QCIR-14 (closed prenex, ``#QCIR-G14``).

The encoder builds a circuit and writes it as CNF; QCIR keeps the circuit. Each AND gate
of the :class:`~tsumeqbf.encoder.formula.Formula` becomes an ``and`` gate over the same
inputs, each clause that is not a gate's definition an ``or`` gate, and the output is the
``and`` of those. Only the inputs (the quantified variables that the output depends on)
appear in the prefix; gates are functions of them. Guarded and one-way (polarity)
definitions are CNF devices that leave the formula's truth unchanged, so the circuit has
full gates.

>>> from tsumeqbf.encoder.formula import Formula
>>> f = Formula()
>>> x, y = f.var("x", 0), f.var("y", 1)
>>> f.add_clause([f.and_([x, y]), -x])
>>> print(qcir_text(f))
#QCIR-G14
exists(1)
forall(2)
output(5)
3 = and(1, 2)
4 = or(3, -1)
5 = and(4)
<BLANKLINE>
"""

from __future__ import annotations

from .formula import CHECK_EVERY, Formula, chunks

#: clauses gone through between two budget checks (each run is matched with its own slice
#: of the definition marks)
_CHUNK = CHECK_EVERY * 16


def circuit(f: Formula):
    """(prefix, gates, output, old_of), renumbered: inputs 1..m in prefix order, then the
    gates in an order where each comes after its inputs. ``gates`` holds (id, "and"|"or",
    lits); ``old_of`` maps the new number of an input or a formula gate to the formula's."""
    in_def = bytearray(len(f.clauses))
    inputs_of: dict[int, list[int]] = {}
    for g, (start, k) in f._defs.items():
        in_def[start:start + k + 1] = b"\1" * (k + 1)
        inputs_of[g] = [c[1] for c in f.clauses[start:start + k]]
    top = [c for k, chunk in enumerate(chunks(f.clauses, _CHUNK))
           for c, d in zip(chunk, in_def[k * _CHUNK:(k + 1) * _CHUNK]) if not d]
    used_gates, used_inputs = _reached(top, inputs_of)
    order = sorted(used_inputs, key=lambda v: (f.levels[v], v))
    new_of = {v: i + 1 for i, v in enumerate(order)}
    for g in sorted(used_gates):  # a gate's inputs are made before it: ids follow
        new_of[g] = len(new_of) + 1

    def lit(x: int) -> int:
        return new_of[x] if x > 0 else -new_of[-x]

    prefix = f.blocks(order, new_of, ("exists", "forall"))
    gates = [(new_of[g], "and", [lit(x) for x in inputs_of[g]]) for g in sorted(used_gates)]
    next_id = len(new_of) + 1
    outputs = []
    for clause in top:
        if len(clause) == 1:
            outputs.append(lit(clause[0]))
        else:  # an empty clause is an empty ``or``: false
            gates.append((next_id, "or", [lit(x) for x in clause]))
            outputs.append(next_id)
            next_id += 1
    out_id = next_id
    gates.append((out_id, "and", outputs))
    return prefix, gates, out_id, {new: old for old, new in new_of.items()}


def _reached(clauses: list[list[int]], inputs_of: dict[int, list[int]]) -> tuple[set, set]:
    """The gates and the input variables that the clauses depend on."""
    gates, inputs = set(), set()
    stack = [abs(x) for c in clauses for x in c]
    while stack:
        v = stack.pop()
        if v in gates or v in inputs:
            continue
        if v in inputs_of:
            gates.add(v)
            stack += [abs(x) for x in inputs_of[v]]
        else:
            inputs.add(v)
    return gates, inputs


def qcir_pieces(prefix, gates, comments=()):
    """QCIR-14 text in pieces (the prefix, then runs of gates; the last gate is the output)."""
    head = ["#QCIR-G14", *(f"# {line}" for text in comments for line in text.splitlines())]
    head += [f"{q}({', '.join(map(str, vs))})" for q, vs in prefix]
    head.append(f"output({gates[-1][0]})")
    yield "\n".join(head) + "\n"
    for chunk in chunks(gates):
        yield "".join(f"{g} = {op}({', '.join(map(str, lits))})\n" for g, op, lits in chunk)


def qcir_text(f: Formula) -> str:
    prefix, gates, _, _ = circuit(f)
    return "".join(qcir_pieces(prefix, gates, f.comments))
