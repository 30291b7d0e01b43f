"""Issue 41's goals, as the ``qbf`` report states them for the default QBF engine.

The goals count the engine users are told to use for QBF, the portfolio
(:mod:`tsumeqbf.solvers.portfolio`): the YaneuraOu mate-in-7, mate-in-9 and mate-in-11
samples decided at their stated length, the two no-mate questions of ``qbf-real`` at 9
plies, and the PAR-2 score over every question of the best QBF configuration. Each line
is counted from the rows (of repeated cells, the median repeat, as the other tables), and
each question left undecided is named with the reason its row gives.

PAR-2 is compared per core: a portfolio of ``jobs`` members at once is given ``jobs``
times a single solver's CPU limit (:mod:`tsumeqbf.experiments.config`), so its CPU
seconds, and its penalty, are divided by ``jobs`` to stand beside a single solver's on one
core. Under a wall-clock limit the seconds are wall seconds and are not divided.

>>> from tsumeqbf.values import Status
>>> row = {"engine": "portfolio", "label": "portfolio", "instance": "musou-065", "n": 9,
...        "meta": "{}", "status": Status.UNKNOWN, "error": "no member decided",
...        "options": '{"jobs": 2}', "cpu_limit": 120.0, "cpu_s": 120.4}
>>> goals = goal_context([row], ["portfolio"])
>>> goals["lines"][0][:4], goals["lines"][0][-1]
(['no mate: musou-065 and zukou-050', 9, '0/1', '2 of 2'], 'musou-065: no member decided')
>>> goals["par2"]
[['portfolio (best, the default)', '120.000', '(the goal is on 62 questions)']]
"""

from __future__ import annotations

import json

from ..engines import is_qbf_engine
from ..values import reason_of, verdict_of
from .cells import fmt, fmt_s, no_paths
from .qbf_report import collection, par2

#: the engine the goals count: the QBF engine to use by default
DEFAULT_QBF_ENGINE = "portfolio"
#: (what, the collection or the instance ids, plies, the goal: decided at least ``count``
#: of the issue's ``total`` questions, and the stretch count, if any)
GOALS = (
    ("YaneuraOu mate-in-7", "yaneuraou-mate7", 7, (11, 11, None)),
    ("YaneuraOu mate-in-9", "yaneuraou-mate9", 9, (4, 5, None)),
    ("YaneuraOu mate-in-11", "yaneuraou-mate11", 11, (3, 5, 5)),
    ("no mate: musou-065 and zukou-050", ("musou-065", "zukou-050"), 9, (2, 2, None)),
)
#: the best QBF configuration's PAR-2 over every question of ``qbf-real`` (this many),
#: seconds per core
PAR2_GOAL_S, PAR2_GOAL_QUESTIONS = 12.0, 62


def default_label(rows: list[dict], labels: list[str]) -> str | None:
    """The label of the default QBF engine's rows (the first, in the report's order)."""
    engines = {r["label"]: r["engine"] for r in rows}
    return next((label for label in labels if engines.get(label) == DEFAULT_QBF_ENGINE), None)


def cores(row: dict) -> int:
    """The cores a cell's CPU seconds are spread over: the portfolio's ``jobs`` under a CPU
    limit, else 1."""
    options = row.get("options") or {}
    if isinstance(options, str):
        options = json.loads(options or "{}")
    return int(options.get("jobs") or 1) if row.get("cpu_limit") else 1


def par2_per_core(rows: list[dict]) -> float | None:
    """PAR-2 (:func:`tsumeqbf.experiments.qbf_report.par2`) over ``rows``, each cell's
    seconds and penalty divided by its :func:`cores`."""
    if not rows:
        return None
    return sum(par2([r]) / cores(r) for r in rows) / len(rows)


def goal_context(rows: list[dict], labels: list[str]) -> dict | None:
    """The goal lines for the default QBF engine's rows (None without such rows): per goal
    the questions decided of those asked, the goal, whether it is met and the undecided
    questions with their reasons; the PAR-2 lines; which member answered how often."""
    label = default_label(rows, labels)
    if label is None:
        return None
    mine = [r for r in rows if r["label"] == label]
    lines = []
    for what, which, plies, need in GOALS:
        asked = [r for r in mine if r["n"] == plies and (
            collection(r) == which if isinstance(which, str) else r["instance"] in which)]
        if not asked:
            continue
        open_ = [r for r in asked if verdict_of(r) is None]
        count, total, stretch = need
        goal = f"{count} of {total}" + (f" (stretch {stretch})" if stretch else "")
        lines.append([what, plies, f"{len(asked) - len(open_)}/{len(asked)}", goal,
                      "met" if len(asked) - len(open_) >= count else "short",
                      fmt("; ".join(f"{r['instance']}: {no_paths(reason_of(r)) or r['status']}"
                                    for r in open_)) or "-"])
    questions = {r["instance"] for r in rows}
    scores = {}
    for lb in labels:
        cells = [r for r in rows if r["label"] == lb]
        if (cells and is_qbf_engine(cells[0]["engine"])
                and {r["instance"] for r in cells} == questions):
            scores[lb] = par2_per_core(cells)
    best = min(scores, key=lambda lb: (scores[lb], lb != label), default=None)
    par2_lines = []
    for lb in dict.fromkeys(x for x in (best, label) if x in scores):
        tags = [t for t, on in (("best", lb == best), ("the default", lb == label)) if on]
        par2_lines.append([fmt(f"{lb} ({', '.join(tags)})"), fmt_s(scores[lb]),
                           "met" if scores[lb] <= PAR2_GOAL_S else "short"])
    if len(questions) != PAR2_GOAL_QUESTIONS:  # the goal is on the whole set, not a subset
        par2_lines = [line[:2] + [f"(the goal is on {PAR2_GOAL_QUESTIONS} questions)"]
                      for line in par2_lines]
    members: dict[str, int] = {}
    for r in mine:
        if verdict_of(r) is not None and r.get("member"):
            members[r["member"]] = members.get(r["member"], 0) + 1
    return {"label": fmt(label), "lines": lines, "questions": len(questions),
            "par2": par2_lines, "par2_goal": f"{PAR2_GOAL_S:g}",
            "members": [[fmt(m), k] for m, k in sorted(members.items(), key=lambda x: -x[1])]}
