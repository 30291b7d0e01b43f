"""The ``qbf`` report kind: QBF solvers and encodings on real problems, as the QBF field
compares solvers.

- **PAR-2**: the mean over an engine's cells of its seconds when it decided the question,
  and twice the cell's time limit when it did not (a timeout, an error, an encoding that
  did not finish): one number that rewards both solving more and solving faster.
- **Cactus plot** (``NAME-cactus.png``): per engine, its decided cells sorted by time; the
  k-th point is the seconds it needed to decide k questions. A line further right decides
  more; a lower line decides as many sooner.
- **Per collection**: how many questions of each collection every engine decided.
- **Sizes per encoding**: the median variables, clauses and encoding seconds of the
  formulas an encoding wrote, per collection (the solver does not change the formula).
- **Who wins where**: per collection, the engine that decided the most questions fastest.

>>> rows = [{**Answer.of(said).to_row(), "label": "a", "time_s": seconds, "timeout": 10.0}
...         for said, seconds in ((True, 1.0), (None, 10.0))]
>>> par2(rows)
10.5
>>> cactus_points(rows)
[1.0]
"""

from __future__ import annotations

import json
import statistics

from .analysis import by_question, disagreements, fastest, limit_seconds as seconds, meta, verdict
from .cells import fmt, fmt_s
from ..values import Answer, Status, reason_of, verdict_of

#: option keys that say how the formula is built (the solver and the limits do not)
ENCODING_KEYS = ("encoding", "attacker_moves", "defender_moves", "used_kinds_only",
                 "no_hands")


def par2(rows: list[dict]) -> float | None:
    """Penalised average runtime: decided cells at their time, the others at twice their
    time limit (a cell without a limit counts at twice its own time). Under a CPU limit,
    CPU seconds and twice the CPU limit."""
    if not rows:
        return None
    total = 0.0
    for r in rows:
        spent = seconds(r) or 0.0
        if verdict_of(r) is not None:
            total += spent
        else:
            total += 2 * ((r.get("cpu_limit") or r.get("timeout")) or spent)
    return total / len(rows)


def cactus_points(rows: list[dict]) -> list[float]:
    """The seconds of the decided cells, sorted: the cactus plot's line of one engine."""
    return sorted(seconds(r) for r in rows if verdict_of(r) is not None
                  and seconds(r) is not None)


def collection(row: dict) -> str:
    """The set a question belongs to: its ``collection``, else the paper's figures, else
    its board size."""
    m = meta(row)
    if m.get("collection"):
        return str(m["collection"])
    if str(row.get("instance", "")).startswith("paper-"):
        return "paper figures"
    return m.get("board", "?")


def encoding_name(row: dict) -> str | None:
    """How a QBF cell's formula was built: the encoding and every axis set away from its
    default (``compact defender_moves=onehot-sequential``); None for other engines, and for
    the portfolio, whose formula is its members' (counted under their own configurations)."""
    if row.get("engine") == "portfolio":
        return None
    options = row.get("options") or {}
    if isinstance(options, str):
        options = json.loads(options or "{}")
    if "encoding" not in options and row.get("vars") is None:
        return None
    name = options.get("encoding") or "compact"
    extra = [f"{k}={options[k]}" for k in ENCODING_KEYS[1:]
             if options.get(k) not in (None, False, "binary")]
    return " ".join([name, *extra])


def _collections(rows: list[dict]) -> list[str]:
    first: dict[str, int] = {}
    for i, r in enumerate(rows):
        first.setdefault(collection(r), i)
    return sorted(first, key=lambda c: (_length_order(c), first[c]))


def _length_order(name: str) -> tuple:
    """Collections by name, a length in the name by its number (mate11 after mate9).

    >>> sorted(["y-mate11", "y-mate9", "paper figures"], key=_length_order)
    ['paper figures', 'y-mate9', 'y-mate11']
    """
    digits = "".join(ch for ch in name if ch.isdigit())
    return (name.rstrip("0123456789"), int(digits) if digits else 0)


def qbf_context(rows: list[dict], labels: list[str]) -> dict:
    by_label = {label: [r for r in rows if r["label"] == label] for label in labels}
    limits = sorted({r["timeout"] for r in rows if r.get("timeout") and not r.get("cpu_limit")})
    cpu_limits = sorted({r["cpu_limit"] for r in rows if r.get("cpu_limit")})
    # engines restricted to shorter questions would score better on their easier share:
    # the ranking is on the questions every engine was asked
    asked_by = [{r["instance"] for r in mine} for mine in by_label.values() if mine]
    common = set.intersection(*asked_by) if asked_by else set()
    scores = []
    for label in labels:
        mine = by_label[label]
        decided = cactus_points(mine)
        shared = par2([r for r in mine if r["instance"] in common])
        scores.append([fmt(label), len(mine), len(decided),
                       sum(verdict_of(r) is True for r in mine),
                       sum(verdict_of(r) is False for r in mine),
                       fmt_s(statistics.median(decided)) if decided else "",
                       fmt_s(par2(mine)), fmt_s(shared)])
    ranked = sorted(scores, key=lambda s: (float(s[-1]) if s[-1] else float("inf"), s[0]))
    sets = _collections(rows)
    asked = {c: len({r["instance"] for r in rows if collection(r) == c}) for c in sets}
    per_set = []
    for c in sets:
        line = [fmt(c), asked[c]]
        for label in labels:
            mine = [r for r in by_label[label] if collection(r) == c]
            line.append(f"{sum(verdict_of(r) is not None for r in mine)}/{len(mine)}" if mine else "")
        per_set.append(line)
    return {
        "time_limits": [fmt_s(t) for t in limits] + [f"{fmt_s(t)} CPU" for t in cpu_limits],
        "par2_header": ["engine", "cells", "decided", Status.MATE.word, Status.NOMATE.word,
                        "median s (decided)", "PAR-2 s", f"PAR-2 s, the {len(common)} asked of all"],
        "common": len(common),
        "par2_rows": ranked,
        "set_header": ["collection", "questions", *map(fmt, labels)],
        "set_rows": per_set,
        "sizes_header": ["encoding", "collection", "formulas", "median vars", "median clauses",
                         "median encode s", "max encode s", "encoding unfinished"],
        "sizes_rows": size_rows(rows, sets),
        "sizes_by_plies": size_by_plies(rows),
        "set_wins_header": ["collection", "questions", "fastest (wins)", "decided most"],
        "set_wins": collection_wins(rows, labels, sets),
        "cactus": {label: cactus_points(by_label[label]) for label in labels},
        "disagreements": [[fmt(d["instance"]), fmt(", ".join(
            f"{label}: {verdict(r)}" for label in labels for r in rows
            if r["instance"] == d["instance"] and r["label"] == label))]
            for d in disagreements(rows, labels)],
        "compared": sum(sum(verdict_of(r) is not None for r in group) >= 2
                        for group in by_question(rows).values()),
    }


def size_rows(rows: list[dict], sets: list[str]) -> list[list]:
    """Per encoding and collection: the formulas written (one per question: the solvers
    read the same one) and how many questions it could not encode within the limit."""
    groups: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        name = encoding_name(r)
        if name is not None:
            groups.setdefault((name, collection(r)), {}).setdefault(r["instance"], r)
    out = []
    for name in sorted({k[0] for k in groups}):
        for c in sets:
            cells = list(groups.get((name, c), {}).values())
            if not cells:
                continue
            written = [r for r in cells if r.get("vars") is not None]
            unfinished = sum(r.get("vars") is None and "encoding" in reason_of(r)
                             for r in cells)
            line = [fmt(name), fmt(c), len(written)]
            if written:
                enc = [r["encode_s"] for r in written if r.get("encode_s") is not None]
                line += [int(statistics.median(r["vars"] for r in written)),
                         int(statistics.median(r["clauses"] for r in written)),
                         fmt_s(statistics.median(enc)) if enc else "",
                         fmt_s(max(enc)) if enc else ""]
            else:
                line += ["", "", "", ""]
            out.append(line + [unfinished])
    return out


def size_by_plies(rows: list[dict]) -> dict:
    """Formula size against plies per encoding: the median clauses of the formulas written
    (one per question and encoding), as a table (``median (formulas)``) and as plot series."""
    groups: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        name = encoding_name(r)
        if name is not None and r.get("clauses") is not None:
            groups.setdefault((name, r["n"]), {}).setdefault(r["instance"], r)
    names = sorted({name for name, _ in groups})
    plies = sorted({n for _, n in groups})
    table, series = [], {}
    for name in names:
        line = [fmt(name)]
        for n in plies:
            written = list(groups.get((name, n), {}).values())
            median = statistics.median(r["clauses"] for r in written) if written else None
            line.append(f"{int(median)} ({len(written)})" if written else "")
            series.setdefault(name, []).append(median)
        table.append(line)
    return {"header": ["encoding", *(f"{n} plies" for n in plies)], "rows": table,
            "xs": [str(n) for n in plies], "series": series}


def collection_wins(rows: list[dict], labels: list[str], sets: list[str]) -> list[list]:
    """Per collection: the engine that decided the most of its questions fastest, and the
    engine that decided the most of them (ties: the earlier engine of the configuration)."""
    place = {label: i for i, label in enumerate(labels)}
    out = []
    for c in sets:
        mine = [r for r in rows if collection(r) == c and r["label"] in place]
        questions: dict[str, list[dict]] = {}
        for r in mine:
            questions.setdefault(r["instance"], []).append(r)
        wins: dict[str, int] = {}
        for group in questions.values():
            best = fastest(group, place)
            if best:
                wins[best] = wins.get(best, 0) + 1
        counts = {label: sum(verdict_of(r) is not None for r in mine if r["label"] == label)
                  for label in labels}
        most = min(labels, key=lambda lb: (-counts[lb], place[lb])) if labels else None
        top = min(wins, key=lambda lb: (-wins[lb], place[lb])) if wins else None
        out.append([fmt(c), len(questions),
                    f"{fmt(top)} ({wins[top]})" if top else "none decided",
                    f"{fmt(most)} ({counts[most]})" if most and counts[most] else "none decided"])
    return out
