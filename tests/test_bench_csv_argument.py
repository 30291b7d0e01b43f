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


def _bench(tmp_path, *argv):
    return subprocess.run([sys.executable, "-m", "tsumeqbf.bench", *argv], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("argv, fragment", [
    (["certify", "--plies", "2", "--count", "1"], "certify: error: n must be an odd number"),
    (["certify", "--sizes", "0x0", "--count", "1"], "certify: error: board 0x0 is outside"),
    (["dfpn", "--edo", "1", "--csv", "."], "dfpn: error: .: Is a directory"),
    (["nosuch"], "unknown benchmark 'nosuch'"),
])
def test_bad_input_to_a_bench_is_one_line_with_status_2(tmp_path, argv, fragment):
    # once tracebacks (TsumeError, ValueError, IsADirectoryError)
    proc = _bench(tmp_path, *argv)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert fragment in proc.stderr.strip().splitlines()[0]


def test_bench_help_lists_the_benchmarks(tmp_path):
    proc = _bench(tmp_path, "--help")
    assert proc.returncode == 0 and "movegen" in proc.stdout and "usi-mate" in proc.stdout
