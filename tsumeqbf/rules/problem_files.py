"""Problem files: read a position from a KIF/BOD board diagram, a CSA file, a USI
``position`` line or an SFEN, and write an answer as a KIF record.

``load_position(text)`` is what the commands call with their SFEN argument: a path to an
existing file (or one named with a known extension) is read as a problem file, anything
else is an SFEN. The format comes from the extension (``.kif``/``.kifu``/``.bod``,
``.csa``, ``.sfen``/``.usi``) or else from the content. A file that cannot be read is one
``ProblemFileError`` naming the file, the line and what is wrong.

Why our own readers: python-shogi's KIF reader takes no ``残り全部`` hand (the tsume
convention), no board other than 9x9 and says nothing of where an error is, and its CSA
reader takes no ``00AL`` and misreads ``PI``; both are used in the tests as independent
readers of what we write.

>>> pos = position_from_text('''後手の持駒：なし
...   ３ ２ １
... +---------+
... | ・ ・v玉|一
... | ・ ・ ・|二
... | ・ 金 歩|三
... +---------+
... 先手の持駒：なし''', zone=2)
>>> pos.sfen()
'2k/3/1GP b - 1'
"""

from __future__ import annotations

import os
import re
import sys

from .errors import TsumeError
from .notation import KANJI_DIGITS, WIDE_DIGITS, diagram, promotion_suffix, square_japanese
from .moves import drop_kind, is_drop, move_from, move_to
from .pieces import BLACK, KIND_KANJI
from .position import Position

#: extension -> format; other files are told apart by their content (``sniff_format``)
EXTENSIONS = {".kif": "kif", ".kifu": "kif", ".bod": "kif", ".csa": "csa",
              ".sfen": "usi", ".usi": "usi"}
#: help text of a command's position argument
POSITION_HELP = ("position: an SFEN (generalized W x H, attacker to move) or a problem file "
                 "(KIF/BOD diagram, CSA, USI position line; UTF-8 or Shift_JIS)")
#: the SFEN of the standard starting position (USI ``startpos``, CSA ``PI``)
STARTPOS = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"

# one glyph (or two-glyph name) of a board diagram or a KIF hand -> SFEN piece
_GLYPH_SFEN = {"歩": "P", "香": "L", "桂": "N", "銀": "S", "金": "G", "角": "B", "飛": "R",
               "玉": "K", "王": "K", "と": "+P", "杏": "+L", "圭": "+N", "全": "+S",
               "馬": "+B", "龍": "+R", "竜": "+R"}
_CSA_SFEN = {"FU": "P", "KY": "L", "KE": "N", "GI": "S", "KI": "G", "KA": "B", "HI": "R",
             "OU": "K", "TO": "+P", "NY": "+L", "NK": "+N", "NG": "+S", "UM": "+B", "RY": "+R"}
_STANDARD_HAND = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
_ALL_REST = "残り全部"  # a tsume file's defender hand: every piece not shown elsewhere


class ProblemFileError(TsumeError):
    """A problem file that cannot be read: one line naming the file, the line and why."""


class LineError(ProblemFileError):
    """Raised by a format reader with the 1-based line number (a ProblemFileError of the
    text alone); :func:`read_problem` makes it one that names the file."""

    def __init__(self, line: int | None, what: str):
        super().__init__(f"line {line}: {what}" if line else what)
        self.line, self.what = line, what


# -- entry points --------------------------------------------------------------------------
def looks_like_path(text: str) -> bool:
    """An argument names a file when the file exists or it has a problem-file extension
    (an SFEN always has spaces, a path here none).

    >>> looks_like_path("2k/3/1GP b - 1"), looks_like_path("tsume/001.kif")
    (False, True)
    """
    if os.path.isfile(text):
        return True
    return not any(c.isspace() for c in text) and os.path.splitext(text)[1].lower() in EXTENSIONS


def load_position(text: str, zone: int | None = None, tsume_hands: bool = False) -> Position:
    """The position a command's argument names: a problem file or an SFEN. A folder, or one
    word that names no file and cannot be an SFEN's board, is neither: ProblemFileError.

    >>> load_position("tsume-problems")
    Traceback (most recent call last):
    tsumeqbf.rules.problem_files.ProblemFileError: no such file: tsume-problems (nor an SFEN: 'board side hands [move]')
    """
    if os.path.isdir(text):
        raise ProblemFileError(f"{text} is a folder: name a problem file or give an SFEN")
    if looks_like_path(text):
        return read_problem(text, zone=zone, tsume_hands=tsume_hands)
    word = text.strip()
    if word and not any(c.isspace() for c in word) and not _sfen_board_like(word):
        raise ProblemFileError(f"no such file: {word} (nor an SFEN: 'board side hands [move]')")
    return Position.from_sfen(text, zone=zone, tsume_hands=tsume_hands)


def _sfen_board_like(word: str) -> bool:
    """Whether one word could be an SFEN's board cut short: ranks split by slashes, of
    digits, piece letters and ``+`` (a path starts with a slash or has other characters).

    >>> _sfen_board_like("2k/3/1GP"), _sfen_board_like("/tmp/x"), _sfen_board_like("a.kif")
    (True, False, False)
    """
    return "/" in word and not word.startswith("/") and re.fullmatch(r"[0-9A-Za-z+/]+", word) is not None


def read_problem(path: str, zone: int | None = None, tsume_hands: bool = False) -> Position:
    """Read problem file ``path`` (UTF-8 or Shift_JIS); FileNotFoundError when missing,
    ProblemFileError when malformed."""
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        text = decode_text(data)
        fmt = EXTENSIONS.get(os.path.splitext(path)[1].lower()) or sniff_format(text)
        return position_from_text(text, fmt, zone=zone, tsume_hands=tsume_hands)
    except LineError as exc:
        where = f" line {exc.line}" if exc.line else ""
        raise ProblemFileError(f"{path}{where}: {exc.what}") from None
    except TsumeError as exc:  # a well-formed file of an impossible position
        raise ProblemFileError(f"{path}: {exc}") from None


def decode_text(data: bytes) -> str:
    """UTF-8 (with or without BOM), else Shift_JIS (cp932, as Windows tools write KIF).

    >>> decode_text("後手の持駒".encode("cp932"))
    '後手の持駒'
    """
    for encoding in ("utf-8-sig", "cp932"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise LineError(None, "neither UTF-8 nor Shift_JIS text")


def sniff_format(text: str) -> str:
    """"kif", "csa" or "usi" from the content of a file without a known extension.

    >>> sniff_format("P1-KY-KE\\n+\\n"), sniff_format("position startpos\\n")
    ('csa', 'usi')
    """
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if any("持駒" in ln or ln.startswith("+---") for ln in lines):
        return "kif"
    if any(re.match(r"P(?:[1-9][ *+\-]|[+\-]\d\d|I)", ln) for ln in lines):
        return "csa"
    return "usi"


def position_from_text(text: str, fmt: str = "kif", zone: int | None = None,
                       tsume_hands: bool = False) -> Position:
    """The position in ``text`` of format ``fmt`` ("kif", "csa" or "usi");
    ProblemFileError when it cannot be read.

    >>> position_from_text("P1 * ", "csa")
    Traceback (most recent call last):
    tsumeqbf.rules.problem_files.LineError: line 1: fewer than nine squares (three characters each)
    """
    if fmt not in ("kif", "csa", "usi"):
        raise ValueError(f"unknown problem format {fmt!r}; choose kif, csa or usi")
    if fmt == "usi":
        return _usi_file(text, zone, tsume_hands)
    sfen, rest = {"kif": sfen_from_bod, "csa": sfen_from_csa}[fmt](text)
    return Position.from_sfen(sfen, zone=zone, tsume_hands=tsume_hands or rest)


# -- USI -------------------------------------------------------------------------------------
def position_from_usi(command: str, zone: int | None = None,
                      tsume_hands: bool = False) -> Position:
    """A USI ``position`` command (``position`` itself optional): ``sfen SFEN [moves
    ...]``, ``startpos [moves ...]`` or a bare SFEN, the moves played with our rules
    (TsumeError naming the first illegal one).

    >>> position_from_usi("position startpos moves 7g7f 3c3d").sfen()
    'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1'
    """
    words = command.split()
    if words[:1] == ["position"]:
        words = words[1:]
    if not words:
        raise TsumeError("position: nothing after 'position'")
    cut = words.index("moves") if "moves" in words else len(words)
    head, moves = words[:cut], words[cut + 1:]
    if head == ["startpos"]:
        sfen = STARTPOS
    elif head[:1] == ["sfen"]:
        sfen = " ".join(head[1:])
    else:
        sfen = " ".join(head)
    pos = Position.from_sfen(sfen, zone=zone, tsume_hands=tsume_hands)
    for i, text in enumerate(moves):
        try:
            pos.push(pos.parse_usi(text))
        except TsumeError as exc:
            raise TsumeError(f"move {i + 1} ({text}): {exc}") from None
    return Position.from_sfen(pos.sfen(), zone=pos.geo.zone)  # a fresh root, no move stack


def _usi_file(text: str, zone, tsume_hands) -> Position:
    lines = [(i, ln.strip()) for i, ln in enumerate(text.splitlines(), 1)
             if ln.strip() and not ln.lstrip().startswith("#")]
    if len(lines) != 1:
        raise LineError(lines[1][0] if lines else None,
                         "expected one USI position line or SFEN" if lines else "empty file")
    number, line = lines[0]
    try:
        return position_from_usi(line, zone=zone, tsume_hands=tsume_hands)
    except TsumeError as exc:
        raise LineError(number, str(exc)) from None


# -- KIF/BOD board diagrams --------------------------------------------------------------------
def sfen_from_bod(text: str) -> tuple[str, bool]:
    """SFEN of a KIF/BOD board diagram and whether the defender's hand is ``残り全部``.
    Lines other than the hands, the board and the side to move (KIF headers, moves,
    comments) are skipped: the problem is the diagram. What would make it another problem
    than the file's is refused: a second diagram or hand line, a rank missing by the
    labels, a hand line missing (a tsume's defender holds ``残り全部`` only when it says
    so).

    >>> sfen_from_bod("後手の持駒:なし\\n+------+\\n| ・v玉|一\\n| 金 ・|二\\n+------+\\n"
    ...               "先手の持ち駒：金\\n  後手番")
    ('1k/G1 w G 1', False)
    """
    rows, hands, turn, rest, frame, files = [], {}, None, None, 0, None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip(" 　\t")
        hand = _BOD_HAND.match(line)
        if hand:
            color = "b" if hand.group(1) in ("先手", "下手") else "w"
            if color in hands or (rest and rest[0] == color):
                raise LineError(number, "a second hand line for this side: one position a file")
            value = hand.group(2).strip(" 　")
            if value == _ALL_REST:
                rest = (color, number)
                hands[color] = {}
            else:
                hands[color] = _bod_hand(value, number)
        elif line.startswith("+") and line.strip("+-  ") == "":
            frame += 1
            if frame > 2:
                raise LineError(number, "a second board diagram: one position a file")
        elif frame == 1 and line.startswith("|"):
            rows.append(_bod_row(line, number, len(rows) + 1))
        elif frame == 0 and line and all(ch in WIDE_DIGITS + " 　" for ch in line):
            files = (number, sum(ch in WIDE_DIGITS for ch in line))
        elif who := _BOD_TURN.match(line):  # (ours adds a board note after it)
            side = "w" if (who.group(1) or who.group(2)) in ("後手", "上手") else "b"
            if turn is not None and side != turn:
                raise LineError(number, "a second side to move: one position a file")
            turn = side
    if frame < 2 or not rows:
        raise LineError(None, "no board diagram (a frame of +---+ lines around | rows)")
    width = len(rows[0][1])
    for number, cells in rows:
        if len(cells) != width:
            raise LineError(number, f"{len(cells)} squares on this rank, {width} on the first")
    if files is not None and files[1] != width:
        raise LineError(files[0], f"{files[1]} file numbers over a board {width} squares wide")
    for color, key in (("w", "後手の持駒"), ("b", "先手の持駒")):
        if color not in hands:
            raise LineError(None, f"no {key} line (the pieces, なし, or {_ALL_REST} for a "
                                   f"tsume's defender)")
    turn = turn or "b"
    if rest is not None and rest[0] == turn:
        raise LineError(rest[1], f"{_ALL_REST} is for the defender's hand, not the side to move")
    board = "/".join(_sfen_rank(cells) for _, cells in rows)
    hand_text = _sfen_hand(hands["b"], upper=True) + _sfen_hand(hands["w"], upper=False)
    return f"{board} {turn} {hand_text or '-'} 1", rest is not None


# a hand line (``先手の持駒：飛 歩二``), as KIF writers spell it; a side-to-move line
_BOD_HAND = re.compile(r"(先手|下手|後手|上手)の持ち?駒[：:](.*)$")
_BOD_TURN = re.compile(r"(?:(先手|下手|後手|上手)番|手番[：:](先手|後手))(?:[ 　\t(（].*)?$")


def _bod_row(line: str, number: int, rank: int) -> tuple[int, list]:
    """The squares of the diagram's ``rank``-th row ``| ・v玉 歩|一``, files from the
    highest down; its label, when it has one, must name that rank."""
    inner, _, label = line[1:].partition("|")
    label = label.strip(" 　")
    if label and label != KANJI_DIGITS[rank:rank + 1]:
        raise LineError(number, f"rank {label} where rank {KANJI_DIGITS[rank:rank + 1] or rank} "
                                 f"comes (a rank missing or given twice)")
    cells, white = [], False
    for ch in inner:
        if ch in " 　":
            continue
        if ch == "v":
            white = True
            continue
        if ch == "・":
            cells.append(None)
        elif ch in _GLYPH_SFEN:
            piece = _GLYPH_SFEN[ch]
            cells.append(piece.lower() if white else piece)
        else:
            raise LineError(number, f"unknown piece {ch!r} in the board")
        white = False
    return number, cells


def _bod_hand(value: str, number: int) -> dict:
    """``飛　金二　歩十八`` (or なし) -> {"R": 1, "G": 2, "P": 18}."""
    hand = {}
    if value in ("", "なし"):
        return hand
    for item in re.split(r"[ 　、,]+", value):
        if not item:
            continue
        piece = _GLYPH_SFEN.get(item[0])
        if piece is None or piece.startswith("+") or piece == "K":
            raise LineError(number, f"not a piece that can be held: {item!r}")
        try:
            count = _kanji_number(item[1:]) if item[1:] else 1
        except ValueError:
            raise LineError(number, f"bad count in {item!r}") from None
        hand[piece] = hand.get(piece, 0) + count
    return hand


def _kanji_number(text: str) -> int:
    """一..九 and 十..十八 (as KIF counts pieces in hand), or ASCII digits.

    >>> _kanji_number("十八"), _kanji_number("三"), _kanji_number("12")
    (18, 3, 12)
    """
    if text.isdigit():
        return int(text)
    tens, _, ones = text.rpartition("十")
    if "十" not in text:
        tens, ones = None, text
    value = 0
    if tens is not None:
        value = 10 * (1 if tens == "" else KANJI_DIGITS.index(tens))
    if ones:
        if len(ones) != 1 or ones not in KANJI_DIGITS[1:]:
            raise ValueError(text)
        value += KANJI_DIGITS.index(ones)
    if not value:
        raise ValueError(text)
    return value


def _sfen_rank(cells: list) -> str:
    out, empty = "", 0
    for piece in cells:
        if piece is None:
            empty += 1
            continue
        out += (str(empty) if empty else "") + piece
        empty = 0
    return out + (str(empty) if empty else "")


def _sfen_hand(hand: dict, upper: bool) -> str:
    out = ""
    for letter in "RBGSNLP":
        n = hand.get(letter, 0)
        if n:
            out += (str(n) if n > 1 else "") + (letter if upper else letter.lower())
    return out


# -- CSA -----------------------------------------------------------------------------------------
def sfen_from_csa(text: str) -> tuple[str, bool]:
    """SFEN of a CSA position (``PI`` or all of ``P1``..``P9``, then ``P+``/``P-`` with
    ``00AL``, then ``+`` or ``-`` to move; statements one a line or comma-separated);
    moves, times and comments after it are skipped. The second value is always False:
    ``00AL`` is resolved here, into the named side's hand.

    >>> sfen_from_csa("P-21OU\\nP+23KI00KI\\n+")
    ('7k1/9/7G1/9/9/9/9/9/9 b G 1', False)
    """
    board, hands, turn, all_rest = {}, {"b": {}, "w": {}}, None, None
    base = None  # "PI" or the P1..P9 lines, each once: one diagram a file
    ranks_given: set[int] = set()
    placed = False  # a P+/P- line has put a piece on the board
    for number, raw in enumerate(text.splitlines(), 1):
        raw = raw.rstrip("\r\n ")
        if not raw or raw[0] in "'V$NT%" or turn is not None:
            continue  # comments, headers; after the side to move, the game's moves
        for line in raw.split(","):
            if turn is not None:
                break
            line = line.rstrip()
            if line in ("+", "-"):
                turn = "b" if line == "+" else "w"
            elif line.startswith("PI") or re.match(r"P[1-9]", line):
                here = "PI" if line.startswith("PI") else "ranks"
                rank = None if here == "PI" else int(line[1])
                if rank in ranks_given:
                    raise LineError(number, f"P{rank} given twice: one position a file")
                if base not in (None, here) or here == "PI" and base:
                    raise LineError(number, f"{line[:2]} after another diagram: one position a file")
                if placed:
                    raise LineError(number, f"{line[:2]} after a P+/P- line put a piece on the "
                                             f"board: the diagram comes first")
                base = here
                if here == "PI":
                    board = _csa_startpos(line, number)
                    continue
                ranks_given.add(rank)
                for i, cell in enumerate(_csa_cells(line[2:], number)):
                    board[(rank, i)] = cell
            elif line[:2] in ("P+", "P-"):
                side = "b" if line[1] == "+" else "w"
                for file_rank, piece in _csa_pieces(line[2:], number):
                    if file_rank == "00" and piece == "AL":
                        all_rest = side
                    elif file_rank == "00":
                        hands[side][piece] = hands[side].get(piece, 0) + 1
                    else:
                        square = (int(file_rank[1]), 9 - int(file_rank[0]))
                        if board.get(square) is not None:
                            raise LineError(number, f"square {file_rank} already holds a piece")
                        board[square] = piece if side == "b" else piece.lower()
                        placed = True
            else:
                raise LineError(number, f"not a CSA position line: {line[:20]!r}")
    if base is None and not placed and not any(hands.values()) and all_rest is None:
        raise LineError(None, "no position (PI, P1..P9 or P+/P- lines)")
    if turn is None:
        raise LineError(None, "no side to move (a line '+' or '-')")
    if base == "ranks" and len(ranks_given) < 9:
        missing = " ".join(f"P{r}" for r in range(1, 10) if r not in ranks_given)
        raise LineError(None, f"no {missing}: a diagram by ranks gives all nine")
    ranks = [[board.get((r, f)) for f in range(9)] for r in range(1, 10)]
    if all_rest is not None:
        _give_rest(ranks, hands, all_rest)
    hand_text = _sfen_hand(hands["b"], upper=True) + _sfen_hand(hands["w"], upper=False)
    return f"{'/'.join(_sfen_rank(r) for r in ranks)} {turn} {hand_text or '-'} 1", False


def _csa_cells(text: str, number: int) -> list:
    """The nine 3-character squares of a ``P1``..``P9`` line, files 9 to 1 (the last
    one's trailing space may be cut)."""
    if len(text) < 26:
        raise LineError(number, "fewer than nine squares (three characters each)")
    text = text.ljust(27)
    cells = []
    for i in range(0, 27, 3):
        cell = text[i:i + 3]
        if cell.strip() == "*":
            cells.append(None)
        elif cell[0] in "+-" and cell[1:] in _CSA_SFEN:
            piece = _CSA_SFEN[cell[1:]]
            cells.append(piece if cell[0] == "+" else piece.lower())
        else:
            raise LineError(number, f"bad square {cell!r} (file {9 - i // 3})")
    if text[27:].strip():
        raise LineError(number, "more than nine squares")
    return cells


def _csa_pieces(text: str, number: int) -> list:
    """``P+`` / ``P-`` lines: 4-character items, square (``00`` for the hand) and piece."""
    if len(text) % 4:
        raise LineError(number, "pieces must come as 4 characters each (square, piece)")
    out = []
    for i in range(0, len(text), 4):
        file_rank, piece = text[i:i + 2], text[i + 2:i + 4]
        if not file_rank.isdigit() or (file_rank != "00" and "0" in file_rank):
            raise LineError(number, f"bad square {file_rank!r}")
        if file_rank == "00" and piece == "AL":
            out.append((file_rank, piece))
        elif piece not in _CSA_SFEN or (file_rank == "00" and piece in ("OU", "TO", "NY", "NK", "NG", "UM", "RY")):
            raise LineError(number, f"bad piece {piece!r}")
        else:
            out.append((file_rank, _CSA_SFEN[piece]))
    return out


def _csa_startpos(line: str, number: int) -> dict:
    """``PI`` with optional handicap removals (``PI82HI22KA``)."""
    rows = STARTPOS.split()[0].split("/")
    board = {}
    for r, row in enumerate(rows, 1):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(r, f)] = ch
                f += 1
    for file_rank, piece in _csa_pieces(line[2:], number):
        square = (int(file_rank[1]), 9 - int(file_rank[0])) if file_rank != "00" else None
        if square is None or board.get(square, "").upper() != piece:
            raise LineError(number, f"PI removes {file_rank}{piece}, which is not there")
        del board[square]
    return board


def _give_rest(ranks, hands, side) -> None:
    """``00AL``: every piece of the 40-piece set not on the board or in a hand goes to
    ``side``'s hand (kings excepted)."""
    used = dict.fromkeys(_STANDARD_HAND, 0)
    for row in ranks:
        for piece in row:
            if piece is not None and piece[-1].upper() != "K":
                used[piece[-1].upper()] += 1
    for hand in hands.values():
        for letter, n in hand.items():
            used[letter] += n
    for letter, total in _STANDARD_HAND.items():
        if total - used[letter] < 0:
            raise LineError(None, f"00AL: more {letter} pieces than the standard set holds")
        if total > used[letter]:
            hands[side][letter] = hands[side].get(letter, 0) + total - used[letter]


# -- KIF output ----------------------------------------------------------------------------------
def kif_record(pos: Position, usi_moves: list[str], title: str = "") -> str:
    """A KIF record of ``usi_moves`` played from ``pos`` (each checked legal): the start
    diagram (BOD), one numbered move a line, then ``詰み`` when the line ends in mate.
    GUIs (and python-shogi) import it.

    >>> p = Position.from_sfen("7k1/9/7G1/9/9/9/9/9/9 b G 1")
    >>> print("\\n".join(kif_record(p, ["G*2b"]).splitlines()[-3:]))
       1 ２二金打
       2 詰み
    まで1手で詰み
    """
    lines = ["# ---- tsumeqbf ----"]
    if title:
        lines.append(f"表題：{title}")
    board = diagram(pos).splitlines()[:-1]  # the last line is our own board/zone note
    lines += board
    lines.append("後手番" if pos.turn != BLACK else "先手番")
    lines.append("手数----指手---------消費時間--")
    p, previous = pos.copy(), None
    for i, text in enumerate(usi_moves, 1):
        m = p.parse_usi(text)
        lines.append(f"{i:4d} {kif_move(p, m, previous)}")
        previous = move_to(m)
        p.push(m)
    if usi_moves and p.is_checkmate():
        lines.append(f"{len(usi_moves) + 1:4d} 詰み")
        lines.append(f"まで{len(usi_moves)}手で詰み")
    return "\n".join(lines) + "\n"


def kif_move(pos: Position, m: int, previous_to: int | None = None) -> str:
    """KIF text of a move of ``pos``: ``７六歩(77)``, ``同　銀(22)``, ``同　成銀(34)``,
    ``２二金打``, ``３三角成(88)``, ``３三角不成(88)``. The origin is always given, as KIF
    writes it, and 同 is always followed by an ideographic space, whatever the piece's
    name: that is how Kifu for Windows writes it and what KIF readers look for."""
    geo = pos.geo
    to = move_to(m)
    dest = "同　" if previous_to == to else square_japanese(geo, to)
    if is_drop(m):
        return f"{dest}{KIND_KANJI[drop_kind(m)]}打"
    frm = move_from(m)
    name = KIND_KANJI[pos.board[frm] & 15]
    return f"{dest}{name}{promotion_suffix(pos, m)}({geo.file_of(frm)}{geo.rank_of(frm)})"


def write_kif(path: str, pos: Position, usi_moves: list[str], title: str = "") -> None:
    """Write :func:`kif_record` to ``path`` in UTF-8 (a ``.kif`` path gets Shift_JIS, as
    the format's Windows tools expect; ``.kifu`` is the UTF-8 name), or to standard output
    for ``-``."""
    if path == "-":
        sys.stdout.write(kif_record(pos, usi_moves, title))
        sys.stdout.flush()
        return
    encoding = "cp932" if path.lower().endswith(".kif") else "utf-8"
    try:
        with open(path, "w", encoding=encoding, newline="\r\n") as fh:
            fh.write(kif_record(pos, usi_moves, title))
    except OSError as exc:
        raise TsumeError(f"cannot write {path}: {exc.strerror or exc}") from None
