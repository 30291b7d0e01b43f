"""The move-choice axis (``--attacker-moves``, ``--defender-moves``): every choice gives the
reference's verdict, and a true verdict's first move is one of the reference's mates."""

import pytest

from tsumeqbf.cli import main
from tsumeqbf.encoder.choice import ATTACKER_CHOICES, DEFENDER_CHOICES
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.reference import mating_moves
from tsumeqbf.solvers import is_installed
from tsumeqbf.solvers.engine import solve_mate
from tsumeqbf.values import Limits

pytestmark = pytest.mark.skipif(not is_installed("depqbf"), reason="pyqbf solvers not installed")

#: every attacker choice once, each beside a defender choice in turn
PAIRS = [(a, DEFENDER_CHOICES[i % len(DEFENDER_CHOICES)]) for i, a in enumerate(ATTACKER_CHOICES)]


@pytest.mark.parametrize("attacker, defender", PAIRS)
def test_every_move_choice_agrees_with_the_reference(attacker, defender):
    qs = question_set(seed=41, count=12, sizes=[(3, 3), (4, 4)], plies=[1, 3])
    verdicts = set()
    for q in qs:
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        want = {pos.usi(m) for m in mating_moves(pos, q["n"])}
        got = solve_mate(pos, q["n"], Limits.within(60), {"solver": "depqbf", "encoding": "compact",
                                           "attacker_moves": attacker, "defender_moves": defender})
        assert got.status in ("mate", "nomate"), got
        assert got.verdict == bool(want), (q["sfen"], q["n"])
        if got.verdict:
            assert got.first_move in want
        verdicts.add(got.verdict)
    assert verdicts == {True, False}


def test_one_hot_on_nested():
    # one-hot universals are hard for solvers (RAReQS, and DepQBF on paper-hands' large
    # candidate lists, time out where binary codes take a second): a timeout is allowed,
    # a wrong verdict never
    encoding = "nested"
    decided = 0
    for q in question_set(seed=43, count=8, sizes=[(3, 3)], plies=[1, 3]):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        got = solve_mate(pos, q["n"], Limits.within(20), {"solver": "depqbf", "encoding": encoding,
                                           "attacker_moves": "onehot-seqcounter",
                                           "defender_moves": "onehot-sequential"})
        assert got.status in ("mate", "nomate", "unknown"), got
        if got.status != "unknown":
            assert got.verdict == bool(mating_moves(pos, q["n"]))
            decided += 1
    assert decided >= 4


def test_a_choice_that_does_not_apply_is_one_line(capsys, tmp_path):
    out = tmp_path / "q.qdimacs"
    assert main(["encode", "1k1/3/PG1 b - 1", "--zone", "2", "-n", "1", "--no-hands",
                 "--encoding", "paper", "--attacker-moves", "onehot-ladder", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "does not apply" in err and "internal error" not in err and not out.exists()
    assert main(["mate", "1k1/3/PG1 b - 1", "--zone", "2", "-n", "1", "--engine", "depqbf",
                 "--encoding", "paper", "--no-hands", "--attacker-moves", "onehot-ladder"]) == 2
    assert "does not apply" in capsys.readouterr().err
    assert main(["mate", "1k1/3/PG1 b - 1", "-n", "1", "--engine", "depqbf",
                 "--defender-moves", "onehot-ladder"]) == 2
    got = solve_mate(Position.from_sfen("1k1/3/PG1 b - 1", zone=2), 1, Limits.within(10),
                     {"solver": "depqbf", "defender_moves": "onehot-totalizer"})
    assert got.status == "error" and "unknown defender moves choice" in got.error
