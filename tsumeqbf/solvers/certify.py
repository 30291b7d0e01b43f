"""Certified verdicts: the solver side's whole strategy, every node checked by the rules.

A QBF verdict says mate or no mate; a certificate turns it into a tree that the rules
engine checks node by node, so that the verdict no longer rests on the solver's word.

- **Mate within n**: at each attacker node the move the solver side chose (from its
  certificate of the sub-question at that node, or, for a solver that prints none, the
  first legal check after which the solver says every reply still mates); it must be a
  legal check. At each defender node every legal reply, enumerated by the rules engine.
  Every line ends in a position the rules engine finds mate within the plies.
- **No mate within n**: at each attacker node every legal check (enumerated by the
  rules); none may mate, and when plies are left the solver side names a reply after
  which the rest is still "no mate": of the replies whose sub-question the solver answers
  false, one that leaves the attacker the fewest checks (then king moves, captures, the
  rest), so that the tree, and the strategy check's SAT call made from it, stays small.

The solver is asked through ``ask(pos, k) -> Answer`` on sub-questions Mate(pos, k) of the
positions reached (memoized by the exact position and k). The leaves are judged by the
rules alone, so a tree that checks is a proof whatever the solver said; a node where the
solver side and the rules part ways raises :class:`CertificateFailure`, naming the node by
its moves from the root.

>>> from tsumeqbf.rules import Position
>>> from tsumeqbf.rules.reference import ReferenceSolver
>>> def truthful(pos, k):  # an oracle that answers like a perfect solver without a certificate
...     return Answer(ReferenceSolver().mate(pos, k), None)
>>> c = certify(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1, True, truthful)
>>> c.nodes, c.main_line
(2, ['2c1b'])
>>> certify(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1, False, truthful)
Traceback (most recent call last):
...
tsumeqbf.solvers.certify.CertificateFailure: at 2c1b: the rules find mate, the solver side said no mate within 1
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable

from ..rules import Position, TsumeError, is_drop, line_to_japanese, move_from, move_to
from ..values import Status, verdict_of

#: strategy nodes (attacker and defender nodes) checked before a certificate is "too large"
DEFAULT_MAX_NODES = 20_000


@dataclass(frozen=True)
class Answer:
    """The solver side's answer to a sub-question: its verdict (None: not known) and, for a
    true verdict with a certificate, the attacker's first move (a move int or None)."""
    verdict: bool | None
    move: int | None = None
    reason: str = ""  # why the verdict is unknown
    lie: str = ""  # what in the answer the rules contradict (a certificate that is no check)


class CertificateFailure(TsumeError):
    """The solver side and the rules part ways at a node (its moves from the root)."""

    def __init__(self, line: list[str], message: str):
        self.line = list(line)
        self.message = message
        super().__init__(f"at {' '.join(line) or 'the root'}: {message}")


class CertificateIncomplete(Exception):
    """The strategy could not be checked to its end: too large, out of time, a solver error."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


@dataclass
class Certificate:
    """A checked strategy: ``tree`` (JSON-ready), ``nodes`` checked, the solver calls made."""
    mate: bool
    n: int
    tree: dict
    nodes: int
    calls: int
    main_line: list[str] = field(default_factory=list)  # USI, mate only
    main_line_japanese: list[str] = field(default_factory=list)

    def to_json(self, pos: Position) -> dict:
        return {"sfen": pos.sfen(), "n": self.n, "verdict": Status.of(self.mate).value,
                "strategy_nodes": self.nodes, "solver_calls": self.calls,
                "main_line": self.main_line, "main_line_japanese": self.main_line_japanese,
                "tree": self.tree}

    def write(self, path: str, pos: Position) -> None:
        """The tree as JSON to ``path`` (``-``: standard output)."""
        from ..arguments import output

        with output(path) as fh:
            json.dump(self.to_json(pos), fh, ensure_ascii=False, indent=1)
            fh.write("\n")


AskFn = Callable[[Position, int], Answer]


def certify(pos: Position, n: int, mate: bool, ask: AskFn, root_move: int | None = None,
            max_nodes: int = DEFAULT_MAX_NODES) -> Certificate:
    """Check the solver side's strategy for its verdict ``mate`` on Mate(pos, n).

    ``root_move`` is the first move of the root's certificate, when the verdict came with
    one. Raises :class:`CertificateFailure` where the strategy fails the rules and
    :class:`CertificateIncomplete` where it cannot be checked to its end."""
    walk = _StrategyWalk(pos.copy(), ask, max_nodes)
    walk.answers[(walk.pos.exact_key(), n)] = Answer(mate, root_move)
    tree = walk.prove(n) if mate else walk.refute(n)
    main = _main_line(tree, {}) if mate else []
    japanese = _japanese_line(pos.copy(), main)
    return Certificate(mate, n, tree, walk.nodes, walk.calls, main, japanese)


class _StrategyWalk:
    """Walks the strategy from ``pos`` (played and undone in place), memoizing answers and
    checked subtrees by (exact position, plies left)."""

    def __init__(self, pos: Position, ask: AskFn, max_nodes: int):
        self.pos = pos
        self.ask = ask
        self.max_nodes = max_nodes
        self.answers: dict[tuple, Answer] = {}
        self.subtrees: dict[tuple, dict] = {}
        self.line: list[str] = []
        self.nodes = 0
        self.calls = 0

    # -- the solver side ----------------------------------------------------------------
    def answer(self, k: int) -> Answer:
        key = (self.pos.exact_key(), k)
        if key not in self.answers:
            self.calls += 1
            ans = self.ask(self.pos, k)
            if ans.lie:
                raise self.fail(ans.lie)
            if ans.verdict is None:
                raise CertificateIncomplete(f"{ans.reason or 'no verdict'} at "
                                            f"{' '.join(self.line) or 'the root'}")
            self.answers[key] = ans
        return self.answers[key]

    def fail(self, message: str) -> CertificateFailure:
        return CertificateFailure(self.line, message)

    def count(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise CertificateIncomplete(f"too large (more than {self.max_nodes} strategy nodes)")

    @contextmanager
    def played(self, m: int):
        self.line.append(self.pos.usi(m))
        self.pos.push(m)
        try:
            yield
        finally:
            self.pos.pop()
            self.line.pop()

    def memoized(self, k: int, build: Callable[[int], dict]) -> dict:
        key = (self.pos.exact_key(), k)
        if key not in self.subtrees:
            self.subtrees[key] = build(k)
        return self.subtrees[key]

    # -- mate: one attacker move, every defender reply ------------------------------------
    def prove(self, k: int) -> dict:
        return self.memoized(k, self._prove)

    def _prove(self, k: int) -> dict:
        self.count()
        ans = self.answer(k)
        if ans.verdict is not True:
            raise self.fail(f"the solver side says no mate within {k} here, below a mate")
        move = ans.move if ans.move is not None else self._mating_check(k)
        if move is None:
            raise self.fail(f"the solver side says mate within {k}, but by its own answers "
                            f"below no check mates")
        if move not in self.pos.checks():
            raise self.fail(f"the solver side's move {self.pos.usi(move)} is not a legal check")
        usi = self.pos.usi(move)
        with self.played(move):
            self.count()
            replies = self.pos.legal_moves()
            if not replies:
                return {"move": usi, "mate": True}
            if k == 1:
                raise self.fail("not mate, and no plies are left")
            return {"move": usi, "replies": {self.pos.usi(r): self._after(r, self.prove, k - 2)
                                             for r in replies}}

    def _mating_check(self, k: int) -> int | None:
        """For a solver without a certificate: the first legal check that mates, or after
        which the solver says every reply still mates within k - 2."""
        for m in self.pos.checks():
            with self.played(m):
                replies = self.pos.legal_moves()
                if not replies or (k > 1 and all(self._after(r, self._verdict, k - 2)
                                                 for r in replies)):
                    return m
        return None

    def _verdict(self, k: int) -> bool:
        return self.answer(k).verdict

    def _after(self, m: int, then: Callable[[int], object], k: int):
        with self.played(m):
            return then(k)

    # -- no mate: every attacker check, one defender reply --------------------------------
    def refute(self, k: int) -> dict:
        return self.memoized(k, self._refute)

    def _refute(self, k: int) -> dict:
        self.count()
        if self.answer(k).verdict is not False:
            raise self.fail(f"the solver side says mate within {k} here, below a no-mate")
        checks = {}
        for m in self.pos.checks():
            usi = self.pos.usi(m)
            with self.played(m):
                self.count()
                replies = self.pos.legal_moves()
                if not replies:
                    raise self.fail(f"the rules find mate, the solver side said no mate "
                                    f"within {k}")
                if k == 1:
                    checks[usi] = {"mate": False}
                    continue
                reply = self._refutation(replies, k - 2)
                if reply is None:
                    raise self.fail(f"the solver side says no mate within {k} above, but "
                                    f"mate within {k - 2} after every reply")
                checks[usi] = {"reply": self.pos.usi(reply),
                               "then": self._after(reply, self.refute, k - 2)}
        return {"checks": checks}

    def _refutation(self, replies: list[int], k: int) -> int | None:
        """The solver side's reply: the first, in defence order, that it answers false."""
        for r in sorted(replies, key=self._defence_rank):
            if self._after(r, self._verdict, k) is False:
                return r
        return None

    def _defence_rank(self, r: int) -> tuple[int, int]:
        """Fewest attacker checks after the reply first: each check is a branch of the
        refutation below it (on musou-078 at 11 plies this halves the tree, 9,201 nodes to
        5,497; zukou-092's goes from 22,230 to 2,031). Among equals king moves, then
        captures, then the rest (interpositions, drops), the order in which a refutation is
        most often found."""
        self.pos.push(r)
        try:
            checks = len(self.pos.checks())
        finally:
            self.pos.pop()
        if is_drop(r):
            return checks, 2
        if move_from(r) == self.pos.kings[self.pos.turn]:
            return checks, 0
        return checks, 1 if self.pos.board[move_to(r)] else 2


def _main_line(tree: dict, depths: dict) -> list[str]:
    """The attacker's moves with the longest defence (the first reply among equals)."""
    line = [tree["move"]]
    if verdict_of(tree):
        return line
    reply, subtree = max(tree["replies"].items(), key=lambda kv: _depth(kv[1], depths))
    return line + [reply] + _main_line(subtree, depths)


def _depth(tree: dict, depths: dict) -> int:
    """Plies to mate along the longest defence (subtrees are shared: memoized by id)."""
    if id(tree) not in depths:
        depths[id(tree)] = 1 if verdict_of(tree) else 2 + max(
            _depth(t, depths) for t in tree["replies"].values())
    return depths[id(tree)]


def _japanese_line(pos: Position, usi_moves: list[str]) -> list[str]:
    moves = []
    for text in usi_moves:
        m = pos.parse_usi(text)
        moves.append(m)
        pos.push(m)
    for _ in moves:
        pos.pop()
    return line_to_japanese(pos, moves)
