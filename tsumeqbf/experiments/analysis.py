"""What the rows say: verdicts, disagreements between engines, agreement counts.

Pure functions over cell rows (dicts with ``instance``, ``label``, ``status``, ``mate``,
``meta``...), shared by the runner (which shrinks disagreements), the reports and the main
job. Two engines *disagree* on an instance when both decided it under the same rules (an
engine option ``no_hands`` asks another question) and one says mate and the other no mate;
a timeout or an error is no verdict.

>>> rows = [{"instance": "q", "label": label, **Answer.of(said).to_row()}
...         for label, said in (("a", True), ("b", False), ("c", None))]
>>> [(d["instance"], d["pair"]) for d in disagreements(rows)]
[('q', ('a', 'b'))]
>>> pair_counts(rows, ["a", "b", "c"])[0]
{'a': 'a', 'b': 'b', 'compared': 1, 'agree': 0, 'agree_mate': 0, 'disagree': 1}
"""

from __future__ import annotations

import json
import re
from itertools import combinations

from ..values import Answer, Status, reason_of, status_of, verdict_of


def meta(row: dict) -> dict:
    """The instance's extra keys (a JSON text in stored rows)."""
    value = row.get("meta") or {}
    return json.loads(value) if isinstance(value, str) else value


def verdict(row: dict) -> str:
    """``mate``, ``no mate``, ``timeout`` (status unknown: a time or node limit) or ``error``
    (:attr:`Status.word <tsumeqbf.values.Status.word>`).

    >>> verdict(Answer.unknown("limit").to_row()), verdict(Answer.decided(False).to_row())
    ('timeout', 'no mate')
    """
    if verdict_of(row) is not None:
        return Status.of(verdict_of(row)).word
    return (Status.UNKNOWN if status_of(row) is Status.UNKNOWN else Status.ERROR).word


def rules(row: dict) -> str:
    """The rules a cell's question is asked under: "" (RULES.md) or "no-hands".

    >>> rules({"options": '{"encoding":"paper","no_hands":true}'}), rules({})
    ('no-hands', '')
    """
    options = row.get("options") or {}
    if isinstance(options, str):
        options = json.loads(options or "{}")
    return "no-hands" if options.get("no_hands") else ""


def by_question(rows: list[dict]) -> dict[tuple[str, str], list[dict]]:
    """Rows grouped by (instance, rules): the cells that answer the same question."""
    out: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        out.setdefault((row["instance"], rules(row)), []).append(row)
    return out


def disagreements(rows: list[dict], labels: list[str] | None = None) -> list[dict]:
    """Instances with opposite verdicts, sorted by instance: the instance's ``sfen``, ``n``,
    ``zone``, every engine's ``verdicts`` ({label: True/False/None}) and a ``pair`` to
    shrink with: the first engine (in ``labels`` order) saying mate, the first saying no."""
    order = {label: i for i, label in enumerate(labels or sorted({r["label"] for r in rows}))}
    out = []
    for (instance, _), group in sorted(by_question(rows).items()):
        group = sorted(group, key=lambda r: (order.get(r["label"], len(order)), r["label"]))
        decided = {r["label"]: verdict_of(r) for r in group if verdict_of(r) is not None}
        if len(set(decided.values())) < 2:
            continue
        pair = (next(k for k, v in decided.items() if v), next(k for k, v in decided.items() if not v))
        first = group[0]
        out.append({"instance": instance, "sfen": first.get("sfen"), "n": first.get("n"),
                    "zone": first.get("zone"), "verdicts": {r["label"]: verdict_of(r) for r in group},
                    "pair": pair})
    return out


def pair_counts(rows: list[dict], labels: list[str]) -> list[dict]:
    """For every pair of engines (in ``labels`` order): on how many instances both decided,
    agreed (``agree_mate`` of them on a mate) and disagreed."""
    verdicts: dict[str, dict[str, bool]] = {}
    for row in rows:
        if verdict_of(row) is not None:
            verdicts.setdefault(row["label"], {})[(row["instance"], rules(row))] = verdict_of(row)
    out = []
    for a, b in combinations(labels, 2):
        va, vb = verdicts.get(a, {}), verdicts.get(b, {})
        both = set(va) & set(vb)
        agree = sum(va[i] == vb[i] for i in both)
        out.append({"a": a, "b": b, "compared": len(both), "agree": agree,
                    "agree_mate": sum(va[i] and vb[i] for i in both),
                    "disagree": len(both) - agree})
    return out


def status_counts(rows: list[dict], labels: list[str]) -> list[dict]:
    """Per engine: how many cells gave mate, no mate, timeout, error (each
    :attr:`Status.word <tsumeqbf.values.Status.word>` a key)."""
    out = []
    for label in labels:
        mine = [verdict(r) for r in rows if r["label"] == label]
        out.append({"label": label, "cells": len(mine),
                    **{s.word: mine.count(s.word) for s in Status}})
    return out


def certificate_errors(rows: list[dict]) -> list[dict]:
    """Cells where a QBF solver's answer fails the rules: its first move is not a legal
    check, or its certified strategy fails at a node. A disagreement between the solver,
    the encoder and the rules, reported as an error."""
    return [r for r in rows if status_of(r) is Status.ERROR
            and str(reason_of(r)).startswith(("disagreement", "certificate failed"))]


def certify_reason_kind(reason: str) -> str:
    """Why a verdict was not certified, in a word: ``too large``, ``timeout`` (the wall
    clock or the CPU limit) or ``solver error``.

    >>> certify_reason_kind("CPU time limit in the solver (10 s) at 3c2b 1a2b")
    'timeout'
    >>> certify_reason_kind("timeout after 10.0 s at the root")
    'timeout'
    >>> certify_reason_kind("too large (more than 100000 strategy nodes)")
    'too large'
    >>> certify_reason_kind("qute died with SIGSEGV at 2b3c")
    'solver error'
    """
    if reason.startswith("too large"):
        return "too large"
    return "timeout" if "timeout" in reason or "time limit" in reason else "solver error"


def certification_counts(rows: list[dict], labels: list[str]) -> list[dict]:
    """Per engine whose cells were certified: decided verdicts, and how many of the mates
    and of the no-mates were certified (keyed by status); failed certificates; why others
    were not."""
    out = []
    for label in labels:
        mine = [r for r in rows if r["label"] == label and "certified" in r
                and (r["certified"] is not None or r.get("certify_reason"))]
        if not mine:
            continue
        failed = len(certificate_errors([r for r in rows if r["label"] == label]))
        counts = {"label": label, "failed": failed}
        for status in (Status.MATE, Status.NOMATE):
            decided = [r for r in mine if verdict_of(r) is status.verdict]
            counts[status.value] = (sum(bool(r["certified"]) for r in decided), len(decided))
        reasons: dict[str, int] = {}
        for r in mine:
            if not r["certified"] and r.get("certify_reason"):
                why = certify_reason_kind(r["certify_reason"])
                reasons[why] = reasons.get(why, 0) + 1
        counts["not_certified"] = reasons
        out.append(counts)
    return out


def expected_mismatches(rows: list[dict]) -> list[dict]:
    """Decided cells whose verdict differs from the instance's expected ``mate`` (for the
    paper's questions: the paper's verdict)."""
    out = []
    for row in rows:
        expected = verdict_of(meta(row))
        if (isinstance(expected, bool) and verdict_of(row) is not None
                and verdict_of(row) != expected):
            out.append(row)
    return out


def labels_in(rows: list[dict], preferred: list[str] | None = None) -> list[str]:
    """The engine labels of the rows: those of ``preferred`` first, in its order."""
    present = {r["label"] for r in rows}
    first = [label for label in (preferred or []) if label in present]
    return first + sorted(present - set(first))


def fastest(group: list[dict], place: dict[str, int]) -> str | None:
    """The label of the cell that decided its question in the least time among ``group``
    (seconds as its limit counts them, :func:`limit_seconds`; ties: the earlier label in
    ``place``); None when none decided it.

    >>> fastest([{**Answer.of(said).to_row(), "label": label, "time_s": seconds}
    ...          for label, said, seconds in (("a", True, 2.0), ("b", False, 1.0), ("c", None, 0.1))],
    ...         {"a": 0, "b": 1, "c": 2})
    'b'
    """
    decided = [r for r in group if verdict_of(r) is not None and limit_seconds(r) is not None
               and r["label"] in place]
    if not decided:
        return None
    return min(decided, key=lambda r: (limit_seconds(r), place[r["label"]]))["label"]


def code_of(row: dict) -> tuple[str, str]:
    """The commit (``-dirty`` for a changed tree) and encoder version that made a row,
    read from its ``code_version`` (rows of every age have it); ``?`` where unknown.

    >>> code_of({"code_version": "tsumeqbf 0.1.0, encoder 7, git ea0a67a"})
    ('ea0a67a', '7')
    >>> code_of({"code_version": "tsumeqbf 0.1.0, encoder 8"}), code_of({})
    (('?', '8'), ('?', '?'))
    """
    text = row.get("code_version") or ""
    commit = re.search(r"\bgit (\S+)", text)
    encoder = re.search(r"\bencoder (\w+)", text)
    return commit.group(1) if commit else "?", encoder.group(1) if encoder else "?"


def code_mix(rows: list[dict]) -> list[tuple[tuple[str, str], int]]:
    """Each (commit, encoder version) of the rows with its number of rows, most rows
    first; more than one entry is a mix."""
    counts: dict[tuple[str, str], int] = {}
    for row in rows:
        counts[code_of(row)] = counts.get(code_of(row), 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def limit_seconds(row: dict) -> float | None:
    """A cell's seconds as its limit counts them: CPU seconds under a CPU limit, else wall.

    >>> limit_seconds({"time_s": 2.0, "cpu_s": 1.5}), limit_seconds({"time_s": 2.0, "cpu_s": 1.5, "cpu_limit": 60.0})
    (2.0, 1.5)
    """
    return row.get("cpu_s") if row.get("cpu_limit") else row.get("time_s")


def repeat_of(row: dict) -> int:
    """Which repeat a row is (1 for rows written before repeats existed)."""
    return row.get("repeat") or 1


def by_cell(rows: list[dict]) -> dict[tuple, list[dict]]:
    """Rows grouped by cell (instance, label, options: the repeats of one cell), each
    group in repeat order."""
    out: dict[tuple, list[dict]] = {}
    for row in sorted(rows, key=repeat_of):
        out.setdefault((row["instance"], row["label"], str(row.get("options"))), []).append(row)
    return out


def median_repeats(rows: list[dict]) -> list[dict]:
    """One row per cell: of its repeats, the one whose seconds (:func:`limit_seconds`) are
    the median (the lower of the two middle ones for an even count), so tables of one row
    per cell still hold.

    >>> [r["time_s"] for r in median_repeats([{"instance": "q", "label": "a", "time_s": t, "repeat": i}
    ...                                       for i, t in enumerate([3.0, 1.0, 2.0], 1)])]
    [2.0]
    """
    out = []
    for group in by_cell(rows).values():
        ranked = sorted(group, key=lambda r: (limit_seconds(r) is None, limit_seconds(r) or 0.0,
                                              repeat_of(r)))
        out.append(ranked[(len(ranked) - 1) // 2])
    order = {id(r): i for i, r in enumerate(rows)}
    return sorted(out, key=lambda r: order[id(r)])


def borderline(rows: list[dict]) -> list[tuple[tuple, list[dict]]]:
    """The cells decided in some repeats and not in others, by cell."""
    return [(cell, group) for cell, group in sorted(by_cell(rows).items())
            if len({verdict_of(r) is not None for r in group}) > 1]
