"""``bench usi-mate``: another USI mate engine beside the native core. The other engines
here are our own (``tsumeqbf usi``) and small scripts that lie, crash or hang."""

from __future__ import annotations

import csv
import re
import sys

import pytest

from bench_refusal import refusal
from test_native import _real_sfens  # noqa: F401  (its guard: skip or fail without the core)
from tsumeqbf.bench.usi_mate import main as bench_usi_mate
from tsumeqbf.usi import client
from tsumeqbf.usi.client import EngineError, MateEngine
from tsumeqbf.values import Status

# answers every go mate as its mode says, whatever the position
FAKE = """
import sys
mode = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "usi":
        if mode == "crash":
            sys.exit(3)
        print("id name fake-" + mode, flush=True)
        print("usiok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go" and mode != "hang":
        print("info time 5 nodes 42 nps 8400 string thinking", flush=True)
        print({"nomate": "checkmate nomate", "bogus": "checkmate 1a1b 2b2c",
               "timeout": "checkmate timeout"}[mode], flush=True)
    elif words[0] == "quit":
        break
"""


@pytest.fixture
def fake(tmp_path):
    path = tmp_path / "fake_engine.py"
    path.write_text(FAKE, encoding="utf-8")
    return lambda mode: ["--engine", sys.executable, "--engine-arg", str(path),
                         "--engine-arg", mode]


def _rows(path):
    with open(path, encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_our_own_engine_beside_the_core_agrees_and_both_lines_replay(tmp_path, capsys):
    out_csv = tmp_path / "rows.csv"
    code = bench_usi_mate(["--engine", sys.executable, "--engine-arg=-m",
                           "--engine-arg", "tsumeqbf", "--engine-arg", "usi",
                           "--option", "Backend=native", "--ids", "zukou-002,musou-088",
                           "--seconds", "60", "--csv", str(out_csv)])
    out = capsys.readouterr().out
    assert code == 0
    rows = _rows(out_csv)
    assert [r["id"] for r in rows] == ["zukou-002", "musou-088"]
    mate, nomate = rows
    assert mate["engine_status"] == mate["status"] == "mate"
    assert mate["engine_replay"] == mate["replay"] == "ok"
    assert int(mate["engine_length"]) % 2 == 1 and int(mate["length"]) % 2 == 1
    assert nomate["engine_status"] == nomate["status"] == "nomate"
    assert mate["engine"].startswith("tsumeqbf") and mate["engine_options"] == "Backend=native"
    assert float(mate["engine_cpu_s"]) >= 0 and int(mate["engine_nodes"]) > 0
    assert mate["commit"] and mate["dfpn_backend"] == "native"
    assert "decided of 2:" in out and ", both 2" in out
    assert "wrong verdicts (a no-mate against the other's replayed mate): none" in out


def test_an_engine_that_denies_a_mate_is_reported_wrong_and_the_run_still_passes(
        fake, tmp_path, capsys):
    out_csv = tmp_path / "rows.csv"
    assert bench_usi_mate([*fake("nomate"), "--ids", "zukou-002", "--csv", str(out_csv)]) == 0
    out = capsys.readouterr().out
    assert "wrong verdicts (a no-mate against the other's replayed mate): zukou-002 (engine)" in out
    row = _rows(out_csv)[0]
    assert (row["engine_status"], row["status"], row["replay"]) == ("nomate", "mate", "ok")


def test_an_engines_line_that_is_not_a_mate_is_not_counted_as_one(fake, capsys):
    assert bench_usi_mate([*fake("bogus"), "--ids", "zukou-002", "--no-core"]) == 0
    out = capsys.readouterr().out
    assert "lines that do not replay: fake-bogus 1" in out
    assert "decided of 1: fake-bogus 0" in out  # its claim is not a decision


def test_the_core_denying_a_replayed_mate_fails_the_run(monkeypatch, fake, capsys):
    from tsumeqbf.bench import usi_mate

    def core_says_nomate(pos, *limits):
        return {"status": Status.NOMATE, "length": None, "nodes": 1, "time_s": 0.0,
                "cpu_s": 0.0, "replay": "-", "error": None}

    def engine_mates(engine, pos, sfen, seconds):
        line = ["G*2b"]
        return {"engine_status": Status.MATE, "engine_length": 1, "engine_nodes": 1,
                "engine_time_ms": 0, "engine_cpu_s": 0.0, "engine_wall_s": 0.0,
                "engine_replay": usi_mate.replay_answer(pos, line), "engine_error": None}

    monkeypatch.setattr(usi_mate, "core_columns", core_says_nomate)
    monkeypatch.setattr(usi_mate, "engine_columns", engine_mates)
    monkeypatch.setattr(usi_mate, "problems", lambda *a: [
        {"id": "one", "sfen": "7k1/9/7G1/9/9/9/9/9/9 b G 1", "stated_length": "1"}])
    assert bench_usi_mate([*fake("timeout"), "--edo", "0"]) == 1
    assert "one (core)" in capsys.readouterr().out


def test_an_engine_that_crashes_or_is_missing_ends_the_bench_with_one_line(fake, tmp_path, capsys):
    assert re.search(r"ended before saying 'usiok' \(exit code 3\)", refusal(
        capsys, "usi-mate", [*fake("crash"), "--ids", "zukou-002", "--no-core"]))
    assert re.search("cannot start USI engine .*no-such-engine", refusal(
        capsys, "usi-mate", ["--engine", str(tmp_path / "no-such-engine"), "--ids", "zukou-002"]))
    assert refusal(capsys, "usi-mate", [*fake("nomate"), "--option", "Threads", "--ids",
                                        "zukou-002"]).startswith("--option takes NAME=VALUE")
    assert refusal(capsys, "usi-mate", [*fake("nomate"), "--edo", "0", "--classics", "nope"]
                   ).startswith("--classics takes keys")


def test_an_engine_that_never_answers_is_stopped_then_killed(fake, monkeypatch):
    monkeypatch.setattr(client, "GRACE_S", 0.5)
    argv = fake("hang")
    engine = MateEngine(argv[1::2])
    with pytest.raises(EngineError, match="gave no answer within 0.1 s"):
        engine.mate("7k1/9/7G1/9/9/9/9/9/9 b G 1", seconds=0.1)
    assert engine.proc.poll() is not None  # killed, its process group with it


def test_a_timeout_is_not_decided_and_keeps_the_engines_last_report(fake):
    argv = fake("timeout")
    with MateEngine(argv[1::2]) as engine:
        got = engine.mate("7k1/9/7G1/9/9/9/9/9/9 b G 1", seconds=5)
    assert (got.status, got.reason, got.nodes, got.time_ms) == (Status.UNKNOWN, "timeout", 42, 5)
    assert engine.name == "fake-timeout"


def test_cshogis_dfpn_third_gives_each_engines_rate_over_its(fake, tmp_path, capsys):
    pytest.importorskip("cshogi")
    out_csv = tmp_path / "rows.csv"
    assert bench_usi_mate([*fake("timeout"), "--ids", "zukou-002,zukou-005",
                           "--cshogi-nodes", "100000", "--csv", str(out_csv)]) == 0
    out = capsys.readouterr().out
    rows = _rows(out_csv)
    assert all(int(r["cshogi_nodes"]) > 0 and float(r["cshogi_cpu_s"]) >= 0 for r in rows)
    # (the fake spends next to no CPU time: mostly none is read, so only the core has a
    # rate beside cshogi's, but /proc counts in clock ticks and may charge it one)
    assert re.search(r"nodes per CPU s over every problem: "
                     r"(fake-timeout [\d,]+ \(\d+\.\d\dx cshogi's DfPn\), the core [\d,]+ \(\d+\.\d\dx\)"
                     r"|the core [\d,]+ \(\d+\.\d\dx cshogi's DfPn\)), cshogi's DfPn [\d,]+", out)
