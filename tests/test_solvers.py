"""The solver layer: verdicts from exit codes, certificates, timeouts that kill the whole
process group, and crashing, missing or garbled solvers reported as errors."""

import os
import stat
import sys
import textwrap
import time

import pytest

from tsumeqbf.cli import main
from tsumeqbf.solvers import (SOLVERS, SolverError, find_solver, is_installed, parse_certificate,
                             run_solver)

TRUE_QBF = "p cnf 2 2\ne 1 0\na 2 0\n1 2 0\n1 -2 0\n"  # ∃x ∀y (x∨y)(x∨¬y): true, x=1
FALSE_QBF = "p cnf 2 2\na 1 0\ne 2 0\n1 2 0\n1 -2 0\n"  # ∀x ∃y (x∨y)(x∨¬y): false




ALL = [pytest.param(n, marks=pytest.mark.skipif(not is_installed(n), reason=f"{n} missing"))
       for n in sorted(SOLVERS)]


@pytest.mark.parametrize("name", ALL)
def test_verdicts_and_certificate(name):
    yes = run_solver(name, TRUE_QBF, timeout=30, num_vars=2)
    no = run_solver(name, FALSE_QBF, timeout=30, num_vars=2)
    assert (yes.status, yes.exit_code, yes.verdict) == ("true", 10, True)
    assert (no.status, no.exit_code, no.verdict) == ("false", 20, False)
    if name != "qfun":  # qfun prints no assignment
        assert yes.assignment.get(1) is True


@pytest.mark.parametrize("text, values", [
    ("s cnf 1 2 1\nV -1 0\nV 2 0\n", {1: False, 2: True}),  # DepQBF, CAQE
    ("c x\nV  +1 -2 -3\ns cnf 1\n", {1: True, 2: False, 3: False}),  # RAReQS
    ("SAT\n1 -2 0\n", {1: True, 2: False}),  # Qute
    ("c 1 2 0\ns cnf 0\n", {}),
])
def test_parse_certificate(text, values):
    assert parse_certificate(text) == values


@pytest.mark.parametrize("text", ["V 1 x 0\n", "V 7 0\n"])
def test_parse_certificate_rejects_garbage(text):
    with pytest.raises(ValueError):
        parse_certificate(text, num_vars=3)


def fake_solver(tmp_path, body: str) -> str:
    """An executable Python script standing in for a QBF solver."""
    path = tmp_path / "fake_solver"
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as fh:  # a zombie is dead
        return fh.read().split(")")[-1].split()[0] != "Z"


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc")
def test_timeout_kills_the_process_group(tmp_path):
    pids = tmp_path / "pids"
    exe = fake_solver(tmp_path, f"""
        import os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        open({str(pids)!r}, "w").write(f"{{os.getpid()}} {{child.pid}}")
        time.sleep(60)
    """)
    start = time.monotonic()
    res = run_solver(exe, TRUE_QBF, timeout=1.5)
    assert res.status == "unknown" and "timeout" in res.message
    assert time.monotonic() - start < 10
    time.sleep(0.3)
    for pid in map(int, pids.read_text().split()):
        assert not _alive(pid), f"process {pid} survived the timeout"


def test_cpu_seconds_and_memory_are_the_solvers_own(tmp_path):
    # the solver burns about 0.3 s of CPU and holds 200 MB; the parent does neither
    exe = fake_solver(tmp_path, """
        import sys, time
        block = bytearray(200 * 2**20)
        end = time.process_time() + 0.3
        while time.process_time() < end:
            pass
        sys.exit(10)
    """)
    res = run_solver(exe, TRUE_QBF, timeout=60)
    assert res.status == "true"
    assert 0.3 <= res.cpu_s < 60 and res.peak_mb >= 200


def test_cpu_limit_stops_the_solver_as_unknown(tmp_path):
    # a solver that would spin for ever (and ignores the wall clock: no timeout) is
    # stopped by the kernel at its CPU limit, and says so
    exe = fake_solver(tmp_path, """
        while True:
            pass
    """)
    res = run_solver(exe, TRUE_QBF, cpu_limit=1)
    assert res.status == "unknown" and res.verdict is None
    assert res.message == "CPU time limit in the solver (1 s)"
    assert 0.75 <= res.cpu_s < 5  # rusage and the limit's ticks differ by a few hundredths


def test_solver_that_catches_sigxcpu_is_still_at_its_cpu_limit(tmp_path):
    exe = fake_solver(tmp_path, """
        import signal, sys
        signal.signal(signal.SIGXCPU, lambda *a: sys.exit(0))
        while True:
            pass
    """)
    res = run_solver(exe, TRUE_QBF, cpu_limit=1)
    assert res.status == "unknown" and "CPU time limit" in res.message


@pytest.mark.parametrize("body, fragment", [
    ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", "SIGSEGV"),
    ("import sys; print('boom', file=sys.stderr); sys.exit(3)", "exited with code 3 (not 10/20): boom"),
    ("import sys; sys.exit(3)", "exited with code 3 (not 10/20) and printed nothing"),
    ("import sys; print('V 1 oops 0'); sys.exit(10)", "garbled"),
])
def test_crashing_or_garbled_solver_is_an_error(tmp_path, body, fragment):
    res = run_solver(fake_solver(tmp_path, body), TRUE_QBF, timeout=20)
    assert res.status == "error" and res.verdict is None
    assert fragment in res.message


def test_missing_solver_names_the_install(monkeypatch):
    from tsumeqbf.solvers import runner
    monkeypatch.setitem(runner.SOLVERS, "depqbf",
                        runner.SolverSpec("depqbf", ("no_such_solver_binary_xyz",)))
    with pytest.raises(SolverError, match="pip install pyqbf"):
        find_solver("depqbf")


def test_unknown_solver_from_the_command_line(capsys):
    code = main(["mate", "2k/3/1GP b - 1", "--zone", "2", "-n", "1", "--engine", "qbf",
                 "--solver", "/no/such/solver"])
    err = capsys.readouterr().err.strip()
    assert code != 0 and len(err.splitlines()) == 1 and "unknown QBF solver" in err


def test_a_solver_file_that_is_not_executable_is_named_so(tmp_path, capsys):
    script = tmp_path / "solver"
    script.write_text("#!/bin/sh\nexit 10\n")
    assert main(["mate", "2k/3/1GP b - 1", "--zone", "2", "-n", "1", "--engine", "qbf",
                 "--solver", str(script)]) == 2
    assert capsys.readouterr().err == (f"tsumeqbf: error: QBF solver '{script}' is not "
                                       f"executable (chmod +x it)\n")


def test_crashing_solver_from_the_command_line(tmp_path, capsys):
    exe = fake_solver(tmp_path, "import sys; sys.exit(1)")
    code = main(["mate", "2k/3/1GP b - 1", "--zone", "2", "-n", "1", "--engine", "qbf",
                 "--solver", exe, "--json"])
    import json
    row = json.loads(capsys.readouterr().out)
    assert code == 1 and row["status"] == "error" and row["mate"] is None


def test_limits_are_set_in_a_child_that_cannot_import_any_more(tmp_path, monkeypatch):
    # the child holds the parent's address space until it execs: a memory limit below it
    # set before the steps that import (ctypes) failed the start ("preexec_fn"); a CPU
    # limit past the kernel's nanoseconds stopped the solver at once
    import sys as _sys
    monkeypatch.delitem(_sys.modules, "ctypes", raising=False)
    exe = fake_solver(tmp_path, "import sys; sys.exit(10)")
    res = run_solver(exe, TRUE_QBF, timeout=20, memory_mb=1)
    assert res.status in ("unknown", "error") and "preexec" not in res.message
    res = run_solver(exe, TRUE_QBF, timeout=20, cpu_limit=10 ** 19)
    assert res.status == "true", res.message


def test_a_solver_printing_bytes_that_are_not_utf8_is_read(tmp_path):
    exe = fake_solver(tmp_path, """
        import sys
        sys.stdout.buffer.write(bytes(range(128, 256)) + b"\\ns cnf 1 1 1\\n")
        sys.exit(20)
    """)
    res = run_solver(exe, TRUE_QBF, timeout=20)
    assert res.status == "false"
