"""The SAT call that decides the check, by one of PySAT's solvers."""

from __future__ import annotations

import time

from .result import CheckUnknown

#: the SAT solver of PySAT that decides the check; with a deadline one that PySAT can
#: interrupt (its CaDiCaL builds cannot be: measured, a timer's interrupt raises)
SAT_SOLVER = "cadical153"
SAT_SOLVER_WITH_DEADLINE = "glucose4"


def solve_cnf(clauses: list, deadline: float | None):
    """(satisfiable, model) by PySAT's solver; CheckUnknown past the deadline."""
    import threading

    from pysat.solvers import Solver

    name = SAT_SOLVER if deadline is None else SAT_SOLVER_WITH_DEADLINE
    with Solver(name=name, bootstrap_with=clauses) as s:
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
