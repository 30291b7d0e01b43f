"""What made a result row: the code, the tools and the machine, as a row's columns.

Every result row (``batch`` JSONL, experiment store and CSV, benchmark CSVs) carries
:func:`row_fields`: the toolkit's ``commit`` and whether its tree was ``clean`` (the
package and ``pyproject.toml``; ``results/`` does not count, a run writes there), the ``encoder_version`` (of the cell's encoding for a QBF engine), the QBF ``solver`` and
its ``solver_version`` (:func:`tsumeqbf.solvers.runner.solver_version`: what it prints for
``--version``, the pyqbf release, the start of its SHA-256), the df-pn ``dfpn_backend``, the versions of
``pyqbf``, ``pysat`` and ``cshogi``, the ``cpu_model``, the ``cores`` this process may run
on and the machine's ``load`` (1-minute load average) when the row was made. All but the
load are looked up once per process.

>>> from tsumeqbf.rules import Position
>>> fields = row_fields("dfpn", {}, Position.from_sfen("2k/3/1GP b - 1", zone=2))
>>> fields["solver"], fields["dfpn_backend"], fields["encoder_version"].isdigit()
(None, 'rules', True)
>>> row_fields("dfpn", {})["dfpn_backend"], row_fields("tsume", {"backend": "cshogi"})["dfpn_backend"]
('auto', 'cshogi')
>>> solver_of("qbf", {"solver": "/opt/bin/caqe"}), solver_of("tsume", {})
('caqe', None)
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import platform
import subprocess
from importlib import metadata
from pathlib import Path

#: the columns :func:`row_fields` fills, in the order the CSVs put them
FIELDS = ("commit", "clean", "encoder_version", "solver", "solver_version", "dfpn_backend",
          "pyqbf", "pysat", "cshogi", "cpu_model", "cores", "load")
#: the engines that run df-pn
DFPN_ENGINES = ("dfpn", "tsume")
HERE = Path(__file__).resolve().parent


def _git(*args) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=HERE, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


@functools.lru_cache(maxsize=None)
def checkout() -> tuple[str | None, bool | None]:
    """The short commit of the checkout this package runs from and whether its code is
    unchanged from it; (None, None) for an installed package or without git."""
    if not (HERE.parent / "pyproject.toml").is_file():
        return None, None  # an installed package: a git folder around it is another project's
    commit = _git("rev-parse", "--short=7", "HEAD")
    if commit is None:
        return None, None
    changed = _git("status", "--porcelain", "--", ":/tsumeqbf", ":/pyproject.toml")
    return commit, None if changed is None else not changed


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


@functools.lru_cache(maxsize=None)
def tools() -> dict:
    """The versions of the libraries a verdict depends on (None when not installed)."""
    return {"pyqbf": _version("pyqbf"), "pysat": _version("python-sat"), "cshogi": _version("cshogi")}


@functools.lru_cache(maxsize=None)
def cpu_model() -> str:
    with contextlib.suppress(OSError):
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def cores() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def loads() -> tuple[float, float, float]:
    """The machine's 1, 5 and 15-minute load averages now, NaNs where it gives none."""
    try:
        return os.getloadavg()
    except (AttributeError, OSError):  # (Windows has none)
        return (float("nan"),) * 3


def load() -> float | None:
    """The machine's 1-minute load average now, None where it gives none."""
    one = loads()[0]
    return None if math.isnan(one) else round(one, 2)


def solver_of(engine: str, options: dict) -> str | None:
    """The QBF solver a cell runs: its engine's name, or engine qbf's ``solver`` option
    (a path by its file name); None for df-pn and brute force."""
    from .solvers.runner import SOLVERS

    if engine in SOLVERS:
        return engine
    if engine == "qbf":
        return Path(str(options.get("solver") or "depqbf")).name
    return None


def _solver_version(name: str) -> str | None:
    from .solvers.runner import SolverError, solver_version

    try:
        return solver_version(name)
    except SolverError:
        return None  # not installed: the row's error says so


def dfpn_backend(engine: str, options: dict, pos=None) -> str | None:
    """The df-pn search a row of ``engine`` run with ``options`` on ``pos`` (a Position)
    ran: the ``backend`` option, and for ``auto`` (the default) the one auto chooses for
    ``pos``, so that the row of a cell whose worker was killed names the search that would
    have answered; ``auto`` without a position. None for the other engines."""
    if engine not in DFPN_ENGINES:
        return None
    from .rules import TsumeError

    try:
        if engine == "dfpn":
            from .dfpn.engine import MateOptions, chosen_backend

            settings = MateOptions.from_config(options)
            return settings.backend if pos is None else chosen_backend(pos, settings)
        from .dfpn.native_solve import fastest_backend
        from .dfpn.options import SolveOptions

        settings = SolveOptions.from_config(options)
    except (TsumeError, TypeError, ValueError):  # bad options: the row's error says so
        return options.get("backend")
    if settings.backend != "auto" or pos is None:
        return settings.backend
    return fastest_backend(pos, settings)


def row_fields(engine: str, options: dict | None, pos=None) -> dict:
    """The provenance columns of a row of ``engine`` run with ``options`` on ``pos`` (a
    Position, or None when it is not known: then a df-pn backend ``auto`` stays so)."""
    from .encoder.registry import DEFAULT_ENCODING, VERSION, encoding_version

    options = options or {}
    commit, clean = checkout()
    solver = solver_of(engine, options)
    try:
        encoder = encoding_version(options.get("encoding") or DEFAULT_ENCODING) if solver else VERSION
    except ValueError:  # an unknown encoding: the row's error says so
        encoder = VERSION
    return {"commit": commit, "clean": clean, "encoder_version": encoder, "solver": solver,
            "solver_version": _solver_version(options.get("solver") or solver) if solver else None,
            "dfpn_backend": dfpn_backend(engine, options, pos),
            **tools(), "cpu_model": cpu_model(), "cores": cores(), "load": load()}
