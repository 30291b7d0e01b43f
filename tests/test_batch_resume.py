"""batch resumes by (case, configuration): a line of another engine, option, encoder or
solver version never stands for this run's answer, and what is skipped is said."""

import json
import os
import stat
import subprocess
import sys
import threading

import pytest

from tsumeqbf.batch import configuration
from tsumeqbf.cli import main
from tsumeqbf.solvers import is_installed

FIG5 = "2k/3/1GP b - 1"
FIG6 = "1k1/3/PG1 b - 1"

needs_depqbf = pytest.mark.skipif(not is_installed("depqbf"), reason="DepQBF not installed")


@pytest.fixture
def cases(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in [
        {"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2},
        {"id": "fig6", "sfen": FIG6, "n": 3, "zone": 2}]))
    return path


def _rows(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def _batch(capsys, *argv):
    code = main(["batch", *map(str, argv), "--quiet"])
    return code, capsys.readouterr().err


@needs_depqbf
def test_a_brute_run_then_depqbf_on_the_same_output_runs_depqbf(tmp_path, cases, capsys):
    out = tmp_path / "out.jsonl"
    code, err = _batch(capsys, cases, "-o", out)
    assert code == 0 and err == ""  # nothing there before: nothing to say
    code, err = _batch(capsys, cases, "-o", out, "--engine", "depqbf")
    assert code == 0
    rows = _rows(out)
    assert [r["engine"] for r in rows] == ["brute", "brute", "depqbf", "depqbf"]
    depqbf = [r for r in rows if r["engine"] == "depqbf"]
    assert {r["id"] for r in depqbf} == {"fig5", "fig6"}
    assert all(r["status"] == "mate" and r["solve_s"] > 0 for r in depqbf)
    assert depqbf[0]["config"]["solver_version"].startswith("DepQBF")
    assert depqbf[0]["config"]["encoder_version"]
    # it says why it runs cases the file already has lines for
    assert err.count("\n") == 1
    assert "2 cases run although" in err and "engine brute, not depqbf" in err
    # the same run again: both skipped, and said so
    code, err = _batch(capsys, cases, "-o", out, "--engine", "depqbf")
    assert code == 0 and len(_rows(out)) == 4
    assert err.strip() == (f"tsumeqbf batch: 2 of 2 cases skipped: {out} already answers "
                           f"them with this configuration")


def test_an_option_that_can_change_the_answer_is_another_configuration(tmp_path, cases, capsys):
    out = tmp_path / "out.jsonl"
    assert _batch(capsys, cases, "-o", out, "--max-nodes", "100000")[0] == 0
    code, err = _batch(capsys, cases, "-o", out, "--max-nodes", "1")
    assert code == 0
    # the node limit's answers are this run's own, not the earlier run's
    assert [r["status"] for r in _rows(out)] == ["mate", "mate", "mate", "unknown"]
    assert "max_nodes 100000, not 1" in err


@needs_depqbf
def test_an_upgrade_of_the_encoder_or_lines_without_a_configuration_run_again(
        tmp_path, cases, capsys):
    out = tmp_path / "out.jsonl"
    assert _batch(capsys, cases, "-o", out, "--engine", "depqbf")[0] == 0
    # the file as a run of an older encoder left it
    rows = _rows(out)
    for row in rows:
        row["config"]["encoder_version"] = "7"
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, err = _batch(capsys, cases, "-o", out, "--engine", "depqbf")
    assert code == 0 and len(_rows(out)) == 4
    assert "encoder_version 7, not " in err
    # lines from before configurations were recorded
    out.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "config"}) + "\n"
                           for r in rows))
    code, err = _batch(capsys, cases, "-o", out, "--engine", "depqbf")
    assert code == 0 and len(_rows(out)) == 4
    assert "written before tsumeqbf recorded configurations" in err
    # a configuration that is not one tsumeqbf wrote counts as none
    out.write_text("".join(json.dumps({**r, "config": "edited"}) + "\n" for r in rows))
    code, err = _batch(capsys, cases, "-o", out, "--engine", "depqbf")
    assert code == 0 and len(_rows(out)) == 4 and "2 cases run although" in err


def test_the_configuration_names_the_versions_and_the_defaults():
    brute = configuration("brute", {}, None)
    assert brute["engine"] == "brute" and brute["tsumeqbf"]
    assert "solver_version" not in brute
    if is_installed("depqbf"):
        qbf = configuration("depqbf", {}, 10.0)
        # the default encoding is named, so a change of default is a change of configuration
        assert qbf["encoding"] == "enumerated" and qbf["attacker_moves"] == "binary"
        assert qbf["timeout"] == 10.0 and qbf["solver"] == "depqbf"
        assert "sha256" in qbf["solver_version"]


def test_batch_to_standard_output(tmp_path, cases, capsys):
    code = main(["batch", str(cases), "-o", "-", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert sorted(json.loads(line)["id"] for line in out.splitlines()) == ["fig5", "fig6"]
    assert not (tmp_path / "-").exists()


@needs_depqbf
def test_the_portfolio_configuration_names_each_member_and_its_versions():
    config = configuration("portfolio", {"members": "depqbf/compact", "jobs": 3}, None)
    assert "jobs" not in config  # how many members run at once changes no verdict
    [member] = config["members"]
    assert member["label"] == "depqbf/compact"
    assert member["solver_version"].startswith("DepQBF") and member["encoder_version"]


def test_an_output_that_is_a_fifo_is_written_through_not_read_back(tmp_path, cases):
    # reading earlier answers back from a FIFO (or /dev/stdout) waited forever
    fifo = tmp_path / "answers.fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    done = subprocess.run([sys.executable, "-m", "tsumeqbf", "batch", str(cases), "-o", str(fifo),
                           "--quiet"], capture_output=True, text=True, timeout=120)
    reader.join(10)
    assert done.returncode == 0, done.stderr
    assert sorted(json.loads(line)["id"] for line in got[0].splitlines()) == ["fig5", "fig6"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("text, fragment", [
    ("", "no cases"),
    ("\n\n", "no cases"),
    ('{"id": ["x"], "sfen": "2k/3/1GP b - 1", "n": 1}\n', ":1: id must be a string or an integer"),
    ('{"id": "a", "sfen": 5, "n": 1}\n', ":1: sfen must be a string"),
    ('{"id": "a", "sfen": "2k/3/1GP b - 1", "n": NaN}\n', ":1: n must be an integer"),
    ('{"id": "a", "sfen": "2k/3/1GP b - 1", "n": 1, "zone": "2"}\n', ":1: zone must be an integer"),
])
def test_a_cases_file_without_cases_or_with_wrong_types_is_one_line(tmp_path, capsys, text,
                                                                     fragment):
    path = tmp_path / "cases.jsonl"
    path.write_text(text)
    assert main(["batch", str(path), "-o", str(tmp_path / "out.jsonl"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err


@pytest.mark.parametrize("which", ["cases", "output"])
def test_a_file_that_is_not_text_is_one_line(tmp_path, cases, capsys, which):
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\x00junk\n")
    argv = ([str(binary), "-o", str(tmp_path / "out.jsonl")] if which == "cases"
            else [str(cases), "-o", str(binary)])
    assert main(["batch", *argv, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not UTF-8 text" in err


@pytest.mark.parametrize("change", [{"sfen": "2k/3/G2 b - 1"}, {"n": 3}, {"zone": 1}])
def test_an_id_answered_for_another_question_is_refused_not_skipped(tmp_path, cases, capsys,
                                                                      change):
    # the old line was kept as the answer to the new question under that id
    out = tmp_path / "out.jsonl"
    assert _batch(capsys, cases, "-o", out)[0] == 0
    changed = tmp_path / "changed.jsonl"
    changed.write_text(json.dumps({"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2, **change}) + "\n")
    code, err = _batch(capsys, changed, "-o", out)
    assert code == 2 and len(_rows(out)) == 2
    assert err == (f"tsumeqbf: error: {out} answers case 'fig5' for another question (sfen "
                   f"'{FIG5}', n 1, zone 2): give the case another id, or write to another file\n")
