"""bench answers: solve's defaults, one row per problem, every answer replayed."""

from tsumeqbf.bench.answers import FIELDS, main, problems, run_one


def test_problems_are_the_samples_and_the_edo_ids_asked_for():
    rows = problems(True, "musou-077")
    assert len(rows) == 43 and rows[0]["id"] == "mate3-1" and rows[-1]["id"] == "musou-077"
    assert problems(False, None) == []


def test_a_row_says_how_long_the_answer_took_and_whether_it_is_the_shortest(tmp_path, capsys):
    row = run_one(problems(True, None)[0], shortest=False)  # a stated mate in 3
    assert set(row) == set(FIELDS)
    assert row["length"] == 3 and row["shortest_exact"] is True and row["replay"] == "ok"
    assert row["total_s"] >= row["time_s"] and row["after_nodes"] > 0
    out = tmp_path / "rows.csv"
    assert main(["--ids", "musou-077", "--csv", str(out)]) == 0
    assert out.read_text().splitlines()[0] == ",".join(FIELDS)
    assert "musou-077,11,mate,11" in capsys.readouterr().out
