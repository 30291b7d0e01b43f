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
from ..rules.moves import drop_kind, is_drop, is_promotion, move_from, move_to
from ..rules.pieces import PROMOTED, piece_code
from ..rules.position import Position
from .reach import Cand, Reach, advance, initial_reach, piece_totals


def enumerate_plies(pos: Position, n: int, cap: int) -> list[tuple[list[Cand], Reach]]:
    """Per ply t = 1, 2, ... (at most n+1): the candidate moves and the reach of the state
    after it. The list stops after the first ply whose positions would exceed ``cap``
    (its reach then comes from :func:`.reach.advance`) or after ply n+1."""
    totals = {} if pos.no_hands else piece_totals(pos)
    frontier = {pos.exact_key(): pos}
    plies: list[tuple[list[Cand], Reach]] = []
    for t in range(1, n + 2):
        mover = pos.turn if t % 2 else 1 - pos.turn
        cands: dict[Cand, None] = {}
        after: dict | None = {}
        for i, p in enumerate(frontier.values()):
            if i % 256 == 0:
                check_budget()  # the encoder's time and memory limits hold here too
            for m in p.checks() if t % 2 else p.legal_moves():
                cands.setdefault(_cand(p, m), None)
                if after is not None:
                    child = p.copy()
                    child.push(m)
                    after.setdefault(child.exact_key(), child)
                    if len(after) > cap:
                        after = None
        listed = sorted(cands, key=lambda m: (m.frm, m.to, m.code, m.result))
        # the state after the ply must be right for every listed move in every position,
        # legal there or not: its legality is decided on that state
        plies.append((listed, advance(union_reach(frontier.values()), listed, mover, totals)))
        if not after:  # past the cap, or no position left
            break
        frontier = after
    return plies


def _cand(p: Position, m: int) -> Cand:
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
    codes: list[set] | None = None
    for p in positions:
        r = initial_reach(p)
        if codes is None:
            codes, empty, hand = [set(x) for x in r.codes], list(r.may_empty), r.hand_max
            continue
        for s, x in enumerate(r.codes):
            codes[s] |= x
            empty[s] = empty[s] or r.may_empty[s]
        hand = [[max(a, b) for a, b in zip(mine, theirs)] for mine, theirs in zip(hand, r.hand_max)]
    return Reach([frozenset(x) for x in codes], empty, hand)
