"""The length audit of Edo answers (python -m tsumeqbf.bench lengths) on small positions."""

import csv

from tsumeqbf.bench.lengths import audit, differing
from tsumeqbf.rules import Position
from tsumeqbf.rules.reference import minimal_mate_length

MATE_IN_1 = "2k/3/1GP b - 1"  # 3x3, zone 2: 2c1b mates at once


def test_a_mate_within_the_stated_length_is_found():
    out = audit(Position.from_sfen(MATE_IN_1, zone=2), stated=1, plies=3, length=3,
                max_plies=15, max_nodes=10_000, backend="rules")
    assert out["stated_mate"] == "mate" and out["shorter_n"] == 1 and out["shorter_mate"] == "mate"
    assert out["finding"] == "a mate within the stated length exists: ours is not the shortest"


def test_a_shortest_line_is_confirmed_and_a_short_record_refuted():
    # the shortest mate takes 5 plies (the reference says so): a stated 3 has no mate and
    # a 5-ply line is a shortest one, while a 7-ply line is not
    pos = Position.from_sfen("k2/3/2R b G 1", zone=1)
    assert minimal_mate_length(pos.copy(), 9) == 5
    out = audit(pos, stated=3, plies=5, length=5, max_plies=15, max_nodes=50_000, backend="rules")
    assert (out["stated_mate"], out["shorter_n"], out["shorter_mate"]) == ("nomate", 3, "nomate")
    assert out["finding"] == ("no mate within the stated length (every ply counted); "
                              "ours is a shortest mate")
    out = audit(pos, stated=3, plies=7, length=7, max_plies=15, max_nodes=50_000, backend="rules")
    assert (out["stated_mate"], out["shorter_mate"]) == ("nomate", "mate")
    assert out["finding"] == "a mate shorter than ours exists"


def test_questions_past_the_cap_are_not_asked():
    out = audit(Position.from_sfen(MATE_IN_1, zone=2), stated=21, plies=25, length=25,
                max_plies=15, max_nodes=10_000, backend="rules")
    assert out["stated_mate"] == "-" and out["shorter_mate"] == "-"
    assert out["finding"] == "undecided"


def test_only_solved_rows_with_another_length_are_audited(tmp_path):
    fields = ["id", "stated_length", "status", "length", "plies"]
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    for path, rows in ((first, [("zukou-001", 9, "unknown", "", ""), ("zukou-002", 9, "mate", 9, 9)]),
                       (second, [("zukou-001", 9, "mate", 11, 13)])):
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(fields)
            w.writerows(rows)
    assert list(differing([first, second])) == ["zukou-001"]


def test_one_search_when_both_questions_ask_the_same_length():
    pos = Position.from_sfen("k2/3/2R b G 1", zone=1)
    out = audit(pos, stated=3, plies=5, length=5, max_plies=15, max_nodes=50_000, backend="rules")
    assert out["stated_nodes"] == out["shorter_nodes"] > 0
