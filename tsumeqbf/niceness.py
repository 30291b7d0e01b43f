"""A process that starts a session of its own keeps its nice value in the scheduler.

Linux with autogroups on (``/proc/sys/kernel/sched_autogroup_enabled``, the default of many
distributions) shares the CPU first between sessions, then between the processes of each
session, and a process's nice value counts only inside its session. A solver started in a
session of its own (so that a timeout can kill its whole group) would then get a full
session's share whatever nice value ``nice -n 10 tsumeqbf ...`` gave it and the command, and
a niced experiment would compete with other work at full weight. :func:`carry_nice` gives
the new session's group the process's nice value (``/proc/self/autogroup``), which the
kernel lets any process raise for its own group.
"""

from __future__ import annotations

import os

AUTOGROUP = "/proc/self/autogroup"


def carry_nice() -> int | None:
    """Set this process's autogroup to its nice value, when that is above 0 and the kernel
    has autogroups; returns the nice value set, else None. Call it right after ``setsid``
    (in a ``preexec_fn`` it runs after ``start_new_session``'s)."""
    nice = os.nice(0)
    if nice <= 0:
        return None
    try:
        with open(AUTOGROUP, "w") as group:
            group.write(str(nice))
    except OSError:  # no autogroups here, or not ours to change: nothing to carry
        return None
    return nice
