"""Questions too large for any encoding, refused before the encoder starts."""

from __future__ import annotations

from ..rules import TsumeError

#: more plies than any encoding can hold: every ply adds a quantifier block and, measured
#: on the 3x3 figure 5 position (the smallest in the experiments), ~260 variables and
#: ~1,200 clauses, so 10,001 plies need ~12 million clauses (GBs here) and a solver that
#: gets through 10,000 quantifier alternations
MAX_PLIES = 9_999


def check_plies(n: int) -> None:
    """Refuse up front a question whose encoding is known to be hopeless.

    >>> check_plies(999999)
    Traceback (most recent call last):
    tsumeqbf.rules.errors.TsumeError: n=999999 is too large for a QBF encoding (at most 9999 plies: each ply adds a quantifier block and ~1,200 clauses on 3x3)
    """
    if n > MAX_PLIES:
        raise TsumeError(f"n={n} is too large for a QBF encoding (at most {MAX_PLIES} plies: "
                         f"each ply adds a quantifier block and ~1,200 clauses on 3x3)")
