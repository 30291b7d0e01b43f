"""The formula model and QDIMACS writer/reader: valid QDIMACS 1.1 that round-trips and
keeps the truth value of the circuit it was built from (checked by brute force)."""


import pytest
from hypothesis import given, settings, strategies as st

from tsumeqbf.encoder.formula import Formula, QdimacsError, read_qdimacs


def qbf_value(prefix, clauses) -> bool:
    """Brute-force truth of a prenex CNF (tiny formulas only)."""
    order = [(q, v) for q, vs in prefix for v in vs]

    def go(i, assign):
        if i == len(order):
            return all(any(assign[abs(x)] == (x > 0) for x in c) for c in clauses)
        q, v = order[i]
        results = (go(i + 1, {**assign, v: b}) for b in (False, True))
        return any(results) if q == "e" else all(results)
    return go(0, {})


def circuit_value(f: Formula, ops, leaves, levels) -> bool:
    """Truth of the game the test built: variables by level, the asserted clauses over
    gates evaluated directly (not through the Tseitin clauses)."""
    order = sorted(range(len(leaves)), key=lambda i: levels[i])

    def value(node, assign):
        kind, args = node
        if kind == "leaf":
            return assign[args]
        vals = [value(a, assign) for a in args]
        return all(vals) if kind == "and" else any(vals)

    def go(i, assign):
        if i == len(order):
            return all(any(value(n, assign) != neg for n, neg in clause) for clause in ops)
        leaf = order[i]
        results = (go(i + 1, {**assign, leaf: b}) for b in (False, True))
        return any(results) if levels[leaf] % 2 == 0 else all(results)
    return go(0, {})


node = st.recursive(st.tuples(st.just("leaf"), st.integers(0, 4)),
                    lambda inner: st.tuples(st.sampled_from(["and", "or"]),
                                            st.lists(inner, min_size=1, max_size=3)),
                    max_leaves=6)


@settings(max_examples=150, deadline=None)
@given(levels=st.lists(st.integers(0, 3), min_size=5, max_size=5),
       clauses=st.lists(st.lists(st.tuples(node, st.booleans()), min_size=1, max_size=3),
                        min_size=1, max_size=4))
def test_written_formula_is_valid_and_keeps_its_truth(levels, clauses):
    f = Formula()
    xs = [f.var(f"x{i}", lvl) for i, lvl in enumerate(levels)]

    def build(n):
        kind, args = n
        if kind == "leaf":
            return xs[args]
        lits = [build(a) for a in args]
        return f.and_(lits) if kind == "and" else f.or_(lits)
    for clause in clauses:
        f.add_clause([-build(n) if negated else build(n) for n, negated in clause])
    text = f.to_qdimacs()
    num_vars, prefix, parsed, _ = read_qdimacs(text)  # raises on invalid QDIMACS
    written_prefix, written, _ = f.prefix_and_matrix()
    assert (prefix, parsed) == ([(q, vs) for q, vs in written_prefix], written)
    # the game read directly off the circuit, leaves on their levels
    want = circuit_value(f, clauses, xs, levels)
    if num_vars <= 16:
        assert qbf_value(prefix, parsed) == want


def test_constants_fold():
    f = Formula()
    x, y = f.var("x", 0), f.var("y", 0)
    assert f.and_([x, True]) == x and f.and_([x, -x]) is False and f.or_([x, True]) is True
    assert f.and_([x, y]) == f.and_([y, x, True])  # structural hashing
    assert f.or_([x, y]) == -f.and_([-x, -y])


def test_false_and_true_formulas_are_valid_qdimacs():
    f = Formula()
    f.add_clause([False])
    assert qbf_value(*read_qdimacs(f.to_qdimacs())[1:3]) is False
    g = Formula()
    g.add_clause([True, g.var("x", 1)])
    assert qbf_value(*read_qdimacs(g.to_qdimacs())[1:3]) is True


def test_innermost_universal_block_is_reduced():
    f = Formula()
    x, y = f.var("x", 0), f.var("y", 1)
    f.add_clause([x, y])
    prefix, clauses, _ = f.prefix_and_matrix()
    assert prefix == [("e", [1])] and clauses == [[1]]


@pytest.mark.parametrize("text, fragment", [
    ("p cnf 1 1\ne 1 0\n1\n", "not terminated"),
    ("p cnf 2 1\ne 1 0\ne 2 0\n1 2 0\n", "alternate"),
    ("p cnf 1 2\ne 1 0\n1 0\n", "2 clauses"),
    ("p cnf 2 1\ne 1 0\n1 2 0\n", "not quantified"),
    ("p cnf 1 1\ne 1 0\na 1 0\n1 0\n", "quantified twice"),
    ("p cnf 1 1\ne 0\n1 0\n", "empty"),
    ("p cnf 1 1\ne 1 0\n0\n", "empty clause"),
    ("e 1 0\n1 0\n", "before the problem line"),
])
def test_reader_rejects_invalid(text, fragment):
    with pytest.raises(QdimacsError, match=fragment):
        read_qdimacs(text)


def test_encoding_never_depends_on_object_ids(monkeypatch):
    # Regression: the rule memo once keyed states by id(); a freed state's id reused by a
    # new one returned stale gates (a wrong "mate" on this very position, seen only in
    # long-running processes). With ids forced to collide the formula must not change.
    from tsumeqbf.encoder import facts, game, registry, states
    from tsumeqbf.encoder.formula import write_qdimacs
    from tsumeqbf.rules import Position

    def text(pos, n):
        enc = registry.encode(pos, n, "compact")
        prefix, clauses, _ = enc.formula.prefix_and_matrix()
        return write_qdimacs(prefix, clauses, enc.formula.comments)

    for sfen, n in (("4k4/9/5+R3/9/9/9/9/8N/K8 b Pr 1", 1), ("2k/3/1GP b P 1", 3)):
        pos = Position.from_sfen(sfen)
        before = text(pos, n)
        for module in (facts, game, states):
            monkeypatch.setattr(module, "id", lambda obj: 0, raising=False)
        assert text(pos, n) == before
        monkeypatch.undo()
