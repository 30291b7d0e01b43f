"""The SAT call that decides the check, by one of PySAT's solvers."""

from __future__ import annotations

import contextlib
import signal
import time

from ...stop import Stopped
from .result import CheckUnknown

#: the SAT solver of PySAT that decides the check; with a deadline one that PySAT can
#: interrupt (its CaDiCaL builds cannot be: measured, a timer's interrupt raises)
SAT_SOLVER = "cadical153"
SAT_SOLVER_WITH_DEADLINE = "glucose4"


#: what PySAT's error says when SIGINT came during its C call
PYSAT_INTERRUPT = "Caught keyboard interrupt"


@contextlib.contextmanager
def sigint_stops():
    """PySAT's ``solve`` sets its own SIGINT handler for the C call and, on Ctrl-C, raises
    its own error, an Exception: it is raised here as the Ctrl-C it is (:class:`Stopped`,
    exit 130), never taken for a failed check or a bug."""
    try:
        yield
    except Exception as exc:
        if type(exc).__module__ == "pysolvers" and str(exc) == PYSAT_INTERRUPT:
            raise Stopped(signal.SIGINT) from None
        raise


@contextlib.contextmanager
def stops_interrupt(solver):
    """While the block runs ``solver.solve_limited(expect_interrupt=True)`` on the main
    thread, a stop signal (SIGTERM, SIGHUP, SIGINT) interrupts the solver at once: Python
    acts on a signal only between bytecodes, so the handler that stops the command
    (:mod:`tsumeqbf.stop`) would otherwise wait for the C call to return. The signal is
    seen by a thread through the interpreter's wakeup file descriptor (PySAT's Glucose
    releases the GIL in that call, so the thread runs), and the handler raises as soon as
    the call returns. Elsewhere than on the main thread, or where a wakeup descriptor is
    set already (someone else's), nothing changes."""
    import os
    import select
    import threading

    from ...stop import STOP_SIGNALS

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    seen, write = os.pipe()
    os.set_blocking(write, False)
    old = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    if old != -1:
        signal.set_wakeup_fd(old)
        os.close(seen)
        os.close(write)
        yield
        return
    done, finish = os.pipe()
    stops = {int(x) for x in STOP_SIGNALS}

    def watch():
        while True:
            ready, _, _ = select.select([seen, done], [], [])
            if done in ready:
                return
            if stops & set(os.read(seen, 64)):
                solver.interrupt()
                return

    watcher = threading.Thread(target=watch, name="sat-stop-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(-1)
        os.write(finish, b"x")
        watcher.join()
        for fd in (seen, write, done, finish):
            os.close(fd)


def solve_cnf(clauses: list, deadline: float | None):
    """(satisfiable, model) by PySAT's solver; CheckUnknown past the deadline."""
    import threading

    from pysat.solvers import Solver

    name = SAT_SOLVER if deadline is None else SAT_SOLVER_WITH_DEADLINE
    with sigint_stops(), Solver(name=name, bootstrap_with=clauses) as s:
        if deadline is None:
            sat = s.solve()
        else:
            timer = threading.Timer(max(0.0, deadline - time.monotonic()), s.interrupt)
            timer.start()
            try:
                with stops_interrupt(s):
                    sat = s.solve_limited(expect_interrupt=True)
            finally:
                timer.cancel()
            if sat is None:
                raise CheckUnknown("timeout in the SAT call")
        return sat, (s.get_model() if sat else None)
