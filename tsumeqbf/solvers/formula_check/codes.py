"""Moves as the values of the formula variables that choose them, and back: the code of a
move under each move choice (candidate lists, one-hot, lifted fields, the paper's
variables), and the line of play a counter-model's codes name."""

from __future__ import annotations

from ...encoder.choice import MoveChoice, OneHotChoice
from ...rules import Position
from ...rules.moves import drop_kind, is_drop, is_promotion, move_from, move_to
from ...rules.pieces import PAWN


def _cand_index(cands, pos: Position, m: int):
    for i, c in enumerate(cands):
        if c.move() == m and (c.frm < 0 or pos.board[c.frm] == c.code):
            return i
    return None


def choice_code(choice, pos: Position, m: int, reading: bool = False) -> dict | None:
    """The values (formula variable -> bool) with which ``choice`` chooses move ``m`` of
    ``pos``; None when it does not offer ``m``. ``reading``: the values that tell that the
    other side chose ``m``, where a lifted drop leaves out the promote bit: the formula
    accepts a drop with either value and drops the same piece (``result`` and ``decode``
    ignore it), so both codes are that drop."""
    if hasattr(choice, "cands_at"):  # encoding dag: codes local to the listed position
        cands = choice.cands_at(pos)
        i = None if cands is None else _cand_index(cands, pos, m)
        return None if i is None else {b: bool(i >> j & 1) for j, b in enumerate(choice.bits)}
    if isinstance(choice, (MoveChoice, OneHotChoice)):
        i = _cand_index(choice.cands, pos, m)
        if i is None:
            return None
        if isinstance(choice, OneHotChoice):
            return {b: k == i for k, b in enumerate(choice.bits)}
        return {b: bool(i >> j & 1) for j, b in enumerate(choice.bits)}
    if hasattr(choice, "src"):  # a lifted move: fields
        if is_drop(m):
            if drop_kind(m) not in choice.kinds:
                return None
            src = len(choice.origins) + choice.kinds.index(drop_kind(m))
        elif move_from(m) in choice._origin:
            src = choice._origin[move_from(m)]
        else:
            return None
        dst = choice._target.get(move_to(m))
        if dst is None or (is_promotion(m) and choice.promote is False):
            return None
        out = {b: bool(src >> j & 1) for j, b in enumerate(choice.src.bits)}
        out.update({b: bool(dst >> j & 1) for j, b in enumerate(choice.dst.bits)})
        if choice.promote is not False and not (reading and is_drop(m)):
            out[choice.promote] = is_promotion(m)
        return out
    if hasattr(choice, "var"):  # the paper's (from, to, promote) variables
        if is_drop(m):
            return None
        key = (move_from(m), move_to(m), int(is_promotion(m)))
        if key not in choice.var:
            return None
        return {v: k == key for k, v in choice.var.items()}
    raise TypeError(f"unknown move choice {choice!r}")


def is_pawn_drop(m: int) -> bool:
    return is_drop(m) and drop_kind(m) == PAWN


def line_of(model, f, num_of, pos: Position, n: int) -> list[str]:
    """The line of play a counter-model chooses, followed while its codes are legal moves."""
    true = {x for x in model if x > 0}  # once, not per variable (quadratic in the variables)
    values = {v: v in true for v in range(1, len(model) + 1)}
    pos = pos.copy()
    line = []
    for t in range(1, n + 2):
        choice = f.choices.get(f"m{t}")
        if choice is None:
            break
        moves = pos.checks() if t % 2 else pos.legal_moves()
        chosen = None
        for m in moves:
            code = choice_code(choice, pos, m, reading=True)
            if code and all(values.get(num_of.get(v), False) == b for v, b in code.items()
                            if num_of.get(v)):
                chosen = m
                break
        if chosen is None:
            line.append(f"(ply {t}: {_illegal_code(choice, values, num_of, pos, t % 2 == 1)})")
            break
        line.append(pos.usi(chosen))
        pos.push(chosen)
    return line


def _illegal_code(choice, values: dict, num_of: dict, pos: Position, attacker: bool) -> str:
    """What a code that no legal move has names: the candidate it decodes to, if any."""
    what = "check" if attacker else "reply"
    decode = getattr(choice, "decode", None)
    cand = decode({v: values.get(num_of.get(v), False) for v in choice.bits}) if decode else None
    move = getattr(cand, "move", None)
    if move is None:
        return f"a code that is no legal {what}"
    return f"{pos.usi(move())}, which is no legal {what}"
