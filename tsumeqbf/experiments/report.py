"""``tsumeqbf experiment report``: ``results/NAME.csv`` -> ``results/NAME.md`` (+ PNG plots).

The report reads only the exported CSV (and the shrunk-disagreements CSV beside it), the
experiment's TOML (title, report kind, engine order) and the paper's published numbers,
never the SQLite store: the committed CSV reproduces the committed Markdown byte for byte.
The Markdown holds no timestamp and no absolute path, and it is the same whether the plots
could be drawn or not (it links its pictures, and names them and the command that draws
them under Provenance).

Tables are prepared here as lists of strings; the Jinja templates in ``templates/`` lay
them out. Five kinds: ``paper-tables`` (our runs beside the paper's Tables 1-6),
``agreement`` (verdicts compared engine by engine, every disagreement shrunk),
``scaling`` (which engine answers fastest where, and median time against plies and
board size), ``nagai`` (df-pn heuristic variants beside Nagai's published ratios,
``nagai.py``; a heat map of nodes per heuristic set and problem) and ``qbf`` (solvers
and encodings on real problems: PAR-2, a cactus plot, formula sizes per encoding and
against plies; ``qbf_report.py``).

"""

from __future__ import annotations

import os
import shlex
import statistics
from pathlib import Path

from ..rules import TsumeError
from ..values import Status, reason_of, status_of, verdict_of
from .analysis import (borderline, by_cell, certificate_errors, certification_counts,
                       code_mix, disagreements, expected_mismatches, fastest, labels_in,
                       limit_seconds, median_repeats, meta, pair_counts, repeat_of,
                       status_counts, verdict)
from .config import Experiment
from .nagai import nagai_context, nagai_rows, nodes_panels
from .cells import board_order, fmt, no_paths
from .compiled import HEADER, code_rows
from .paper import paper_rows
from .paper_report import PAPER_SERIES, paper_tables_context, paper_time_points
from .plots import cactus_plot, heatmap_plot, line_plot, loglog_plot
from .qbf_goals import goal_context
from .qbf_report import qbf_context
from .store import SHRUNK_COLUMNS, read_csv

#: the plots every report links: (file suffix and series key, x-axis label)
PLOTS = (("plies", "plies"), ("boards", "board size"))


# -- sections shared by the kinds -----------------------------------------------------------

def common_context(exp: Experiment, rows: list[dict], labels: list[str]) -> dict:
    status = status_counts(rows, labels)
    return {
        "title": exp.title + (" (quick subset)" if exp.quick else ""),
        "description": exp.description, "name": exp.name, "config": exp.path.name,
        "quick": exp.quick, "cells": len(rows), "instances": len({r["instance"] for r in rows}),
        "labels": labels,
        "status_header": ["engine", "cells", *(status.word for status in Status)],
        "status_rows": [[fmt(s["label"]), s["cells"], *(s[status.word] for status in Status)]
                        for s in status],
        "mix": "", "repeats": None,
        "cpu_limited": any(r.get("cpu_limit") for r in rows),
        "plots": [{"file": f"{exp.name}-{axis}.png", "axis": axis, "x": x} for axis, x in PLOTS],
        "report_command": report_command(exp),
        "errors": error_groups(rows),
        "mismatches": [[fmt(r["instance"]), fmt(r["label"]), verdict(r),
                        Status.of(verdict_of(meta(r))).word] for r in expected_mismatches(rows)],
        "certificate_errors": [[fmt(r["instance"]), fmt(r["label"]), fmt(no_paths(reason_of(r)))]
                               for r in certificate_errors(rows)],
        "certification": certification_rows(rows, labels),
    }


def mix_text(rows: list[dict]) -> str:
    """The header's line on rows of more than one commit or encoder version ("" for one).

    >>> mix_text([{"code_version": "x, encoder 3, git a"}, {"code_version": "x, encoder 4, git b"}])
    '2 commits, encoder versions 3 and 4 (a at encoder 3: 1 cells; b at encoder 4: 1 cells)'
    """
    mix = code_mix(rows)
    if len(mix) < 2:
        return ""
    commits = sorted({c for (c, _), _ in mix})
    encoders = sorted({e for (_, e), _ in mix}, key=lambda e: (len(e), e))
    enc = (f"encoder versions {', '.join(encoders[:-1])} and {encoders[-1]}" if len(encoders) > 1
           else f"encoder version {encoders[0]}")
    parts = "; ".join(f"{c} at encoder {e}: {n} cells" for (c, e), n in mix)
    return f"{len(commits)} commit{'s' * (len(commits) > 1)}, {enc} ({parts})"


def provenance_context(rows: list[dict]) -> dict:
    """What made the rows and where they ran, for the Provenance section: of every row,
    every repeat's, not of the median repeats the tables show."""
    return {"code_versions": sorted({r["code_version"] for r in rows if r.get("code_version")}),
            "machines": sorted({r["machine"] for r in rows if r.get("machine")}),
            "measurement": measurement(rows)}


def measurement(rows: list[dict]) -> list[str]:
    """The Provenance lines on how rows were measured, limited and made (the columns
    rows have had since CPU time was measured; none for older rows)."""
    def spread(values, unit=""):
        values = sorted(v for v in values if v is not None)
        if not values:
            return ""
        return f"{values[0]:g}{unit}" if values[0] == values[-1] else f"{values[0]:g}-{values[-1]:g}{unit}"

    measured = sorted({r["measured_by"] for r in rows if r.get("measured_by")})
    if not measured:
        return []
    lines = [f"CPU seconds (`cpu_s`) and peak memory (`peak_mb`): {', '.join(measured)} "
             f"(docs/experiments.md); wall seconds are `time_s`"]
    cpu = spread(r.get("cpu_limit") for r in rows)
    wall = spread(r.get("timeout") for r in rows)
    lines.append("limits: " + ", ".join(x for x in (f"CPU {cpu} s" if cpu else "",
                                                    f"wall {wall} s" if wall else "") if x))
    lines += [f"solver {name}: {version}" for name, version in
              sorted({(r["solver"], r["solver_version"]) for r in rows if r.get("solver_version")})]
    lines += [f"df-pn backend: {b}" for b in sorted({r["dfpn_backend"] for r in rows
                                                      if r.get("dfpn_backend")})]
    tools = sorted({", ".join(f"{k} {r[k]}" for k in ("pyqbf", "pysat", "cshogi") if r.get(k))
                    for r in rows} - {""})
    lines += [f"libraries: {t}" for t in tools]
    lines += [f"CPU: {m}" for m in sorted({f"{r['cpu_model']}, {r['cores']} cores"
                                            for r in rows if r.get("cpu_model")})]
    jobs = spread(r.get("jobs") for r in rows)
    lines.append(f"load (1-minute average as a cell ended): {spread(r.get('load') for r in rows)}"
                 + (f"; cells at once: {jobs}" if jobs else ""))
    return lines


def repeats_context(rows: list[dict], labels: list[str]) -> dict | None:
    """The spread over repeats: per engine the questions decided in each repeat, per
    engine and length the median seconds of each repeat (min / median / max of those),
    and the borderline cells, decided in some repeats only. None for one repeat."""
    count = max((repeat_of(r) for r in rows), default=1)
    if count < 2:
        return None

    def three(values) -> str:
        values = sorted(values)
        if not values:
            return ""
        return f"{values[0]:.3f} / {statistics.median(values):.3f} / {values[-1]:.3f}"

    rounds = range(1, count + 1)
    unit = "CPU s" if any(r.get("cpu_limit") for r in rows) else "s"
    decided = []
    for label in labels:
        per = [sum(verdict_of(r) is not None for r in rows if r["label"] == label
                   and repeat_of(r) == k) for k in rounds]
        decided.append([fmt(label), *per, f"{min(per)} / {statistics.median(per):g} / {max(per)}"])
    plies = sorted({r["n"] for r in rows})
    timing = []
    for n in plies:
        line = [n]
        for label in labels:
            medians = []
            for k in rounds:
                times = [limit_seconds(r) for r in rows if r["label"] == label and r["n"] == n
                         and repeat_of(r) == k and limit_seconds(r) is not None]
                if times:
                    medians.append(statistics.median(times))
            line.append(three(medians))
        timing.append(line)
    border = [[fmt(inst), fmt(label), ", ".join(verdict(r) for r in group),
               three(r["time_s"] for r in group if r.get("time_s") is not None),
               three(r["cpu_s"] for r in group if r.get("cpu_s") is not None)]
              for (inst, label, _), group in borderline(rows)]
    spreads, cpu_spreads = [], []
    for group in by_cell(rows).values():
        for key, out in (("time_s", spreads), ("cpu_s", cpu_spreads)):
            times = [r[key] for r in group if verdict_of(r) is not None and r.get(key)]
            if len(times) == len(group) > 1:
                out.append((max(times) - min(times)) / statistics.median(times))
    # under a CPU limit the CPU seconds lead: the machine's load moves the wall seconds
    cpu = unit == "CPU s"
    lead, other = (cpu_spreads, spreads) if cpu else (spreads, cpu_spreads)
    return {"count": count, "cells": len(by_cell(rows)),
            "decided_header": ["engine", *(f"repeat {k}" for k in rounds), "min / median / max"],
            "decided": decided,
            "timing_header": ["plies", *(f"{fmt(label)} {unit}" for label in labels)],
            "timing": timing,
            "borderline": border,
            "seconds": "CPU seconds" if cpu else "seconds",
            "spread": f"{statistics.median(lead):.0%}" if lead else "",
            "spread_max": f"{max(lead):.0%}" if lead else "",
            "other": "wall seconds" if cpu else "CPU seconds",
            "other_spread": (f"median {statistics.median(other):.0%}, largest {max(other):.0%}"
                             if other else "")}


def experiment_argument(exp: Experiment) -> str:
    """How the commands a report names give its experiment, so that they work from the
    folder the report was made in and hold no path of this machine: a named experiment by
    its name; one's own ``experiments/NAME.toml`` there by NAME (which finds it first);
    any other TOML by its path from there, as given when given relative. An absolute path
    outside that folder (a machine's) gives way to the experiment as named from the
    folder that holds its results: NAME for ``experiments/NAME.toml``, else the file's
    name.

    >>> from pathlib import Path
    >>> from .config import CONFIGS
    >>> def of(path): return experiment_argument(Experiment("x", Path(path), "", "", [], [], {}))
    >>> of(CONFIGS / "agreement.toml"), of("experiments/mine.toml"), of("lab/my exp.toml")
    ('agreement', 'mine', "'lab/my exp.toml'")
    >>> of("./experiments/../mine.toml"), of("../experiments/mine.toml")
    ('mine.toml', '../experiments/mine.toml')
    >>> of("/elsewhere/experiments/mine.toml"), of("/elsewhere/lab/mine.toml")
    ('mine', 'mine.toml')
    """
    if exp.packaged:
        return exp.path.stem
    here = Path(os.path.relpath(os.path.abspath(exp.path)))
    if exp.path.is_absolute() and here.parts[:1] == ("..",):
        here = (Path("experiments") if exp.path.parent.name == "experiments"
                else Path()) / exp.path.name
    if here.parent == Path("experiments") and here.suffix == ".toml":
        return here.stem
    text = here.as_posix()
    if not text.endswith(".toml") and "/" not in text:  # else read as a name
        text = f"./{text}"
    return shlex.quote(text)


def report_command(exp: Experiment) -> str:
    """The command that renders this report and its pictures again."""
    return (f"tsumeqbf experiment report {experiment_argument(exp)}"
            + (" --quick" if exp.quick else ""))


def run_command(exp: Experiment, rows: list[dict]) -> str:
    """The command that ran the report's rows: with the cells at once that every row
    ran with (``--jobs``, where one count above 1) and the repeats the rows hold."""
    counts = {r.get("jobs") for r in rows}
    jobs = counts.pop() if len(counts) == 1 else None  # None too for a Dask run's rows
    repeats = max((repeat_of(r) for r in rows), default=1)
    return (f"tsumeqbf experiment run {experiment_argument(exp)}"
            + (" --quick" if exp.quick else "")
            + (f" --jobs {jobs}" if jobs and jobs > 1 else "")
            + (f" --repeat {repeats}" if repeats > 1 else ""))


def certification_rows(rows: list[dict], labels: list[str]) -> list[list]:
    """The certified-verdicts table: a row per engine whose cells were certified."""
    out = []
    for c in certification_counts(rows, labels):
        why = ", ".join(f"{k} {v}" for k, v in sorted(c["not_certified"].items()))
        out.append([fmt(c["label"]), "{}/{}".format(*c[Status.MATE]), "{}/{}".format(*c[Status.NOMATE]),
                    c["failed"], why or "-"])
    return out


def error_groups(rows: list[dict]) -> list[list]:
    """Error cells grouped by engine and message (first line, paths stripped)."""
    groups: dict[tuple, int] = {}
    for r in rows:
        if status_of(r) is Status.ERROR:
            text = no_paths(reason_of(r).splitlines()[0] if reason_of(r) else "")
            key = (r["label"], text[:160])
            groups[key] = groups.get(key, 0) + 1
    return [[fmt(label), count, fmt(text)] for (label, text), count in sorted(groups.items())]


def scaling(rows: list[dict], labels: list[str]) -> dict:
    """Median seconds (and decided/total cells) per engine, by plies and by board size,
    as tables and as plot series: CPU seconds under a CPU limit, else wall seconds
    (:func:`limit_seconds`). A timed-out cell counts at the time it took."""
    out = {}
    for axis, key, order in (("plies", lambda r: r["n"], lambda v: v),
                             ("boards", lambda r: meta(r).get("board", "?"), board_order)):
        xs = sorted({key(r) for r in rows}, key=order)
        cells: dict[tuple, list[dict]] = {}
        for r in rows:
            cells.setdefault((r["label"], key(r)), []).append(r)
        table, series = [], {}
        for x in xs:
            line = [fmt(x)]
            for label in labels:
                group = cells.get((label, x), [])
                times = [limit_seconds(r) for r in group if limit_seconds(r) is not None]
                decided = sum(verdict_of(r) is not None for r in group)
                line.append(f"{statistics.median(times):.3f} ({decided}/{len(group)})" if times else "")
                series.setdefault(label, []).append(statistics.median(times) if times else None)
            table.append(line)
        out[axis] = {"header": ["plies" if axis == "plies" else "board", *map(fmt, labels)],
                     "rows": table, "xs": [str(x) for x in xs], "series": series}
    return out


def winners(rows: list[dict], labels: list[str]) -> dict:
    """Who answers fastest: per question, the engine that decided it in the least time
    (ties: the earlier engine of the configuration), counted per board size and plies.

    ``grid`` has a row per board and a column per plies: the engine with the most wins
    there and ``wins/questions``; ``totals`` has a row per engine and a column per plies
    (its wins), so a reader sees where each approach wins without reading medians."""
    place = {label: i for i, label in enumerate(labels)}
    questions: dict[str, list[dict]] = {}
    for r in rows:
        questions.setdefault(r["instance"], []).append(r)
    wins: dict[tuple, dict[str, int]] = {}
    asked: dict[tuple, int] = {}
    for group in questions.values():
        where = (meta(group[0]).get("board", "?"), group[0]["n"])
        asked[where] = asked.get(where, 0) + 1
        best = fastest(group, place)
        if best:
            tally = wins.setdefault(where, {})
            tally[best] = tally.get(best, 0) + 1
    boards = sorted({b for b, _ in asked}, key=board_order)
    plies = sorted({n for _, n in asked})
    grid = []
    for b in boards:
        line = [fmt(b)]
        for n in plies:
            tally = wins.get((b, n), {})
            if (b, n) not in asked:
                line.append("")
            elif not tally:
                line.append(f"none decided (0/{asked[(b, n)]})")
            else:
                top = min(tally, key=lambda lb: (-tally[lb], place[lb]))
                line.append(f"{fmt(top)} ({tally[top]}/{asked[(b, n)]})")
        grid.append(line)
    totals = [[fmt(label), *(sum(wins.get((b, n), {}).get(label, 0) for b in boards) for n in plies),
               sum(tally.get(label, 0) for tally in wins.values())] for label in labels]
    return {"grid_header": ["board", *(f"{n} plies" for n in plies)], "grid": grid,
            "totals_header": ["engine", *(f"{n} plies" for n in plies), "all"], "totals": totals}


# -- per kind -------------------------------------------------------------------------------

def _said(verdict: bool | None) -> str:
    """A shrunk disagreement's verdict: ``mate``, ``no mate`` or ``none``."""
    return "none" if verdict is None else Status.of(verdict).word


def agreement_context(rows: list[dict], shrunk: list[dict], labels: list[str]) -> dict:
    shrunk_by = {(s["instance"], s["label_a"], s["label_b"]): s for s in shrunk}
    by_cell = {(r["instance"], r["label"]): r for r in rows}
    found = []
    for d in disagreements(rows, labels):
        s = shrunk_by.get((d["instance"], *d["pair"]))
        found.append({
            "instance": d["instance"], "sfen": d["sfen"], "n": d["n"], "zone": d["zone"],
            "verdicts": ", ".join(f"{label}: {verdict(by_cell[(d['instance'], label)])}"
                                  for label in d["verdicts"]),
            "pair": d["pair"], "shrunk": s and {
                "sfen": s["shrunk_sfen"], "reproduced": s["reproduced"], "removed": s["removed"],
                "mate_a": _said(s["mate_a"]), "mate_b": _said(s["mate_b"])}})
    pairs = pair_counts(rows, labels)
    return {"pair_header": ["engine A", "engine B", "both decided", "agree", "both mate",
                            "both no mate", "disagree"],
            "pair_rows": [[fmt(p["a"]), fmt(p["b"]), p["compared"], p["agree"], p["agree_mate"],
                           p["agree"] - p["agree_mate"], p["disagree"]] for p in pairs],
            "disagreements": found, "scaling": scaling(rows, labels)}


# -- rendering ------------------------------------------------------------------------------

def environment():
    import jinja2

    env = jinja2.Environment(loader=jinja2.PackageLoader("tsumeqbf.experiments", "templates"),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True, autoescape=False)
    return env


def render_markdown(kind: str, context: dict) -> str:
    return environment().get_template(f"{kind}.md.j2").render(**context)


def build_context(exp: Experiment, rows: list[dict], shrunk: list[dict]) -> dict:
    labels = labels_in(rows, [e.label for e in exp.engines])
    ctx = common_context(exp, rows, labels)
    kind = exp.report["kind"]
    if kind == "paper-tables":
        ctx.update(paper_tables_context(rows, labels, paper_rows()))
        ctx["plot_series"] = ctx["series"]
    elif kind == "agreement":
        ctx.update(agreement_context(rows, shrunk, labels))
        ctx["plot_series"] = ctx["scaling"]
    elif kind == "nagai":
        ctx.update(nagai_context(rows, labels, nagai_rows()))
        ctx["plots"], ctx["plot_series"] = [], {}  # a heat map, no lines
        ctx["nodes_file"] = f"{exp.name}-nodes.png"
    elif kind == "qbf":
        # the notes speak of the full run's figures, not of a --quick subset's
        ctx.update(qbf_context(rows, labels), notes="" if exp.quick else exp.report.get("notes", ""))
        ctx["goals"] = goal_context(rows, labels)
        ctx["scaling"] = scaling(rows, labels)
        ctx["plots"] = ctx["plots"][:1]  # time against plies; the boards are all 9x9 but a few
        ctx["plot_series"] = ctx["scaling"]
        ctx["cactus_file"] = f"{exp.name}-cactus.png"
        ctx["formula_file"] = f"{exp.name}-formula.png"
    else:
        ctx["scaling"] = scaling(rows, labels)
        ctx["winners"] = winners(rows, labels)
        ctx["code_header"] = HEADER
        ctx["code"] = [[fmt(label), *rest] for label, *rest in code_rows(rows, labels)]
        ctx["cpu_limits"] = " or ".join(f"{s:g}" for s in sorted({r["cpu_limit"] for r in rows
                                                                  if r.get("cpu_limit")}))
        ctx["plot_series"] = ctx["scaling"]
    ctx["pictures"] = pictures(exp.report["kind"], ctx)
    return ctx


def pictures(kind: str, ctx: dict) -> list[str]:
    """The PNG files a report of this kind draws, in the order it names them."""
    extra = {"paper-tables": [f"{ctx['name']}-vs-paper.png"],
             "qbf": [ctx.get("cactus_file"), ctx.get("formula_file")],
             "nagai": [ctx.get("nodes_file")]}.get(kind, [])
    return [p["file"] for p in ctx["plots"]] + extra


def render_report(exp: Experiment, results_dir: Path | None = None, plots: bool = True,
                  mixed: bool = False) -> Path:
    """Write ``NAME.md`` (and, with matplotlib, the PNGs) from ``NAME.csv``; returns the
    Markdown's path. Rows of more than one commit or encoder version are refused unless
    ``mixed``, and then the header names the mix. Of repeated cells the tables take each
    cell's median repeat; a section gives the spread."""
    results = Path(results_dir) if results_dir else exp.results_dir
    csv_path = results / f"{exp.name}.csv"
    if not csv_path.exists():
        raise TsumeError(f"{csv_path}: no results yet; run `tsumeqbf experiment run "
                         f"{exp.path.stem if exp.packaged else exp.path}"
                         f"{' --quick' if exp.quick else ''}"
                         f"{f' --out {results_dir}' if results_dir else ''}` first")
    every = read_csv(csv_path)
    if not every:
        raise TsumeError(f"{csv_path}: no rows to report")
    mix = mix_text(every)
    if mix and not mixed:
        raise TsumeError(f"{csv_path.name}: rows of {mix.split(' (')[0]}; a report comes from "
                         f"one: run again with `experiment run --same-code`, or pass --mixed")
    rows = median_repeats(every)
    shrunk_path = results / f"{exp.name}-shrunk.csv"
    shrunk = read_csv(shrunk_path, SHRUNK_COLUMNS) if shrunk_path.exists() else []
    ctx = build_context(exp, rows, shrunk)
    ctx.update(mix=mix, repeats=repeats_context(every, ctx["labels"]), **provenance_context(every),
               run_command=run_command(exp, every))
    if mix:
        ctx["report_command"] += " --mixed"  # the command that renders it again
    md_path = results / f"{exp.name}.md"
    md_path.write_text(render_markdown(exp.report["kind"], ctx), encoding="utf-8")
    if plots:
        if exp.report["kind"] == "paper-tables":
            loglog_plot(results / f"{exp.name}-vs-paper.png",
                        f"{exp.title}: our solver seconds against the paper's",
                        "paper's DepQBF 6.0 seconds", "our seconds", paper_time_points(ctx))
        if exp.report["kind"] == "qbf":
            cactus_plot(results / ctx["cactus_file"], f"{exp.title}: questions decided against time",
                        ctx["cactus"], max((r.get("cpu_limit") or r["timeout"] for r in rows
                                            if r.get("cpu_limit") or r.get("timeout")), default=None))
            sizes = ctx["sizes_by_plies"]
            line_plot(results / ctx["formula_file"], f"{exp.title}: formula size against plies",
                      "plies", sizes["xs"], sizes["series"], ylabel="median clauses (log scale)")
        if exp.report["kind"] == "nagai":
            # the name, not the title: the title's 将棋図巧 has no glyphs in matplotlib's font
            heatmap_plot(results / ctx["nodes_file"], f"{exp.name}: nodes per heuristic set and problem",
                         nodes_panels(ctx["problem_tables"]), "nodes of the proven mate",
                         "no mate proven within the limits", "problem (its number)")
        for plot in ctx["plots"]:
            data = ctx["plot_series"][plot["axis"]]
            line_plot(results / plot["file"], f"{exp.title}: solver time vs {plot['x']}",
                      plot["x"], data["xs"], data["series"],
                      reference=tuple(s for s in data["series"] if s.startswith(PAPER_SERIES)))
    return md_path
