"""The rules of RULES.md, one hand-written small-board position per rule and direction.

Conventions used in the comments (RULES.md, "Board and notation"): the SFEN board field
lists rank 1 ("a") first, and each rank from file W on the left down to file 1 on the
right; USI squares are "file digit + rank letter", so on 3x3 "1a" is the top-right corner.
Sente ("b") moves up (towards rank a), gote ("w") moves down.  Sente's zone is ranks
1..Z, gote's is ranks H-Z+1..H.

Each case asserts that a USI move is, or is not, in ``legal_moves()``.
"""

from __future__ import annotations

import re

import pytest

from tsumeqbf.data import read_rows
from tsumeqbf.rules import (BLACK, WHITE, InvalidQuestion, MoveError, Position, SfenError,
                            TsumeError, diagram, drop_move, line_to_japanese,
                            move_to_japanese)
from tsumeqbf.rules.pieces import BISHOP, GOLD, KNIGHT, LANCE, PAWN, ROOK, SILVER


def legal(sfen: str, zone: int | None = None) -> set[str]:
    p = Position.from_sfen(sfen, zone=zone)
    return {p.usi(m) for m in p.legal_moves()}


def assert_rule(sfen: str, zone: int | None, move: str, allowed: bool) -> None:
    moves = legal(sfen, zone)
    if allowed:
        assert move in moves, f"{move} should be legal in {sfen} (zone {zone}); legal: {sorted(moves)}"
    else:
        assert move not in moves, f"{move} should be illegal in {sfen} (zone {zone})"


# ---------------------------------------------------------------------------------------
# Rule 1: no move may leave the mover's own king attacked
# ---------------------------------------------------------------------------------------
KING_SAFETY = [
    # 3x3: sente K 1c, sente G 1b, gote r 1a on the same file: the gold is pinned.
    # Sideways 1b-2b would open the file to the rook.
    ("k1r/2G/2K b - 1", None, "1b2b", False),
    # ... but the pinned gold may capture the pinner (it stays on the line).
    ("k1r/2G/2K b - 1", None, "1b1a", True),
    # Same board without the rook: nothing pins the gold.
    ("k2/2G/2K b - 1", None, "1b2b", True),
    # Same board without sente's king: the attacker king is optional, so no pin either.
    ("k1r/2G/3 b - 1", None, "1b2b", True),
    # 4x4: sente K 4d, gote r 1c sweeps rank c: the king may not step onto 4c or 3c ...
    ("k3/4/3r/K3 b - 1", None, "4d4c", False),
    ("k3/4/3r/K3 b - 1", None, "4d3c", False),
    # ... but 3d (rank d is not attacked) is fine.
    ("k3/4/3r/K3 b - 1", None, "4d3d", True),
    # 4x4: sente K 3d in check from gote r 1d along rank d (the attacker may start in check).
    # Retreating along the checking line to 4d is still attacked (the king no longer
    # blocks the ray) ...
    ("k3/4/4/1K1r b - 1", None, "3d4d", False),
    ("k3/4/4/1K1r b - 1", None, "3d2d", False),
    # ... stepping off the line is allowed.
    ("k3/4/4/1K1r b - 1", None, "3d3c", True),
    # In check, a non-king move that does not deal with the check is illegal (sente G 4a
    # moving to 4b leaves the rook check on rank d) ...
    ("G2k/4/4/1K1r b - 1", None, "4a4b", False),
    # ... a drop that interposes on 2d is legal.
    ("k3/4/4/1K1r b G 1", None, "G*2d", True),
    ("k3/4/4/1K1r b G 1", None, "G*2c", False),
    # Gote too: gote k 1a, gote g 1b pinned by sente R 1c (gote to move).
    ("2k/2g/K1R w - 1", None, "1b2b", False),
    ("2k/2g/K1R w - 1", None, "1b1c", True),
    # The king may not capture a protected piece: gote k 1a, sente G 1b protected by
    # sente P 1c (gote to move).
    ("2k/2G/2P w - 1", None, "1a1b", False),
    # Unprotected, it may.
    ("2k/2G/3 w - 1", None, "1a1b", True),
]


@pytest.mark.parametrize("sfen, zone, move, allowed", KING_SAFETY)
def test_own_king_safety(sfen, zone, move, allowed):
    assert_rule(sfen, zone, move, allowed)


# ---------------------------------------------------------------------------------------
# Rule 2: optional promotion (entering, leaving, inside the zone; zone depth Z)
# ---------------------------------------------------------------------------------------
# 5x5 boards; gote k 5a, sente K 5e.
S_3D = "k4/5/5/2S2/K4 b - 1"   # sente silver on 3d (rank 4)
S_3B = "k4/2S2/5/5/K4 b - 1"   # sente silver on 3b (rank 2)
R_3D = "k4/5/5/2R2/K4 b - 1"   # sente rook on 3d
B_3E = "k4/5/5/5/K1B2 b - 1"   # sente bishop on 3e
G_3D = "k4/5/5/2G2/K4 b - 1"   # sente gold on 3d
W_S_3B = "k4/2s2/5/5/K4 w - 1"  # gote silver on 3b, gote to move

OPTIONAL_PROMOTION = [
    # entering: 3d -> 3c. Z=3: rank 3 is in the zone, both choices legal.
    (S_3D, 3, "3d3c+", True), (S_3D, 3, "3d3c", True),
    # Z=2: rank 3 is outside the zone, no promotion.
    (S_3D, 2, "3d3c+", False), (S_3D, 2, "3d3c", True),
    # Z=4: the silver already stands in the zone; even a backward move may promote.
    (S_3D, 4, "3d2e+", True), (S_3D, 3, "3d2e+", False),
    # Z=5: the whole board is the zone.
    (S_3D, 5, "3d2e+", True),
    # leaving: 3b -> 2c (backward diagonal). Z=2: starts in the zone, may promote.
    (S_3B, 2, "3b2c+", True), (S_3B, 2, "3b2c", True),
    # Z=1: 3b and 2c are both outside: no promotion.
    (S_3B, 1, "3b2c+", False), (S_3B, 1, "3b2c", True),
    # inside: 3b -> 3a with Z=2, both choices.
    (S_3B, 2, "3b3a+", True), (S_3B, 2, "3b3a", True),
    # Z=1: enters rank 1, the zone: optional too (a silver is never forced).
    (S_3B, 1, "3b3a+", True), (S_3B, 1, "3b3a", True),
    # rook 3d -> 3a with Z=1 may promote; 3d -> 3b with Z=1 may not.
    (R_3D, 1, "3d3a+", True), (R_3D, 1, "3d3a", True), (R_3D, 1, "3d3b+", False),
    (R_3D, 2, "3d3b+", True),
    # bishop 3e -> 1c: Z=3 enters the zone; Z=2 does not.
    (B_3E, 3, "3e1c+", True), (B_3E, 2, "3e1c+", False), (B_3E, 2, "3e1c", True),
    # gold never promotes, even inside the zone.
    (G_3D, 5, "3d3c+", False), (G_3D, 5, "3d3c", True),
    # gote's zone is ranks H-Z+1..H: gote silver 3b -> 3c promotes with Z=3 (ranks 3..5),
    # not with Z=2 (ranks 4..5).
    (W_S_3B, 3, "3b3c+", True), (W_S_3B, 3, "3b3c", True),
    (W_S_3B, 2, "3b3c+", False), (W_S_3B, 2, "3b3c", True),
]


@pytest.mark.parametrize("sfen, zone, move, allowed", OPTIONAL_PROMOTION)
def test_optional_promotion(sfen, zone, move, allowed):
    assert_rule(sfen, zone, move, allowed)


# ---------------------------------------------------------------------------------------
# Rule 2 (second half): compulsory promotion on dead squares
# ---------------------------------------------------------------------------------------
P_3B = "k4/2P2/5/5/K4 b - 1"   # sente pawn 3b
L_3D = "k4/5/5/2L2/K4 b - 1"   # sente lance 3d
N_3E = "k4/5/5/5/K1N2 b - 1"   # sente knight 3e
N_3D = "k4/5/5/2N2/K4 b - 1"   # sente knight 3d
W_P_3D = "k4/5/5/2p2/K4 w - 1"  # gote pawn 3d
W_N_3B = "k4/2n2/5/5/K4 w - 1"  # gote knight 3b
W_L_3B = "k4/2l2/5/5/K4 w - 1"  # gote lance 3b

FORCED_PROMOTION = [
    # pawn onto the last rank: must promote
    (P_3B, 2, "3b3a", False), (P_3B, 2, "3b3a+", True),
    (P_3B, 1, "3b3a", False), (P_3B, 1, "3b3a+", True),
    # lance: to the last rank only promoted; to rank 2 both (Z=2) or only unpromoted (Z=1)
    (L_3D, 2, "3d3a", False), (L_3D, 2, "3d3a+", True),
    (L_3D, 2, "3d3b", True), (L_3D, 2, "3d3b+", True),
    (L_3D, 1, "3d3b", True), (L_3D, 1, "3d3b+", False),
    # knight onto rank 3 (not a dead square): optional with Z=3, none with Z=2
    (N_3E, 3, "3e2c", True), (N_3E, 3, "3e2c+", True),
    (N_3E, 2, "3e2c", True), (N_3E, 2, "3e2c+", False),
    # knight onto rank 2 (second-to-last): must promote
    (N_3D, 2, "3d2b", False), (N_3D, 2, "3d2b+", True),
    # ... and with Z=1 rank 2 is outside the zone: it can neither promote nor stay
    # unpromoted, so the move is simply illegal
    (N_3D, 1, "3d2b", False), (N_3D, 1, "3d2b+", False),
    # gote: pawn onto rank 5 must promote; knight onto rank 4; lance onto rank 5
    (W_P_3D, 1, "3d3e", False), (W_P_3D, 1, "3d3e+", True),
    (W_N_3B, 2, "3b2d", False), (W_N_3B, 2, "3b2d+", True),
    (W_N_3B, 1, "3b2d", False), (W_N_3B, 1, "3b2d+", False),
    (W_L_3B, 2, "3b3e", False), (W_L_3B, 2, "3b3e+", True),
    (W_L_3B, 2, "3b3d", True), (W_L_3B, 2, "3b3d+", True),
]


@pytest.mark.parametrize("sfen, zone, move, allowed", FORCED_PROMOTION)
def test_forced_promotion(sfen, zone, move, allowed):
    assert_rule(sfen, zone, move, allowed)


def test_pieces_on_dead_squares_are_accepted_and_stuck():
    # 3x3: sente pawn already on rank a, sente knight on rank b: the SFEN is accepted
    # (RULES.md: the rules constrain moves, not the start), and neither piece can move.
    p = Position.from_sfen("P1k/N2/2K b - 1")
    p.validate_question()
    assert not any(p.usi(m).startswith(("3a", "3b")) for m in p.legal_moves())


# ---------------------------------------------------------------------------------------
# Rules 3 and 6: drops (dead squares, never promoted, only on empty squares)
# ---------------------------------------------------------------------------------------
# 5x5: gote k 5a, sente K 1e, sente holds one of everything
HAND_ALL = "k4/5/5/5/4K b RBGSNLP 1"
W_HAND_ALL = "k4/5/5/5/4K w rbgsnlp 1"

DROPS = [
    (HAND_ALL, None, "P*3a", False), (HAND_ALL, None, "P*3b", True),
    (HAND_ALL, None, "L*3a", False), (HAND_ALL, None, "L*3b", True),
    (HAND_ALL, None, "N*3a", False), (HAND_ALL, None, "N*3b", False),
    (HAND_ALL, None, "N*3c", True),
    (HAND_ALL, None, "S*3a", True), (HAND_ALL, None, "G*3a", True),
    (HAND_ALL, None, "B*3a", True), (HAND_ALL, None, "R*3a", True),
    # gote's dead squares are at the bottom
    (W_HAND_ALL, None, "P*3e", False), (W_HAND_ALL, None, "P*3d", True),
    (W_HAND_ALL, None, "L*3e", False), (W_HAND_ALL, None, "L*3d", True),
    (W_HAND_ALL, None, "N*3e", False), (W_HAND_ALL, None, "N*3d", False),
    (W_HAND_ALL, None, "N*3c", True),
    # only onto empty squares: 1e holds sente's king, 5a gote's
    (HAND_ALL, None, "G*1e", False), (HAND_ALL, None, "G*5a", False),
    (HAND_ALL, None, "G*4a", True),
    # the dead-square rule does not depend on the zone depth
    (HAND_ALL, 5, "P*3a", False), (HAND_ALL, 5, "N*3b", False), (HAND_ALL, 5, "N*3c", True),
]


@pytest.mark.parametrize("sfen, zone, move, allowed", DROPS)
def test_drops(sfen, zone, move, allowed):
    assert_rule(sfen, zone, move, allowed)


@pytest.mark.parametrize("zone", [1, 3, 5])
def test_drops_are_never_promoted(zone):
    p = Position.from_sfen(HAND_ALL, zone=zone)
    drops = [m for m in p.legal_moves() if "*" in p.usi(m)]
    assert drops and not any(p.usi(m).endswith("+") for m in drops)
    with pytest.raises(MoveError):
        p.parse_usi("S*3a+")
    # a silver dropped inside the zone stands there unpromoted
    m = p.parse_usi("S*3a")
    p.push(m)
    assert p.sfen() == "k1S2/5/5/5/4K w RBGNLP 1"
    p.pop()
    assert p.sfen() == HAND_ALL


def test_drop_on_every_empty_square_only():
    # 3x3 with a gold in hand: 9 squares, 2 kings, 1 pawn: exactly 6 gold drops
    p = Position.from_sfen("2k/1P1/K2 b G 1")
    drops = sorted(p.usi(m) for m in p.legal_moves() if "*" in p.usi(m))
    assert drops == ["G*1b", "G*1c", "G*2a", "G*2c", "G*3a", "G*3b"]


# ---------------------------------------------------------------------------------------
# Rule 4: nifu
# ---------------------------------------------------------------------------------------
NIFU = [
    # 5x5, sente pawn on 3d: no second sente pawn on file 3, any other file is fine
    ("k4/5/5/2P2/4K b P 1", None, "P*3b", False),
    ("k4/5/5/2P2/4K b P 1", None, "P*2b", True),
    # a tokin (promoted pawn) on file 3 does not count
    ("k4/5/5/2+P2/4K b P 1", None, "P*3b", True),
    # a gote pawn on file 3 does not count for sente
    ("k4/5/2p2/5/4K b P 1", None, "P*3b", True),
    # gote's nifu: gote pawn 3b blocks gote drops on file 3, sente's pawn does not
    ("k4/2p2/5/5/4K w p 1", None, "P*3c", False),
    ("k4/2p2/5/5/4K w p 1", None, "P*2c", True),
    ("k4/5/5/2P2/4K w p 1", None, "P*3c", True),
    # doubled pawns at the start are accepted, and still forbid a third
    ("k4/2P2/5/2P2/4K b P 1", None, "P*3c", False),
]


@pytest.mark.parametrize("sfen, zone, move, allowed", NIFU)
def test_nifu(sfen, zone, move, allowed):
    assert_rule(sfen, zone, move, allowed)


# ---------------------------------------------------------------------------------------
# Rule 5: uchifuzume
# ---------------------------------------------------------------------------------------
# 3x3: gote k 1a; sente S 3b covers 2a; sente G 2c covers 2b and 1b.
# P*1b checks, the king cannot take (gold protects 1b) nor flee: pawn-drop mate.
UCHIFUZUME = "2k/S2/1G1 b P 1"

UCHIFUZUME_CASES = [
    (UCHIFUZUME, None, "P*1b", False),
    # the same check by a gold drop is a legal mate
    ("2k/S2/1G1 b G 1", None, "G*1b", True),
    # without the silver the king escapes to 2a: a pawn-drop check that is not mate
    ("2k/3/1G1 b P 1", None, "P*1b", True),
    # without the gold the king captures the pawn: not mate, legal
    ("2k/S2/3 b P 1", None, "P*1b", True),
    # a pawn *move* that mates is legal (1c -> 1b)
    ("2k/S2/1GP b - 1", None, "1c1b", True),
    # gote g 2a can capture the dropped pawn: not mate, legal
    ("1gk/3/1G1 b P 1", None, "P*1b", True),
    # the capturing piece is pinned (gote g 2a by sente R 3a along rank a): still mate,
    # so the drop is illegal
    ("Rgk/3/1G1 b P 1", None, "P*1b", False),
    # gote's uchifuzume, mirrored: sente K 1c, gote s 3b covers 2c, gote g 2a covers 2b, 1b
    ("1g1/s2/2K w p 1", None, "P*1b", False),
    ("1g1/3/2K w p 1", None, "P*1b", True),
]


@pytest.mark.parametrize("sfen, zone, move, allowed", UCHIFUZUME_CASES)
def test_uchifuzume(sfen, zone, move, allowed):
    assert_rule(sfen, zone, move, allowed)


def test_pawn_move_mate_is_checkmate_and_drop_mate_excluded_from_checks():
    p = Position.from_sfen("2k/S2/1GP b - 1")
    m = p.parse_usi("1c1b")
    assert m in p.checks()
    p.push(m)
    assert p.in_check() and p.is_checkmate() and p.legal_moves() == []
    p.pop()
    q = Position.from_sfen(UCHIFUZUME)
    assert "P*1b" not in {q.usi(x) for x in q.checks()}
    with pytest.raises(MoveError, match="illegal"):
        q.parse_usi("P*1b")


# ---------------------------------------------------------------------------------------
# Rule 6 (second half): captured pieces go to the captor's hand unpromoted
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("piece, hand_kind, letter", [
    ("+p", PAWN, "P"), ("+l", LANCE, "L"), ("+n", KNIGHT, "N"), ("+s", SILVER, "S"),
    ("+b", BISHOP, "B"), ("+r", ROOK, "R"), ("g", GOLD, "G"), ("p", PAWN, "P"),
])
def test_capture_goes_to_hand_unpromoted(piece, hand_kind, letter):
    # 3x3: gote k 3a, a gote piece on 1b, sente R 1c takes it (no promotion: Z=1 and
    # 1b lies outside the zone)
    sfen = f"k2/2{piece}/2R b - 1"
    p = Position.from_sfen(sfen)
    before = p.sfen(), p.key
    m = p.parse_usi("1c1b")
    p.push(m)
    assert p.hands[BLACK][hand_kind] == 1
    assert p.sfen() == f"k2/2R/3 w {letter} 1"
    # the captured piece can be dropped back, unpromoted
    p.push(p.parse_usi("3a2a"))  # 3b is on the rook's rank
    assert f"{letter}*2c" in {p.usi(x) for x in p.legal_moves()}
    p.pop()
    p.pop()
    assert (p.sfen(), p.key) == before


@pytest.mark.parametrize("piece", ["+p", "g", "p", "+r"])
def test_no_hands_capture_leaves_the_game(piece):
    # the no-hands rules (RULES.md, variant): the same capture, but nothing reaches a hand
    sfen = f"k2/2{piece}/2R b - 1"
    p = Position.from_sfen(sfen, no_hands=True)
    before = p.sfen(), p.key
    m = p.parse_usi("1c1b")
    key, board_key, kind, change = p.key_after(m)
    p.push(m)
    assert p.hands == [[0] * 8, [0] * 8] and p.sfen() == "k2/2R/3 w - 1"
    assert (p.key, p.board_key, kind, change) == (key, board_key, 0, 0)
    p.push(p.parse_usi("3a2a"))
    assert not any("*" in p.usi(x) for x in p.legal_moves())  # nobody drops
    p.pop()
    p.pop()
    assert (p.sfen(), p.key) == before
    assert p.copy().no_hands and p.copy() == p != Position.from_sfen(sfen)


@pytest.mark.parametrize("sfen", ["2k/3/1GP b P 1", "2k/3/1GP b p 1"])
def test_no_hands_refuses_pieces_in_hand(sfen):
    with pytest.raises(InvalidQuestion, match="without pieces in hand"):
        Position.from_sfen(sfen, no_hands=True)
    with pytest.raises(InvalidQuestion, match="without pieces in hand"):
        Position.from_sfen(sfen).with_no_hands()


# ---------------------------------------------------------------------------------------
# Who attacks: optional attacker king, the defender needs exactly one, no check on the
# side not to move
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("sfen", [
    "2k/3/1GP b - 1",      # no attacker king
    "2k/3/KGP b - 1",      # attacker king on 3c
    "2K/3/1gp w - 1",      # gote attacks, no gote king
    "2K/3/kgp w - 1",      # gote attacks with its king
    "k2/3/K1r b - 1",      # the attacker may start in check
])
def test_valid_questions(sfen):
    Position.from_sfen(sfen).validate_question()


def test_attacker_king_optional_moves():
    with_king = legal("2k/3/KGP b - 1")
    without = legal("2k/3/1GP b - 1")
    assert "3c3b" in with_king and "3c3b" not in without
    assert "2c3c" in without and "2c3c" not in with_king  # 3c is the king's square
    assert without - {"2c3c"} <= with_king


def test_attacker_starting_in_check_must_escape():
    # 3x3: sente K 3c checked by gote r 1c along rank c; 2c is on the rook's line, 2b is
    # guarded by gote's k 1a, and sente's G 3a cannot reach 2c: only 3c3b remains
    p = Position.from_sfen("G1k/3/K1r b - 1")
    p.validate_question()
    assert p.in_check()
    assert {p.usi(m) for m in p.legal_moves()} == {"3c3b"}
    assert p.checks() == []  # and 3c3b gives no check, so no mate question can start


@pytest.mark.parametrize("sfen, fragment", [
    ("3/3/1GP b - 1", "has no king"),          # defender (gote) has no king
    ("3/3/1gp w - 1", "has no king"),           # defender (sente) has no king
    ("2k/2R/3 b - 1", "not to move is in check"),   # gote already in check, sente to move
    ("2K/2r/3 w - 1", "not to move is in check"),   # sente in check, gote to move
    ("1k1/3/2N b - 1", "not to move is in check"),  # sente N 1c already checks k 2a
])
def test_invalid_questions(sfen, fragment):
    p = Position.from_sfen(sfen)
    with pytest.raises(InvalidQuestion, match=fragment):
        p.validate_question()


# ---------------------------------------------------------------------------------------
# SFEN: round trips on odd sizes, and errors
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("sfen, width, height", [
    ("2k2/5/K4 b - 1", 5, 3),
    ("k/1/K b - 1", 1, 3),
    ("k/1/P b 2P 1", 1, 3),
    ("K1k b - 1", 3, 1),
    ("k b - 1", 1, 1),
    ("k1+Pp/+b+r2/2+S1/1N+N1/L+L1K b RBG2SN3L10P2rb4g3s2n 1", 4, 5),
    ("6k/7/7/K6 w 20P3p 1", 7, 4),
    ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 9, 9),
    ("8k/9 b - 1", 9, 2),
])
def test_sfen_round_trip(sfen, width, height):
    p = Position.from_sfen(sfen)
    assert (p.geo.width, p.geo.height) == (width, height)
    assert p.sfen() == sfen
    assert Position.from_sfen(p.sfen()) == p


def test_sfen_hands_normalised_and_uncapped():
    # hands are written R B G S N L P, sente first; counts are not capped on small boards
    p = Position.from_sfen("2k/3/3 b PG2Pp19P 1")
    assert p.hands[BLACK][PAWN] == 22 and p.hands[BLACK][GOLD] == 1 and p.hands[WHITE][PAWN] == 1
    assert p.sfen() == "2k/3/3 b G22Pp 1"


def test_sfen_square_naming_on_non_square_board():
    # 5x3: "k4" puts gote's king on file 5 rank 1; "4K" sente's on file 1 rank 3
    p = Position.from_sfen("k4/5/4K b G 1")
    assert p.geo.name(p.kings[WHITE]) == "51" and p.geo.name(p.kings[BLACK]) == "13"
    assert "1c1b" in {p.usi(m) for m in p.legal_moves()}
    assert "G*5b" in {p.usi(m) for m in p.legal_moves()}


@pytest.mark.parametrize("sfen, error, fragment", [
    ("2k/3/1GX b - 1", SfenError, "unexpected character"),
    ("k0/3/3 b - 1", SfenError, "count 0"),
    ("k3/3/3 b - 1", SfenError, "rank 2 has 3 files, rank 1 has 4"),   # count overflow
    ("k2/4/3 b - 1", SfenError, "rank 2 has 4 files"),
    ("k1/3/3 b - 1", SfenError, "rank 2 has 3 files, rank 1 has 2"),
    ("k9/91/91/91/91/91/91/91/91 b - 1", SfenError, "outside 1x1..9x9"),  # 10 files
    ("k/1/1/1/1/1/1/1/1/1 b - 1", SfenError, "outside 1x1..9x9"),        # 10 ranks
    ("kk1/3/1GP b - 1", SfenError, "more than one king"),
    ("K1k/3/K2 b - 1", SfenError, "sente has more than one king"),
    ("2k/3/1GP x - 1", SfenError, "side to move"),
    ("2k/3/1GP b - one", SfenError, "move number"),
    ("2k/3/1GP b", SfenError, "board side hands"),
    ("2k/3/1GP b - 1 extra", SfenError, "board side hands"),
    ("", SfenError, "board side hands"),
    ("2k//1GP b - 1", SfenError, "rank 2 is empty"),
    ("2k/3/+G2 b - 1", SfenError, "cannot be promoted"),
    ("2k/3/++P2 b - 1", SfenError, "doubled '+'"),
    ("2k/3/2+ b - 1", SfenError, "'+' at the end"),
    ("2k/3/+1P1 b - 1", SfenError, "'+' must precede"),
    ("2k/3/1GP b 0P 1", SfenError, "count 0"),
    ("2k/3/1GP b K 1", SfenError, "unexpected character"),
    ("2k/3/1GP b 2 1", SfenError, "ends with a number"),
    ("2k/3/1GP b X 1", SfenError, "unexpected character"),
])
def test_sfen_errors(sfen, error, fragment):
    with pytest.raises(error, match=re.escape(fragment)) as info:
        Position.from_sfen(sfen)
    assert isinstance(info.value, TsumeError) and isinstance(info.value, ValueError)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("zone", [0, 4, -1])
def test_zone_out_of_range(zone):
    with pytest.raises(SfenError, match="zone depth"):
        Position.from_sfen("2k/3/1GP b - 1", zone=zone)


@pytest.mark.parametrize("height, zone", [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2),
                                          (7, 3), (8, 3), (9, 3)])
def test_default_zone(height, zone):
    p = Position.from_sfen("/".join(["k"] + ["1"] * (height - 1)) + " b - 1")
    assert p.geo.zone == zone


# ---------------------------------------------------------------------------------------
# The tsume-shogi hand convention (standard 9x9 only)
# ---------------------------------------------------------------------------------------
# 9x9: gote k 1a boxed in by its own l 2a and p 2b; sente holds a rook
BOXED = "7lk/7p1/9/9/9/9/9/9/9 b R 1"


def test_tsume_hands_fills_defender_hand():
    p = Position.from_sfen(BOXED, tsume_hands=True)
    # 40-piece set minus 2 kings, l, p on the board and R in sente's hand
    assert p.sfen() == "7lk/7p1/9/9/9/9/9/9/9 b Rr2b4g4s4n3l17p 1"
    p.validate_question()


def test_tsume_hands_counts_promoted_pieces_as_base_kinds_and_gote_to_move():
    p = Position.from_sfen("8K/7+P1/9/9/9/9/9/9/9 w g 1", tsume_hands=True)
    assert p.hands[BLACK][PAWN] == 17 and p.hands[BLACK][GOLD] == 3
    assert p.hands[WHITE][GOLD] == 1 and p.hands[BLACK][ROOK] == 2


def test_tsume_hands_changes_the_verdict():
    from tsumeqbf.rules.reference import mate_within
    # with an empty defender hand, any rook drop on file 1 mates (1b is covered, no
    # interposition); with the tsume convention gote can interpose
    assert mate_within(Position.from_sfen(BOXED), 1)
    assert not mate_within(Position.from_sfen(BOXED, tsume_hands=True), 1)


@pytest.mark.parametrize("sfen, fragment", [
    ("2k/3/1GP b - 1", "only for 9x9"),
    ("8k/9/9/9/9/9/9/9/9 b 19P 1", "more P pieces"),
    ("8k/9/9/9/9/9/9/9/9 b 3R 1", "more R pieces"),
])
def test_tsume_hands_refused(sfen, fragment):
    with pytest.raises(InvalidQuestion, match=fragment):
        Position.from_sfen(sfen, tsume_hands=True)


# ---------------------------------------------------------------------------------------
# Notation: USI and Japanese
# ---------------------------------------------------------------------------------------
NOTATION_POSITIONS = [
    ("2k/3/1GP b - 1", 2), ("k1+Pp/+b+r2/2+S1/1N+N1/L+L1K b RBG2SN3L10P2rb4g3s2n 1", 2),
    ("k4/5/5/5/4K b RBGSNLP 1", 3), ("6k/7/7/K6 w 20P3p 1", 1),
    ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 3),
]


@pytest.mark.parametrize("sfen, zone", NOTATION_POSITIONS)
def test_usi_round_trip(sfen, zone):
    p = Position.from_sfen(sfen, zone=zone)
    moves = p.legal_moves()
    assert moves
    texts = [p.usi(m) for m in moves]
    assert len(set(texts)) == len(texts)
    for m, text in zip(moves, texts):
        assert p.parse_usi(text) == m


@pytest.mark.parametrize("text", ["", "2c2", "2c2b++", "2c2z", "4c2b", "P*4a", "K*2b",
                                  "X*2b", "2c2b-", "2c3c+"])
def test_usi_rejects(text):
    p = Position.from_sfen("2k/3/1GP b - 1", zone=2)
    with pytest.raises(MoveError):
        p.parse_usi(text)


@pytest.mark.parametrize("sfen, zone, usi, japanese", [
    # file as a full-width digit, rank as a kanji numeral, then the piece
    ("2k/3/1GP b - 1", 2, "2c2b", "▲２二金"),
    ("2k/3/1GP b - 1", 2, "2c1b", "▲１二金"),
    # a pawn entering the zone: 成 when it promotes, 不成 when it could but does not
    ("2k/3/1GP b - 1", 2, "1c1b+", "▲１二歩成"),
    ("2k/3/1GP b - 1", 2, "1c1b", "▲１二歩不成"),
    # with Z=1 rank 2 is outside the zone: no promotion choice, no suffix
    ("2k/3/1GP b - 1", 1, "1c1b", "▲１二歩"),
    # gote moves carry △
    ("1kp/3/2K w - 1", 1, "1a1b", "△１二歩"),
    # a drop is marked 打 only when a board piece of the same kind could go there too
    ("k3/4/4/1G2 b G 1", None, "G*3c", "▲３三金打"),
    ("k3/4/4/1G2 b G 1", None, "G*1b", "▲１二金"),
    # two golds can reach 33, both moving up: the one on sente's left and on its right
    # (tests/test_notation.py has the other words)
    ("k3/4/4/G1G1 b - 1", None, "4d3c", "▲３三金左"),
    ("k3/4/4/G1G1 b - 1", None, "2d3c", "▲３三金右"),
    # promoted pieces: their own names, never 成/不成
    ("k3/4/4/+R3 b - 1", 4, "4d4b", "▲４二龍"),
    ("k3/4/4/+B3 b - 1", 4, "4d2b", "▲２二馬"),
    ("k3/4/4/+P3 b - 1", 4, "4d4c", "▲４三と"),
    # a silver leaving the zone without promoting: 不成
    ("k4/2S2/5/5/K4 b - 1", 2, "3b2c", "▲２三銀不成"),
    ("k4/2S2/5/5/K4 b - 1", 2, "3b2c+", "▲２三銀成"),
    # knight, lance, bishop, rook, king kanji
    ("k4/5/5/5/K1N2 b - 1", 2, "3e2c", "▲２三桂"),
    ("k4/5/5/2L2/K4 b - 1", 2, "3d3c", "▲３三香"),
    ("k4/5/5/5/K1B2 b - 1", 3, "3e1c+", "▲１三角成"),
    ("k4/5/5/2R2/K4 b - 1", 1, "3d3a", "▲３一飛不成"),
    ("k4/5/5/5/K4 b - 1", 1, "5e4d", "▲４四玉"),
])
def test_japanese_notation(sfen, zone, usi, japanese):
    p = Position.from_sfen(sfen, zone=zone)
    m = p.parse_usi(usi)
    assert move_to_japanese(p, m) == japanese


def test_japanese_line_with_dou():
    # the standard opening: ▲７六歩 △３四歩 ▲２二角成 △同銀
    p = Position.from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
    start = p.sfen()
    moves = []
    for text in ["7g7f", "3c3d", "8h2b+", "3a2b"]:
        m = p.parse_usi(text)
        moves.append(m)
        p.push(m)
    for _ in moves:
        p.pop()
    assert p.sfen() == start
    assert line_to_japanese(p, moves) == ["▲７六歩", "△３四歩", "▲２二角成", "△同銀"]
    assert p.sfen() == start  # restored


def test_japanese_line_fig5_king_takes():
    # 3x3: an unprotected gold check on 1b, the king takes it: 同 names the square
    p = Position.from_sfen("2k/3/1G1 b - 1")
    moves = [p.parse_usi("2c1b")]
    p.push(moves[0])
    moves.append(p.parse_usi("1a1b"))
    p.pop()
    assert line_to_japanese(p, moves) == ["▲１二金", "△同玉"]


def test_diagram():
    p = Position.from_sfen("2k/3/1GP b S2p 1", zone=2)
    text = diagram(p)
    lines = text.splitlines()
    assert lines[0] == "後手の持駒：歩二"
    assert lines[1] == "  ３ ２ １"
    assert lines[3] == "| ・ ・v玉|一"
    assert lines[5] == "| ・ 金 歩|三"
    assert lines[-2] == "先手の持駒：銀"
    assert lines[-1].startswith("先手番") and "3x3" in lines[-1] and "zone 2" in lines[-1]


# ---------------------------------------------------------------------------------------
# Invariants on seeded random small questions, and an outside oracle on 9x9
# ---------------------------------------------------------------------------------------
def _random_walk_positions(seed: int, count: int, plies: int):
    """Positions reached by short random legal walks from seeded random questions."""
    import random

    from tsumeqbf.rules.generate import question_set

    rng = random.Random(seed)
    cases = question_set(seed=seed, count=count,
                         sizes=((3, 3), (4, 4), (5, 5), (5, 3), (3, 5), (2, 4), (1, 5)),
                         attacker_pieces=5, defender_pieces=3, attacker_hand=3,
                         defender_hand=2)
    for case in cases:
        for zone in sorted({case["zone"], 1, case["height"]}):
            p = Position.from_sfen(case["sfen"], zone=zone)
            for _ in range(plies):
                yield p
                moves = p.legal_moves()
                if not moves:
                    break
                p.push(rng.choice(moves))


def _dead(geo, code, s):
    """Whether an unpromoted pawn/lance/knight ``code`` on ``s`` could never move."""
    kind, color = code & 15, code >> 4
    if kind in (PAWN, LANCE):
        return geo.last_rank[color][s]
    if kind == KNIGHT:
        return geo.last_two[color][s]
    return False


def test_move_generation_invariants():
    seen = 0
    for p in _random_walk_positions(seed=3, count=140, plies=6):
        seen += 1
        c, g = p.turn, p.geo
        sfen, key = p.sfen(), p.key
        legal_moves = p.legal_moves()
        assert len(set(legal_moves)) == len(legal_moves), sfen
        givers = []
        for m in legal_moves:
            text = p.usi(m)
            assert p.parse_usi(text) == m
            if "*" in text:
                # rule 6: drops only onto empty squares, never promoted
                assert p.board[m & 127] == 0 and not text.endswith("+"), (sfen, text)
            p.push(m)
            # rule 1: the mover's king is never left attacked
            assert not p.in_check(c), (sfen, text)
            to = m & 127
            code = p.board[to]
            assert code >> 4 == c
            # rules 2 and 3: nothing of the mover's lands unpromoted on a dead square
            if not (p.move_stack[-1] >> 14) and (code & 15) in (PAWN, LANCE, KNIGHT):
                assert not _dead(g, code, to), (sfen, text)
            if p.in_check():
                givers.append(m)
            # the incremental hash equals a fresh one
            assert p.key == Position.from_sfen(p.sfen(), zone=g.zone).key, (sfen, text)
            p.pop()
            assert (p.sfen(), p.key) == (sfen, key), text
        # checks() is exactly the checking subset of legal_moves()
        assert sorted(p.checks()) == sorted(givers), sfen
        # is_checkmate / has_legal_move agree with the move list
        assert p.has_legal_move() == bool(legal_moves)
        assert p.is_checkmate() == (p.in_check() and not legal_moves)
        # rule 4 and rule 5 from the drop side: a pawn drop is missing only for a reason
        if p.hands[c][PAWN]:
            drops = {m & 127 for m in legal_moves if p.usi(m).startswith("P*")}
            pawn_files = {s % g.width for s, code in enumerate(p.board) if code == PAWN | c << 4}
            for s in g.squares:
                if p.board[s] or g.last_rank[c][s] or s % g.width in pawn_files:
                    assert s not in drops
                    continue
                if s in drops:
                    continue
                # otherwise it must be illegal for own-king safety or uchifuzume
                m = drop_move(PAWN, s)
                p.push(m)
                own_attacked = p.in_check(c)
                mate = p.in_check() and not p.legal_moves()
                p.pop()
                assert own_attacked or mate, (sfen, g.usi(s))
    assert seen > 500


def test_legal_moves_agree_with_cshogi_on_9x9():
    # cshogi (an outside, full-rules 9x9 move generator) must produce exactly the same
    # legal-move sets on real game positions and random walks from them
    cshogi = pytest.importorskip("cshogi")
    import random
    rows = read_rows("yaneuraou_mate_samples.csv")
    rng = random.Random(5)
    compared = 0
    for row in rows:
        p = Position.from_sfen(row["sfen"])
        b = cshogi.Board(row["sfen"])
        for _ in range(25):
            ours = {p.usi(m) for m in p.legal_moves()}
            theirs = {cshogi.move_to_usi(m) for m in b.legal_moves}
            assert ours == theirs, (p.sfen(), sorted(ours ^ theirs))
            compared += 1
            if not ours:
                break
            text = rng.choice(sorted(ours))
            p.push(p.parse_usi(text))
            b.push_usi(text)
    assert compared > 500


@pytest.mark.parametrize("sfen, move", [
    # 9x9 uchifuzume with a pinned would-be capturer (gote g 2a pinned by sente R 3a):
    # the drop P*1b is mate, hence illegal; cshogi agrees
    ("6Rgk/9/7G1/9/9/9/9/9/9 b P 1", "P*1b"),
    # plain 9x9 uchifuzume: gote k 1a, its own l 2a (which cannot reach 1b), sente G 2c
    # guards 1b and 2b
    ("7lk/9/7G1/9/9/9/9/9/9 b P 1", "P*1b"),
])
def test_uchifuzume_9x9_agrees_with_cshogi(sfen, move):
    p = Position.from_sfen(sfen)
    assert move not in {p.usi(m) for m in p.legal_moves()}
    cshogi = pytest.importorskip("cshogi")
    b = cshogi.Board(sfen)
    assert move not in {cshogi.move_to_usi(m) for m in b.legal_moves}


@pytest.mark.parametrize("nth", [1, 2, 5, 20])
def test_an_exception_landing_inside_move_generation_leaves_the_position_as_it_was(
        monkeypatch, nth):
    """A CPU limit or Ctrl-C arrives as an exception wherever Python is; move generation
    tries moves on the board in place, and must put it back (it once left a move on,
    and the search's undo then failed with a KeyError that hid the limit)."""
    from tsumeqbf.data import read_rows
    from tsumeqbf.rules import Position

    class Landed(Exception):
        pass

    real = Position.is_attacked
    calls = [0]

    def attacked(self, s, by):
        calls[0] += 1
        if calls[0] == nth:
            raise Landed
        return real(self, s, by)

    for r in read_rows("open_tsume_zukou_musou.csv")[:20]:
        pos = Position.from_sfen(r["sfen"])
        before = (pos.sfen(), pos.key)
        monkeypatch.setattr(Position, "is_attacked", attacked)
        for generate in (pos.checks, pos.legal_moves):
            calls[0] = 0
            try:
                generate()
            except Landed:
                pass
            assert (pos.sfen(), pos.key) == before, (r["id"], generate.__name__)
        monkeypatch.setattr(Position, "is_attacked", real)


def test_a_position_pickled_or_copied_equals_itself():
    import copy
    import pickle
    pos = Position.from_sfen("2k/3/1GP b - 1", zone=2)
    for other in (pickle.loads(pickle.dumps(pos)), copy.deepcopy(pos), copy.copy(pos)):
        assert other == pos and other.geo is pos.geo
