"""A family's questions: each ``[[questions]]`` source of the SPEC as a list of questions.

A question is ``{"id", "sfen", "n", "zone", "no_hands", "encodings"}`` (its source's own
encodings, or None for the SPEC's); its id becomes part of file
names, so it is kept to letters, digits, ``.``, ``_`` and ``-``.

>>> from tsumeqbf.family.spec import Source
>>> [q["id"] for q in source_questions(Source("collection", "figures.jsonl", max_n=1, limit=2))]
['paper-fig5-n1', 'paper-fig6-n1']
"""

from __future__ import annotations

import re

from ..batch import read_cases
from ..data import collection_cases, is_data_file
from ..encoder.size import check_plies
from ..rules import TsumeError, check_n
from ..rules.generate import question_set
from .spec import Source

_SAFE = re.compile(r"[^A-Za-z0-9._-]")


def safe_id(text: str) -> str:
    """``text`` with every character a file name should not hold as ``_``.

    >>> safe_id("zukou 7/b")
    'zukou_7_b'
    """
    return _SAFE.sub("_", text)


def _raw(source: Source) -> list[dict]:
    if source.kind == "collection":
        if not is_data_file(source.value):
            raise TsumeError(f"collection {source.value!r} is not a file of tsumeqbf/data")
        try:
            return collection_cases(source.value)
        except ValueError as exc:
            raise TsumeError(str(exc)) from None
    if source.kind == "file":
        return read_cases(source.value)
    args = dict(source.value)
    return question_set(args.pop("seed"), args.pop("count"), **args)


def source_questions(source: Source) -> list[dict]:
    """The questions of one source, filtered (``ids``, ``max_n``) and cut (``limit``)."""
    out = []
    for case in _raw(source):
        # as text: a file's id may be a number (7), the SPEC's ids are strings ("7", "007")
        if source.ids is not None and str(case["id"]) not in source.ids:
            continue
        if source.max_n is not None and case["n"] > source.max_n:
            continue
        try:
            n = check_n(int(case["n"]))
            check_plies(n)  # (before its truth is searched for at every depth up to n)
        except TsumeError as exc:  # (which question: the family's other checks come later)
            raise TsumeError(f"question {case['id']!r} of {source.kind} {source.value!r}: "
                             f"{exc}") from None
        out.append({"id": safe_id(source.prefix + str(case["id"])), "sfen": case["sfen"],
                    "n": n, "zone": case.get("zone"), "no_hands": source.no_hands,
                    "encodings": source.encodings})
        if source.limit is not None and len(out) == source.limit:
            break
    if source.ids is not None:
        missing = sorted(set(source.ids) - {str(c["id"]) for c in _raw(source)})
        if missing:
            raise TsumeError(f"no question {missing[0]!r} in {source.kind} {source.value!r}")
    return out


def spec_questions(spec) -> list[dict]:
    """Every source's questions in SPEC order; an id given twice is an error."""
    out, seen = [], set()
    for source in spec.sources:
        for q in source_questions(source):
            if q["id"] in seen:
                raise TsumeError(f"question id {q['id']!r} comes twice; give a source a prefix")
            seen.add(q["id"])
            out.append(q)
    return out
