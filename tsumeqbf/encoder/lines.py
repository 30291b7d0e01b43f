"""Candidate moves from the positions that lines of play reach, enumerated by the rules
engine: the candidate lists and states of the encoding ``enumerated``.

``compact`` lists a ply's candidates from a :class:`~.reach.Reach`, the pieces any earlier
candidate could bring to each square, which is geometry over a union: on the YaneuraOu
mate-in-5 samples it offers about 3,000 moves at each of plies 5 and 6, where the positions
that legal lines reach have about 400 and 600 distinct legal moves. Here the positions
themselves are enumerated ply by ply (the attacker's legal checks, the defender's legal
replies, transpositions merged) while there are at most ``cap`` of them. A ply offers the
legal moves of its positions; the state after it may hold what those positions hold and
what any offered move brings (a move's legality is decided on the state after it, also in
a position where it is not legal, so that state must be right too). After the first ply
whose positions would be more than ``cap``, the plies go on by reach, as in ``compact``.

On standard 9x9 questions cshogi's C++ generator lists the moves (the same lists as our
rules engine, which ``test_cshogi_lists_the_same_plies_as_the_rules_engine`` checks, in a
quarter of the time); positions are then SFEN texts set on one cshogi board.

The formula still decides every move's legality with its own circuits; what the rules
engine decides is only which moves are offered. A legal move the engine failed to list
would be missing from the formula too, so the agreement tests keep ``compact``, whose lists
come from geometry alone, beside it.

>>> from tsumeqbf.rules import Position
>>> plies = enumerate_plies(Position.from_sfen("2k/3/1GP b - 1", zone=2), 3, 100)
>>> [len(cands) for cands, _ in plies]
[4, 2, 4, 10]
"""

from __future__ import annotations

from ..limits import check_budget
from ..rules import TsumeError, cshogi_board
from ..rules.moves import drop_kind, is_drop, is_promotion, move_from, move_to
from ..rules.pieces import PROMOTED, piece_code
from ..rules.position import Position
from .reach import Cand, Reach, advance, piece_totals


def enumerate_plies(pos: Position, n: int, cap: int,
                    mates_last: bool = False) -> list[tuple[list[Cand], Reach]]:
    """Per ply t = 1, 2, ... (at most n+1): the candidate moves and the reach of the state
    after it. The list stops after the first ply whose positions would exceed ``cap``
    (its reach then comes from :func:`.reach.advance`) or after ply n+1. Standard 9x9
    questions are enumerated with cshogi's move generator when it is installed (the same
    lists, several times faster), the others with our rules engine.

    With ``mates_last``, ply n offers only the checks that mate in one of its positions,
    and ply n+1 the legal replies of the positions those moves reach (see
    :mod:`.mating`)."""
    if cshogi_board.supports(pos):
        try:
            cshogi = cshogi_board.load()
        except TsumeError:
            cshogi = None
        if cshogi is not None:
            return _plies(pos, n, cap, CshogiLister(cshogi), mates_last)
    return _plies(pos, n, cap, _RulesLister(), mates_last)


def _plies(pos: Position, n: int, cap: int, lister,
           mates_last: bool = False) -> list[tuple[list[Cand], Reach]]:
    totals = {} if pos.no_hands else piece_totals(pos)
    frontier = [lister.key(pos)]
    plies: list[tuple[list[Cand], Reach]] = []
    for t in range(1, n + 2):
        mover = pos.turn if t % 2 else 1 - pos.turn
        if mates_last and t == n:
            # every position of ply n is listed: a line that lasts n plies ends in a mate
            # there, so the other checks can be left out (exact, see mating.py)
            mates, replies = lister.mates(frontier)
            plies.append((mates, advance(lister.reach(), mates, mover, totals)))
            plies.append((replies, advance(plies[-1][1], replies, 1 - mover, totals)))
            break
        listed, after = lister.ply(frontier, t % 2 == 1, cap if t <= n else -1)
        # the state after the ply must be right for every listed move in every position,
        # legal there or not: its legality is decided on that state
        plies.append((listed, advance(lister.reach(), listed, mover, totals)))
        if not after:  # past the cap, or no position left
            break
        frontier = after
    return plies


class _RulesLister:
    """Lists the moves of a ply's positions with our rules engine."""

    def __init__(self):
        self.positions: dict = {}
        self.frontier: list[Position] = []

    def key(self, pos: Position):
        self.positions = {pos.exact_key(): pos}
        return pos.exact_key()

    def ply(self, keys, checks: bool, cap: int):
        """The moves of the positions ``keys`` (sorted) and the keys of the positions
        after them, or None past ``cap`` (-1: the positions after are not needed)."""
        cands: dict[Cand, None] = {}
        after: dict | None = {} if cap >= 0 else None
        self.frontier = [self.positions[k] for k in keys]
        for i, p in enumerate(self.frontier):
            if i % 256 == 0:
                check_budget()  # the encoder's time and memory limits hold here too
            for m in p.checks() if checks else p.legal_moves():
                cands.setdefault(move_cand(p, m), None)
                if after is not None:
                    child = p.copy()
                    child.push(m)
                    after.setdefault(child.exact_key(), child)
                    if len(after) > cap:
                        after = None
        self.positions = after or {}
        return sorted_cands(cands), list(after) if after else None

    def mates(self, keys):
        """(the checks that mate in one of the positions ``keys``, the legal replies in
        every position one of those checks reaches from ``keys`` without mating)."""
        self.frontier = [self.positions[k] for k in keys]
        mates: dict[Cand, None] = {}
        others: dict[Cand, list] = {}  # a check -> the positions it reaches without mating
        for i, p in enumerate(self.frontier):
            if i % 256 == 0:
                check_budget()
            for m in p.checks():
                child = p.copy()
                child.push(m)
                if child.legal_moves():
                    others.setdefault(move_cand(p, m), []).append((p, m))
                else:
                    mates.setdefault(move_cand(p, m), None)
        replies: dict[Cand, None] = {}
        for cand in mates:
            for i, (p, m) in enumerate(others.get(cand, ())):
                if i % 256 == 0:
                    check_budget()
                child = p.copy()
                child.push(m)
                for r in child.legal_moves():
                    replies.setdefault(move_cand(child, r), None)
        return sorted_cands(mates), sorted_cands(replies)

    def reach(self) -> Reach:
        return union_reach(self.frontier)


class CshogiLister:
    """Lists the moves of a ply's positions with cshogi's generator (standard 9x9 only):
    positions are SFEN texts, set on one cshogi board; moves become our candidates through
    a table keyed by cshogi's move integer, which holds the moving piece's type."""

    def __init__(self, cshogi):
        self.cs = cshogi
        self.board = cshogi.Board()
        self.cands: dict[tuple[int, int], Cand] = {}
        self.pairs: set = set()
        self.hands: set = set()

    def key(self, pos: Position):
        return pos.sfen()

    def ply(self, keys, checks: bool, cap: int):
        b = self.board
        seen: set[int] = set()
        after: dict | None = {} if cap >= 0 else None
        boards, hands = set(), set()
        c = None
        for _, c in self._visit(keys, boards, hands):
            moves = self.legal_checks() if checks else list(b.legal_moves)
            seen.update(moves)
            if after is not None:
                for cm in moves:
                    b.push(cm)
                    after[b.sfen()] = None
                    b.pop()
                if len(after) > cap:
                    after = None
        self._note(boards, hands)
        return self._cands(seen, c), list(after) if after else None

    def legal_checks(self) -> list[int]:
        """The legal checks of the position on the board (cshogi's check generator is
        pseudo-legal)."""
        b = self.board
        return [cm for cm in b.check_moves if b.pseudo_legal_move_is_legal(cm)]

    def cand(self, cm: int, c: int) -> Cand:
        """cshogi's move ``cm`` of colour ``c`` as our candidate, through the table."""
        m = self.cands.get((cm, c))
        if m is None:
            m = self.cands[cm, c] = self.move_cand(cm, c)
        return m

    def _visit(self, keys, boards: set, hands: set):
        """Each of ``keys`` set on the board in turn (:meth:`_set`), as (key, side to move),
        the encoding's budget checked every 256 positions."""
        for i, key in enumerate(keys):
            if i % 256 == 0:
                check_budget()
            yield key, self._set(key, boards, hands)

    def _set(self, key, boards: set, hands: set) -> int:
        """Sets position ``key`` on the board, notes its pieces in ``boards`` and its hands
        in ``hands``; its side to move."""
        b = self.board
        b.set_sfen(key)
        boards.add(bytes(b.pieces))
        black, white = b.pieces_in_hand
        hands.add((*black, *white))
        return b.turn

    def _note(self, boards: set, hands: set) -> None:
        """The (square, piece) pairs and the hands of the positions just listed."""
        joined = b"".join(boards)
        self.pairs = {(s, p) for s in range(81) for p in set(joined[s::81])}
        self.hands = hands

    def _cands(self, moves, c: int) -> list[Cand]:
        """cshogi's ``moves`` of colour ``c`` as our candidates, sorted (moves that differ
        only in what cshogi's integer holds besides the move are one candidate)."""
        return sorted_cands({self.cand(cm, c): None for cm in moves})

    def mates(self, keys):
        """As :meth:`_RulesLister.mates`."""
        b = self.board
        mates: set[int] = set()
        others: dict[int, list] = {}  # a check -> the positions where it does not mate
        boards, hands = set(), set()
        c = None
        for key, c in self._visit(keys, boards, hands):
            for cm in b.check_moves:
                if not b.pseudo_legal_move_is_legal(cm):
                    continue
                b.push(cm)
                if len(b.legal_moves):
                    others.setdefault(cm, []).append(key)
                else:
                    mates.add(cm)
                b.pop()
        self._note(boards, hands)
        listed = self._cands(mates, c)
        offered = set(listed)
        replies: set[int] = set()
        for cm, where in others.items():
            if self._cands([cm], c)[0] not in offered:
                continue
            for i, key in enumerate(where):
                if i % 256 == 0:
                    check_budget()
                b.set_sfen(key)
                b.push(cm)
                replies.update(b.legal_moves)
        return listed, self._cands(replies, None if c is None else 1 - c)

    def move_cand(self, cm: int, c: int) -> Cand:
        cs = self.cs
        to = cshogi_board.SQUARE[cs.move_to(cm)]
        if cs.move_is_drop(cm):
            code = piece_code(cshogi_board.HAND_ORDER[cs.move_drop_hand_piece(cm)], c)
            return Cand(-1, to, code, code)
        code = piece_code(cshogi_board.KIND[cs.move_from_piece_type(cm)], c)
        result = piece_code(PROMOTED[code & 15], c) if cs.move_is_promotion(cm) else code
        return Cand(cshogi_board.SQUARE[cs.move_from(cm)], to, code, result)

    def reach(self) -> Reach:
        square, code = cshogi_board.SQUARE, cshogi_board.CODE
        hands = []
        for counts in self.hands:
            ours = ([0] * 8, [0] * 8)
            for i, kind in enumerate(cshogi_board.HAND_ORDER):
                ours[0][kind], ours[1][kind] = counts[i], counts[7 + i]
            hands.append(ours)
        return _reach(((square[s], code[p]) for s, p in self.pairs), hands, 81)


def sorted_cands(cands) -> list[Cand]:
    return sorted(cands, key=lambda m: (m.frm, m.to, m.code, m.result))


def move_cand(p: Position, m: int) -> Cand:
    to = move_to(m)
    if is_drop(m):
        code = piece_code(drop_kind(m), p.turn)
        return Cand(-1, to, code, code)
    frm = move_from(m)
    code = p.board[frm]
    result = piece_code(PROMOTED[code & 15], p.turn) if is_promotion(m) else code
    return Cand(frm, to, code, result)


def union_reach(positions) -> Reach:
    """What any of ``positions`` holds: its codes on each square, its hands."""
    pairs, hands = set(), set()
    for p in positions:
        pairs.update(enumerate(p.board))
        hands.add((tuple(p.hands[0]), tuple(p.hands[1])))
    return _reach(pairs, hands, len(p.board))


def _reach(pairs, hands, size: int) -> Reach:
    """The reach whose squares hold the (square, code) ``pairs`` (code 0: empty) and whose
    hands hold at most what any of ``hands`` (each a pair of per-kind counts) holds."""
    codes: list[set] = [set() for _ in range(size)]
    empty = [False] * size
    for s, code in pairs:
        if code:
            codes[s].add(code)
        else:
            empty[s] = True
    hand = [[max(h[c][k] for h in hands) for k in range(8)] for c in (0, 1)]
    return Reach([frozenset(x) for x in codes], empty, hand)
