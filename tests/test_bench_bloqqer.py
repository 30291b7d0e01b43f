"""The Bloqqer probe (python -m tsumeqbf.bench bloqqer): each kind of bad output is told
apart from a good one, and Bloqqer's own verdicts on small questions are the rules'."""

import argparse
import importlib.util

import pytest

from bench_refusal import refusal
from tsumeqbf.bench import bloqqer as bench
from tsumeqbf.rules import Position
from tsumeqbf.rules.reference import mate_within
from tsumeqbf.solvers.runner import is_installed

pytestmark = pytest.mark.skipif(not is_installed("depqbf"), reason="needs DepQBF")

FIG5 = "2k/3/1GP b - 1"  # mate in 1 with zone 2 (paper figure 5)
FIG6 = "1k1/3/PG1 b - 1"  # no mate in 1, mate in 3 (paper figure 6)


def _probe(tmp_path, sfen, n, timeout=30.0):
    args = argparse.Namespace(encoding="compact", timeout=timeout, keep=None)
    return bench.probe("q", Position.from_sfen(sfen, zone=2), n, args, ["depqbf"], str(tmp_path))


@pytest.mark.parametrize("child, sfen, n, outcome, after, note", [
    # a copy of the input: a valid formula that the solver answers as before
    ("import shutil, sys\nshutil.copy(sys.argv[1], sys.argv[2])\n", FIG6, 3, "ok", "/", ""),
    # "true" on a question without mate
    ("import sys\nsys.exit(10)\n", FIG6, 1, "WRONG", "decided true", ""),
    # a clause over a variable that no block quantifies
    ("import sys\nopen(sys.argv[2], 'w').write('p cnf 2 1\\ne 1 0\\n1 2 0\\n')\n", FIG5, 1,
     "INVALID", "invalid", "variable 2 is not quantified (p cnf 2 1;"),
    ("raise RuntimeError('boom')\n", FIG5, 1, "CRASH", "crash", "RuntimeError: boom"),
    ("import time\ntime.sleep(60)\n", FIG5, 1, "timeout", "timeout", "timeout"),
])
def test_outcomes_are_told_apart(monkeypatch, tmp_path, child, sfen, n, outcome, after, note):
    monkeypatch.setattr(bench, "CHILD", child)
    row = _probe(tmp_path, sfen, n, timeout=2.0)
    assert row["outcome"] == outcome, row
    assert after in row["after"] and note in row["note"]
    assert row["ref"] is mate_within(Position.from_sfen(sfen, zone=2), n)
    if outcome == "ok":
        assert row["after"] == f"{row['vars']}/{row['clauses']}"
    assert list(tmp_path.iterdir()) == []  # nothing left behind


def test_a_wrong_answer_to_an_invalid_output_is_said(monkeypatch, tmp_path):
    # FIG6 has a mate in 3; the clause 1 and -1 makes any solver that reads it say false
    monkeypatch.setattr(bench, "CHILD", "import sys\nopen(sys.argv[2], 'w').write("
                        "'p cnf 1 2\\ne 1 0\\n1 0\\n-1 0\\n0 0\\n')\n")
    row = _probe(tmp_path, FIG6, 3)
    assert row["outcome"] == "INVALID" and row["ref"] is True
    assert "depqbf answers it wrongly" in row["note"]


@pytest.mark.skipif(importlib.util.find_spec("pyqbf") is None, reason="needs pyqbf")
@pytest.mark.parametrize("sfen, n", [(FIG5, 1), (FIG6, 1), (FIG6, 3)])
def test_bloqqer_itself_on_small_questions(tmp_path, sfen, n):
    row = _probe(tmp_path, sfen, n)
    assert row["outcome"] == "ok", row
    assert row["ref"] is mate_within(Position.from_sfen(sfen, zone=2), n)


def test_the_summary_fails_on_any_wrong_or_invalid_output(capsys):
    def row(outcome, after="1/1"):
        return {"outcome": outcome, "after": after, "bloqqer_s": 0.5,
                "solve_s": {"depqbf": (0.2, 0.1, True, True)}}
    assert bench.summary([row("ok"), row("ok", "decided true")], "x", ["depqbf"]) == 0
    assert bench.summary([row("ok"), row("INVALID", "invalid")], "x", ["depqbf"]) == 1
    assert bench.summary([row("WRONG", "decided false")], "x", ["depqbf"]) == 1
    out = capsys.readouterr().out
    assert "on 2 formulas: 1 decided by Bloqqer itself, 1 preprocessed formulas written; " \
           "0 wrong verdicts, 0 invalid" in out


def test_bad_sizes_are_one_line_exit_2(capsys):
    assert refusal(capsys, "bloqqer", ["--sizes", "3"]).startswith("--sizes WxH,...")


def test_a_solver_wrong_on_the_original_formula_is_said(monkeypatch, tmp_path):
    from tsumeqbf.solvers.runner import SolverResult

    real = bench.run_solver

    def liar(name, path, **kw):  # false on the original, the truth on Bloqqer's output
        if "bloqqer" in str(path):
            return real(name, path, **kw)
        return SolverResult(name, "false", 20, 0.0)
    monkeypatch.setattr(bench, "run_solver", liar)
    monkeypatch.setattr(bench, "CHILD", "import shutil, sys\nshutil.copy(sys.argv[1], sys.argv[2])\n")
    row = _probe(tmp_path, FIG6, 3)
    assert row["ref"] is True and row["outcome"] == "ok"
    assert row["note"] == "depqbf disagrees with the reference on the original formula"
