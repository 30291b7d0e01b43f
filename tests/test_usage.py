"""CPU seconds and peak memory by the kernel's accounting, and CPU-time limits: the
engine's own thread, its solvers' rusage, a limit that stops a search or an encoding as
``unknown`` and that a solver gets what is left of."""

import json
import signal
import sys
import threading
import time
from types import SimpleNamespace

import pytest

from tsumeqbf.cli import main
from tsumeqbf.data import collection_cases
from tsumeqbf.engines import run_engine
from tsumeqbf.limits import LimitReached
from tsumeqbf.rules import Position
from tsumeqbf.solvers import is_installed
from tsumeqbf.usage import add_child, child_cpu_limit, cpu_left, cpu_limited, measured

FIG5 = "2k/3/1GP b - 1"


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_measured_counts_this_threads_cpu_seconds():
    with measured() as used:
        _spin(0.2)
    assert 0.15 <= used.cpu_s < 5 and used.children_cpu_s == 0 and used.peak_mb > 0


def test_cpu_limit_stops_the_block_and_is_undone():
    before = signal.getsignal(signal.SIGPROF)
    start = time.process_time()
    with pytest.raises(LimitReached, match=r"^CPU time limit \(0.3 s\)$"):
        with cpu_limited(0.3):
            assert 0 < cpu_left() <= 0.3 and child_cpu_limit() == 1
            _spin(30)
    assert 0.3 <= time.process_time() - start < 5  # by the precise clock, not the ticks
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGPROF) == before and cpu_left() is None
    with cpu_limited(None):  # no limit: nothing set
        assert cpu_left() is None and child_cpu_limit(2.5) == 3


def test_solvers_reaped_in_a_block_spend_its_seconds():
    # solvers run one after another (a certificate's sub-questions) share the block's
    # seconds: each gets what this process and the solvers before it left, and the block
    # around it has spent them too
    solver = SimpleNamespace(ru_utime=3.0, ru_stime=1.0, ru_maxrss=0)  # os.wait4's rusage
    with cpu_limited(60):
        with cpu_limited(10):
            assert child_cpu_limit() == 10
            assert add_child(solver) == (4.0, 0.0)
            assert child_cpu_limit() == 6 and 5.5 < cpu_left() <= 6
        assert 55.5 < cpu_left() <= 56
    assert cpu_left() is None


def test_the_block_ends_where_its_solvers_and_this_process_together_reach_it():
    # a solver reaped with 1.5 of the 2 s spent leaves this process half a second, not 2
    start = time.process_time()
    with pytest.raises(LimitReached, match=r"^CPU time limit \(2 s\)$"):
        with cpu_limited(2):
            add_child(SimpleNamespace(ru_utime=1.2, ru_stime=0.3, ru_maxrss=0))
            _spin(30)
    assert 0.4 <= time.process_time() - start < 1.5


def test_no_solver_is_started_once_the_seconds_are_spent():
    # (in a thread of its own: there no timer is set, so the refusal is child_cpu_limit's)
    said = []

    def ask():
        with cpu_limited(2):
            add_child(SimpleNamespace(ru_utime=2.5, ru_stime=0.0, ru_maxrss=0))
            try:
                child_cpu_limit()
            except LimitReached as exc:
                said.append(str(exc))

    worker = threading.Thread(target=ask)
    worker.start()
    worker.join()
    assert said == ["CPU time limit (2 s)"]


def test_the_limit_is_raised_once_while_its_answer_is_made():
    # what runs after the limit's exception (an except block making the answer, a native
    # table freed) may take more CPU: no second LimitReached may escape from it
    with cpu_limited(0.1):
        try:
            _spin(30)
        except LimitReached:
            _spin(0.4)
            stopped = True
    assert stopped


def test_a_limit_dropped_inside_a_gc_callback_comes_again():
    # Python drops an exception raised while a gc callback runs ('Exception ignored'):
    # the limit must still stop the block
    import gc

    def busy_callback(phase, info):
        if phase == "start":
            _spin(0.3)

    gc.callbacks.append(busy_callback)
    try:
        with pytest.raises(LimitReached):
            with cpu_limited(0.1):
                gc.collect()
                _spin(30)
    finally:
        gc.callbacks.remove(busy_callback)


def test_every_engine_says_its_cpu_seconds_and_memory():
    pos = Position.from_sfen(FIG5, zone=2)
    for engine in ("brute", "dfpn", "tsume"):
        result = run_engine(engine, pos, 1)
        used = result.timings
        assert used.cpu_s >= 0 and used.solver_cpu_s == 0
        assert used.peak_mb > 0 and used.measured_by == "rusage"


@pytest.mark.skipif(not is_installed("depqbf"), reason="depqbf missing")
def test_a_qbf_engines_cpu_seconds_include_its_solvers():
    result = run_engine("depqbf", Position.from_sfen(FIG5, zone=2), 1)
    assert result.verdict is True
    assert 0 < result.timings.solver_cpu_s <= result.timings.cpu_s


@pytest.mark.skipif(not is_installed("depqbf"), reason="depqbf missing")
def test_a_portfolios_cpu_seconds_include_its_members():
    # the members are forked processes, each reaped with os.wait4: theirs and their solvers'
    result = run_engine("portfolio", Position.from_sfen(FIG5, zone=2), 1)
    assert result.verdict is True
    assert 0 < result.timings.solver_cpu_s <= result.timings.cpu_s


def _mate7():
    return next(q for q in collection_cases("yaneuraou_mate_samples.csv") if q["n"] == 7)


@pytest.mark.skipif(not is_installed("depqbf"), reason="depqbf missing")
def test_cpu_limit_stops_an_encoding_as_unknown():
    # compact's mate-in-7 encoding takes seconds of CPU: half a second stops it
    q = _mate7()
    result = run_engine("depqbf", Position.from_sfen(q["sfen"]), 7,
                        options={"cpu_limit": 0.5, "encoding": "compact"})
    assert (result.status, result.verdict) == ("unknown", None)
    assert result.error == "CPU time limit (0.5 s)"
    assert 0.3 < result.timings.cpu_s < 5  # the limit counts the process, cpu_s the thread


def test_mate_takes_a_cpu_limit(capsys):
    q = _mate7()
    assert main(["mate", q["sfen"], "-n", "7", "--engine", "depqbf", "--encoding", "compact",
                 "--cpu-limit", "0.5", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unknown" and out["error"] == "CPU time limit (0.5 s)"
    assert main(["mate", FIG5, "--zone", "2", "-n", "1", "--cpu-limit", "0"]) != 0
    assert capsys.readouterr().err.strip() == ("tsumeqbf: error: tsumeqbf mate: argument "
                                               "--cpu-limit: must be above 0 (leave the option "
                                               "out for no limit), got 0")


def test_batch_rows_carry_cpu_seconds_limits_and_provenance(tmp_path):
    # a mate-in-11 question that brute force cannot finish in half a CPU second
    long = "+P2+Rb1gnl/7k1/n1p1+Bp1pp/p5p2/1p1pP2P1/2+s6/PsNGSPP1P/3KG4/L5RNL b SL3Pg 83"
    cases, out = tmp_path / "cases.jsonl", tmp_path / "out.jsonl"
    cases.write_text(json.dumps({"id": "long", "sfen": long, "n": 11}) + "\n"
                     + json.dumps({"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2}) + "\n")
    assert main(["batch", str(cases), "-o", str(out), "--cpu-limit", "0.5", "--quiet"]) == 0
    rows = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert rows["long"]["status"] == "unknown" and rows["long"]["error"] == "CPU time limit (0.5 s)"
    # the limit counts the whole process (ITIMER_PROF), cpu_s the engine's thread
    assert 0.3 < rows["long"]["cpu_s"] < 5 and rows["fig5"]["status"] == "mate"
    for r in rows.values():
        assert r["measured_by"] == "rusage" and r["encoder_version"].isdigit()
        assert {"commit", "clean", "solver", "solver_version", "dfpn_backend", "pyqbf", "pysat",
                "cshogi", "cpu_model", "cores", "load"} <= set(r) and r["jobs"] == 1


def test_a_limit_past_what_the_timer_holds_is_no_limit():
    # setitimer takes no more than a time_t's seconds: 1e12 s once raised OverflowError
    # and then a TypeError from the clean-up, an internal error for `--cpu-limit 1e12`
    with cpu_limited(1e12):
        assert cpu_left() > 1e11
    assert cpu_left() is None


@pytest.mark.parametrize("seconds", [-1, float("nan")])
def test_a_limit_below_zero_is_refused_and_leaves_nothing_set(seconds):
    handler, hook = signal.getsignal(signal.SIGPROF), sys.unraisablehook
    with pytest.raises(ValueError, match="above 0 seconds"):
        with cpu_limited(seconds):
            pass
    assert signal.getsignal(signal.SIGPROF) == handler and sys.unraisablehook is hook
    assert signal.getitimer(signal.ITIMER_PROF) == (0.0, 0.0)
