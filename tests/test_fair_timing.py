"""Timing comparisons made fair (issue 46, item 5): df-pn and the QBF solvers under the same
kind of limit, CPU seconds, and a report that says which side runs compiled code."""

import json

import pytest

from tsumeqbf import native
from tsumeqbf.batch import solve_case
from tsumeqbf.engines import run_engine
from tsumeqbf.experiments.config import experiment_path, load_experiment
from tsumeqbf.experiments.report import render_report
from tsumeqbf.experiments.runner import build_cells
from tsumeqbf.experiments.store import write_csv
from tsumeqbf.rules import Position

from test_experiments import _row, write_experiment

SCALING = """
    title = "fair"
    [limits]
    timeout = 60
    cpu_limit = 10
    [[instances]]
    generate = {seed = 3, count = 4, sizes = ["3x3", "9x9"], plies = [1]}
    [[engines]]
    engine = "dfpn"
    [[engines]]
    engine = "dfpn"
    options = {backend = "native"}
    label = "dfpn/native"
    min_width = 9
    [[engines]]
    engine = "caqe"
    [report]
    kind = "scaling"
"""


def test_an_engine_can_be_kept_to_the_standard_board(tmp_path):
    exp = load_experiment(write_experiment(tmp_path, SCALING))
    cells = build_cells(exp)
    native_cells = [c for c in cells if c["label"] == "dfpn/native"]
    boards = {label: {json.loads(c["meta"])["board"] for c in cells if c["label"] == label}
              for label in ("dfpn", "dfpn/native")}
    assert boards == {"dfpn": {"3x3", "9x9"}, "dfpn/native": {"9x9"}}
    assert native_cells and all(native.unsupported(Position.from_sfen(c["sfen"], zone=c["zone"]))
                                is None for c in native_cells)
    # every engine has the same CPU limit as an option
    assert {c["options"]["cpu_limit"] for c in cells} == {10}


def test_shipped_dfpn_vs_qbf_limits_every_engine_in_cpu_seconds():
    for quick, seconds in ((False, 30), (True, 10)):
        exp = load_experiment(experiment_path("dfpn-vs-qbf"), quick=quick)
        cells = build_cells(exp)
        assert {c["options"]["cpu_limit"] for c in cells} == {seconds}
        backends = {c["options"].get("backend") for c in cells if c["engine"] == "dfpn"}
        assert backends == {"rules", "native"}
        assert {json.loads(c["meta"])["board"] for c in cells
                if c["label"] == "dfpn/native"} == {"9x9"}
        # the wall limit is only a backstop, above the CPU limit
        assert all(c["timeout"] > seconds for c in cells)


def test_scaling_report_under_a_cpu_limit_counts_cpu_seconds_and_names_the_code(tmp_path):
    path = write_experiment(tmp_path, SCALING)
    (tmp_path / "results").mkdir()
    made = {"cpu_limit": 10.0, "measured_by": "rusage"}
    caqe = {"solver": "caqe", "solver_version": "CAQE 4.0.1, pyqbf 1.1.1.3, sha256 7f41abd0ae69"}
    rows = [
        # on wall seconds caqe would win a; on CPU seconds (what the limit counts) dfpn does
        _row("a", "dfpn", True, time_s=0.9, cpu_s=0.2, solver_cpu_s=0.0, dfpn_backend="rules", **made),
        _row("a", "caqe", True, time_s=0.5, cpu_s=0.4, solver_cpu_s=0.3, **caqe, **made),
        _row("b", "dfpn", False, time_s=0.1, cpu_s=0.1, solver_cpu_s=0.0, dfpn_backend="rules",
             meta='{"board":"9x9"}', **made),
        _row("b", "dfpn/native", False, time_s=0.3, cpu_s=0.05, solver_cpu_s=0.0,
             dfpn_backend="native", engine="dfpn", options='{"backend":"native"}',
             meta='{"board":"9x9"}', **made),
        _row("b", "caqe", None, time_s=12.0, cpu_s=10.0, solver_cpu_s=9.9, **caqe,
             meta='{"board":"9x9"}', **made)]
    write_csv(tmp_path / "results" / "x.csv", rows)
    md = render_report(load_experiment(path, with_instances=False), plots=False).read_text()
    assert "## Compiled code and Python" in md
    assert "Every engine ran under the same kind of limit, CPU seconds (10 a cell," in md
    assert ("| dfpn | df-pn search and the rules engine | none | 0.150 | - |") in md
    assert ("| dfpn/native | reading the question | df-pn search and move generation "
            "(native core, C++) | 0.050 | - |") in md
    assert ("| caqe | encoder (builds and writes the formula) | solver CAQE 4.0.1 (Rust) "
            "| 0.400 | 0.300 |") in md
    # who answers fastest and the medians count CPU seconds
    assert "the least CPU time" in md and "Median CPU seconds per cell" in md
    assert "| 3x3 | dfpn (1/1) |" in md and "| 9x9 | dfpn/native (1/1) |" in md
    assert "| 3 | 0.150 (2/2) | 0.050 (1/1) | 5.200 (1/2) |" in md


def test_a_wall_limited_report_says_so(tmp_path):
    path = write_experiment(tmp_path, SCALING.replace("cpu_limit = 10\n", ""))
    (tmp_path / "results").mkdir()
    write_csv(tmp_path / "results" / "x.csv",
              [_row("a", "dfpn", True, time_s=0.9), _row("a", "caqe", True, time_s=0.5)])
    md = render_report(load_experiment(path, with_instances=False), plots=False).read_text()
    assert "These rows ran under a wall-clock limit, and the tables below count wall seconds" in md
    assert "| dfpn | df-pn search and the rules engine | none | - | - |" in md
    assert "| 3x3 | caqe (1/1) |" in md  # wall seconds, the old rows' only seconds


@pytest.mark.skipif(not native.available(), reason="the native core is not built")
def test_a_dfpn_row_records_the_backend_that_answered():
    case = {"id": "q", "sfen": "7k1/9/7G1/9/9/9/9/9/9 b G 1", "n": 1}
    assert solve_case(case, "dfpn", 30, {"backend": "native"})["dfpn_backend"] == "native"
    # the default backend's row names the search that answered
    answered = run_engine("dfpn", Position.from_sfen(case["sfen"]), 1).facts["backend"]
    assert solve_case(case, "dfpn", 30, {})["dfpn_backend"] == answered
    assert solve_case(case, "dfpn", 30, {"backend": "rules"})["dfpn_backend"] == "rules"


def test_a_killed_dfpn_row_records_the_backend_that_would_have_answered():
    # a worker killed at its limit leaves no answer to name its backend: the row names the
    # one the options choose for the question (auto: native on 9x9 where the core is built)
    from tsumeqbf.batch import Lost, answer_row
    from tsumeqbf.experiments.runner import lost_row
    from tsumeqbf.values import Answer, Status

    fast = "native" if native.available() else "rules"
    nine, three = "7k1/9/7G1/9/9/9/9/9/9 b G 1", "2k/3/1GP b - 1"

    def killed(engine, sfen, options, zone=None):
        cell = {"key": "k", "instance": "q", "sfen": sfen, "n": 1, "zone": zone, "meta": {},
                "engine": engine, "label": engine, "timeout": 30, "options": options}
        row = lost_row(cell, Lost("killed after 35.0 s", True), 35.0)
        assert row["status"] == "unknown" and row["error"] == "killed after 35.0 s"
        batch = answer_row({"id": "q", "sfen": sfen, "n": 1, "zone": zone},
                           Answer(Status.UNKNOWN, engine=engine, error="timeout"), options)
        assert batch["dfpn_backend"] == row["dfpn_backend"]
        return row["dfpn_backend"]

    assert killed("dfpn", nine, {}) == killed("dfpn", nine, {"backend": "auto"}) == fast
    assert killed("tsume", nine, {}) == killed("tsume", nine, {"backend": "auto"}) == fast
    assert killed("dfpn", three, {}, zone=2) == killed("tsume", three, {}, zone=2) == "rules"
    # the core plays the rules with hands only
    assert killed("dfpn", "7k1/9/7G1/9/9/9/9/9/9 b - 1", {"no_hands": True}) == "rules"
    assert killed("tsume", nine, {"heuristics": "AB"}) == "rules"  # the core has none
    assert killed("dfpn", nine, {"backend": "rules"}) == "rules"
    assert killed("tsume", nine, {"backend": "cshogi"}) == "cshogi"
    assert killed("caqe", nine, {}) is None


@pytest.mark.skipif(not native.available(), reason="the native core is not built")
def test_the_cpu_limit_stops_the_compiled_search_as_it_stops_the_python_one():
    # zukou-008 (the hardest 将棋図巧 problem) is not decided in a fraction of a second:
    # the kernel's profiling timer reaches the native core through its signal checks
    from tsumeqbf.data import read_rows

    sfen = next(r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv") if r["id"] == "zukou-008")
    for backend in ("native", "rules"):
        out = run_engine("dfpn", Position.from_sfen(sfen), 41, timeout=600,
                         options={"backend": backend, "cpu_limit": 0.3}).to_dict()
        assert (out["status"], out["error"]) == ("unknown", "CPU time limit (0.3 s)"), backend
