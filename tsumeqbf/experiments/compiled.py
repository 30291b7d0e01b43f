"""Which part of a cell runs compiled code and which runs Python, for a report's reader.

A timing comparison between engines is one between implementations as much as between
methods: a QBF cell is the encoder in Python (building and writing the formula) and then a
compiled solver, df-pn is Python on the rules engine (backend ``rules``) or the native
core compiled from C++ (backend ``native``, the standard 9x9 board only), brute force is
Python. :func:`code_rows` says so per engine, from the rows themselves (the ``solver``,
``solver_version`` and ``dfpn_backend`` columns, else the engine's name and options), with
the median CPU seconds of its decided cells and the share of them its compiled solver took
(``solver_cpu_s``, counted by the kernel for the solver's process).

>>> rows = [{**Answer.decided(True).to_row(), "label": "dfpn", "engine": "dfpn",
...          "options": '{"backend":"native"}', "cpu_s": 0.02, "solver_cpu_s": 0.0},
...         {**Answer.decided(False).to_row(), "label": "caqe", "engine": "caqe", "options": "{}",
...          "cpu_s": 0.5, "solver_cpu_s": 0.3,
...          "solver_version": "CAQE 4.0.1, pyqbf 1.1.1.3, sha256 7f41abd0ae69"}]
>>> for row in code_rows(rows, ["dfpn", "caqe"]):
...     print(row)
['dfpn', 'reading the question', 'df-pn search and move generation (native core, C++)', '0.020', '-']
['caqe', 'encoder (builds and writes the formula)', 'solver CAQE 4.0.1 (Rust)', '0.500', '0.300']
"""

from __future__ import annotations

import json
import statistics

from ..engines import is_qbf_engine
from ..provenance import DFPN_ENGINES, solver_of
from ..values import Answer, verdict_of

#: the language each QBF solver binary is compiled from (its pyqbf build: DepQBF's has no
#: C++ runtime, CAQE's is Rust with Rust's runtime in it)
LANGUAGES = {"depqbf": "C", "rareqs": "C++", "caqe": "Rust", "qfun": "C++", "qute": "C++"}

HEADER = ["engine", "runs in Python", "runs compiled", "median CPU s (decided)",
          "of it the compiled solver's"]


def _options(row: dict) -> dict:
    options = row.get("options") or {}
    if isinstance(options, str):
        try:
            options = json.loads(options)
        except ValueError:
            options = {}
    return options


def _runs_solver(row: dict) -> bool:
    return bool(row.get("solver")) or is_qbf_engine(row.get("engine") or "")


def parts(row: dict) -> tuple[str, str]:
    """What of a row's engine runs in Python, and what compiled."""
    engine, options = row.get("engine") or "", _options(row)
    if _runs_solver(row):
        name = row.get("solver") or solver_of(engine, options) or engine
        version = (row.get("solver_version") or "").split(", pyqbf")[0]  # the binary's own words
        if not version or version.startswith("no version"):
            version = name
        language = LANGUAGES.get(name)
        return ("encoder (builds and writes the formula)",
                f"solver {version}" + (f" ({language})" if language else ""))
    if engine in DFPN_ENGINES:
        backend = row.get("dfpn_backend") or options.get("backend") or "rules"
        if backend == "native":
            return "reading the question", "df-pn search and move generation (native core, C++)"
        return "df-pn search and the rules engine", "none"
    if engine == "brute":
        return "the whole search (rules engine)", "none"
    return "?", "?"


def code_rows(rows: list[dict], labels: list[str]) -> list[list[str]]:
    """A row per engine label: what runs in Python, what compiled, the median CPU seconds
    of its decided cells and of their compiled solver ('-' where not measured or none)."""
    out = []
    for label in labels:
        mine = [r for r in rows if r["label"] == label]
        kinds = sorted({parts(r) for r in mine})
        decided = [r for r in mine if verdict_of(r) is not None and r.get("cpu_s") is not None]
        cpu = f"{statistics.median(r['cpu_s'] for r in decided):.3f}" if decided else "-"
        solver = [r["solver_cpu_s"] for r in decided
                  if r.get("solver_cpu_s") is not None and _runs_solver(r)]
        out.append([label, "; ".join(k[0] for k in kinds), "; ".join(k[1] for k in kinds), cpu,
                    f"{statistics.median(solver):.3f}" if solver else "-"])
    return out
