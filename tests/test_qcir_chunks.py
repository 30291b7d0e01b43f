"""The QCIR writer keeps every clause of a formula longer than one run of the budget
checks (65,536 clauses): the clauses after the first run are matched with their own
definition marks, not the first run's."""

from tsumeqbf.encoder.formula import Formula
from tsumeqbf.encoder.qcir import _CHUNK, circuit


def test_every_clause_of_a_long_formula_is_in_the_circuit():
    f = Formula()
    xs = [f.var(f"x{i}", 0) for i in range(300)]
    ys = [f.var(f"y{i}", 1) for i in range(300)]
    gates = []
    while len(f.clauses) < _CHUNK + 10:  # the first run: gate definitions only
        i = len(gates)
        gates.append(f.and_([xs[i % 300], ys[i // 300], -ys[(i // 300 + 1) % 300]]))
    for g in gates:  # then a unit clause on each gate, the matrix proper
        f.assert_(-g)
    _, out_gates, out, old_of = circuit(f)
    new_of = {old: new for new, old in old_of.items()}
    output_lits = {x for g, op, lits in out_gates if g == out for x in lits}
    assert output_lits == {-new_of[g] for g in gates}
