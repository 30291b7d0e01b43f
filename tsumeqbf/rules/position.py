"""The position: board, hands, side to move, make/undo, Zobrist hash and legal moves.

Everything follows ``RULES.md`` (shared spec): own-king safety, optional and forced
promotion, dead-piece rules for moves and drops, nifu, uchifuzume, optional attacker king.

>>> p = Position.from_sfen("2k/3/1GP b - 1", zone=2)
>>> sorted(p.usi(m) for m in p.checks())
['1c1b', '1c1b+', '2c1b', '2c2b']
"""

from __future__ import annotations

import random

from .errors import InvalidQuestion, SfenError, TsumeError
from .geometry import Geometry, default_zone, geometry
from .moves import DROP_BASE, board_move, drop_move
from .pieces import (BASE_KIND, BLACK, HAND_KINDS, KING, KNIGHT, LANCE, LETTER_KIND,
                     PAWN, PROMOTABLE, PROMOTED, SFEN_HAND_ORDER, SFEN_LETTER, STANDARD_SET,
                     UNPROMOTED, WHITE, piece_code, piece_sfen)

_rng = random.Random(0x75_6D_65_71_62_66)
#: Zobrist keys: _ZB[code][sq] for pieces on squares, _ZH[colour][kind] added once per
#: piece in hand (additive, so counts need no bound), _ZT for gote to move
_ZB = [[_rng.getrandbits(64) for _ in range(81)] for _ in range(32)]
_ZH = [[_rng.getrandbits(64) for _ in range(8)] for _ in range(2)]
_ZT = _rng.getrandbits(64)
_MASK = (1 << 64) - 1

#: code of the promoted piece, indexed by code (0 where the piece cannot promote)
_PROMOTE_CODE = [0] * 32
for _c in (BLACK, WHITE):
    for _k, _pk in PROMOTED.items():
        _PROMOTE_CODE[piece_code(_k, _c)] = piece_code(_pk, _c)
#: kind that goes to the captor's hand, indexed by the captured code
_HAND_KIND = [BASE_KIND.get(code & 15, 0) for code in range(32)]
_PROMOTABLE_CODE = [bool(code & 15 in PROMOTABLE) for code in range(32)]


class Position:
    """A mutable position with ``push``/``pop``; copy it before handing it to another owner."""

    __slots__ = ("geo", "board", "hands", "turn", "kings", "no_hands", "_zb", "_zh", "_stack")

    def __init__(self, geo: Geometry, board: list[int], hands, turn: int, no_hands: bool = False):
        self.geo = geo
        #: the no-hands rules of RULES.md: a captured piece leaves the game, nobody drops
        self.no_hands = no_hands
        if no_hands and any(hands[c][k] for c in (0, 1) for k in HAND_KINDS):
            raise InvalidQuestion("the no-hands rules take a position without pieces in hand")
        self.board = board
        #: hands[colour][kind] for kind in 1..7 (index 0 unused)
        self.hands = [list(hands[0]), list(hands[1])]
        self.turn = turn
        self.kings = [-1, -1]
        zb = 0
        for s, code in enumerate(board):
            if code:
                zb ^= _ZB[code][s]
                if code & 15 == KING:
                    color = code >> 4
                    if self.kings[color] >= 0:
                        raise SfenError(f"{('sente', 'gote')[color]} has more than one king")
                    self.kings[color] = s
        self._zb = zb
        self._zh = sum(_ZH[c][k] * self.hands[c][k] for c in (0, 1) for k in HAND_KINDS) & _MASK
        self._stack = []

    # -- construction --------------------------------------------------------------------
    @classmethod
    def from_sfen(cls, sfen: str, zone: int | None = None, tsume_hands: bool = False,
                  no_hands: bool = False) -> "Position":
        """Parse a (generalized W x H) SFEN. ``zone`` defaults to ``default_zone(H)``.

        ``no_hands``: the no-hands rules (captured pieces leave the game; a position with
        pieces in hand is refused).

        ``tsume_hands``: the tsume-shogi convention, standard 9x9 only: the defender
        (the side not to move) holds every piece of the 40-piece set that is neither on
        the board nor in the attacker's hand.
        """
        if not isinstance(sfen, str):
            raise TypeError(f"an SFEN is a string, not {type(sfen).__name__}")
        if zone is not None and (isinstance(zone, bool) or not isinstance(zone, int)):
            raise TypeError(f"a promotion zone is an int (or None), not {zone!r}")
        fields = sfen.strip().split()
        if len(fields) not in (3, 4):
            raise SfenError(f"SFEN needs 'board side hands [move]', got {sfen.strip()!r}")
        rows = fields[0].split("/")
        height = len(rows)
        parsed_rows = [_parse_rank(row, i + 1) for i, row in enumerate(rows)]
        width = len(parsed_rows[0])
        for i, row in enumerate(parsed_rows):
            if len(row) != width:
                raise SfenError(f"SFEN rank {i + 1} has {len(row)} files, rank 1 has {width}")
        if not (1 <= width <= 9 and 1 <= height <= 9):
            raise SfenError(f"board {width}x{height} is outside 1x1..9x9")
        if fields[1] not in ("b", "w"):
            raise SfenError(f"side to move must be 'b' or 'w', got {fields[1]!r}")
        if len(fields) == 4 and not (fields[3].isascii() and fields[3].isdigit()):
            raise SfenError(f"move number must be a number, got {fields[3]!r}")
        if zone is None:
            zone = default_zone(height)
        if not 1 <= zone <= height:
            raise SfenError(f"promotion zone depth {zone} is outside 1..{height}")
        geo = geometry(width, height, zone)
        board = [code for row in parsed_rows for code in row]
        hands = _parse_hands(fields[2])
        turn = BLACK if fields[1] == "b" else WHITE
        if tsume_hands:
            _fill_defender_hand(board, hands, turn, width, height)
        return cls(geo, board, hands, turn, no_hands)

    def with_no_hands(self) -> "Position":
        """This position under the no-hands rules (InvalidQuestion if a hand holds pieces).

        >>> Position.from_sfen("2k/3/1GP b - 1", zone=2).with_no_hands().no_hands
        True
        """
        return Position(self.geo, self.board[:], self.hands, self.turn, no_hands=True)

    def sfen(self, move_number: int = 1) -> str:
        g = self.geo
        rows = []
        for r in range(g.height):
            text, empty = "", 0
            for code in self.board[r * g.width:(r + 1) * g.width]:
                if code:
                    text += (str(empty) if empty else "") + piece_sfen(code)
                    empty = 0
                else:
                    empty += 1
            rows.append(text + (str(empty) if empty else ""))
        hands = ""
        for color in (BLACK, WHITE):
            for kind in SFEN_HAND_ORDER:
                n = self.hands[color][kind]
                if n:
                    letter = SFEN_LETTER[kind] if color == BLACK else SFEN_LETTER[kind].lower()
                    hands += (str(n) if n > 1 else "") + letter
        return f"{'/'.join(rows)} {'bw'[self.turn]} {hands or '-'} {move_number}"

    def copy(self) -> "Position":
        p = Position.__new__(Position)
        p.geo, p.board, p.hands, p.turn = self.geo, self.board[:], [self.hands[0][:], self.hands[1][:]], self.turn
        p.kings, p._zb, p._zh, p._stack = self.kings[:], self._zb, self._zh, []
        p.no_hands = self.no_hands
        return p

    def __repr__(self) -> str:
        rules = ", no_hands=True" if self.no_hands else ""
        return f"Position({self.sfen()!r}, zone={self.geo.zone}{rules})"

    def __eq__(self, other) -> bool:
        return (isinstance(other, Position) and self.geo is other.geo and self.turn == other.turn
                and self.board == other.board and self.hands == other.hands
                and self.no_hands == other.no_hands)

    __hash__ = None  # mutable; use .key

    # -- hashing -------------------------------------------------------------------------
    @property
    def key(self) -> int:
        """64-bit Zobrist hash of board, hands and side to move (incremental)."""
        return self._zb ^ self._zh ^ (_ZT if self.turn else 0)

    @property
    def board_key(self) -> int:
        """Zobrist hash of board and side to move only, for hand-dominance tables."""
        return self._zb ^ (_ZT if self.turn else 0)

    def exact_key(self) -> tuple:
        """Collision-free key: the full state as a tuple (slower than ``key``)."""
        return (self.turn, tuple(self.board), tuple(self.hands[0]), tuple(self.hands[1]))

    # -- make / undo ---------------------------------------------------------------------
    def push(self, m: int) -> None:
        """Play move ``m`` (assumed legal). ``pop`` undoes it."""
        to = m & 127
        frm = (m >> 7) & 127
        c = self.turn
        b = self.board
        self._stack.append((m, b[to], self._zb, self._zh))
        if frm >= DROP_BASE:
            kind = frm - DROP_BASE
            code = kind | c << 4
            self.hands[c][kind] -= 1
            self._zh = (self._zh - _ZH[c][kind]) & _MASK
            b[to] = code
            self._zb ^= _ZB[code][to]
        else:
            code = b[frm]
            captured = b[to]
            zb = self._zb ^ _ZB[code][frm]
            if captured:
                hk = _HAND_KIND[captured]
                if not self.no_hands:
                    self.hands[c][hk] += 1
                    self._zh = (self._zh + _ZH[c][hk]) & _MASK
                zb ^= _ZB[captured][to]
                if hk == KING:
                    self.kings[c ^ 1] = -1
            if m >> 14:
                code = _PROMOTE_CODE[code]
            b[frm] = 0
            b[to] = code
            self._zb = zb ^ _ZB[code][to]
            if code & 15 == KING:
                self.kings[c] = to
        self.turn = c ^ 1

    def key_after(self, m: int) -> tuple[int, int, int, int]:
        """(key, board_key, kind, change) of the position after move ``m`` without
        playing it: the mover's hand of ``kind`` changes by ``change`` (a drop -1, a
        capture +1, otherwise 0 and 0). The keys equal ``push(m)`` then ``key`` and
        ``board_key``."""
        to = m & 127
        frm = (m >> 7) & 127
        c = self.turn
        zh = self._zh
        if frm >= DROP_BASE:
            kind, change = frm - DROP_BASE, -1
            zh = (zh - _ZH[c][kind]) & _MASK
            zb = self._zb ^ _ZB[kind | c << 4][to]
        else:
            b = self.board
            code = b[frm]
            captured = b[to]
            zb = self._zb ^ _ZB[code][frm]
            kind = change = 0
            if captured:
                if not self.no_hands:
                    kind, change = _HAND_KIND[captured], 1
                    zh = (zh + _ZH[c][kind]) & _MASK
                zb ^= _ZB[captured][to]
            if m >> 14:
                code = _PROMOTE_CODE[code]
            zb ^= _ZB[code][to]
        zt = 0 if c else _ZT  # the side to move after m is c ^ 1
        return zb ^ zh ^ zt, zb ^ zt, kind, change

    def pop(self) -> int:
        """Undo the last ``push`` and return its move."""
        m, captured, self._zb, self._zh = self._stack.pop()
        c = self.turn ^ 1
        self.turn = c
        to = m & 127
        frm = (m >> 7) & 127
        b = self.board
        if frm >= DROP_BASE:
            self.hands[c][frm - DROP_BASE] += 1
            b[to] = 0
        else:
            code = b[to]
            if m >> 14:
                code = piece_code(UNPROMOTED[code & 15], c)
            b[frm] = code
            b[to] = captured
            if captured:
                hk = _HAND_KIND[captured]
                if not self.no_hands:
                    self.hands[c][hk] -= 1
                if hk == KING:
                    self.kings[c ^ 1] = to
            if code & 15 == KING:
                self.kings[c] = frm
        return m

    @property
    def move_stack(self) -> list[int]:
        return [entry[0] for entry in self._stack]

    # -- attacks -------------------------------------------------------------------------
    def is_attacked(self, s: int, by: int) -> bool:
        """Whether any piece of colour ``by`` attacks square ``s``."""
        b = self.board
        for first, near, rest, far in self.geo.scan[by][s]:
            code = b[first]
            if code:
                if code in near:
                    return True
            else:
                for t in rest:
                    code = b[t]
                    if code:
                        if code in far:
                            return True
                        break
        knight = KNIGHT | by << 4
        for t in self.geo.knight_from[by][s]:
            if b[t] == knight:
                return True
        return False

    def attackers(self, s: int, by: int) -> list[int]:
        """Squares of the pieces of colour ``by`` that attack (can move to) square ``s``."""
        g = self.geo
        b = self.board
        near = g.near[by]
        far = g.far[by]
        out = []
        for d, ray in enumerate(g.ray8[s]):
            if not ray:
                continue
            code = b[ray[0]]
            if code:
                if code in near[d]:
                    out.append(ray[0])
                continue
            fd = far[d]
            for t in ray[1:]:
                code = b[t]
                if code:
                    if code in fd:
                        out.append(t)
                    break
        knight = KNIGHT | by << 4
        for t in g.knight_from[by][s]:
            if b[t] == knight:
                out.append(t)
        return out

    def in_check(self, color: int | None = None) -> bool:
        """Whether ``color`` (default: the side to move) has a king that is attacked."""
        if color is None:
            color = self.turn
        k = self.kings[color]
        return k >= 0 and self.is_attacked(k, color ^ 1)

    def _safe_after(self, frm: int, to: int, code: int, c: int) -> bool:
        """Whether colour c's king is unattacked after moving ``code`` from frm to to."""
        b = self.board
        captured = b[to]
        b[to] = code
        b[frm] = 0
        try:  # (a limit's or Ctrl-C's exception landing here must not leave the move on)
            k = to if code & 15 == KING else self.kings[c]
            return k < 0 or not self.is_attacked(k, c ^ 1)
        finally:
            b[frm] = code
            b[to] = captured

    # -- move generation -----------------------------------------------------------------
    def _targets(self, frm: int, code: int, c: int) -> list[int]:
        """The squares colour c's piece ``code`` on ``frm`` can move to, king safety aside:
        its steps onto squares c does not hold, and along each of its rays the empty
        squares up to and including the first of the opponent's pieces."""
        b = self.board
        targets = [t for t in self.geo.steps[code][frm] if not b[t] or b[t] >> 4 != c]
        for ray in self.geo.rays[code][frm]:
            for t in ray:
                x = b[t]
                if x:
                    if x >> 4 != c:
                        targets.append(t)
                    break
                targets.append(t)
        return targets

    def _append_board_move(self, out: list, frm: int, to: int, code: int, c: int) -> None:
        """Append (frm, to) with its promotion variants, obeying the forced-promotion rule."""
        if _PROMOTABLE_CODE[code]:
            g = self.geo
            kind = code & 15
            if g.in_zone[c][frm] or g.in_zone[c][to]:
                out.append(to | frm << 7 | 16384)
            if (kind == PAWN or kind == LANCE) and g.last_rank[c][to]:
                return
            if kind == KNIGHT and g.last_two[c][to]:
                return
        out.append(to | frm << 7)

    def _drop_allowed(self, kind: int, to: int, c: int, pawn_files: set[int] | None) -> bool:
        """Dead-square and nifu rules of a drop onto an empty square (not uchifuzume)."""
        g = self.geo
        if kind == PAWN:
            if g.last_rank[c][to] or (to % g.width) in pawn_files:
                return False
        elif kind == LANCE:
            return not g.last_rank[c][to]
        elif kind == KNIGHT:
            return not g.last_two[c][to]
        return True

    def _pawn_files(self, c: int) -> set[int]:
        """Files (as x = column index) holding an unpromoted pawn of colour c."""
        pawn = PAWN | c << 4
        w = self.geo.width
        return {s % w for s, code in enumerate(self.board) if code == pawn}

    def _is_uchifuzume(self, to: int, c: int) -> bool:
        """Whether dropping c's pawn on ``to`` checks and leaves the opponent no legal move."""
        k = self.kings[c ^ 1]
        if k < 0 or k not in self.geo.steps[PAWN | c << 4][to]:
            return False
        m = drop_move(PAWN, to)
        self.push(m)
        try:
            return not self._evasions(self.turn, first_only=True)
        finally:
            self.pop()

    def legal_moves(self) -> list[int]:
        """Every legal move of the side to move."""
        c = self.turn
        k = self.kings[c]
        if k >= 0 and self.is_attacked(k, c ^ 1):
            return self._evasions(c)
        g, b = self.geo, self.board
        out: list[int] = []
        line_k = g.line[k] if k >= 0 else None
        targets_of = self._targets
        for frm in g.squares:
            code = b[frm]
            if not code or code >> 4 != c:
                continue
            targets = targets_of(frm, code, c)
            # a non-king move can only expose the king along a line through its origin
            test = code & 15 == KING or (line_k is not None and line_k[frm] >= 0)
            for t in targets:
                if test and not self._safe_after(frm, t, code, c):
                    continue
                self._append_board_move(out, frm, t, code, c)
        out.extend(self._drops(c, [s for s in g.squares if not b[s]]))
        return out

    def _drops(self, c: int, squares) -> list[int]:
        """Legal drops of colour c onto the given empty squares (caller ensures king safety)."""
        hand = self.hands[c]
        kinds = [k for k in HAND_KINDS if hand[k]]
        if not kinds:
            return []
        pawn_files = self._pawn_files(c) if hand[PAWN] else None
        out = []
        for to in squares:
            for kind in kinds:
                if not self._drop_allowed(kind, to, c, pawn_files):
                    continue
                if kind == PAWN and self._is_uchifuzume(to, c):
                    continue
                out.append(to | (DROP_BASE + kind) << 7)
        return out

    def _evasions(self, c: int, first_only: bool = False) -> list[int]:
        """Legal moves of colour c while its king is in check."""
        g, b = self.geo, self.board
        k = self.kings[c]
        king = b[k]
        out: list[int] = []
        for t in g.steps[king][k]:
            x = b[t]
            if x and x >> 4 == c:
                continue
            if self._safe_after(k, t, king, c):
                out.append(t | k << 7)
                if first_only:
                    return out
        checkers = self.attackers(k, c ^ 1)
        if len(checkers) != 1:
            return out
        checker = checkers[0]
        blocks = g.between[k][checker]
        line_k = g.line[k]
        for t in blocks + (checker,):
            for frm in self.attackers(t, c):
                if frm == k:
                    continue
                code = b[frm]
                # capturing or blocking the only checker is safe unless the piece is pinned,
                # and only a piece on a line through the king can be pinned
                if line_k[frm] < 0 or self._safe_after(frm, t, code, c):
                    self._append_board_move(out, frm, t, code, c)
                    if first_only and out:
                        return out
        if blocks:
            # a drop between king and checker never exposes the king to anything new
            for m in self._drops(c, blocks):
                out.append(m)
                if first_only:
                    return out
        return out

    def checks(self) -> list[int]:
        """Legal moves of the side to move that give check to the opponent's king."""
        c = self.turn
        opp = c ^ 1
        ek = self.kings[opp]
        if ek < 0:
            return []
        g, b = self.geo, self.board
        k = self.kings[c]
        in_check = k >= 0 and self.is_attacked(k, opp)
        line_k = g.line[k] if k >= 0 else None
        line_ek = g.line[ek]
        check_from = g.check_from
        between_ek = g.between[ek]
        out: list[int] = []
        targets_of = self._targets
        for frm in g.squares:
            code = b[frm]
            if not code or code >> 4 != c:
                continue
            targets = targets_of(frm, code, c)
            discover = line_ek[frm] >= 0
            test_safety = in_check or code & 15 == KING or (line_k is not None and line_k[frm] >= 0)
            for t in targets:
                cands: list[int] = []
                self._append_board_move(cands, frm, t, code, c)
                for m in cands:
                    moved = _PROMOTE_CODE[code] if m >> 14 else code
                    if not discover and t not in check_from[moved][ek]:
                        continue
                    captured = b[t]
                    b[t] = moved
                    b[frm] = 0
                    try:  # (the board put back whatever exception lands in between)
                        ok = self.is_attacked(ek, c)
                        if ok and test_safety:
                            own = t if moved & 15 == KING else k
                            ok = own < 0 or not self.is_attacked(own, opp)
                    finally:
                        b[frm] = code
                        b[t] = captured
                    if ok:
                        out.append(m)
        hand = self.hands[c]
        kinds = [kd for kd in HAND_KINDS if hand[kd]]
        if kinds:
            pawn_files = self._pawn_files(c) if hand[PAWN] else None
            for kind in kinds:
                code = kind | c << 4
                for t in check_from[code][ek]:
                    if b[t] or not self._drop_allowed(kind, t, c, pawn_files):
                        continue
                    if any(b[x] for x in between_ek[t]):
                        continue
                    if in_check:
                        b[t] = code
                        try:
                            safe = not self.is_attacked(k, opp)
                        finally:
                            b[t] = 0
                        if not safe:
                            continue
                    if kind == PAWN and self._is_uchifuzume(t, c):
                        continue
                    out.append(t | (DROP_BASE + kind) << 7)
        return out

    def gives_check(self, m: int) -> bool:
        self.push(m)
        check = self.in_check()
        self.pop()
        return check

    def is_legal(self, m: int) -> bool:
        return m in self.legal_moves()

    def is_checkmate(self) -> bool:
        """The side to move is in check and has no legal move."""
        return self.in_check() and not self._evasions(self.turn, first_only=True)

    def has_legal_move(self) -> bool:
        c = self.turn
        if self.in_check():
            return bool(self._evasions(c, first_only=True))
        return bool(self.legal_moves())

    # -- questions -----------------------------------------------------------------------
    def validate_question(self) -> None:
        """Raise InvalidQuestion unless this is a valid mate question of RULES.md:
        the defender (side not to move) has exactly one king and is not in check."""
        defender = self.turn ^ 1
        if self.kings[defender] < 0:
            raise InvalidQuestion(f"the defender ({('sente', 'gote')[defender]}) has no king")
        if self.in_check(defender):
            raise InvalidQuestion("the side not to move is in check")

    # -- notation shortcuts --------------------------------------------------------------
    def usi(self, m: int) -> str:
        from .notation import move_to_usi
        return move_to_usi(self.geo, m)

    def parse_usi(self, text: str) -> int:
        from .notation import parse_usi_move
        return parse_usi_move(self, text)


def check_n(n) -> int:
    """``n`` when it is the ply count of a mate question (odd, at least 1), else
    TsumeError; engines and the encoder ask it before any work.

    >>> check_n(3)
    3
    """
    if not isinstance(n, int) or isinstance(n, bool) or n < 1 or n % 2 == 0:
        raise TsumeError(f"n must be an odd number >= 1, got {n!r}")
    return n


def _parse_rank(row: str, rank: int) -> list[int]:
    out: list[int] = []
    promoted = False
    for ch in row:
        if "0" <= ch <= "9":  # (str.isdigit takes '²' and '２' too)
            if promoted:
                raise SfenError(f"SFEN rank {rank}: '+' must precede a piece letter")
            if ch == "0":
                raise SfenError(f"SFEN rank {rank}: empty-square count 0")
            out.extend([0] * int(ch))
        elif ch == "+":
            if promoted:
                raise SfenError(f"SFEN rank {rank}: doubled '+'")
            promoted = True
        elif ch.upper() in LETTER_KIND:
            kind = LETTER_KIND[ch.upper()]
            if promoted:
                if kind not in PROMOTED:
                    raise SfenError(f"SFEN rank {rank}: piece {ch!r} cannot be promoted")
                kind = PROMOTED[kind]
                promoted = False
            out.append(piece_code(kind, BLACK if ch.isupper() else WHITE))
        else:
            raise SfenError(f"SFEN rank {rank}: unexpected character {ch!r}")
    if promoted:
        raise SfenError(f"SFEN rank {rank}: '+' at the end of the rank")
    if not out:
        raise SfenError(f"SFEN rank {rank} is empty")
    return out


def _parse_hands(text: str) -> list[list[int]]:
    hands = [[0] * 8, [0] * 8]
    if text == "-":
        return hands
    count = ""
    for ch in text:
        if "0" <= ch <= "9":  # (str.isdigit takes '²' and '２' too)
            count += ch
            continue
        kind = LETTER_KIND.get(ch.upper())
        if kind is None or kind == KING:
            raise SfenError(f"SFEN hand: unexpected character {ch!r}")
        n = int(count) if count else 1
        if n == 0:
            raise SfenError("SFEN hand: count 0")
        hands[BLACK if ch.isupper() else WHITE][kind] += n
        count = ""
    if count:
        raise SfenError("SFEN hand ends with a number")
    return hands


def _fill_defender_hand(board, hands, turn, width, height) -> None:
    if (width, height) != (9, 9):
        raise InvalidQuestion("the tsume-shogi hand convention is defined only for 9x9 boards")
    used = dict.fromkeys(STANDARD_SET, 0)
    for code in board:
        if code:
            used[BASE_KIND[code & 15]] += 1
    for color in (BLACK, WHITE):
        for kind in HAND_KINDS:
            used[kind] += hands[color][kind]
    defender = turn ^ 1
    for kind in HAND_KINDS:
        rest = STANDARD_SET[kind] - used[kind]
        if rest < 0:
            raise InvalidQuestion(
                f"more {SFEN_LETTER[kind]} pieces than the standard set holds; "
                "the tsume-shogi hand convention does not apply")
        hands[defender][kind] += rest

