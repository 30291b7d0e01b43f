"""Experiment configurations (TOML files): loading and validation.

The named experiments ship in the package (``configs/NAME.toml`` beside this module,
``tsumeqbf experiment list``); one's own is any TOML file, or ``experiments/NAME.toml`` in
the folder where the command runs.

An experiment is a set of instances (mate questions) and a list of engine configurations;
every pair is a *cell*. Every error names the file and the key, e.g.
``experiments/x.toml: engines[2].engine: unknown engine 'foo'`` (indices count from 0).

Schema (only ``instances`` and ``engines`` are required)::

    title = "..."                    # the report's heading
    description = "..."              # a paragraph under it

    [limits]                         # defaults for every engine entry
    timeout = 600                    # seconds per cell (wall clock)
    cpu_limit = 600                  # CPU seconds per cell, every engine (option cpu_limit)
    memory_mb = 4096                 # QBF engines: option memory_mb
    max_nodes = 10_000_000           # dfpn, tsume and brute: option max_nodes

    [[instances]]                    # one source per entry: file, generate or paper
    file = "data/cases.jsonl"        # JSONL or CSV with id, sfen, n [, zone, ...]; relative to the TOML
    file = "zukou.jsonl"             # a plain name not beside the TOML: a file of tsumeqbf/data
    file = "yaneuraou_mate_samples.csv"   # ... or a packaged collection, asked at stated lengths
    max_plies = 9                    # only this source's questions with n <= 9
    [[instances]]
    generate = {seed = 1, count = 40, sizes = ["3x3", "9x9"], plies = [1, 3, 5]}
    [[instances]]
    paper = [1, 2, 3, 4, 5, 6]       # the questions of the paper's Tables 1-6
    in_quick = false                 # leave this source out of the --quick subset

    [[engines]]
    engine = "depqbf"                # a name, or a list of names
    options = {encoding = "compact"} # given to the engine as is (those it reads: a key it does
                                     # not, a misspelling, is refused; engines.engine_options)
    options = {members = ["caqe/enumerated", "rareqs/enumerated"], jobs = 2}   # engine portfolio
    matrix = {encoding = ["paper", "compact"]}   # cross product merged into options
    label = "{engine}/{encoding}"    # the name in reports; {placeholders}: engine and options
    timeout = 60                     # overrides limits.timeout
    cpu_limit = 60                   # overrides limits.cpu_limit (CPU seconds per core: an
                                     # engine of option jobs = J, the portfolio, gets J x 60)
    timeouts = {"paper-fig5-9x9-n1" = 6000}   # ... and this for these instances
    max_plies = 3                    # only instances with n <= 3 ...
    max_width = 5                    # ... on boards at most 5 files wide ...
    min_width = 9                    # ... or at least 9 (a standard-board-only backend)
    instances = ["paper-fig5-n1"]    # ... or only these ids

    [report]
    kind = "paper-tables"            # paper-tables | agreement | scaling | nagai | qbf
    shrink = true                    # shrink every position on which engines disagree
    notes = '''...'''                # qbf: what the figures say, under the tables

    [quick]                          # --quick: a small subset, stored apart as NAME-quick
    limits = {timeout = 20}          # overrides [limits]
    generate = {count = 24}          # merged into every generate source
    max_plies = 3                    # instance filters: max_plies, max_width, min_width, instances
    engines = ["dfpn", {label = "depqbf/paper", max_plies = 1}]   # kept engines (+ restrictions)

The options an engine gets (limits merged in) are part of the cell key, so a different
memory, node or CPU limit is a different cell; the timeout is not: a cell that ran out of time
runs again when its timeout is raised, and its new row replaces the old one.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from ..arguments import read_toml
from ..batch import read_cases
from ..data import COLLECTIONS, collection_cases, data_file, is_data_file
from ..engines import (engine_names, engine_options, engines_limited_by, option_problem,
                       unknown_options)
from ..rules import Position, TsumeError
from ..values import VERDICT_KEY

REPORT_KINDS = ("paper-tables", "agreement", "scaling", "nagai", "qbf")
#: which limit becomes which engine option, for which engines (the engines' registry says)
LIMIT_OPTIONS = {limit: engines_limited_by(limit) for limit in ("memory_mb", "max_nodes")}
#: instance keys that are not kept in a cell's meta: the board size is kept as "board",
#: and a free-text note would be copied into every row of every engine
DROPPED_META = ("width", "height", "note")
#: the named experiments, shipped as package data (``tsumeqbf experiment list``)
CONFIGS = Path(__file__).resolve().parent / "configs"
GENERATE_BOUNDS = ("attacker_pieces", "defender_pieces", "attacker_hand", "defender_hand")


@dataclass(frozen=True)
class EngineConfig:
    """One engine configuration: a column of the experiment."""
    label: str
    engine: str
    options: dict = field(default_factory=dict)
    timeout: float | None = None
    max_plies: int | None = None
    max_width: int | None = None
    min_width: int | None = None
    only: tuple | None = None  # instance ids
    timeouts: tuple = ()  # (instance id, seconds): the timeout of these instances

    def timeout_for(self, inst_id: str) -> float | None:
        """The seconds a cell of this engine on instance ``inst_id`` gets.

        >>> EngineConfig("d", "dfpn", timeout=60, timeouts=(("big", 600),)).timeout_for("big")
        600
        """
        return dict(self.timeouts).get(inst_id, self.timeout)

    def accepts(self, inst: dict) -> bool:
        """Whether this engine runs on an instance (its restrictions).

        >>> EngineConfig("d", "dfpn", max_plies=3).accepts({"id": "a", "n": 5, "meta": {}})
        False
        >>> EngineConfig("d", "dfpn", min_width=9).accepts({"id": "a", "n": 1, "meta": {"board": "5x5"}})
        False
        """
        width = board_width(inst)
        return ((self.max_plies is None or inst["n"] <= self.max_plies)
                and (self.max_width is None or width is None or width <= self.max_width)
                and (self.min_width is None or width is None or width >= self.min_width)
                and (self.only is None or inst["id"] in self.only))


@dataclass
class Experiment:
    name: str  # the results' file stem: the TOML's stem, plus "-quick" for --quick
    path: Path
    title: str
    description: str
    instances: list[dict]  # {"id", "sfen", "n", "zone", "meta"}
    engines: list[EngineConfig]
    report: dict  # {"kind", "shrink"}
    quick: bool = False
    has_quick: bool = False  # the TOML has a [quick] table

    @property
    def packaged(self) -> bool:
        """Whether this is one of the named experiments shipped in the package."""
        return self.path.resolve().parent == CONFIGS

    @property
    def results_dir(self) -> Path:
        """Where results go by default: ``results/`` in the current folder for a named
        (packaged) experiment; for a TOML of one's own, ``results/`` beside the
        ``experiments/`` folder that holds it, else beside the TOML."""
        if self.packaged:
            return Path("results")
        base = self.path.parent
        return (base.parent if base.name == "experiments" else base) / "results"


def experiment_names() -> list[str]:
    """The named experiments shipped in the package (``tsumeqbf experiment list``).

    >>> "ishiwaki-tables" in experiment_names()
    True
    """
    return sorted(p.stem for p in CONFIGS.glob("*.toml"))


def experiment_path(name: str) -> Path:
    """The TOML of an experiment: a path as given (it ends in ``.toml`` or has a ``/``);
    for a bare name, ``experiments/NAME.toml`` in the current folder when there is one
    (one's own experiment, never shadowed), else the named experiment of the package.

    >>> experiment_path("agreement") == CONFIGS / "agreement.toml", str(experiment_path("x/y.toml"))
    (True, 'x/y.toml')
    >>> experiment_path("nosuch")
    Traceback (most recent call last):
    ...
    tsumeqbf.rules.errors.TsumeError: no experiment named 'nosuch' (no experiments/nosuch.toml here either); the named ones: agreement, agreement-encodings, dfpn-vs-qbf, ishiwaki-tables, nagai-heuristics, qbf-real
    """
    if name.endswith(".toml") or "/" in name:
        return Path(name)
    own = Path("experiments") / f"{name}.toml"
    if own.is_file():
        return own
    packaged = CONFIGS / f"{name}.toml"
    if packaged.is_file():
        return packaged
    raise TsumeError(f"no experiment named {name!r} (no {own} here either); the named ones: "
                     + ", ".join(experiment_names()))


def board_width(inst: dict) -> int | None:
    board = inst.get("meta", {}).get("board")
    return int(board.split("x")[0]) if board else None


def canonical_json(value) -> str:
    """JSON with sorted keys and no spaces: equal options give equal text.

    >>> canonical_json({"b": 1, "a": [True, None]})
    '{"a":[true,null],"b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# -- validation helpers ------------------------------------------------------------------

class _Where:
    """The file being read, for error messages."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, key: str, message: str) -> TsumeError:
        return TsumeError(f"{self.path}: {key}: {message}" if key else f"{self.path}: {message}")

    def table(self, value, key: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a table, got {_kind(value)}")
        return value

    def keys(self, table: dict, key: str, allowed) -> None:
        for k in table:
            if k not in allowed:
                raise self.fail(f"{key}.{k}" if key else k,
                                f"unknown key; expected one of {', '.join(sorted(allowed))}")

    def number(self, value, key: str, *, integer: bool = False, low: float | None = None,
               high: float | None = None):
        kinds = (int,) if integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise self.fail(key, f"must be {'an integer' if integer else 'a number'}, got {_kind(value)}")
        if not math.isfinite(value):
            raise self.fail(key, f"must be a finite number, got {value}")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"at least {low}" if high is None else f"between {low} and {high}"
            raise self.fail(key, f"must be {bounds}, got {value}")
        return value

    def string(self, value, key: str) -> str:
        if not isinstance(value, str) or not value:
            raise self.fail(key, f"must be a non-empty string, got {_kind(value)}")
        return value

    def flag(self, value, key: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, got {_kind(value)}")
        return value

    def strings(self, value, key: str) -> list[str]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not value:
            raise self.fail(key, f"must be a string or a non-empty list of strings, got {_kind(value)}")
        return [self.string(v, f"{key}[{i}]") for i, v in enumerate(value)]


def _kind(value) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "a table"}.get(type(value), type(value).__name__)


# -- loading -----------------------------------------------------------------------------

def load_experiment(path: str | Path, quick: bool = False, with_instances: bool = True) -> Experiment:
    """Read and validate an experiment; ``quick`` applies its ``[quick]`` table. Reports
    need no instances (``with_instances=False``): they read the CSV, not the sources."""
    path = Path(path)
    where = _Where(path)
    if path.stem.endswith("-quick"):  # (its results would be another's --quick subset's)
        raise TsumeError(f"{path}: an experiment's name cannot end in -quick: the --quick "
                         f"subset of NAME is stored as NAME-quick")
    doc = read_toml(path, "experiment")
    where.keys(doc, "", ("title", "description", "limits", "instances", "engines", "report", "quick"))
    quick_table = None
    if quick and "quick" not in doc:
        raise where.fail("quick", "this experiment has no [quick] table")
    if "quick" in doc:  # (its keys checked by every load: a typo is not left for --quick)
        where.keys(where.table(doc["quick"], "quick"), "quick",
                   ("limits", "generate", "max_plies", "max_width", "min_width", "instances",
                    "engines"))
    if quick:
        quick_table = doc["quick"]
    limits = _limits(where, doc.get("limits", {}), "limits")
    if quick_table and "limits" in quick_table:
        limits.update(_limits(where, quick_table["limits"], "quick.limits"))
    generate_overrides = where.table(quick_table.get("generate", {}), "quick.generate") if quick_table else {}
    instances = _instances(where, doc, generate_overrides, quick) if with_instances else []
    # (the ids an engine's timeouts may name: all of them, which a quick load's sources
    # leave out some of; the full load checks them)
    engines = _engines(where, doc, limits,
                       {inst["id"] for inst in instances} if with_instances and not quick else None)
    report = _report(where, doc.get("report", {}))
    if quick_table:
        if with_instances:
            instances = _quick_instances(where, quick_table, instances)
        engines = _quick_engines(where, quick_table, engines)
    title = where.string(doc["title"], "title") if "title" in doc else path.stem
    description = doc.get("description", "")
    if not isinstance(description, str):
        raise where.fail("description", f"must be a string, got {_kind(description)}")
    return Experiment(name=path.stem + ("-quick" if quick else ""), path=path, title=title,
                      description=description.strip(), instances=instances, engines=engines,
                      report=report, quick=quick, has_quick="quick" in doc)


def _limits(where: _Where, table, key: str) -> dict:
    table = where.table(table, key)
    where.keys(table, key, ("timeout", "cpu_limit", "memory_mb", "max_nodes"))
    out = {}
    for name in ("timeout", "cpu_limit"):
        if name in table:
            out[name] = where.number(table[name], f"{key}.{name}", low=0.001)
    for name in ("memory_mb", "max_nodes"):
        if name in table:
            out[name] = where.number(table[name], f"{key}.{name}", integer=True, low=1)
    return out


def _report(where: _Where, table) -> dict:
    table = where.table(table, "report")
    where.keys(table, "report", ("kind", "shrink", "notes"))
    kind = table.get("kind", "scaling")
    if kind not in REPORT_KINDS:
        raise where.fail("report.kind", f"unknown report {kind!r}; choose one of {', '.join(REPORT_KINDS)}")
    shrink = table.get("shrink", True)
    if not isinstance(shrink, bool):
        raise where.fail("report.shrink", f"must be true or false, got {_kind(shrink)}")
    notes = table.get("notes", "")
    if not isinstance(notes, str):
        raise where.fail("report.notes", f"must be a string, got {_kind(notes)}")
    return {"kind": kind, "shrink": shrink, "notes": notes.strip()}


# -- instances ---------------------------------------------------------------------------

def _table_array(where: _Where, doc: dict, name: str, what: str) -> list:
    """The required non-empty array of tables ``[[name]]``."""
    if name not in doc:
        raise where.fail(name, f"missing: give at least one [[{name}]] {what}")
    entries = doc[name]
    if not isinstance(entries, list) or not entries:
        raise where.fail(name, f"must be a non-empty array of tables ([[{name}]])")
    return entries


def _instances(where: _Where, doc: dict, generate_overrides: dict, quick: bool = False) -> list[dict]:
    sources = _table_array(where, doc, "instances", "source")
    out, seen = [], {}
    for i, source in enumerate(sources):
        key = f"instances[{i}]"
        source = where.table(source, key)
        where.keys(source, key, ("file", "generate", "paper", "in_quick", "max_plies"))
        kinds = [k for k in ("file", "generate", "paper") if k in source]
        if len(kinds) != 1:
            raise where.fail(key, "give exactly one of file, generate, paper")
        in_quick = where.flag(source.get("in_quick", True), f"{key}.in_quick")
        if quick and not in_quick:
            continue
        max_plies = (where.number(source["max_plies"], f"{key}.max_plies", integer=True, low=1)
                     if "max_plies" in source else None)
        kind = kinds[0]
        if kind == "file":
            cases = _file_cases(where, source["file"], f"{key}.file")
        elif kind == "generate":
            cases = _generated_cases(where, {**where.table(source["generate"], f"{key}.generate"),
                                             **generate_overrides}, f"{key}.generate")
        else:
            cases = _paper_cases(where, source["paper"], f"{key}.paper")
        for case in cases:
            if max_plies is not None and isinstance(case.get("n"), int) and case["n"] > max_plies:
                continue
            inst = normalize_instance(case)
            if not isinstance(inst["n"], int) or isinstance(inst["n"], bool):
                raise where.fail(key, f"instance {inst['id']!r}: n must be an integer, got {inst['n']!r}")
            if inst["id"] in seen:
                raise where.fail(key, f"duplicate instance id {inst['id']!r} (also in {seen[inst['id']]})")
            seen[inst["id"]] = key
            out.append(inst)
    return out


def normalize_instance(case: dict) -> dict:
    """A case (``id, sfen, n[, zone]`` and any other keys) as an instance: other keys go
    to ``meta``, the zone defaults as in the rules, and ``meta["board"]`` is "WxH".

    >>> normalize_instance({"id": 7, "sfen": "2k/3/1GP b - 1", "n": 1, "mate": True})
    {'id': '7', 'sfen': '2k/3/1GP b - 1', 'n': 1, 'zone': 1, 'meta': {'board': '3x3', 'mate': True}}
    """
    meta = {k: v for k, v in case.items()
            if k not in ("id", "sfen", "n", "zone") and k not in DROPPED_META}
    zone = case.get("zone")
    try:
        pos = Position.from_sfen(str(case["sfen"]), zone=zone)
        meta["board"] = f"{pos.geo.width}x{pos.geo.height}"
        zone = pos.geo.zone
    except TsumeError:
        pass  # a bad SFEN is the cell's error, reported with its row, like `batch` does
    return {"id": str(case["id"]), "sfen": str(case["sfen"]), "n": case["n"], "zone": zone,
            "meta": dict(sorted(meta.items()))}


def _file_cases(where: _Where, value, key: str) -> list[dict]:
    """The cases of a file beside the TOML or, failing that, of the package's data (so that
    an experiment of the checkout and one written anywhere else can name the same
    collection, ``zukou.jsonl``, and an installed package runs either)."""
    rel = where.string(value, key)
    path = where.path.parent / rel
    if path.is_file():
        return _read_case_file(where, path, rel, key)
    if rel in COLLECTIONS:
        return collection_cases(rel)
    if is_data_file(rel):
        with resources.as_file(data_file(rel)) as packaged:
            return _read_case_file(where, packaged, rel, key)
    raise where.fail(key, f"no such file {rel!r} (looked for {path}, and for {rel!r} "
                          f"in the package data)")


def _read_case_file(where: _Where, path: Path, rel: str, key: str) -> list[dict]:
    if path.suffix == ".jsonl":
        return read_cases(str(path))
    if path.suffix != ".csv":
        raise where.fail(key, f"expected a .jsonl or .csv file, got {rel!r}")
    cases = []
    # (utf-8-sig: a spreadsheet's byte-order mark is not part of the first column's name)
    with open(path, encoding="utf-8-sig", newline="") as fh:
        try:
            rows = list(csv.DictReader(fh))
        except UnicodeDecodeError:
            raise TsumeError(f"{path}: not a cases file (not UTF-8 text)") from None
    for lineno, row in enumerate(rows, 2):
        missing = [k for k in ("id", "sfen", "n") if not row.get(k)]
        if missing:
            raise TsumeError(f"{path}:{lineno}: missing value(s) for {', '.join(missing)}")
        try:
            row["n"] = int(row["n"])
            row["zone"] = int(row["zone"]) if row.get("zone") else None
        except ValueError:
            raise TsumeError(f"{path}:{lineno}: n and zone must be integers") from None
        if VERDICT_KEY in row:  # an expected verdict, as a JSONL case's true or false
            said = _CSV_VERDICTS.get((row[VERDICT_KEY] or "").strip().lower(), "bad")
            if said == "bad":
                raise TsumeError(f"{path}:{lineno}: {VERDICT_KEY} must be true, false or "
                                 f"empty, got {row[VERDICT_KEY]!r}")
            row[VERDICT_KEY] = said
            if said is None:
                del row[VERDICT_KEY]
        cases.append(row)
    if not cases:
        raise TsumeError(f"{path}: no cases (a header line, then one case a line: id, sfen, n)")
    return cases


_CSV_VERDICTS = {"true": True, "false": False, "": None}


def _generated_cases(where: _Where, table: dict, key: str) -> list[dict]:
    from ..rules.generate import MAX_COUNT, MAX_SEED, bound_of, question_set

    where.keys(table, key, ("seed", "count", "sizes", "plies", "prefix", "attacker_king",
                            *GENERATE_BOUNDS))
    for required in ("seed", "count"):
        if required not in table:
            raise where.fail(f"{key}.{required}", "missing")
    seed = where.number(table["seed"], f"{key}.seed", integer=True, low=0, high=MAX_SEED)
    count = where.number(table["count"], f"{key}.count", integer=True, low=1, high=MAX_COUNT)
    sizes = [_board_size(where, s, f"{key}.sizes[{i}]")
             for i, s in enumerate(where.strings(table.get("sizes", ["3x3", "4x4", "5x5"]), f"{key}.sizes"))]
    plies = table.get("plies", [1, 3, 5])
    if not isinstance(plies, list) or not plies:
        raise where.fail(f"{key}.plies", "must be a non-empty list of odd numbers")
    for i, n in enumerate(plies):
        where.number(n, f"{key}.plies[{i}]", integer=True, low=1)
        if n % 2 == 0:
            raise where.fail(f"{key}.plies[{i}]", f"must be odd, got {n}")
    bounds = {b: where.number(table[b], f"{key}.{b}", integer=True, low=0, high=bound_of(b))
              for b in GENERATE_BOUNDS if b in table}
    if "attacker_king" in table:
        bounds["attacker_king"] = where.flag(table["attacker_king"], f"{key}.attacker_king")
    prefix = where.string(table["prefix"], f"{key}.prefix") if "prefix" in table else None
    return question_set(seed, count, sizes=sizes, plies=plies, prefix=prefix, **bounds)


def _board_size(where: _Where, text: str, key: str) -> tuple[int, int]:
    w, _, h = text.partition("x")
    if not (w.isdigit() and h.isdigit() and 1 <= int(w) <= 9 and 1 <= int(h) <= 9):
        raise where.fail(key, f"board size must be WxH within 1x1..9x9, got {text!r}")
    return int(w), int(h)


def _paper_cases(where: _Where, value, key: str) -> list[dict]:
    from .paper import table_questions

    if not isinstance(value, list) or not value:
        raise where.fail(key, "must be a non-empty list of table numbers 1..6")
    for i, t in enumerate(value):
        where.number(t, f"{key}[{i}]", integer=True, low=1, high=6)
    return table_questions(value)


# -- engines -----------------------------------------------------------------------------

def _engines(where: _Where, doc: dict, limits: dict, ids: set | None) -> list[EngineConfig]:
    """The engine entries; ``ids``, when given, are the instances that ``timeouts`` may name."""
    from ..encoder.registry import ENCODINGS

    entries = _table_array(where, doc, "engines", "entry")
    known = engine_names()
    out: list[EngineConfig] = []
    origin: dict = {}  # label or (engine, options) -> the entry that made it
    for i, entry in enumerate(entries):
        key = f"engines[{i}]"
        entry = where.table(entry, key)
        where.keys(entry, key, ("engine", "options", "matrix", "label", "timeout", "cpu_limit",
                                "timeouts", "max_plies", "max_width", "min_width", "instances"))
        if "engine" not in entry:
            raise where.fail(f"{key}.engine", "missing")
        names = where.strings(entry["engine"], f"{key}.engine")
        for j, name in enumerate(names):
            if name not in known:
                sub = f"{key}.engine" if isinstance(entry["engine"], str) else f"{key}.engine[{j}]"
                raise where.fail(sub, f"unknown engine {name!r}; choose one of {', '.join(known)}")
        options = where.table(entry.get("options", {}), f"{key}.options")
        matrix = where.table(entry.get("matrix", {}), f"{key}.matrix")
        for k, values in matrix.items():
            if not isinstance(values, list) or not values:
                raise where.fail(f"{key}.matrix.{k}", "must be a non-empty list of values")
        restrictions = _restrictions(where, entry, key)
        unknown = [i for i in restrictions.get("only", ()) if ids is not None and i not in ids]
        if unknown:  # (as a timeout's: no cell would run)
            raise where.fail(f"{key}.instances", f"no instance {unknown[0]!r}")
        timeout = (where.number(entry["timeout"], f"{key}.timeout", low=0.001)
                   if "timeout" in entry else limits.get("timeout"))
        cpu_limit = (where.number(entry["cpu_limit"], f"{key}.cpu_limit", low=0.001)
                     if "cpu_limit" in entry else limits.get("cpu_limit"))
        timeouts = tuple((inst, where.number(seconds, f"{key}.timeouts.{inst}", low=0.001))
                         for inst, seconds in where.table(entry.get("timeouts", {}),
                                                          f"{key}.timeouts").items())
        for inst, _ in timeouts:
            if ids is not None and inst not in ids:
                raise where.fail(f"{key}.timeouts", f"no instance {inst!r}")
        combos = [dict(zip(matrix, values)) for values in itertools.product(*matrix.values())]
        for name, combo in itertools.product(names, combos):
            opts = {**options, **combo}
            encoding = opts.get("encoding")
            if encoding is not None and encoding not in ENCODINGS:
                raise where.fail(f"{key}.options.encoding",
                                 f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
            unknown = unknown_options(name, opts)
            if unknown:
                raise where.fail(f"{key}.options", f"engine {name} takes no option "
                                 f"{unknown[0]!r}; its options: {', '.join(engine_options(name))}")
            problem = option_problem(name, opts)
            if problem:
                raise where.fail(f"{key}.options", f"engine {name}: {problem}")
            given = dict(opts)  # a default label shows these, not the limits merged below
            for limit, engines in LIMIT_OPTIONS.items():
                if limit in limits and name in engines:
                    opts.setdefault(limit, limits[limit])
            if cpu_limit is not None:  # every engine: the kernel counts its CPU seconds
                # a limit per core: an engine running ``jobs`` processes at once (the
                # portfolio's members) gets as many CPU seconds on each core
                opts.setdefault("cpu_limit", cpu_limit * int(opts.get("jobs") or 1))
            label = _label(where, entry.get("label"), name, given, opts, f"{key}.label")
            ident = (name, canonical_json(opts))
            for clash, what in ((label, f"label {label!r} is"), (ident, "the same engine and options are")):
                if clash in origin:
                    raise where.fail(key, f"{what} already used by {origin[clash]}")
                origin[clash] = key
            out.append(EngineConfig(label=label, engine=name, options=opts, timeout=timeout,
                                    timeouts=timeouts, **restrictions))
    return out


def _restrictions(where: _Where, table: dict, key: str) -> dict:
    out = {}
    if "max_plies" in table:
        out["max_plies"] = where.number(table["max_plies"], f"{key}.max_plies", integer=True, low=1)
    for bound in ("max_width", "min_width"):
        if bound in table:
            out[bound] = where.number(table[bound], f"{key}.{bound}", integer=True, low=1, high=9)
    if out.get("min_width", 1) > out.get("max_width", 9):
        raise where.fail(f"{key}.min_width", f"is above max_width ({out['min_width']} > "
                                             f"{out['max_width']}): no board is left")
    if "instances" in table:
        out["only"] = tuple(where.strings(table["instances"], f"{key}.instances"))
    return out


def _shown(value) -> str:
    """An option value in a default label: strings as they are, but a path by its last
    part (reports show labels, and must not show this machine's paths); others as JSON."""
    if isinstance(value, str):
        return Path(value).name if value.startswith("/") else value
    return json.dumps(value)


def _label(where: _Where, template, name: str, given: dict, options: dict, key: str) -> str:
    """The engine's label: the template filled from its options (limits included), else
    ``engine`` plus the options given in the entry as ``/k=v,...`` (values as in JSON:
    ``dfpn/dag=true``)."""
    if template is None:
        shown = ",".join(f"{k}={_shown(v)}" for k, v in sorted(given.items()))
        return name + (f"/{shown}" if shown else "")
    template = where.string(template, key)
    try:
        return template.format(engine=name, **options)
    except KeyError as exc:
        raise where.fail(key, f"placeholder {{{exc.args[0]}}} is neither engine nor an option") from None
    except (ValueError, IndexError, AttributeError, TypeError) as exc:
        raise where.fail(key, f"bad template {template!r} ({exc})") from None


# -- quick -------------------------------------------------------------------------------

def _quick_instances(where: _Where, quick: dict, instances: list[dict]) -> list[dict]:
    keep = EngineConfig("quick", "quick", **_restrictions(where, quick, "quick"))
    unknown = set(keep.only or ()) - {inst["id"] for inst in instances}
    if unknown:
        raise where.fail("quick.instances", f"no instance {sorted(unknown)[0]!r}")
    return [inst for inst in instances if keep.accepts(inst)]


def _quick_engines(where: _Where, quick: dict, engines: list[EngineConfig]) -> list[EngineConfig]:
    if "engines" not in quick:
        return engines
    entries = quick["engines"]
    if not isinstance(entries, list) or not entries:
        raise where.fail("quick.engines", "must be a non-empty list of labels or tables")
    by_label = {e.label: e for e in engines}
    out = []
    for i, entry in enumerate(entries):
        key = f"quick.engines[{i}]"
        if isinstance(entry, str):
            entry = {"label": entry}
        entry = where.table(entry, key)
        where.keys(entry, key, ("label", "max_plies", "max_width", "min_width", "instances"))
        if "label" not in entry:
            raise where.fail(f"{key}.label", "missing")
        label = where.string(entry["label"], f"{key}.label")
        if any(e.label == label for e in out):
            raise where.fail(f"{key}.label", f"engine {label!r} is listed twice")
        if label not in by_label:
            raise where.fail(f"{key}.label", f"no engine labelled {label!r}; the labels are "
                                             f"{', '.join(by_label)}")
        out.append(replace(by_label[label], **_restrictions(where, entry, key)))
    return out
