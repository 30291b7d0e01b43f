"""What a question cost by the kernel's accounting, and a limit on its CPU seconds.

:func:`measured` wraps one engine call. Its CPU seconds are the calling thread's own
(``time.thread_time``: still right when dask runs cells as threads of one process) plus,
for every child process the call started and waited for (a QBF solver), the user and
system seconds that ``os.wait4`` returned for it (:func:`add_child`, called by
:mod:`tsumeqbf.solvers.runner`). Its peak memory is the largest resident set among this
process (``ru_maxrss``; a forked worker's includes what it shares with its parent) and
those children: the peak of one process, not a sum. BenchExec's cgroups would add every
process of the solver's group and its page cache; docs/experiments.md says when that works.

:func:`cpu_limited` bounds the CPU seconds of a block the way competitions do, through
the kernel: a profiling timer (``ITIMER_PROF``, the process's user and system seconds)
raises :class:`~tsumeqbf.limits.LimitReached` in the search that runs; a child started
inside gets the seconds left as its own ``RLIMIT_CPU`` (:func:`cpu_left`: the block's
seconds less this process's and those of the children already reaped), so a solver is
stopped by the kernel (SIGXCPU), not by us.

>>> with measured() as used:
...     _ = sum(range(10_000))
>>> used.cpu_s >= 0 and used.peak_mb > 0, used.method
(True, 'rusage')
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import os
import resource
import signal
import sys
import threading
import time
from dataclasses import dataclass

from .limits import LimitReached

#: how every row's CPU seconds and peak memory were measured (the ``measured_by`` column)
METHOD = "rusage"


def maxrss_mb(ru_maxrss: int) -> float:
    """``ru_maxrss`` in MB (kilobytes on Linux, bytes on macOS)."""
    return ru_maxrss / 2**20 if sys.platform == "darwin" else ru_maxrss / 1024


@dataclass
class Usage:
    """CPU seconds and peak resident MB of one measured call; ``children_cpu_s`` is the
    part spent in child processes (the QBF solvers)."""
    cpu_s: float = 0.0
    children_cpu_s: float = 0.0
    peak_mb: float = 0.0
    method: str = METHOD

    def row(self) -> dict:
        """The result keys of a measured engine call."""
        return {"cpu_s": round(self.cpu_s, 6), "solver_cpu_s": round(self.children_cpu_s, 6),
                "peak_mb": round(self.peak_mb, 1), "measured_by": self.method}


_usage: contextvars.ContextVar[Usage | None] = contextvars.ContextVar("usage", default=None)


@contextlib.contextmanager
def measured():
    """Measure the block: yields a :class:`Usage`, filled in when the block ends."""
    usage = Usage()
    token = _usage.set(usage)
    start = time.thread_time()
    try:
        yield usage
    finally:
        _usage.reset(token)
        usage.cpu_s += time.thread_time() - start
        own = maxrss_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        usage.peak_mb = max(usage.peak_mb, own)


def add_child(rusage) -> tuple[float, float]:
    """Count a waited-for child's rusage (from ``os.wait4``) in the measured block, if
    any; returns its CPU seconds and peak MB."""
    cpu = rusage.ru_utime + rusage.ru_stime
    peak = maxrss_mb(rusage.ru_maxrss)
    usage = _usage.get()
    if usage is not None:
        usage.cpu_s += cpu
        usage.children_cpu_s += cpu
        usage.peak_mb = max(usage.peak_mb, peak)
    inner = block = _cpu_block.get()
    while block is not None:  # (each enclosing limit's seconds are spent too)
        block.children_s += cpu
        block = block.outer
    if inner is not None and inner.armed_by == os.getpid():
        # this process's timer now ends where the block's seconds do (a little later when
        # they are spent: the answer that says so is made first)
        signal.setitimer(signal.ITIMER_PROF, min(max(inner.left(), RETRY_S), NO_LIMIT_S),
                         RETRY_S)
    return cpu, peak


def tree_cpu_s(roots) -> float:
    """The CPU seconds so far of the processes ``roots`` and of every descendant of theirs
    alive now: each one's user and system seconds and those of the children it has reaped
    (``/proc/PID/stat``), so a process reaped by another of the tree is counted once. For
    a portfolio's members at work (:mod:`tsumeqbf.solvers.portfolio`), whose solvers
    ``os.wait4`` counts only once they end. 0 where there is no ``/proc``.

    >>> tree_cpu_s([os.getpid()]) >= 0, tree_cpu_s([])
    (True, 0.0)
    """
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0.0
    parent, ticks = {}, {}
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:  # ended meanwhile
            continue
        # after "(comm)": state ppid ... utime stime cutime cstime (fields 3, 4, 14-17)
        fields = stat[stat.rfind(b")") + 2:].split()
        parent[int(name)] = int(fields[1])
        ticks[int(name)] = sum(int(f) for f in fields[11:15])
    children: dict[int, list[int]] = {}
    for pid, ppid in parent.items():
        children.setdefault(ppid, []).append(pid)
    total, todo, seen = 0, list(roots), set()
    while todo:
        pid = todo.pop()
        if pid in seen or pid not in ticks:
            continue
        seen.add(pid)
        total += ticks[pid]
        todo += children.get(pid, [])
    return total / os.sysconf("SC_CLK_TCK")


# -- the CPU limit -----------------------------------------------------------------------

@dataclass
class _CpuBlock:
    """A :func:`cpu_limited` block of ``seconds``: the process CPU time it ends at, the
    seconds of the children reaped inside it (:func:`add_child`), the block around it,
    the process whose profiling timer it set (its main thread's; a forked child has no
    timer, though it has the block)."""
    end: float
    seconds: float
    outer: _CpuBlock | None = None
    children_s: float = 0.0
    armed_by: int = 0

    def left(self) -> float:
        return self.end - _process_cpu() - self.children_s

    def reached(self) -> LimitReached:
        return LimitReached(f"CPU time limit ({self.seconds:g} s)")


_cpu_block: contextvars.ContextVar[_CpuBlock | None] = contextvars.ContextVar("cpu_block",
                                                                              default=None)


def _process_cpu() -> float:
    return time.process_time()


def cpu_left() -> float | None:
    """The CPU seconds left to the innermost :func:`cpu_limited` block (None outside):
    its seconds less this process's and those of the children reaped inside it, so that
    solvers started one after another share the block's seconds rather than each getting
    what this process alone has left.

    >>> from types import SimpleNamespace
    >>> solver = SimpleNamespace(ru_utime=25.0, ru_stime=5.0, ru_maxrss=0)  # os.wait4's
    >>> with cpu_limited(100):
    ...     before = cpu_left()
    ...     _ = add_child(solver)
    ...     round(before - cpu_left())
    30
    """
    block = _cpu_block.get()
    return None if block is None else max(0.0, block.left())


#: CPU seconds between the limit's signals once it is reached (one can be lost: see cpu_limited)
RETRY_S = 0.05
#: CPU seconds after which the limit is raised again though its exception was not seen lost
#: (a search that caught it and went on)
AGAIN_S = 1.0
#: a CPU limit of this many seconds (68 years) or more is as good as none: what the
#: profiling timer holds, and far below where the kernel's RLIMIT_CPU in nanoseconds
#: overflows
NO_LIMIT_S = 2 ** 31


@contextlib.contextmanager
def cpu_limited(seconds: float | None):
    """Within the block, this process stops (LimitReached) once it has used ``seconds``
    more CPU seconds, its own and its children's together: each child gets what is left when
    it starts (:func:`cpu_left`; at least a whole second, as RLIMIT_CPU counts), none is
    started once nothing is left, and as each is reaped this process's timer is set to
    end where the block's seconds do. The kernel counts them (a profiling
    timer, ``ITIMER_PROF``: user and system time of the process), in the main thread only
    (the signal goes to the process); elsewhere only the children are limited. The timer
    counts whole scheduler ticks, which can run ahead of the time actually used, so a signal
    before ``time.process_time`` (the clock rows are measured by) has reached the limit
    waits for the next one.

    The timer signals again every :data:`RETRY_S` once the limit is reached, because Python
    drops an exception raised while a gc callback runs (it goes to ``sys.unraisablehook``):
    such a lost limit is raised again at the next signal. One that is on its way up is not
    raised again for :data:`AGAIN_S`, so the code that turns it into an answer (an except
    block, a native search's tables freed) is not interrupted by a second one."""
    if not seconds:
        yield
        return
    if not seconds > 0:  # (NaN too)
        raise ValueError(f"a CPU limit must be above 0 seconds, not {seconds}")
    block = _CpuBlock(_process_cpu() + seconds, seconds, outer=_cpu_block.get())
    token = _cpu_block.set(block)
    here = threading.current_thread() is threading.main_thread()
    old_handler = old_timer = old_hook = unset = object()  # (set only in the main thread)
    raised = {"at": None, "lost": False}
    try:
        if here:
            def stop(signum, frame):
                if block.left() > 0:  # the timer's ticks ran ahead of the precise clock
                    return                # rows use
                now = _process_cpu()
                if raised["at"] is not None and not raised["lost"] and now - raised["at"] < AGAIN_S:
                    return
                raised.update(at=now, lost=False)
                raise block.reached()

            def note_lost(unraisable, chain=sys.unraisablehook):
                if isinstance(unraisable.exc_value, LimitReached):
                    raised["lost"] = True
                else:
                    chain(unraisable)

            old_hook, sys.unraisablehook = sys.unraisablehook, note_lost
            old_handler = signal.signal(signal.SIGPROF, stop)
            old_timer = signal.setitimer(signal.ITIMER_PROF, min(seconds, NO_LIMIT_S), RETRY_S)
            block.armed_by = os.getpid()
        yield
    finally:
        if old_timer is not unset:  # the timer first: no signal may find no handler
            signal.setitimer(signal.ITIMER_PROF, *old_timer)
        if old_handler is not unset:
            signal.signal(signal.SIGPROF, old_handler)
        if old_hook is not unset:
            sys.unraisablehook = old_hook
        _cpu_block.reset(token)


def child_cpu_limit(seconds: float | None = None) -> int | None:
    """The whole CPU seconds a child started now may use: ``seconds`` or the block's
    seconds left, whichever is less, at least 1 (RLIMIT_CPU counts whole seconds).
    LimitReached when the block has none left: no child is started past the limit."""
    block_left = cpu_left()
    if block_left == 0:
        raise _cpu_block.get().reached()
    left = [s for s in (seconds, block_left) if s is not None]
    # (rounded first: the end less the clock can come out a hair above a whole number)
    return max(1, math.ceil(round(min(left), 6))) if left else None
