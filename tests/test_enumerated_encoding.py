"""Encoding ``enumerated``: the candidate lists come from the positions that legal lines
reach (:mod:`tsumeqbf.encoder.lines`); its verdicts agree with brute force."""

import pytest

from tsumeqbf.data import collection_cases
from tsumeqbf.encoder import lines
from tsumeqbf.encoder.lines import enumerate_plies
from tsumeqbf.encoder.reach import generate, initial_reach
from tsumeqbf.encoder.registry import encode
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.solvers import is_installed
from tsumeqbf.solvers.engine import solve_mate
from tsumeqbf.values import Limits

from test_qbf_agreement import NO_HANDS, check_agreement

needs_solvers = pytest.mark.skipif(not is_installed("depqbf"), reason="pyqbf solvers not installed")


def test_each_ply_offers_the_legal_moves_of_its_positions():
    pos = Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2)
    plies = enumerate_plies(pos, 3, 1000)
    assert len(plies) == 4
    first = {m.move() for m in plies[0][0]}
    assert first == set(pos.checks())
    replies = set()
    for m in pos.checks():
        after = pos.copy()
        after.push(m)
        replies |= set(after.legal_moves())
    assert {m.move() for m in plies[1][0]} == replies
    # the state after ply 1 may hold what any offered check brings to any position
    reach = plies[0][1]
    for m in plies[0][0]:
        assert m.result in reach.codes[m.to]


def test_the_lists_are_a_fraction_of_compacts():
    q = next(c for c in collection_cases("yaneuraou_mate_samples.csv") if c["n"] == 5)
    pos = Position.from_sfen(q["sfen"])
    plies = enumerate_plies(pos, 5, 10_000)
    reach = initial_reach(pos)
    first = generate(pos.geo, reach, pos.turn, check_filter=True)
    assert {m.move() for m in plies[0][0]} == set(pos.checks()) <= {m.move() for m in first}
    assert encode(pos, 5, "enumerated").formula.num_vars * 2 < encode(pos, 5, "compact").formula.num_vars


def test_a_small_cap_goes_on_by_reach():
    pos = Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2)
    assert len(enumerate_plies(pos, 5, 5)) < 6 == len(enumerate_plies(pos, 5, 10_000))


@pytest.mark.parametrize("qid", ["yaneuraou-mate5-2", "yaneuraou-mate5-3", "yaneuraou-mate5-8",
                                 "yaneuraou-mate7-71", "yaneuraou-mate3-8"])
def test_cshogi_lists_the_same_plies_as_the_rules_engine(qid):
    # standard 9x9 questions are enumerated by cshogi: every ply's candidates and reach
    # must be the rules engine's, so that the formula is the same
    cshogi = pytest.importorskip("cshogi")
    q = next(c for c in collection_cases("yaneuraou_mate_samples.csv") if c["id"] == qid)
    pos = Position.from_sfen(q["sfen"])
    by_rules = lines._plies(pos, q["n"], 2_000, lines._RulesLister())
    by_cshogi = lines._plies(pos, q["n"], 2_000, lines.CshogiLister(cshogi))
    assert len(by_rules) >= 4 and sum(len(c) for c, _ in by_rules) > 100
    assert by_cshogi == by_rules


@pytest.mark.parametrize("sfen", ["1k2/R3/4/4 b GNp 1", "4k4/9/9/9/9/9/9/9/9 b 3R 1"])
def test_other_questions_are_enumerated_by_the_rules_engine(sfen, monkeypatch):
    # a small board, or more than the standard set, is not cshogi's game
    monkeypatch.setattr(lines, "CshogiLister", None)
    pos = Position.from_sfen(sfen, zone=2 if sfen.startswith("1k2") else None)
    assert enumerate_plies(pos, 1, 100)[0][0]


@needs_solvers
@pytest.mark.parametrize("n", [1, 3, 5])
def test_an_early_mate_is_mate_within_n(n):
    # G*3b mates at once: asked at 3 or 5 plies the later states must still see the
    # pieces of a position no legal reply leaves (the reach covers every offered move)
    pos = Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2)
    got = solve_mate(pos, n, Limits.within(30), {"solver": "depqbf", "encoding": "enumerated"})
    assert got.verdict is True and got.first_move == "G*3b"


@needs_solvers
@pytest.mark.parametrize("plies", [3, 5])
def test_generated_questions(plies):
    qs = question_set(40 + plies, 24 if plies == 3 else 12, sizes=((3, 3), (4, 4), (5, 5)),
                      plies=(plies,))
    check_agreement(qs, "depqbf", "enumerated", timeout=20, max_unknown_share=0.2)


@needs_solvers
def test_generated_questions_without_hands():
    qs = question_set(45, 16, sizes=((3, 3), (4, 4)), plies=(1, 3), **NO_HANDS)
    check_agreement(qs, "depqbf", "enumerated", timeout=20, max_unknown_share=0, no_hands=True)


@needs_solvers
def test_yaneuraou_mate_in_3():
    qs = [q for q in collection_cases("yaneuraou_mate_samples.csv") if q["n"] == 3][:4]
    for q in qs:
        got = solve_mate(Position.from_sfen(q["sfen"]), 3, Limits.within(30),
                         {"solver": "caqe", "encoding": "enumerated"})
        assert got.verdict is True, (q["id"], got)
