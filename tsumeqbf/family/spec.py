"""A family's SPEC (TOML), read and checked: every mistake is one line naming the key.

    encodings = ["enumerated", "compact"]     # required
    formats = ["qdimacs", "qcir"]             # default: both
    axes = ["binary/binary"]                  # ATTACKER/DEFENDER move choices (default)
    pairs = true                              # a mate of d plies also asked at d - 2

    [truth]                                   # node limits: no clock, so runs agree
    brute_max_nodes = 200000
    dfpn_max_nodes = 200000
    min_engines = 2                           # fewer: the question is left out
    strategy_check = true                     # prove each file from its bytes

    [[questions]]                             # one table per source, in order
    collection = "figures.jsonl"              # or file = "cases.jsonl", or [questions.generate]
    max_n = 5
    encodings = ["enumerated"]                # this source's own (optional)

docs/cli.md describes every key.

>>> spec = parse_spec({"encodings": ["compact"], "questions": [{"collection": "figures.jsonl"}]})
>>> spec.formats, spec.axes, spec.pairs
(('qdimacs', 'qcir'), (('binary', 'binary'),), True)
>>> parse_spec({"encodings": ["cnf"], "questions": []})
Traceback (most recent call last):
tsumeqbf.rules.errors.TsumeError: SPEC: encodings: unknown encoding 'cnf'; choose one of compact, nested, paper, paper-hands, lifted, lifted-nested, enumerated, mating, dag, dag-global, dag-fold, dag-fold-reduced
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..arguments import read_toml
from ..encoder.choice import ATTACKER_CHOICES, DEFENDER_CHOICES
from ..encoder.registry import ENCODINGS
from ..encoder.size import MAX_PLIES
from ..rules.generate import MAX_COUNT, MAX_SEED, bound_of
from ..rules import TsumeError

FORMATS = ("qdimacs", "qcir")
SOURCE_KINDS = ("collection", "file", "generate")
_TOP = ("title", "description", "encodings", "formats", "axes", "pairs", "used_kinds_only",
        "truth", "questions")
_TRUTH = ("brute_max_nodes", "dfpn_max_nodes", "min_engines", "strategy_check")
_SOURCE = (*SOURCE_KINDS, "ids", "max_n", "limit", "no_hands", "prefix", "encodings")
_GENERATE = ("seed", "count", "sizes", "plies", "attacker_pieces", "defender_pieces",
             "attacker_hand", "defender_hand")


@dataclass(frozen=True)
class Source:
    """One ``[[questions]]`` table: where questions come from and which are kept."""
    kind: str  # collection, file or generate
    value: object  # the collection's name, the file's path, the generator's arguments
    ids: tuple | None = None
    max_n: int | None = None
    limit: int | None = None
    no_hands: bool = False
    prefix: str = ""
    encodings: tuple | None = None  # this source's own, in place of the SPEC's


@dataclass(frozen=True)
class FamilySpec:
    encodings: tuple
    sources: tuple
    formats: tuple = FORMATS
    axes: tuple = (("binary", "binary"),)
    pairs: bool = True
    used_kinds_only: bool = False
    brute_max_nodes: int = 200_000
    dfpn_max_nodes: int = 200_000
    min_engines: int = 2
    strategy_check: bool = True
    title: str = ""


def load_spec(path: str) -> FamilySpec:
    """Read and check the SPEC in ``path``; a question file it names is relative to it."""
    doc = read_toml(path, "SPEC")
    return parse_spec(doc, os.path.dirname(os.path.abspath(path)), where=path)


def _fail(where: str, key: str, what: str) -> TsumeError:
    return TsumeError(f"{where}: {key}: {what}")


def _keys(where: str, table, name: str, allowed) -> dict:
    if not isinstance(table, dict):
        raise _fail(where, name, "must be a table")
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        raise _fail(where, name or "top level", f"unknown key {unknown[0]!r}; "
                    f"allowed: {', '.join(allowed)}")
    return table


def _int(where: str, value, key: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise _fail(where, key, f"must be an integer >= {low}, not {value!r}")
    if high is not None and value > high:
        raise _fail(where, key, f"must be at most {high:,}, not {value:,}")
    return value


def _bool(where: str, value, key: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, key, f"must be true or false, not {value!r}")
    return value


def _names(where: str, value, key: str, allowed) -> tuple:
    if not isinstance(value, list) or not value:
        raise _fail(where, key, "must be a non-empty list")
    for item in value:
        if item not in allowed:
            what = key.removesuffix("s")
            raise _fail(where, key, f"unknown {what} {item!r}; choose one of {', '.join(allowed)}")
    if len(set(value)) != len(value):
        raise _fail(where, key, "names an entry twice")
    return tuple(value)


def _axes(where: str, value) -> tuple:
    if not isinstance(value, list) or not value:
        raise _fail(where, "axes", "must be a non-empty list of \"ATTACKER/DEFENDER\"")
    out = []
    for item in value:
        parts = item.split("/") if isinstance(item, str) else []
        if len(parts) != 2:
            raise _fail(where, "axes", f"{item!r} is not \"ATTACKER/DEFENDER\" "
                        f"(e.g. \"onehot-seqcounter/binary\")")
        for part, allowed, side in ((parts[0], ATTACKER_CHOICES, "attacker"),
                                    (parts[1], DEFENDER_CHOICES, "defender")):
            if part not in allowed:
                raise _fail(where, "axes", f"unknown {side} move choice {part!r}; choose one "
                            f"of {', '.join(allowed)}")
        out.append(tuple(parts))
    if len(set(out)) != len(out):
        raise _fail(where, "axes", "names an entry twice")
    return tuple(out)


def _generated(where: str, name: str, table: dict) -> tuple:
    """The generator's arguments, checked: ``seed`` a 64-bit integer, ``count`` from 1 to
    MAX_COUNT, ``sizes`` as [W, H] pairs on boards up to 9x9, ``plies`` odd and at most
    what an encoding holds, piece bounds from 0 to their ``bound_of``."""
    value = {"seed": _int(where, table["seed"], f"{name}.seed", -MAX_SEED - 1, MAX_SEED),
             "count": _int(where, table["count"], f"{name}.count", 1, MAX_COUNT)}
    if "sizes" in table:
        sizes = table["sizes"]
        if (not isinstance(sizes, list) or not sizes
                or not all(isinstance(x, list) and len(x) == 2 for x in sizes)):
            raise _fail(where, f"{name}.sizes", f"must be a list of [W, H] pairs, not {sizes!r}")
        for w, h in sizes:
            if not all(_int(where, x, f"{name}.sizes", 1) <= 9 for x in (w, h)):
                raise _fail(where, f"{name}.sizes", f"board {w}x{h} is outside 1x1..9x9")
        value["sizes"] = [tuple(x) for x in sizes]
    if "plies" in table:
        plies = table["plies"]
        if not isinstance(plies, list) or not plies:
            raise _fail(where, f"{name}.plies", f"must be a non-empty list, not {plies!r}")
        for n in plies:
            if _int(where, n, f"{name}.plies", 1) % 2 == 0:
                raise _fail(where, f"{name}.plies", f"{n} is even: the attacker moves last")
            if n > MAX_PLIES:  # (every depth below it would be searched first)
                raise _fail(where, f"{name}.plies", f"{n} is more than an encoding holds "
                            f"(at most {MAX_PLIES})")
        value["plies"] = list(plies)
    for key in _GENERATE[4:]:
        if key in table:
            value[key] = _int(where, table[key], f"{name}.{key}", 0, bound_of(key))
    return tuple(sorted(value.items()))


def _source(where: str, table, k: int, base: str) -> Source:
    name = f"questions[{k}]"
    _keys(where, table, name, _SOURCE)
    kinds = [kind for kind in SOURCE_KINDS if kind in table]
    if len(kinds) != 1:
        raise _fail(where, name, "needs exactly one of collection, file, generate")
    kind = kinds[0]
    value = table[kind]
    if kind == "generate":
        _keys(where, value, f"{name}.generate", _GENERATE)
        for key in ("seed", "count"):
            if key not in value:
                raise _fail(where, f"{name}.generate", f"needs {key}")
        value = _generated(where, f"{name}.generate", value)
    elif not isinstance(value, str):
        raise _fail(where, f"{name}.{kind}", "must be a string")
    elif kind == "file":
        value = os.path.join(base, value)
    ids = table.get("ids")
    if ids is not None and (not isinstance(ids, list) or not all(isinstance(i, str) for i in ids)):
        raise _fail(where, f"{name}.ids", "must be a list of question ids")
    prefix = table.get("prefix", "")
    if not isinstance(prefix, str):
        raise _fail(where, f"{name}.prefix", "must be a string")
    encodings = (_names(where, table["encodings"], f"{name}.encodings", ENCODINGS)
                 if "encodings" in table else None)
    return Source(kind, value, tuple(ids) if ids is not None else None,
                  _int(where, table["max_n"], f"{name}.max_n", 1) if "max_n" in table else None,
                  _int(where, table["limit"], f"{name}.limit", 1) if "limit" in table else None,
                  _bool(where, table.get("no_hands", False), f"{name}.no_hands"), prefix,
                  encodings)


def parse_spec(doc: dict, base: str = ".", where: str = "SPEC") -> FamilySpec:
    """The checked :class:`FamilySpec` of a parsed TOML document."""
    _keys(where, doc, "", _TOP)
    if "encodings" not in doc:
        raise _fail(where, "encodings", "missing: name the encodings to write")
    if "questions" not in doc:
        raise _fail(where, "questions", "missing: add a [[questions]] table")
    encodings = _names(where, doc["encodings"], "encodings", ENCODINGS)
    formats = _names(where, doc.get("formats", list(FORMATS)), "formats", FORMATS)
    axes = _axes(where, doc.get("axes", ["binary/binary"]))
    truth = _keys(where, doc.get("truth", {}), "truth", _TRUTH)
    questions = doc["questions"]
    if not isinstance(questions, list):
        raise _fail(where, "questions", "must be an array of tables ([[questions]])")
    sources = tuple(_source(where, t, k, base) for k, t in enumerate(questions))
    min_engines = _int(where, truth.get("min_engines", 2), "truth.min_engines", 1)
    if min_engines > 2:
        raise _fail(where, "truth.min_engines", "two engines establish a truth: 1 or 2")
    title = doc.get("title", "")
    for key in ("title", "description"):
        if not isinstance(doc.get(key, ""), str):
            raise _fail(where, key, "must be a string")
    return FamilySpec(
        encodings, sources, formats, axes,
        _bool(where, doc.get("pairs", True), "pairs"),
        _bool(where, doc.get("used_kinds_only", False), "used_kinds_only"),
        _int(where, truth.get("brute_max_nodes", 200_000), "truth.brute_max_nodes"),
        _int(where, truth.get("dfpn_max_nodes", 200_000), "truth.dfpn_max_nodes"),
        min_engines, _bool(where, truth.get("strategy_check", True), "truth.strategy_check"),
        title)
