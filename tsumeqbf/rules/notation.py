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
from .pieces import (BLACK, DRAGON, GOLD, HAND_KINDS, HORSE, KIND_GLYPH, KIND_KANJI, LETTER_KIND,
                     PRO_KNIGHT, PRO_LANCE, PRO_PAWN, PRO_SILVER, PROMOTABLE, SFEN_HAND_ORDER,
                     SFEN_LETTER, SILVER, WHITE)

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
    ``△同玉``, ``▲３三角成``, ``▲３三角不成``, ``▲５五金打``, ``▲５二金左上``.
    ``previous_to`` is the destination of the previous move, for 同. When another piece
    of the same kind could also go there, the move names its piece as the Japan Shogi
    Association's notation rules do (:func:`relative_words`); a drop is marked 打 only
    when a board piece of that kind could go there too."""
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
    rivals = {move_from(x) for x in pos.legal_moves()
              if not is_drop(x) and move_to(x) == to and move_from(x) != frm
              and pos.board[move_from(x)] == code}
    words = relative_words(geo, pos.turn, code & 15, frm, to, rivals) if rivals else ""
    return f"{mark}{dest}{KIND_KANJI[code & 15]}{words}{promotion_suffix(pos, m)}"


def promotion_suffix(pos, m: int) -> str:
    """``成`` for a promotion, ``不成`` for a board move that could have promoted and did
    not, else nothing."""
    if is_drop(m):
        return ""
    if is_promotion(m):
        return "成"
    frm, zone = move_from(m), pos.geo.in_zone[pos.turn]
    if pos.board[frm] & 15 in PROMOTABLE and (zone[frm] or zone[move_to(m)]):
        return "不成"
    return ""


# Pieces that step like a gold or a silver: the only ones for which a move straight
# forward is called 直. A ranged piece moving straight forward is told apart by 上 alone,
# since no two of them can reach one square from the same direction.
_STEPPERS = frozenset({SILVER, GOLD, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER})


def relative_words(geo: Geometry, color: int, kind: int, frm: int, to: int,
                   rivals) -> str:
    """The words that single out the piece on ``frm`` among the pieces of ``kind`` on
    ``rivals`` that could also move to ``to``, by the Japan Shogi Association's rules
    (棋譜の表記方法), all from the mover's side of the board:

    - the movement alone when no rival moves the same way: 上 (forward), 寄 (sideways),
      引 (back);
    - else where the piece stands, when that alone singles it out: 左 or 右 of the
      destination, or 直 for a gold, a silver or a promoted minor piece moving straight
      forward; two dragons (or two horses) are left or right of each other instead, and
      never 直, so that one on the destination's file still has a side;
    - else both, position first: 左上, 右引, 左寄.

    Each word is read as a filter on all the candidates (``▲５五金左`` means "the one on
    the left", even when another left one is named 寄), which is why 左上 is written
    where 左 is shared. With more pieces of a kind than the standard set holds, words
    may not suffice (three dragons); the origin is given then, KIF style, ``(63)``.

    >>> from tsumeqbf.rules import geometry
    >>> g = geometry(9, 9, 3)
    >>> [relative_words(g, BLACK, GOLD, g.square(f, r), g.square(5, 2),
    ...                 {g.square(6, 3), g.square(5, 3), g.square(4, 3)} - {g.square(f, r)})
    ...  for f, r in [(6, 3), (5, 3), (4, 3)]]
    ['左', '直', '右']
    """
    others = set(rivals) - {frm}
    # two dragons or two horses (all the standard set holds): sides of each other
    pair_of_big = kind in (HORSE, DRAGON) and len(others) == 1

    def x(s: int) -> int:  # grows toward the mover's left
        return geo.file_of(s) if color == BLACK else -geo.file_of(s)

    def motion(s: int) -> str:
        forward = geo.rank_of(s) - geo.rank_of(to)
        forward = forward if color == BLACK else -forward
        return "上" if forward > 0 else "引" if forward < 0 else "寄"

    def side(s: int) -> str:
        if pair_of_big:
            other = next(iter(({frm} | others) - {s}))
            d = x(s) - x(other)
        else:
            d = x(s) - x(to)
            if d == 0:
                return "直" if kind in _STEPPERS and motion(s) == "上" else ""
        return "左" if d > 0 else "右" if d < 0 else ""

    everyone = [frm, *others]
    mine_side, mine_motion = side(frm), motion(frm)
    for want_side, want_motion in ((None, mine_motion), (mine_side, None),
                                   (mine_side, mine_motion)):
        if want_side == "":
            continue  # a piece with no side to name
        if all(s == frm or (want_side is not None and side(s) != want_side)
               or (want_motion is not None and motion(s) != want_motion) for s in everyone):
            return (want_side or "") + (want_motion or "")
    return f"({geo.file_of(frm)}{geo.rank_of(frm)})"


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
