"""A bench's ``--csv`` names a file: ``-`` is refused in one line rather than written as a
file named ``-`` (the bench's table takes standard output)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("bench", ["dfpn", "lengths", "along", "answers"])
def test_a_bench_refuses_csv_to_standard_output(bench, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "tsumeqbf.bench", bench, "--csv", "-"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].endswith(
        "'-' is not offered here: the bench prints its table on standard output; name a file")
    assert list(tmp_path.iterdir()) == []
