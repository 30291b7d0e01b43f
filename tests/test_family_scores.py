"""`tsumeqbf family-score DIR`: the QBF solvers scored on a written family against its
proven truths; a lying solver counted wrong and named; an interrupted run resumed without
losing or repeating a cell; other bytes than the index's refused in one line."""

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tsumeqbf.cli import main
import tsumeqbf.family.scores as scores
from tsumeqbf.family.writer import INDEX_COLUMNS
from tsumeqbf.solvers import is_installed
from tsumeqbf.solvers.runner import SOLVERS, SolverSpec

pytestmark = pytest.mark.skipif(not (is_installed("depqbf") and is_installed("qute")),
                                reason="pyqbf solvers not installed")

SPEC = """
encodings = ["compact"]

[[questions]]
file = "cases.jsonl"
"""
#: figure 6 of the paper: mate in 3, none in 1 (the pair writes both)
FIG6 = {"id": "fig6", "sfen": "1k1/3/PG1 b - 1", "n": 3, "zone": 2}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("scores")
    (tmp / "cases.jsonl").write_text(json.dumps(FIG6) + "\n")
    (tmp / "spec.toml").write_text(SPEC)
    assert main(["family", str(tmp / "spec.toml"), "-o", str(tmp / "out"), "--quiet"]) == 0
    return tmp / "out"


def rows_of(path: Path) -> list[dict]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_each_solver_scored_on_the_formats_it_reads(written, tmp_path, capsys):
    out = tmp_path / "s.csv"
    assert main(["family-score", str(written), "--csv", str(out), "--solvers", "depqbf,qute",
                 "--quiet"]) == 0
    rows = rows_of(out)
    # 2 formulas (n=1 false, n=3 true) x (depqbf on QDIMACS; qute on QDIMACS and QCIR)
    assert sorted((r["n"], r["solver"], r["format"]) for r in rows) == [
        ("1", "depqbf", "qdimacs"), ("1", "qute", "qcir"), ("1", "qute", "qdimacs"),
        ("3", "depqbf", "qdimacs"), ("3", "qute", "qcir"), ("3", "qute", "qdimacs")]
    for r in rows:
        assert r["status"] == r["truth"] and r["decided"] == "1" and r["wrong"] == "0"
        assert r["cpu_limit"] == "60" and float(r["cpu_s"]) >= 0 and r["encoder_version"]
        assert r["solver_version"] and r["commit"] is not None and r["cpu_model"]
        assert r["command"].startswith(f"tsumeqbf family-score {written} --csv {out}")
    md = (tmp_path / "s.md").read_text()
    assert "| qute (qcir) |" in md and "Wrong answers: 0." in md and "6 cells of 6" in md
    assert capsys.readouterr().out.startswith(f"6 cells of 6 scored in {out}; 0 wrong")


def test_a_solver_that_lies_is_counted_wrong_and_named(written, tmp_path, monkeypatch):
    liar = tmp_path / "liar"
    liar.write_text("#!/bin/sh\nexit 10\n")  # says true to everything
    liar.chmod(0o755)
    monkeypatch.setitem(SOLVERS, "depqbf", SolverSpec("depqbf", (str(liar),)))
    out = tmp_path / "s.csv"
    assert main(["family-score", str(written), "--csv", str(out), "--solvers", "depqbf",
                 "--quiet"]) == 0
    rows = {r["n"]: r for r in rows_of(out)}
    assert (rows["1"]["status"], rows["1"]["wrong"]) == ("true", "1")  # truth: false
    assert (rows["3"]["status"], rows["3"]["wrong"]) == ("true", "0")
    assert scores.par2(list(rows.values())) == pytest.approx(
        (120.0 + float(rows["3"]["cpu_s"])) / 2)  # the wrong cell counts as unsolved
    md = (tmp_path / "s.md").read_text()
    assert "Wrong answers: 1." in md and "fig6-n1-compact-false.qdimacs" in md


def test_an_interrupted_run_resumes_without_losing_or_repeating_cells(written, tmp_path,
                                                                      monkeypatch):
    out = tmp_path / "s.csv"
    real, calls = scores.score_cell, []

    def stop_after_two(*args, **kwargs):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(args[1:3])
        return real(*args, **kwargs)

    monkeypatch.setattr(scores, "score_cell", stop_after_two)
    with pytest.raises(KeyboardInterrupt):
        scores.score_family(str(written), str(out), ("depqbf", "qute"))
    assert len(rows_of(out)) == 2
    with open(out, "a") as fh:  # a line a kill cut short
        fh.write("fig6-n3-compact-true,fig6-n3")
    monkeypatch.setattr(scores, "score_cell", real)
    rows = scores.score_family(str(written), str(out), ("depqbf", "qute"))
    keys = [(r["file"], r["solver"]) for r in rows_of(out)]
    assert len(rows) == len(keys) == len(set(keys)) == 6


def test_other_bytes_than_the_index_lists_are_refused_in_one_line(written, tmp_path, capsys):
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in written.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    name = next(f.name for f in copy.iterdir() if f.suffix == ".qdimacs")
    with open(copy / name, "a") as fh:
        fh.write("c changed\n")
    assert main(["family-score", str(copy), "--solvers", "depqbf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{name}: not the bytes index.csv lists" in err
    assert not (copy / "scores.csv").exists()


def test_a_csv_of_other_columns_is_refused_not_overwritten(written, tmp_path, capsys):
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n")
    assert main(["family-score", str(written), "--csv", str(other)]) == 2
    assert "not a scores CSV" in capsys.readouterr().err
    assert other.read_text() == "a,b\n1,2\n"


def test_an_unknown_solver_is_one_line(written, capsys):
    assert main(["family-score", str(written), "--solvers", "minisat"]) == 2
    assert "unknown solver 'minisat'" in capsys.readouterr().err


def copy_of(written: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in written.iterdir():
        if f.suffix != ".csv" or f.name == "index.csv":
            (copy / f.name).write_bytes(f.read_bytes())
    return copy


def test_the_summary_counts_only_the_cells_of_this_run(written, tmp_path, capsys):
    out = tmp_path / "s.csv"
    assert main(["family-score", str(written), "--csv", str(out), "--solvers", "depqbf",
                 "--quiet"]) == 0
    capsys.readouterr()
    assert main(["family-score", str(written), "--csv", str(out), "--solvers", "qute",
                 "--cpu-limit", "30", "--quiet"]) == 0
    assert len(rows_of(out)) == 6  # the depqbf rows stay in the CSV...
    assert capsys.readouterr().out.startswith(f"4 cells of 4 scored in {out}; 0 wrong")
    md = (tmp_path / "s.md").read_text()
    assert "4 cells of 4" in md and "| depqbf |" not in md  # ...but not in this summary
    assert main(["family-score", str(written), "--csv", str(out), "--solvers", "depqbf",
                 "--report-only"]) == 0
    assert capsys.readouterr().out.startswith(f"2 cells of 2 scored in {out}")
    assert "| qute" not in (tmp_path / "s.md").read_text()


def test_a_cell_run_with_another_memory_limit_is_not_reused(written, tmp_path, capsys):
    out = tmp_path / "s.csv"
    for mb in ("4096", "2048"):
        assert main(["family-score", str(written), "--csv", str(out), "--solvers", "depqbf",
                     "--memory-mb", mb]) == 0
    err = capsys.readouterr().err
    assert "2 cells to run, 2 kept" in err
    assert sorted(r["memory_mb"] for r in rows_of(out)) == ["2048", "2048", "4096", "4096"]


@pytest.mark.parametrize("flags, words", [
    (["--csv", "{t}/s.csv", "--md", "{t}/s.csv"], "--md {t}/s.csv is the scores CSV"),
    (["--csv", "{t}/s.md"], "--md {t}/s.md is the scores CSV"),  # the default beside it
    (["--md", "{d}/index.csv"], "--md {d}/index.csv is the family's index"),
    (["--md", "{d}/{f}"], "is a formula of the family ({f})"),
    (["--csv", "{d}/{f}"], "--csv {d}/{f} is a formula of the family"),
])
def test_the_summary_and_the_csv_may_not_overwrite_each_other_or_the_family(
        written, tmp_path, capsys, flags, words):
    copy = copy_of(written, tmp_path)
    before = {f.name: f.read_bytes() for f in copy.iterdir()}
    name = next(f for f in before if f.endswith(".qdimacs"))
    fill = {"t": tmp_path, "d": copy, "f": name}
    assert main(["family-score", str(copy), "--solvers", "depqbf",
                 *(x.format(**fill) for x in flags)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words.format(**fill) in err, err
    assert {f.name: f.read_bytes() for f in copy.iterdir()} == before
    assert not (tmp_path / "s.csv").exists() and not (tmp_path / "s.md").exists()


def set_field(lines: list, column: str, value: str) -> list:
    """The index's lines with ``column`` of the first row set to ``value`` (``{f}``: its
    file)."""
    col = list(INDEX_COLUMNS).index(column)
    lines[1][col] = value.format(f=lines[1][list(INDEX_COLUMNS).index("file")])
    return lines


def rewrite_index(folder: Path, edit) -> None:
    with open(folder / "index.csv", newline="") as fh:
        lines = list(csv.reader(fh))
    with open(folder / "index.csv", "w", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(edit(lines))


def test_an_index_truth_that_is_not_the_file_header_is_refused(written, tmp_path, capsys):
    copy = copy_of(written, tmp_path)
    col = list(INDEX_COLUMNS).index("truth")

    def flip(lines):  # the bytes (md5) untouched, the truth of the n=1 formula turned
        row = next(r for r in lines[1:] if r[col] == "false")
        row[col] = "true"
        return lines

    rewrite_index(copy, flip)
    assert main(["family-score", str(copy), "--solvers", "depqbf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "its header says truth=false, index.csv says true" in err
    assert not (copy / "scores.csv").exists()


@pytest.mark.parametrize("edit, words", [
    (lambda lines: [r[:-1] for r in lines], "missing column(s) md5_formula"),
    (lambda lines: [r + ["x"] for r in lines], "unknown column(s) x"),
    (lambda lines: [["verdict" if c == "truth" else c for c in lines[0]], *lines[1:]],
     "missing column(s) truth; unknown column(s) verdict"),
    (lambda lines: [lines[0], lines[1][:5], *lines[2:]], "line 2 does not have the header's 19"),
    (lambda lines: [lines[0]], "lists no formulas"),
    (lambda lines: [*lines, lines[1]], f"line {{n}}: file '{{f}}' is listed twice"),
    (lambda lines: [], "missing column(s) id, question"),
    # a format no solver reads was once run by none, without a word
    (lambda lines: set_field(lines, "format", "cnf"), "line 2: format 'cnf' is not qdimacs or qcir"),
    (lambda lines: set_field(lines, "format", "qcir"), "line 2: file '{f}' is not a .qcir file"),
    (lambda lines: set_field(lines, "file", "../{f}"), "line 2: file '../{f}' is not a .qdimacs file of the folder"),
    (lambda lines: set_field(lines, "n", "three"), "line 2: n 'three' is not an odd number"),
])
def test_an_index_of_other_columns_is_refused_in_one_line(written, tmp_path, capsys, edit,
                                                          words):
    copy = copy_of(written, tmp_path)
    rewrite_index(copy, edit)
    index = rows_of(written / "index.csv")
    words = words.format(n=len(index) + 2, f=index[0]["file"])
    assert main(["family-score", str(copy), "--solvers", "depqbf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tsumeqbf: error: ") and words in err, err
    assert not (copy / "scores.csv").exists()


def test_a_solver_named_twice_is_refused(written, tmp_path, capsys):
    assert main(["family-score", str(written), "--csv", str(tmp_path / "s.csv"),
                 "--solvers", "depqbf,qute,depqbf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--solvers names 'depqbf' twice" in err
    assert not (tmp_path / "s.csv").exists()


def fake_solver(path: Path, body: str) -> str:
    path.write_text(f"#!/bin/sh\n[ \"$1\" = --version ] && {{ echo fake 1.0; exit 0; }}\n{body}\n")
    path.chmod(0o755)
    return str(path)


def test_ctrl_c_with_jobs_keeps_every_finished_cell_and_ends_at_once(written, tmp_path):
    slow = fake_solver(tmp_path / "slow", "exec sleep 60")
    fast = fake_solver(tmp_path / "fast", "exit 10")
    out = tmp_path / "s.csv"
    script = (
        "import sys\n"
        "from tsumeqbf.solvers import runner\n"
        f"runner.SOLVERS['qute'] = runner.SolverSpec('qute', ({slow!r},))\n"
        f"runner.SOLVERS['depqbf'] = runner.SolverSpec('depqbf', ({fast!r},))\n"
        "from tsumeqbf.cli import main\n"
        f"sys.exit(main(['family-score', {str(written)!r}, '--csv', {str(out)!r}, "
        "'--solvers', 'qute,depqbf', '--jobs', '2']))\n")
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(root)})
    # the first cells: qute (slow) and depqbf (fast) at once; then qute again, slow
    end = time.monotonic() + 30
    while time.monotonic() < end and not (out.exists() and len(rows_of(out)) >= 1):
        time.sleep(0.2)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=15)  # not the slow solvers' 60 s
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("family-score did not stop on Ctrl-C")
    assert proc.returncode == 130, err
    assert err.splitlines()[-1] == "tsumeqbf: interrupted" and "Traceback" not in err
    rows = rows_of(out)
    assert [(r["solver"], r["status"]) for r in rows] == [("depqbf", "true")]


def test_md_dash_prints_the_summary_on_standard_output(written, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "s.csv"
    assert main(["family-score", str(written), "--csv", str(out), "--solvers", "depqbf",
                 "--md", "-"]) == 0
    said = capsys.readouterr()
    assert said.out.startswith("# The QBF solvers on the benchmark family\n")
    assert said.err.splitlines()[-1].startswith("2 cells of 2 scored")
    assert not (tmp_path / "-").exists()


def test_a_cell_the_csv_holds_twice_is_counted_once(written, tmp_path, capsys):
    out = tmp_path / "s.csv"
    assert main(["family-score", str(written), "--csv", str(out), "--solvers", "depqbf",
                 "--quiet"]) == 0
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines + lines[1:]))  # two runs that shared the CSV at once
    capsys.readouterr()
    assert main(["family-score", str(written), "--csv", str(out), "--solvers", "depqbf",
                 "--report-only"]) == 0
    assert capsys.readouterr().out.startswith(f"2 cells of 2 scored in {out}")


@pytest.mark.parametrize("csv_path", ["-", "/dev/null"])
def test_a_csv_that_cannot_be_read_back_is_refused(written, tmp_path, capsys, monkeypatch,
                                                   csv_path):
    monkeypatch.chdir(tmp_path)  # (a `-` once became a file of that name here)
    assert main(["family-score", str(written), "--csv", csv_path, "--solvers", "depqbf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--csv: {csv_path!r} is not offered: the CSV is read back" in err
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def scored(written, tmp_path_factory):
    """A scores CSV of depqbf on ``written``."""
    out = tmp_path_factory.mktemp("scored") / "s.csv"
    assert main(["family-score", str(written), "--csv", str(out), "--solvers", "depqbf",
                 "--quiet"]) == 0
    return out


def edit_csv(src: Path, dst: Path, edit) -> None:
    with open(src, newline="") as fh:
        lines = list(csv.reader(fh))
    with open(dst, "w", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(edit(lines))


@pytest.mark.parametrize("make, words", [
    (None, "{c}: no such scores CSV to report from (run without --report-only first"),
    (lambda src, dst: dst.write_text(""), "{c}: holds no scores to report"),
    (lambda src, dst: edit_csv(src, dst, lambda ls: [r + ["x"] for r in ls]),
     "not a scores CSV of this version (unknown column(s) x)"),
    (lambda src, dst: edit_csv(src, dst, lambda ls: [r[:5] for r in ls]),
     "not a scores CSV of this version (missing column(s) n, encoding, truth, solver and 22 more)"),
    # (once an internal error: ValueError from float())
    (lambda src, dst: edit_csv(src, dst, lambda ls: [ls[0], [*ls[1][:12], "abc", *ls[1][13:]],
                                                     *ls[2:]]),
     "{c}: line 2: cpu_s 'abc' is not a number"),
    (lambda src, dst: edit_csv(src, dst, lambda ls: [ls[0], ls[1][:7], *ls[1:]]),
     "{c}: line 2: does not have the header's"),
    (lambda src, dst: dst.write_bytes(b"\xff\xfe" * 40), "{c}: not a scores CSV (not UTF-8 text)"),
])
def test_report_only_on_a_csv_it_cannot_report_from_is_one_line(written, scored, tmp_path,
                                                                 capsys, make, words):
    csv_path = tmp_path / "s.csv"
    if make:
        make(scored, csv_path)
    before = csv_path.read_bytes() if make else None
    assert main(["family-score", str(written), "--csv", str(csv_path), "--solvers", "depqbf",
                 "--report-only"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tsumeqbf: error: "), err
    assert words.format(c=csv_path) in err, err
    assert (csv_path.read_bytes() if make else None) == before
    assert not (tmp_path / "s.md").exists()


def test_report_only_on_another_familys_csv_says_so(written, scored, tmp_path, capsys):
    other = tmp_path / "other"
    other.mkdir()
    (other / "cases.jsonl").write_text(json.dumps({**FIG6, "id": "fig6b", "n": 1}) + "\n")
    (other / "spec.toml").write_text(SPEC)
    assert main(["family", str(other / "spec.toml"), "-o", str(other / "out"), "--quiet"]) == 0
    assert main(["family-score", str(other / "out"), "--csv", str(scored), "--solvers",
                 "depqbf", "--report-only"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and (f"{scored}: its 2 rows score none of the files of "
                                     f"{other / 'out'}") in err, err


def test_a_solver_that_starts_as_the_others_are_killed_is_killed_too(written, tmp_path,
                                                                    monkeypatch):
    from tsumeqbf.family.writer import read_index
    from tsumeqbf.solvers import runner

    slow = fake_solver(tmp_path / "slow", "exec sleep 30")
    fast = fake_solver(tmp_path / "fast", "exit 10")
    monkeypatch.setitem(SOLVERS, "qute", SolverSpec("qute", (slow,)))
    monkeypatch.setitem(SOLVERS, "depqbf", SolverSpec("depqbf", (fast,)))
    real_start = runner._start

    def late_start(spec, exe, args, *rest):
        if exe == slow and args != ["--version"]:
            time.sleep(2.0)  # still starting when the stop kills what runs
        return real_start(spec, exe, args, *rest)

    monkeypatch.setattr(runner, "_start", late_start)
    recorded = []

    def record(row):  # Ctrl-C as the first cell is recorded
        recorded.append(row)
        if len(recorded) == 1:
            raise KeyboardInterrupt

    row = next(r for r in read_index(str(written)) if r["format"] == "qdimacs")
    runner.solver_version.cache_clear()
    start = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            scores._run_pool([(row, "depqbf"), (row, "qute")], 2, record, str(written),
                             scores.ScoreLimits(cpu_s=60), "")
    finally:
        runner.solver_version.cache_clear()  # (a version run killed, or a fake's)
    # not the slow solver's 30 s: it was killed as it started
    assert time.monotonic() - start < 10
    assert [r["solver"] for r in recorded] == ["depqbf"]
