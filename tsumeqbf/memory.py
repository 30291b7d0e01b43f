"""How much memory this process holds and the machine has left (Linux /proc; elsewhere
what ``getrusage`` gives, or nothing)."""

from __future__ import annotations

import os
import resource
import sys


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
    1 GB. An encoding stops, and a solver is killed, when less than this is available, so
    that a question far too large ends as ``unknown`` (however many run at once, and with
    no ``memory_mb``) rather than growing until the kernel kills some process."""
    total = meminfo_mb("MemTotal")
    return None if total is None else min(total / 20, 1024)
