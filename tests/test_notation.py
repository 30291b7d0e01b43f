"""Japanese move notation: which piece moved, in the words of the Japan Shogi Association's
rules (棋譜の表記方法): 上 寄 引 for the movement, 左 右 直 for where the piece stands, both
when neither alone singles it out, and 打 only when a board piece could go there too.

The textbook cases are positions from published explanations of the rules; cshogi's KI2
writer (``move_to_ki2``) is an independent oracle on every move of crowded random
positions (250 of them, 13,576 moves of which 892 have a rival; the slow run 3,000,
177,708 and 11,595), and the two kinds of case where it answers otherwise are pinned
down below."""

from __future__ import annotations

import random

import pytest

from tsumeqbf.rules import Position, TsumeError, line_to_japanese, move_to_japanese
from tsumeqbf.rules.cshogi_board import supports
from tsumeqbf.rules.moves import is_drop, move_from, move_to

WIDE = "０１２３４５６７８９"
KANJI = "〇一二三四五六七八九"


def sfen_of(pieces: dict[str, str], turn: str = "b", hand: str = "-") -> str:
    """A 9x9 SFEN from {"63": "G", "51": "k", ...}: square as file then rank digit."""
    rows = []
    for rank in range(1, 10):
        row, empty = "", 0
        for file in range(9, 0, -1):
            piece = pieces.get(f"{file}{rank}")
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {turn} {hand} 1"


def usi(frm: str, to: str) -> str:
    return frm[0] + "abcdefghi"[int(frm[1]) - 1] + to[0] + "abcdefghi"[int(to[1]) - 1]


def notation(pieces: dict[str, str], frm: str, to: str, turn: str = "b") -> str:
    pos = Position.from_sfen(sfen_of(pieces, turn))
    return move_to_japanese(pos, pos.parse_usi(usi(frm, to)))


def square(to: str) -> str:
    return WIDE[int(to[0])] + KANJI[int(to[1])]


KINGS = {"99": "k", "19": "K"}  # out of the way of every case below

# (pieces of the side to move, destination, {origin: words written after the piece})
TEXTBOOK = {
    # three golds abreast all move up: the position alone tells them apart, no 上 needed
    "three golds abreast": ({"63": "G", "53": "G", "43": "G"}, "52",
                            {"63": "金左", "53": "金直", "43": "金右"}),
    # the movement alone when it is unique (金上 / 金寄)
    "gold up or sideways": ({"53": "G", "62": "G"}, "52", {"53": "金上", "62": "金寄"}),
    "silver up or back": ({"86": "S", "64": "S"}, "75", {"86": "銀上", "64": "銀引"}),
    # 左 alone would also name 65, which moves sideways: so 左上; 直 is always alone
    "golds: left one moving up": ({"65": "G", "66": "G", "56": "G"}, "55",
                                  {"65": "金寄", "66": "金左上", "56": "金直"}),
    # four silvers around a square: position and movement both needed
    "four silvers": ({"64": "S", "44": "S", "66": "S", "46": "S"}, "55",
                     {"64": "銀左引", "44": "銀右引", "66": "銀左上", "46": "銀右上"}),
    "three silvers below": ({"66": "S", "56": "S", "46": "S"}, "55",
                            {"66": "銀左", "56": "銀直", "46": "銀右"}),
    # a tokin can reach a square from six directions, each named differently
    "six tokins": ({"56": "+P", "66": "+P", "46": "+P", "65": "+P", "45": "+P", "54": "+P"},
                   "55", {"56": "と直", "66": "と左上", "46": "と右上", "65": "と左寄",
                          "45": "と右寄", "54": "と引"}),
    "knights": ({"67": "N", "47": "N"}, "55", {"67": "桂左", "47": "桂右"}),
    "rooks on one rank": ({"95": "R", "15": "R"}, "55", {"95": "飛左", "15": "飛右"}),
    "rooks from below and beside": ({"57": "R", "95": "R"}, "55", {"57": "飛上", "95": "飛寄"}),
    # two dragons both moving back: left and right of each other, though 22 stands on
    # the destination's file
    "two dragons, same movement": ({"13": "+R", "22": "+R"}, "24",
                                   {"13": "龍右", "22": "龍左"}),
    # two dragons moving differently: the movement comes first
    "two dragons, different movements": ({"91": "+R", "85": "+R"}, "82",
                                         {"91": "龍引", "85": "龍上"}),
    "two horses": ({"91": "+B", "81": "+B"}, "82", {"91": "馬左", "81": "馬右"}),
    # 成/不成 never picks the piece: 右不成 would already be enough, 右引不成 is written
    "silver that could promote": ({"43": "S", "63": "S", "45": "S"}, "54",
                                  {"43": "銀右引不成", "63": "銀左不成", "45": "銀上"}),
}


@pytest.mark.parametrize("name", TEXTBOOK)
def test_textbook_cases(name):
    pieces, to, expected = TEXTBOOK[name]
    for frm, words in expected.items():
        assert notation({**KINGS, **pieces}, frm, to) == f"▲{square(to)}{words}", frm


def test_gote_left_and_right_are_its_own():
    # gote faces the other way: its left is the low-numbered files
    pieces = {"91": "K", "11": "k", "47": "g", "57": "g", "67": "g"}
    assert [notation(pieces, f, "58", turn="w") for f in ("47", "57", "67")] == \
        ["△５八金左", "△５八金直", "△５八金右"]
    pieces = {"91": "K", "11": "k", "45": "s", "55": "s", "65": "s", "47": "s"}
    assert [notation(pieces, f, "56", turn="w") for f in ("45", "55", "65", "47")] == \
        ["△５六銀左上", "△５六銀直", "△５六銀右", "△５六銀引不成"]  # 47: gote's zone


def test_a_pinned_piece_is_no_rival():
    # the gold on 43 is pinned to its king by the rook on 41: only 63 can go to 52
    pieces = {"99": "k", "49": "K", "41": "r", "63": "G", "43": "G"}
    assert notation(pieces, "63", "52") == "▲５二金"
    assert notation({**pieces, "41": "p"}, "63", "52") == "▲５二金左"


def test_words_after_dou():
    # gote's pawn takes on 52, then either gold retakes: 同 then the words
    pos = Position.from_sfen(sfen_of({**KINGS, "63": "G", "43": "G", "51": "p"}, turn="w"))
    first = pos.parse_usi("5a5b")
    pos.push(first)
    replies = {t: pos.parse_usi(t) for t in ("6c5b", "4c5b")}
    pos.pop()
    assert [line_to_japanese(pos, [first, m])[1] for m in replies.values()] == \
        ["▲同金左", "▲同金右"]


def test_more_dragons_than_the_set_holds_fall_back_to_the_origin():
    # three dragons move up to 52: the middle one has no side and shares 上
    pieces = {**KINGS, "63": "+R", "53": "+R", "43": "+R"}
    assert [notation(pieces, f, "52") for f in ("63", "53", "43")] == \
        ["▲５二龍左", "▲５二龍(53)", "▲５二龍右"]


# -- many positions --------------------------------------------------------------------
LIMIT = {"P": 18, "L": 4, "N": 4, "S": 4, "G": 4, "B": 2, "R": 2}
# each kind's promoted form counts against its base kind's limit
CROWD_KINDS = ["G", "G", "S", "S", "+P", "+P", "+S", "+N", "+L", "N", "R", "+R", "+B", "B"]


def crowded_sfen(rng: random.Random) -> str:
    """A standard-set position with one kind crowded around a square of either side,
    plus a few other pieces that block or pin."""
    pieces, used = {}, dict.fromkeys(LIMIT, 0)

    def put(file, rank, text) -> bool:
        key, base = f"{file}{rank}", text.lstrip("+").upper()
        if not (1 <= file <= 9 and 1 <= rank <= 9) or key in pieces:
            return False
        if base != "K":
            if used[base] >= LIMIT[base]:
                return False
            last = rank if text.isupper() else 10 - rank  # ranks from its own far end
            dead = base in "PL" and last == 1 or base == "N" and last <= 2
            if dead and not text.startswith("+"):
                return False
            used[base] += 1
        pieces[key] = text
        return True

    turn = rng.choice("bw")
    tf, tr = rng.randint(1, 9), rng.randint(1, 9)
    kind = rng.choice(CROWD_KINDS)
    # how far from the square the crowd stands: steppers next to it, ranged pieces farther
    reach = {"R": 4, "B": 4, "+R": 3, "+B": 3, "N": 2}.get(kind, 1)
    for _ in range(rng.randint(2, 8)):
        text = kind if turn == "b" else kind.lower()
        put(tf + rng.randint(-reach, reach), tr + rng.randint(-reach, reach), text)
    for _ in range(rng.randint(0, 4)):
        text = rng.choice("PLNSGBR")
        text = ("+" if text in "PLNSBR" and rng.random() < 0.3 else "") + text
        text = text if rng.random() < 0.5 else text.lower()
        put(rng.randint(1, 9), rng.randint(1, 9), text)
    for king in "Kk":
        while not put(rng.randint(1, 9), rng.randint(1, 9), king):
            pass
    return sfen_of(pieces, turn, hand=rng.choice(["-", "G", "S", "g", "s", "GS", "gs"]))


def crowded_positions(count: int, seed: int):
    rng = random.Random(seed)
    found = 0
    while found < count:
        try:
            pos = Position.from_sfen(crowded_sfen(rng))
        except TsumeError:  # the side not to move in check, and the like: draw again
            continue
        if supports(pos):
            found += 1
            yield pos


def rivals_of(pos, m, moves) -> set[int]:
    return {move_from(x) for x in moves if not is_drop(x) and move_to(x) == move_to(m)
            and pos.board[move_from(x)] == pos.board[move_from(m)]}


def test_the_words_single_out_every_piece():
    """Pieces of one kind that can reach one square are all written differently, with
    words alone (no origin) while the material is the standard set."""
    crowded = 0
    for pos in crowded_positions(300, seed=7):
        moves = pos.legal_moves()
        seen = {}
        for m in moves:
            if is_drop(m) or len(rivals_of(pos, m, moves)) < 2:
                continue
            text = move_to_japanese(pos, m).removesuffix("不成").removesuffix("成")
            assert "(" not in text, (pos.sfen(), pos.usi(m), text)
            key = (text, move_to(m))
            assert seen.setdefault(key, move_from(m)) == move_from(m), (pos.sfen(), text)
            crowded += 1
    assert crowded > 1000


def ki2_words(text: str) -> str:
    return "".join(c for c in text if c in "左右直上寄引")


@pytest.mark.parametrize("count", [250, pytest.param(3000, marks=pytest.mark.slow)])
def test_against_cshogi_ki2(count):
    """cshogi's KI2 writer agrees on every move but two kinds, both checked for what they
    are: it counts a pinned piece as a rival (we count the legal moves only), and after 寄
    or 引 it leaves out the movement when the side word is shared with a piece that moves
    otherwise (``５三金右`` though the gold on 44 is on the right too; it does write 左上
    in the same case with 上, as the rules' readers do)."""
    import cshogi
    from cshogi.KI2 import move_to_ki2
    compared = ambiguous = pinned = terse = 0
    for pos in crowded_positions(count, seed=11):
        board = cshogi.Board(pos.sfen())
        moves = pos.legal_moves()
        pseudo = [x for x in board.pseudo_legal_moves if not cshogi.move_is_drop(x)]
        for m in moves:
            cm = board.move_from_usi(pos.usi(m))
            ours, theirs = move_to_japanese(pos, m), move_to_ki2(cm, board)
            rivals = set() if is_drop(m) else rivals_of(pos, m, moves)
            compared += 1
            ambiguous += len(rivals) > 1
            if ours == theirs:
                continue
            their_rivals = {cshogi.move_from(x) for x in pseudo
                            if cshogi.move_to(x) == cshogi.move_to(cm) and
                            cshogi.move_from_piece_type(x) == cshogi.move_from_piece_type(cm)}
            if len(their_rivals) != len(rivals):
                pinned += 1
                continue
            # their words are ours less the movement, and their side word names two pieces
            ours_w, theirs_w = ki2_words(ours), ki2_words(theirs)
            assert ours_w[-1] in "寄引" and ours_w[:-1] == theirs_w in ("左", "右"), \
                (pos.sfen(), ours, theirs)
            # files grow toward sente's left and gote's right
            sign = (1 if pos.turn == 0 else -1) * (1 if theirs_w == "左" else -1)
            on_side = [s for s in rivals
                       if sign * (pos.geo.file_of(s) - pos.geo.file_of(move_to(m))) > 0]
            assert len(on_side) > 1, (pos.sfen(), ours, theirs)
            terse += 1
    assert compared > 40 * count and ambiguous > 2 * count
    assert 0 < terse < ambiguous // 20 and pinned < ambiguous // 20
