"""Encoding ``dag``: the game as a DAG of the positions that lines reach, one variable a
position, instead of board states as circuits.

The other encodings build each ply's state as bits over squares and hands and decide a
move's legality with circuits over them; positions that different move orders reach are
different assignments of those bits. Here the positions of each ply are listed by the rules
engine (as ``mating`` lists them: the attacker's legal checks, the defender's legal
replies, transpositions merged, at ply n the checks that mate), and the formula is the
table of moves between them:

- ply t chooses a move by binary bits, existential for the attacker, universal for the
  defender: in ``dag`` code k is the k-th listed move of the position the line is in
  (:class:`LocalChoice`), in ``dag-global`` the k-th of the ply's candidates (the union of
  its positions' moves, as in ``enumerated``);
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
and a mate before ply n costs nothing: the mated position has no move out. A position
where the attacker has no listed move (no check; at ply n, no check that mates) gets no
variable: a defender's move into it loses the line for the attacker. With local codes a
position's replies into such positions come first, so one clause ``NOT at(p) OR code >=
s`` (s of them; a small circuit over the bits, shared) says it for all of them; with
``dag-global`` codes each is the clause ``NOT at(p) OR code != m`` (what the solver's unit
propagation would make of ``at(q)`` false). Every ``at`` is used only negatively, so its
definition is one-way (``Formula.polarity``): a move into a position is two clauses and a
variable. The formula grows with the number of moves
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
from dataclasses import dataclass
from typing import Callable

from .. import native
from ..limits import check_budget
from ..progress import phase
from ..rules import TsumeError, cshogi_board
from ..rules.position import Position
from .choice import MoveChoice
from .formula import Formula, neg
from .game import Encoded, VERSION, question_comments
from .lines import move_cand, CshogiLister, sorted_cands
from .mating import Mating

#: a ply with more positions than this is not listed: the question goes to ``mating``
POSITIONS_CAP = 400_000
#: with ``fold``, what ply n - 1's moves name in place of the position after: whether the
#: attacker has a check that mates there
MATES, NO_MATE = -1, -2
#: the cap of ``fold``, which lists positions up to ply n - 2 only
FOLD_CAP = 2_000_000


#: positions a call of the native core's fold listing takes (the budget is checked between)
NATIVE_CHUNK = 4096


class TooManyPositions(Exception):
    """A ply has more than the cap of positions."""


@dataclass
class Folded:
    """Ply n - 1 of ``fold``: per position before it ``counts`` = (its legal replies, those
    after which no check mates), and ``replies(key)`` those replies as (candidate,
    :data:`MATES` or :data:`NO_MATE`) in the lister's order, listed again on demand (the
    formula needs only the counts; a strategy's reader needs the moves of a few).

    Where the native core listed ply n - 2 too (n >= 5), ``counts`` is None and
    ``checks`` holds per position before ply n - 2 the counts after each of its legal
    checks (the positions after them not merged), ``checks_of(key)`` the checks of one
    position as (candidate, counts after it), listed again on demand."""

    counts: list | None
    replies: Callable
    checks: list | None = None
    checks_of: Callable | None = None
    #: ``reduced``: ply n - 2 keeps only the checks after which every reply is answered
    #: by a mate (:func:`keep_winning_checks`)
    winning_only: bool = False
    #: ``reduced`` where the native core listed ply n - 2: per position before it, the
    #: number of those checks (``checks`` is None)
    wins: list | None = None

    def lost_per_check(self, moves: list | None) -> list:
        """Per position before ply n - 2 the number of lost replies after each of its
        checks (in ``moves``' order, ply n - 2 as listed, where the lister listed it)."""
        if self.wins is not None:
            return [[0] * wins for wins in self.wins]
        if self.checks is not None:
            return [[lost for _, lost in out] for out in self.checks]
        return [[self.counts[p][1] for _, p in out] for out in moves]

    def width(self) -> int:
        """The most replies a position after ply n - 2 has."""
        counts = self.counts if self.checks is None else (c for out in self.checks for c in out)
        return max((total for total, _ in counts), default=0)


@dataclass
class Dag:
    """The listed game: per ply t = 1..n, ``plies[t-1]`` = (the sorted candidates, for each
    position before the ply its moves as (candidate index, index of the position after,
    or -1 at ply n), in the lister's order); ``keys[t-1]`` the lister's keys of those positions and
    ``key_of`` the key of a :class:`Position`, as ``norm`` makes a listed key (the rules
    engine's exact key; on 9x9 cshogi's SFEN without the move number). With ``fold``,
    ``plies`` stops at ply n - 2 and ``folded`` is ply n - 1 (``keys[n-2]`` its positions);
    where the native core listed ply n - 2 as well, ``plies`` and ``keys`` stop a ply
    earlier (:class:`Folded`)."""

    plies: list
    keys: list
    key_of: Callable
    norm: Callable
    folded: Folded | None = None


def list_dag(pos: Position, n: int, cap: int = POSITIONS_CAP, fold: bool = False,
             use_native: bool = True, reduced: bool = False) -> Dag:
    """The positions that lines reach, ply by ply, and the moves between them: the
    attacker's legal checks, the defender's legal replies, at ply n only the checks that
    mate. Raises :class:`TooManyPositions` past ``cap`` positions at a ply. With ``fold``
    (n >= 3) plies n - 1 and n are not listed: ``folded`` counts each position's replies
    at ply n - 1 and those after which no check mates, with the native core where it
    serves the board (``use_native``; the same counts as the rules engine's, faster), and
    there at n >= 5 the native core lists ply n - 2's checks as well; with ``reduced``
    it only counts, per position before ply n - 2, the checks that lose no reply
    (:func:`tsumeqbf.native.fold_wins`, :attr:`Folded.wins`).

    >>> plies = list_dag(Position.from_sfen("2k/3/1GP b - 1", zone=2), 3).plies
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
    plies, keys = [], []
    core = (fold and use_native and isinstance(lister, _CshogiMoves) and native.available())
    core_checks = core and n >= 5  # at n = 3 ply n - 2 is ply 1, whose codes are candidates
    for t in range(1, n - 2 if core_checks else n - 1 if fold else n + 1):
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
        cands = sorted_cands(cand_index)
        order = {c: i for i, c in enumerate(cands)}
        remap = [order[c] for c in cand_index]
        plies.append((cands, [[(remap[ci], q) for ci, q in out] for out in moves]))
        keys.append(frontier)
        frontier = list(index)
    folded = None
    if fold:
        keys.append(frontier)
        if core_checks and reduced:
            folded = Folded(None, lister.replies_mating, None,
                            lambda key: _checks_counted(lister, key), True,
                            _native_per_key(native.fold_wins, frontier))
        elif core_checks:
            folded = Folded(None, lister.replies_mating,
                            _native_per_key(native.fold_checks, frontier),
                            lambda key: _checks_counted(lister, key))
        else:
            folded = Folded(_native_per_key(native.fold_counts, frontier) if core
                            else _fold_counts(lister, frontier), lister.replies_mating)
    return Dag(plies, keys, lister.key_of, lister.norm, folded)


def _fold_counts(lister, keys) -> list:
    """Ply n - 1's counts (:class:`Folded`) by the lister, one reply at a time."""
    counts = []
    for i, key in enumerate(keys):
        if i % 256 == 0:
            check_budget()
        replies = lister.replies_mating(key)
        counts.append((len(replies), sum(q == NO_MATE for _, q in replies)))
    return counts


def _native_per_key(count, keys: list) -> list:
    """``count`` (:func:`tsumeqbf.native.fold_counts` or ``fold_checks``) of the positions'
    SFENs (cshogi's keys), a chunk at a time (the budget is checked between)."""
    out = []
    for i in range(0, len(keys), NATIVE_CHUNK):
        check_budget()
        out += count(keys[i:i + NATIVE_CHUNK])
    return out


def _checks_counted(lister, key) -> list:
    """The legal checks of ``key`` as (candidate, ply n - 1's counts after it)."""
    checks = lister.moves(key, True, False)
    return list(zip((cand for cand, _ in checks),
                    native.fold_counts([child for _, child in checks])))


class _RulesMoves:
    """The moves of positions with our rules engine (any board)."""

    def __init__(self):
        self.positions: dict = {}

    def key(self, pos: Position):
        self.positions[pos.exact_key()] = pos
        return pos.exact_key()

    @staticmethod
    def key_of(pos: Position):
        return pos.exact_key()

    @staticmethod
    def norm(key):
        return key

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
                    out.append((move_cand(p, m), None))
                continue
            self.positions.setdefault(child.exact_key(), child)
            out.append((move_cand(p, m), child.exact_key()))
        return out

    def replies_mating(self, key):
        """(candidate, :data:`MATES` or :data:`NO_MATE`) for each legal reply of ``key``."""
        p = self.positions[key]
        out = []
        for m in p.legal_moves():
            child = p.copy()
            child.push(m)
            out.append((move_cand(p, m), MATES if any(_mated(child, c) for c in child.checks())
                        else NO_MATE))
        return out


def _mated(pos: Position, m: int) -> bool:
    """Move ``m`` of ``pos`` leaves the other side no legal move."""
    child = pos.copy()
    child.push(m)
    return not child.legal_moves()


class _CshogiMoves(CshogiLister):
    """The same with cshogi's generator (standard 9x9): positions are SFEN texts."""

    def key_of(self, pos: Position) -> str:
        """The key of ``pos`` as cshogi writes it, without the move number."""
        self.board.set_sfen(pos.sfen())
        return self.norm(self.board.sfen())

    @staticmethod
    def norm(key: str) -> str:
        return key.rsplit(" ", 1)[0]

    def moves(self, key, checks: bool, mates_only: bool):
        b = self.board
        b.set_sfen(key)
        c = b.turn
        out = []
        for cm in self.legal_checks() if checks else list(b.legal_moves):
            cand = self.cand(cm, c)
            b.push(cm)
            if not mates_only:
                out.append((cand, b.sfen()))
            elif not len(b.legal_moves):
                out.append((cand, None))
            b.pop()
        return out

    def replies_mating(self, key):
        """(candidate, :data:`MATES` or :data:`NO_MATE`) for each legal reply of ``key``."""
        b = self.board
        b.set_sfen(key)
        c = b.turn
        out = []
        for cm in list(b.legal_moves):
            cand = self.cand(cm, c)
            b.push(cm)
            out.append((cand, MATES if self._mates() else NO_MATE))
            b.pop()
        return out

    def _mates(self) -> bool:
        """The side to move on the board has a legal check that mates."""
        b = self.board
        for cm in self.legal_checks():
            b.push(cm)
            mated = not len(b.legal_moves)
            b.pop()
            if mated:
                return True
        return False


class LocalChoice:
    """The move of a ply as a binary code local to the position it is played in: code k is
    the k-th of that position's listed moves (in the order the lister found them, except
    that a defender's replies after which the attacker has no listed move come first), so
    the ply needs only as many bits as its positions have moves at most, and code k's
    minterm ``sel(k)`` is one gate shared by every position."""

    def __init__(self, f: Formula, dag: Dag, t: int, name: str):
        self.f, self.dag, self.t, self.name = f, dag, t, name
        width = self._width()
        self.bits = [f.var(f"{name}_bit{i}", t - 1) for i in range((width - 1).bit_length())]
        self._sel: dict = {}
        self._ge: dict = {}
        self._index: dict | None = None
        f.choices[name] = self

    def _width(self) -> int:
        """The most moves a position of the ply has."""
        return max((len(out) for out in self.dag.plies[self.t - 1][1]), default=0)

    def sel(self, k: int):
        g = self._sel.get(k)
        if g is None:
            g = self._sel[k] = self.f.and_(b if k >> j & 1 else -b
                                           for j, b in enumerate(self.bits))
        return g

    def at_least(self, k: int):
        """The code is at least ``k`` (a circuit over the bits, most significant first)."""
        g = self._ge.get(k)
        if g is None:
            g = self._ge[k] = self._at_least(k)
        return g

    def _at_least(self, k: int):
        f, bits = self.f, self.bits

        def ge(width: int, k: int):
            if k <= 0:
                return True
            if k >= 1 << width:
                return False
            top, half = bits[width - 1], 1 << (width - 1)
            if k >= half:
                return f.and_([top, ge(width - 1, k - half)])
            return f.or_([top, ge(width - 1, k)])
        return ge(len(bits), k)

    def cands_at(self, pos: Position) -> list | None:
        """The moves that codes 0, 1, ... name in ``pos`` (None: not a listed position)."""
        if self._index is None:
            norm = self.dag.norm
            self._index = {norm(k): i for i, k in enumerate(self.dag.keys[self.t - 1])}
        i = self._index.get(self.dag.key_of(pos))
        return None if i is None else self._listed(i)

    def _listed(self, i: int) -> list:
        cands, moves = self.dag.plies[self.t - 1]
        return [cands[ci] for ci, _ in moves[i]]

    def decode(self, values: dict) -> None:
        """A local code names no move by itself (it needs the position)."""
        return None


class FoldChoice(LocalChoice):
    """The defender's move at ply n - 1 of ``fold``: a :class:`LocalChoice` over the
    counted replies (:class:`Folded`), those after which no check mates first; a
    position's replies are listed again only when a strategy's reader asks for them (the
    formula depends on the counts alone, so any lister's order of the rest codes it)."""

    def _width(self) -> int:
        return self.dag.folded.width()

    def cands_at(self, pos: Position) -> list | None:
        if self.dag.folded.checks is None:
            return super().cands_at(pos)
        return self._sorted(self.dag.key_of(pos))  # the positions before it are not listed

    def _listed(self, i: int) -> list:
        return self._sorted(self.dag.keys[self.t - 1][i])

    def _sorted(self, key) -> list:
        replies = self.dag.folded.replies(key)
        replies.sort(key=lambda move: move[1] == MATES)
        return [cand for cand, _ in replies]


class CheckChoice(LocalChoice):
    """The attacker's move at ply n - 2 of ``fold`` where the native core listed it: a
    :class:`LocalChoice` over each position's checks ordered by the lost replies after
    them, as the fold orders them (ties in any order: the formula depends on the counts
    alone); a position's checks are listed again when a strategy's reader asks."""

    def _width(self) -> int:
        return max(_next_moves(self.dag, self.t - 1), default=0)

    def _listed(self, i: int) -> list:
        checks = self.dag.folded.checks_of(self.dag.keys[self.t - 1][i])
        checks.sort(key=lambda move: move[1][1])
        if self.dag.folded.winning_only:  # ``reduced``: the other checks are not offered
            checks = [move for move in checks if not move[1][1]]
        return [cand for cand, _ in checks]


def keep_winning_checks(dag: Dag, n: int) -> None:
    """Ply n - 2 of a ``fold`` listing cut to the checks with no lost reply (s = 0):
    after any other the defender's code 0 names a reply after which no check mates."""
    folded = dag.folded
    folded.winning_only = True
    if folded.wins is not None:  # the native core counted those checks alone
        return
    lost = [s for _, s in folded.counts]
    for out in dag.plies[n - 3][1]:
        out[:] = [move for move in out if not lost[move[1]]]


def encode(pos: Position, n: int, attacker_moves: str = "binary",
           defender_moves: str = "binary", used_kinds_only: bool = False,
           local: bool = True, fold: bool = False, use_native: bool = True,
           reduced: bool = False) -> Encoded:
    """Mate(pos, n) as a QBF over the listed positions (binary move codes only): the move
    codes local to each position (``local``, encoding ``dag``) or indices into the ply's
    candidates (encoding ``dag-global``); with ``fold`` (encoding ``dag-fold``,
    :mod:`.dag_fold`) the last two plies folded into the attacker's moves at ply n - 2
    (``use_native``: as :func:`list_dag`)."""
    name = ("dag-fold-reduced" if reduced else "dag-fold" if fold else "dag" if local
            else "dag-global")
    fold = fold or reduced
    for side, kind in (("attacker", attacker_moves), ("defender", defender_moves)):
        if kind != "binary":
            raise ValueError(f"encoding {name} chooses moves by binary codes; {side} moves "
                             f"{kind!r} does not apply")
    fold = fold and n >= 3  # at 1 ply there is nothing to fold
    start = time.perf_counter()
    phase("listing")
    try:
        dag = list_dag(pos, n, FOLD_CAP if fold else POSITIONS_CAP, fold, use_native, reduced)
    except TooManyPositions as exc:
        enc = Mating(pos, n).encode()
        enc.formula.comments.append(f"{name}: {exc}; the formula is mating's")
        enc.encoding = name
        return enc
    if reduced and fold:
        keep_winning_checks(dag, n)
    phase("encoding")
    f = Formula(polarity=True)
    plies = dag.plies
    at: list = [True]  # at(p) of the positions before ply t
    first = None
    for t, (cands, moves) in enumerate(plies, 1):
        if t == 1 or not local:  # one position at ply 1: its local codes are the global ones
            choice = MoveChoice(f, cands, t - 1, f"m{t}")
            code = [[ci for ci, _ in out] for out in moves]
        else:
            if t % 2 == 0 and t < n:  # a defender's replies into stuck positions first
                nxt = _next_moves(dag, t)
                for out in moves:
                    out.sort(key=lambda move: bool(nxt[move[1]]))
            choice = LocalChoice(f, dag, t, f"m{t}")
            code = [range(len(out)) for out in moves]
        first = first or choice
        if fold and t == n - 2:
            _fold(f, dag, n, choice, code, at)
            break
        into: list[list] = [[] for _ in range(1 + max((q for out in moves for _, q in out),
                                                      default=-1))]
        # after the defender's ply: the positions where the attacker has no listed move
        stuck = [not k for k in _next_moves(dag, t)] if t % 2 == 0 and t < n else None
        for p, out in enumerate(moves):
            alive = at[p]
            if alive is False:
                continue
            if t % 2:  # the attacker alive in p plays one of its legal checks (mates at n)
                f.add_clause([neg(alive)] + [choice.sel(k) for k in code[p]])
            lost = 0  # the replies into stuck positions, which a local code puts first
            for k, (_, q) in zip(code[p], out):
                if q < 0:
                    continue
                if stuck is not None and stuck[q]:  # at(q) would be false: the reply loses
                    if local:
                        lost += 1
                    else:
                        f.add_clause([neg(alive), neg(choice.sel(k))])
                else:
                    into[q].append(f.and_([alive, choice.sel(k)]))
            if lost:  # no code below ``lost``: one clause for all of them
                f.add_clause([neg(alive), choice.at_least(lost)])
        at = [f.or_(ins) for ins in into]
    if fold and len(plies) == n - 3:  # ply n - 2 listed by the native core
        _fold(f, dag, n, CheckChoice(f, dag, n - 2, f"m{n - 2}"), None, at)
    f.comments += [f"tsumeqbf encoding={name} version={VERSION}", *question_comments(pos, n)]
    return Encoded(f, first.cands, first, name, time.perf_counter() - start, _stats(dag, n))


def _stats(dag: Dag, n: int) -> dict:
    """Per ply the positions listed and their moves, ply n - 1's from the fold if any."""
    plies = dag.plies
    stats = {"positions": [len(moves) for _, moves in plies],
             "moves": [sum(len(out) for out in moves) for _, moves in plies]}
    if dag.folded and dag.folded.counts is not None:
        stats["positions"].append(len(dag.folded.counts))
        stats["moves"].append(sum(total for total, _ in dag.folded.counts))
    elif dag.folded:  # the positions after ply n - 2 were not merged: ply n - 1 has no row
        stats["positions"].append(len(_next_moves(dag, n - 3)))
        stats["moves"].append(sum(_next_moves(dag, n - 3)))
    return stats


def _fold(f: Formula, dag: Dag, n: int, choice, code: list, at: list) -> None:
    """Plies n - 2, n - 1 and n as clauses on the attacker's moves at ply n - 2: the
    attacker alive in r plays one of its checks; a check into p whose defender has s > 0
    replies after which no check mates (first among p's codes at ply n - 1) needs
    ``code(n-1) >= s``. With local codes r's checks are ordered by s, so that one clause
    ``NOT at(r) OR code(n-2) < j OR code(n-1) >= s`` (j r's first check with that s)
    covers each value of s; with global codes (ply 1) one clause a check. Ply n has no
    variables: the line alive there meets a position where a check mates."""
    reply = None if dag.folded.winning_only else FoldChoice(f, dag, n - 1, f"m{n - 1}")
    f.choices[f"m{n}"] = None  # ply n is the rules engine's: a mating check of the position
    local = isinstance(choice, LocalChoice)
    listed = dag.plies[n - 3][1] if len(dag.plies) == n - 2 else None
    if local and listed is not None:  # ply n - 2's local codes name the checks in this order
        lost = [s for _, s in dag.folded.counts]
        for out in listed:
            out.sort(key=lambda move: lost[move[1]])
    for r, per_check in enumerate(dag.folded.lost_per_check(listed)):
        alive = at[r]
        if alive is False:
            continue
        if local:  # one of its checks: a code below their number
            per_check.sort()
            f.add_clause([neg(alive), neg(choice.at_least(len(per_check)))])
        else:
            f.add_clause([neg(alive)] + [choice.sel(k) for k in code[r]])
        done = 0
        for k, s in zip(range(len(per_check)) if local else code[r], per_check):
            if not local and s:
                f.add_clause([neg(alive), neg(choice.sel(k)), reply.at_least(s)])
            elif s > done:
                f.add_clause([neg(alive), neg(choice.at_least(k)), reply.at_least(s)])
                done = s


def _next_moves(dag: Dag, t: int) -> list:
    """Per position after ply t the number of its listed moves at ply t + 1."""
    if t < len(dag.plies):
        return [len(out) for out in dag.plies[t][1]]
    if dag.folded.wins is not None:
        return dag.folded.wins
    return [len(out) for out in dag.folded.checks]


def encode_global(pos: Position, n: int, **choices) -> Encoded:
    """Encoding ``dag-global``: ``dag`` with each ply's codes indexing its candidates."""
    return encode(pos, n, local=False, **choices)


def encode_fold(pos: Position, n: int, **choices) -> Encoded:
    """Encoding ``dag-fold`` (:mod:`.dag_fold`)."""
    return encode(pos, n, fold=True, **choices)


def encode_reduced(pos: Position, n: int, **choices) -> Encoded:
    """Encoding ``dag-fold-reduced`` (:mod:`.dag_fold`)."""
    return encode(pos, n, reduced=True, **choices)
