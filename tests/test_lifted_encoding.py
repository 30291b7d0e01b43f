"""Encodings ``lifted`` and ``lifted-nested``: the defender's replies as move fields.

One lifted ply is checked exhaustively against the rules (every assignment of its fields:
legal exactly for the legal moves, and the next state's board and hands those of the
position after that move), and whole questions against the brute-force reference.
"""

import itertools
from functools import lru_cache

import pytest

from tsumeqbf.cli import main
from tsumeqbf.encoder.formula import Formula, neg
from tsumeqbf.encoder.lifted import LiftedMove
from tsumeqbf.encoder.facts import Rules
from tsumeqbf.encoder.reach import Reach, advance, generate, piece_totals
from tsumeqbf.encoder.states import InitialState
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.moves import drop_kind, is_drop, move_to
from tsumeqbf.rules.pieces import PAWN
from tsumeqbf.rules.reference import mating_moves
from tsumeqbf.solvers import is_installed
from tsumeqbf.solvers.engine import solve_mate
from tsumeqbf.values import Limits

LIFTED = ("lifted", "lifted-nested")
needs_solvers = pytest.mark.skipif(not is_installed("depqbf"), reason="pyqbf solvers not installed")


# -- one lifted ply against the rules ------------------------------------------------------

def _uchifuzume_drop(pos: Position, m: int) -> bool:
    """A pawn drop that checks the opposing king (legal only with a witness reply, which
    the one-ply test leaves out)."""
    if not is_drop(m) or drop_kind(m) != PAWN:
        return False
    king = pos.kings[1 - pos.turn]
    return king >= 0 and king in pos.geo.steps[PAWN | pos.turn << 4][move_to(m)]


def check_one_ply(pos: Position) -> int:
    """Every assignment of a lifted ply's fields, for the side to move in ``pos`` (in check):
    legal (a legal move, its own king safe) exactly when it names a legal move, and the
    next state then equals the position after that move. Returns the legal moves seen."""
    from pysat.solvers import Solver

    geo, c = pos.geo, pos.turn
    assert pos.in_check(c)  # the fields' domains are the evasions
    f = Formula()
    rules = Rules(f, geo)
    reach = Reach([frozenset([x]) if x else frozenset() for x in pos.board],
                  [not x for x in pos.board], [[pos.hands[k][j] for j in range(8)] for k in (0, 1)])
    state = InitialState(f, pos, reach, fold=True)
    cands = generate(geo, reach, c, evasion_filter=True)
    nreach = advance(reach, cands, c, piece_totals(pos))
    move = LiftedMove(f, rules, state, c, 1, "m", nreach, cands)
    legal = f.and_([move.legal_move, neg(rules.in_check(move.next, c))])
    board = {(s, p): move.next.piece(s, p) for s in geo.squares for p in nreach.codes[s]}
    hands = {(k, j): move.next.hand(c, k, j) for k in range(1, 8) for j in range(1, 4)}
    want = set(pos.legal_moves())
    seen = set()

    with Solver(name="minisat22", bootstrap_with=f.clauses) as sat:
        def value(lit, assumptions):
            if isinstance(lit, bool):
                return lit
            return sat.solve(assumptions=assumptions + [lit])

        for bits in itertools.product((False, True), repeat=len(move.bits)):
            assumptions = [b if v else -b for b, v in zip(move.bits, bits)]
            m = move.decode(dict(zip(move.bits, bits)))
            if not value(legal, assumptions):
                assert m not in want, (pos.sfen(), pos.usi(m))
                continue
            assert m is not None and (m in want or _uchifuzume_drop(pos, m)), (
                pos.sfen(), m if m is None else pos.usi(m))
            seen.add(m)
            after = pos.copy()
            after.push(m)
            for (s, p), lit in board.items():
                assert value(lit, assumptions) == (after.board[s] == p), (pos.sfen(), pos.usi(m), s, p)
            assert all(after.board[s] in nreach.codes[s] for s in geo.squares if after.board[s])
            for (k, j), lit in hands.items():
                assert value(lit, assumptions) == (after.hands[c][k] >= j), (pos.sfen(), pos.usi(m), k, j)
    assert want <= seen, (pos.sfen(), sorted(pos.usi(m) for m in want - seen))
    return len(seen)


def replies_to_checks(questions):
    """The positions after each check of each question (the defender to move, in check)."""
    for q in questions:
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        for m in pos.checks():
            after = pos.copy()
            after.push(m)
            yield after


def test_one_lifted_ply_is_exactly_the_legal_replies():
    # the defender holds pieces (drops, nifu), promotes in its zone and captures
    qs = question_set(2, 30, sizes=((3, 3), (4, 4), (3, 4), (4, 3), (5, 5)), plies=(1,),
                      defender_hand=3, defender_pieces=4, attacker_pieces=5)
    positions = list(replies_to_checks(qs))
    legal = sum(check_one_ply(p) for p in positions)
    assert len(positions) >= 40 and legal >= 100
    # and the set exercises what the fields must get right
    moves = [(p, m) for p in positions for m in p.legal_moves()]
    assert any(is_drop(m) for _, m in moves)
    assert any(m >> 14 & 1 for _, m in moves)  # a promotion
    assert any(not is_drop(m) and p.board[move_to(m)] for p, m in moves)  # a capture
    # a pawn drop that nifu forbids: the defender holds a pawn and has one on the board
    assert any(p.hands[p.turn][PAWN] and (PAWN | p.turn << 4) in p.board for p in positions)


@pytest.mark.parametrize("sfen", [
    "k3R/5/2p2/5/4K w p 1",  # interpositions on rank a: P*3a is nifu, P*4a and P*2a are not
    "k4/5/5/5/L3K w n 1",  # interpositions on file 5: N*5d is a dead knight, N*5b/5c are not
])
def test_one_lifted_ply_on_rule_positions(sfen):
    assert check_one_ply(Position.from_sfen(sfen)) >= 2


# -- whole questions against the reference ----------------------------------------------

@lru_cache(maxsize=None)
def reference(sfen, zone, n):
    pos = Position.from_sfen(sfen, zone=zone)
    return frozenset(pos.usi(m) for m in mating_moves(pos, n))


def agree(questions, encoding, solver="depqbf", timeout=20, max_unknown=0):
    unknown, verdicts = 0, set()
    for q in questions:
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        want = reference(q["sfen"], q["zone"], q["n"])
        got = solve_mate(pos, q["n"], Limits.within(timeout),
                         {"solver": solver, "encoding": encoding})
        if got.status == "unknown":
            unknown += 1
            continue
        assert got.status in ("mate", "nomate"), (q, got)
        assert got.verdict == bool(want), (q, got, sorted(want))
        if got.verdict and got.facts.get("certificate") == "checked":
            # the engine decoded the first move and checked it is a legal check
            assert got.first_move in want, (q, got)
        verdicts.add(got.verdict)
    assert unknown <= max_unknown, f"{unknown} timeouts"
    return verdicts


@needs_solvers
@pytest.mark.parametrize("encoding", LIFTED)
def test_mate_in_1_small_boards(encoding):
    qs = question_set(11, 18, sizes=((3, 3), (4, 4), (5, 5)), plies=(1,), defender_hand=2)
    assert agree(qs, encoding) == {True, False}


def pawn_drop_checks(pos: Position) -> bool:
    """The side to move may drop a pawn that checks the other king (uchifuzume matters)."""
    c, king = pos.turn, pos.kings[1 - pos.turn]
    return king >= 0 and pos.hands[c][PAWN] > 0 and any(
        not pos.board[t] and king in pos.geo.steps[PAWN | c << 4][t] for t in pos.geo.squares)


@needs_solvers
@pytest.mark.parametrize("encoding", LIFTED)
def test_mate_in_3_small_boards(encoding):
    qs = question_set(13, 8, sizes=((3, 3), (4, 4)), plies=(3,), defender_hand=2)
    # some replies are pawn drops that check the attacker's king (the defender's witness)
    assert any(pawn_drop_checks(p) for p in replies_to_checks(qs))
    assert agree(qs, encoding) == {True, False}


RULE_QUESTIONS = [
    "2k/S2/1G1 b P 1",  # the only mate is a pawn-drop mate: uchifuzume, no mate in 1
    "2k/S2/1G1 b G 1",  # the same by a gold drop: mate
    "Rgk/3/1G1 b P 1",  # the capturer is pinned: still uchifuzume
    "1gk/3/1G1 b P 1",  # the pawn drop is legal (the gold captures): no mate
    "2k/3/1PP b - 1",  # a pawn moves into the last rank and must promote
    "k4/5/5/2P2/4K b P 1",  # nifu for the attacker's pawn drops
]


@needs_solvers
@pytest.mark.parametrize("encoding", LIFTED)
@pytest.mark.parametrize("n", [1, 3])
def test_rule_positions(encoding, n):
    qs = [{"sfen": s, "zone": None, "n": n} for s in RULE_QUESTIONS]
    assert agree(qs, encoding) == {True, False}


@needs_solvers
def test_mate_in_1_nine_by_nine():
    qs = question_set(12, 4, sizes=((9, 9),), plies=(1,))
    agree(qs, "lifted-nested")


@needs_solvers
def test_a_defender_choice_does_not_apply(capsys):
    sfen = "1k1/3/PG1 b - 1"
    assert main(["mate", sfen, "--zone", "2", "-n", "1", "--engine", "depqbf",
                 "--encoding", "lifted", "--defender-moves", "onehot-pairwise"]) != 0
    err = capsys.readouterr().err
    assert "does not apply" in err and "internal error" not in err
    assert len(err.strip().splitlines()) == 1
    got = solve_mate(Position.from_sfen(sfen, zone=2), 1, Limits.within(10),
                     {"solver": "depqbf", "encoding": "lifted-nested",
                      "defender_moves": "onehot-sequential"})
    assert got.status == "error" and "does not apply" in got.error
    # the attacker's choice still applies: its moves are a candidate list
    got = solve_mate(Position.from_sfen(sfen, zone=2), 1, Limits.within(10),
                     {"solver": "depqbf", "encoding": "lifted", "attacker_moves": "onehot-ladder"})
    assert got.verdict == bool(reference(sfen, 2, 1))


# -- larger sweeps -------------------------------------------------------------------------

@pytest.mark.slow
def test_one_lifted_ply_sweep():
    qs = question_set(3, 120, sizes=((3, 3), (4, 4), (5, 5), (4, 5)), plies=(1,),
                      defender_hand=4, defender_pieces=5, attacker_pieces=5)
    assert sum(check_one_ply(p) for p in replies_to_checks(qs)) >= 500


@pytest.mark.slow
@needs_solvers
@pytest.mark.parametrize("encoding", LIFTED)
@pytest.mark.parametrize("solver", ["depqbf", "rareqs", "caqe"])
def test_sweep_1_and_3_plies(encoding, solver):
    qs = question_set(14, 30, sizes=((3, 3), (4, 4), (5, 5)), plies=(1, 3), defender_hand=2)
    agree(qs, encoding, solver, timeout=30, max_unknown=3)


@pytest.mark.slow
@needs_solvers
@pytest.mark.parametrize("encoding", LIFTED)
def test_mate_in_5(encoding):
    qs = question_set(15, 8, sizes=((3, 3), (4, 4)), plies=(5,))
    agree(qs, encoding, timeout=60, max_unknown=2)


@pytest.mark.slow
@needs_solvers
def test_nine_by_nine_mate_in_1_and_3():
    qs = question_set(16, 6, sizes=((9, 9),), plies=(1, 3))
    agree(qs, "lifted", timeout=60, max_unknown=1)

