"""Command line: verdicts, JSON output, one-line errors with exit status 2, batch resume."""

import json
import subprocess
import sys

import pytest

from tsumeqbf.cli import main

FIG5 = "2k/3/1GP b - 1"  # mate in 1 with zone 2 (paper figure 5)
FIG6 = "1k1/3/PG1 b - 1"  # no mate in 1, mate in 3 (paper figure 6)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_mate_json(capsys):
    code, out, _ = run(capsys, "mate", FIG5, "-n", "1", "--zone", "2", "--json")
    assert code == 0
    row = json.loads(out)
    assert row["status"] == "mate" and row["mate"] is True
    assert set(row["mating_moves"]) == {"2c1b", "1c1b+"}
    assert row["first_move"] in row["mating_moves"]
    assert row["engine"] == "brute" and row["time_s"] >= 0


def test_mate_text_nomate(capsys):
    code, out, _ = run(capsys, "mate", FIG6, "-n", "1", "--zone", "2")
    assert code == 0
    assert out.startswith("no mate within 1")


def test_mate_text_tsume_says_its_length_not_within_n(capsys):
    # engine tsume is unbounded: its mate in 3 says nothing of a mate within 1 (there is
    # none), so the line must not read "mate within 1"
    code, out, _ = run(capsys, "mate", FIG6, "-n", "1", "--zone", "2", "--engine", "tsume")
    assert code == 0
    assert out.startswith("mate in 3 (more than n = 1") and "within 1 exists is not decided" in out
    code, out, _ = run(capsys, "mate", FIG6, "-n", "3", "--zone", "2", "--engine", "tsume")
    assert out.startswith("mate in 3  [tsume")
    code, out, _ = run(capsys, "mate", "4k4/9/9/9/9/9/9/9/9 b P 1", "-n", "3", "--engine", "tsume")
    assert code == 0 and out.startswith("no mate at any length")


def test_mate_text_tsume_compares_the_plies_with_n_not_the_length(capsys):
    # YaneuraOu's mate9-1: a mate in 7 by the tsume convention (useless interpositions
    # not counted) whose line has 9 plies, every ply counted, as Mate(P, n) counts them:
    # it shows no mate within 7
    sfen = "ln2k3l/1Rs1gsgb1/2pppp3/p5Npp/5PP2/PP2P3P/2PPS4/1Bs2K3/LN3G1+rL w 2Pgnp 56"
    code, out, _ = run(capsys, "mate", sfen, "-n", "7", "--engine", "tsume", "--json")
    answer = json.loads(out)
    assert code == 0 and (answer["length"], answer["plies"]) == (7, 9)
    code, out, _ = run(capsys, "mate", sfen, "-n", "7", "--engine", "tsume")
    assert out.startswith("mate in 7 (9 plies, every ply counted: more than n = 7")
    assert "whether a mate within 7 exists is not decided" in out
    code, out, _ = run(capsys, "mate", sfen, "-n", "9", "--engine", "tsume")
    assert out.startswith("mate in 7 (9 plies, every ply counted)  [tsume")


@pytest.mark.parametrize("argv, fragment", [
    (["mate", "2k/3/1GX b - 1", "-n", "1"], "unexpected character"),
    (["mate", "3/3/1GP b - 1", "-n", "1"], "has no king"),
    (["mate", "kk1/3/1GP b - 1", "-n", "1"], "more than one king"),
    (["mate", "k9/91/91/91/91/91/91/91/91 b - 1", "-n", "1"], "outside 1x1..9x9"),
    (["mate", "k0/3/3 b - 1", "-n", "1"], "count 0"),
    (["mate", FIG5, "-n", "2"], "odd"),
    (["mate", FIG5, "-n", "-3"], "odd"),
    (["mate", FIG5, "-n", "1", "--engine", "nosuch"], "unknown engine"),
    (["mate", FIG5, "-n", "1", "--zone", "7"], "zone"),
    (["mate", "2k/2R/3 b - 1", "-n", "1"], "not to move is in check"),
    (["batch", "/nonexistent/cases.jsonl", "-o", "/tmp/x.jsonl"], "no such file"),
    (["mate"], "required"),
    (["mate", FIG5, "-n", "1", "--bogus"], "error: unrecognized arguments: --bogus"),
    (["solve", FIG5, "--engine", "caqe"], "error: unrecognized arguments: --engine"),
    (["mate", FIG5, "-n", "x"], "error: tsumeqbf mate: argument -n"),
    (["mate", "2k/3/1GP b P 1", "-n", "1", "--no-hands"], "without pieces in hand"),
    (["mate", FIG5, "-n", "1", "--engine", "depqbf", "--encoding", "paper"], "--no-hands"),
    (["encode", FIG5, "-n", "1", "--encoding", "paper", "-o", "/tmp/never.qdimacs"], "--no-hands"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tsumeqbf: error:")
    assert fragment in lines[0]
    assert "Traceback" not in err


def test_board_over_9_ranks(capsys):
    code, _, err = run(capsys, "mate", "/".join(["2k"] + ["3"] * 9) + " b - 1", "-n", "1")
    assert code == 2 and "outside 1x1..9x9" in err


def test_show_lists_moves(capsys):
    code, out, _ = run(capsys, "show", FIG5, "--zone", "2")
    assert code == 0
    assert "2c1b" in out and "check" in out and "玉" in out


def test_module_entry_point():
    proc = subprocess.run([sys.executable, "-m", "tsumeqbf", "mate", FIG5, "-n", "1", "--zone", "2"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "mate within 1" in proc.stdout


def _write_cases(path, cases):
    path.write_text("".join(json.dumps(c) + "\n" for c in cases))


def test_batch_rows_errors_and_resume(tmp_path, capsys):
    cases = tmp_path / "cases.jsonl"
    out = tmp_path / "out.jsonl"
    _write_cases(cases, [
        {"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2, "mate": True, "extra": "kept"},
        {"id": "fig6", "sfen": FIG6, "n": 1, "zone": 2},
        {"id": "fig6-3", "sfen": FIG6, "n": 3, "zone": 2},
        {"id": "bad-sfen", "sfen": "zz", "n": 1},
        {"id": "even", "sfen": FIG5, "n": 2},
    ])
    assert main(["batch", str(cases), "-o", str(out), "--jobs", "2", "--quiet"]) == 0
    rows = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert set(rows) == {"fig5", "fig6", "fig6-3", "bad-sfen", "even"}
    assert rows["fig5"]["status"] == "mate" and rows["fig5"]["extra"] == "kept"
    assert rows["fig5"]["input_mate"] is True  # the input's expected verdict is not overwritten
    assert rows["fig5"]["first_move"] in ("2c1b", "1c1b+")
    assert rows["fig6"]["status"] == "nomate" and rows["fig6"]["mate"] is False
    assert rows["fig6-3"]["mate"] is True
    assert rows["bad-sfen"]["status"] == "error" and rows["bad-sfen"]["mate"] is None
    assert "odd" in rows["even"]["error"]
    for r in rows.values():
        assert {"engine", "status", "mate", "time_s", "first_move"} <= set(r)

    # a re-run skips finished ids; a torn last line (killed mid-write) is redone
    text = out.read_text().splitlines()
    out.write_text("\n".join(text[:3]) + "\n" + text[3][:10])
    assert main(["batch", str(cases), "-o", str(out), "--quiet"]) == 0
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert sorted(ids) == sorted(rows)


def test_batch_timeout_gives_unknown(tmp_path):
    # a mate-in-11 question that brute force cannot finish in a fraction of a second
    sfen = "+P2+Rb1gnl/7k1/n1p1+Bp1pp/p5p2/1p1pP2P1/2+s6/PsNGSPP1P/3KG4/L5RNL b SL3Pg 83"
    cases = tmp_path / "cases.jsonl"
    out = tmp_path / "out.jsonl"
    _write_cases(cases, [{"id": "long", "sfen": sfen, "n": 11}, {"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2}])
    assert main(["batch", str(cases), "-o", str(out), "--timeout", "0.5", "--quiet"]) == 0
    rows = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert rows["long"]["status"] == "unknown" and rows["long"]["mate"] is None
    assert rows["fig5"]["status"] == "mate"


def test_batch_bad_cases_file(tmp_path, capsys):
    cases = tmp_path / "cases.jsonl"
    cases.write_text('{"id": 1, "sfen": "2k/3/1GP b - 1"}\n')
    code, _, err = run(capsys, "batch", str(cases), "-o", str(tmp_path / "o.jsonl"))
    assert code == 2 and "missing key(s) n" in err


@pytest.mark.parametrize("command", [
    ["show", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"],
    ["encode", "2k/3/1GP b - 1", "--zone", "2", "-n", "3", "-o", "-"],  # (was exit 2)
])
def test_a_closed_pipe_is_not_an_error(command):
    proc = subprocess.Popen([sys.executable, "-m", "tsumeqbf", *command],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before the first line, like `| head -0`
    err = proc.stderr.read().decode()
    assert proc.wait() == 141
    assert err == ""


def test_the_engine_help_and_the_experiment_limits_come_from_the_registry():
    from tsumeqbf.cli import build_parser
    from tsumeqbf.engines import ENGINES
    from tsumeqbf.experiments.config import LIMIT_OPTIONS
    from tsumeqbf.solvers import SOLVERS

    mate = build_parser()._subparsers._group_actions[0].choices["mate"]
    engine = next(a for a in mate._actions if a.dest == "engine")
    assert engine.help.split(", ") == list(ENGINES)
    assert set(SOLVERS) < set(LIMIT_OPTIONS["memory_mb"])
    assert set(LIMIT_OPTIONS["memory_mb"]) | set(LIMIT_OPTIONS["max_nodes"]) == set(ENGINES)


def test_every_engine_names_the_options_it_reads():
    # an experiment's options are checked against them (engines.engine_options)
    from tsumeqbf.engines import ENGINES, RUN_OPTIONS, engine_options

    for name, spec in ENGINES.items():
        assert spec.settings is not None, name
        assert set(RUN_OPTIONS) < set(engine_options(name)), name


@pytest.mark.parametrize("sfen, fragment", [
    ("²k/3/1GP b - 1", "SFEN rank 1: unexpected character '²'"),
    ("２k/3/1GP b - 1", "SFEN rank 1: unexpected character '２'"),
    ("2k/3/1GP b ²P 1", "SFEN hand: unexpected character '²'"),
    ("2k/3/1GP b - ２", "move number must be a number"),
])
def test_sfen_digits_are_ascii(capsys, sfen, fragment):
    # str.isdigit took '²' (then int() failed: an internal error) and '２' (read as 2)
    code, _, err = run(capsys, "show", sfen, "--zone", "2")
    assert code == 2 and fragment in err and err.count("\n") == 1


def test_a_true_without_a_first_move_is_said_to_be_unchecked(capsys, tmp_path):
    # a solver that only exits 10 was believed without a word
    liar = tmp_path / "says_true"
    liar.write_text("#!/bin/sh\nexit 10\n")
    liar.chmod(0o755)
    code, out, err = run(capsys, "mate", "2k/1P1/1G1 b - 1", "-n", "1", "--engine", "qbf",
                         "--solver", str(liar))
    assert out.startswith("mate within 1") and "nothing of its verdict was checked" in err
