"""Cross-check of the 9x9 rules engine against python-shogi and known perft counts.

What is checked (RULES.md of the shared spec is the authority):

* perft of the standard start position (30, 900, 25470; 719731 at depth 4, slow);
* the full legal move set, as USI strings, equals python-shogi's on positions sampled from
  seeded random play-outs (biased toward captures and drops so hands fill), on every
  position of ``yaneuraou_mate_samples.csv`` and ``open_tsume_zukou_musou.csv``, and one
  ply deeper in those tsume positions;
* ``Position.checks()`` (and ``gives_check``) equals the python-shogi legal moves after which ``is_check()``;
* ``is_checkmate()`` and ``in_check()`` agree with python-shogi;
* random positions crowded around gote's king (pins, interpositions, dead pieces, missing
  sente king) and random pawn-drop positions (uchifuzume) are compared the same way;
* make/undo restores SFEN and Zobrist key, and the incrementally kept ``key`` equals the
  key of the same position parsed fresh from its SFEN.

The one place where python-shogi does not follow RULES.md is uchifuzume: its shortcut
``was_check_by_dropping_pawn`` counts a *pinned* defender piece as able to capture the
dropped pawn, so it lets some mating pawn drops through. ``ref_moves`` removes every pawn
drop after which python-shogi itself reports checkmate (RULES.md rule 5).
"""

from __future__ import annotations

import random

import pytest
import shogi

from tsumeqbf.data import read_rows
from tsumeqbf.rules import Position, is_drop, move_to

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


# -- helpers ---------------------------------------------------------------------------
def perft(pos: Position, depth: int) -> int:
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        pos.push(m)
        total += perft(pos, depth - 1)
        pos.pop()
    return total


def our_moves(pos: Position) -> set[str]:
    return {pos.usi(m) for m in pos.legal_moves()}


def _is_pawn_drop_mate(board: shogi.Board, move: shogi.Move) -> bool:
    board.push(move)
    try:
        return board.is_checkmate()
    finally:
        board.pop()


def ref_moves(board: shogi.Board) -> set[str]:
    """python-shogi's legal moves without the mating pawn drops it wrongly allows
    (uchifuzume with a pinned 'capturer', see the module docstring)."""
    return {mv.usi() for mv in board.legal_moves
            if not (mv.drop_piece_type == shogi.PAWN and _is_pawn_drop_mate(board, mv))}


def ref_checks(board: shogi.Board, moves: set[str]) -> set[str]:
    """The moves (USI) after which python-shogi says the opponent is in check."""
    out = set()
    for usi in moves:
        board.push(shogi.Move.from_usi(usi))
        if board.is_check():
            out.add(usi)
        board.pop()
    return out


def assert_matches_reference(pos: Position, with_checks: bool = True) -> set[str]:
    """Legal moves, checks and checkmate of ``pos`` agree with python-shogi; returns the moves."""
    sfen = pos.sfen()
    board = shogi.Board(sfen)
    ours, ref = our_moves(pos), ref_moves(board)
    assert ours == ref, (f"{sfen}: only ours {sorted(ours - ref)}, "
                         f"only python-shogi {sorted(ref - ours)}")
    assert pos.in_check() == board.is_check(), sfen
    assert pos.is_checkmate() == board.is_checkmate(), sfen
    if with_checks:
        ours_c = {pos.usi(m) for m in pos.checks()}
        ref_c = ref_checks(board, ref)
        assert ours_c == ref_c, (f"{sfen}: checks only ours {sorted(ours_c - ref_c)}, "
                                 f"only python-shogi {sorted(ref_c - ours_c)}")
        assert {pos.usi(m) for m in pos.legal_moves() if pos.gives_check(m)} == ref_c, sfen
    return ours


def assert_push_pop_restores(pos: Position, moves) -> None:
    """push/pop of every move restores SFEN and key; after push the incremental key equals
    the key of the position parsed fresh."""
    sfen, key = pos.sfen(), pos.key
    for m in moves:
        pos.push(m)
        fresh = Position.from_sfen(pos.sfen())
        assert pos.key == fresh.key, f"{sfen} + {pos.usi(m)}: incremental key differs from fresh"
        pos.pop()
        assert pos.sfen() == sfen and pos.key == key, f"{sfen}: push/pop of {pos.usi(m)}"


def pick_move(pos: Position, moves: list[int], rng: random.Random) -> int:
    """A random move, biased toward captures (hands fill) and drops (hands empty again)."""
    captures = [m for m in moves if not is_drop(m) and pos.board[move_to(m)]]
    drops = [m for m in moves if is_drop(m)]
    r = rng.random()
    if captures and r < 0.45:
        return rng.choice(captures)
    if drops and r < 0.75:
        return rng.choice(drops)
    return rng.choice(moves)


def playout(seed: int, plies: int = 150) -> list[int]:
    """Moves of one seeded random game from the start position (stops at a dead end)."""
    rng = random.Random(seed)
    pos = Position.from_sfen(START)
    line = []
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        m = pick_move(pos, moves, rng)
        pos.push(m)
        line.append(m)
    return line


PIECE_SET = "P" * 18 + "L" * 4 + "N" * 4 + "S" * 4 + "G" * 4 + "B" * 2 + "R" * 2


def random_sfen(rng: random.Random, pawn_drop: bool = False) -> str:
    """A random position, pieces crowded around gote's king so that pins, discovered checks,
    interpositions and uchifuzume come up; sente's king is sometimes absent (as in tsume).
    ``pawn_drop``: sente to move, ready to drop a checking pawn (for uchifuzume)."""
    grid: dict[tuple[int, int], str] = {}
    kr, kf = rng.randrange(8 if pawn_drop else 9), rng.randrange(9)
    grid[kr, kf] = "k"
    if rng.random() < 0.8:
        grid.setdefault((rng.randrange(9), rng.randrange(9)), "K")
    hands = {"b": [], "w": []}
    for letter in rng.sample(PIECE_SET, len(PIECE_SET)):
        r = rng.random()
        if r < 0.2:
            hands[rng.choice("bbw")].append(letter)
            continue
        if r < 0.35:
            continue
        if r < 0.75:
            sq = (min(8, max(0, kr + rng.randint(-2, 2))), min(8, max(0, kf + rng.randint(-2, 2))))
        else:
            sq = (rng.randrange(9), rng.randrange(9))
        if sq in grid:
            continue
        promote = letter in "PLNSBR" and rng.random() < 0.25
        grid[sq] = ("+" if promote else "") + (letter if rng.random() < 0.6 else letter.lower())
    if pawn_drop:  # a pawn in hand, the square below the king free, no sente pawn on its file
        hands["b"].append("P")
        grid.pop((kr + 1, kf), None)
        grid = {sq: p for sq, p in grid.items() if not (sq[1] == kf and p == "P")}
    rows = []
    for rank in range(9):
        row, empty = "", 0
        for col in range(9):
            if (rank, col) in grid:
                row += (str(empty) if empty else "") + grid[rank, col]
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    hand = "".join(hands["b"]) + "".join(hands["w"]).lower()
    turn = "b" if pawn_drop else rng.choice("bw")
    return f"{'/'.join(rows)} {turn} {hand or '-'} 1"


def random_positions(n: int, seed: int, pawn_drop: bool = False) -> list[Position]:
    """n random positions that are valid questions (the side not to move is not in check)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = Position.from_sfen(random_sfen(rng, pawn_drop))
        if not pos.in_check(pos.turn ^ 1):
            out.append(pos)
    return out


def pawn_drop_checks(pos: Position) -> set[str]:
    """Pawn drops (USI) that would check gote's king and pass rules 3-4 and 6 (not rule 5):
    those missing from the legal moves were refused as uchifuzume."""
    board = shogi.Board(pos.sfen())
    if board.is_check():
        return set()
    out = set()
    for mv in board.pseudo_legal_moves:
        if mv.drop_piece_type == shogi.PAWN:
            board.push(mv)
            if board.is_check():
                out.add(mv.usi())
            board.pop()
    return out


def tsume_rows() -> list[tuple[str, str]]:
    rows = [(f"yane-{r['yaneuraou_file']}-{r['line_no']}", r["sfen"])
            for r in read_rows("yaneuraou_mate_samples.csv")]
    # the Edo problems' SFENs already give the defender's hand (39 pieces, no sente king),
    # so they are read as given (tsume_hands would add nothing)
    rows += [(r["id"], r["sfen"]) for r in read_rows("open_tsume_zukou_musou.csv")]
    return rows


TSUME = tsume_rows()
TSUME_SAMPLE = [row for k, row in enumerate(TSUME) if row[0].startswith("yane") or k % 4 == 0]
GAMES = 40
COMPARE_EVERY = 6  # plies between play-out positions compared with python-shogi
UNDO_EVERY = 12  # plies between play-out positions where every move is pushed and popped
#: gote's gold on 2a may capture a pawn dropped on 1b only by exposing its king to the
#: rook on 5a; 2b is covered by the gold on 3c and the knight on 2d guards 1b
MAX_MOVES = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"
UCHIFUZUME_PINNED = "4R2gk/9/6G2/7N1/9/9/9/9/4K4 b P 1"


@pytest.fixture(scope="module")
def games() -> list[list[int]]:
    return [playout(seed) for seed in range(GAMES)]


def tsume_position(sfen: str) -> Position:
    pos = Position.from_sfen(sfen)
    if pos.in_check(pos.turn ^ 1):
        pytest.skip("the side not to move is in check: not a valid question (RULES.md)")
    return pos


# -- perft and a known move count ----------------------------------------------------
@pytest.mark.parametrize("depth,count", [
    (1, 30), (2, 900), (3, 25470), pytest.param(4, 719731, marks=pytest.mark.slow)])
def test_perft_start(depth, count):
    assert perft(Position.from_sfen(START), depth) == count


def test_most_legal_moves_position():
    """The classic position with the most legal moves (593), drops of all seven kinds."""
    pos = Position.from_sfen(MAX_MOVES)
    assert len(pos.legal_moves()) == 593
    assert_matches_reference(pos)


# -- random play-outs ------------------------------------------------------------------
def test_playouts_are_varied(games):
    """The play-outs really exercise drops, hands and long games (guards the sampling)."""
    assert sum(len(g) for g in games) > 4000
    assert sum(is_drop(m) for g in games for m in g) > 500


@pytest.mark.parametrize("every", [COMPARE_EVERY, pytest.param(1, marks=pytest.mark.slow)])
def test_playout_positions_match_python_shogi(games, every):
    """Every ``every``-th position of each play-out, and its last one, against python-shogi."""
    checked = in_check = 0
    for line in games:
        pos = Position.from_sfen(START)
        for i, m in enumerate(line + [None]):
            if i % every == 0 or m is None:
                assert_matches_reference(pos)
                checked += 1
                in_check += pos.in_check()
            if m is not None:
                pos.push(m)
    assert checked > 4000 // every and in_check > 20 // every


def test_playout_make_undo_and_incremental_key(games):
    seen: dict[int, tuple] = {}
    for line in games:
        pos = Position.from_sfen(START)
        for i, m in enumerate(line):
            moves = pos.legal_moves()
            assert m in moves
            if i % UNDO_EVERY == 0:
                assert_push_pop_restores(pos, moves)
            pos.push(m)
            assert pos.key == Position.from_sfen(pos.sfen()).key, pos.sfen()
            # the 64-bit key separates every distinct position met (hands included)
            assert seen.setdefault(pos.key, pos.exact_key()) == pos.exact_key(), pos.sfen()
        for _ in line:
            pos.pop()
        assert pos.sfen() == Position.from_sfen(START).sfen()
        assert pos.key == Position.from_sfen(START).key


# -- random crowded positions ---------------------------------------------------------
def _sizes(default: int, slow: int):
    return [default, pytest.param(slow, marks=pytest.mark.slow)]


@pytest.mark.parametrize("n", _sizes(200, 3000))
def test_random_positions_match_python_shogi(n):
    positions = random_positions(n, seed=2024 + n)
    for pos in positions:
        assert_matches_reference(pos)
        assert_push_pop_restores(pos, pos.legal_moves())
    assert sum(pos.in_check() for pos in positions) > n // 10


@pytest.mark.parametrize("n", _sizes(150, 2000))
def test_random_positions_after_each_check_match_python_shogi(n):
    """The defender's replies to every check: evasions, pinned interposers, mates."""
    mates = 0
    for pos in random_positions(n, seed=2025 + n):
        for m in pos.checks():
            pos.push(m)
            assert_matches_reference(pos, with_checks=False)
            mates += pos.is_checkmate()
            pos.pop()
    assert mates > n // 30


@pytest.mark.parametrize("n", _sizes(300, 4000))
def test_pawn_drop_positions_match_python_shogi(n):
    """Sente to move with a pawn in hand: uchifuzume refusals must occur and agree."""
    refused = 0
    for pos in random_positions(n, seed=7 + n, pawn_drop=True):
        ours = assert_matches_reference(pos, with_checks=False)
        refused += bool(pawn_drop_checks(pos) - ours)
    assert refused >= n // 100


def test_python_shogi_uchifuzume_shortcut_is_filtered():
    """python-shogi lets a mating pawn drop through when the only 'capturer' is pinned;
    RULES.md rule 5 forbids it. Without the pin the drop is legal for both."""
    pinned = Position.from_sfen(UCHIFUZUME_PINNED)
    assert "P*1b" not in our_moves(pinned)
    assert "P*1b" in {mv.usi() for mv in shogi.Board(UCHIFUZUME_PINNED).legal_moves}
    assert_matches_reference(pinned)
    free = Position.from_sfen(UCHIFUZUME_PINNED.replace("4R2gk", "7gk"))
    assert "P*1b" in our_moves(free)
    assert_matches_reference(free)


# -- tsume positions -------------------------------------------------------------------
def test_edo_problems_already_give_the_defender_hand():
    """The Edo SFENs list all 39 pieces (no sente king), so they are compared as given:
    the tsume-shogi hand convention would add nothing."""
    for row in read_rows("open_tsume_zukou_musou.csv"):
        pos = Position.from_sfen(row["sfen"])
        assert pos.kings == [-1, pos.kings[1]] and pos.kings[1] >= 0, row["id"]
        assert Position.from_sfen(row["sfen"], tsume_hands=True) == pos, row["id"]


@pytest.mark.parametrize("sfen", [s for _, s in TSUME], ids=[i for i, _ in TSUME])
def test_tsume_position_matches_python_shogi(sfen):
    pos = tsume_position(sfen)
    assert_matches_reference(pos)
    assert_push_pop_restores(pos, pos.legal_moves())


@pytest.mark.parametrize("sfen", [s for _, s in TSUME_SAMPLE], ids=[i for i, _ in TSUME_SAMPLE])
def test_tsume_after_each_check_matches_python_shogi(sfen):
    """One ply deeper along the moves a tsume solver explores: every check (a sample of
    the problems; the slow test below covers every move of every problem)."""
    pos = tsume_position(sfen)
    for m in pos.checks():
        pos.push(m)
        assert_matches_reference(pos, with_checks=False)
        pos.pop()


@pytest.mark.slow
@pytest.mark.parametrize("sfen", [s for _, s in TSUME], ids=[i for i, _ in TSUME])
def test_tsume_after_every_move_matches_python_shogi(sfen):
    """One ply deeper after every legal move, checks compared too."""
    pos = tsume_position(sfen)
    for m in pos.legal_moves():
        pos.push(m)
        assert_matches_reference(pos)
        pos.pop()
