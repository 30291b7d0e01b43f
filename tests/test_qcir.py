"""QCIR-14 output: the circuit, read back by pyqbf's QCIR parser and turned into prenex CNF
by pyqbf, has the reference's verdict under DepQBF.

Only ``compact`` and ``nested`` are checked this way: pyqbf's plain Tseitin form of the
``paper`` circuits loses what makes them solvable (one-way definitions, the defender's
fault evidence), and DepQBF does not decide even 3x3 mate-in-1 from it within 60 s."""

import io
import json

import pytest

from tsumeqbf.cli import main
from tsumeqbf.encoder.qcir import qcir_text
from tsumeqbf.encoder.registry import encode
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.reference import mate_within
from tsumeqbf.solvers import is_installed, run_solver

pytestmark = pytest.mark.skipif(not is_installed("depqbf"), reason="pyqbf solvers not installed")
pyqbf_formula = pytest.importorskip("pyqbf.formula")


def qcir_verdict(text: str) -> bool | None:
    pcnf = pyqbf_formula.QCIR(from_string=text).to_pcnf()
    out = io.StringIO()
    pcnf.to_fp(out)
    return run_solver("depqbf", out.getvalue(), timeout=60).verdict


@pytest.mark.parametrize("encoding, no_hands, plies", [
    ("compact", False, (1, 3)), ("nested", False, (1, 3)), ("compact", True, (1, 3))])
def test_the_circuit_has_the_reference_verdict(encoding, no_hands, plies):
    hands = {"attacker_hand": 0, "defender_hand": 0} if no_hands else {}
    qs = question_set(seed=9, count=10, sizes=[(3, 3)], plies=list(plies), **hands)
    verdicts = set()
    for q in qs:
        pos = Position.from_sfen(q["sfen"], zone=q["zone"], no_hands=no_hands)
        text = qcir_text(encode(pos, q["n"], encoding).formula)
        assert text.startswith("#QCIR-G14\n")
        truth = mate_within(pos, q["n"])
        assert qcir_verdict(text) is truth, (encoding, q["sfen"], q["n"])
        verdicts.add(truth)
    assert verdicts == {True, False}


def test_encode_format_qcir(tmp_path, capsys):
    out = tmp_path / "q.qcir"
    assert main(["encode", "1k1/3/PG1 b - 1", "--zone", "2", "-n", "3", "--format", "qcir",
                 "-o", str(out), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    text = out.read_text()
    assert stats["format"] == "qcir" and stats["gates"] == text.count(" = ")
    names = json.loads((tmp_path / "q.qcir.names.json").read_text())
    assert names["format"] == "qcir" and len(names["names"]) >= stats["vars"]
    assert qcir_verdict(text) is True  # figure 6: mate in 3
