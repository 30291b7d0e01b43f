"""Move notation (USI and Japanese) and a text board diagram.

USI is generalized to W x H boards: file digit, rank letter ("a" is rank 1), ``P*5e`` for
drops and a trailing ``+`` for promotion.

>>> from tsumeqbf.rules import Position
>>> p = Position.from_sfen("2k/3/1GP b - 1", zone=2)
>>> m = p.parse_usi("2c2b")
>>> move_to_usi(p.geo, m), move_to_japanese(p, m)
('2c2b', '▲２二金')
"""

from __future__ import annotations

from .errors import MoveError
from .geometry import Geometry
from .moves import board_move, drop_kind, drop_move, is_drop, is_promotion, move_from, move_to
from .pieces import (BLACK, HAND_KINDS, KIND_GLYPH, KIND_KANJI, LETTER_KIND, PROMOTABLE,
                     SFEN_HAND_ORDER, SFEN_LETTER, WHITE)

KANJI_DIGITS = "〇一二三四五六七八九"
WIDE_DIGITS = "０１２３４５６７８９"


def move_to_usi(geo: Geometry, m: int) -> str:
    """USI text of a move: ``7g7f``, ``2b3c+``, ``P*5e``."""
    if is_drop(m):
        return f"{SFEN_LETTER[drop_kind(m)]}*{geo.usi(move_to(m))}"
    return geo.usi(move_from(m)) + geo.usi(move_to(m)) + ("+" if is_promotion(m) else "")


def parse_usi_move(pos, text: str, check_legal: bool = True) -> int:
    """Parse USI text into a move of ``pos``; with ``check_legal`` it must be legal."""
    geo = pos.geo
    text = text.strip()
    try:
        if len(text) == 4 and text[1] == "*":
            kind = LETTER_KIND.get(text[0].upper())
            if kind is None or kind not in HAND_KINDS:
                raise ValueError
            m = drop_move(kind, geo.parse_usi_square(text[2:4]))
        elif len(text) in (4, 5) and (len(text) == 4 or text[4] == "+"):
            m = board_move(geo.parse_usi_square(text[0:2]), geo.parse_usi_square(text[2:4]),
                           promote=len(text) == 5)
        else:
            raise ValueError
    except ValueError:
        raise MoveError(f"not a USI move on a {geo.width}x{geo.height} board: {text!r}") from None
    if check_legal and m not in pos.legal_moves():
        raise MoveError(f"illegal move {text!r} in {pos.sfen()}")
    return m


def square_japanese(geo: Geometry, s: int) -> str:
    return WIDE_DIGITS[geo.file_of(s)] + KANJI_DIGITS[geo.rank_of(s)]


def move_to_japanese(pos, m: int, previous_to: int | None = None) -> str:
    """Japanese notation of move ``m`` in ``pos`` (before it is played): ``▲２二金``,
    ``△同玉``, ``▲３三角成``, ``▲３三角不成``, ``▲５五金打``. ``previous_to`` is the
    destination of the previous move, for 同. A board move is disambiguated KIF-style with
    its origin in parentheses, ``▲５二金(61)``, when another same piece could go there too."""
    geo = pos.geo
    mark = "▲" if pos.turn == BLACK else "△"
    to = move_to(m)
    dest = "同" if previous_to == to else square_japanese(geo, to)
    if is_drop(m):
        kind = drop_kind(m)
        code = kind | pos.turn << 4
        rivals = [x for x in pos.legal_moves()
                  if not is_drop(x) and move_to(x) == to and pos.board[move_from(x)] == code]
        return f"{mark}{dest}{KIND_KANJI[kind]}{'打' if rivals else ''}"
    frm = move_from(m)
    code = pos.board[frm]
    kind = code & 15
    suffix = ""
    if is_promotion(m):
        suffix = "成"
    elif kind in PROMOTABLE and (geo.in_zone[pos.turn][frm] or geo.in_zone[pos.turn][to]):
        suffix = "不成"
    rivals = {move_from(x) for x in pos.legal_moves()
              if not is_drop(x) and move_to(x) == to and move_from(x) != frm
              and pos.board[move_from(x)] == code}
    origin = f"({geo.file_of(frm)}{geo.rank_of(frm)})" if rivals else ""
    return f"{mark}{dest}{KIND_KANJI[kind]}{suffix}{origin}"


def line_to_japanese(pos, moves: list[int]) -> list[str]:
    """Japanese notation of a line of moves played from ``pos`` (``pos`` is restored)."""
    out, previous = [], None
    for m in moves:
        out.append(move_to_japanese(pos, m, previous))
        previous = move_to(m)
        pos.push(m)
    for _ in moves:
        pos.pop()
    return out


def _hand_text(pos, color: int) -> str:
    parts = []
    for kind in SFEN_HAND_ORDER:
        n = pos.hands[color][kind]
        if n:
            parts.append(KIND_KANJI[kind] + (_count_kanji(n) if n > 1 else ""))
    return "　".join(parts) or "なし"


def _count_kanji(n: int) -> str:
    if n < 10:
        return KANJI_DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else KANJI_DIGITS[tens]) + "十" + (KANJI_DIGITS[ones] if ones else "")


def diagram(pos) -> str:
    """A BOD-style text diagram: gote's pieces marked ``v``, files W..1 across the top."""
    geo = pos.geo
    lines = [f"後手の持駒：{_hand_text(pos, WHITE)}",
             " " + "".join(f" {WIDE_DIGITS[f]}" for f in range(geo.width, 0, -1)),
             "+" + "---" * geo.width + "+"]
    for r in range(geo.height):
        row = ""
        for code in pos.board[r * geo.width:(r + 1) * geo.width]:
            if not code:
                row += " ・"
            else:
                row += ("v" if code >> 4 == WHITE else " ") + KIND_GLYPH[code & 15]
        lines.append(f"|{row}|{KANJI_DIGITS[r + 1]}")
    lines.append("+" + "---" * geo.width + "+")
    lines.append(f"先手の持駒：{_hand_text(pos, BLACK)}")
    lines.append(f"{'先手' if pos.turn == BLACK else '後手'}番  (board {geo.width}x{geo.height}, zone {geo.zone})")
    return "\n".join(lines)
