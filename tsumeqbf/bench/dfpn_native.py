"""``python -m tsumeqbf.bench dfpn --backend native``: the native core beside the Python
search and cshogi's DfPn, on the same problems in the same run.

1. Bounded, on the YaneuraOu samples at their stated length: the core's ``mate`` and the
   Python ``DfPn`` (same verdict required; a disagreement is printed and counted), and
   cshogi's DfPn with the same node budget.
2. Unbounded, on the Edo problems: ``solve_tsume`` with the core (its answer replayed by
   the rules engine) and with the Python search (the move generator ``beside``), both the
   proof alone (no search for shorter mates, so the answers' lengths compare with the
   same settings), and cshogi's DfPn, each with the node budget.

Nodes per second are each engine's nodes over its seconds, by the clock and by the CPU
time of the thread (``cpu_s``: what the rate is worth on a loaded machine; the proof's
search alone, not the reading of its answer); a node is not
the same unit in the three (cshogi counts its mate probes' positions apart, for one), so the seconds to a
verdict are printed too, and the summary gives the core's time over cshogi's at the
median of the problems both solve.
"""

from __future__ import annotations

import csv
import statistics
import time

from .. import native
from ..dfpn import DfPn, ShogiGame
from ..dfpn.solve import replay_answer, solve_tsume
from ..provenance import FIELDS as PROVENANCE, row_fields
from ..rules import Position
from ..settings import TABLE_ENTRIES
from ..usage import measured
from ..values import Status
from .dfpn import cshogi_dfpn, open_rows

FIELDS = ["id", "stated_length", "backend", "status", "length", "nodes", "time_s", "cpu_s",
          "replay", "python_backend", "python_status", "python_nodes", "python_time_s",
          "python_cpu_s", "cshogi_proven", "cshogi_nodes", "cshogi_time_s", "cshogi_cpu_s",
          *PROVENANCE, "python_length"]


def _rate(nodes, seconds) -> str:
    return f"{nodes / seconds:,.0f}" if seconds > 0 else "-"


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


def unbounded(rows, max_nodes: int, cshogi, beside: str | None, csv_path=None,
              resume: bool = False, tt_limit: int = TABLE_ENTRIES) -> int:
    """The Edo problems without a bound; returns the disagreements and bad lines."""
    sink, writer, done = open_rows(csv_path, resume, FIELDS, "dfpn")
    done_ids = {problem for problem, _ in done}
    if done_ids:
        print(f"resuming: {len(done_ids)} problems already in {csv_path}")
    rows = [r for r in rows if r["id"] not in done_ids]
    print(f"{'problem':10s} {'stated':>6s} {'native':8s} {'length':>6s} {'nodes':>9s} {'s':>7s} "
          f"{'replay':6s}" + (f" | {'python':8s} {'nodes':>9s} {'s':>7s}" if beside else "")
          + (f" | {'cshogi':7s} {'nodes':>9s} {'s':>7s}" if cshogi else ""))
    finished = []
    for r in rows:
        pos = Position.from_sfen(r["sfen"])
        out = solve_tsume(pos, max_nodes=max_nodes, backend="native", shortest_up_to=0,
                          shorten_nodes=0, tt_limit=tt_limit)
        check = replay_answer(pos, out["pv"]) if out["pv"] else "-"
        row = {"id": r["id"], "stated_length": r["stated_length"], "backend": "native",
               "status": out["status"], "length": out["length"], "nodes": out["nodes"],
               "time_s": round(out["time_s"], 6), "cpu_s": out["proof_cpu_s"],
               "replay": check, **row_fields("tsume", {"backend": "native"})}
        line = (f"{r['id']:10s} {r['stated_length']:>6s} {out['status']:8s} "
                f"{str(out['length'] or '-'):>6s} {out['nodes']:9d} {out['time_s']:7.2f} "
                f"{check[:6]:6s}")
        if beside:
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
        print(line, flush=True)
        if writer:
            writer.writerow(row)
            sink.flush()
        finished.append(row)
    if sink:
        sink.close()
        with open(csv_path, encoding="utf-8") as fh:  # a resumed run sums up every row
            finished = list(csv.DictReader(fh))
    lines, bad = summary(finished)
    for text in lines:
        print(text)
    return bad


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
    "native answers longer than the Python search's (the proof's line, no search for a shorter one in either): 1 (zukou-002)"
    
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
            timed = [r for r in rows if num(r, name + clock) is not None]
            seconds = sum(num(r, name + clock) for r in timed)
            if timed and seconds > 0:
                rates.append(f"{label} {_rate(sum(num(r, name + 'nodes') for r in timed), seconds)}")
        if rates:
            out.append(f"{what}: " + ", ".join(rates))
    both = [r for r in solved if proven(r.get("cshogi_proven"))]
    if both:
        ratios = [num(r, "time_s") / max(num(r, "cshogi_time_s"), 1e-6) for r in both]
        out.append(f"where native and cshogi both solve ({len(both)}): native's seconds over "
                   f"cshogi's at the median {statistics.median(ratios):.2f}")
    decided = (Status.MATE, Status.NOMATE)
    differ = [r["id"] for r in rows if r.get("python_status") in decided
              and r["status"] in decided and r["status"] != r["python_status"]]
    not_ok = [r["id"] for r in solved if not r["replay"].startswith("ok")]
    longer = [r["id"] for r in solved
              if int(r.get("length") or 0) > int(r.get("python_length") or 0) > 0]
    if any(r.get("python_length") not in (None, "") for r in solved):
        out.append(f"native answers longer than the Python search's (the proof's line, no "
                   f"search for a shorter one in either): {len(longer)}"
                   + (f" ({', '.join(longer)})" if longer else ""))
    out.append(f"verdicts differing from the Python search's: {len(differ)}"
               + (f" ({', '.join(differ)})" if differ else "")
               + f"; native lines replayed as mate: {len(solved) - len(not_ok)}/{len(solved)}"
               + (f" (not: {', '.join(not_ok)})" if not_ok else ""))
    return out, len(differ) + len(not_ok)
