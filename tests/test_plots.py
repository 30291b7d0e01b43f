"""The reports' pictures: legends beside the data, series told apart past ten, and the
pictures each report draws from the numbers it states (re-rendered from committed CSVs)."""

import shutil
import statistics
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from tsumeqbf.experiments.config import experiment_path, load_experiment  # noqa: E402
from tsumeqbf.experiments.plots import line_figure  # noqa: E402
from tsumeqbf.experiments.qbf_report import encoding_name  # noqa: E402
from tsumeqbf.experiments.report import render_report  # noqa: E402
from tsumeqbf.experiments.store import read_csv  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_the_legend_sits_beside_the_data_and_17_series_keep_their_own_colour_and_marker():
    series = {f"engine-{i}": [10.0 ** -i, 10.0 ** (1 - i), None] for i in range(17)}
    fig = line_figure("t", "plies", ["1", "3", "5"], series,
                      reference=("engine-16",))  # a published series: black
    ax = fig.axes[0]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    axes = ax.get_window_extent(renderer)
    assert legend.x0 >= axes.x1  # right of the axes: over no point
    ours = [line for line in ax.get_lines() if line.get_label() != "engine-16"]
    assert len(ours) == 16
    styles = [(line.get_color(), line.get_marker()) for line in ours]
    assert len(set(styles)) == 16
    assert all(styles[i][1] != styles[i + 10][1] for i in range(6))  # past ten: new markers
    import matplotlib.pyplot as plt
    plt.close(fig)


def _rendered(report: str, tmp_path: Path) -> tuple[str, Path]:
    """The committed report rendered again, with its pictures, in tmp_path."""
    name, quick = (report[:-len("-quick")], True) if report.endswith("-quick") else (report, False)
    shutil.copy(ROOT / "results" / f"{report}.csv", tmp_path)
    exp = load_experiment(experiment_path(name), quick=quick, with_instances=False)
    # the committed reports of rows from several commits are rendered --mixed
    md = render_report(exp, results_dir=tmp_path, plots=True, mixed=True)
    return md.read_text(encoding="utf-8"), tmp_path


def test_nagai_heuristics_draws_nodes_per_heuristic_set_and_problem(tmp_path):
    md, out = _rendered("nagai-heuristics-quick", tmp_path)
    assert (out / "nagai-heuristics-quick-nodes.png").stat().st_size > 10_000
    assert "![nodes per heuristic set and problem](nagai-heuristics-quick-nodes.png)" in md
    assert ("- pictures: `nagai-heuristics-quick-nodes.png`, drawn from "
            "`nagai-heuristics-quick.csv` by `tsumeqbf experiment report nagai-heuristics --quick`") in md


def test_qbf_real_states_and_draws_formula_size_against_plies(tmp_path):
    md, out = _rendered("qbf-real", tmp_path)
    assert (out / "qbf-real-formula.png").stat().st_size > 10_000
    assert "![formula clauses against plies per encoding](qbf-real-formula.png)" in md
    # the table beside the picture: the median clauses of one formula per question
    rows = read_csv(ROOT / "results" / "qbf-real.csv")
    formulas = {r["instance"]: r["clauses"] for r in rows
                if encoding_name(r) == "enumerated" and r["n"] == 7 and r["clauses"] is not None}
    against_plies = md[md.index("Against plies:"):]
    line = next(text for text in against_plies.splitlines() if text.startswith("| enumerated |"))
    assert line.split(" | ")[4] == f"{int(statistics.median(formulas.values()))} ({len(formulas)})"
    # the committed rows are of one commit (83efc6c): the command needs no --mixed
    assert ("`qbf-real-formula.png`, drawn from `qbf-real.csv` by "
            "`tsumeqbf experiment report qbf-real`") in md


def test_every_line_plot_report_names_its_pictures_and_their_command(tmp_path):
    md, out = _rendered("agreement-quick", tmp_path)
    assert ("- pictures: `agreement-quick-plies.png`, `agreement-quick-boards.png`, drawn from "
            "`agreement-quick.csv` by `tsumeqbf experiment report agreement --quick`") in md
    assert {p.name for p in out.glob("*.png")} == {"agreement-quick-plies.png",
                                                    "agreement-quick-boards.png"}


def test_bench_dfpn_draws_a_committed_csv_without_solving_or_changing_it(tmp_path, capsys):
    from tsumeqbf.bench.dfpn import main

    committed = ROOT / "results" / "runs" / "dfpn-edo" / "dfpn-edo-1m.csv"
    before = committed.read_bytes()
    png = tmp_path / "edo.png"
    assert main(["--no-bounded", "--edo", "0", "--max-nodes", "1000000", "--csv", str(committed),
                 "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert "solved 175/200 (zukou 91/100, musou 84/100); cshogi DfPn 138/200" in out
    assert f"picture: {png}" in out and png.stat().st_size > 10_000
    assert committed.read_bytes() == before
    from bench_refusal import refusal

    assert refusal(capsys, "dfpn", ["--no-bounded", "--edo", "0", "--plot", str(png)]
                   ) == "--plot draws the rows of --csv; give --csv"
