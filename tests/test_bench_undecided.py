"""``python -m tsumeqbf.bench undecided``: the questions a committed CSV left undecided,
asked again and checked against brute force."""

import subprocess
import sys

import pytest

from tsumeqbf.experiments.store import COLUMNS, write_csv
from tsumeqbf.solvers import is_installed


def _row(instance, engine, sfen, n, mate):
    row = {name: None for name, _ in COLUMNS}
    row.update(key=f"{instance}|{engine}", instance=instance, sfen=sfen, n=n, zone=1,
               meta="{}", engine=engine, label=engine, options="{}", timeout=10.0,
               status="unknown" if mate is None else ("mate" if mate else "nomate"), mate=mate)
    return row


def _bench(*args):
    return subprocess.run([sys.executable, "-m", "tsumeqbf.bench", "undecided", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(not is_installed("depqbf"), reason="pyqbf solvers not installed")
def test_undecided_questions_are_asked_again(tmp_path):
    csv = tmp_path / "x.csv"
    write_csv(csv, [_row("q1", "depqbf", "k2/2K/2R b N2Pp 1", 3, None),   # a mate in 3
                    _row("q1", "brute", "k2/2K/2R b N2Pp 1", 3, True),
                    _row("q2", "depqbf", "k2/3/2R b N2Pp 1", 3, False),   # decided: not asked
                    _row("q3", "rareqs", "k2/3/2R b N2Pp 1", 5, None)])   # past --max-plies
    out = _bench("--csv", str(csv), "--solvers", "depqbf", "--timeout", "60")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("1 questions of at most 3 plies")
    assert "q1" in out.stdout and "q2" not in out.stdout and "q3" not in out.stdout
    assert "depqbf mate" in out.stdout and "depqbf: decided 1 of 1" in out.stdout


def test_bad_input_is_one_line(tmp_path):
    out = _bench("--solvers", "nosuch")
    assert (out.returncode, out.stderr) == (
        2, "tsumeqbf.bench undecided: error: unknown solver 'nosuch'\n")
    out = _bench("--csv", str(tmp_path / "missing.csv"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert out.stderr.startswith(f"tsumeqbf.bench undecided: error: cannot read {tmp_path}")
