"""An experiment on a real Dask cluster: ``dask scheduler`` and two ``dask worker`` processes
on 127.0.0.1, one of them killed outright while a QBF solver runs in it.

The QBF cells run DepQBF through a wrapper whose first call, whichever worker makes it,
stalls for ten minutes instead (a long solve that nothing but a kill ends); the test kills
that worker's whole process group then. Dask runs a task at least once: the killed
worker's cell runs again on the other worker, this time DepQBF, and the store keeps each
cell once. Every process the cluster starts carries a marker in its environment (children
inherit it), so the test can tell that the stalled solver died with its worker, that no
solver outlives the run and that nothing of the cluster outlives the test.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from tsumeqbf.solvers.runner import find_solver, is_installed  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: bounded waits (seconds): the cluster up, the stalled solver started, the whole run
START_S, SEEN_S, RUN_S = 60, 120, 300
#: questions of the agreement experiment (a 4x4 one that DepQBF on `compact` takes 1-3 s
#: to solve) with their verdicts
QUESTIONS = [
    ("fig5", "2k/3/1GP b - 1", 1, 2, True),
    ("fig6", "1k1/3/PG1 b - 1", 1, 2, False),
    ("g2024-0041", "1PL1/3k/1B1+r/3+B b GPp 1", 5, 2, True),
    ("g2024-0233", "2G1/1k2/1b2/4 b 2GPg 1", 3, 2, False),
]


def stall_once_solver(folder: Path, real: str) -> tuple[Path, Path]:
    """A solver executable that, on its first call to solve, writes its pid to the returned
    file and sleeps for ten minutes; every later call (and any ``--version``) is ``real``."""
    first = folder / "first-call"
    path = folder / "stall-once"
    path.write_text(textwrap.dedent(f"""\
        #!/bin/sh
        case "$*" in *--version*) exec '{real}' "$@";; esac
        if mkdir '{first}' 2>/dev/null; then
            echo $$ > '{first}/pid.tmp' && mv '{first}/pid.tmp' '{first}/pid'
            exec sleep 600
        fi
        exec '{real}' "$@"
    """))
    path.chmod(0o755)
    return path, first / "pid"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def marked(marker: str) -> dict[int, str]:
    """The live processes whose environment holds ``marker``: pid -> their TSUMEQBF_TEST_NODE.
    Zombies (dead, not yet reaped) do not count."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            env = (entry / "environ").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue  # ended meanwhile, or not ours
        if f"TSUMEQBF_TEST_CLUSTER={marker}".encode() in env and state != "Z":
            node = next((e.split(b"=", 1)[1].decode() for e in env
                         if e.startswith(b"TSUMEQBF_TEST_NODE=")), "")
            found[int(entry.name)] = node
    return found


def command_line(pid: int) -> list[str]:
    with contextlib.suppress(OSError):
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().decode().split("\0")
    return []


def executable(pid: int) -> str | None:
    with contextlib.suppress(OSError):
        return os.path.realpath(f"/proc/{pid}/exe", strict=True)
    return None


def wait_until(what: str, seconds: float, check):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {seconds} s")


class Cluster:
    """A scheduler and named workers, each in a process group of its own; every process
    marked. :meth:`close` ends them all (SIGTERM, then SIGKILL) and waits for them."""

    def __init__(self, tmp_path: Path, name: str = "cluster"):
        self.marker = uuid.uuid4().hex
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.logs = tmp_path / f"{name}-logs"
        self.logs.mkdir()
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self, node: str, *args: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONHOME"}
        env.update(TSUMEQBF_TEST_CLUSTER=self.marker, TSUMEQBF_TEST_NODE=node,
                   PYTHONPATH=os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep))
        log = open(self.logs / f"{node}.log", "wb")
        self.procs[node] = subprocess.Popen([sys.executable, "-m", "dask", *args], env=env,
                                            stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True, cwd=self.logs)
        log.close()

    def log(self, node: str) -> str:
        return (self.logs / f"{node}.log").read_text(errors="replace")[-3000:]

    def kill(self, node: str) -> None:
        """Kill a node's whole process group outright (the nanny and its worker process)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.procs[node].pid, signal.SIGKILL)
        self.procs[node].wait(timeout=30)

    def close(self) -> dict[int, str]:
        """Stop every node (SIGTERM, then SIGKILL, to each node's process group) and return
        the marked processes still alive after both: processes that left their node's group
        (a solver that outlived its worker). Those are killed too, so nothing stays behind."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for proc in self.procs.values():
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, sig)
            for proc in self.procs.values():
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=20)
            # a group's other members (the nanny's worker process, a solver dying with its
            # thread) end a moment after the leader is reaped: wait for them, bounded
            end = time.monotonic() + 10
            while marked(self.marker) and time.monotonic() < end:
                time.sleep(0.1)
            if all(p.poll() is not None for p in self.procs.values()) and not marked(self.marker):
                return {}
        survivors = marked(self.marker)
        for pid in survivors:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        return survivors


def write_experiment(tmp_path: Path) -> Path:
    """x.toml and its questions: the QBF cells through the stall-once solver, df-pn beside;
    returns the stalled solver's pid file."""
    solver, stalled_pid = stall_once_solver(tmp_path, find_solver("depqbf")[1])
    (tmp_path / "cases.jsonl").write_text("".join(
        json.dumps({"id": i, "sfen": s, "n": n, "zone": z}) + "\n" for i, s, n, z, _ in QUESTIONS))
    (tmp_path / "x.toml").write_text(textwrap.dedent("""
        [limits]
        timeout = 120
        [[instances]]
        file = "cases.jsonl"
        [[engines]]
        engine = "qbf"
        options = {{solver = "{solver}", encoding = "compact"}}
        [[engines]]
        engine = "dfpn"
        [report]
        kind = "agreement"
    """).format(solver=solver))
    return stalled_pid


def start_cluster(cluster: Cluster) -> None:
    """The scheduler and workers a and b (one thread each), connected."""
    from dask.distributed import Client

    cluster.start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", str(cluster.port),
                  "--no-dashboard")
    for node in ("worker-a", "worker-b"):
        cluster.start(node, "worker", cluster.address, "--host", "127.0.0.1", "--nthreads", "1",
                      "--name", node, "--no-dashboard", "--death-timeout", "60")
    try:
        with Client(cluster.address, timeout=START_S) as client:
            client.wait_for_workers(2, timeout=START_S)
    except Exception as exc:  # the logs say why
        raise AssertionError(f"cluster not up: {exc}\n{cluster.log('scheduler')}\n"
                             f"{cluster.log('worker-a')}") from None


def start_run(tmp_path: Path, cluster: Cluster) -> subprocess.Popen:
    """``tsumeqbf experiment run x.toml`` on the cluster, in a process group of its own."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHOME"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.Popen([sys.executable, "-m", "tsumeqbf", "experiment", "run", "x.toml",
                             "--executor", "dask", "--scheduler", cluster.address, "--quiet"],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def finish(run: subprocess.Popen) -> str:
    """The run's stderr once it ends (within RUN_S, else it is killed and the test fails)."""
    try:
        return run.communicate(timeout=RUN_S)[1]
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()


def stored(tmp_path: Path) -> list[tuple]:
    db = sqlite3.connect(tmp_path / "results" / "x.sqlite")
    try:
        return db.execute("SELECT key, instance, engine, status, mate FROM cells").fetchall()
    finally:
        db.close()


def run_killing(tmp_path: Path, cluster: Cluster, stalled_pid: Path, which) -> tuple:
    """Start the cluster and the run; once the stalled solver runs, kill the node that
    ``which`` names given the solver's node. Returns the run (ended), its stderr, the
    stalled solver's pid and the node killed."""
    start_cluster(cluster)
    run = start_run(tmp_path, cluster)
    try:
        solver = int(wait_until("the first solver", SEEN_S,
                                lambda: stalled_pid.is_file() and stalled_pid.read_text()))
        node = which(marked(cluster.marker)[solver])
        assert run.poll() is None
        cluster.kill(node)  # mid-run: the stalled solver is running
    finally:
        err = finish(run)
    return run, err, solver, node


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.skipif(not is_installed("depqbf"), reason="DepQBF not installed")
def test_a_worker_killed_mid_run_loses_no_cell_and_leaves_no_solver(tmp_path):
    stalled_pid = write_experiment(tmp_path)
    cluster = Cluster(tmp_path)
    try:  # the worker that started the stalled solver killed
        run, err, victim_solver, victim = run_killing(tmp_path, cluster, stalled_pid, lambda node: node)
        assert run.returncode == 0 and victim.startswith("worker-"), err[-3000:]

        # every cell once, each with a verdict (the killed worker's cell ran again)
        rows = stored(tmp_path)
        assert len(rows) == len({r[0] for r in rows}) == 2 * len(QUESTIONS)
        expected = {i: mate for i, _, _, _, mate in QUESTIONS}
        assert sorted((inst, engine, bool(mate)) for _, inst, engine, _, mate in rows) == sorted(
            (i, engine, expected[i]) for i in expected for engine in ("qbf", "dfpn"))

        # the killed worker's solver died with it; no solver outlives the run: what is
        # left is the Python processes of the scheduler and of the other worker
        alive = marked(cluster.marker)
        assert victim_solver not in alive
        python = os.path.realpath(sys.executable)
        assert [command_line(pid) for pid in alive if executable(pid) != python] == []
        assert set(alive.values()) == {"scheduler", "worker-a", "worker-b"} - {victim}
    finally:
        survivors = cluster.close()
    assert survivors == {}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.skipif(not is_installed("depqbf"), reason="DepQBF not installed")
def test_a_scheduler_lost_mid_run_stores_no_cell_it_did_not_answer(tmp_path):
    # the cells not answered when the scheduler goes are not stored (as errors, a re-run
    # would skip them): the run says so in one line, exits 2, and a re-run runs them
    stalled_pid = write_experiment(tmp_path)
    cluster = Cluster(tmp_path)
    try:
        run, err, _, _ = run_killing(tmp_path, cluster, stalled_pid, lambda node: "scheduler")
    finally:
        cluster.close()
    assert run.returncode == 2, err[-3000:]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"tsumeqbf: error: lost the dask scheduler {cluster.address}"), err
    rows = stored(tmp_path)
    assert len(rows) < 2 * len(QUESTIONS)
    assert [r for r in rows if r[3] not in ("mate", "nomate")] == []
    assert (tmp_path / "results" / "x.csv").is_file()  # exported as on a stop

    again = Cluster(tmp_path, "again")
    try:
        start_cluster(again)
        rerun = start_run(tmp_path, again)
        err = finish(rerun)
    finally:
        again.close()
    assert rerun.returncode == 0, err[-3000:]
    rows_then, rows = rows, stored(tmp_path)
    assert set(rows_then) <= set(rows) and len(rows) == len({r[0] for r in rows}) == 2 * len(QUESTIONS)
    assert {r[3] for r in rows} <= {"mate", "nomate"}
