"""A long run (qbf-real with repeats) continued across sessions at one pinned commit: the
committed partial CSV seeds a fresh store (--continue-csv), cells other code made run
again (--same-code), and the cells of each repeat are keyed apart, so the finished report
comes from one commit (docs/experiments.md, "A run over several sessions")."""

from tsumeqbf.experiments.config import load_experiment
from tsumeqbf.experiments.report import render_report
from tsumeqbf.experiments.runner import code_version, run_experiment
from tsumeqbf.experiments.store import read_csv, write_csv

from test_experiments import FIG5, FIG6, SMALL, cases_file, write_experiment

# a CPU limit, as the long runs have: it is part of every cell's key
BRUTE = SMALL.replace("timeout = 30\n", "timeout = 30\n    cpu_limit = 20\n")


def test_a_partial_run_continues_in_a_new_session_at_the_same_commit(tmp_path):
    cases_file(tmp_path, [{"id": "a", "sfen": FIG5, "n": 1, "zone": 2},
                          {"id": "b", "sfen": FIG6, "n": 3, "zone": 2}])
    path = write_experiment(tmp_path, BRUTE)
    exp = load_experiment(path)
    assert {e.options["cpu_limit"] for e in exp.engines} == {20}
    results = tmp_path / "results"
    run_experiment(exp, progress=False, repeat=2)
    csv_path = results / "x.csv"
    first = read_csv(csv_path)
    assert len(first) == 8 and {r["repeat"] for r in first} == {1, 2}
    # the session ended: its store is gone, its CSV was committed with one cell unfinished
    # and one row that an earlier commit made
    (results / "x.sqlite").unlink()
    unfinished, other = first[0], first[1]
    other["code_version"] = "tsumeqbf 0.1.0, encoder 7, git ea0a67a"
    write_csv(csv_path, [other, *first[2:]])
    run_experiment(exp, progress=False, repeat=2, continue_csv=True, same_code=True)
    after = {r["key"]: r for r in read_csv(csv_path)}
    assert len(after) == 8 and {r["code_version"] for r in after.values()} == {code_version()}
    for row in first[2:]:
        assert after[row["key"]] == row  # taken as it was, not measured again
    # the unfinished cell ran, the other commit's ran again: each as its own repeat
    assert [after[row["key"]]["repeat"] for row in (unfinished, other)] == [
        unfinished["repeat"], other["repeat"]]
    # one commit: the report renders without --mixed, with its repeats
    md = render_report(exp, plots=False).read_text()
    assert "mixed code" not in md and "## Repeats: 2 runs of every cell" in md
