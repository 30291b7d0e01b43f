"""An optional move-generator backend for standard 9x9 problems: cshogi's C++ generator.

``CshogiTsumeGame`` is a :class:`~tsumeqbf.dfpn.game.TsumeGame` whose move lists come from
cshogi (the attacker's legal checks, the defender's legal replies) while our own
``Position`` is kept in step for everything else: position keys, hands for dominance,
Nagai's heuristics and the printed answer. Only move generation, the bulk of a search's
time, moves to C++; moves stay in our encoding, so tables and answers are unchanged.

Which questions cshogi may answer, and why, is :mod:`tsumeqbf.rules.cshogi_board`'s.

>>> from tsumeqbf.rules import Position
>>> g = CshogiTsumeGame(Position.from_sfen("7k1/9/7G1/9/9/9/9/9/9 b G 1"))
>>> sorted(g.pos.usi(m) for m in g.moves())
['2c1b', '2c2b', '2c3b', 'G*1a', 'G*1b', 'G*2b', 'G*3a', 'G*3b']
"""

from __future__ import annotations

from ..rules import TsumeError, cshogi_board
from ..rules.notation import move_to_usi, parse_usi_move
from .game import TsumeGame, grouped_count

BACKENDS = ("rules", "cshogi")
_CSHOGI_DROP_BASE = 81  # cshogi numbers a drop's origin from 81 on (ours from DROP_BASE)


def load_cshogi():
    try:
        return cshogi_board.load()
    except TsumeError:
        raise TsumeError("backend 'cshogi' needs the cshogi package "
                         "(pip install cshogi)") from None


def check_supported(pos) -> None:
    """Refuse a question cshogi would answer under other rules than ours."""
    why = cshogi_board.unsupported(pos)
    if why:
        raise TsumeError(f"backend 'cshogi': {why}")


class CshogiTsumeGame(TsumeGame):
    """TsumeGame with cshogi's move generator; see the module docstring."""

    def __init__(self, pos):
        check_supported(pos)
        super().__init__(pos)
        self._cs = load_cshogi()
        self.board = self._cs.Board(pos.sfen())
        self._ours = {}    # cshogi move (32-bit) -> our move
        self._theirs = {}  # our move -> cshogi move16 (position-independent)

    def _convert(self, cm: int) -> int:
        cs = self._cs
        m = parse_usi_move(self.pos, cs.move_to_usi(cm), check_legal=False)
        self._ours[cm] = m
        self._theirs[m] = cs.move16(cm)
        return m

    def moves(self) -> list:
        b = self.board
        if self.pos.turn == self.attacker:
            # cshogi's check generator is pseudo-legal: keep the legal ones
            found = [cm for cm in b.check_moves if b.pseudo_legal_move_is_legal(cm)]
        else:
            found = b.legal_moves
        ours = self._ours
        return [ours[cm] if cm in ours else self._convert(cm) for cm in found]

    def reply_count(self, group_drops: bool = True, group_interpositions: bool = False) -> int:
        """:meth:`TsumeGame.reply_count` on cshogi's own move integers, not converted to
        ours: cshogi lays a move out as we do (destination in bits 0-6, origin in bits
        7-13) but numbers a drop's origin from 81 on."""
        if self.pos.turn == self.attacker:
            return super().reply_count(group_drops, group_interpositions)
        return _cshogi_count(self.board.legal_moves, group_drops, group_interpositions)

    def reply_count_after(self, m, group_drops: bool = True,
                          group_interpositions: bool = False) -> int:
        """:meth:`reply_count` after the attacker's move ``m``: only cshogi's board is
        moved (our Position is not needed to list replies)."""
        theirs = self._theirs.get(m)
        if theirs is None or self.pos.turn != self.attacker:
            return super().reply_count_after(m, group_drops, group_interpositions)
        b = self.board
        b.push_move16(theirs)
        try:
            return _cshogi_count(b.legal_moves, group_drops, group_interpositions)
        finally:
            b.pop()

    def mate_in_1(self):
        """:meth:`TsumeGame.mate_in_1` on cshogi's board: the mate probes ask it of every
        new node, so the checks are tried as cshogi's integers (filtered as in
        :meth:`moves`, so pawn-drop mates stay out) and only a mate found is converted."""
        b = self.board
        for cm in b.check_moves:
            if b.pseudo_legal_move_is_legal(cm):
                b.push(cm)
                over = b.is_game_over()  # no legal reply
                b.pop()
                if over:
                    ours = self._ours.get(cm)
                    return self._convert(cm) if ours is None else ours
        return None

    def play(self, m) -> None:
        theirs = self._theirs.get(m)
        if theirs is None:  # a move not yet seen in a list from this game
            self.board.push_usi(move_to_usi(self.pos.geo, m))
        else:
            self.board.push_move16(theirs)
        self.pos.push(m)

    def undo(self) -> None:
        self.pos.pop()
        self.board.pop()

    def clone(self):
        twin = super().clone()  # an independent Position at the current node
        twin._cs, twin._ours, twin._theirs = self._cs, self._ours, self._theirs
        twin.board = self._cs.Board(self.pos.sfen())
        return twin


def _cshogi_count(moves, group_drops: bool, group_interpositions: bool) -> int:
    """Replies counted as :meth:`TsumeGame.reply_count` counts them, on cshogi's 32-bit
    moves: bits 16-19 hold the moving piece's type (0 for a drop, 8 the king) and bits
    20-23 the captured one's, so an interposition is a move with neither."""
    if group_interpositions:
        rest = sum(1 for cm in moves if (cm >> 16) & 15 == 8 or (cm >> 20) & 15)
        return rest + (rest < len(moves))
    return grouped_count(moves, group_drops, _CSHOGI_DROP_BASE)


def make_game(pos, backend: str = "rules") -> TsumeGame:
    """The unbounded solver's game on ``pos`` with the named move generator."""
    if backend == "rules":
        return TsumeGame(pos)
    if backend == "cshogi":
        return CshogiTsumeGame(pos)
    raise TsumeError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
