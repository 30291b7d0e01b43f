"""``bench dfpn --only cshogi``: cshogi's DfPn alone, its seconds recorded per problem with
the rows' provenance, and ``--plot --beside-csv`` drawing them beside ours."""

import csv
from pathlib import Path

import pytest

from bench_refusal import refusal
from tsumeqbf.bench.dfpn import CSHOGI_FIELDS
from tsumeqbf.bench.dfpn import main as bench
from tsumeqbf.bench.dfpn import with_cshogi_seconds

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "results" / "runs" / "dfpn-edo" / "dfpn-edo-1m.csv"


def _rows(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_only_cshogi_records_its_verdict_nodes_and_seconds_and_none_of_ours(tmp_path, capsys):
    pytest.importorskip("cshogi")
    out = tmp_path / "cshogi.csv"
    assert bench(["--only", "cshogi", "--ids", "zukou-002,zukou-001", "--max-nodes", "5000",
                  "--csv", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "bounded total" not in printed and "solved" not in printed  # our search never ran
    rows = _rows(out)
    assert list(rows[0]) == CSHOGI_FIELDS
    two, one = rows
    # the same proof as the committed 1M run recorded for zukou-002 (1,783 nodes)
    committed = {r["id"]: r for r in _rows(COMMITTED)}["zukou-002"]
    assert (two["id"], two["cshogi_proven"], two["cshogi_nodes"]) == (
        "zukou-002", "True", committed["cshogi_nodes"])
    assert (one["id"], one["cshogi_proven"], one["cshogi_nodes"]) == ("zukou-001", "False", "5000")
    for row in rows:
        assert float(row["cshogi_time_s"]) >= 0 and float(row["cshogi_cpu_s"]) >= 0
        assert row["cshogi"] and row["cpu_model"] and row["dfpn_backend"] == ""
    assert bench(["--only", "cshogi", "--ids", "zukou-002,zukou-003", "--max-nodes", "5000",
                  "--csv", str(out), "--resume"]) == 0
    assert [r["id"] for r in _rows(out)] == ["zukou-002", "zukou-001", "zukou-003"]


def test_only_cshogi_and_beside_csv_refuse_what_they_cannot_do(tmp_path, capsys):
    pytest.importorskip("cshogi")
    assert refusal(capsys, "dfpn", ["--only", "cshogi", "--edo", "0"]
                   ).startswith("--only cshogi runs the Edo problems")
    assert refusal(capsys, "dfpn", ["--only", "cshogi", "--ids", "zukou-002", "--csv",
                                    str(tmp_path / "c.csv"), "--plot", str(tmp_path / "p.png")]
                   ).startswith("--only cshogi writes no picture")
    assert refusal(capsys, "dfpn", ["--no-bounded", "--edo", "0", "--beside-csv",
                                    str(tmp_path / "c.csv")]) == "--beside-csv goes with --plot"


def test_plot_draws_cshogi_seconds_from_the_beside_csv_where_its_run_matches(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from tsumeqbf.bench.dfpn_plot import plot_edo

    ours = tmp_path / "ours.csv"
    ours.write_text("id,stated_length,status,length,nodes,time_s,replay,cshogi_proven,cshogi_nodes\n"
                    "zukou-002,21,mate,21,2586,0.061,ok,True,1783\n"
                    "zukou-003,45,mate,45,120,0.010,ok,True,60\n"
                    "zukou-001,69,unknown,,1000001,35.8,-,False,1000000\n", encoding="utf-8")
    theirs = tmp_path / "theirs.csv"
    theirs.write_text("id,stated_length,cshogi_proven,cshogi_nodes,cshogi_time_s,cshogi_cpu_s,repeat\n"
                      "zukou-002,21,True,1783,0.004,0.003,1\n"
                      "zukou-003,45,True,61,0.001,0.001,1\n"  # another run's count: left out
                      "zukou-001,69,False,1000000,2.2,2.1,1\n", encoding="utf-8")
    plain, beside = tmp_path / "plain.png", tmp_path / "beside.png"
    args = ["--no-bounded", "--edo", "0", "--max-nodes", "1000000", "--csv", str(ours)]
    assert bench([*args, "--plot", str(plain)]) == 0
    capsys.readouterr()
    assert bench([*args, "--plot", str(beside), "--beside-csv", str(theirs)]) == 0
    printed = capsys.readouterr().out
    assert ("cshogi seconds: 2 of 3 rows (1 with another verdict or node count left out: "
            "zukou-003)") in printed
    assert "where both solve (1): median seconds ours 0.061, cshogi 0.004 (CPU 0.003)" in printed
    assert f"picture: {beside}" in printed
    # the same title with and without cshogi's seconds: the points make the difference
    rows = _rows(ours)
    timed, _ = with_cshogi_seconds(rows, _rows(theirs))
    assert plot_edo(rows, plain, "t", 1_000_000) and plot_edo(timed, beside, "t", 1_000_000)
    assert beside.read_bytes() != plain.read_bytes()
    assert ours.read_text(encoding="utf-8").count("\n") == 4  # the CSV left as it was
