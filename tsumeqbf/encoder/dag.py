"""Encoding ``dag``: the game as a DAG of the positions that lines reach, one variable a
position, instead of board states as circuits.

The other encodings build each ply's state as bits over squares and hands and decide a
move's legality with circuits over them; positions that different move orders reach are
different assignments of those bits. Here the positions of each ply are listed by the rules
engine (as ``mating`` lists them: the attacker's legal checks, the defender's legal
replies, transpositions merged, at ply n the checks that mate), and the formula is the
table of moves between them:

- ply t chooses a move among the ply's candidates (the union of its positions' moves,
  binary codes as in ``enumerated``): existential bits for the attacker, universal for the
  defender;
- ``at(q)``, "the line is alive in position q after ply t", is the OR over the moves into
  q of ``at(p) AND code(t) = m`` (p the position before, m a move legal in p); the root's
  is true;
- the attacker, alive in p, must choose one of p's legal checks (at ply n: one of the
  checks that mate in p), a clause ``NOT at(p) OR code = m1 OR code = m2 ...``; a position
  with none cannot be alive;
- the defender's code selects a move into a next position only where it is a legal reply:
  any other code (illegal, out of range, or any code after a mate) reaches no position, and
  the line is over, the attacker's win, with no clause on the universal bits.

So Mate(P, n) holds exactly when the formula does (docs/encodings.md, "dag", says why),
and a mate before ply n costs nothing: the mated position has no move out. Every ``at``
is used only negatively, so its definition is one-way (``Formula.polarity``): a move into
a position is two clauses and a variable. The formula grows with the number of moves
between listed positions, not with the number of lines or with the board.

What differs from the other encodings: the rules engine decides legality, check and mate
(the formula holds no board); the solver decides the game over them. Where a ply has more
than :data:`POSITIONS_CAP` positions, the question is encoded by ``mating`` instead (a
comment line in the formula says so).

>>> from tsumeqbf.rules import Position
>>> enc = encode(Position.from_sfen("2k/3/1GP b - 1", zone=2), 3)
>>> enc.encoding, sorted(m.move() for m in enc.first_moves) == sorted(
...     Position.from_sfen("2k/3/1GP b - 1", zone=2).checks())
('dag', True)
"""

from __future__ import annotations

import time

from ..limits import check_budget
from ..progress import phase
from ..rules import TsumeError, cshogi_board
from ..rules.position import Position
from .choice import MoveChoice
from .formula import Formula, neg
from .game import Encoded, VERSION, question_comments
from .lines import _cand, _CshogiLister, _sorted
from .mating import Mating

#: a ply with more positions than this is not listed: the question goes to ``mating``
POSITIONS_CAP = 400_000


class TooManyPositions(Exception):
    """A ply has more than the cap of positions."""


def list_dag(pos: Position, n: int, cap: int = POSITIONS_CAP):
    """Per ply t = 1..n: (the sorted candidates, for each position before the ply its moves
    as (candidate index, index of the position after, or -1 at ply n)). Ply n lists only
    the checks that mate. Raises :class:`TooManyPositions` past ``cap``.

    >>> plies = list_dag(Position.from_sfen("2k/3/1GP b - 1", zone=2), 3)
    >>> [(len(cands), len(moves)) for cands, moves in plies]
    [(4, 1), (2, 4), (0, 2)]
    """
    lister = None
    if cshogi_board.supports(pos):
        try:
            lister = _CshogiMoves(cshogi_board.load())
        except TsumeError:
            lister = None
    lister = lister or _RulesMoves()
    frontier = [lister.key(pos)]
    plies = []
    for t in range(1, n + 1):
        last = t == n
        index: dict = {}
        cand_index: dict = {}
        moves = []
        for i, key in enumerate(frontier):
            if i % 256 == 0:
                check_budget()
            out = []
            for cand, child in lister.moves(key, t % 2 == 1, last):
                ci = cand_index.setdefault(cand, len(cand_index))
                out.append((ci, -1 if last else index.setdefault(child, len(index))))
            moves.append(out)
            if len(index) > cap:
                raise TooManyPositions(f"more than {cap} positions at ply {t}")
        cands = _sorted(cand_index)
        order = {c: i for i, c in enumerate(cands)}
        remap = [order[c] for c in cand_index]
        plies.append((cands, [[(remap[ci], q) for ci, q in out] for out in moves]))
        frontier = list(index)
    return plies


class _RulesMoves:
    """The moves of positions with our rules engine (any board)."""

    def __init__(self):
        self.positions: dict = {}

    def key(self, pos: Position):
        self.positions[pos.exact_key()] = pos
        return pos.exact_key()

    def moves(self, key, checks: bool, mates_only: bool):
        """(candidate, key of the position after) for each legal check (``checks``) or
        legal reply of position ``key``; with ``mates_only`` the checks that mate (key None)."""
        p = self.positions[key]
        out = []
        for m in p.checks() if checks else p.legal_moves():
            child = p.copy()
            child.push(m)
            if mates_only:
                if not child.legal_moves():
                    out.append((_cand(p, m), None))
                continue
            self.positions.setdefault(child.exact_key(), child)
            out.append((_cand(p, m), child.exact_key()))
        return out


class _CshogiMoves(_CshogiLister):
    """The same with cshogi's generator (standard 9x9): positions are SFEN texts."""

    def moves(self, key, checks: bool, mates_only: bool):
        b = self.board
        b.set_sfen(key)
        c = b.turn
        if checks:  # cshogi's check generator is pseudo-legal
            listed = [cm for cm in b.check_moves if b.pseudo_legal_move_is_legal(cm)]
        else:
            listed = list(b.legal_moves)
        out = []
        for cm in listed:
            b.push(cm)
            if mates_only:
                if not len(b.legal_moves):
                    out.append((self._cands([cm], c)[0], None))
            else:
                out.append((self._cands([cm], c)[0], b.sfen()))
            b.pop()
        return out


def encode(pos: Position, n: int, attacker_moves: str = "binary",
           defender_moves: str = "binary", used_kinds_only: bool = False) -> Encoded:
    """Mate(pos, n) as a QBF over the listed positions (binary move codes only)."""
    for side, kind in (("attacker", attacker_moves), ("defender", defender_moves)):
        if kind != "binary":
            raise ValueError(f"encoding dag chooses moves by binary codes; {side} moves "
                             f"{kind!r} does not apply")
    start = time.perf_counter()
    phase("listing")
    try:
        plies = list_dag(pos, n, POSITIONS_CAP)
    except TooManyPositions as exc:
        enc = Mating(pos, n).encode()
        enc.formula.comments.append(f"dag: {exc}; the formula is mating's")
        enc.encoding = "dag"
        return enc
    phase("encoding")
    f = Formula(polarity=True)
    at: list = [True]  # at(p) of the positions before ply t
    choices = []
    for t, (cands, moves) in enumerate(plies, 1):
        choice = MoveChoice(f, cands, t - 1, f"m{t}")
        choices.append(choice)
        into: list[list] = [[] for _ in range(1 + max((q for out in moves for q in
                                                         (x for _, x in out)), default=-1))]
        for p, out in enumerate(moves):
            alive = at[p]
            if alive is False:
                continue
            if t % 2:  # the attacker alive in p plays one of its legal checks (mates at n)
                f.add_clause([neg(alive)] + [choice.sel(ci) for ci, _ in out])
            for ci, q in out:
                if q >= 0:
                    into[q].append(f.and_([alive, choice.sel(ci)]))
        at = [f.or_(ins) for ins in into]
    f.comments += [f"tsumeqbf encoding=dag version={VERSION}", *question_comments(pos, n)]
    stats = {"positions": [len(moves) for _, moves in plies],
             "moves": [sum(len(out) for out in moves) for _, moves in plies]}
    return Encoded(f, choices[0].cands, choices[0], "dag", time.perf_counter() - start, stats)
