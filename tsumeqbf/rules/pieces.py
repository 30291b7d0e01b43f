"""Piece kinds, colours and their codes.

A piece code is ``kind | colour << 4``: sente's pieces are 1..14, gote's 17..30 and 0
is an empty square, so a board is a flat list of small ints.

>>> piece_code(GOLD, WHITE), piece_kind(21), piece_color(21)
(21, 5, 1)
"""

from __future__ import annotations

BLACK, WHITE = 0, 1  # sente (moves first, "b" in SFEN), gote ("w")
COLOR_NAMES = ("sente", "gote")

PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK, KING = 1, 2, 3, 4, 5, 6, 7, 8
PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, HORSE, DRAGON = 9, 10, 11, 12, 13, 14

ALL_KINDS = tuple(range(1, 15))
#: kinds that can be held in hand, in SFEN's conventional hand order R B G S N L P reversed
HAND_KINDS = (PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK)
#: SFEN writes hands from the most valuable kind down
SFEN_HAND_ORDER = (ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN)

PROMOTED = {PAWN: PRO_PAWN, LANCE: PRO_LANCE, KNIGHT: PRO_KNIGHT, SILVER: PRO_SILVER,
            BISHOP: HORSE, ROOK: DRAGON}
UNPROMOTED = {v: k for k, v in PROMOTED.items()}
PROMOTABLE = frozenset(PROMOTED)

#: the kind a piece becomes when captured (always unpromoted)
BASE_KIND = {k: UNPROMOTED.get(k, k) for k in ALL_KINDS}

SFEN_LETTER = {PAWN: "P", LANCE: "L", KNIGHT: "N", SILVER: "S", GOLD: "G", BISHOP: "B",
               ROOK: "R", KING: "K"}
LETTER_KIND = {v: k for k, v in SFEN_LETTER.items()}

KIND_NAMES = {PAWN: "pawn", LANCE: "lance", KNIGHT: "knight", SILVER: "silver", GOLD: "gold",
              BISHOP: "bishop", ROOK: "rook", KING: "king", PRO_PAWN: "tokin",
              PRO_LANCE: "promoted lance", PRO_KNIGHT: "promoted knight",
              PRO_SILVER: "promoted silver", HORSE: "horse", DRAGON: "dragon"}
#: Japanese piece names as used in move notation (single glyph where customary)
KIND_KANJI = {PAWN: "歩", LANCE: "香", KNIGHT: "桂", SILVER: "銀", GOLD: "金", BISHOP: "角",
              ROOK: "飛", KING: "玉", PRO_PAWN: "と", PRO_LANCE: "成香", PRO_KNIGHT: "成桂",
              PRO_SILVER: "成銀", HORSE: "馬", DRAGON: "龍"}
#: one glyph per kind, for board diagrams
KIND_GLYPH = {PAWN: "歩", LANCE: "香", KNIGHT: "桂", SILVER: "銀", GOLD: "金", BISHOP: "角",
              ROOK: "飛", KING: "玉", PRO_PAWN: "と", PRO_LANCE: "杏", PRO_KNIGHT: "圭",
              PRO_SILVER: "全", HORSE: "馬", DRAGON: "龍"}

#: the standard 40-piece set (per kind, both sides together, unpromoted)
STANDARD_SET = {PAWN: 18, LANCE: 4, KNIGHT: 4, SILVER: 4, GOLD: 4, BISHOP: 2, ROOK: 2, KING: 2}


def piece_code(kind: int, color: int) -> int:
    """The board code of a piece: ``piece_code(PAWN, BLACK) == 1``."""
    return kind | (color << 4)


def piece_kind(code: int) -> int:
    return code & 15


def piece_color(code: int) -> int:
    return code >> 4


def piece_sfen(code: int) -> str:
    """SFEN text of a piece code: ``piece_sfen(piece_code(HORSE, WHITE)) == '+b'``."""
    kind, color = code & 15, code >> 4
    base = UNPROMOTED.get(kind, kind)
    text = ("+" if kind in UNPROMOTED else "") + SFEN_LETTER[base]
    return text if color == BLACK else text.lower()
