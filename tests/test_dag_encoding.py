"""Encoding ``dag``: the listed positions as a DAG (one variable a position, the moves
between them from the rules engine); its plies list exactly the legal moves of the
positions lines reach, its verdicts agree with brute force, are certified and proven by
the strategy check."""

import pytest

from tsumeqbf import native
from tsumeqbf.data import collection_cases
from tsumeqbf.encoder import dag
from tsumeqbf.encoder.registry import EncodingOptions, encode
from tsumeqbf.rules import Position, cshogi_board
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.reference import mate_within, mating_moves
from tsumeqbf.solvers import is_installed
from tsumeqbf.solvers.engine import solve_mate
from tsumeqbf.solvers.formula_check import check_file, write_formula
from tsumeqbf.values import Limits

from test_mating_encoding import HANDS, _positions, check_certified
from test_qbf_agreement import check_agreement

needs_solvers = pytest.mark.skipif(not is_installed("depqbf"), reason="pyqbf solvers not installed")


@pytest.mark.parametrize("sfen, zone, n", [("1k2/R3/4/4 b GNp 1", 2, 3),
                                           ("2k1/4/1P2/4 b GSp 1", 2, 3)])
def test_each_ply_lists_the_moves_between_the_positions_lines_reach(sfen, zone, n):
    pos = Position.from_sfen(sfen, zone=zone)
    plies = dag.list_dag(pos, n).plies
    for t, (cands, moves) in enumerate(plies, 1):
        before = _positions(pos, t - 1)
        after = {p.exact_key() for p in _positions(pos, t)}
        assert len(moves) == len(before)
        for p, out in zip(before, moves):  # the lister keeps the order it found them in
            listed = {cands[ci].move() for ci, _ in out}
            legal = p.checks() if t % 2 else p.legal_moves()
            if t == n:  # ply n: only the checks that mate
                legal = [m for m in legal if not _after(p, m).legal_moves()]
            assert listed == set(legal)
        targets = {q for out in moves for _, q in out}
        assert targets == (set(range(len(after))) if t < n else {-1} if any(moves) else set())


def _after(p, m):
    child = p.copy()
    child.push(m)
    return child


def test_transpositions_share_a_position():
    # the attacker's two checks and the replies meet again: fewer positions than lines
    pos = Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2)
    plies = dag.list_dag(pos, 5).plies
    lines = sum(len(out) for out in plies[2][1])
    assert max(q for out in plies[2][1] for _, q in out) + 1 < lines


@pytest.mark.parametrize("qid, n", [("yaneuraou-mate5-2", 5), ("yaneuraou-mate7-71", 5)])
def test_cshogi_lists_the_same_dag_as_the_rules_engine(qid, n, monkeypatch):
    pytest.importorskip("cshogi")
    q = next(c for c in collection_cases("yaneuraou_mate_samples.csv") if c["id"] == qid)
    pos = Position.from_sfen(q["sfen"])
    by_cshogi = _shape(dag.list_dag(pos, n).plies)
    monkeypatch.setattr(cshogi_board, "supports", lambda pos: False)
    assert _shape(dag.list_dag(pos, n).plies) == by_cshogi


def _shape(plies):
    """Per ply the candidates, the number of positions after it and each position's moves
    (the generators list moves, so positions, in different orders)."""
    return [(cands, len({q for out in moves for _, q in out}),
             sorted(sorted(ci for ci, _ in out) for out in moves))
            for cands, moves in plies]


@pytest.mark.parametrize("encoding, cap", [("dag", "POSITIONS_CAP"), ("dag-fold", "FOLD_CAP")])
def test_past_the_cap_the_formula_is_matings(monkeypatch, encoding, cap):
    pos = Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2)
    monkeypatch.setattr(dag, cap, 3)
    enc = encode(pos, 5, encoding)
    assert enc.encoding == encoding and any("mating's" in c for c in enc.formula.comments)
    assert any("encoding=mating" in c for c in enc.formula.comments)


def test_move_choices_other_than_binary_are_refused():
    with pytest.raises(ValueError, match="binary"):
        encode(Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2), 3, "dag",
               attacker_moves="onehot-ladder")
    with pytest.raises(ValueError, match="binary"):
        EncodingOptions("dag-global", defender_moves="onehot-pairwise")


def test_local_codes_need_fewer_bits_than_the_plys_candidates():
    pos = Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2)
    local = encode(pos, 5, "dag").formula.choices
    glob = encode(pos, 5, "dag-global").formula.choices
    assert local["m1"].bits and len(local["m1"].bits) == len(glob["m1"].bits)
    assert all(len(local[f"m{t}"].bits) <= len(glob[f"m{t}"].bits) for t in range(2, 6))
    assert sum(len(local[f"m{t}"].bits) < len(glob[f"m{t}"].bits) for t in range(2, 6)) >= 2


@needs_solvers
@pytest.mark.parametrize("n", [1, 3, 5])
def test_an_early_mate_is_mate_within_n(n):
    pos = Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2)
    got = solve_mate(pos, n, Limits.within(30), {"solver": "depqbf", "encoding": "dag"})
    assert got.verdict is True and got.first_move == "G*3b"


@needs_solvers
@pytest.mark.parametrize("encoding", ["dag", "dag-global", "dag-fold", "dag-fold-reduced"])
@pytest.mark.parametrize("solver", ["depqbf", "caqe", "rareqs"])
@pytest.mark.parametrize("plies", [1, 3, 5])
def test_generated_questions_with_both_hands(encoding, solver, plies):
    qs = question_set(70 + plies, {1: 24, 3: 24, 5: 10}[plies],
                      sizes=((3, 3), (4, 4), (5, 5)), plies=(plies,), **HANDS)
    check_agreement(qs, solver, encoding, timeout=20, max_unknown_share=0.1)


#: the folds' larger sweep: per ply count, how many questions on which boards (9x9: the
#: native core lists the folded plies there)
FOLD_SWEEP = {3: (120, ((3, 3), (4, 4), (5, 5), (9, 9))),
              5: (120, ((3, 3), (4, 4), (5, 5), (9, 9))),
              7: (40, ((3, 3), (4, 4)))}


@pytest.mark.slow
@needs_solvers
@pytest.mark.parametrize("encoding", ["dag-fold", "dag-fold-reduced"])
@pytest.mark.parametrize("solver", ["depqbf", "caqe", "rareqs"])
@pytest.mark.parametrize("plies", sorted(FOLD_SWEEP))
def test_many_generated_questions_with_both_hands_certified(encoding, solver, plies):
    # the folded plies are where the two differ from dag and from each other: up to 7
    # plies, each decided verdict's whole strategy checked by the rules
    count, sizes = FOLD_SWEEP[plies]
    qs = question_set(170 + plies, count, sizes=sizes, plies=(plies,), **HANDS)
    check_agreement(qs, solver, encoding, timeout=20, max_unknown_share=0.1, certify=True)


@needs_solvers
@pytest.mark.parametrize("encoding", ["dag", "dag-fold", "dag-fold-reduced"])
def test_verdicts_are_certified(encoding):
    check_certified(encoding, 76, (1, 3, 5))


@pytest.mark.parametrize("encoding", ["dag", "dag-global", "dag-fold", "dag-fold-reduced"])
@pytest.mark.parametrize("fmt", ["qcir", "qdimacs"])
def test_the_strategy_check_proves_its_formulas(tmp_path, fmt, encoding):
    counts = {True: 0, False: 0}
    for q in question_set(77, 12, sizes=((3, 3), (4, 4)), plies=(1, 3, 5), **HANDS):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        path = str(tmp_path / f"f.{fmt}")
        write_formula(encode(pos, q["n"], encoding), path)
        truth = mate_within(pos, q["n"])
        assert check_file(path, pos, q["n"], encoding).truth == truth, q["sfen"]
        counts[truth] += 1
    assert counts[True] >= 2 and counts[False] >= 2, counts


@pytest.mark.parametrize("encoding", ["dag", "dag-fold", "dag-fold-reduced"])
@pytest.mark.parametrize("qid, n, truth", [("yaneuraou-mate5-2", 5, True),
                                           ("yaneuraou-mate5-2", 3, False),
                                           ("yaneuraou-mate7-5", 5, False)])
def test_the_strategy_check_reads_local_codes_on_9x9(tmp_path, qid, n, truth, encoding):
    # cshogi lists these: a local code is read through cshogi's key of the position, and
    # the replies into positions without a mating check come first among its codes
    pytest.importorskip("cshogi")
    q = next(c for c in collection_cases("yaneuraou_mate_samples.csv") if c["id"] == qid)
    pos = Position.from_sfen(q["sfen"])
    enc = encode(pos, n, encoding)
    assert not any("mating's" in c for c in enc.formula.comments)
    path = str(tmp_path / "f.qcir")
    write_formula(enc, path)
    assert check_file(path, pos, n, encoding, strategy="dfpn").truth is truth


@pytest.mark.parametrize("sfen, zone, n", [("1k2/R3/4/4 b GNp 1", 2, 5),
                                           ("2k1/4/1P2/4 b GSp 1", 2, 3)])
def test_fold_lists_up_to_ply_n_minus_2_and_counts_the_replies_no_check_mates_after(sfen,
                                                                                     zone, n):
    pos = Position.from_sfen(sfen, zone=zone)
    full = dag.list_dag(pos, n)
    folded = dag.list_dag(pos, n, fold=True)
    assert len(folded.plies) == n - 2 and folded.plies == full.plies[:n - 2]
    assert folded.keys[n - 2] == full.keys[n - 2]
    for key, out, (total, lost) in zip(full.keys[n - 2], full.plies[n - 2][1],
                                       folded.folded.counts):
        # a reply counts as lost exactly where dag lists no mating check of q at ply n
        assert (total, lost) == (len(out), sum(not full.plies[n - 1][1][q] for _, q in out))
        replies = folded.folded.replies(key)
        assert len(replies) == total and {c for c, _ in replies} == {
            full.plies[n - 2][0][ci] for ci, _ in out}
    before = _positions(pos, n - 2)
    for p, (total, lost) in zip(before, folded.folded.counts):
        mated = [any(not _after(child, c).legal_moves() for c in child.checks())
                 for child in (_after(p, m) for m in p.legal_moves())]
        assert (total, lost) == (len(mated), mated.count(False))


def test_the_fold_reads_the_moves_of_ply_n_minus_1_with_the_lost_replies_first():
    pos = Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2)
    enc = encode(pos, 5, "dag-fold")
    choice = enc.formula.choices["m4"]
    for p, (total, lost) in zip(_positions(pos, 3), choice.dag.folded.counts):
        cands = choice.cands_at(p)
        assert len(cands) == total and sorted(c.move() for c in cands) == sorted(p.legal_moves())
        mates = [any(not _after(child, c).legal_moves() for c in child.checks())
                 for child in (_after(p, c.move()) for c in cands)]
        assert mates == [False] * lost + [True] * (total - lost)


def _written(enc, tmp_path) -> list[bytes]:
    """The formula's QDIMACS and QCIR texts, as the encode command writes them."""
    out = []
    for name in ("f.qdimacs", "f.qcir"):
        write_formula(enc, str(tmp_path / name))
        out.append((tmp_path / name).read_bytes())
    return out


def _check_native_fold(pos, n, tmp_path, monkeypatch, reduced=False) -> None:
    """dag-fold (``reduced``: dag-fold-reduced) with ply n - 1 (and at n >= 5 ply n - 2)
    listed by the native core writes the Python listing's formula, byte for byte."""
    calls = []
    by_core = dag._native_per_key
    monkeypatch.setattr(dag, "_native_per_key",
                        lambda count, keys: calls.append(count.__name__) or by_core(count, keys))
    native_enc = dag.encode(pos, n, fold=True, reduced=reduced)
    core = "fold_wins" if reduced else "fold_checks"
    assert calls == [core if n >= 5 else "fold_counts"]  # the core listed
    python_enc = dag.encode(pos, n, fold=True, use_native=False, reduced=reduced)
    assert len(calls) == 1
    for rows in ("positions", "moves"):  # ply n - 1's positions, not merged, have no row
        listed = native_enc.stats[rows]
        assert len(listed) >= n - 2 and listed == python_enc.stats[rows][:len(listed)]
    assert _written(native_enc, tmp_path) == _written(python_enc, tmp_path)


needs_core = pytest.mark.skipif(not native.available(), reason="the native core is not built")


@needs_core
@pytest.mark.parametrize("qid, n", [("yaneuraou-mate5-1", 5), ("yaneuraou-mate5-5", 5),
                                    ("yaneuraou-mate5-9", 5), ("yaneuraou-mate7-1", 7),
                                    ("yaneuraou-mate7-1", 5), ("yaneuraou-mate7-5", 7)])
@pytest.mark.parametrize("reduced", [False, True])
def test_the_native_fold_writes_the_python_listings_formula_on_samples(qid, n, reduced,
                                                                        tmp_path, monkeypatch):
    pytest.importorskip("cshogi")
    q = next(c for c in collection_cases("yaneuraou_mate_samples.csv") if c["id"] == qid)
    _check_native_fold(Position.from_sfen(q["sfen"]), n, tmp_path, monkeypatch, reduced)


@needs_core
def test_the_cores_plies_read_back_in_the_order_the_fold_codes_them():
    pytest.importorskip("cshogi")
    q = next(c for c in collection_cases("yaneuraou_mate_samples.csv")
             if c["id"] == "yaneuraou-mate5-2")
    enc = encode(Position.from_sfen(q["sfen"]), 5, "dag-fold")
    checks, replies = enc.formula.choices["m3"], enc.formula.choices["m4"]
    assert isinstance(checks, dag.CheckChoice) and checks.dag.folded.counts is None
    for key, counted in zip(checks.dag.keys[2], checks.dag.folded.checks):
        p = Position.from_sfen(key)
        cands = checks.cands_at(p)
        assert sorted(c.move() for c in cands) == sorted(p.checks())
        children = [_after(p, c.move()) for c in cands]
        after = native.fold_counts([child.sfen() for child in children])
        # ordered by lost replies, as the fold codes them (ties in any order)
        assert sorted(after) == sorted(counted)
        assert [lost for _, lost in after] == sorted(lost for _, lost in counted)
        for child, (total, lost) in zip(children, after):
            mates = [any(total == 0 for total, _ in out) for out in native.fold_checks(
                [_after(child, c.move()).sfen() for c in replies.cands_at(child)])]
            assert mates == [False] * lost + [True] * (total - lost)


@needs_core
@pytest.mark.parametrize("seed", [41, 43])
@pytest.mark.parametrize("reduced", [False, True])
def test_the_native_fold_writes_the_python_listings_formula_on_generated_9x9(seed, reduced,
                                                                             tmp_path,
                                                                             monkeypatch):
    pytest.importorskip("cshogi")
    asked = 0
    for q in question_set(seed, 12, sizes=((9, 9),), plies=(3, 5), **HANDS):
        pos = Position.from_sfen(q["sfen"])
        if cshogi_board.supports(pos) and all(any(hand) for hand in pos.hands):
            _check_native_fold(pos, q["n"], tmp_path, monkeypatch, reduced)
            asked += 1
    assert asked >= 4


def test_fold_has_no_variables_at_ply_n_and_fewer_clauses_than_dag():
    pos = Position.from_sfen("1k2/R3/4/4 b GNp 1", zone=2)
    fold, full = encode(pos, 5, "dag-fold"), encode(pos, 5, "dag")
    assert fold.formula.choices["m5"] is None and "m5" not in {
        n.split("_")[0] for n in fold.formula.names if n}
    assert len(fold.formula.clauses) < len(full.formula.clauses)
    assert encode(pos, 1, "dag-fold").formula.choices["m1"] is not None


@pytest.mark.parametrize("use_native", [False, True])
def test_reduced_offers_at_ply_n_minus_2_the_checks_that_mate_in_3_and_no_later_ply(
        use_native):
    # ply n - 1's universal code is eliminated: its code 0 names a reply no check mates
    # after, so of the attacker's checks at ply n - 2 those with such a reply lose
    q = next(c for c in collection_cases("yaneuraou_mate_samples.csv")
             if c["id"] == "yaneuraou-mate5-2")
    pos = Position.from_sfen(q["sfen"])
    enc = dag.encode(pos, 5, reduced=True, use_native=use_native)
    f = enc.formula
    assert f.choices["m5"] is None and "m4" not in f.choices
    assert not any(name.startswith(("m4_", "m5_")) for name in f.names if name)
    checks = f.choices["m3"]
    offered_somewhere = 0
    for key in checks.dag.keys[2]:
        p = Position.from_sfen(key)
        offered = checks.cands_at(p)
        assert sorted(c.move() for c in offered) == sorted(mating_moves(p, 3))
        offered_somewhere += bool(offered)
    assert 0 < offered_somewhere < len(checks.dag.keys[2])
    assert len(f.clauses) < len(dag.encode(pos, 5, fold=True).formula.clauses)
