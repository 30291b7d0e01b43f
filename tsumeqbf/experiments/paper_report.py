"""The ``paper-tables`` report: our runs beside the paper's Tables 1-6.

Per table, each of our engines' rows beside the paper's printed row with the ratios
ours/paper of variables, clauses and solver seconds; a summary of the `paper` encoding
(DepQBF) against the paper's times; and our variable counts fitted to the shape of the
paper's formula V = (n+1)(a·N² + b·N + c) + d·N + e (N squares, n plies), printed beside
the paper's own fit.

>>> fit_counts([(9, 1, 3860), (9, 3, 6880), (16, 1, 7227), (16, 3, 12963), (25, 1, 12132),
...             (36, 1, 19007), (49, 1, 28380)])
[2.0, 144.0, 52.0, 93.0, 3.0]
"""

from __future__ import annotations

import json

from ..values import Status, verdict_of
from .analysis import meta, verdict
from .cells import board_order, fmt, fmt_s, solver_s
from .paper import UNUSED_KINDS_REMOVED


PAPER_CAPTIONS = {
    1: "figures 5 and 6 (3x3, zone 2)",
    2: "figures 7 and 8 (4x4, zone 3)",
    3: "figure 5 (3x3) at 1 to 11 plies",
    4: "figure 5 at 1 ply on 3x3 to 9x9 boards",
    5: "Table 3 with the unused piece kinds removed",
    6: "Table 4 with the unused piece kinds removed",
}
PAPER_HEADER = ["figure", "board", "plies", "engine", "variables", "clauses", "result",
                "encoder s", "solver s", "paper variables", "paper clauses", "paper result",
                "paper encoder s", "paper solver s", "variables ours/paper",
                "clauses ours/paper", "solver s ours/paper"]
#: the configurations that re-run the paper's method: (label, the tables they answer)
PAPER_METHOD = (("depqbf/paper", (1, 2, 3, 4)), ("depqbf/paper-used-kinds", (5, 6)))
#: why our counts differ from the paper's, one line per table
DIFFERENCES = {
    1: "Figures 5 and 6 share one formula, as in the paper (the position enters only as unit "
       "clauses). Our 1-ply formula has fewer variables: the paper grounds more facts per "
       "square in every state, we ground the piece codes of every state and the attack maps "
       "of the first and last; our clauses are fewer because every definition keeps only "
       "the direction its use needs (Plaisted-Greenbaum).",
    2: "As Table 1; figures 7 and 8 share one formula.",
    3: "Per ply we add about as many variables as the paper (see the fitted formulas); "
       "clauses stay below the paper's, as in Table 1.",
    4: "Variables follow the paper's 2N² move pairs closely on every board. The paper's "
       "1-ply clauses on W x W boards are exactly 56W⁴ - 72W³ + 1491W² - 738W + 322 "
       "(Table 6: 8W⁴ + 363W² - 150W + 95), so they grow by 28 per move pair and ply with "
       "all 28 codes and by 4 with the used kinds; ours grow by about 4 with either (a "
       "move variable sits only in its origin, target and promotion gates), so the gap "
       "widens with the board.",
    5: "Unused kinds removed as the paper does: the codes that occur or can arise (the "
       "attacker's pawn, gold and tokin and the defender's king), the set the W⁴ term of the "
       "paper's clause counts implies. We have fewer variables and clauses per square; the "
       "9-ply row's printed variable count breaks the paper's own series (5,312 where the "
       "series gives 5,812).",
    6: "As Table 5.",
}


def ratio(ours, paper) -> str:
    """ours/paper to two significant digits (one decimal from 10 on), or empty where
    either is missing.

    >>> ratio(3338, 3860), ratio(None, 5), ratio(13, 3860), ratio(2.6, 0.203)
    ('0.86', '', '0.0034', '12.8')
    """
    if ours is None or paper in (None, 0) or ours == "":
        return ""
    return f"{float(ours) / paper:.2g}" if float(ours) / paper < 10 else f"{float(ours) / paper:.1f}"


def fit_counts(points) -> list[float] | None:
    """Least squares of V = (n+1)(a·N² + b·N + c) + d·N + e over (N, n, V) points:
    [a, b, c, d, e] rounded to one decimal (the shape of the paper's formula), or None
    where the points do not determine it (the plies vary on one board only).

    >>> fit_counts([(9, n, 100 * n) for n in (1, 3, 5)] + [(16, 1, 7), (25, 1, 9)]) is None
    True
    """
    import numpy as np

    rows = np.array([[(n + 1) * N * N, (n + 1) * N, n + 1, N, 1] for N, n, _ in points],
                    dtype=float)
    if np.linalg.matrix_rank(rows) < rows.shape[1]:
        return None
    coef, *_ = np.linalg.lstsq(rows, np.array([v for *_, v in points], dtype=float), rcond=None)
    return [round(float(c), 1) + 0.0 for c in coef]


def formula(coef: list[float] | None) -> str:
    """The fitted formula as text.

    >>> formula([2.0, 144.0, 52.0, 93.0, 3.0]), formula(None)
    ('(n+1)·(2N² + 144N + 52) + 93N + 3', 'not determined by these rows')
    """
    if coef is None:
        return "not determined by these rows"
    def num(x):
        return f"{x:g}"

    def term(x, unit, first=False):
        if first:
            return f"{num(x)}{unit}"
        return f" {'-' if x < 0 else '+'} {num(abs(x))}{unit}"
    a, b, c, d, e = coef
    return (f"(n+1)·({term(a, 'N²', True)}{term(b, 'N')}{term(c, '')})"
            f"{term(d, 'N')}{term(e, '')}")
PAPER_SERIES = "paper"  # plot series of published numbers are named "paper, Table N ..."


def paper_tables_context(rows: list[dict], labels: list[str], published: list[dict]) -> dict:
    """One table per paper table: the paper's row beside each of our engines' rows.
    Tables 5 and 6 (unused piece kinds removed) show the configurations with option
    ``used_kinds_only``; Tables 1-4 all the others."""
    ours: dict[tuple, dict] = {}
    for r in rows:
        m = meta(r)
        if "figure" in m:
            ours[(m["figure"], m.get("board"), r["n"], r["label"])] = r
    used_kinds = {r["label"] for r in rows if json.loads(r["options"] or "{}").get("used_kinds_only")}
    tables = []
    for number in sorted({p["table"] for p in published}):
        shown = [lb for lb in labels if (lb in used_kinds) == (number in UNUSED_KINDS_REMOVED)]
        lines = []
        for p in (p for p in published if p["table"] == number):
            paper_cells = [p["variables"], p["clauses"], Status.of(verdict_of(p)).word,
                           fmt_s(p["encoder_s"]), fmt_s(p["solver_s"])]
            for label in shown:
                r = ours.get((p["figure"], p["board"], p["plies"], label))
                if r is None:
                    continue
                result = verdict(r) + ("!" if verdict_of(r) is not None
                                       and verdict_of(r) != verdict_of(p) else "")
                lines.append([p["figure"], p["board"], p["plies"], fmt(label), fmt(r["vars"]),
                              fmt(r["clauses"]), result, fmt_s(r["encode_s"]), fmt_s(solver_s(r)),
                              *paper_cells, ratio(r["vars"], p["variables"]),
                              ratio(r["clauses"], p["clauses"]),
                              ratio(solver_s(r), p["solver_s"]) if verdict_of(r) is not None else ""])
        notes = sorted({p["note"] for p in published if p["table"] == number and p["note"]})
        tables.append({"number": number, "caption": PAPER_CAPTIONS.get(number, ""),
                       "rows": lines, "notes": notes, "differences": DIFFERENCES.get(number, "")})
    method = paper_method(ours, published)
    return {"paper_header": PAPER_HEADER, "tables": tables,
            "series": paper_series(ours, labels, published), "method": method,
            "method_header": ["figure", "board", "plies", "result", "solver s", "paper solver s",
                              "ours/paper"],
            "fits": paper_fits(ours, published),
            "fit_header": ["engine", "count", "fitted to our runs", "fitted to the paper's"],
            "time_points": {m["label"]: m["points"] for m in method}}


def _method_rows(ours: dict, published: list[dict], label: str, tables) -> list[tuple]:
    """(paper row, our row or None) for each distinct question of ``tables``."""
    seen, out = set(), []
    for p in published:
        key = (p["figure"], p["board"], p["plies"])
        if p["table"] in tables and key not in seen:
            seen.add(key)
            out.append((p, ours.get((*key, label))))
    return out


def paper_method(ours: dict, published: list[dict]) -> list[dict]:
    """For each configuration that re-runs the paper's method: how many of the paper's
    questions it answered with the paper's verdict, within 2x and 10x of its seconds, and
    every question it did not answer within 10x."""
    out = []
    for label, tables in PAPER_METHOD:
        asked = _method_rows(ours, published, label, tables)
        pairs = [(p, r) for p, r in asked if r is not None]
        if not pairs:
            continue
        not_run = [_question(p) for p, r in asked if r is None]
        same = [(p, r) for p, r in pairs
                if verdict_of(r) is not None and verdict_of(r) == verdict_of(p)]
        within = {k: sum(solver_s(r) <= k * p["solver_s"] for p, r in same) for k in (2, 10)}
        beyond = [[p["figure"], p["board"], p["plies"], verdict(r), fmt_s(solver_s(r)),
                   fmt_s(p["solver_s"]), ratio(solver_s(r), p["solver_s"])]
                  for p, r in pairs if (p, r) not in same or solver_s(r) > 10 * p["solver_s"]]
        slow = [f"{_question(p)} ({ratio(solver_s(r), p['solver_s'])}x)"
                for p, r in same if 2 * p["solver_s"] < solver_s(r) <= 10 * p["solver_s"]]
        out.append({"label": label, "questions": len(pairs), "same": len(same),
                    "not_run": not_run, "printed": len(asked), "slow": slow,
                    "board_trend": _board_trend(same),
                    "within2": within[2], "within10": within[10], "beyond": beyond,
                    "points": [(p["solver_s"], solver_s(r)) for p, r in same]})
    return out


def _question(p: dict) -> str:
    """A paper row's question in words: "figure 5, 9x9, 1 ply"."""
    return f"figure {p['figure']}, {p['board']}, {p['plies']} {'ply' if p['plies'] == 1 else 'plies'}"


def _board_trend(same: list) -> str:
    """Ours/paper solver seconds on the smallest and the largest board of the 1-ply
    questions (the paper's board series; the mean where a board has several questions),
    said in words, or "" with fewer than two boards."""
    by_board: dict[str, list[float]] = {}
    for p, r in same:
        if p["plies"] == 1 and p["solver_s"]:
            by_board.setdefault(p["board"], []).append(solver_s(r) / p["solver_s"])
    if len(by_board) < 2:
        return ""
    b0, b1 = min(by_board, key=board_cells), max(by_board, key=board_cells)
    r0, r1 = (sum(by_board[b]) / len(by_board[b]) for b in (b0, b1))
    pace = "faster" if r1 > r0 else "no faster"
    return (f"{ratio(r0, 1)} on {b0} to {ratio(r1, 1)} on {b1}: on our formula DepQBF's "
            f"time grows {pace} with the board than on the paper's")


def paper_fits(ours: dict, published: list[dict]) -> list[list[str]]:
    """Variables and clauses fitted to the paper's formula, ours beside the paper's (fitted
    over every printed row of the same tables)."""
    out = []
    for label, tables in PAPER_METHOD:
        pairs = [(p, r) for p, r in _method_rows(ours, published, label, tables)
                 if r is not None and r.get("vars") is not None]
        if not pairs:
            continue
        printed = _method_rows(ours, published, label, tables)
        for what, ours_key, paper_key in (("variables", "vars", "variables"),
                                          ("clauses", "clauses", "clauses")):
            mine = [(board_cells(p["board"]), p["plies"], r[ours_key]) for p, r in pairs]
            # Table 5's 9-ply variable count breaks the paper's own series (a misprint)
            theirs = [(board_cells(p["board"]), p["plies"], p[paper_key]) for p, _ in printed
                      if not (p["table"] in UNUSED_KINDS_REMOVED and p["plies"] == 9
                              and what == "variables")]
            out.append([fmt(label), what, formula(fit_counts(mine)), formula(fit_counts(theirs))])
    return out


def board_cells(board: str) -> int:
    w, _, h = board.partition("x")
    return int(w) * int(h)


def paper_time_points(ctx: dict) -> dict[str, list[tuple[float, float]]]:
    """(paper seconds, our seconds) per configuration of the paper's method, answered
    questions only: the points of the log-log plot."""
    return ctx["time_points"]


def paper_series(ours: dict, labels: list[str], published: list[dict]) -> dict:
    """Plot data: solver seconds against plies (Tables 3/5) and board size (Tables 4/6)."""
    out = {}
    for axis, tables in (("plies", (3, 5)), ("boards", (4, 6))):
        points = [p for p in published if p["table"] in tables]
        keys = sorted({(p["figure"], p["board"], p["plies"]) for p in points},
                      key=lambda k: (board_order(k[1]), k[2]))
        xs = [str(k[2]) if axis == "plies" else k[1] for k in keys]
        series = {}
        for label in labels:
            ys = []
            for k in keys:
                r = ours.get((*k, label))
                ys.append(solver_s(r) if r is not None and verdict_of(r) is not None else None)
            if any(y is not None for y in ys):
                series[label] = ys
        for t in tables:
            by_key = {(p["figure"], p["board"], p["plies"]): p["solver_s"] for p in points if p["table"] == t}
            series[f"{PAPER_SERIES}, Table {t} (DepQBF 6.0)"] = [by_key.get(k) for k in keys]
        out[axis] = {"xs": xs, "series": series}
    return out


