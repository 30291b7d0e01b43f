"""Encoding ``mating``: ply n offers exactly the checks that mate in one of its positions and
ply n+1 the replies of the positions they reach without mating; its verdicts agree with
brute force, are certified and proven by the strategy check."""

import pytest

from tsumeqbf.data import collection_cases
from tsumeqbf.encoder import lines
from tsumeqbf.encoder.lines import enumerate_plies
from tsumeqbf.encoder.registry import encode
from tsumeqbf.engines import run_engine
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.reference import mate_within
from tsumeqbf.solvers import is_installed
from tsumeqbf.solvers.engine import solve_mate
from tsumeqbf.solvers.formula_check import check_file, write_formula
from tsumeqbf.values import Limits

from test_qbf_agreement import check_agreement

needs_solvers = pytest.mark.skipif(not is_installed("depqbf"), reason="pyqbf solvers not installed")
#: both sides hold pieces (pawns among them: uchifuzume on both sides)
HANDS = {"attacker_king": True, "attacker_hand": 4, "defender_hand": 3}


def _positions(pos, plies):
    """The positions after ``plies`` plies of legal checks and legal replies."""
    frontier = {pos.exact_key(): pos}
    for t in range(plies):
        after = {}
        for p in frontier.values():
            for m in p.checks() if t % 2 == 0 else p.legal_moves():
                child = p.copy()
                child.push(m)
                after.setdefault(child.exact_key(), child)
        frontier = after
    return list(frontier.values())


@pytest.mark.parametrize("sfen, zone, n", [("1k2/R3/4/4 b GNp 1", 2, 1),
                                           ("1k2/R3/4/4 b GNp 1", 2, 3),
                                           ("2k1/4/1P2/4 b GSp 1", 2, 3)])
def test_ply_n_offers_the_mates_of_its_positions(sfen, zone, n):
    pos = Position.from_sfen(sfen, zone=zone)
    plies = enumerate_plies(pos, n, 10_000, mates_last=True)
    assert len(plies) == n + 1
    mates, replies = set(), set()
    for p in _positions(pos, n - 1):
        for m in p.checks():
            child = p.copy()
            child.push(m)
            if not child.legal_moves():
                mates.add(m)
    for p in _positions(pos, n - 1):
        for m in set(p.checks()) & mates:
            child = p.copy()
            child.push(m)
            replies |= set(child.legal_moves())
    assert mates and {m.move() for m in plies[n - 1][0]} == mates
    assert {m.move() for m in plies[n][0]} == replies
    # the earlier plies are enumerated's
    assert plies[:n - 1] == enumerate_plies(pos, n, 10_000)[:n - 1]


def test_past_the_cap_ply_n_offers_every_check():
    pos = Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2)
    assert enumerate_plies(pos, 5, 5, mates_last=True) == enumerate_plies(pos, 5, 5)


@pytest.mark.parametrize("qid, n", [("yaneuraou-mate7-71", 7), ("yaneuraou-mate5-2", 5),
                                    ("yaneuraou-mate5-8", 3), ("yaneuraou-mate7-6", 7)])
def test_cshogi_lists_the_same_mates_as_the_rules_engine(qid, n):
    # mate7-6: a mating move is also a check that does not mate where cshogi's move
    # integer differs (it holds the captured piece); its replies there must be listed
    cshogi = pytest.importorskip("cshogi")
    q = next(c for c in collection_cases("yaneuraou_mate_samples.csv") if c["id"] == qid)
    pos = Position.from_sfen(q["sfen"])
    by_rules = lines._plies(pos, n, 10_000, lines._RulesLister(), mates_last=True)
    by_cshogi = lines._plies(pos, n, 10_000, lines.CshogiLister(cshogi), mates_last=True)
    assert len(by_rules) == n + 1 and by_rules[n - 1][0]
    assert by_cshogi == by_rules


def test_the_formula_is_a_fraction_of_enumerateds():
    q = next(c for c in collection_cases("yaneuraou_mate_samples.csv")
             if c["id"] == "yaneuraou-mate7-1")
    pos = Position.from_sfen(q["sfen"])
    assert 2 * len(encode(pos, 7, "mating").formula.clauses) < len(
        encode(pos, 7, "enumerated").formula.clauses)


@needs_solvers
@pytest.mark.parametrize("n", [1, 3, 5])
def test_an_early_mate_is_mate_within_n(n):
    # G*3b mates at once; asked at 3 or 5 plies, ply n offers the mates of other lines
    pos = Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2)
    got = solve_mate(pos, n, Limits.within(30), {"solver": "depqbf", "encoding": "mating"})
    assert got.verdict is True and got.first_move == "G*3b"


@needs_solvers
@pytest.mark.parametrize("plies", [1, 3, 5])
def test_generated_questions_with_both_hands(plies):
    qs = question_set(60 + plies, {1: 24, 3: 24, 5: 10}[plies],
                      sizes=((3, 3), (4, 4), (5, 5)), plies=(plies,), **HANDS)
    check_agreement(qs, "depqbf", "mating", timeout=20, max_unknown_share=0.2)


def check_certified(encoding, seed, plies):
    """DepQBF on ``encoding`` with --certify over 12 generated questions with both sides
    holding pieces: every decided verdict is brute force's and certified, both kinds seen."""
    counts = {True: 0, False: 0}
    for q in question_set(seed, 12, sizes=((3, 3), (4, 4)), plies=plies, **HANDS):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        got = run_engine("qbf", pos, q["n"], timeout=30,
                         options={"solver": "depqbf", "encoding": encoding, "certify": True})
        if got.status == "unknown":
            continue
        assert got.verdict == mate_within(pos, q["n"]) and got.certification.certified, got
        counts[got.verdict] += 1
    assert counts[True] >= 2 and counts[False] >= 2, counts


@needs_solvers
def test_verdicts_are_certified():
    check_certified("mating", 66, (1, 3))


@pytest.mark.parametrize("fmt", ["qcir", "qdimacs"])
def test_the_strategy_check_proves_its_formulas(tmp_path, fmt):
    counts = {True: 0, False: 0}
    for q in question_set(67, 12, sizes=((3, 3), (4, 4)), plies=(1, 3), **HANDS):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        path = str(tmp_path / f"f.{fmt}")
        write_formula(encode(pos, q["n"], "mating"), path)
        truth = mate_within(pos, q["n"])
        assert check_file(path, pos, q["n"], "mating").truth == truth, q["sfen"]
        counts[truth] += 1
    assert counts[True] >= 2 and counts[False] >= 2, counts
