"""The brute-force reference solver (tsumeqbf.rules.reference) against known verdicts.

* the founding paper's figures (tsumeqbf/data/figures.jsonl) must give the paper's verdicts;
* YaneuraOu's mate-n samples (real 9x9 game positions) must be mate at their stated
  length and not at the stated length minus 2;
* mating moves must be legal checks that really force mate (checked move by move);
* an independent, memo-free minimax written here from RULES.md must agree on small
  random questions.
"""

from __future__ import annotations

import time

import pytest

from tsumeqbf.data import read_jsonl, read_rows
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.reference import (ReferenceSolver, SearchLimit, mate_within,
                                      mating_moves, minimal_mate_length)

FIGURES = read_jsonl("figures.jsonl")
SAMPLES = read_rows("yaneuraou_mate_samples.csv")


def figure_position(case: dict) -> Position:
    return Position.from_sfen(case["sfen"], zone=case["zone"])


def sample_id(row: dict) -> str:
    return f"{row['yaneuraou_file'].removesuffix('.sfen')}-{row['line_no']}"


def naive_mate(pos: Position, n: int) -> bool:
    """Mate(P, n) of RULES.md, written independently of the library's solver: every
    legal move is tried and kept only if it leaves the defender in check (so ``checks()``
    is not trusted), no memo, no pruning."""
    for m in pos.legal_moves():
        pos.push(m)
        try:
            if not pos.in_check():
                continue
            replies = pos.legal_moves()
            if not replies:
                return True
            if n < 3:
                continue
            ok = True
            for d in replies:
                pos.push(d)
                try:
                    ok = naive_mate(pos, n - 2)
                finally:
                    pos.pop()
                if not ok:
                    break
            if ok:
                return True
        finally:
            pos.pop()
    return False


def assert_forces_mate(pos: Position, m: int, n: int) -> None:
    """Check by hand that attacker move ``m`` forces mate within n plies."""
    before = pos.sfen()
    assert m in pos.legal_moves(), pos.usi(m)
    assert m in pos.checks(), pos.usi(m)
    pos.push(m)
    try:
        assert pos.in_check(), f"{pos.usi(m)} does not give check"
        replies = pos.legal_moves()
        if n == 1:
            assert not replies and pos.is_checkmate()
        for d in replies:
            pos.push(d)
            try:
                assert mate_within(pos, n - 2), f"reply {pos.sfen()} escapes"
            finally:
                pos.pop()
    finally:
        pos.pop()
    assert pos.sfen() == before


# ---------------------------------------------------------------------------------------
# The paper's figures
# ---------------------------------------------------------------------------------------
def test_figures_file_shape():
    assert len(FIGURES) >= 18
    ids = [case["id"] for case in FIGURES]
    assert len(set(ids)) == len(ids)
    for case in FIGURES:
        assert {"id", "sfen", "width", "height", "zone", "n", "mate"} <= case.keys()


@pytest.mark.parametrize("case", FIGURES, ids=[c["id"] for c in FIGURES])
def test_figure_verdict(case):
    pos = figure_position(case)
    pos.validate_question()
    assert (pos.geo.width, pos.geo.height, pos.geo.zone) == (case["width"], case["height"],
                                                             case["zone"])
    assert mate_within(pos, case["n"]) is case["mate"]
    assert pos.sfen() == Position.from_sfen(case["sfen"], zone=case["zone"]).sfen()  # restored
    k = minimal_mate_length(pos, case["n"])
    if case["mate"]:
        assert k is not None and k <= case["n"]
        assert mate_within(pos, k) and (k == 1 or not mate_within(pos, k - 2))
    else:
        assert k is None
    # within n means at any odd k <= n: a mate stays a mate with two more plies
    if case["mate"]:
        assert mate_within(pos, case["n"] + 2)


@pytest.mark.parametrize("case", FIGURES, ids=[c["id"] for c in FIGURES])
def test_figure_mating_moves(case):
    pos = figure_position(case)
    n = case["n"]
    moves = mating_moves(pos, n)
    assert bool(moves) is case["mate"]
    assert len(set(moves)) == len(moves)
    for m in moves:
        assert_forces_mate(pos, m, n)
    # the checks left out really fail
    for m in set(pos.checks()) - set(moves):
        pos.push(m)
        replies = pos.legal_moves()
        assert replies
        if n >= 3:
            escaped = False
            for d in replies:
                pos.push(d)
                escaped = not mate_within(pos, n - 2)
                pos.pop()
                if escaped:
                    break
            assert escaped
        pos.pop()


@pytest.mark.parametrize("case", [c for c in FIGURES if c["n"] <= 5],
                         ids=[c["id"] for c in FIGURES if c["n"] <= 5])
def test_figure_verdict_independent(case):
    assert naive_mate(figure_position(case), case["n"]) is case["mate"]


@pytest.mark.parametrize("sfen, zone, n, expected", [
    # fig. 5: gold or promoting pawn to 1b
    ("2k/3/1GP b - 1", 2, 1, {"2c1b", "1c1b+"}),
    # fig. 5 with Z=1: 1c1b cannot promote, and the unpromoted pawn check lets the king
    # out to 2a; only the gold mates
    ("2k/3/1GP b - 1", 1, 1, {"2c1b"}),
    # fig. 6: no mate in 1; in 3 the pawn must promote on 3b
    ("1k1/3/PG1 b - 1", 2, 1, set()),
    ("1k1/3/PG1 b - 1", 2, 3, {"3c3b+"}),
    ("+P1k1/l1pP/R2+B/2P1 b - 1", 3, 3, {"1c2b"}),
    ("Bgks/4/2+B1/S1+R1 b - 1", 3, 3, {"2c1b", "2c3b"}),
])
def test_known_mating_move_sets(sfen, zone, n, expected):
    pos = Position.from_sfen(sfen, zone=zone)
    assert {pos.usi(m) for m in mating_moves(pos, n)} == expected


def test_fig6_line_by_hand():
    # 1k1/3/PG1, Z=2: after 3c3b+ the tokin (guarded by the gold) checks the king on 2a,
    # and every reply is mated at once
    pos = Position.from_sfen("1k1/3/PG1 b - 1", zone=2)
    pos.push(pos.parse_usi("3c3b+"))
    replies = pos.legal_moves()
    assert replies
    for d in replies:
        pos.push(d)
        assert mating_moves(pos, 1), pos.sfen()
        pos.pop()


# ---------------------------------------------------------------------------------------
# YaneuraOu's mate-n samples (9x9 real-game positions, both kings, both hands)
# ---------------------------------------------------------------------------------------
def _sample_params(max_fast: int):
    out = []
    for row in SAMPLES:
        n = int(row["stated_length"])
        marks = [pytest.mark.slow] if n > max_fast else []
        out.append(pytest.param(row, id=sample_id(row), marks=marks))
    return out


@pytest.mark.parametrize("row", _sample_params(7))
def test_yaneuraou_sample(row):
    n = int(row["stated_length"])
    pos = Position.from_sfen(row["sfen"])
    pos.validate_question()
    assert pos.kings[0] >= 0 and pos.kings[1] >= 0
    start = time.monotonic()
    assert mate_within(pos, n), f"{row['sfen']}: no mate in {n}"
    assert not mate_within(pos, n - 2), f"{row['sfen']}: already mate in {n - 2}"
    assert minimal_mate_length(pos, n) == n
    assert pos.sfen().split()[:3] == row["sfen"].split()[:3]
    if n <= 5:
        assert time.monotonic() - start < 10


@pytest.mark.parametrize("row", [r for r in SAMPLES if int(r["stated_length"]) == 3],
                         ids=[sample_id(r) for r in SAMPLES if int(r["stated_length"]) == 3])
def test_yaneuraou_mate3_mating_moves(row):
    pos = Position.from_sfen(row["sfen"])
    moves = mating_moves(pos, 3)
    assert moves
    for m in moves:
        assert_forces_mate(pos, m, 3)
    assert not mating_moves(pos, 1)


# ---------------------------------------------------------------------------------------
# Agreement with the independent minimax on seeded random small questions
# ---------------------------------------------------------------------------------------
RICH = dict(attacker_pieces=5, defender_pieces=3, attacker_hand=3, defender_hand=2)


def _agree(cases) -> list[bool]:
    verdicts = []
    for case in cases:
        pos = Position.from_sfen(case["sfen"], zone=case["zone"])
        got = mate_within(pos, case["n"])
        assert got == naive_mate(pos, case["n"]), case
        k = minimal_mate_length(pos, case["n"])
        assert (k is not None) == got, case
        if k is not None and k > 1:
            assert not naive_mate(pos, k - 2), case
        moves = mating_moves(pos, case["n"])
        assert bool(moves) == got, case
        if got:
            # spot-check the first mating move by hand
            assert_forces_mate(pos, moves[0], case["n"])
        verdicts.append(got)
    return verdicts


@pytest.mark.parametrize("seed, sizes, plies, count, bounds", [
    (20240601, ((3, 3), (3, 4), (4, 3), (4, 4)), (1, 3), 240, {}),
    (11, ((3, 3), (4, 4), (5, 5), (5, 3), (3, 5), (2, 4)), (1, 3), 300, RICH),
    (12, ((3, 3), (4, 4), (5, 5)), (5,), 45, {}),
], ids=["small-1-3", "rich-1-3", "small-5"])
def test_random_questions_agree_with_naive_minimax(seed, sizes, plies, count, bounds):
    verdicts = _agree(question_set(seed=seed, count=count, sizes=sizes, plies=plies, **bounds))
    # the sample exercises both answers
    assert any(verdicts) and not all(verdicts)


@pytest.mark.parametrize("seed, sizes, plies, count", [
    (7, ((3, 3), (4, 4), (5, 5), (5, 4)), (5,), 200),
    (8, ((3, 3), (4, 4)), (7,), 40),
    pytest.param(9, ((3, 3), (4, 4), (5, 5), (5, 4), (4, 5)), (5, 7), 600,
                 marks=pytest.mark.slow),
])
def test_random_questions_agree_with_naive_minimax_deeper(seed, sizes, plies, count):
    verdicts = _agree(question_set(seed=seed, count=count, sizes=sizes, plies=plies, **RICH))
    assert any(verdicts) and not all(verdicts)


# ---------------------------------------------------------------------------------------
# The API around the search
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [0, 2, -1, 4])
def test_n_must_be_odd_positive(n):
    pos = Position.from_sfen("2k/3/1GP b - 1", zone=2)
    for f in (mate_within, mating_moves, minimal_mate_length):
        with pytest.raises(ValueError, match="odd"):
            f(pos, n)


def test_minimal_mate_length_bounds():
    pos = Position.from_sfen("1k1/3/PG1 b - 1", zone=2)
    assert minimal_mate_length(pos, 1) is None
    assert minimal_mate_length(pos, 3) == 3
    assert minimal_mate_length(pos, 9) == 3


def test_no_checks_means_no_mate():
    # gote k 1a, sente holds nothing and has only a king far away: no check exists
    pos = Position.from_sfen("2k/3/K2 b - 1")
    assert pos.checks() == []
    assert not mate_within(pos, 5) and mating_moves(pos, 5) == []
    assert minimal_mate_length(pos, 5) is None


def test_search_limits():
    row = next(r for r in SAMPLES if int(r["stated_length"]) == 7)
    pos = Position.from_sfen(row["sfen"])
    with pytest.raises(SearchLimit):
        mate_within(pos, 7, max_nodes=1)
    with pytest.raises(SearchLimit):
        ReferenceSolver(deadline=time.monotonic() - 1).mate(pos, 11)
    # the position is untouched by an interrupted search
    assert pos.sfen().split()[:3] == row["sfen"].split()[:3]
