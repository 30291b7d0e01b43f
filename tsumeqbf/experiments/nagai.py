"""Nagai's df-pn heuristic ablation: our ``tsume`` variants beside his published ratios.

A. Nagai, "Heuristics to improve solving Tsume-Shogi", Tables 2-9 (``nagai_tables.csv``):
seconds (Tables 2-6, 8) or expanded nodes (Tables 7, 9) per problem for combinations of
his heuristics A-F. Tables 2-7 are all with DAG (double-count) detection; Tables 8 and 9
print ABC with and without it. Problem 1 is the whole of 将棋図巧 but its no-mate No. 73,
summed: the problem our ``nagai-heuristics`` experiment runs one by one.

A combination is printed as ``none``, ``A``, ``B+A``, ``BC+A``, ``ABC+D`` or
``ABC without DAG detection``; here it is the set of its letters, sorted, and the DAG flag:

>>> nagai_set("BC+A"), nagai_set("none"), nagai_set("ABC without DAG detection")
(('ABC', True), ('', True), ('ABC', False))
>>> ref = published_reference(nagai_rows())
>>> ref[("B", True, "seconds")]["value"], ref[("B", True, "seconds")]["tables"]
(197, [2, 3])
>>> round(nagai_ratio(ref, "ABC", True, "nodes"), 3), nagai_ratio(ref, "ABC", False, "nodes")
(1.419, None)
"""

from __future__ import annotations

import json

from ..data import read_rows
from ..rules import TsumeError
from ..values import Status, status_of, verdict_of

NAGAI_CSV = "nagai_tables.csv"
#: Nagai's problem 1: 将棋図巧, all but No. 73
ZUKOU_PROBLEM = 1
NO_DAG_SUFFIX = " without DAG detection"
MEASURES = ("seconds", "nodes")


def letters(text: str) -> str:
    """A heuristic set as its letters, upper case, sorted, each once (``"cb"`` -> ``"BC"``)."""
    return "".join(sorted(set(text.upper()) - {"+"}))


def nagai_set(printed: str) -> tuple[str, bool]:
    """(letters, DAG detection on) of a combination as Nagai prints it."""
    dag = not printed.endswith(NO_DAG_SUFFIX)
    name = printed.removesuffix(NO_DAG_SUFFIX).strip()
    return ("" if name == "none" else letters(name)), dag


def nagai_rows() -> list[dict]:
    """Every printed number of Tables 2-9, typed, with its ``letters`` and ``dag``."""
    out = []
    for r in read_rows(NAGAI_CSV):
        found, dag = nagai_set(r["heuristics"])
        out.append({"table": int(r["table"]), "measure": r["measure"],
                    "heuristics": r["heuristics"], "letters": found, "dag": dag,
                    "problem": int(r["problem"]), "problem_name": r["problem_name"],
                    "value": int(r["value"])})
    return out


def published_reference(rows: list[dict], problem: int = ZUKOU_PROBLEM) -> dict:
    """(letters, dag, measure) -> {"value", "tables", "printed"} for one problem. A
    combination printed in several tables must have the same number in each."""
    out: dict[tuple, dict] = {}
    for r in rows:
        if r["problem"] != problem:
            continue
        key = (r["letters"], r["dag"], r["measure"])
        if key in out:
            if out[key]["value"] != r["value"]:
                raise TsumeError(f"{NAGAI_CSV}: {r['heuristics']!r} ({r['measure']}) is "
                                 f"{out[key]['value']} in Table {out[key]['tables'][0]} but "
                                 f"{r['value']} in Table {r['table']}")
            out[key]["tables"] = sorted({*out[key]["tables"], r["table"]})
        else:
            out[key] = {"value": r["value"], "tables": [r["table"]], "printed": r["heuristics"]}
    return out


def nagai_ratio(ref: dict, found: str, dag: bool, measure: str, base: str = "",
                base_dag: bool | None = None) -> float | None:
    """Nagai's number for a set over his number for ``base`` (by default: no heuristic,
    the same DAG setting); None when either was not printed."""
    top = ref.get((found, dag, measure))
    bottom = ref.get((base, dag if base_dag is None else base_dag, measure))
    if top is None or bottom is None or not bottom["value"]:
        return None
    return top["value"] / bottom["value"]


def variant(row: dict) -> tuple[str, bool]:
    """(letters, dag) of one of our ``tsume`` cells, from its options."""
    options = row.get("options") or {}
    options = json.loads(options) if isinstance(options, str) else options
    return letters(str(options.get("heuristics", ""))), bool(options.get("dag", True))


def set_name(found: str) -> str:
    return found or "none"


def ratio_text(value: float | None) -> str:
    return "" if value is None else f"{value:.3f}"


def seconds(row: dict):
    """The search's own seconds (``solve_s``), else the engine's whole time."""
    return row["solve_s"] if row.get("solve_s") is not None else row.get("time_s")


# -- the report's tables --------------------------------------------------------------------

def nagai_context(rows: list[dict], labels: list[str], published: list[dict]) -> dict:
    """Per variant: problems solved of attempted, nodes and seconds summed over the
    problems every variant solved, ratios to no heuristic with the same DAG setting, and
    Nagai's ratios for problem 1; the DAG effect per set; the problems one by one."""
    ref = published_reference(published)
    kind = {label: None for label in labels}
    cells: dict[tuple, dict] = {}
    for r in rows:
        kind[r["label"]] = variant(r)
        cells[(r["instance"], r["label"])] = r
    instances = sorted({r["instance"] for r in rows})
    common = [i for i in instances
              if all(verdict_of(cells.get((i, lb), {})) is True for lb in labels)]
    totals = {}
    for label in labels:
        mine = [cells[(i, label)] for i in common]
        totals[label] = (sum(r["nodes"] or 0 for r in mine), sum(seconds(r) or 0 for r in mine))
    baseline = {}
    for label in labels:  # the first variant without heuristics, per DAG setting
        found, dag = kind[label]
        if found == "":
            baseline.setdefault(dag, label)

    def ours(label: str, base: str | None, index: int) -> float | None:
        if base is None or not totals[base][index] or not common:
            return None
        return totals[label][index] / totals[base][index]

    variant_rows, nomates = _variant_rows(rows, labels, kind, totals, baseline, ref, ours)
    base_on = baseline.get(True)
    return {
        "nagai_header": ["variant", "heuristics", "DAG", "solved", "nodes", "ratio",
                         "Nagai nodes ratio", "seconds", "ratio", "Nagai seconds ratio"],
        "nagai_rows": variant_rows, "common": len(common), "attempted": len(instances),
        "baselines": [f"`{baseline[dag]}` for DAG {'on' if dag else 'off'}"
                      for dag in (True, False) if dag in baseline],
        "base_none_seconds": ref.get(("", True, "seconds"), {}).get("value"),
        "base_none_nodes": ref.get(("", True, "nodes"), {}).get("value"),
        "dag_header": ["heuristics", "nodes off/on", "Nagai nodes off/on", "seconds off/on",
                       "Nagai seconds off/on"],
        "dag_rows": _dag_rows(labels, kind, ref, ours),
        "published_header": ["heuristics", "DAG", "printed as", "tables", "seconds", "nodes",
                             "seconds ratio", "nodes ratio"],
        "published_rows": _published_rows(ref),
        "problem_tables": _problem_tables(cells, instances, labels, kind),
        "helped": helped(variant_rows, base_on),
        "nomates": [[r["instance"], r["label"], r["options"] if isinstance(r["options"], str)
                     else json.dumps(r["options"], sort_keys=True)] for r in nomates],
    }


def _variant_rows(rows, labels, kind, totals, baseline, ref, ours) -> tuple[list, list]:
    """A row per variant (solved, nodes and seconds with their ratios, Nagai's beside),
    and the cells that answered no mate."""
    variant_rows, nomates = [], []
    for label in labels:
        found, dag = kind[label]
        mine = [r for r in rows if r["label"] == label]
        solved = sum(verdict_of(r) is True for r in mine)
        nomates += [r for r in mine if verdict_of(r) is False]
        base = baseline.get(dag)
        variant_rows.append([
            label, set_name(found), "on" if dag else "off", f"{solved}/{len(mine)}",
            totals[label][0], ratio_text(ours(label, base, 0)),
            ratio_text(nagai_ratio(ref, found, dag, "nodes")),
            f"{totals[label][1]:.3f}", ratio_text(ours(label, base, 1)),
            ratio_text(nagai_ratio(ref, found, dag, "seconds"))])
    return variant_rows, nomates


def _dag_rows(labels, kind, ref, ours) -> list[list]:
    """Per heuristic set run with the DAG correction on and off: off against on, ours and
    Nagai's."""
    dag_rows = []
    by_set = {}
    for label in labels:
        by_set.setdefault(kind[label][0], {}).setdefault(kind[label][1], label)
    for found, pair in by_set.items():
        if True in pair and False in pair:
            on, off = pair[True], pair[False]
            dag_rows.append([
                set_name(found), ratio_text(ours(off, on, 0)),
                ratio_text(nagai_ratio(ref, found, False, "nodes", found, True)),
                ratio_text(ours(off, on, 1)),
                ratio_text(nagai_ratio(ref, found, False, "seconds", found, True))])
    return dag_rows


def _published_rows(ref) -> list[list]:
    """Nagai's published figures for problem 1, a row per heuristic set and DAG setting."""
    published_rows = []
    for (found, dag) in sorted({(k[0], k[1]) for k in ref}, key=lambda k: (not k[1], len(k[0]), k[0])):
        sec, nod = ref.get((found, dag, "seconds")), ref.get((found, dag, "nodes"))
        tables = sorted({t for x in (sec, nod) if x for t in x["tables"]})
        published_rows.append([
            set_name(found), "on" if dag else "off", (sec or nod)["printed"],
            ", ".join(map(str, tables)), sec["value"] if sec else "", nod["value"] if nod else "",
            ratio_text(nagai_ratio(ref, found, dag, "seconds")),
            ratio_text(nagai_ratio(ref, found, dag, "nodes"))])
    return published_rows


def _problem_tables(cells, instances, labels, kind) -> list[dict]:
    """Per DAG setting, the problems one by one: each variant's nodes, or what it said."""
    problem_tables = []
    for dag in (True, False):
        mine = [lb for lb in labels if kind[lb][1] == dag]
        if not mine:
            continue
        lines = []
        for i in instances:
            some = next(cells[(i, lb)] for lb in labels if (i, lb) in cells)
            line = [i, some.get("n")]
            for label in mine:
                r = cells.get((i, label))
                line.append("" if r is None else r["nodes"] if verdict_of(r) is True
                            else "no mate!" if verdict_of(r) is False
                            else Status.ERROR.word if status_of(r) is Status.ERROR else "-")
            lines.append(line)
        names = [set_name(kind[lb][0]) for lb in mine]
        if len(set(names)) < len(names):  # two variants with one set: show the labels
            names = mine
        problem_tables.append({"dag": "on" if dag else "off", "rows": lines,
                               "header": ["problem", "n", *names]})
    return problem_tables


def helped(variant_rows: list[list], base_label: str | None) -> dict:
    """The DAG-on variants whose node ratio (over the commonly solved problems) is below
    1 and at or above 1 (our column 5), for the summary sentence."""
    below, above = [], []
    for line in variant_rows:
        if line[2] != "on" or line[0] == base_label or line[5] == "":
            continue
        (below if float(line[5]) < 1 else above).append(line[1])
    return {"below": below, "above": above}


def nodes_panels(problem_tables: list[dict]) -> list[dict]:
    """The per-problem tables as heat-map panels: a row per heuristic set, a column per
    problem (its number), the nodes of each proven mate, None where none was proven."""
    panels = []
    for t in problem_tables:
        sets = t["header"][2:]
        panels.append({
            "title": f"DAG detection {t['dag']}", "rows": sets,
            "columns": [str(line[0]).rsplit("-", 1)[-1] for line in t["rows"]],
            "values": [[line[2 + j] if isinstance(line[2 + j], int) else None for line in t["rows"]]
                       for j in range(len(sets))]})
    return panels
