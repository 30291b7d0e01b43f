"""KIF move records: a move to the previous move's square is 同 plus an ideographic space
(U+3000) before every piece name, one glyph or two (``同　歩(56)``, ``同　成銀(56)``), as
Kifu for Windows writes it, and the origin is always given. python-shogi reads back the
moves of the records we write, and it and our own reader read back the same start."""

from __future__ import annotations

import random

import pytest

from tsumeqbf.data import read_rows
from tsumeqbf.rules import Position
from tsumeqbf.rules.moves import is_drop, move_from, move_to
from tsumeqbf.rules.pieces import ALL_KINDS
from tsumeqbf.rules.problem_files import kif_move, kif_record, read_problem, write_kif

shogi_kif = pytest.importorskip("shogi.KIF")  # python-shogi

# a sente piece that can take on 55 once gote's pawn has moved there from 54
TAKERS = [("P", "56", "同　歩(56)"), ("L", "57", "同　香(57)"), ("N", "67", "同　桂(67)"),
          ("S", "56", "同　銀(56)"), ("G", "56", "同　金(56)"), ("B", "77", "同　角(77)"),
          ("R", "58", "同　飛(58)"), ("K", "56", "同　玉(56)"), ("+P", "56", "同　と(56)"),
          ("+L", "56", "同　成香(56)"), ("+N", "56", "同　成桂(56)"),
          ("+S", "56", "同　成銀(56)"), ("+B", "56", "同　馬(56)"), ("+R", "56", "同　龍(56)")]


def taker_position(piece: str, square: str) -> Position:
    rows = [["1"] * 9 for _ in range(9)]  # rows[rank - 1][9 - file]
    rows[0][0] = "k"  # 91
    rows[3][4] = "p"  # 54
    if piece != "K":
        rows[8][8] = "K"  # 19
    rows[int(square[1]) - 1][9 - int(square[0])] = piece
    return Position.from_sfen("/".join("".join(r) for r in rows) + " w - 1")


@pytest.mark.parametrize("piece, square, expected", TAKERS, ids=[t[0] for t in TAKERS])
def test_dou_then_an_ideographic_space_for_every_piece(piece, square, expected):
    pos = taker_position(piece, square)
    line = ["5d5e", f"{square[0]}{'abcdefghi'[int(square[1]) - 1]}5e"]
    text = kif_record(pos, line)
    assert f"   2 {expected}\n" in text
    record = shogi_kif.Parser.parse_str(text)[0]
    assert record["moves"] == line


def random_line(pos: Position, rng: random.Random, plies: int) -> list[str]:
    """A random game from ``pos`` that mostly takes back on the last move's square, so
    that every kind of piece gets a 同."""
    p, line, previous = pos.copy(), [], None
    for _ in range(plies):
        moves = p.legal_moves()
        if not moves:
            break
        back = [m for m in moves if move_to(m) == previous]
        m = rng.choice(back if back and rng.random() < 0.8 else moves)
        line.append(p.usi(m))
        previous = move_to(m)
        p.push(m)
    return line


def games():
    rng = random.Random(5)
    for row in read_rows("yaneuraou_mate_samples.csv"):
        pos = Position.from_sfen(row["sfen"])
        yield pos, random_line(pos, rng, 40)


def test_every_kind_is_taken_back_in_the_random_games():
    """The games below exercise 同 with every piece name, two-glyph ones included."""
    kinds = set()
    for pos, line in games():
        p, previous = pos.copy(), None
        for text in line:
            m = p.parse_usi(text)
            if move_to(m) == previous and not is_drop(m):
                kinds.add(p.board[move_from(m)] & 15)
                assert kif_move(p, m, previous).startswith("同　"), text
            previous = move_to(m)
            p.push(m)
    assert kinds == set(ALL_KINDS)


@pytest.mark.parametrize("suffix, encoding", [(".kif", "cp932"), (".kifu", "utf-8")])
def test_readers_take_back_what_we_write(tmp_path, suffix, encoding):
    count = 0
    for i, (pos, line) in enumerate(games()):
        path = tmp_path / f"g{i}{suffix}"
        write_kif(str(path), pos, line)
        record = shogi_kif.Parser.parse_str(path.read_bytes().decode(encoding))[0]
        assert record["moves"] == line, path.read_bytes().decode(encoding)
        # python-shogi's start position is ours: board, hands and side to move (its SFEN
        # names the side to move after the moves)
        board, turn, hands, _ = record["sfen"].split()
        if len(line) % 2:
            turn = "b" if turn == "w" else "w"
        theirs = Position.from_sfen(f"{board} {turn} {hands} 1")
        assert theirs == pos, (record["sfen"], pos.sfen())
        assert read_problem(str(path)) == pos
        count += 1
    assert count > 30
