"""Preprocessing the question's QDIMACS before the solver: the engines' option ``preprocess``.

``none`` (the default) gives the solver the encoder's formula. ``bloqqer`` first runs
pyqbf's Bloqqer (``pyqbf.process.Bloqqer().preprocess``) on it and gives the solver
Bloqqer's output, or takes Bloqqer's own verdict when it decides the formula (its
``preprocess`` then returns True or False instead of a formula).

Bloqqer is a C++ call inside pyqbf's extension: once started it cannot be interrupted
from Python, and it keeps global state between calls. So it runs in a child Python
process, started and stopped exactly like a solver (:mod:`.runner`: its own session,
``memory_mb`` of address space, killed at the deadline or when the machine's memory
reserve is reached). The child exits 10 or 20 when Bloqqer decides the formula and 0
when it has written the preprocessed formula, which is then read back by the strict
QDIMACS reader (:func:`tsumeqbf.encoder.formula.read_qdimacs`): an output that is not
valid QDIMACS is an error, never given to a solver.

A solver's assignment to a preprocessed formula is not an assignment to the encoder's
variables, so a true verdict reached through Bloqqer carries no first move (the engine
says ``certificate: "none (preprocessed)"``); ``certify`` checks the strategy on the
unprocessed sub-questions.

>>> PREPROCESSORS
('none', 'bloqqer')
>>> check_preprocess("bloqer")
Traceback (most recent call last):
ValueError: unknown preprocess 'bloqer'; choose one of none, bloqqer
"""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
import tempfile
import time
from dataclasses import dataclass

from ..encoder.formula import read_qdimacs
from ..stop import signals_held
from .runner import (SolverError, SolverSpec, _communicate, _kill_group, _SolverLimit,
                     _start)

PREPROCESSORS = ("none", "bloqqer")

#: the child: Bloqqer on argv[1], its formula written to argv[2], or its verdict as the
#: exit code (10 true, 20 false, as a solver's)
_BLOQQER_CHILD = r"""
import sys
from pyqbf.formula import PCNF
from pyqbf.process import Bloqqer
result = Bloqqer().preprocess(PCNF(from_file=sys.argv[1]))
if isinstance(result, bool):
    sys.exit(10 if result else 20)
with open(sys.argv[2], "w") as fh:
    fh.write(result.to_qdimacs())
"""

_SPEC = SolverSpec("bloqqer", (sys.executable,))


@dataclass
class Preprocessed:
    """``status``: ``formula`` (written to ``path``, with its ``vars`` and ``clauses``),
    ``true`` or ``false`` (decided by the preprocessor), ``unknown`` (a limit) or
    ``error``; ``message`` says why for the last two."""
    status: str
    time_s: float
    path: str | None = None
    vars: int | None = None
    clauses: int | None = None
    message: str = ""


def check_preprocess(name: str) -> None:
    """ValueError for a name that is not a preprocessor, SolverError when it is not
    installed; said before any encoding."""
    if name not in PREPROCESSORS:
        raise ValueError(f"unknown preprocess {name!r}; choose one of {', '.join(PREPROCESSORS)}")
    if name == "bloqqer" and (importlib.util.find_spec("pyqbf") is None
                              or importlib.util.find_spec("pyqbf_cpp") is None):
        raise SolverError("preprocess 'bloqqer' needs pyqbf's Bloqqer; install it with "
                          "`pip install pyqbf`")


def preprocess(name: str, path: str, *, timeout: float | None = None,
               memory_mb: int | None = None) -> Preprocessed:
    """Preprocess the QDIMACS file ``path`` with ``name`` (``bloqqer``) within ``timeout``
    seconds and ``memory_mb``; a ``formula`` result's file is the caller's to delete."""
    check_preprocess(name)
    if name == "none":
        raise ValueError("preprocess 'none' has nothing to run")
    fd, out_path = tempfile.mkstemp(suffix=".qdimacs", prefix="tsumeqbf-bloqqer-")
    os.close(fd)
    try:
        result = _run_bloqqer(path, out_path, timeout, memory_mb)
    except BaseException:
        os.unlink(out_path)
        raise
    if result.status != "formula":
        os.unlink(out_path)
    return result


def _run_bloqqer(path: str, out_path: str, timeout: float | None,
                 memory_mb: int | None) -> Preprocessed:
    start = time.monotonic()
    proc = None
    try:
        with signals_held():  # as run_solver: a stop signal must not orphan the child
            proc = _start(_SPEC, sys.executable, ["-c", _BLOQQER_CHILD, path, out_path],
                          memory_mb)
        out, err = _communicate(proc, timeout, where="the preprocessor (bloqqer)")
    except _SolverLimit as stop:
        _kill_group(proc)
        proc.communicate()
        return Preprocessed("unknown", time.monotonic() - start, message=stop.reason)
    except BaseException:
        if proc is not None:
            _kill_group(proc)
            proc.wait()
        raise
    finally:
        if proc is not None:
            _kill_group(proc)
    elapsed = time.monotonic() - start
    code = proc.returncode
    if code in (10, 20):
        return Preprocessed("true" if code == 10 else "false", elapsed)
    last = (err.strip() or out.strip()).splitlines()[-1:] or [""]
    if code != 0:
        if code < 0:
            sig = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else -code
            what = f"died with {sig}"
        else:
            what = f"exited with code {code}"
        if memory_mb and (code < 0 or "MemoryError" in err or "alloc" in err):
            return Preprocessed("unknown", elapsed, message=f"memory limit in the preprocessor "
                                f"(bloqqer, {memory_mb} MB)? it {what}: {last[0][:200]}")
        return Preprocessed("error", elapsed, message=f"bloqqer {what}: {last[0][:200]}")
    try:
        with open(out_path, encoding="ascii") as fh:
            num_vars, _, clauses, _ = read_qdimacs(fh.read())
    except (ValueError, UnicodeDecodeError) as exc:  # QdimacsError is a ValueError
        return Preprocessed("error", time.monotonic() - start,
                            message=f"bloqqer wrote invalid QDIMACS: {exc}")
    # the check of the output is part of the preprocessing's seconds
    return Preprocessed("formula", time.monotonic() - start, out_path, num_vars, len(clauses))
