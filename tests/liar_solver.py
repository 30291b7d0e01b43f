"""QDIMACS "solvers" that lie, for the certification tests: ``make_liar(tmp_path, mode)``
writes an executable that the QBF engine runs as ``--solver PATH``.

Modes:
- ``sat``: drops the quantifiers and solves the matrix as plain SAT (PySAT); claims true
  (exit 10) with the model's values of the outermost block whenever the matrix is
  satisfiable, false otherwise;
- ``flip``: runs DepQBF and flips its verdict; a true it invents comes with random values
  of the outermost block;
- ``random``: claims true with random values of the outermost block, always;
- ``deep``: answers as DepQBF does for its first ``LIAR_TRUTHFUL`` calls (a count kept in
  a file beside the script), then flips every verdict: a lie only below the root.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def make_liar(folder: Path, mode: str, truthful_calls: int = 1) -> str:
    """The path of an executable liar of ``mode``."""
    path = folder / f"liar-{mode}"
    path.write_text(f"#!{sys.executable}\n"
                    f"import sys\nsys.path.insert(0, {str(HERE)!r})\n"
                    f"from liar_solver import main\n"
                    f"main({mode!r}, {str(folder / f'liar-{mode}.calls')!r}, {truthful_calls})\n")
    path.chmod(0o755)
    return str(path)


def read_qdimacs(path: str) -> tuple[list[tuple[str, list[int]]], list[list[int]]]:
    prefix, clauses = [], []
    with open(path) as fh:
        for line in fh:
            parts = line.split()
            if not parts or parts[0] in ("c", "p"):
                continue
            if parts[0] in ("e", "a"):
                prefix.append((parts[0], [int(x) for x in parts[1:-1]]))
            else:
                clauses.append([int(x) for x in parts[:-1]])
    return prefix, clauses


def depqbf(path: str) -> tuple[int, str]:
    from tsumeqbf.solvers.runner import find_solver

    spec, exe = find_solver("depqbf")
    done = subprocess.run([exe, *spec.args, path], capture_output=True, text=True)
    return done.returncode, done.stdout


def claim_true(path: str, values: dict[int, bool] | None = None) -> None:
    """Exit 10 with values for the outermost block (random where ``values`` has none)."""
    prefix, _ = read_qdimacs(path)
    rng = random.Random(hashlib.sha256(Path(path).read_bytes()).digest())
    outer = prefix[0][1] if prefix and prefix[0][0] == "e" else []
    lits = [v if (values or {}).get(v, rng.random() < 0.5) else -v for v in outer]
    print("s cnf 1")
    for lit in lits:
        print(f"V {lit} 0")
    sys.exit(10)


def flipped(path: str) -> None:
    code, _ = depqbf(path)
    if code == 10:
        print("s cnf 0")
        sys.exit(20)
    if code == 20:
        claim_true(path)
    sys.exit(code)


def main(mode: str, calls_file: str, truthful_calls: int) -> None:
    path = sys.argv[-1]
    if mode == "sat":
        from pysat.solvers import Solver

        _, clauses = read_qdimacs(path)
        with Solver(name="g3", bootstrap_with=clauses) as sat:
            if not sat.solve():
                sys.exit(20)
            claim_true(path, {abs(lit): lit > 0 for lit in sat.get_model()})
    if mode == "random":
        claim_true(path)
    if mode == "flip":
        flipped(path)
    if mode == "deep":
        calls = int(Path(calls_file).read_text()) if os.path.exists(calls_file) else 0
        Path(calls_file).write_text(str(calls + 1))
        if calls >= truthful_calls:
            flipped(path)
        code, out = depqbf(path)
        sys.stdout.write(out)
        sys.exit(code)
    sys.exit(f"unknown liar mode {mode}")
