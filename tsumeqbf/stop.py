"""Stopping a command cleanly: SIGTERM, SIGHUP and SIGINT become an exception.

Every clean-up of a command is a ``finally`` or ``except BaseException`` block: the solver's
process group killed in :func:`tsumeqbf.solvers.runner.run_solver`, a pool's workers
stopped in :func:`tsumeqbf.batch.iter_pool`, an experiment's CSV exported. Python runs
them on Ctrl-C (KeyboardInterrupt) but not on SIGTERM or SIGHUP, whose default action
ends the process at once and leaves a solver that runs in its own session (so that a
timeout can kill its group) running with parent 1. Inside :func:`stop_on_signals` the
first of the three raises :class:`Stopped`, a KeyboardInterrupt, so every Ctrl-C handler
applies; signals that follow within ``AGAIN_AFTER_S`` are ignored, so that a second
``kill`` or Ctrl-C cannot cut the clean-up short. A signal ignored when the command
started (``nohup``) stays ignored.

>>> stopped = Stopped(signal.SIGTERM)
>>> isinstance(stopped, KeyboardInterrupt), stopped.exit_status
(True, 143)
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

#: seconds after a stop signal during which more of them are ignored (the clean-up's time)
AGAIN_AFTER_S = 10.0


class Stopped(KeyboardInterrupt):
    """A stop signal received; ``signum`` is which, ``exit_status`` the shell's 128 + it."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        return 128 + self.signum


def _raise_once():
    first: list[float] = []

    def handle(signum, frame):
        if first and time.monotonic() - first[0] < AGAIN_AFTER_S:
            return  # the first one's clean-up is running: let it finish
        first[:] = [time.monotonic()]
        raise Stopped(signum)
    handle.stops = True  # marks our handler, so that nested blocks leave it in place
    return handle


def _install(handler, signums) -> dict:
    """Set ``handler`` for each signal not ignored now; returns the handlers replaced."""
    old = {}
    for signum in signums:
        current = signal.getsignal(signum)
        if current is not signal.SIG_IGN:
            old[signum] = signal.signal(signum, handler)
    return old


@contextlib.contextmanager
def stop_on_signals():
    """Within the block, SIGTERM, SIGHUP and SIGINT raise :class:`Stopped` (main thread
    only: elsewhere, and inside another such block, nothing changes)."""
    if (threading.current_thread() is not threading.main_thread()
            or getattr(signal.getsignal(signal.SIGTERM), "stops", False)):
        yield
        return
    old = _install(_raise_once(), STOP_SIGNALS)
    try:
        yield
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def signals_held():
    """Hold the stop signals for a few lines that must not be cut in two, such as
    starting a solver and keeping its handle: one that arrives meanwhile is delivered
    as the block ends."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def unhold_signals() -> None:
    """In a child (a solver about to exec, a pool worker with its handlers set): the
    signals held while it was started must not stay blocked in it."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def die_with_parent(signum: int) -> None:
    """Linux: have ``signum`` sent to this process when the thread that forked it ends
    (nothing elsewhere)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None, use_errno=True).prctl(1, signum)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def worker_signals(parent: int) -> None:
    """In a pool worker (a forked child of a command): SIGINT and SIGHUP, which a
    terminal sends to the whole process group, are the parent's to act on (it stops the
    workers); SIGTERM, the parent's way to stop one, and the parent's death raise
    :class:`Stopped`, so the worker's own clean-up (its solver's group) runs."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _raise_once())
    die_with_parent(signal.SIGTERM)
    unhold_signals()  # the pool holds them while it forks, until these handlers are set
    if os.getppid() != parent:  # ``parent`` died before the line above: nothing to do
        raise Stopped(signal.SIGTERM)
