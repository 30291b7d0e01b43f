"""The problem collections and the papers' published figures, shipped in the package.

``SOURCES.md`` beside this module says what each file holds and where it comes from. Every
reader goes through :func:`data_file` (``importlib.resources``) rather than a path worked
out from a source file's place in a checkout, so that an installed wheel finds the same
files as the checkout does.

>>> read_rows("long_classics.csv")[0]["key"]
'microcosmos'
>>> read_jsonl("figures.jsonl")[0]["id"]
'paper-fig5-n1'
>>> is_data_file("figures.jsonl"), is_data_file("nothing.csv"), is_data_file("../cli.py")
(True, False, False)
>>> case = collection_cases("yaneuraou_mate_samples.csv")[0]
>>> case["id"], case["n"], case["collection"]
('yaneuraou-mate3-1', 3, 'yaneuraou-mate3')
"""

from __future__ import annotations

import csv
import json
from importlib import resources
from importlib.resources.abc import Traversable


def data_file(name: str) -> Traversable:
    """A packaged data file by name (``figures.jsonl``); open it with ``.open()``."""
    return resources.files(__name__) / name


def is_data_file(name: str) -> bool:
    """Whether ``name`` is a file of this package's data (a plain name, no folders)."""
    return "/" not in name and "\\" not in name and data_file(name).is_file()


def read_rows(name: str) -> list[dict]:
    """The rows of a packaged CSV file, as :class:`csv.DictReader` reads them."""
    with data_file(name).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def read_jsonl(name: str) -> list[dict]:
    """The objects of a packaged JSON Lines file, blank lines skipped."""
    with data_file(name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _yaneuraou_case(r: dict) -> dict:
    n = int(r["stated_length"])
    return {"id": f"yaneuraou-mate{n}-{r['line_no']}", "sfen": r["sfen"], "n": n,
            "collection": f"yaneuraou-mate{n}", "mate": True}


def _edo_case(r: dict) -> dict:
    return {"id": r["id"], "sfen": r["sfen"], "n": int(r["stated_length"]),
            "collection": r["collection"]}


#: packaged CSV collections whose rows are problems but not in the ``id, sfen, n`` form,
#: each with the function that makes a row a question
COLLECTIONS = {"yaneuraou_mate_samples.csv": _yaneuraou_case,
               "open_tsume_zukou_musou.csv": _edo_case}


def collection_cases(name: str) -> list[dict]:
    """The problems of a packaged collection as mate questions (``id``, ``sfen``, ``n``,
    ``collection``, ``mate``), each asked at its stated length: the YaneuraOu samples
    (ids ``yaneuraou-mate5-3``: file and line, grouped by length) and the Edo problems of
    ``open_tsume_zukou_musou.csv``. A JSON Lines file's objects are returned as they are."""
    if name.endswith(".jsonl"):
        return read_jsonl(name)
    if name not in COLLECTIONS:
        raise ValueError(f"{name}: not a collection of problems")
    return [COLLECTIONS[name](r) for r in read_rows(name)]
