"""bench dfpn --repeat: rounds of the same problems, each row with its CPU seconds and
what made it; the summary's spread; an older CSV without those columns still resumes."""

import csv

import pytest

from tsumeqbf.bench.dfpn import FIELDS
from tsumeqbf.bench.dfpn import main as bench

ARGS = ["--no-bounded", "--max-nodes", "3000", "--shorten-nodes", "0"]


def _rows(path):
    with open(path, encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_repeats_are_rows_of_their_own_with_cpu_seconds_and_provenance(tmp_path, capsys):
    out = tmp_path / "edo.csv"
    assert bench(["--ids", "zukou-002", "--repeat", "2", "--csv", str(out)] + ARGS) == 0
    rows = _rows(out)
    assert [(r["id"], r["repeat"]) for r in rows] == [("zukou-002", "1"), ("zukou-002", "2")]
    for r in rows:
        assert r["status"] == "mate" and float(r["cpu_s"]) > 0
        assert r["dfpn_backend"] == "rules" and r["encoder_version"] and r["cpu_model"]
        assert r["commit"] and r["clean"] in ("True", "False") and r["load"]
    printed = capsys.readouterr().out
    assert "solved 1/1 (zukou 1/1)" in printed  # the first round's count
    assert "repeats 2: solved 1, 1 (min / median / max 1 / 1 / 1)" in printed
    # a resumed run with more rounds runs only the rounds missing
    assert bench(["--ids", "zukou-002", "--repeat", "3", "--resume", "--csv", str(out)] + ARGS) == 0
    assert [r["repeat"] for r in _rows(out)] == ["1", "2", "3"]
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:  # (every bench's numbers: test_bench_numbers.py)
        bench(["--ids", "zukou-002", "--repeat", "0"] + ARGS)
    assert exc.value.code == 2
    assert capsys.readouterr().err == ("tsumeqbf.bench dfpn: error: argument --repeat: must be "
                                       "above 0 (leave the option out for its default), got 0\n")


def test_a_csv_written_before_the_new_columns_resumes_with_its_own(tmp_path):
    out = tmp_path / "edo.csv"
    old = FIELDS[:FIELDS.index("repeat")]
    out.write_text(",".join(old) + "\n" + "zukou-001,69,unknown" + "," * (len(old) - 3) + "\n")
    assert bench(["--edo", "2", "--resume", "--csv", str(out)] + ARGS) == 0
    rows = _rows(out)
    assert [r["id"] for r in rows] == ["zukou-001", "zukou-002"]
    assert list(rows[1]) == old and rows[1]["status"] == "mate"


def test_a_csv_with_the_old_name_of_the_nodes_spent_resumes_under_it(tmp_path):
    # the column of the shortening's nodes spent was `shorten_nodes`, the name of the
    # option that gives it a budget; the committed runs keep it
    assert "shorten_spent" in FIELDS and "shorten_nodes" not in FIELDS
    old = [("shorten_nodes" if f == "shorten_spent" else f) for f in FIELDS]
    out = tmp_path / "edo.csv"
    out.write_text(",".join(old) + "\n" + "zukou-001,69,unknown" + "," * (len(old) - 3) + "\n")
    shorten = ["--no-bounded", "--max-nodes", "3000", "--shorten-nodes", "500"]
    assert bench(["--edo", "2", "--resume", "--csv", str(out)] + shorten) == 0
    rows = _rows(out)
    assert [r["id"] for r in rows] == ["zukou-001", "zukou-002"]
    assert list(rows[1]) == old and rows[1]["status"] == "mate"
    assert 0 < int(rows[1]["shorten_nodes"]) <= 500 + 1
    fresh = tmp_path / "new.csv"
    assert bench(["--ids", "zukou-002", "--csv", str(fresh)] + shorten) == 0
    assert list(_rows(fresh)[0]) == FIELDS and int(_rows(fresh)[0]["shorten_spent"]) > 0
