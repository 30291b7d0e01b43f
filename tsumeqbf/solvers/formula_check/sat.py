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
                sat = s.solve_limited(expect_interrupt=True)
            finally:
                timer.cancel()
            if sat is None:
                raise CheckUnknown("timeout in the SAT call")
        return sat, (s.get_model() if sat else None)
