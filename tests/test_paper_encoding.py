"""Encoding ``paper``: the founding paper's structure under its no-hands rules.

Its verdicts are checked against brute force in ``test_qbf_agreement.py``; here, its shape:
the formula is fixed by the board, the plies and the code set (the position enters only as
unit clauses), every ply has a variable per (from, to, promote), every state a variable per
(square, code), and the defender's universal variables never sit in a clause of their own.
"""

import json

import pytest

from tsumeqbf.cli import main
from tsumeqbf.encoder.formula import read_qdimacs
from tsumeqbf.encoder.paper import code_set, encode_paper
from tsumeqbf.rules import Position, TsumeError

FIG5, FIG6 = "2k/3/1GP b - 1", "1k1/3/PG1 b - 1"
FIG7, FIG8 = "+P1k1/l1pP/R2+B/2P1 b - 1", "Bgks/4/2+B1/S1+R1 b - 1"


def counts(sfen, zone, n, used=False):
    enc = encode_paper(Position.from_sfen(sfen, zone=zone, no_hands=True), n,
                       used_kinds_only=used)
    prefix, clauses, _ = enc.formula.prefix_and_matrix()
    return max(v for _, vs in prefix for v in vs), len(clauses), prefix


@pytest.mark.parametrize("a, b, zone, n", [(FIG5, FIG6, 2, 1), (FIG5, FIG6, 2, 3),
                                           (FIG7, FIG8, 3, 1)])
def test_the_formula_does_not_depend_on_the_position(a, b, zone, n):
    # as the paper's counts: figures 5 and 6 (and 7 and 8) share one formula size
    assert counts(a, zone, n)[:2] == counts(b, zone, n)[:2]


def test_the_prefix_is_the_papers():
    # ∃state0 ∃move1 ∃state1 ∀move2 ∃state2 ∃move3 ∃state3 ∀move4 ∃state4: the blocks
    # alternate five times for mate-in-3, the universal blocks hold exactly the defender's
    # 2·N·(N-1) move variables
    _, _, prefix = counts(FIG5, 2, 3)
    assert [q for q, _ in prefix] == ["e", "a", "e", "a", "e"]
    assert [len(vs) for q, vs in prefix if q == "a"] == [2 * 9 * 8, 2 * 9 * 8]


def test_every_state_and_move_is_grounded(tmp_path):
    out = tmp_path / "f.qdimacs"
    assert main(["encode", FIG5, "-n", "1", "--zone", "2", "--encoding", "paper", "--no-hands",
                 "--used-kinds-only", "-o", str(out)]) == 0
    # a gate built as an OR is named by its negation ("not_..."): the same variable
    names = {name.removeprefix("not_") for name in
             json.loads((tmp_path / "f.qdimacs.names.json").read_text())["names"].values()}
    codes = code_set(Position.from_sfen(FIG5, zone=2, no_hands=True), True)
    squares = [f"{f}{r}" for r in "abc" for f in "321"]
    for t in (0, 1):  # the initial state and the state after the attacker's move
        assert {f"s{t}_{s}_{p}" for s in squares for p in codes} <= names
    for t in (1, 2):  # both plies: every (from, to) pair with and without promotion
        assert {f"m{t}_{a}{b}{pr}" for a in squares for b in squares if a != b
                for pr in ("", "+")} <= names
    num_vars, prefix, clauses, _ = read_qdimacs(out.read_text())
    universal = {v for q, vs in prefix if q == "a" for v in vs}
    # a clause of universal literals alone would constrain the defender's choice
    assert not any(all(abs(x) in universal for x in c) for c in clauses)


def test_used_kinds_are_the_papers():
    # "unused piece kinds removed": the codes that occur or can arise; without hands only a
    # promotion makes a new one (figure 5: the attacker's pawn, gold and tokin, the
    # defender's king)
    assert code_set(Position.from_sfen(FIG5, zone=2, no_hands=True), True) == [1, 5, 9, 24]
    # a gote piece promotes into a gote code; a gold does not promote
    assert code_set(Position.from_sfen("2k/1s1/1G1 b - 1", zone=1, no_hands=True), True) == [
        5, 20, 24, 28]
    assert len(code_set(Position.from_sfen(FIG5, zone=2, no_hands=True), False)) == 28
    assert counts(FIG5, 2, 1, used=True)[0] < counts(FIG5, 2, 1)[0]


def test_full_rules_are_refused():
    with pytest.raises(TsumeError, match="--no-hands"):
        encode_paper(Position.from_sfen(FIG5, zone=2), 1)
