"""The strategy as functions over the file's variables: decision lists built while the
strategy's lines are walked (the attacker's moves for a mate, the defender's replies for a
no-mate), each row under a condition on the other side's earlier codes."""

from __future__ import annotations

from ...rules import Position, TsumeError
from ...rules.moves import is_drop, move_from
from ..certify import Answer
from .codes import is_pawn_drop, choice_code
from .result import CheckFailed, CheckUnknown

#: lines of play (strategy nodes expanded into lines) before the check gives up
DEFAULT_MAX_LINES = 2_000_000


def strategy_ask(source: str, max_nodes: int | None, deadline: float | None):
    """``ask(pos, k) -> Answer`` of certify, from brute force (``reference``) or the Python
    df-pn (``dfpn``), both on the rules engine."""
    if source == "reference":
        from ...rules.reference import ReferenceSolver, SearchLimit

        solver = ReferenceSolver(max_nodes=max_nodes, deadline=deadline)

        def ask(pos, k):
            try:
                return Answer(solver.mate(pos, k))
            except SearchLimit as exc:
                return Answer(None, reason=str(exc))
        return ask
    if source == "dfpn":
        from ...dfpn.core import DfPn
        from ...dfpn.game import ShogiGame

        def ask(pos, k):
            res = DfPn(ShogiGame(pos.copy()), max_nodes=max_nodes, deadline=deadline).solve(k)
            if res.proven is None:
                return Answer(None, reason="df-pn ran out of nodes or time")
            return Answer(res.proven, res.best_move if res.proven else None)
        return ask
    raise TsumeError(f"unknown strategy source {source!r}; choose reference or dfpn")


class Functions:
    """The decision lists: rows (condition literal, values) per choice, built while the
    strategy's lines are walked; conditions are extra SAT variables above the file's."""

    def __init__(self, f, num_of, quantified: set, top: int, max_lines: int):
        self.f, self.max_lines = f, max_lines
        # a variable the file does not quantify (universal reduction dropped it) is read
        # and set by nobody: the matrix does not mention it
        self.num_of = {v: x for v, x in num_of.items() if x in quantified}
        self.next_var = top + 1
        self.clauses: list[list[int]] = []
        self.true = self.new()
        self.clauses.append([self.true])
        self.rows: dict[str, list] = {}  # choice name -> [(condition, {file var: bool})]
        self.reads: dict[int, list[int]] = {self.true: []}  # condition -> file vars read
        self.lines = 0
        # the functions as a circuit (for the AIGER certificate): condition -> (parent,
        # literals); (variable, its conditions, the group's, default); constants; gates
        self.defs: dict[int, tuple[int, list[int]]] = {}
        self.funcs: list[tuple[int, list, list, bool]] = []
        self.consts: dict[int, bool] = {}
        self.gates: dict[int, list[int]] = {}

    def new(self) -> int:
        v = self.next_var
        self.next_var += 1
        return v

    def file_values(self, values: dict) -> dict[int, bool]:
        out = {}
        for v, b in values.items():
            fv = self.num_of.get(v)
            if fv is not None:
                out[fv] = b
        return out

    def add(self, name: str, cond: int, values: dict) -> None:
        self.rows.setdefault(name, []).append((cond, self.file_values(values)))

    def narrow(self, cond: int, values: dict) -> int:
        """A condition: ``cond`` and the variables having ``values``."""
        self.lines += 1
        if self.lines > self.max_lines:
            raise CheckUnknown(f"strategy too large (more than {self.max_lines} lines)")
        lits = [v if b else -v for v, b in self.file_values(values).items()]
        r = self.new()
        self.clauses += [[-r, cond]] + [[-r, x] for x in lits]
        self.clauses.append([r, -cond] + [-x for x in lits])
        self.reads[r] = self.reads[cond] + [abs(x) for x in lits]
        self.defs[r] = (cond, lits)
        return r


def walk_mate(fn: Functions, choices, pos, tree, t, n, cond, line) -> None:
    """Rows for the attacker's strategy below ``tree`` (ply t, odd) under ``cond``."""
    move = pos.parse_usi(tree["move"])
    choice = choices.get(f"m{t}")
    if choice is None and t == n and f"m{t}" in choices:
        return  # ply n has no variables (dag-fold): the strategy's mate needs no rows
    code = choice_code(choice, pos, move) if choice is not None else None
    if code is None:
        raise CheckFailed(f"the encoding does not offer the strategy's move "
                          f"{tree['move']} at ply {t}", line + [tree["move"]])
    fn.add(f"m{t}", cond, code)
    pos.push(move)
    try:
        witness = choices.get(f"w{t}")
        if witness is not None and is_pawn_drop(move):
            for r in pos.legal_moves():
                values = choice_code(witness, pos, r)
                if values is not None:
                    fn.add(f"w{t}", cond, values)
                    break
        for usi, sub in tree.get("replies", {}).items():
            reply = pos.parse_usi(usi)
            dchoice = choices.get(f"m{t + 1}")
            values = (choice_code(dchoice, pos, reply, reading=True) if dchoice is not None
                      else None)
            if values is None:
                continue  # a reply the formula does not offer needs no answer
            pos.push(reply)
            try:
                walk_mate(fn, choices, pos, sub, t + 2, n, fn.narrow(cond, values),
                           line + [tree["move"], usi])
            finally:
                pos.pop()
    finally:
        pos.pop()


def walk_nomate(fn: Functions, choices, pos, tree, t, n, cond, line) -> None:
    """Rows for the defender's strategy below ``tree`` (the attacker to move at ply t)."""
    for usi, entry in tree["checks"].items():
        check = pos.parse_usi(usi)
        choice = choices.get(f"m{t}")
        values = choice_code(choice, pos, check, reading=True) if choice is not None else None
        if values is None:
            continue  # a check the formula does not offer needs no reply
        c = fn.narrow(cond, values)
        pos.push(check)
        try:
            if "reply" in entry:
                reply = pos.parse_usi(entry["reply"])
            else:  # the last ply: any legal reply
                reply = _first_defence(pos)
            dname = f"m{t + 1}"
            if dname in choices:
                code = choice_code(choices[dname], pos, reply)
                if code is None:
                    raise CheckFailed(f"the encoding does not offer the defender's reply "
                                      f"{pos.usi(reply)} at ply {t + 1}",
                                      line + [usi, pos.usi(reply)])
                fn.add(dname, c, code)
                _escape_rows(fn, choices.get(f"w{t + 1}"), pos, reply, c)
            if t == n:
                for name, w in choices.items():  # the expanded last ply's drop witnesses
                    if name.startswith(f"w{t + 1}_"):
                        drop = w.drops[0].move()
                        if drop in pos.legal_moves():
                            _escape_rows(fn, w, pos, drop, c, name)
            if "then" in entry:
                pos.push(reply)
                try:
                    walk_nomate(fn, choices, pos, entry["then"], t + 2, n, c,
                                 line + [usi, entry["reply"]])
                finally:
                    pos.pop()
        finally:
            pos.pop()


def _first_defence(pos: Position) -> int:
    king = pos.kings[pos.turn]
    replies = pos.legal_moves()
    return min(replies, key=lambda r: (is_drop(r) or move_from(r) != king, r))


def _escape_rows(fn, witness, pos, reply, cond, name=None) -> None:
    """The defender names the attacker's escape after its pawn drop ``reply``."""
    if witness is None or not is_pawn_drop(reply):
        return
    pos.push(reply)
    try:
        for m in pos.legal_moves():
            values = choice_code(witness, pos, m)
            if values is not None:
                fn.add(name or witness.name, cond, values)
                return
    finally:
        pos.pop()
