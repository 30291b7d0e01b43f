"""QBF solvers behind one interface: ``run_solver(name, qdimacs, timeout=...)``.

>>> "depqbf" in solver_names()
True
"""

from .runner import (SOLVERS, SolverError, SolverResult, SolverSpec, certifying_solvers,
                     find_solver, is_installed, parse_certificate, run_solver, solver_names)

__all__ = ["SOLVERS", "SolverError", "SolverResult", "SolverSpec", "certifying_solvers",
           "find_solver", "is_installed", "parse_certificate", "run_solver", "solver_names"]
