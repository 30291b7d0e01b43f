"""Limits on the whole question: a deadline, this process's memory, and a reserve of the
machine's memory that nothing may take.

Inside ``with limits(deadline=..., memory_mb=...)``, the work that grows (a formula being
built or written, :mod:`tsumeqbf.encoder.formula`; a search's nodes, brute force and
df-pn) calls :func:`check_budget` (or :func:`memory_exceeded`) every few thousand steps,
and stops with the reason past a limit. The limits are a context variable, not a global:
dask runs several cells as threads of one process.

>>> with limits(memory_mb=10**9, reserve_mb=0) as budget:
...     memory_exceeded() is None
True
>>> with limits(memory_mb=1, reserve_mb=0, stage="searching") as budget:
...     pass
Traceback (most recent call last):
tsumeqbf.limits.LimitReached: memory limit while searching (1 MB)
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import resource
import sys
import time
from dataclasses import dataclass


def resident_mb() -> float:
    """This process's resident memory in MB (its peak where /proc is missing)."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if sys.platform == "darwin" else peak / 1024  # bytes vs KB


def meminfo_mb(field: str) -> float | None:
    """A line of /proc/meminfo (``MemAvailable``, ``MemTotal``) in MB; None without it."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def machine_reserve_mb() -> float | None:
    """The memory the machine keeps whatever the limits: a twentieth of it, at most
    1 GB. An encoding or a search stops, and a solver is killed, when less than this is
    available, so that a question far too large ends as ``unknown`` (however many run at
    once, and with no ``memory_mb``) rather than growing until the kernel kills some
    process."""
    total = meminfo_mb("MemTotal")
    return None if total is None else min(total / 20, 1024)


class LimitReached(Exception):
    """Work inside :func:`limits` went past its deadline or a memory limit; ``reason``
    says which and where (``timeout while encoding``)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class Budget:
    """The limits in force: ``deadline`` (a ``time.monotonic()`` value), ``memory_mb``
    (resident memory of this process), ``reserve_mb`` (memory the machine must keep
    available) and ``stage``, the word a reason ends with; ``reached`` is the reason of
    the first limit found passed."""
    deadline: float | None = None
    memory_mb: float | None = None
    reserve_mb: float | None = None
    stage: str = "encoding"
    reached: str | None = None

    def check(self) -> None:
        """Raise :class:`LimitReached` past the deadline or a memory limit."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.reached = self.reached or f"timeout while {self.stage}"
            raise LimitReached(f"timeout while {self.stage}")
        reason = self.memory_reason()
        if reason:
            raise LimitReached(reason)

    def memory_reason(self) -> str | None:
        """Why the memory limits are passed, or None."""
        reason = None
        if self.memory_mb is not None and resident_mb() > self.memory_mb:
            reason = f"memory limit while {self.stage} ({self.memory_mb:g} MB)"
        elif self.reserve_mb is not None:
            available = meminfo_mb("MemAvailable")
            if available is not None and available < self.reserve_mb:
                reason = (f"memory limit while {self.stage} "
                          f"(the machine has {available:.0f} MB left)")
        self.reached = self.reached or reason
        return reason


_budget: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("budget", default=None)


@contextlib.contextmanager
def limits(deadline: float | None = None, memory_mb: float | None = None,
           reserve_mb: float | None = None, stage: str = "encoding"):
    """Bound the work inside the block; yields the :class:`Budget` (set its ``stage`` to
    name what runs next). ``reserve_mb`` defaults to :func:`machine_reserve_mb`."""
    budget = Budget(deadline, memory_mb,
                    machine_reserve_mb() if reserve_mb is None else reserve_mb, stage)
    token = _budget.set(budget)
    try:
        budget.check()
        yield budget
    finally:
        _budget.reset(token)


def check_budget() -> None:
    """Raise :class:`LimitReached` if a :func:`limits` block is past its deadline or
    memory limit; nothing outside one."""
    budget = _budget.get()
    if budget is not None:
        budget.check()


def memory_exceeded() -> str | None:
    """Why the memory limits in force are passed, or None (and outside :func:`limits`):
    for searches that keep their own clock and stop with their own exception."""
    budget = _budget.get()
    return None if budget is None else budget.memory_reason()
