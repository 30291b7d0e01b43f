"""``bench dfpn --backend native`` against the Python search's recorded runs (issue 45's
goal as one command): the recorded verdicts and shortest answers in place of a run beside,
the problems they decide, a CPU limit per problem, and the goal's lines."""

from __future__ import annotations

import csv
import json
import time

import pytest

from bench_refusal import refusal
from test_native import _real_sfens  # noqa: F401  (its guard: skip or fail without the core)
from tsumeqbf.bench import BenchError
from tsumeqbf.bench.dfpn import main as bench_dfpn
from tsumeqbf.bench.dfpn_native import python_answers
from tsumeqbf.data import read_rows

EDO = read_rows("open_tsume_zukou_musou.csv")
SFEN = {r["id"]: r["sfen"] for r in EDO}


def _runs(tmp_path):
    """A bench CSV (zukou-002 mate in 23, zukou-005 unknown, musou-088 no mate) and a
    solve answer (zukou-002 in 21, zukou-005 in 21)."""
    first = tmp_path / "first.csv"
    first.write_text("id,status,length\nzukou-002,mate,23\nzukou-005,unknown,\n"
                     "musou-088,nomate,\n", encoding="utf-8")
    answers = []
    for pid in ("zukou-002", "zukou-005"):
        path = tmp_path / f"{pid}.json"
        path.write_text(json.dumps({"sfen": SFEN[pid], "status": "mate", "length": 21}),
                        encoding="utf-8")
        answers.append(str(path))
    return [str(first), *answers]


def test_the_python_searchs_runs_give_each_problem_its_verdict_and_shortest_answer(tmp_path):
    got = python_answers(_runs(tmp_path), EDO)
    assert got["zukou-002"] == ("mate", 21, "zukou-002.json")
    assert got["zukou-005"] == ("mate", 21, "zukou-005.json")  # decided by the later run
    assert got["musou-088"] == ("nomate", None, "first.csv")
    assert "zukou-001" not in got
    other = tmp_path / "other.csv"
    other.write_text("id,status,length\nmusou-088,mate,31\n", encoding="utf-8")
    probed = tmp_path / "probed.csv"
    probed.write_text("id,status,length,probes\nzukou-002,mate,19,1234\n", encoding="utf-8")
    assert python_answers(_runs(tmp_path) + [str(probed)], EDO)["zukou-002"][1] == 19
    assert python_answers(_runs(tmp_path) + [str(probed)], EDO, probes=False)["zukou-002"] == (
        "mate", 21, "zukou-002.json")  # the run with mate probes left out
    with pytest.raises(BenchError, match="^the Python search's runs disagree on musou-088"):
        python_answers(_runs(tmp_path) + [str(other)], EDO)
    with pytest.raises(BenchError, match="^cannot read the Python search's run"):
        python_answers([str(tmp_path / "missing.csv")], EDO)


def test_the_bench_compares_the_core_with_the_recorded_runs_on_the_problems_they_decide(
        tmp_path, capsys):
    rows = tmp_path / "goal.csv"
    args = ["--backend", "native", "--beside", "none", "--no-bounded", "--no-cshogi",
            "--ids", "zukou-001,zukou-002,zukou-005,musou-088", "--max-nodes", "300000",
            "--shorten-nodes", "20000", "--python-runs", ",".join(_runs(tmp_path)),
            "--python-solved", "--csv", str(rows)]
    assert bench_dfpn(args) == 0
    out = capsys.readouterr().out
    with open(rows, encoding="utf-8") as fh:
        written = {r["id"]: r for r in csv.DictReader(fh)}
    assert sorted(written) == ["musou-088", "zukou-002", "zukou-005"]  # not zukou-001
    assert [written[p]["status"] for p in ("zukou-002", "zukou-005", "musou-088")] == [
        "mate", "mate", "nomate"]
    assert written["zukou-002"]["python_length"] == "21"
    assert written["zukou-002"]["python_run"] == "zukou-002.json"
    assert written["zukou-002"]["python_length_no_probes"] == "21"  # no run had probes
    assert "without mate probes (the core has none), on the 2 they solve: longer" in out
    assert all(float(r["total_cpu_s"]) >= float(r["cpu_s"]) > 0 for r in written.values())
    assert {r["shorten_nodes"] for r in written.values()} == {"20000"}
    assert "the Python search decides 3 of these 3 (zukou 2, musou 1); the core decides 3" in out
    assert "goal: those 3 within 1,800 in all: met" in out
    assert "native lines replayed as mate: 2/2" in out


def test_a_problem_past_its_cpu_limit_is_unknown_with_the_nodes_searched(tmp_path, capsys):
    # zukou-001 takes the core about 7 million nodes: far more than 0.2 CPU seconds
    rows = tmp_path / "limited.csv"
    process, thread = time.process_time(), time.thread_time()
    assert bench_dfpn(["--backend", "native", "--beside", "none", "--no-bounded",
                       "--no-cshogi", "--ids", "zukou-001", "--max-nodes", "100000000",
                       "--cpu-limit", "0.2", "--group-interpositions", "--csv", str(rows)]) == 0
    # the limit counts the whole process; the row, this thread: cshogi's import starts a
    # thread of its own, whose few milliseconds count toward the limit only
    others = (time.process_time() - process) - (time.thread_time() - thread)
    with open(rows, encoding="utf-8") as fh:
        (row,) = list(csv.DictReader(fh))
    assert row["status"] == "unknown" and "CPU time limit" in row["error"]
    assert int(row["nodes"]) > 0 and float(row["total_cpu_s"]) + max(others, 0) >= 0.2
    assert row["group_interpositions"] == "True"


@pytest.mark.parametrize("args, message", [
    (["--python-runs", "x.csv"], "give --beside none"),
    (["--python-solved"], "--python-solved needs --python-runs"),
])
def test_the_native_bench_refuses_what_it_cannot_do(args, message, capsys):
    assert message in refusal(capsys, "dfpn", ["--backend", "native", "--no-bounded", "--ids",
                                               "zukou-002", *args])


def test_the_python_benchs_refuse_the_native_options(capsys):
    assert refusal(capsys, "dfpn", ["--backend", "cshogi", "--no-bounded", "--cpu-limit", "5"]
                   ) == "--cpu-limit go(es) with --backend native"


def test_repeats_give_each_rounds_rate_beside_cshogis_and_the_ratios_median(tmp_path, capsys):
    pytest.importorskip("cshogi")
    rows = tmp_path / "repeat.csv"
    args = ["--backend", "native", "--beside", "none", "--no-bounded", "--ids",
            "zukou-002,zukou-005", "--max-nodes", "20000", "--repeat", "2", "--csv", str(rows)]
    assert bench_dfpn(args) == 0
    out = capsys.readouterr().out
    with open(rows, encoding="utf-8") as fh:
        written = list(csv.DictReader(fh))
    assert sorted((r["id"], r["repeat"]) for r in written) == [
        ("zukou-002", "1"), ("zukou-002", "2"), ("zukou-005", "1"), ("zukou-005", "2")]
    nodes = {}
    for r in written:  # the same search each round
        nodes.setdefault(r["id"], set()).add((r["status"], r["nodes"], r["cshogi_nodes"]))
    assert all(len(v) == 1 for v in nodes.values())
    assert "native solved 2/2; cshogi DfPn 2/2" in out  # the first round's figures
    assert "round 1: native " in out and "round 2: native " in out
    assert "repeats 2: native over cshogi in nodes per CPU s, median " in out
    # a resumed run searches nothing again and sums up the same rows
    assert bench_dfpn(args + ["--resume"]) == 0
    out = capsys.readouterr().out
    assert "resuming: 4 already searched in" in out and "(round" not in out
    assert "repeats 2: native over cshogi" in out
