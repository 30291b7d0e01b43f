"""The qbf-real experiment's pieces: packaged collections as sources, a source's own
length filter, and the ``qbf`` report (PAR-2, cactus points, sizes per encoding)."""

import json
import textwrap

from tsumeqbf.data import collection_cases
from tsumeqbf.experiments.config import load_experiment
from tsumeqbf.experiments.qbf_report import cactus_points, encoding_name, par2
from tsumeqbf.experiments.report import render_report
from tsumeqbf.experiments.store import COLUMNS, write_csv
from tsumeqbf.rules import Position


def _experiment(tmp_path, body):
    folder = tmp_path / "experiments"
    folder.mkdir(exist_ok=True)
    path = folder / "q.toml"
    path.write_text(textwrap.dedent(body))
    return path


def test_yaneuraou_samples_are_questions_at_their_stated_length():
    cases = collection_cases("yaneuraou_mate_samples.csv")
    assert len(cases) == 42 == len({c["id"] for c in cases})
    lengths = {c["n"] for c in cases}
    assert lengths == {3, 5, 7, 9, 11}
    for c in cases:
        pos = Position.from_sfen(c["sfen"])
        assert (pos.geo.width, pos.geo.height) == (9, 9)
        assert c["collection"] == f"yaneuraou-mate{c['n']}" and c["id"].startswith(c["collection"] + "-")


def test_a_collection_source_and_its_length_filter(tmp_path):
    exp = load_experiment(_experiment(tmp_path, """
        [[instances]]
        file = "open_tsume_zukou_musou.csv"
        max_plies = 9
        [[instances]]
        file = "yaneuraou_mate_samples.csv"
        max_plies = 5
        [[engines]]
        engine = "dfpn"
    """))
    assert all(i["n"] <= 5 for i in exp.instances if i["id"].startswith("yaneuraou"))
    assert sum(i["id"].startswith("yaneuraou") for i in exp.instances) == 21
    edo = [i for i in exp.instances if not i["id"].startswith("yaneuraou")]
    assert {i["meta"]["collection"] for i in edo} == {"zukou", "musou"}
    assert len(edo) == 2 and all(i["n"] == 9 for i in edo)  # one of each is stated 9 plies


def test_a_bad_source_length_is_one_error(tmp_path):
    import pytest
    from tsumeqbf.rules import TsumeError

    path = _experiment(tmp_path, """
        [[instances]]
        file = "figures.jsonl"
        max_plies = 0
        [[engines]]
        engine = "dfpn"
    """)
    with pytest.raises(TsumeError, match=r"instances\[0\]\.max_plies: must be at least 1"):
        load_experiment(path)


def test_par2_counts_an_undecided_cell_at_twice_its_limit():
    rows = [{"mate": True, "time_s": 2.0, "timeout": 60.0},
            {"mate": False, "time_s": 4.0, "timeout": 60.0},
            {"mate": None, "status": "unknown", "time_s": 60.2, "timeout": 60.0},
            {"mate": None, "status": "error", "time_s": 0.5, "timeout": 60.0}]
    assert par2(rows) == (2.0 + 4.0 + 120.0 + 120.0) / 4
    assert cactus_points(rows) == [2.0, 4.0]
    assert par2([]) is None


def test_encoding_names_show_the_axes_set():
    assert encoding_name({"options": json.dumps({"solver": "caqe", "encoding": "compact"}),
                          "vars": 10}) == "compact"
    assert encoding_name({"options": json.dumps({"encoding": "compact", "attacker_moves": "binary",
                                                 "defender_moves": "onehot-sequential"})}) == \
        "compact defender_moves=onehot-sequential"
    assert encoding_name({"options": json.dumps({"max_nodes": 5})}) is None  # df-pn
    # the portfolio's row carries its answering member's formula size, not a compact one
    assert encoding_name({"engine": "portfolio", "options": json.dumps({"jobs": 2}),
                          "vars": 343, "clauses": 656}) is None


def _row(instance, label, mate, time_s, collection, **extra):
    row = {name: None for name, _ in COLUMNS}
    options = {"encoding": "compact"} if label != "dfpn" else {}
    row.update(key=f"{instance}|{label}", instance=instance, sfen="2k/3/1GP b - 1", n=3, zone=2,
               meta=json.dumps({"board": "9x9", "collection": collection}), engine=label,
               label=label, options=json.dumps(options), timeout=60.0,
               status={True: "mate", False: "nomate", None: "unknown"}[mate], mate=mate,
               time_s=time_s, code_version="tsumeqbf test", machine="test machine",
               finished_at="2026-01-01T00:00:00Z")
    row.update(extra)
    return row


def test_qbf_report_scores_plots_and_sizes(tmp_path):
    path = _experiment(tmp_path, """
        title = "q"
        [[instances]]
        file = "figures.jsonl"
        [[engines]]
        engine = "dfpn"
        [[engines]]
        engine = ["depqbf", "caqe"]
        options = {encoding = "compact"}
        label = "{engine}/{encoding}"
        [report]
        kind = "qbf"
        notes = "compact wins because it is compact."
    """)
    results = tmp_path / "results"
    results.mkdir()
    sizes = {"vars": 100, "clauses": 900, "encode_s": 0.5}
    rows = [_row("a1", "dfpn", True, 0.01, "m3"), _row("a2", "dfpn", True, 0.02, "m5"),
            _row("a1", "depqbf/compact", True, 1.0, "m3", **sizes),
            _row("a2", "depqbf/compact", None, 60.0, "m5", error="timeout in the solver",
                 vars=300, clauses=2000, encode_s=3.0),
            _row("a1", "caqe/compact", True, 0.5, "m3", **sizes),
            _row("a2", "caqe/compact", None, 60.0, "m5", error="timeout while encoding")]
    write_csv(results / "q.csv", rows)
    md = render_report(load_experiment(path, with_instances=False), plots=True).read_text()
    # best PAR-2 first: dfpn 0.015, caqe (0.5 + 120) / 2, depqbf (1 + 120) / 2
    order = [line.split(" | ")[0] for line in md.splitlines() if line.startswith("| ") and "PAR" not in line]
    assert order.index("| dfpn") < order.index("| caqe/compact") < order.index("| depqbf/compact")
    assert "| caqe/compact | 2 | 1 | 1 | 0 | 0.500 | 60.250 | 60.250 |" in md
    assert "| m3 | 1 | 1/1 | 1/1 | 1/1 |" in md and "| m5 | 1 | 1/1 | 0/1 | 0/1 |" in md
    # one formula per question: depqbf's m5 formula was written, caqe's was not
    assert "| compact | m3 | 1 | 100 | 900 | 0.500 | 0.500 | 0 |" in md
    assert "| compact | m5 | 1 | 300 | 2000 | 3.000 | 3.000 | 0 |" in md
    assert "## What the figures say\n\ncompact wins because it is compact." in md
    assert "![questions decided against time](q-cactus.png)" in md
    assert "## Agreement: 0 disagreements" in md
    from tsumeqbf.experiments.plots import have_matplotlib
    if have_matplotlib():
        assert (results / "q-cactus.png").stat().st_size > 0


def test_par2_ranks_on_the_questions_every_engine_was_asked(tmp_path):
    from tsumeqbf.experiments.qbf_report import qbf_context

    rows = [_row("easy", "full", True, 2.0, "m3"), _row("hard", "full", None, 60.0, "m9"),
            _row("easy", "short", True, 5.0, "m3")]  # asked only the easy question
    ctx = qbf_context(rows, ["full", "short"])
    assert ctx["common"] == 1
    # on all its cells "short" (5.0) would look better than "full" ((2 + 120) / 2), but on
    # the question both were asked "full" is faster
    assert [r[0] for r in ctx["par2_rows"]] == ["full", "short"]
    assert ctx["par2_rows"][0][-2:] == ["61.000", "2.000"] and ctx["par2_rows"][1][-2:] == ["5.000", "5.000"]


def test_the_goals_of_issue_41_are_counted_for_the_portfolio(tmp_path):
    """The goal lines come from the default QBF engine's rows: decided of asked at the
    stated length, each undecided question with its row's reason, and PAR-2 per core
    (the portfolio's CPU seconds over its 2 jobs) beside the best configuration's."""
    path = _experiment(tmp_path, """
        title = "q"
        [[instances]]
        file = "figures.jsonl"
        [[engines]]
        engine = "caqe"
        options = {encoding = "dag-fold"}
        label = "{engine}/{encoding}"
        [[engines]]
        engine = "portfolio"
        options = {jobs = 2}
        label = "portfolio"
        [report]
        kind = "qbf"
    """)
    results = tmp_path / "results"
    results.mkdir()
    single = {"cpu_limit": 60.0, "options": json.dumps({"encoding": "dag-fold"})}
    both = {"cpu_limit": 120.0, "options": json.dumps({"jobs": 2})}
    said = "no member decided (depqbf/dag-fold: stopped at the portfolio's CPU limit)"
    rows = [
        _row("yaneuraou-mate7-1", "portfolio", True, 1.0, "yaneuraou-mate7", n=7, cpu_s=2.0,
             member="depqbf/dag-fold", **both),
        _row("yaneuraou-mate7-2", "portfolio", None, 70.0, "yaneuraou-mate7", n=7, cpu_s=120.3,
             error=said, **both),
        _row("yaneuraou-mate9-1", "portfolio", True, 3.0, "yaneuraou-mate9", n=9, cpu_s=6.0,
             member="caqe/dag-fold", **both),
        _row("musou-065", "portfolio", False, 9.0, "musou", n=9, cpu_s=18.0,
             member="depqbf/dag-fold", **both),
        _row("yaneuraou-mate7-1", "caqe/dag-fold", True, 1.0, "yaneuraou-mate7", n=7,
             cpu_s=1.0, **single),
        _row("yaneuraou-mate7-2", "caqe/dag-fold", None, 61.0, "yaneuraou-mate7", n=7,
             cpu_s=60.1, error="CPU time limit in the solver (60 s)", **single),
        _row("yaneuraou-mate9-1", "caqe/dag-fold", True, 5.0, "yaneuraou-mate9", n=9,
             cpu_s=5.0, **single)]  # not asked musou-065: not ranked on all questions
    for row in rows:
        row["engine"] = "portfolio" if row["label"] == "portfolio" else "caqe"
    write_csv(results / "q.csv", rows)
    md = render_report(load_experiment(path, with_instances=False), plots=False).read_text()
    assert "## Issue 41's goals: the default QBF engine (portfolio)" in md
    assert ("| YaneuraOu mate-in-7 | 7 | 1/2 | 11 of 11 | short | yaneuraou-mate7-2: "
            + said.replace("|", "\\|") + " |") in md
    assert "| YaneuraOu mate-in-9 | 9 | 1/1 | 4 of 5 | short | - |" in md  # 1 of 5 asked
    assert "| no mate: musou-065 and zukou-050 | 9 | 1/1 | 2 of 2 | short | - |" in md
    assert "mate-in-11" not in md  # not asked: no line
    # per core: (2 + 240 + 6 + 18) / 2 / 4 questions
    assert "PAR-2 over all 4 questions" in md
    # a subset of qbf-real's 62 questions cannot meet the goal or fall short of it
    assert "| portfolio (best, the default) | 33.250 | (the goal is on 62 questions) |" in md
    assert "(questions): depqbf/dag-fold 2, caqe/dag-fold 1." in md


def test_no_goal_lines_without_the_default_engine(tmp_path):
    from tsumeqbf.experiments.qbf_goals import goal_context

    assert goal_context([_row("a1", "dfpn", True, 0.01, "m3")], ["dfpn"]) is None


def test_the_best_configuration_is_named_beside_the_default_engine(monkeypatch):
    from tsumeqbf.experiments import qbf_goals
    from tsumeqbf.experiments.qbf_goals import goal_context

    monkeypatch.setattr(qbf_goals, "PAR2_GOAL_QUESTIONS", 1)  # this one question is the set
    both = {"cpu_limit": 120.0, "options": json.dumps({"jobs": 2}), "cpu_s": 30.0}
    rows = [_row("q1", "portfolio", True, 20.0, "m3", **both),
            _row("q1", "caqe/dag-fold", True, 10.0, "m3", cpu_s=10.0, cpu_limit=60.0),
            _row("q1", "dfpn", True, 0.01, "m3")]  # not a QBF engine: never the best
    for row, engine in zip(rows, ("portfolio", "caqe", "dfpn")):
        row["engine"] = engine
    goals = goal_context(rows, ["dfpn", "caqe/dag-fold", "portfolio"])
    assert goals["lines"] == []  # none of the goals' questions asked
    # the portfolio's 30 CPU seconds on 2 cores count 15 per core, caqe's 10 on one
    assert goals["par2"] == [["caqe/dag-fold (best)", "10.000", "met"],
                             ["portfolio (the default)", "15.000", "short"]]
    # under a wall-clock limit the seconds are wall seconds, not divided
    wall = [{**rows[0], "cpu_limit": None}]
    assert goal_context(wall, ["portfolio"])["par2"] == [
        ["portfolio (best, the default)", "20.000", "short"]]
