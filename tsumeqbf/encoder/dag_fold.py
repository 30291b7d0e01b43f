"""Encoding ``dag-fold``: ``dag`` with its last two plies folded into clauses on the
attacker's moves at ply n - 2, so that the positions after ply n - 2 and n - 1, the most
numerous, get no variables.

In ``dag`` the line alive in a position q after ply n - 1 needs a variable ``at(q)``, a
gate per reply into q and a clause that the attacker's code at ply n names one of q's
mating checks; the line alive in p after ply n - 2 needs ``at(p)``, a gate per attacker's
move into p and the clause ``NOT at(p) OR code(n-1) >= s`` (p's s replies after which no
check mates come first among its codes). Nothing else reads ``at(q)``, and the code of
ply n, the innermost block, is constrained by nothing else either: the attacker alive in
a q with a mating check always has one, so those variables say nothing the listing did
not, and ply n is left out. Nothing else reads ``at(p)`` either, so the gate into it and
the clause are one clause per attacker's move k at ply n - 2 from r into such a p:

    NOT at(r) OR NOT code(n-2) = k OR code(n-1) >= s

and none where s = 0 (every reply of p, if any, is answered by a mate). The rules engine
lists the same as for ``dag`` up to ply n - 2; at ply n - 1 it decides for each reply
only whether a check mates in the position after it (as ``dag`` does when it lists ply n),
without keeping that position. The QBF solver still decides the game: which check to play
at each of plies 1, 3, ..., n - 2 against every reply.

What differs for the tools around it: ply n has no move choice (``choices["m<n>"]`` is
None), so a verdict's strategy ends at ply n - 2 and the rules engine finds the mate (the
strategy check and ``--certify`` do); at 1 ply the formula is ``dag``'s. The listing
cap (:data:`.dag.FOLD_CAP`) counts the positions after ply n - 2; past it the question
is encoded by ``mating``, as for ``dag``. docs/encodings.md ("dag-fold") says why the
formula is Mate(P, n) and what it measured.

Encoding ``dag-fold-reduced`` (:func:`encode_reduced`) is this formula with ply n - 1's
universal code reduced away: ``code(n-1) >= s`` is a monotone circuit of the defender's
bits that occurs only positively, so the defender's code 0 is best whatever came before
and falsifies it for every s > 0. What is left per position r before ply n - 2 is
``NOT at(r) OR code(n-2) < c0``, c0 the number of r's checks with s = 0 (those checks
first): ply n - 2 offers only them, ply n - 1 has no variables, and a position with
c0 = 0 gets no variable (the defender's replies into it come first at ply n - 3, as
``dag`` does for a position without a listed move). The native core counts c0 per
position (:func:`tsumeqbf.native.fold_wins`); docs/encodings.md ("dag-fold-reduced").

>>> from tsumeqbf.rules import Position
>>> enc = encode(Position.from_sfen("2k/3/1GP b - 1", zone=2), 3)
>>> enc.encoding, enc.formula.choices["m3"] is None, "m2" in enc.formula.choices
('dag-fold', True, True)
>>> red = encode_reduced(Position.from_sfen("2k/3/1GP b - 1", zone=2), 3)
>>> red.encoding, "m2" in red.formula.choices, len(red.formula.clauses) < len(enc.formula.clauses)
('dag-fold-reduced', False, True)
"""

from __future__ import annotations

from ..rules.position import Position
from . import dag
from .game import Encoded


def encode(pos: Position, n: int, **choices) -> Encoded:
    """Mate(pos, n) as a QBF; ``choices``: binary move codes only."""
    return dag.encode_fold(pos, n, **choices)


def encode_reduced(pos: Position, n: int, **choices) -> Encoded:
    """Mate(pos, n) as ``dag-fold-reduced``; ``choices``: binary move codes only."""
    return dag.encode_reduced(pos, n, **choices)
