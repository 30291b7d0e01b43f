"""The experiments layer: configurations, the resumable runner, CSV export, reports, shrinking."""

import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tsumeqbf.cli import main
from tsumeqbf.experiments.analysis import disagreements, pair_counts
from tsumeqbf.experiments.config import CONFIGS, canonical_json, experiment_path, load_experiment
from tsumeqbf.experiments.report import render_report
from tsumeqbf.experiments.runner import build_cells, run_experiment
from tsumeqbf.experiments.shrink import removals, shrink
from tsumeqbf.experiments.store import COLUMNS, SHRUNK_COLUMNS, Store, read_csv, write_csv
from tsumeqbf.main_job import summarize
from tsumeqbf.rules import Position, TsumeError

ROOT = Path(__file__).resolve().parents[1]
FIG5 = "2k/3/1GP b - 1"  # mate in 1 with zone 2 (paper figure 5)
FIG6 = "1k1/3/PG1 b - 1"  # no mate in 1, mate in 3 (paper figure 6)


def write_experiment(tmp_path, body, name="x"):
    """experiments/NAME.toml under tmp_path (results go to tmp_path/results)."""
    folder = tmp_path / "experiments"
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(textwrap.dedent(body))
    return path


def cases_file(tmp_path, cases):
    import json
    path = tmp_path / "experiments" / "cases.jsonl"
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(json.dumps(c) + "\n" for c in cases))
    return path


SMALL = """
    title = "small"
    [limits]
    timeout = 30
    [[instances]]
    file = "cases.jsonl"
    [[engines]]
    engine = "brute"
    [[engines]]
    engine = "dfpn"
    [report]
    kind = "agreement"
"""


# -- configuration ----------------------------------------------------------------------

@pytest.mark.parametrize("body, message", [
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "brute"
     [[engines]]
     engine = "dfpn"
     [[engines]]
     engine = "foo"
     """, "engines[2].engine: unknown engine 'foo'"),
    ("""
     [[engines]]
     engine = "brute"
     """, "instances: missing"),
    ("""
     [limits]
     timeout = "long"
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "brute"
     """, "limits.timeout: must be a number, got a string"),
    ("""
     [[instances]]
     generate = {seed = 1, count = 3, sizes = ["3x10"]}
     [[engines]]
     engine = "brute"
     """, "instances[0].generate.sizes[0]: board size must be WxH within 1x1..9x9"),
    ("""
     [[instances]]
     generate = {seed = 1, count = 3, plies = [1, 2]}
     [[engines]]
     engine = "brute"
     """, "instances[0].generate.plies[1]: must be odd"),
    ("""
     [[instances]]
     generate = {seed = 1, count = 100001}
     [[engines]]
     engine = "brute"
     """, "instances[0].generate.count: must be between 1 and 100000, got 100001"),
    ("""
     [[instances]]
     generate = {seed = 1, count = 3, attacker_hand = 1000000000}
     [[engines]]
     engine = "brute"
     """, "instances[0].generate.attacker_hand: must be between 0 and 38"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "depqbf"
     optoins = {encoding = "compact"}
     """, "engines[0].optoins: unknown key"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = ["depqbf", "caqe"]
     options = {encoding = "tiny"}
     """, "engines[0].options.encoding: unknown encoding 'tiny'"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "dfpn"
     [[engines]]
     engine = "dfpn"
     label = "other"
     """, "engines[1]: the same engine and options are already used by engines[0]"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "depqbf"
     label = "{engine}/{encoding}"
     """, "engines[0].label: placeholder {encoding} is neither engine nor an option"),
    ("""
     [[instances]]
     file = "nowhere.jsonl"
     [[engines]]
     engine = "brute"
     """, "instances[0].file: no such file 'nowhere.jsonl'"),
    ("""
     [[instances]]
     file = "sub/zukou.jsonl"
     [[engines]]
     engine = "brute"
     """, "instances[0].file: no such file 'sub/zukou.jsonl'"),  # package data: a plain name
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "brute"
     [report]
     kind = "pie-chart"
     """, "report.kind: unknown report 'pie-chart'"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "brute"
     [quick]
     engines = ["brute", "dfpn"]
     """, "quick.engines[1].label: no engine labelled 'dfpn'"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "brute"
     [quick]
     engines = ["brute", "brute"]
     """, "quick.engines[1].label: engine 'brute' is listed twice"),
    # each gave zero cells, or a typo was read only with --quick
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "brute"
     instances = ["nosuch"]
     """, "engines[0].instances: no instance 'nosuch'"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "brute"
     min_width = 5
     max_width = 3
     """, "engines[0].min_width: is above max_width (5 > 3)"),

    ("""
     [[instances]]
     paper = [1]
     in_quick = "no"
     [[engines]]
     engine = "brute"
     """, "instances[0].in_quick: must be true or false, got a string"),
    ("[[instances]\n", "not valid TOML"),
    # each ran: without a limit (NaN), a label template's error as an internal error, and
    # DepQBF under CAQE's name in the provenance
    ("""
     [limits]
     timeout = nan
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "brute"
     """, "limits.timeout: must be a finite number, got nan"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "brute"
     label = "{engine.foo}"
     """, "engines[0].label: bad template"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "depqbf"
     options = {solver = "caqe"}
     """, "engines[0].options: engine depqbf takes no option 'solver'"),
    # option values were checked by no one: every cell an error row (or a string taken
    # as true)
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "dfpn"
     options = {cpu_limit = -1}
     """, "engines[0].options: engine dfpn: cpu_limit must be a number above 0, got -1"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "brute"
     options = {deepen = "no"}
     """, "engines[0].options: engine brute: deepen must be true or false, got 'no'"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "dfpn"
     options = {backend = "fast"}
     """, "engines[0].options: engine dfpn: unknown dfpn backend 'fast'"),
    # a misspelt option was carried without effect (and named in the label)
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = "depqbf"
     options = {encoding = "compact", certfy = true}
     """, "engines[0].options: engine depqbf takes no option 'certfy'; its options: "
          "attacker_moves, certify,"),
    ("""
     [[instances]]
     paper = [1]
     [[engines]]
     engine = ["brute", "tsume"]
     matrix = {heuristics = ["A", "B"]}
     """, "engines[0].options: engine brute takes no option 'heuristics'"),
])
def test_config_errors_name_file_and_key(tmp_path, body, message):
    path = write_experiment(tmp_path, body)
    with pytest.raises(TsumeError) as err:
        load_experiment(path, quick="[quick]" in body)
    assert str(err.value).startswith(f"{path}: {message}"), str(err.value)
    assert "\n" not in str(err.value)


def test_a_plain_file_name_not_beside_the_toml_is_package_data(tmp_path):
    body = """
        [[instances]]
        file = "zukou.jsonl"
        [[engines]]
        engine = "tsume"
    """
    exp = load_experiment(write_experiment(tmp_path, body))
    assert len(exp.instances) == 99 and exp.instances[0]["id"] == "zukou-001"
    # a file beside the TOML comes first: a checkout's own file is never shadowed
    (tmp_path / "experiments" / "zukou.jsonl").write_text(
        '{"id": "mine", "sfen": "2k/3/1GP b - 1", "n": 1}\n')
    assert [i["id"] for i in load_experiment(write_experiment(tmp_path, body)).instances] == ["mine"]


def test_config_error_on_the_command_line_is_one_line(tmp_path, capsys, monkeypatch):
    write_experiment(tmp_path, """
        [[instances]]
        paper = [1]
        [[engines]]
        engine = "foo"
    """)
    monkeypatch.chdir(tmp_path)
    assert main(["experiment", "run", "x"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("tsumeqbf: error: experiments/x.toml: engines[0].engine: "
                             "unknown engine 'foo'; choose one of brute, caqe, depqbf, dfpn")
    assert main(["experiment", "report", "nosuch"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["tsumeqbf: error: no experiment named 'nosuch' (no experiments/nosuch.toml "
                   "here either); the named ones: agreement, agreement-encodings, dfpn-vs-qbf, "
                   "ishiwaki-tables, nagai-heuristics, qbf-real"]
    assert main(["experiment", "report", "experiments/nosuch.toml"]) == 2
    assert "experiments/nosuch.toml: no such experiment file" in capsys.readouterr().err


def test_engine_entries_expand_and_carry_their_options(tmp_path):
    path = write_experiment(tmp_path, """
        [limits]
        timeout = 5
        memory_mb = 1000
        max_nodes = 99
        [[instances]]
        paper = [3]
        [[engines]]
        engine = ["depqbf", "caqe"]
        matrix = {encoding = ["paper", "compact"]}
        label = "{engine}/{encoding}"
        max_plies = 3
        [[engines]]
        engine = "tsume"
        options = {heuristics = "ABC", dag = true}
        timeout = 9
        [[engines]]
        engine = "brute"
        label = "{engine}-{max_nodes}"
        [quick]
        limits = {timeout = 1}
        max_plies = 5
        engines = ["brute-99", {label = "caqe/compact", instances = ["paper-fig5-n1"]}]
    """)
    exp = load_experiment(path)
    assert [e.label for e in exp.engines] == ["depqbf/paper", "depqbf/compact", "caqe/paper",
                                              "caqe/compact", "tsume/dag=true,heuristics=ABC",
                                              "brute-99"]
    assert exp.engines[0].options == {"encoding": "paper", "memory_mb": 1000}
    assert exp.engines[4].options == {"heuristics": "ABC", "dag": True, "max_nodes": 99}
    assert exp.engines[4].timeout == 9 and exp.engines[0].timeout == 5
    assert len(build_cells(exp)) == 4 * 2 + 6 * 2  # QBF only up to 3 plies
    quick = load_experiment(path, quick=True)
    assert quick.name == "x-quick" and [i["n"] for i in quick.instances] == [1, 3, 5]
    assert [(c["label"], c["instance"]) for c in build_cells(quick) if c["engine"] == "caqe"] == [
        ("caqe/compact", "paper-fig5-n1")]
    assert quick.engines[1].timeout == 1  # the quick limits apply to entries without their own


def test_a_source_can_stay_out_of_the_quick_subset(tmp_path):
    path = write_experiment(tmp_path, """
        [[instances]]
        generate = {seed = 1, count = 4, sizes = ["3x3"], plies = [1]}
        [[instances]]
        generate = {seed = 2, count = 6, sizes = ["4x4"], plies = [1, 3]}
        in_quick = false
        [[engines]]
        engine = "brute"
        [quick]
        generate = {count = 2}
    """)
    full = load_experiment(path)
    assert len(full.instances) == 10
    quick = load_experiment(path, quick=True)
    assert [i["id"] for i in quick.instances] == ["g1-0000", "g1-0001"]


@pytest.mark.parametrize("name", ["ishiwaki-tables", "agreement", "agreement-encodings",
                                  "dfpn-vs-qbf", "nagai-heuristics", "qbf-real"])
def test_shipped_experiments_load(name):
    for quick in (False, True):
        exp = load_experiment(experiment_path(name), quick=quick)
        cells = build_cells(exp)
        assert len({c["key"] for c in cells}) == len(cells) > 0
    assert exp.packaged and exp.results_dir == Path("results")  # wherever the command runs


# every Markdown file in results/ is an experiment's report but the folder's manifest
COMMITTED_REPORTS = sorted(p.stem for p in (ROOT / "results").glob("*.md") if p.name != "README.md")


@pytest.mark.parametrize("report", COMMITTED_REPORTS)
def test_committed_report_is_reproduced_byte_for_byte(report, tmp_path):
    # the committed Markdown is what the committed code makes of the committed raw rows
    name, quick = (report[:-len("-quick")], True) if report.endswith("-quick") else (report, False)
    exp = load_experiment(experiment_path(name), quick=quick, with_instances=False)
    for suffix in (".csv", "-shrunk.csv"):
        source = ROOT / "results" / f"{report}{suffix}"
        if source.exists():
            shutil.copy(source, tmp_path / source.name)
    # a committed report of mixed code names the mix in its header (it was rendered --mixed)
    made = render_report(exp, results_dir=tmp_path, plots=False, mixed=True)
    assert made.read_bytes() == (ROOT / "results" / f"{report}.md").read_bytes()


def test_named_experiments_are_listed_and_run_wherever_the_command_runs(tmp_path, capsys,
                                                                       monkeypatch):
    # a folder that is not the checkout: the named experiment comes from the package and
    # its results go to ./results there (or to --out)
    monkeypatch.chdir(tmp_path)
    assert main(["experiment", "list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listed] == ["agreement", "agreement-encodings",
                                                    "dfpn-vs-qbf", "ishiwaki-tables",
                                                    "nagai-heuristics", "qbf-real"]
    assert "ishiwaki-tables    The founding paper's Tables 1-6" in listed
    assert main(["experiment", "list", "--json"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first == {"name": "agreement", "title": "Agreement between the engines", "quick": True}

    # the committed quick run but four cheap cells: --continue-csv takes the rest, so only
    # those four run
    committed = read_csv(ROOT / "results" / "ishiwaki-tables-quick.csv")
    dropped = [r for r in committed if r["instance"] == "paper-fig5-n1" and r["engine"] in ("brute", "dfpn")]
    assert len(dropped) == 4  # under both rule sets
    (tmp_path / "results").mkdir()
    write_csv(tmp_path / "results" / "ishiwaki-tables-quick.csv",
              [r for r in committed if r not in dropped])
    assert main(["experiment", "run", "ishiwaki-tables", "--quick", "--continue-csv", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "ishiwaki-tables-quick: mate 4," in err and "results/ishiwaki-tables-quick.csv" in err
    rows = read_csv(tmp_path / "results" / "ishiwaki-tables-quick.csv")
    assert len(rows) == len(committed)
    assert {(r["key"], r["mate"]) for r in rows} == {(r["key"], r["mate"]) for r in committed}

    out = tmp_path / "elsewhere"
    out.mkdir()
    shutil.copy(ROOT / "results" / "ishiwaki-tables-quick.csv", out)
    assert main(["experiment", "report", "ishiwaki-tables", "--quick", "--out", str(out),
                 "--no-plots"]) == 0
    assert (out / "ishiwaki-tables-quick.md").read_bytes() == (
        ROOT / "results" / "ishiwaki-tables-quick.md").read_bytes()
    assert not (tmp_path / "results" / "ishiwaki-tables-quick.md").exists()


def test_an_own_experiment_of_a_named_experiments_name_comes_first(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert experiment_path("agreement") == CONFIGS / "agreement.toml"
    write_experiment(tmp_path, SMALL, name="agreement")
    assert experiment_path("agreement") == Path("experiments/agreement.toml")
    assert load_experiment(experiment_path("agreement"), with_instances=False).results_dir == Path("results")
    assert not load_experiment(experiment_path("agreement"), with_instances=False).packaged


def _commands(report: Path) -> tuple[list[str], list[str]]:
    """The run and report commands a report's Provenance names, as argument lists."""
    import shlex

    line = next(line for line in report.read_text().splitlines() if line.startswith("- made by:"))
    run, render = (shlex.split(part)[1:] for part in re.findall(r"`(tsumeqbf [^`]+)`", line))
    return run, render


@pytest.mark.parametrize("folder, toml, given", [
    (".", "experiments/mine.toml", "experiments/mine.toml"),  # named by its stem there
    ("elsewhere", "experiments/mine.toml", "../experiments/mine.toml"),
    (".", "lab/mine.toml", "lab/mine.toml"),  # no experiments/ folder: results beside it
])
def test_an_own_experiments_report_names_commands_that_work_where_it_was_made(
        tmp_path, capsys, monkeypatch, folder, toml, given):
    path = tmp_path / toml
    path.parent.mkdir(parents=True)
    path.write_text(textwrap.dedent(SMALL))
    (path.parent / "cases.jsonl").write_text(json.dumps({"id": "fig5", "sfen": FIG5, "n": 1,
                                                         "zone": 2}) + "\n")
    (tmp_path / folder).mkdir(exist_ok=True)
    monkeypatch.chdir(tmp_path / folder)
    assert main(["experiment", "run", given, "--quiet", "--repeat", "2"]) == 0
    assert main(["experiment", "report", given, "--no-plots"]) == 0
    report = Path(capsys.readouterr().out.strip())
    run, render = _commands(report)
    expected = "mine" if folder == "." and toml.startswith("experiments/") else given
    assert run == ["experiment", "run", expected, "--repeat", "2"]
    assert render == ["experiment", "report", expected]
    # from the folder it was made in, each command finds the same experiment and rows
    before = report.read_bytes()
    assert main(run + ["--quiet"]) == 0
    err = capsys.readouterr().err
    assert "rows in" in err and "mate" not in err  # no cell ran again: they are all there
    assert main(render + ["--no-plots"]) == 0
    assert Path(capsys.readouterr().out.strip()) == report and report.read_bytes() == before


def test_a_named_experiments_report_names_the_commands_that_made_it():
    run, render = _commands(ROOT / "results" / "agreement-quick.md")
    assert run == ["experiment", "run", "agreement", "--quick", "--jobs", "2"]
    assert render == ["experiment", "report", "agreement", "--quick"]


def test_committed_reports_are_found():
    assert {"ishiwaki-tables", "ishiwaki-tables-quick", "agreement-quick", "nagai-heuristics"} <= set(COMMITTED_REPORTS)


def test_cpu_limit_becomes_every_engines_option(tmp_path):
    cases_file(tmp_path, [{"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2}])
    path = write_experiment(tmp_path, SMALL.replace("timeout = 30", "timeout = 30\ncpu_limit = 20")
                            .replace('engine = "dfpn"', 'engine = "dfpn"\ncpu_limit = 5'))
    exp = load_experiment(path)
    assert [e.options.get("cpu_limit") for e in exp.engines] == [20, 5]
    cells = build_cells(exp, repeat=2)
    assert len(cells) == 2 * len(build_cells(exp)) and cells[-1]["key"].endswith("#2")
    bad = write_experiment(tmp_path, SMALL.replace("timeout = 30", "cpu_limit = 0"))
    with pytest.raises(TsumeError, match=r"limits.cpu_limit: must be at least 0.001, got 0"):
        load_experiment(bad)


def test_paper_questions_follow_the_tables():
    exp = load_experiment(CONFIGS / "ishiwaki-tables.toml")
    by_id = {i["id"]: i for i in exp.instances}
    assert len(by_id) == 18
    assert by_id["paper-fig5-n1"]["meta"]["tables"] == [1, 3, 4, 5, 6]
    assert by_id["paper-fig5-n3"]["meta"]["tables"] == [3, 5]  # Table 1 prints 1 ply only
    assert by_id["paper-fig5-9x9-n1"]["meta"] == {"board": "9x9", "figure": "5", "mate": True,
                                                  "tables": [4, 6]}


def test_nagai_experiment_expands_to_every_variant():
    exp = load_experiment(CONFIGS / "nagai-heuristics.toml")
    sets = ["", "A", "B", "C", "D", "E", "F", "AB", "BC", "BD", "BE", "BF", "ABC", "BCD", "BCE", "BCF"]
    assert [e.label for e in exp.engines] == [
        f"tsume/{s or 'none'}/{d}" for d in ("dag", "nodag") for s in sets] + [
        "tsume/none/nodag/native"]
    native = exp.engines[-1]
    assert native.options == {"heuristics": "", "dag": False, "mobility": True,
                              "max_nodes": 50_000, "backend": "native"}
    for e in exp.engines[:-1]:
        assert e.engine == "tsume" and e.timeout == 180
        assert e.options == {"heuristics": e.label.split("/")[1].replace("none", ""),
                             "dag": e.label.endswith("/dag"), "mobility": True, "max_nodes": 50_000,
                             "backend": "cshogi"}
    ids = [i["id"] for i in exp.instances]
    assert len(ids) == 99 and "zukou-073" not in ids and ids[0] == "zukou-001" and ids[-1] == "zukou-100"
    assert all(i["meta"]["mate"] is True and i["meta"]["board"] == "9x9" for i in exp.instances)
    assert len(build_cells(exp)) == 99 * 33
    quick = load_experiment(CONFIGS / "nagai-heuristics.toml", quick=True)
    assert [e.label for e in quick.engines] == [f"tsume/{s}/dag" for s in
                                                ("none", "A", "B", "C", "D", "E", "F", "ABC")]
    assert len(quick.instances) == 8 and quick.engines[0].timeout == 60
    assert quick.engines[0].options["max_nodes"] == 10_000
    assert quick.report == {"kind": "nagai", "shrink": False, "notes": ""}


# -- running ------------------------------------------------------------------------------

def test_code_version_is_dirty_only_when_the_code_changed(tmp_path):
    # a run writes results/ itself, so results do not make the code "dirty"; the package does
    shutil.copytree(ROOT / "tsumeqbf", tmp_path / "tsumeqbf",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "x.csv").write_text("a,b\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "x"]):
        subprocess.run(git + args, cwd=tmp_path, check=True, capture_output=True)

    def version():
        code = "from tsumeqbf.experiments.runner import code_version; print(code_version())"
        out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True,
                             capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(tmp_path)})
        return out.stdout.strip()

    (tmp_path / "results" / "x.csv").write_text("a,b\n1,2\n")  # a committed CSV rewritten
    clean = version()
    assert ", git " in clean and not clean.endswith("-dirty")
    with open(tmp_path / "tsumeqbf" / "__init__.py", "a") as fh:
        fh.write("# changed\n")
    assert version() == clean + "-dirty"



def test_failing_cell_is_recorded_while_the_others_finish(tmp_path, capsys):
    cases_file(tmp_path, [{"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2, "mate": True},
                          {"id": "fig6", "sfen": FIG6, "n": 3, "zone": 2},
                          {"id": "bad", "sfen": "zz", "n": 1}])
    path = write_experiment(tmp_path, SMALL + """
        [[engines]]
        engine = "qbf"
        options = {solver = "/bin/false"}
        label = "false"
    """)
    assert main(["experiment", "run", str(path), "--jobs", "2", "--quiet"]) == 0
    rows = {(r["instance"], r["label"]): r for r in read_csv(tmp_path / "results" / "x.csv")}
    assert len(rows) == 9
    assert rows[("fig5", "false")]["status"] == "error" and rows[("fig5", "false")]["error"]
    assert rows[("fig5", "brute")]["mate"] is True and rows[("fig5", "dfpn")]["mate"] is True
    assert rows[("fig6", "dfpn")]["mate"] is True
    assert rows[("bad", "brute")]["status"] == "error" and "zz" in rows[("bad", "brute")]["error"]
    assert rows[("fig5", "brute")]["first_move"] in ("2c1b", "1c1b+")
    assert "tsumeqbf" in rows[("fig5", "brute")]["code_version"]
    assert main(["experiment", "report", str(path)]) == 0
    md = (tmp_path / "results" / "x.md").read_text()
    assert "| false | 3 | 0 | 0 | 0 | 3 |" in md  # the failing engine's row in the counts
    assert "## Disagreements: 0" in md and "/bin/" not in md


def test_rows_say_what_made_them_and_repeats_run_again(tmp_path, capsys):
    cases_file(tmp_path, [{"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2, "mate": True}])
    path = write_experiment(tmp_path, SMALL + """
        [[engines]]
        engine = "depqbf"
    """)
    assert main(["experiment", "run", str(path), "--quiet", "--repeat", "2"]) == 0
    rows = read_csv(tmp_path / "results" / "x.csv")
    assert sorted((r["label"], r["repeat"]) for r in rows) == [
        (label, k) for label in ("brute", "depqbf", "dfpn") for k in (1, 2)]
    for r in rows:
        assert r["mate"] is True and r["cpu_s"] > 0 and r["peak_mb"] > 0
        assert r["measured_by"] == "rusage" and r["jobs"] == 1 and r["cores"] >= 1
        assert r["encoder_version"].isdigit() and r["commit"] and r["clean"] in (True, False)
        assert r["cpu_model"] and r["load"] is not None and r["pysat"]
    qbf = [r for r in rows if r["label"] == "depqbf"]
    assert all(r["solver"] == "depqbf" and r["solver_version"].startswith("DepQBF")
               and 0 < r["solver_cpu_s"] <= r["cpu_s"] for r in qbf)
    assert {r["dfpn_backend"] for r in rows if r["label"] == "dfpn"} == {"rules"}
    assert {r["solver"] for r in rows if r["label"] != "depqbf"} == {None}
    # a resumed run keeps cells of this code; with --same-code, cells of other code run again
    with sqlite3.connect(tmp_path / "results" / "x.sqlite") as con:
        con.execute("UPDATE cells SET code_version = 'tsumeqbf 0.1.0, encoder 1, git 0000000' "
                    "WHERE label = 'dfpn'")
    capsys.readouterr()
    assert main(["experiment", "run", str(path), "--quiet", "--repeat", "2"]) == 0
    assert capsys.readouterr().err.startswith("x: shrunk 0;")  # no cell ran
    assert main(["experiment", "report", str(path), "--no-plots"]) != 0  # two codes now
    capsys.readouterr()
    assert main(["experiment", "run", str(path), "--quiet", "--repeat", "2", "--same-code"]) == 0
    assert capsys.readouterr().err.startswith("x: mate 2, shrunk 0;")  # dfpn's two repeats
    rows = read_csv(tmp_path / "results" / "x.csv")
    assert len(rows) == 6 and len({r["code_version"] for r in rows}) == 1
    assert main(["experiment", "report", str(path), "--no-plots"]) == 0
    assert "## Repeats: 2 runs of every cell" in (tmp_path / "results" / "x.md").read_text()


# Answers "false" (no mate) after 0.4 s; past its first three answers it waits for a file
# "gate" beside it, so that a run stopped once 3 cells are stored has stored fewer than 8
# however loaded the machine (open_gate lets the rest through; at the latest it answers
# after 20 s, so that a run that lets its cell finish still stops). --version answers at once.
SLOW_SOLVER = """#!/bin/sh
[ "$1" = --version ] && exit 0
here=$(dirname "$0")
sleep 0.4
mkdir "$here/answer1" 2>/dev/null || mkdir "$here/answer2" 2>/dev/null \\
    || mkdir "$here/answer3" 2>/dev/null \\
    || for _ in $(seq 200); do [ -e "$here/gate" ] && break; sleep 0.1; done
exit 20
"""


def open_gate(tmp_path):
    """Let the slow solver of ``start_slow_run`` answer every cell from now on."""
    (tmp_path / "gate").touch()


def start_slow_run(tmp_path):
    """A run of 8 slow cells in its own session, once 3 cells are stored: (process, db)."""
    solver = tmp_path / "slow-solver"
    solver.write_text(SLOW_SOLVER)
    solver.chmod(0o755)
    cases_file(tmp_path, [{"id": f"q{i}", "sfen": FIG5, "n": 1, "zone": 2} for i in range(8)])
    path = write_experiment(tmp_path, f"""
        [[instances]]
        file = "cases.jsonl"
        [[engines]]
        engine = "qbf"
        options = {{solver = "{solver}"}}
        label = "slow"
        [report]
        kind = "agreement"
    """)
    db = tmp_path / "results" / "x.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "tsumeqbf", "experiment", "run", str(path), "--quiet"],
                            start_new_session=True, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    done = 0
    while done < 3 and time.monotonic() < deadline:
        time.sleep(0.1)
        if db.exists():
            with sqlite3.connect(db) as con:
                try:
                    done = con.execute("SELECT count(*) FROM cells").fetchone()[0]
                except sqlite3.OperationalError:  # the file is there, its table not yet
                    done = 0
    if done < 3:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the run finished no cell in time")
    return proc, path, db


def test_resume_after_kill_never_redoes_a_finished_cell(tmp_path):
    proc, path, db = start_slow_run(tmp_path)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(db) as con:
        before = dict(con.execute("SELECT key, rowid || ' ' || finished_at FROM cells"))
    assert 3 <= len(before) < 8
    open_gate(tmp_path)
    run_experiment(load_experiment(path), progress=False)
    with sqlite3.connect(db) as con:
        after = dict(con.execute("SELECT key, rowid || ' ' || finished_at FROM cells"))
    assert len(after) == 8
    assert {k: after[k] for k in before} == before  # untouched: same row, same time
    assert len(read_csv(tmp_path / "results" / "x.csv")) == 8


def test_sigterm_stops_the_run_and_still_exports_the_csv(tmp_path):
    proc, _, db = start_slow_run(tmp_path)
    proc.send_signal(signal.SIGTERM)  # what a batch system sends at its time limit
    assert proc.wait(timeout=30) == 143  # 128 + SIGTERM, as a shell reports it
    with sqlite3.connect(db) as con:
        stored = con.execute("SELECT count(*) FROM cells").fetchone()[0]
    assert 3 <= stored < 8
    assert len(read_csv(tmp_path / "results" / "x.csv")) == stored


def test_a_fresh_clone_continues_from_the_committed_csv_when_asked(tmp_path):
    # the store is not committed, the CSV is: without a store, --continue-csv takes the
    # CSV's rows of the cells the run still has (same question) and runs only the rest
    proc, path, db = start_slow_run(tmp_path)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    csv_path = tmp_path / "results" / "x.csv"
    rows = read_csv(csv_path)
    assert 3 <= len(rows) < 8
    rows[0]["sfen"] = "4k/9/9/9/9/9/9/9/4K b - 1"  # a row of a question the config no longer asks
    write_csv(csv_path, rows)
    db.unlink()
    open_gate(tmp_path)
    assert main(["experiment", "run", str(path), "--quiet", "--continue-csv"]) == 0
    after = {r["key"]: r for r in read_csv(csv_path)}
    assert len(after) == 8
    assert after[rows[0]["key"]]["sfen"] == FIG5  # run again, not reused
    assert after[rows[0]["key"]]["finished_at"] != rows[0]["finished_at"]
    for row in rows[1:]:
        assert after[row["key"]] == row  # taken as it was
    # a row of a cell the configuration does not have (another repeat) is kept, not dropped
    # from the CSV the run writes
    extra = {**rows[1], "key": rows[1]["key"] + "#r9", "repeat": 9}
    write_csv(csv_path, [*after.values(), extra])
    db.unlink()
    assert main(["experiment", "run", str(path), "--quiet", "--continue-csv"]) == 0
    kept = {r["key"]: r for r in read_csv(csv_path)}
    assert len(kept) == 9 and kept[extra["key"]] == extra
    # without the flag a fresh store measures every cell here (the main job on a new machine)
    db.unlink()
    run_experiment(load_experiment(path), progress=False)
    again = {r["key"]: r for r in read_csv(csv_path)}
    assert all(again[k]["finished_at"] != after[k]["finished_at"] for k in after)
    assert extra["key"] not in again


def qbf_solvers_experiment(tmp_path, solvers, options="{}"):
    """An agreement experiment of engine ``qbf`` under each of ``solvers`` on cases.jsonl."""
    listed = ", ".join(f'"{s}"' for s in solvers)
    return write_experiment(tmp_path, f"""
        [limits]
        timeout = 30
        [[instances]]
        file = "cases.jsonl"
        [[engines]]
        engine = "qbf"
        options = {options}
        matrix = {{solver = [{listed}]}}
        [report]
        kind = "agreement"
    """)


def test_a_disagreement_is_shrunk_and_reported(tmp_path):
    # two fake QBF solvers that always disagree: every removal keeps the disagreement
    for name, code in (("yes", 10), ("no", 20)):
        (tmp_path / name).write_text(f"#!/bin/sh\nexit {code}\n")
        (tmp_path / name).chmod(0o755)
    cases_file(tmp_path, [{"id": "q", "sfen": "k2/1P1/GS1 b P 1", "n": 1, "zone": 1}])
    path = qbf_solvers_experiment(tmp_path, [tmp_path / "yes", tmp_path / "no"])
    exp = load_experiment(path)
    labels = [e.label for e in exp.engines]
    assert labels == ["qbf/solver=yes", "qbf/solver=no"]  # a path by its last part
    assert run_experiment(exp, jobs=2, progress=False) == {"mate": 1, "nomate": 1, "shrunk": 1}
    (shrunk,) = read_csv(tmp_path / "results" / "x-shrunk.csv", SHRUNK_COLUMNS)
    # the pawn in hand stays: without a check to play, "yes" fails its certificate (an error,
    # no verdict), so the last disagreeing position keeps its one checking drop
    assert shrunk["reproduced"] and shrunk["shrunk_sfen"] == "k2/3/3 b P 1"
    assert (shrunk["label_a"], shrunk["label_b"], shrunk["mate_a"], shrunk["mate_b"]) == (
        labels[0], labels[1], True, False)
    assert shrunk["removed"] == 3
    assert run_experiment(exp, progress=False) == {"shrunk": 0}  # done once, kept
    md = render_report(exp).read_text()
    assert "## Disagreements: 1" in md and "`k2/3/3 b P 1`" in md and "3 piece(s) removed" in md
    assert str(tmp_path) not in md
    lines, found = summarize("x", read_csv(tmp_path / "results" / "x.csv"))
    assert found == 1 and "DISAGREEMENT q: sfen 'k2/1P1/GS1 b P 1' n=1 zone=1" in lines[1]


def test_csv_export_is_deterministic(tmp_path):
    rows = [{name: None for name, _ in COLUMNS} | {
        "key": f"i{i}|brute|{{}}", "instance": f"i{i}", "label": "brute", "status": "mate",
        "mate": i % 2 == 0, "time_s": i / 7, "n": 1, "meta": '{"board":"3x3"}',
        "error": "a, \"quoted\"\nsecond line" if i == 3 else None} for i in range(12)]
    texts = []
    for seed in (1, 2):
        random.Random(seed).shuffle(rows)
        store = Store(tmp_path / f"s{seed}.sqlite")
        for row in rows:
            store.record(row)
        store.record({**rows[0], "status": "error"})  # a finished cell is never replaced
        store.export(tmp_path / f"s{seed}.csv", tmp_path / f"s{seed}-shrunk.csv")
        store.close()
        texts.append((tmp_path / f"s{seed}.csv").read_bytes())
    assert texts[0] == texts[1]
    back = read_csv(tmp_path / "s1.csv")
    assert [r["instance"] for r in back] == sorted(f"i{i}" for i in range(12))
    by_id = {r["instance"]: r for r in back}
    assert by_id["i0"]["time_s"] == 0.0 and by_id["i1"]["time_s"] == 1 / 7
    assert by_id["i1"]["mate"] is False and by_id["i2"]["mate"] is True
    assert by_id["i3"]["error"] == "a, \"quoted\"\nsecond line" and by_id["i0"]["error"] is None
    assert {r["status"] for r in back} == {"mate"}
    assert not (tmp_path / "s1-shrunk.csv").exists()


def test_dask_executor(tmp_path):
    distributed = pytest.importorskip("distributed")
    cases_file(tmp_path, [{"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2},
                          {"id": "fig6", "sfen": FIG6, "n": 1, "zone": 2}])
    path = write_experiment(tmp_path, SMALL)
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        counts = run_experiment(load_experiment(path), executor="dask",
                                scheduler=cluster.scheduler_address, progress=False)
    assert counts == {"mate": 2, "nomate": 2, "shrunk": 0}
    rows = read_csv(tmp_path / "results" / "x.csv")
    assert [(r["instance"], r["label"], r["mate"]) for r in rows] == [
        ("fig5", "brute", True), ("fig5", "dfpn", True), ("fig6", "brute", False), ("fig6", "dfpn", False)]


def test_dask_missing_is_one_clear_error(tmp_path, monkeypatch):
    cases_file(tmp_path, [{"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2}])
    path = write_experiment(tmp_path, SMALL)
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import fails
    with pytest.raises(TsumeError, match=r"pip install 'tsumeqbf\[cluster\]'"):
        run_experiment(load_experiment(path), executor="dask", scheduler="tcp://nowhere:1",
                       progress=False)


# -- reports ------------------------------------------------------------------------------

def _row(instance, label, mate, status=None, **extra):
    row = {name: None for name, _ in COLUMNS}
    row.update(key=f"{instance}|{label}|{{}}", instance=instance, sfen=FIG6, n=3, zone=2,
               meta='{"board":"3x3"}', engine=label, label=label, options="{}", timeout=30.0,
               status=status or {True: "mate", False: "nomate", None: "unknown"}[mate], mate=mate,
               time_s=0.25, code_version="tsumeqbf 0.1.0", machine="test machine")
    row.update(extra)
    row["finished_at"] = "2026-01-01T00:00:00Z"
    return row


def test_report_is_deterministic_and_counts(tmp_path):
    from tsumeqbf.experiments.store import write_csv

    path = write_experiment(tmp_path, SMALL)
    results = tmp_path / "results"
    results.mkdir()
    rows = [_row("a", "brute", True), _row("a", "dfpn", True),
            _row("b", "brute", False), _row("b", "dfpn", True),
            _row("c", "brute", None), _row("c", "dfpn", False),
            _row("d", "brute", None, status="error", error="cannot start x (/usr/local/bin/x)")]
    write_csv(results / "x.csv", rows)
    write_csv(results / "x-shrunk.csv", [{
        "instance": "b", "label_a": "dfpn", "label_b": "brute", "n": 3, "zone": 2, "sfen": FIG6,
        "reproduced": True, "shrunk_sfen": "1k1/3/1G1 b - 1", "mate_a": True, "mate_b": False,
        "removed": 1, "tries": 4}], SHRUNK_COLUMNS)
    exp = load_experiment(path, with_instances=False)  # cases.jsonl is not needed
    first = render_report(exp, plots=False).read_bytes()
    second = render_report(exp, plots=True).read_bytes()
    assert first == second
    md = first.decode()
    assert "| brute | dfpn | 2 | 1 | 1 | 0 | 1 |" in md  # both decided a and b; both mate on a; b disagrees
    assert "## Disagreements: 1" in md
    assert f"`{FIG6}`, n = 3, zone 2" in md and "`1k1/3/1G1 b - 1`" in md
    assert "| brute | 4 | 1 | 1 | 1 | 1 |" in md and "| dfpn | 3 | 2 | 1 | 0 | 0 |" in md
    assert "cannot start x (x)" in md and "/usr/local" not in md and str(tmp_path) not in md
    assert "2026-01-01" not in md  # no timestamps
    assert "![median time against plies](x-plies.png)" in md


def test_scaling_report_says_who_answers_fastest(tmp_path):
    from tsumeqbf.experiments.store import write_csv

    path = write_experiment(tmp_path, SMALL.replace('kind = "agreement"', 'kind = "scaling"'))
    results = tmp_path / "results"
    results.mkdir()
    rows = [_row("a", "brute", True, time_s=0.5), _row("a", "dfpn", True, time_s=0.1),
            _row("b", "brute", False, time_s=0.2), _row("b", "dfpn", False, time_s=0.3),
            # a timed-out cell never wins, however short its time
            _row("c", "brute", None, time_s=0.01), _row("c", "dfpn", True, time_s=2.0),
            _row("d", "brute", True, meta='{"board":"9x9"}', n=1, time_s=0.4),
            _row("d", "dfpn", True, meta='{"board":"9x9"}', n=1, time_s=0.4),
            _row("e", "brute", None, meta='{"board":"9x9"}', n=1),
            _row("e", "dfpn", None, meta='{"board":"9x9"}', n=1)]
    write_csv(results / "x.csv", rows)
    md = render_report(load_experiment(path, with_instances=False), plots=False).read_text()
    assert "| board | 1 plies | 3 plies |" in md
    assert "| 3x3 |  | dfpn (2/3) |" in md           # dfpn wins a and c, brute b
    assert "| 9x9 | brute (1/2) |  |" in md           # a tie goes to the first engine listed
    assert "| brute | 1 | 1 | 2 |" in md and "| dfpn | 0 | 2 | 2 |" in md


def test_report_refuses_rows_of_more_than_one_commit(tmp_path, capsys):
    from tsumeqbf.experiments.store import write_csv

    path = write_experiment(tmp_path, SMALL)
    (tmp_path / "results").mkdir()
    old, new = "tsumeqbf 0.1.0, encoder 7, git ea0a67a", "tsumeqbf 0.1.0, encoder 8, git 5209272"
    write_csv(tmp_path / "results" / "x.csv",
              [_row("a", "brute", True, code_version=old), _row("a", "dfpn", True, code_version=new),
               _row("b", "brute", False, code_version=new)])
    exp = load_experiment(path, with_instances=False)
    with pytest.raises(TsumeError) as refused:
        render_report(exp, plots=False)
    assert str(refused.value) == ("x.csv: rows of 2 commits, encoder versions 7 and 8; a report "
                                  "comes from one: run again with `experiment run --same-code`, "
                                  "or pass --mixed")
    assert not (tmp_path / "results" / "x.md").exists()
    # the command line says it in one line, with a non-zero exit
    assert main(["experiment", "report", str(path), "--no-plots"]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "2 commits" in err and "Traceback" not in err
    # asked for, the mix is rendered and named in the header, before any table
    md = render_report(exp, plots=False, mixed=True).read_text()
    header = md.split("\n## ")[0]
    assert ("**Rows of mixed code**, rendered as asked (`--mixed`), so figures made by different "
            "code\nstand side by side: 2 commits, encoder versions 7 and 8 (5209272 at encoder 8: "
            "2 cells; ea0a67a at encoder 7: 1 cells).") in header


def test_report_of_one_commit_names_no_mix(tmp_path):
    from tsumeqbf.experiments.store import write_csv

    path = write_experiment(tmp_path, SMALL)
    (tmp_path / "results").mkdir()
    same = "tsumeqbf 0.1.0, encoder 8, git 5209272"
    write_csv(tmp_path / "results" / "x.csv",
              [_row("a", "brute", True, code_version=same), _row("a", "dfpn", True, code_version=same)])
    md = render_report(load_experiment(path, with_instances=False), plots=False).read_text()
    assert "mixed code" not in md and "## Repeats" not in md


def test_report_of_repeats_gives_the_spread_and_the_borderline_cells(tmp_path):
    from tsumeqbf.experiments.store import write_csv

    path = write_experiment(tmp_path, SMALL)
    (tmp_path / "results").mkdir()
    rows = []
    for k, (ta, tb, b_mate) in enumerate([(1.0, 2.0, True), (3.0, 9.0, None), (2.0, 4.0, True)], 1):
        rows += [_row("a", "brute", True, time_s=ta, repeat=k, cpu_s=ta / 2, load=float(k),
                      measured_by="rusage"),
                 _row("b", "brute", b_mate, time_s=tb, repeat=k, cpu_s=tb / 2, load=float(k),
                      measured_by="rusage")]
        for row in rows[-2:]:
            row["key"] += f"#{k}" if k > 1 else ""
    write_csv(tmp_path / "results" / "x.csv", rows)
    md = render_report(load_experiment(path, with_instances=False), plots=False).read_text()
    assert "## Repeats: 3 runs of every cell" in md
    assert "| engine | repeat 1 | repeat 2 | repeat 3 | min / median / max |" in md
    assert "| brute | 2 | 1 | 2 | 1 / 2 / 2 |" in md
    # per length: each repeat's median seconds (1.5, 6.0, 3.0), their min / median / max
    assert "| 3 | 1.500 / 3.000 / 6.000 |" in md
    # b was decided in repeats 1 and 3 only: borderline, with its spread of seconds
    assert "| b | brute | mate, timeout, mate | 2.000 / 4.000 / 9.000 | 1.000 / 2.000 / 4.500 |" in md
    # a was decided every time: its seconds spread (3 - 1) / 2, its CPU seconds likewise
    assert "median, is 100%; the largest 100% (their CPU seconds: median 100%, largest 100%)." in md
    # the tables above take each cell's median repeat: a at 2.0 s, b at 4.0 s (decided)
    assert "| brute | 2 | 2 | 0 | 0 | 0 |" in md
    # Provenance covers every repeat's rows, not the median ones alone (both of repeat 3)
    assert "- load (1-minute average as a cell ended): 1-3" in md


def test_report_under_a_cpu_limit_counts_cpu_seconds(tmp_path):
    from tsumeqbf.experiments.store import write_csv

    path = write_experiment(tmp_path, SMALL.replace('kind = "agreement"', 'kind = "qbf"'))
    (tmp_path / "results").mkdir()
    rows = []
    for k in (1, 2):
        rows += [_row("a", "brute", True, time_s=4.0 * k * k, cpu_s=1.0 * k, cpu_limit=3.0, repeat=k,
                      measured_by="rusage"),
                 _row("b", "brute", None, time_s=9.0, cpu_s=3.0, cpu_limit=3.0, repeat=k,
                      measured_by="rusage")]
        for row in rows[-2:]:
            row["key"] += f"#{k}" if k > 1 else ""
    write_csv(tmp_path / "results" / "x.csv", rows)
    md = render_report(load_experiment(path, with_instances=False), plots=False).read_text()
    # PAR-2 of the median repeats: a at 1.0 CPU s, b undecided at twice the 3 s CPU limit
    assert "twice the time limit (3.000 CPU s)" in md
    assert "| brute | 2 | 1 | 1 | 0 | 1.000 | 3.500 | 3.500 |" in md
    # each repeat's median over a and b: (1 + 3) / 2 and (2 + 3) / 2
    assert "| plies | brute CPU s |" in md and "| 3 | 2.000 / 2.250 / 2.500 |" in md
    assert "the Repeats section count CPU\nseconds (`cpu_s`), and PAR-2 twice the CPU limit" in md
    assert "Seconds are wall-clock" not in md
    assert "- limits: CPU 3 s, wall 30 s" in md
    # a's spread over the repeats: CPU (2 - 1) / 1.5 leads, wall (16 - 4) / 10 beside it
    assert ("the median spread of their CPU seconds, (max - min) /\nmedian, is 67%; the largest "
            "67% (their wall seconds: median 120%, largest 120%).") in md


def test_paper_tables_report_puts_the_paper_beside(tmp_path):
    from tsumeqbf.experiments.store import write_csv

    path = write_experiment(tmp_path, """
        [[instances]]
        paper = [1, 3, 5]
        [[engines]]
        engine = "depqbf"
        matrix = {encoding = ["compact", "paper"]}
        label = "{engine}/{encoding}"
        [[engines]]
        engine = "depqbf"
        options = {encoding = "paper", used_kinds_only = true}
        label = "used"
        [report]
        kind = "paper-tables"
    """)
    meta = '{"board":"3x3","figure":"5","mate":true,"tables":[1,3,5]}'
    rows = [_row("paper-fig5-n1", "depqbf/compact", True) | {
                "meta": meta, "n": 1, "vars": 13, "clauses": 43, "encode_s": 0.001, "solve_s": 0.1},
            _row("paper-fig5-n1", "used", False) | {
                "meta": meta, "n": 1, "options": '{"encoding":"paper","used_kinds_only":true}',
                "vars": 1465, "clauses": 7380, "encode_s": 0.02, "solve_s": 0.2}]
    (tmp_path / "results").mkdir()
    write_csv(tmp_path / "results" / "x.csv", rows)
    md = render_report(load_experiment(path, with_instances=False), plots=False).read_text()
    assert ("| 5 | 3x3 | 1 | depqbf/compact | 13 | 43 | mate | 0.001 | 0.100 "
            "| 3860 | 14119 | mate | 0.888 | 0.203 |") in md
    # Table 5 compares the unused-kinds-removed configuration, and flags its wrong verdict
    assert "| 5 | 3x3 | 1 | used | 1465 | 7380 | no mate! | 0.020 | 0.200 | 1316 | 3560 | mate |" in md
    assert "| paper-fig5-n1 | used | no mate | mate |" in md  # listed under differing verdicts


def test_nagai_report_ratios_beside_nagai(tmp_path):
    from tsumeqbf.experiments.nagai import nagai_rows, published_reference
    from tsumeqbf.experiments.store import write_csv

    path = write_experiment(tmp_path, """
        [[instances]]
        file = "cases.jsonl"
        [[engines]]
        engine = "tsume"
        options = {heuristics = "", dag = true}
        label = "tsume/none/dag"
        [[engines]]
        engine = "tsume"
        options = {dag = true}
        matrix = {heuristics = ["A", "ABC"]}
        label = "{engine}/{heuristics}/dag"
        [[engines]]
        engine = "tsume"
        options = {heuristics = "", dag = false}
        label = "tsume/none/nodag"
        [[engines]]
        engine = "tsume"
        options = {heuristics = "ABC", dag = false}
        label = "tsume/ABC/nodag"
        [report]
        kind = "nagai"
    """)
    exp = load_experiment(path, with_instances=False)
    options = {e.label: canonical_json(e.options) for e in exp.engines}
    # (nodes, search seconds) per problem and variant; None: not solved, False: "no mate"
    runs = {"p1": {"tsume/none/dag": (100, 1.0), "tsume/A/dag": (150, 1.5), "tsume/ABC/dag": (50, 0.5),
                   "tsume/none/nodag": (200, 2.0), "tsume/ABC/nodag": (40, 0.4)},
            "p2": {"tsume/none/dag": (300, 3.0), "tsume/A/dag": (250, 2.5), "tsume/ABC/dag": (150, 1.5),
                   "tsume/none/nodag": (200, 2.0), "tsume/ABC/nodag": (80, 0.8)},
            "p3": {"tsume/none/dag": (1000, 9.0), "tsume/A/dag": None, "tsume/ABC/dag": (10, 0.1),
                   "tsume/none/nodag": (900, 9.0), "tsume/ABC/nodag": False}}
    rows = []
    for instance, by_label in runs.items():
        for label, got in by_label.items():
            mate = None if got is None else got is not False
            nodes, solve_s = got if got else (100_000, 20.0)
            rows.append(_row(instance, label, mate) | {
                "engine": "tsume", "options": options[label], "nodes": nodes, "solve_s": solve_s,
                "time_s": solve_s + 7, "meta": '{"board":"9x9","mate":true}', "n": 17})
    (tmp_path / "results").mkdir()
    write_csv(tmp_path / "results" / "x.csv", rows)
    first = render_report(exp, plots=True).read_bytes()
    assert render_report(exp, plots=False).read_bytes() == first
    assert [p.name for p in (tmp_path / "results").glob("*.png")] == ["x-nodes.png"]  # a heat map
    md = first.decode()
    ref = published_reference(nagai_rows())
    assert ref[("ABC", True, "seconds")] == {"value": 247, "tables": [4, 5, 6, 8], "printed": "BC+A"}
    # sums over p1 and p2 (p3: A hit its limit), ratios to none with the same DAG setting,
    # Nagai's problem 1: A 176/150 s, ABC 247/150 s and 89115745/62809365 nodes
    assert "over the 2 problem(s) that **every**\nvariant solved (of 3)" in md
    assert "| tsume/none/dag | none | on | 3/3 | 400 | 1.000 | 1.000 | 4.000 | 1.000 | 1.000 |" in md
    assert "| tsume/A/dag | A | on | 2/3 | 400 | 1.000 |  | 4.000 | 1.000 | 1.173 |" in md
    assert "| tsume/ABC/dag | ABC | on | 3/3 | 200 | 0.500 | 1.419 | 2.000 | 0.500 | 1.647 |" in md
    assert "| tsume/none/nodag | none | off | 3/3 | 400 | 1.000 |  | 4.000 | 1.000 |  |" in md
    assert "| tsume/ABC/nodag | ABC | off | 2/3 | 120 | 0.300 |  | 1.200 | 0.300 |  |" in md
    # DAG off over on: ours 120/200 and 1.2/2.0; Nagai's Tables 8 and 9
    assert "| ABC | 0.600 | 0.739 | 0.600 | 0.741 |" in md and "| none | 1.000 |  | 1.000 |  |" in md
    assert "fewer nodes than without heuristics on the commonly solved problems:\nABC;" in md
    assert "| p3 | tsume/ABC/nodag |" in md and "| p3 | 17 | 900 | no mate! |" in md
    assert "| p3 | 17 | 1000 | - | 10 |" in md
    assert "| ABC | off | ABC without DAG detection | 8, 9 | 183 | 65887434 |  |  |" in md
    assert "| p3 | tsume/ABC/nodag | no mate | mate |" in md  # the footer's expected verdicts
    assert "2026-01-01" not in md and str(tmp_path) not in md


def test_agreement_encodings_checks_the_default_qbf_engine_in_its_quick_subset():
    # the portfolio with its default members and its first two members on their own,
    # beside brute force and df-pn, every QBF verdict certified, at 1 and 3 plies
    exp = load_experiment(experiment_path("agreement-encodings"), quick=True)
    engines = {e.label: e for e in exp.engines}
    assert {"brute", "dfpn", "portfolio", "caqe/dag-fold-reduced",
            "depqbf/dag-fold-reduced"} <= set(engines)
    portfolio = engines["portfolio"]
    assert portfolio.engine == "portfolio" and "members" not in portfolio.options
    assert portfolio.options["jobs"] == 2 and portfolio.options["cpu_limit"] == 2 * 10
    assert [e.options.get("encoding") for e in exp.engines
            if e.label.endswith("/dag-fold-reduced")] == ["dag-fold-reduced"] * 2
    assert all(e.options.get("certify") for e in exp.engines if e.engine not in ("brute", "dfpn"))
    assert exp.instances and {i["n"] for i in exp.instances} == {1, 3}
    assert {i["id"][:5] for i in exp.instances} == {"g3101", "g3102"}
    full = load_experiment(experiment_path("agreement-encodings"))
    assert {e.label for e in full.engines} >= set(engines) and max(i["n"] for i in full.instances) == 7


def test_main_job_runs_the_quick_experiments(monkeypatch, tmp_path, capsys):
    import tsumeqbf.main_job as main_job

    ran = []
    monkeypatch.setattr(main_job, "ROOT", tmp_path)
    monkeypatch.setattr(main_job, "RESULTS", tmp_path / "results")
    monkeypatch.setattr(main_job, "run_experiment",
                        lambda exp, **kw: ran.append((exp.name, [e.label for e in exp.engines], kw)))
    monkeypatch.setattr(main_job, "render_report",
                        lambda exp, results_dir: results_dir / f"{exp.name}.md")
    monkeypatch.setattr(main_job, "read_csv", lambda path: [])
    assert main_job.main() == 0
    assert [name for name, _, _ in ran] == ["ishiwaki-tables-quick", "agreement-quick",
                                            "agreement-encodings-quick"]
    assert all(kw == {"jobs": 2, "results_dir": tmp_path / "results", "same_code": True}
               for _, _, kw in ran)
    assert {"portfolio", "caqe/dag-fold-reduced", "depqbf/dag-fold-reduced"} <= set(ran[2][1])
    out = capsys.readouterr().out
    assert "== agreement-encodings-quick: Agreement of the default QBF engine" in out
    assert "  report: results/agreement-encodings-quick.md" in out


def test_main_job_summary_counts_disagreements():
    rows = [_row("a", "brute", True), _row("a", "dfpn", False), _row("b", "brute", True),
            _row("b", "depqbf", None, status="error", error="disagreement: depqbf says mate but ...")]
    lines, found = summarize("t", rows)
    assert found == 2
    assert lines[0].startswith("t: 4 cells (mate 2, no mate 1, timeout 0, error 1); engine disagreements 1")
    assert any(line.startswith("  DISAGREEMENT a: sfen '1k1/3/PG1 b - 1' n=3 zone=2") for line in lines)
    assert summarize("t", rows[2:3])[1] == 0


# -- analysis and shrinking -------------------------------------------------------------------

def test_disagreements_and_pairs():
    rows = [_row("a", "x", True), _row("a", "y", True), _row("a", "z", False),
            _row("b", "x", False), _row("b", "y", None), _row("b", "z", False)]
    found = disagreements(rows, ["z", "y", "x"])
    assert [(d["instance"], d["pair"]) for d in found] == [("a", ("y", "z"))]
    assert [(p["a"], p["b"], p["compared"], p["agree_mate"], p["disagree"])
            for p in pair_counts(rows, ["x", "y", "z"])] == [
        ("x", "y", 1, 1, 0), ("x", "z", 2, 0, 1), ("y", "z", 1, 0, 1)]


def test_shrink_removes_pieces_while_the_failure_stays():
    pos = Position.from_sfen("k2/1P1/GSN b 2PL 1", zone=1)
    calls = []

    def fails(p):  # a fake disagreement: it needs a gold and a pawn somewhere
        calls.append(p.sfen())
        text = p.sfen().split()[0] + p.sfen().split()[2]
        return "G" in text and "P" in text

    result = shrink(pos, fails)
    assert result.position.sfen() == "k2/3/G2 b P 1"  # one gold, one pawn, the king
    assert result.removed == 5 and result.tries == len(calls)
    assert not any(fails(c) for c in removals(result.position))  # minimal


def test_shrink_skips_invalid_positions_and_keeps_kings():
    # removing the pawn on 2b would leave the defender in check from the rook behind it
    pos = Position.from_sfen("1k1/1p1/1R1 b - 1", zone=1)
    assert [p.sfen() for p in removals(pos)] == ["1k1/1p1/3 b - 1"]
    assert shrink(pos, lambda p: True).position.sfen() == "1k1/3/3 b - 1"


def test_certified_cells_are_counted_and_a_failed_certificate_is_loud(tmp_path):
    from liar_solver import make_liar

    liar = make_liar(tmp_path, "flip")
    cases_file(tmp_path, [{"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2},
                          {"id": "fig6", "sfen": FIG6, "n": 1, "zone": 2}])
    path = qbf_solvers_experiment(tmp_path, ["depqbf", liar], options="{certify = true}")
    run_experiment(load_experiment(path), progress=False)
    rows = read_csv(tmp_path / "results" / "x.csv")
    honest = [r for r in rows if r["label"] == "qbf/certify=true,solver=depqbf"]
    assert len(honest) == 2 and all(r["certified"] and r["strategy_nodes"] >= 1 for r in honest)
    assert all(r["status"] == "error" and r["error"].startswith(("certificate failed",
                                                                 "disagreement"))
               for r in rows if r not in honest)
    md = render_report(load_experiment(path)).read_text()
    assert "## Failed certificates: 2" in md and "## Certificates that fail the rules" in md
    assert "| qbf/certify=true,solver=depqbf | 1/1 | 1/1 | 0 | - |" in md
    lines, found = summarize("x", rows)
    assert found == 2 and "QBF verdicts certified by the rules: 2 of 2" in lines[1]
    assert sum("BAD CERTIFICATE" in line for line in lines) == 2


def test_a_cell_that_ran_out_of_time_runs_again_with_a_larger_budget(tmp_path):
    cases_file(tmp_path, [{"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2},
                          {"id": "fig6", "sfen": FIG6, "n": 1, "zone": 2}])
    path = write_experiment(tmp_path, SMALL.replace(
        'engine = "dfpn"', 'engine = "dfpn"\n    timeouts = {"fig6" = 60}'))
    exp = load_experiment(path)
    cells = {(c["instance"], c["engine"]): c for c in build_cells(exp)}
    assert cells["fig6", "dfpn"]["timeout"] == 60 and cells["fig5", "dfpn"]["timeout"] == 30
    assert cells["fig6", "brute"]["timeout"] == 30
    # as if an earlier run had given every dfpn cell 30 s and both had run out of time
    store = Store(tmp_path / "results" / "x.sqlite")
    for inst in ("fig5", "fig6"):
        store.record({**cells[inst, "dfpn"], "options": "{}", "timeout": 30.0,
                      "status": "unknown", "mate": None})
    store.close()
    assert run_experiment(exp, progress=False) == {"mate": 1, "nomate": 2, "shrunk": 0}
    rows = {(r["instance"], r["engine"]): r for r in read_csv(tmp_path / "results" / "x.csv")}
    assert len(rows) == 4
    assert (rows["fig6", "dfpn"]["status"], rows["fig6", "dfpn"]["timeout"]) == ("nomate", 60.0)
    # the same budget as before: the timeout stands
    assert (rows["fig5", "dfpn"]["status"], rows["fig5", "dfpn"]["timeout"]) == ("unknown", 30.0)


def test_timeouts_name_instances_of_the_experiment(tmp_path):
    cases_file(tmp_path, [{"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2}])
    path = write_experiment(tmp_path, SMALL.replace(
        'engine = "dfpn"', 'engine = "dfpn"\n    timeouts = {"fig7" = 60}'))
    with pytest.raises(TsumeError, match=r"engines\[1\]\.timeouts: no instance 'fig7'"):
        load_experiment(path)


def test_paper_method_names_the_rows_beyond_2x_and_the_board_trend():
    from tsumeqbf.experiments.paper import paper_rows
    from tsumeqbf.experiments.paper_report import paper_method

    published = [p for p in paper_rows() if p["table"] == 4]
    # ours: half the paper's seconds on 3x3, 3x on 9x9, 20x on 8x8, the rest equal
    factor = {"3x3": 0.5, "8x8": 20, "9x9": 3}
    ours = {(p["figure"], p["board"], p["plies"], "depqbf/paper"):
            {"mate": p["mate"], "solve_s": p["solver_s"] * factor.get(p["board"], 1)}
            for p in published}
    run = paper_method(ours, published)[0]
    assert (run["within2"], run["within10"]) == (5, 6)
    assert run["slow"] == ["figure 5, 9x9, 1 ply (3x)"]  # 8x8 is beyond 10x: listed apart
    assert [row[1] for row in run["beyond"]] == ["8x8"]
    assert run["board_trend"].startswith("0.5 on 3x3 to 3 on 9x9: ")
    assert "grows faster" in run["board_trend"]


def test_a_scheduler_without_the_dask_executor_is_refused(capsys):
    # it ran the cells here and said nothing of the scheduler named
    assert main(["experiment", "run", "agreement", "--quick", "--scheduler", "tcp://x:8786"]) == 2
    assert "give --executor dask with it" in capsys.readouterr().err


def test_a_report_without_results_names_the_run_that_makes_them(tmp_path, capsys):
    # the hint left out --out, so the run it named wrote elsewhere
    out = tmp_path / "elsewhere"
    assert main(["experiment", "report", "agreement", "--quick", "--out", str(out)]) == 2
    assert f"run `tsumeqbf experiment run agreement --quick --out {out}` first" in (
        capsys.readouterr().err)


def test_a_csv_cases_file_with_expected_verdicts_and_a_byte_order_mark(tmp_path):
    # its mate column was kept as the strings "true"/"false" and never compared; a
    # spreadsheet's byte-order mark hid the id column
    folder = tmp_path / "experiments"
    folder.mkdir()
    (folder / "cases.csv").write_text(f"id,sfen,n,zone,mate\nfig5,{FIG5},1,2,false\nfig6,{FIG6},3,2,\n",
                                      encoding="utf-8-sig")
    exp = load_experiment(str(write_experiment(tmp_path, """
        [[instances]]
        file = "cases.csv"
        [[engines]]
        engine = "brute"
    """)))
    metas = {i["id"]: i["meta"] for i in exp.instances}
    assert metas["fig5"]["mate"] is False and "mate" not in metas["fig6"]
    (folder / "cases.csv").write_text(f"id,sfen,n,mate\nfig5,{FIG5},1,perhaps\n")
    with pytest.raises(TsumeError, match="mate must be true, false or empty, got 'perhaps'"):
        load_experiment(str(folder / "x.toml"))
    (folder / "cases.csv").write_text("id,sfen,n\n")
    with pytest.raises(TsumeError, match="no cases"):
        load_experiment(str(folder / "x.toml"))


def test_a_store_or_csv_that_is_not_an_experiments_is_one_line(tmp_path):
    from tsumeqbf.experiments.store import Store, read_csv

    bad = tmp_path / "x.sqlite"
    bad.write_bytes(b"not a database" * 100)
    with pytest.raises(TsumeError, match="the experiment's store cannot be opened"):
        Store(bad)
    foreign = tmp_path / "x.csv"
    foreign.write_text("a,b\n1,2\n")
    with pytest.raises(TsumeError, match="no column key, instance, label, status"):
        read_csv(foreign)


def test_a_changed_configuration_relabels_its_cells_and_says_what_it_keeps(tmp_path, capsys):
    from tsumeqbf.experiments.runner import run_experiment

    cases_file(tmp_path, [{"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2}])
    body = """
        [[instances]]
        file = "cases.jsonl"
        [[engines]]
        engine = "brute"
        label = "A"
        [[engines]]
        engine = "dfpn"
        label = "B"
    """
    path = write_experiment(tmp_path, body)
    run_experiment(load_experiment(str(path)), progress=False)
    # the labels swapped: each label's rows were the other engine's
    write_experiment(tmp_path, body.replace('"A"', '"X"').replace('"B"', '"A"').replace('"X"', '"B"'))
    run_experiment(load_experiment(str(path)), progress=False)
    rows = read_csv(tmp_path / "results" / "x.csv")
    assert {(r["engine"], r["label"]) for r in rows} == {("brute", "B"), ("dfpn", "A")}
    write_experiment(tmp_path, body.split("[[engines]]\n        engine = \"dfpn\"")[0])
    capsys.readouterr()
    run_experiment(load_experiment(str(path)), progress=False)
    assert "the store holds 1 cells this configuration does not ask for" in capsys.readouterr().err


def test_an_experiment_named_like_a_quick_subset_is_refused(tmp_path):
    # its results were stored with those of x --quick
    with pytest.raises(TsumeError, match="cannot end in -quick"):
        load_experiment(str(write_experiment(tmp_path, SMALL, name="x-quick")))


def test_a_quick_subset_without_a_source_whose_ids_have_timeouts_loads(tmp_path):
    cases_file(tmp_path, [{"id": "j1", "sfen": FIG5, "n": 1, "zone": 2}])
    path = write_experiment(tmp_path, """
        [[instances]]
        paper = [1]
        [[instances]]
        file = "cases.jsonl"
        in_quick = false
        [[engines]]
        engine = "brute"
        timeouts = {j1 = 5}
        [quick]
        max_plies = 1
    """)
    assert {i["id"] for i in load_experiment(str(path)).instances} >= {"j1"}
    assert "j1" not in {i["id"] for i in load_experiment(str(path), quick=True).instances}


def test_a_typo_in_the_quick_table_is_found_by_a_full_load_too(tmp_path):
    path = write_experiment(tmp_path, """
        [[instances]]
        paper = [1]
        [[engines]]
        engine = "brute"
        [quick]
        max_plys = 1
    """)
    with pytest.raises(TsumeError, match="quick.max_plys: unknown key"):
        load_experiment(path)
