"""Run a QBF solver on a QDIMACS file as a subprocess, with limits, and read its verdict.

Every solver runs in its own session so that a wall-clock timeout can kill the whole
process group (DepQBF's own ``--max-secs`` has been seen ignored for 30 s and more). The
verdict comes only from the exit code: 10 true, 20 false; anything else is unknown
(timeout or memory limit) or an error (crash, signal, unexpected code). Where the solver
prints an assignment to the outermost block (``V lit 0`` lines) it is parsed into
``SolverResult.assignment``. The solver's own CPU seconds and peak resident memory are the
kernel's accounting of it (``os.wait4``), and a CPU limit is the kernel's too
(``RLIMIT_CPU``: SIGXCPU, then SIGKILL a second later), as QBF competitions set it.

>>> spec = SOLVERS["depqbf"]
>>> spec.binaries[0], spec.args
('pyqbf_depqbf', ('--qdo', '--no-dynamic-nenofex'))
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..limits import machine_reserve_mb, meminfo_mb
from ..niceness import carry_nice
from ..stop import die_with_parent, signals_held, unhold_signals
from ..usage import NO_LIMIT_S, add_child, child_cpu_limit
from ..values import Status

#: seconds between two looks at the memory the machine has left while a solver runs
WATCH_S = 0.5
#: seconds a solver gets to print its version (they answer ``--version`` in milliseconds)
VERSION_TIMEOUT_S = 2.0


class SolverError(Exception):
    """A solver cannot be used (not installed, not executable)."""


@dataclass(frozen=True)
class SolverSpec:
    name: str
    #: looked up in pyqbf's build (PYQBF_PREFIX), next to the interpreter, then on PATH
    binaries: tuple[str, ...]
    args: tuple[str, ...] = ()  # flags that make the solver print its certificate
    certifies: bool = True  # prints the outermost block's assignment on a true verdict


#: The solvers that pyqbf builds, plus Debian's ``depqbf`` as a fallback binary name. Each
#: is an engine of its own name (tsumeqbf.engines), in this order wherever they are listed.
SOLVERS: dict[str, SolverSpec] = {
    "depqbf": SolverSpec("depqbf", ("pyqbf_depqbf", "depqbf"), ("--qdo", "--no-dynamic-nenofex")),
    "rareqs": SolverSpec("rareqs", ("pyqbf_rareqs", "rareqs")),
    "caqe": SolverSpec("caqe", ("pyqbf_caqe", "caqe"), ("--qdo",)),
    "qfun": SolverSpec("qfun", ("pyqbf_qfun", "qfun"), certifies=False),
    "qute": SolverSpec("qute", ("pyqbf_qute", "qute"), ("--partial-certificate",)),
}

#: where pyqbf's build puts the solvers themselves; the scripts of the same names on the
#: interpreter's path only start them, in a second Python process that costs about 80 ms a
#: call (a small question's whole solve takes 5 ms)
PYQBF_PREFIX = Path("cmeel.prefix") / "bin"

INSTALL_HINT = "install the QBF solvers with `pip install pyqbf` (builds them from source)"


@dataclass
class SolverResult:
    solver: str
    status: str  # "true", "false", Status.UNKNOWN, Status.ERROR
    exit_code: int | None
    time_s: float
    assignment: dict[int, bool] = field(default_factory=dict)
    message: str = ""
    cpu_s: float | None = None  # the solver's user + system seconds (os.wait4)
    peak_mb: float | None = None  # its peak resident memory (ru_maxrss)

    @property
    def verdict(self) -> bool | None:
        return {"true": True, "false": False}.get(self.status)


def solver_names() -> list[str]:
    return sorted(SOLVERS)


def certifying_solvers() -> tuple[str, ...]:
    """The solvers whose true verdict comes with the attacker's first move, in order.

    >>> certifying_solvers()
    ('depqbf', 'rareqs', 'caqe', 'qute')
    """
    return tuple(name for name, spec in SOLVERS.items() if spec.certifies)


def find_solver(name: str) -> tuple[SolverSpec, str]:
    """The spec and executable path of solver ``name``, or of an executable given by path."""
    if name in SOLVERS:
        spec = SOLVERS[name]
        here = Path(sys.executable).parent
        built = Path(sysconfig.get_path("purelib")) / PYQBF_PREFIX
        for binary in spec.binaries:
            for local in (built / binary, here / binary):
                if local.is_file() and os.access(local, os.X_OK):
                    return spec, str(local)
            found = shutil.which(binary)
            if found:
                return spec, found
        raise SolverError(f"QBF solver {name!r} is not installed "
                          f"(looked for {', '.join(spec.binaries)}); {INSTALL_HINT}")
    path = shutil.which(name) or (name if os.path.isfile(name) else None)
    if path is not None and not os.access(path, os.X_OK):
        raise SolverError(f"QBF solver {name!r} is not executable (chmod +x it)")
    if path is None:
        raise SolverError(f"unknown QBF solver {name!r}: choose one of "
                          f"{', '.join(solver_names())} or give the path of an executable")
    return SolverSpec(Path(path).name, (path,)), path


def is_known(name: str) -> bool:
    """Whether ``name`` is one of :data:`SOLVERS` (installed or not) or the path of an
    executable: anything else is a user's mistake rather than a missing solver."""
    if name in SOLVERS:
        return True
    path = shutil.which(name) or (name if os.path.isfile(name) else None)
    return path is not None and os.access(path, os.X_OK)


@functools.lru_cache(maxsize=None)
def solver_version(name: str) -> str:
    """What identifies the executable that solver ``name`` runs: the version it prints
    for ``--version`` (its first line with a number in it; RAReQS prints none), the pyqbf
    release that built it when it is pyqbf's, and the start of the file's SHA-256, so that
    a rebuild counts as another version. Raises SolverError as :func:`find_solver` does."""
    spec, exe = find_solver(name)
    ran = run_child(spec, exe, ["--version"], timeout=VERSION_TIMEOUT_S, memory_mb=None)
    said = next((line.removeprefix("c ").strip(" ,") for line in (ran.out + "\n" + ran.err).splitlines()
                 if re.search(r"\d\.\d", line)), None)
    parts = [said[:80] if said else "no version printed"]
    built = (Path(sysconfig.get_path("purelib")) / PYQBF_PREFIX).resolve()
    if Path(exe).resolve().parent == built:
        parts.append(f"pyqbf {importlib.metadata.version('pyqbf')}")
    with open(exe, "rb") as fh:  # hashlib.file_digest is Python 3.11's
        parts.append(f"sha256 {hashlib.sha256(fh.read()).hexdigest()[:12]}")
    return ", ".join(parts)


def is_installed(name: str) -> bool:
    """Whether ``find_solver(name)`` finds an executable."""
    try:
        find_solver(name)
    except SolverError:
        return False
    return True


def parse_certificate(text: str, num_vars: int | None = None) -> dict[int, bool]:
    """A solver's printed assignment as {variable: value}.

    DepQBF, CAQE and RAReQS print ``V lit ... [0]`` lines; Qute prints a bare line of
    literals ending in 0 after ``SAT``. Comment (``c``) and solution (``s``) lines are
    skipped. Raises ValueError on a ``V`` line that is not integers or a variable out of
    range.
    """
    values: dict[int, bool] = {}
    for line in text.splitlines():
        parts = line.split()
        if not parts or parts[0] in ("c", "s"):
            continue
        if parts[0] in ("V", "v"):
            tokens = parts[1:]
        elif all(re.fullmatch(r"[+-]?\d+", t) for t in parts) and parts[-1] == "0":
            tokens = parts
        else:
            continue
        for token in tokens:
            lit = int(token)  # ValueError on garbage
            if lit == 0:
                continue
            if num_vars is not None and abs(lit) > num_vars:
                raise ValueError(f"certificate literal {lit} outside 1..{num_vars}")
            values[abs(lit)] = lit > 0
    return values


def _child_setup(memory_mb: int | None, cpu_s: int | None = None):
    """Runs in the solver process before exec: the memory and CPU limits, the nice value
    carried into its session's scheduling group (:mod:`tsumeqbf.niceness`), the stop
    signals that :func:`run_solver` held while starting it unblocked, and on Linux a
    signal that kills the solver if the thread that started it dies (a batch worker
    killed outright must not leave a solver running in its own session)."""
    import resource  # (imported here: in the child past RLIMIT_AS an import can fail)

    def apply():
        carry_nice()
        unhold_signals()
        die_with_parent(signal.SIGKILL)
        # the limits last: the steps above may allocate, and the child still holds the
        # parent's address space
        if memory_mb:
            # (past what the kernel's limit can hold, as good as none)
            limit = min(memory_mb * 1024 * 1024, 2 ** 63 - 1)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if cpu_s:
            seconds = min(cpu_s, NO_LIMIT_S)
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    return apply


#: the solvers this process runs now (threads may run several): what solvers_stopped kills
_RUNNING: set = set()
_RUNNING_LOCK = threading.Lock()
#: how many solvers_stopped blocks are open: while any is, a solver that starts is killed
#: at once (read with _RUNNING under the lock, so none slips between the kill and its start)
_STOPPING = 0


@contextlib.contextmanager
def solvers_stopped():
    """Kill the process group of every solver this process runs now, and of every solver
    a thread starts within the block. For a command that runs solvers on threads and is
    stopped: the threads would otherwise hold its exit until each solver ends (a thread
    about to start one at the instant of the kill too); what they return then is not a
    result. Wait for the threads within the block."""
    global _STOPPING
    with _RUNNING_LOCK:
        _STOPPING += 1
        running = list(_RUNNING)
    try:
        for proc in running:
            _kill_group(proc)
        yield
    finally:
        with _RUNNING_LOCK:
            _STOPPING -= 1


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class _Waited(subprocess.Popen):
    """A Popen that reaps its process with ``os.wait4`` and keeps the ``rusage``: the
    kernel's account of the process and of the children it waited for."""
    rusage = None

    def _try_wait(self, wait_flags):
        try:
            pid, status, usage = os.wait4(self.pid, wait_flags)
        except ChildProcessError:  # reaped elsewhere: what Popen itself assumes then
            return self.pid, 0
        if pid == self.pid:
            self.rusage = usage
        return pid, status


def _start(spec: SolverSpec, exe: str, args: list[str], memory_mb: int | None,
           cpu_s: int | None = None) -> subprocess.Popen:
    """The solver started in its own session (its own process group, for the kill)."""
    try:
        return _Waited([exe, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace", start_new_session=True,
                       preexec_fn=_child_setup(memory_mb, cpu_s))
    except OSError as exc:
        raise SolverError(f"cannot start {spec.name} ({exe}): {exc.strerror}") from None


class _SolverLimit(Exception):
    """The solver must be stopped; ``reason`` says why."""

    def __init__(self, reason: str):
        self.reason = reason


def _communicate(proc: subprocess.Popen, timeout: float | None) -> tuple[str, str]:
    """The solver's output once it ends; :class:`_SolverLimit` with the reason when its
    time is up or the machine has less than its reserve of memory left (the kernel would
    otherwise kill some process, not necessarily the solver)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    reserve = machine_reserve_mb()
    while True:
        step = WATCH_S if deadline is None else min(WATCH_S, max(0.0, deadline - time.monotonic()))
        try:
            return proc.communicate(timeout=step)  # retried, no output is lost
        except subprocess.TimeoutExpired:
            pass
        if deadline is not None and time.monotonic() >= deadline:
            raise _SolverLimit(f"timeout in the solver after {timeout:.1f} s")
        available = meminfo_mb("MemAvailable")
        if reserve is not None and available is not None and available < reserve:
            raise _SolverLimit(f"memory limit in the solver (the machine has "
                               f"{available:.0f} MB left)")


@dataclass
class Ran:
    """How a child process ended: its exit ``code`` and output, or ``limit``, the reason
    it was stopped (then ``code`` is None); its CPU seconds and peak MB by ``os.wait4``,
    and the whole CPU seconds it was allowed (``cpu_limit``, RLIMIT_CPU)."""
    code: int | None
    out: str
    err: str
    seconds: float
    limit: str = ""
    cpu_s: float | None = None
    peak_mb: float | None = None
    cpu_limit: int | None = None

    def cpu_limited(self) -> bool:
        """Whether the child ended without a verdict at its CPU limit: killed by SIGXCPU,
        or any other end once its CPU seconds reached the limit (SIGKILL, the hard limit a
        second on; a solver that catches SIGXCPU and exits)."""
        if not self.cpu_limit or self.code is None or self.code in (10, 20):
            return False
        # the kernel charges ticks to RLIMIT_CPU and precise times to rusage: seen 0.93 s
        # in rusage at a limit of 1 s
        return self.code == -signal.SIGXCPU or (self.cpu_s or 0) >= self.cpu_limit - 0.2


def _measured(ran: Ran, proc: subprocess.Popen, cpu_limit: int | None) -> Ran:
    ran.cpu_limit = cpu_limit
    if proc.rusage is not None:
        ran.cpu_s, ran.peak_mb = add_child(proc.rusage)
    return ran


def run_child(spec: SolverSpec, exe: str, args: list[str], *, timeout: float | None,
              memory_mb: int | None, cpu_limit: float | None = None) -> Ran:
    """Run ``exe args`` in a process group of its own, watched for the deadline and the
    machine's memory reserve; the group is killed whatever happens (a limit, Ctrl-C,
    SIGTERM), so no child outlives the call. ``cpu_limit`` (and, within
    :func:`tsumeqbf.usage.cpu_limited`, the CPU seconds left) becomes its RLIMIT_CPU."""
    start = time.monotonic()
    cpu_s = child_cpu_limit(cpu_limit)
    proc = None
    try:
        with signals_held():  # a stop signal between the start and ``proc = `` would orphan it
            proc = _start(spec, exe, args, memory_mb, cpu_s)
            with _RUNNING_LOCK:
                _RUNNING.add(proc)
                stopping = _STOPPING > 0
            if stopping:  # started as solvers_stopped killed the others: this one too
                _kill_group(proc)
        out, err = _communicate(proc, timeout)
    except _SolverLimit as stop:
        _kill_group(proc)
        proc.communicate()
        return _measured(Ran(None, "", "", time.monotonic() - start, stop.reason), proc, cpu_s)
    except BaseException:  # Ctrl-C, SIGTERM (tsumeqbf.stop): never leave the child running
        if proc is not None:
            _kill_group(proc)
            proc.wait()
        raise
    finally:
        if proc is not None:
            _kill_group(proc)  # children it may have left behind
            with _RUNNING_LOCK:
                _RUNNING.discard(proc)
    return _measured(Ran(proc.returncode, out, err, time.monotonic() - start), proc, cpu_s)


def run_solver(name: str, qdimacs: str | Path, *, timeout: float | None = None,
               memory_mb: int | None = None, num_vars: int | None = None,
               extra_args: tuple[str, ...] = (), cpu_limit: float | None = None) -> SolverResult:
    """Solve a QDIMACS file (a path) or text (a str that contains a ``p cnf`` line);
    ``timeout`` is wall seconds, ``cpu_limit`` the solver's CPU seconds."""
    spec, exe = find_solver(name)
    tmp = None
    if isinstance(qdimacs, str) and "p cnf" in qdimacs:
        tmp = tempfile.NamedTemporaryFile("w", suffix=".qdimacs", delete=False)
        tmp.write(qdimacs)
        tmp.close()
        path = tmp.name
    else:
        path = str(qdimacs)
        if not os.path.isfile(path):
            raise SolverError(f"no such QDIMACS file: {path}")
    try:
        ran = run_child(spec, exe, [*spec.args, *extra_args, path], timeout=timeout,
                        memory_mb=memory_mb, cpu_limit=cpu_limit)
    finally:
        if tmp:
            os.unlink(tmp.name)
    result = _judge(spec, ran, memory_mb, num_vars)
    result.cpu_s, result.peak_mb = ran.cpu_s, ran.peak_mb
    return result


def _judge(spec: SolverSpec, ran: Ran, memory_mb: int | None, num_vars: int | None) -> SolverResult:
    """The verdict from how the solver ended: its exit code, a limit, a signal."""
    if ran.limit:
        return SolverResult(spec.name, Status.UNKNOWN, None, ran.seconds, message=ran.limit)
    if ran.cpu_limited():
        return SolverResult(spec.name, Status.UNKNOWN, ran.code, ran.seconds,
                            message=f"CPU time limit in the solver ({ran.cpu_limit} s)")
    code, out, err, elapsed = ran.code, ran.out, ran.err, ran.seconds
    if code in (10, 20):
        status = "true" if code == 10 else "false"
        try:
            assignment = parse_certificate(out, num_vars)
        except ValueError as exc:
            return SolverResult(spec.name, Status.ERROR, code, elapsed,
                                message=f"{spec.name} printed a garbled certificate: {exc}")
        return SolverResult(spec.name, status, code, elapsed, assignment)
    last = (err.strip() or out.strip()).splitlines()[-1:] or [""]
    said = f": {last[0][:200]}" if last[0] else " and printed nothing"
    if code < 0:
        sig = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else -code
        if memory_mb and sig in ("SIGKILL", "SIGSEGV", "SIGABRT"):
            return SolverResult(spec.name, Status.UNKNOWN, code, elapsed,
                                message=f"killed by {sig}: memory limit in the solver ({memory_mb} MB)?")
        return SolverResult(spec.name, Status.ERROR, code, elapsed,
                            message=f"{spec.name} died with {sig}{said}")
    if code == 0 and memory_mb and "alloc" in (err + out).lower():
        return SolverResult(spec.name, Status.UNKNOWN, code, elapsed,
                            message=f"memory limit in the solver ({memory_mb} MB): out of memory")
    return SolverResult(spec.name, Status.ERROR, code, elapsed,
                        message=f"{spec.name} exited with code {code} (not 10/20){said}")
