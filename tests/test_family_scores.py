"""`tsumeqbf family-score DIR`: the QBF solvers scored on a written family against its
proven truths; a lying solver counted wrong and named; an interrupted run resumed without
losing or repeating a cell; other bytes than the index's refused in one line."""

import csv
import json
from pathlib import Path

import pytest

from tsumeqbf.cli import main
import tsumeqbf.family.scores as scores
from tsumeqbf.solvers import is_installed
from tsumeqbf.solvers.runner import SOLVERS, SolverSpec

pytestmark = pytest.mark.skipif(not (is_installed("depqbf") and is_installed("qute")),
                                reason="pyqbf solvers not installed")

SPEC = """
encodings = ["compact"]

[[questions]]
file = "cases.jsonl"
"""
#: figure 6 of the paper: mate in 3, none in 1 (the pair writes both)
FIG6 = {"id": "fig6", "sfen": "1k1/3/PG1 b - 1", "n": 3, "zone": 2}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("scores")
    (tmp / "cases.jsonl").write_text(json.dumps(FIG6) + "\n")
    (tmp / "spec.toml").write_text(SPEC)
    assert main(["family", str(tmp / "spec.toml"), "-o", str(tmp / "out"), "--quiet"]) == 0
    return tmp / "out"


def rows_of(path: Path) -> list[dict]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_each_solver_scored_on_the_formats_it_reads(written, tmp_path, capsys):
    out = tmp_path / "s.csv"
    assert main(["family-score", str(written), "--csv", str(out), "--solvers", "depqbf,qute",
                 "--quiet"]) == 0
    rows = rows_of(out)
    # 2 formulas (n=1 false, n=3 true) x (depqbf on QDIMACS; qute on QDIMACS and QCIR)
    assert sorted((r["n"], r["solver"], r["format"]) for r in rows) == [
        ("1", "depqbf", "qdimacs"), ("1", "qute", "qcir"), ("1", "qute", "qdimacs"),
        ("3", "depqbf", "qdimacs"), ("3", "qute", "qcir"), ("3", "qute", "qdimacs")]
    for r in rows:
        assert r["status"] == r["truth"] and r["decided"] == "1" and r["wrong"] == "0"
        assert r["cpu_limit"] == "60" and float(r["cpu_s"]) >= 0 and r["encoder_version"]
        assert r["solver_version"] and r["commit"] is not None and r["cpu_model"]
        assert r["command"].startswith(f"tsumeqbf family-score {written} --csv {out}")
    md = (tmp_path / "s.md").read_text()
    assert "| qute (qcir) |" in md and "Wrong answers: 0." in md and "6 cells of 6" in md
    assert capsys.readouterr().out.startswith(f"6 cells of 6 scored in {out}; 0 wrong")


def test_a_solver_that_lies_is_counted_wrong_and_named(written, tmp_path, monkeypatch):
    liar = tmp_path / "liar"
    liar.write_text("#!/bin/sh\nexit 10\n")  # says true to everything
    liar.chmod(0o755)
    monkeypatch.setitem(SOLVERS, "depqbf", SolverSpec("depqbf", (str(liar),)))
    out = tmp_path / "s.csv"
    assert main(["family-score", str(written), "--csv", str(out), "--solvers", "depqbf",
                 "--quiet"]) == 0
    rows = {r["n"]: r for r in rows_of(out)}
    assert (rows["1"]["status"], rows["1"]["wrong"]) == ("true", "1")  # truth: false
    assert (rows["3"]["status"], rows["3"]["wrong"]) == ("true", "0")
    assert scores.par2(list(rows.values())) == pytest.approx(
        (120.0 + float(rows["3"]["cpu_s"])) / 2)  # the wrong cell counts as unsolved
    md = (tmp_path / "s.md").read_text()
    assert "Wrong answers: 1." in md and "fig6-n1-compact-false.qdimacs" in md


def test_an_interrupted_run_resumes_without_losing_or_repeating_cells(written, tmp_path,
                                                                      monkeypatch):
    out = tmp_path / "s.csv"
    real, calls = scores.score_cell, []

    def stop_after_two(*args, **kwargs):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(args[1:3])
        return real(*args, **kwargs)

    monkeypatch.setattr(scores, "score_cell", stop_after_two)
    with pytest.raises(KeyboardInterrupt):
        scores.score_family(str(written), str(out), ("depqbf", "qute"))
    assert len(rows_of(out)) == 2
    with open(out, "a") as fh:  # a line a kill cut short
        fh.write("fig6-n3-compact-true,fig6-n3")
    monkeypatch.setattr(scores, "score_cell", real)
    rows = scores.score_family(str(written), str(out), ("depqbf", "qute"))
    keys = [(r["file"], r["solver"]) for r in rows_of(out)]
    assert len(rows) == len(keys) == len(set(keys)) == 6


def test_other_bytes_than_the_index_lists_are_refused_in_one_line(written, tmp_path, capsys):
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in written.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    name = next(f.name for f in copy.iterdir() if f.suffix == ".qdimacs")
    with open(copy / name, "a") as fh:
        fh.write("c changed\n")
    assert main(["family-score", str(copy), "--solvers", "depqbf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{name}: not the bytes index.csv lists" in err
    assert not (copy / "scores.csv").exists()


def test_a_csv_of_other_columns_is_refused_not_overwritten(written, tmp_path, capsys):
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    assert main(["family-score", str(written), "--csv", str(other)]) == 2
    assert "not a scores CSV" in capsys.readouterr().err
    assert other.read_text() == "a,b\n1,2\n"


def test_an_unknown_solver_is_one_line(written, capsys):
    assert main(["family-score", str(written), "--solvers", "minisat"]) == 2
    assert "unknown solver 'minisat'" in capsys.readouterr().err
