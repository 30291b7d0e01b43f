"""``python -m tsumeqbf.bench dfpn --backend native``: the native core beside the Python
search and cshogi's DfPn, on the same problems in the same run.

1. Bounded, on the YaneuraOu samples at their stated length: the core's ``mate`` and the
   Python ``DfPn`` (same verdict required; a disagreement is printed and counted), and
   cshogi's DfPn with the same node budget.
2. Unbounded, on the Edo problems: ``solve_tsume`` with the core (its answer replayed by
   the rules engine) and with the Python search (the move generator ``beside``), both the
   proof alone (no search for shorter mates, so the answers' lengths compare with the
   same settings), and cshogi's DfPn, each with the node budget.

3. The goal of issue 45 as one command: ``python_runs`` (``--python-runs``, the Python
   search's committed runs: ``bench dfpn`` CSVs and ``solve --json`` answers) give each
   problem the Python search's verdict and its shortest recorded answer in place of a run
   beside (:func:`python_answers`); ``--python-solved`` keeps the problems they decide;
   ``--cpu-limit`` bounds each problem's CPU seconds (the proof and the search for a
   shorter line, :func:`~tsumeqbf.usage.cpu_limited`); ``--shorten-nodes`` and
   ``--group-interpositions`` are ``solve``'s. The summary then gives the CPU seconds of
   all the core's searches and the longest one, and says whether every problem the Python
   search decides was decided within 1,800 CPU s in all (:func:`goal_lines`).

``--repeat K`` searches every problem K times (rounds, column ``repeat``), the engines in
turn as in one round: the summary's figures are the first round's, and each round's nodes
per CPU second of the core and of cshogi's DfPn, with their ratio, follow (the ratio moves
with the machine's state more than with the code: docs/dfpn-notebook.md), with the median
and the range of the ratio over the rounds (:func:`repeat_rate_lines`).

Nodes per second are each engine's nodes over its seconds, by the clock and by the CPU
time of the thread (``cpu_s``: what the rate is worth on a loaded machine; the proof's
search alone, not the reading of its answer); a node is not
the same unit in the three (cshogi counts its mate probes' positions apart, for one), so the seconds to a
verdict are printed too, and the summary gives the core's time over cshogi's at the
median of the problems both solve.
"""

from __future__ import annotations

import csv
import json
import statistics
import time
from pathlib import Path

from .. import native
from ..dfpn import DfPn, ShogiGame
from ..dfpn.solve import replay_answer, solve_tsume
from ..provenance import FIELDS as PROVENANCE, row_fields
from ..rules import Position
from ..settings import TABLE_ENTRIES
from ..limits import LimitReached
from ..usage import cpu_limited, measured
from ..values import REASON, Status, reason_of
from . import BenchError
from .dfpn import cshogi_dfpn, every_row, keep, open_rows

FIELDS = ["id", "stated_length", "backend", "status", "length", "nodes", "time_s", "cpu_s",
          "replay", "python_backend", "python_status", "python_nodes", "python_time_s",
          "python_cpu_s", "cshogi_proven", "cshogi_nodes", "cshogi_time_s", "cshogi_cpu_s",
          *PROVENANCE, "python_length", "total_cpu_s", "shorten_nodes", "group_interpositions",
          "python_run", REASON, "python_length_no_probes", "repeat"]

#: issue 45: every Edo problem the Python search decides, decided by the core within this
#: many CPU seconds in all
GOAL_CPU_S = 1800


def python_answers(paths, rows, probes: bool = True) -> dict:
    """Per problem id of ``rows`` (the Edo problems), what the Python search's recorded
    runs in ``paths`` say: ``(status, length, source)``, the decided verdict and the
    shortest answer among the runs that decide it (length by the project's convention;
    None for a no-mate), else ``(unknown, None, None)`` when some run asked it and none
    decided. A path is a ``bench dfpn`` CSV (columns id, status, length) or a ``solve
    --json`` answer (its ``sfen`` names the problem). Two runs with different verdicts
    are a BenchError: the reference must be one. ``probes=False`` leaves out the answers
    found with mate probes (a ``probes`` count above 0, or ``mate_probe`` set), a search
    setting the core has not: the reference with the settings the core can have.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> a, b = os.path.join(d, "a.csv"), os.path.join(d, "b.csv")
    >>> _ = open(a, "w").write("id,status,length\\nzukou-001,unknown,\\nzukou-002,mate,23\\n")
    >>> _ = open(b, "w").write("id,status,length\\nzukou-001,mate,75\\nzukou-002,mate,21\\n")
    >>> rows = [{"id": "zukou-001", "sfen": ""}, {"id": "zukou-002", "sfen": ""}]
    >>> got = python_answers([a, b], rows)
    >>> got["zukou-001"][:2] == (Status.MATE, 75), got["zukou-002"][:2] == (Status.MATE, 21)
    (True, True)
    >>> got["zukou-002"][2] == "b.csv"
    True
    >>> _ = open(b, "w").write("id,status,length,probes\\nzukou-002,mate,21,95\\n")
    >>> python_answers([a, b], rows, probes=False)["zukou-002"][1:]
    (23, 'a.csv')
    """
    by_sfen = {Position.from_sfen(r["sfen"]).key: r["id"] for r in rows if r.get("sfen")}
    found: dict = {}
    for path in paths:
        name = Path(path).name
        try:
            with open(path, encoding="utf-8") as fh:
                if str(path).endswith(".json"):
                    answer = json.load(fh)
                    pid = by_sfen.get(Position.from_sfen(answer["sfen"]).key)
                    recorded = ([(pid, answer["status"], answer.get("length"))]
                                if pid and (probes or not _probed(answer)) else [])
                else:
                    recorded = [(r["id"], r["status"], r.get("length")) for r in csv.DictReader(fh)
                                if probes or not _probed(r)]
        except (OSError, ValueError, KeyError) as exc:
            raise BenchError(f"cannot read the Python search's run {path}: {exc}")
        for pid, status, length in recorded:
            length = int(length) if length not in (None, "") else None
            had = found.get(pid)
            if status not in (Status.MATE, Status.NOMATE):
                found.setdefault(pid, (Status.UNKNOWN.value, None, None))
            elif had is None or had[0] == Status.UNKNOWN:
                found[pid] = (status, length, name)
            elif had[0] != status:
                raise BenchError(f"the Python search's runs disagree on {pid} "
                                 f"({had[0]} in {had[2]}, {status} in {name})")
            elif length is not None and (had[1] is None or length < had[1]):
                found[pid] = (status, length, name)
    return found


def _probed(recorded: dict) -> bool:
    """Whether a recorded answer (a CSV row or a ``solve --json`` answer) was found with
    mate probes."""
    return any(str(recorded.get(name) or 0) not in ("0", "False") for name in ("probes", "mate_probe"))


def _rate(nodes, seconds) -> str:
    return f"{nodes / seconds:,.0f}" if seconds > 0 else "-"


def nodes_per_second(rows: list[dict], engine: str = "", clock: str = "cpu_s") -> float | None:
    """An engine's nodes over its seconds on the rows that timed it (``engine``: "" the
    core, "python_" or "cshogi_"; ``clock``: "time_s" or "cpu_s"), None without time.

    >>> nodes_per_second([dict(nodes=300, cpu_s=1.5), dict(nodes=100, cpu_s="")])
    200.0
    """
    timed = [r for r in rows if r.get(engine + clock) not in (None, "")]
    seconds = sum(float(r[engine + clock]) for r in timed)
    return sum(float(r[engine + "nodes"]) for r in timed) / seconds if seconds > 0 else None


def bounded(rows, max_nodes: int, cshogi) -> int:
    """The YaneuraOu samples at their stated length; returns the disagreements."""
    print(f"{'problem':18s} {'n':>3s} {'verdict':8s} {'native nodes':>12s} {'s':>7s} | "
          f"{'python nodes':>12s} {'s':>7s}" + (f" | {'cshogi nodes':>12s} {'s':>7s}" if cshogi else ""))
    totals = {"native": [0, 0.0], "python": [0, 0.0], "cshogi": [0, 0.0]}
    disagreements = 0
    for r in rows:
        pos = Position.from_sfen(r["sfen"])
        n = int(r["stated_length"])
        got = native.mate(pos, n, max_nodes=max_nodes)
        start = time.perf_counter()
        ours = DfPn(ShogiGame(pos.copy()), max_nodes=max_nodes).solve(n)
        took = time.perf_counter() - start
        totals["native"][0] += got["nodes"]
        totals["native"][1] += got["time_s"]
        totals["python"][0] += ours.nodes
        totals["python"][1] += took
        verdict = Status.of(got["proven"]).value
        if got["proven"] is not None and ours.proven is not None and got["proven"] != ours.proven:
            disagreements += 1
            verdict += f" (Python: {Status.of(ours.proven)}!)"
        line = (f"{r['yaneuraou_file'][:-5] + '-' + r['line_no']:18s} {n:3d} {verdict:8s} "
                f"{got['nodes']:12d} {got['time_s']:7.3f} | {ours.nodes:12d} {took:7.3f}")
        theirs = cshogi_dfpn(cshogi, r["sfen"], max_nodes)
        if theirs:
            totals["cshogi"][0] += theirs[1]
            totals["cshogi"][1] += theirs[2]
            line += f" | {theirs[1]:12d} {theirs[2]:7.3f}"
        print(line, flush=True)
    print("\nbounded, nodes/s: " + ", ".join(
        f"{name} {_rate(*totals[name])}" for name in totals if totals[name][1]))
    print(f"bounded verdicts native vs Python: {disagreements} disagreement(s)\n")
    return disagreements


def solve_native(pos, max_nodes, tt_limit, shorten_nodes, group_interpositions,
                 cpu_limit) -> dict:
    """``solve_tsume`` with the core on ``pos`` (no exact-shortest search after the
    proof), within ``cpu_limit`` CPU seconds for all of it (None: no limit): its answer
    with ``total_cpu_s``; past the limit an unknown answer with the nodes searched."""
    held = {}

    def note(search):  # the search, for its node count should the limit stop it
        held["search"] = search

    start = time.perf_counter()
    with measured() as used:
        try:
            with cpu_limited(cpu_limit):
                out = solve_tsume(pos, max_nodes=max_nodes, backend="native", shortest_up_to=0,
                                  shorten_nodes=shorten_nodes, tt_limit=tt_limit,
                                  group_interpositions=group_interpositions, on_search=note)
        except LimitReached as exc:
            search = held.get("search")
            out = {"status": Status.UNKNOWN, "length": None, "pv": None, REASON: str(exc),
                   "nodes": search.nodes if search else 0,
                   "time_s": time.perf_counter() - start, "proof_cpu_s": "stopped"}
    out["total_cpu_s"] = round(used.cpu_s, 6)
    if out["proof_cpu_s"] == "stopped":  # all of it was the proof's
        out["proof_cpu_s"] = out["total_cpu_s"]
    return out


def unbounded(rows, max_nodes: int, cshogi, beside: str | None, csv_path=None,
              resume: bool = False, tt_limit: int = TABLE_ENTRIES, python: dict | None = None,
              shorten_nodes: int | None = 0, group_interpositions: bool = False,
              cpu_limit: float | None = None, python_no_probes: dict | None = None,
              repeat: int = 1) -> int:
    """The Edo problems without a bound, ``repeat`` rounds; returns the disagreements and
    bad lines. ``python`` (from :func:`python_answers`) gives the Python search's recorded
    verdicts and lengths in place of a run ``beside``; ``python_no_probes`` the lengths of
    its runs without mate probes, the search setting the core has not, reported beside."""
    sink, writer, done = open_rows(csv_path, resume, FIELDS)
    if done:
        print(f"resuming: {len(done)} already searched in {csv_path}")
    print(f"{'problem':10s} {'stated':>6s} {'native':8s} {'length':>6s} {'nodes':>9s} {'s':>7s} "
          f"{'replay':6s}" + (f" | {'python':8s} {'nodes':>9s} {'s':>7s}" if beside else "")
          + (f" | {'cshogi':7s} {'nodes':>9s} {'s':>7s}" if cshogi else ""))
    finished = []
    settings = dict(max_nodes=max_nodes, cshogi=cshogi, beside=beside, tt_limit=tt_limit,
                    python=python, shorten_nodes=shorten_nodes,
                    group_interpositions=group_interpositions, cpu_limit=cpu_limit,
                    python_no_probes=python_no_probes)
    for k, r in ((k, r) for k in range(1, repeat + 1) for r in rows if (r["id"], k) not in done):
        row, line = search_problem(r, **settings)
        row["repeat"] = k
        print(line + (f" (round {k})" if repeat > 1 else ""), flush=True)
        keep(row, sink, writer, finished)
    finished = every_row(sink, csv_path, finished)  # a resumed run sums up every row
    first = [r for r in finished if int(r.get("repeat") or 1) == 1]
    lines, bad = summary(first)
    if python is not None:
        lines += goal_lines(first)
    for text in lines + repeat_rate_lines(finished):
        print(text)
    return bad


def search_problem(r: dict, max_nodes, cshogi, beside, tt_limit, python, shorten_nodes,
                   group_interpositions, cpu_limit, python_no_probes) -> tuple[dict, str]:
    """One Edo problem ``r`` searched by the core (its answer replayed), the Python search
    beside or its recorded answer, and cshogi's DfPn: the CSV row and the printed line."""
    pos = Position.from_sfen(r["sfen"])
    out = solve_native(pos, max_nodes, tt_limit, shorten_nodes, group_interpositions,
                       cpu_limit)
    check = replay_answer(pos, out["pv"]) if out["pv"] else "-"
    row = {"id": r["id"], "stated_length": r["stated_length"], "backend": "native",
           "status": out["status"], "length": out["length"], "nodes": out["nodes"],
           "time_s": round(out["time_s"], 6), "cpu_s": out["proof_cpu_s"],
           "replay": check, **row_fields("tsume", {"backend": "native"}),
           "total_cpu_s": out["total_cpu_s"], "shorten_nodes": shorten_nodes,
           "group_interpositions": group_interpositions, REASON: reason_of(out)}
    line = (f"{r['id']:10s} {r['stated_length']:>6s} {out['status']:8s} "
            f"{str(out['length'] or '-'):>6s} {out['nodes']:9d} {out['time_s']:7.2f} "
            f"{check[:6]:6s}")
    if python is not None:
        status, length, source = python.get(r["id"], ("", None, None))
        row.update(python_status=status, python_length=length, python_run=source)
        if python_no_probes is not None:
            row["python_length_no_probes"] = python_no_probes.get(r["id"], ("", None))[1]
        line += f" | {status or '-':8s} {str(length or '-'):>6s}"
    elif beside:
        ours = solve_tsume(pos, max_nodes=max_nodes, backend=beside, shortest_up_to=0,
                           shorten_nodes=0, tt_limit=tt_limit)
        row.update(python_backend=beside, python_status=ours["status"],
                   python_nodes=ours["nodes"], python_time_s=round(ours["time_s"], 6),
                   python_cpu_s=ours["proof_cpu_s"], python_length=ours["length"])
        line += f" | {ours['status']:8s} {ours['nodes']:9d} {ours['time_s']:7.2f}"
    theirs = cshogi_dfpn(cshogi, r["sfen"], max_nodes)
    if theirs:  # its CPU seconds around its search alone, as ours
        row.update(cshogi_proven=bool(theirs[0]), cshogi_nodes=theirs[1],
                   cshogi_time_s=round(theirs[2], 6), cshogi_cpu_s=round(theirs[3], 6))
        line += f" | {str(bool(theirs[0])):7s} {theirs[1]:9d} {theirs[2]:7.2f}"
    return row, line


def repeat_rate_lines(rows: list[dict]) -> list[str]:
    """With repeats: each round's nodes per CPU second of the core and of cshogi's DfPn
    and their ratio, then the ratio's median and range over the rounds (none without
    repeats, or without cshogi's rows).

    >>> rows = [dict(repeat=k, nodes=n, cpu_s=c, cshogi_nodes=m, cshogi_cpu_s=1.0)
    ...         for k, n, c, m in ((1, 300, 1.0, 100), (2, 300, 1.5, 100), (3, 300, 1.0, 120))]
    >>> for line in repeat_rate_lines(rows): print(line)
    round 1: native 300, cshogi 100 nodes per CPU s, 3.00x
    round 2: native 200, cshogi 100 nodes per CPU s, 2.00x
    round 3: native 300, cshogi 120 nodes per CPU s, 2.50x
    repeats 3: native over cshogi in nodes per CPU s, median 2.50x (2.00x-3.00x)
    """
    rounds: dict[int, list] = {}
    for r in rows:
        rounds.setdefault(int(r.get("repeat") or 1), []).append(r)
    if len(rounds) < 2:
        return []
    out, ratios = [], []
    for k in sorted(rounds):
        ours, theirs = nodes_per_second(rounds[k]) or 0, nodes_per_second(rounds[k], "cshogi_")
        if not theirs:
            return []
        ratios.append(ours / theirs)
        out.append(f"round {k}: native {ours:,.0f}, cshogi {theirs:,.0f} nodes per CPU s, "
                   f"{ratios[-1]:.2f}x")
    out.append(f"repeats {len(ratios)}: native over cshogi in nodes per CPU s, median "
               f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}x-{max(ratios):.2f}x)")
    return out


def goal_lines(rows: list[dict]) -> list[str]:
    """Issue 45's goal on rows whose ``python_status`` is the Python search's recorded
    verdict: the problems it decides, how many the core decided, the CPU seconds of all
    the core's searches (``total_cpu_s``: proof and shortening) and the longest.

    >>> mate, unknown = Status.MATE, Status.UNKNOWN
    >>> rows = [dict(id="zukou-001", status=mate, python_status=mate, total_cpu_s="12.5"),
    ...         dict(id="musou-001", status=unknown, python_status=unknown, total_cpu_s="3")]
    >>> goal_lines(rows)[0]
    'the Python search decides 1 of these 2 (zukou 1); the core decides 1 of them (zukou 1)'
    >>> goal_lines(rows)[1]
    'CPU s of the core, proof and shortening: 15.5 in all (12.5 on those 1), the longest 12.5 (zukou-001); goal: those 1 within 1,800 in all: met'
    """
    decided = (Status.MATE, Status.NOMATE)
    asked = [r for r in rows if r.get("python_status") in decided]
    got = [r for r in asked if r["status"] == r["python_status"]]

    def per_collection(some):
        groups: dict = {}
        for r in some:
            groups[r["id"].split("-")[0]] = groups.get(r["id"].split("-")[0], 0) + 1
        return ", ".join(f"{g} {n}" for g, n in groups.items())

    cpu = {r["id"]: float(r.get("total_cpu_s") or 0) for r in rows}
    spent = sum(cpu[r["id"]] for r in asked)
    longest = max(cpu, key=cpu.get) if cpu else None
    met = len(got) == len(asked) and spent <= GOAL_CPU_S
    return [f"the Python search decides {len(asked)} of these {len(rows)} "
            f"({per_collection(asked)}); the core decides {len(got)} of them "
            f"({per_collection(got)})",
            f"CPU s of the core, proof and shortening: {sum(cpu.values()):,.1f} in all "
            f"({spent:,.1f} on those {len(asked)}), the longest {cpu.get(longest, 0):,.1f} "
            f"({longest}); goal: those {len(asked)} within {GOAL_CPU_S:,} in all: "
            + ("met" if met else "short")]


def summary(rows: list[dict]) -> tuple[list[str], int]:
    """The summary lines of unbounded rows (values or the CSV's strings) and the count of
    verdict disagreements with the Python search plus lines that do not replay.

    >>> rows = [dict(id="zukou-002", status=Status.MATE, nodes=2226, time_s=0.01, replay="ok",
    ...              python_status=Status.MATE, python_nodes=1954, python_time_s=0.5,
    ...              cshogi_proven=True, cshogi_nodes=1783, cshogi_time_s=0.02)]
    >>> summary(rows)[0][:2]
    ['native solved 1/1; Python 1/1; cshogi DfPn 1/1', 'nodes/s: native 222,600, Python 3,908, cshogi 89,150']
    >>> summary([{**rows[0], "cpu_s": 0.01, "cshogi_cpu_s": 0.02}])[0][2]
    'nodes per CPU second: native 222,600, cshogi 89,150'
    >>> summary([{**rows[0], "length": 23, "python_length": 21}])[0][-2]
    "native answers longer than the Python search's: 1 (zukou-002); as long 0, shorter 0"
    
    """
    def num(row, name):
        value = row.get(name)
        return float(value) if value not in (None, "") else None

    def proven(value):
        return str(value) == "True"

    solved = [r for r in rows if r["status"] == Status.MATE]
    has_python = any(r.get("python_status") for r in rows)
    has_cshogi = any(r.get("cshogi_nodes") not in (None, "") for r in rows)
    head = f"native solved {len(solved)}/{len(rows)}"
    if has_python:
        head += f"; Python {sum(r.get('python_status') == Status.MATE for r in rows)}/{len(rows)}"
    if has_cshogi:
        head += f"; cshogi DfPn {sum(proven(r.get('cshogi_proven')) for r in rows)}/{len(rows)}"
    out = [head]
    for clock, what in (("time_s", "nodes/s"), ("cpu_s", "nodes per CPU second")):
        rates = []
        for name, label in (("", "native"), ("python_", "Python"), ("cshogi_", "cshogi")):
            per = nodes_per_second(rows, name, clock)
            if per is not None:
                rates.append(f"{label} {per:,.0f}")
        if rates:
            out.append(f"{what}: " + ", ".join(rates))
    both = [r for r in solved if proven(r.get("cshogi_proven"))]
    if both:
        medians = []
        for clock, what in (("cpu_s", "CPU"), ("time_s", "wall")):
            if all(r.get(clock) not in (None, "") and r.get(f"cshogi_{clock}") not in (None, "")
                   for r in both):
                ratios = [num(r, clock) / max(num(r, f"cshogi_{clock}"), 1e-6) for r in both]
                medians.append(f"{what} {statistics.median(ratios):.2f}")
        out.append(f"where native and cshogi both solve ({len(both)}): native's seconds over "
                   f"cshogi's at the median: {', '.join(medians)}")
    decided = (Status.MATE, Status.NOMATE)
    differ = [r["id"] for r in rows if r.get("python_status") in decided
              and r["status"] in decided and r["status"] != r["python_status"]]
    not_ok = [r["id"] for r in solved if not r["replay"].startswith("ok")]
    longer = [r["id"] for r in solved
              if int(r.get("length") or 0) > int(r.get("python_length") or 0) > 0]
    if any(r.get("python_length") not in (None, "") for r in solved):
        out.append(f"native answers longer than the Python search's: {len(longer)}"
                   + (f" ({', '.join(longer)})" if longer else "")
                   + f"; as long {sum(int(r.get('length') or 0) == int(r.get('python_length') or -1) for r in solved)}, "
                   f"shorter {sum(0 < int(r.get('length') or 0) < int(r.get('python_length') or 0) for r in solved)}")
    plain = [r for r in solved if r.get("python_length_no_probes") not in (None, "")]
    if plain:
        past = [r["id"] for r in plain
                if int(r.get("length") or 0) > int(r["python_length_no_probes"])]
        out.append(f"against the Python search's runs without mate probes (the core has "
                   f"none), on the {len(plain)} they solve: longer {len(past)}"
                   + (f" ({', '.join(past)})" if past else ""))
    out.append(f"verdicts differing from the Python search's: {len(differ)}"
               + (f" ({', '.join(differ)})" if differ else "")
               + f"; native lines replayed as mate: {len(solved) - len(not_ok)}/{len(solved)}"
               + (f" (not: {', '.join(not_ok)})" if not_ok else ""))
    return out, len(differ) + len(not_ok)
