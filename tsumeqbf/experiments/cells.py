"""Table cells for the reports: numbers, seconds and texts as the Markdown shows them.

>>> fmt_s(0.0123456), fmt_s(None), fmt_s(1234.5)
('0.012', '', '1234.500')
"""

from __future__ import annotations

import re


def fmt_s(seconds) -> str:
    return "" if seconds is None else f"{seconds:.3f}"


def fmt(value) -> str:
    """A table cell: empty for none, no absolute path, and a '|' cannot break the table."""
    return "" if value is None else no_paths(str(value)).replace("|", "\\|")


def no_paths(text: str) -> str:
    """Keep only the last part of absolute paths (reports must not show this machine's).

    >>> no_paths("cannot start false (/bin/false): code 1 in /tmp/x/a.qdimacs")
    'cannot start false (false): code 1 in a.qdimacs'
    """
    return re.sub(r"(?<![\w.~])/(?:[^\s/:'\"()]+/)+(?=[^\s/])", "", text)


def solver_s(row: dict):
    """The solving time: the QBF solver's own seconds, else the engine's."""
    return row["solve_s"] if row.get("solve_s") is not None else row.get("time_s")


def board_order(board: str) -> tuple:
    w, _, h = board.partition("x")
    return (int(w) * int(h), int(w)) if w.isdigit() and h.isdigit() else (0, 0)
