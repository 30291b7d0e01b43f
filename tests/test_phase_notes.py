"""`mate` and `encode` name on stderr the phase that runs once it has lasted a second
(listing, encoding, writing, solving, certifying) and how long it took; silent under
--json when stderr is not a terminal, and with --quiet. The tests wait for the notes
rather than for a time."""

import json
import os
import subprocess
import sys
import time

import pytest

from tsumeqbf import progress
from tsumeqbf.cli import main
from tsumeqbf.solvers import is_installed

FIG5 = "2k/3/1GP b - 1"  # mate in 1 with zone 2
FIG6 = "1k1/3/PG1 b - 1"  # no mate in 1

WAITING_SOLVER = """\
import os, sys, time
# a QDIMACS "solver" that answers false once stderr shows WAIT_FOR (or after WAIT_MAX s)
end = time.monotonic() + float(os.environ["WAIT_MAX"])
while time.monotonic() < end:
    with open(os.environ["WAIT_LOG"]) as fh:
        if os.environ["WAIT_FOR"] and os.environ["WAIT_FOR"] in fh.read():
            break
    time.sleep(0.02)
print("s cnf 0")
sys.exit(20)
"""


def _mate_with_a_waiting_solver(tmp_path, wait_for, wait_max, *extra):
    solver = tmp_path / "waiting-solver"
    solver.write_text(f"#!{sys.executable}\n" + WAITING_SOLVER)
    solver.chmod(0o755)
    log = tmp_path / "stderr.txt"
    env = {**os.environ, "WAIT_LOG": str(log), "WAIT_FOR": wait_for, "WAIT_MAX": str(wait_max)}
    with open(log, "w") as err:
        proc = subprocess.run([sys.executable, "-m", "tsumeqbf", "mate", FIG6, "--zone", "2",
                               "-n", "1", "--engine", "qbf", "--solver", str(solver), *extra],
                              stdout=subprocess.PIPE, stderr=err, text=True, env=env,
                              timeout=120)
    return proc, log.read_text()


def test_mate_names_a_long_solve_and_its_time(tmp_path):
    proc, err = _mate_with_a_waiting_solver(tmp_path, "mate: solving, 1 s so far", 60)
    assert proc.returncode == 0 and proc.stdout.startswith("no mate within 1")
    lines = err.splitlines()
    assert lines[0] == "mate: solving, 1 s so far"
    assert lines[-1].startswith("mate: solving took ") and lines[-1].endswith(" s")
    assert float(lines[-1].split()[-2]) >= 1.0
    assert not any("encoding" in line for line in lines)  # a quick phase is not named


def test_mate_json_on_a_pipe_says_nothing(tmp_path):
    # the solver takes 1.5 s: long enough to be named on a terminal or without --json
    proc, err = _mate_with_a_waiting_solver(tmp_path, "", 1.5, "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout)["status"] == "nomate"
    assert err == ""


@pytest.fixture
def quick_notes(monkeypatch):
    """Notes after 0.05 s rather than 1 s, so that the waits below stay short."""
    monkeypatch.setattr(progress, "PHASE_NOTES_S", (0.05, 600.0))


def _waiting(capsys, seen: list, text: str, fn):
    """``fn`` that first waits until stderr shows ``text`` (what it read kept in seen)."""
    def wrapper(*args, **kwargs):
        end = time.monotonic() + 60
        while text not in "".join(seen) and time.monotonic() < end:
            seen.append(capsys.readouterr().err)
            time.sleep(0.01)
        return fn(*args, **kwargs)
    return wrapper


def test_encode_names_listing_and_writing(capsys, monkeypatch, tmp_path, quick_notes):
    from tsumeqbf.encoder import command, enumerated

    seen = []
    monkeypatch.setattr(enumerated, "enumerate_plies",
                        _waiting(capsys, seen, "encode: listing, 0 s so far", enumerated.enumerate_plies))
    monkeypatch.setattr(command, "_write",
                        _waiting(capsys, seen, "encode: writing, 0 s so far", command._write))
    out = tmp_path / "f.qdimacs"
    assert main(["encode", FIG5, "--zone", "2", "-n", "1", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    lines = "".join(seen + [captured.err]).splitlines()
    assert [line.split(",")[0].split(" took")[0] for line in lines] == [
        "encode: listing", "encode: listing", "encode: writing", "encode: writing"]
    assert lines[1].startswith("encode: listing took") and lines[3].startswith("encode: writing took")
    assert captured.out.startswith(f"wrote {out}")


def test_encode_quiet_and_json_say_nothing(capsys, monkeypatch, tmp_path, quick_notes):
    from tsumeqbf.encoder import enumerated

    def slow(*args, **kwargs):  # long enough for a note without --quiet
        time.sleep(0.3)
        return enumerate_plies(*args, **kwargs)

    enumerate_plies = enumerated.enumerate_plies
    monkeypatch.setattr(enumerated, "enumerate_plies", slow)
    for flag in ("--quiet", "--json"):
        assert main(["encode", FIG5, "--zone", "2", "-n", "1", "-o", str(tmp_path / "f"),
                     flag]) == 0
        assert capsys.readouterr().err == ""


@pytest.mark.skipif(not is_installed("depqbf"), reason="DepQBF not installed")
def test_certifying_is_one_phase_whatever_it_asks(capsys, monkeypatch, quick_notes):
    from tsumeqbf.solvers import engine

    seen, during = [], []
    certify, solve = engine.certify, engine._solve

    def certifying(*args, **kwargs):
        during.append("started")
        return certify(*args, **kwargs)

    def solving(*args, **kwargs):  # the phase named after each sub-question
        result = solve(*args, **kwargs)
        if during:
            during.append(progress._notes.get().name)
        return result

    monkeypatch.setattr(engine, "certify",
                        _waiting(capsys, seen, "mate: certifying, 0 s so far", certifying))
    monkeypatch.setattr(engine, "_solve", solving)
    code = main(["mate", FIG6, "--zone", "2", "-n", "3", "--engine", "depqbf", "--certify"])
    captured = capsys.readouterr()
    assert code == 0 and "certified:" in captured.out
    # its sub-questions are encoded and solved again, but the phase stays certifying
    assert len(during) >= 2 and set(during[1:]) == {"certifying"}
    lines = "".join(seen + [captured.err]).splitlines()
    at = lines.index("mate: certifying, 0 s so far")
    assert len(lines) == at + 2 and lines[-1].startswith("mate: certifying took ")
