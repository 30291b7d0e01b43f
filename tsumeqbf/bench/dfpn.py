"""df-pn speed and strength on real problems, beside cshogi's DfPn when it is installed.

    python -m tsumeqbf.bench dfpn [--max-nodes N] [--edo K | --ids ID,...] [--heuristics ABC] [--csv FILE]
                                  [--resume] [--backend rules|cshogi|native] [--no-bounded] [--repeat K]
                                  [--beside rules|cshogi|none] [--only cshogi] [--no-cshogi]
                                  [--python-runs FILE,... [--python-solved]] [--cpu-limit S]
                                  [--plot PNG [--beside-csv CSV]]

1. Bounded df-pn on the YaneuraOu mate-3..11 samples at their stated length.
2. Unbounded df-pn (``tsumeqbf solve``) on the first K problems of 将棋図巧 and 将棋無双
   with a node budget: solved count, nodes, seconds, nodes per second, each answer replayed
   by the rules engine (legal, every attacker move a check, ends in mate or in a check only
   useless interpositions answer) and its length beside the stated one; ``first_plies``
   is the first proof's line before the search for shorter mates (``shorten_spent``: the
   nodes it spent; ``shorten_nodes`` in CSVs written before, the name of its option).

cshogi's ``DfPn`` runs on the same positions with the same node budget (its own rules: not
an oracle, see tsumeqbf/data/SOURCES.md); the ratio is our nodes over cshogi's where both
solve. ``--csv`` writes one row per Edo problem as it finishes; ``--resume`` keeps the rows
already there and solves the rest, and the closing summary (:func:`summary`) counts them all. ``--backend cshogi`` generates our solver's moves with
cshogi's generator (same search, faster; see tsumeqbf/dfpn/cshogi_backend.py). Each row
also has the search's CPU seconds (``cpu_s``) and what made it
(:data:`tsumeqbf.provenance.FIELDS`); ``--repeat K`` solves each problem K times (rounds,
column ``repeat``) and the summary gives the spread of the seconds and the problems solved
in some rounds only.
``--heuristics``, ``--shorten-nodes``, ``--tt-entries`` (long runs need more than the
default: zukou-091 ends with 6.7M entries after 11.3M nodes), ``--mate-probe``,
``--group-interpositions``, ``--no-inherit`` and ``--backend`` are ``solve``'s.
``--backend native`` runs the native core instead, beside the Python search and cshogi's
DfPn (:mod:`tsumeqbf.bench.dfpn_native`; there ``--python-runs``, ``--python-solved`` and
``--cpu-limit`` measure issue 45's goal against the Python search's recorded runs).
``--no-cshogi`` leaves cshogi's DfPn out.
``--only cshogi`` runs cshogi's DfPn alone on the Edo problems (no bounded set, none of
ours): its verdict, nodes, wall and CPU seconds per problem (:func:`cshogi_only`), for
``--plot ... --beside-csv`` to draw its seconds beside ours from an earlier run's CSV.
"""

from __future__ import annotations

import csv
import statistics
import time
from pathlib import Path

from ..arguments import (BenchParser, non_negative_int, positive_float, positive_int_or_default,
                        table_csv)
from ..data import read_rows
from ..dfpn import DfPn, ShogiGame
from ..dfpn.options import SolveOptions
from ..dfpn.solve import replay_answer, solve_tsume
from ..provenance import FIELDS as PROVENANCE, row_fields
from ..rules import Position, TsumeError
from ..usage import measured
from ..values import Status
from . import BenchError


def cshogi_dfpn(cshogi, sfen: str, max_nodes: int, max_depth: int | None = None,
                 moves=()):
    """(proven, nodes, seconds, CPU seconds) of cshogi's DfPn search, or None when cshogi
    is missing
    (``max_depth``: its depth limit, else its default). ``moves`` (USI) are played from
    ``sfen`` first: the board keeps them as its history, and cshogi's search counts differ
    from those on the same position set up from its own SFEN."""
    if cshogi is None:
        return None
    board = cshogi.Board(sfen)
    for text in moves:
        board.push_usi(text)
    search = cshogi.DfPn()
    search.set_max_search_node(max_nodes)
    if max_depth is not None:
        search.set_max_depth(max_depth)
    start, cpu = time.perf_counter(), time.process_time()
    proven = search.search(board)
    return (proven, search.searched_node, time.perf_counter() - start,
            time.process_time() - cpu)


def bounded(rows, max_nodes, cshogi) -> None:
    print(f"{'problem':18s} {'n':>3s} {'verdict':8s} {'nodes':>8s} {'s':>7s} {'nodes/s':>8s}"
          + (f" | {'cshogi nodes':>12s} {'s':>7s} {'ratio':>6s}" if cshogi else ""))
    total_nodes = total_s = 0.0
    for r in rows:
        pos = Position.from_sfen(r["sfen"])
        n = int(r["stated_length"])
        start = time.perf_counter()
        res = DfPn(ShogiGame(pos), max_nodes=max_nodes).solve(n)
        took = time.perf_counter() - start
        total_nodes += res.nodes
        total_s += took
        verdict = Status.UNKNOWN.value if res.proven is None else Status.of(res.proven).word
        line = (f"{r['yaneuraou_file'][:-5] + '-' + r['line_no']:18s} {n:3d} {verdict:8s} "
                f"{res.nodes:8d} {took:7.3f} {res.nodes / max(took, 1e-9):8.0f}")
        theirs = cshogi_dfpn(cshogi, r["sfen"], max_nodes)
        if theirs:
            line += f" | {theirs[1]:12d} {theirs[2]:7.3f} {res.nodes / max(theirs[1], 1):6.2f}"
        print(line, flush=True)
    print(f"\nbounded total: {int(total_nodes)} nodes in {total_s:.2f} s, "
          f"{total_nodes / max(total_s, 1e-9):.0f} nodes/s\n")


FIELDS = ["id", "stated_length", "status", "length", "plies", "first_plies", "nodes",
          "shorten_spent", "time_s", "replay", "cshogi_proven", "cshogi_nodes", "probes",
          "repeat", "cpu_s", *PROVENANCE]


#: the columns of bench dfpn's FIELDS that CSVs written before had under another name:
#: the shortening's nodes spent were ``shorten_nodes``, the option's name (the committed
#: runs under results/ keep it)
OLD_NAMES = {"shorten_nodes": "shorten_spent"}


class _OldNames(csv.DictWriter):
    """A DictWriter on a CSV of old column names (``old``: each old name's new one),
    given rows under the new names."""

    def __init__(self, sink, header: list[str], old: dict):
        super().__init__(sink, fieldnames=header, extrasaction="ignore")
        self.old = {new: name for name, new in old.items() if name in header}

    def writerow(self, row):
        return super().writerow({self.old.get(key, key): value for key, value in row.items()})


def open_rows(csv_path, resume: bool, fields=FIELDS, old_names=None):
    """The CSV's file and a DictWriter on it (both None without a path), and the (id,
    repeat) it holds already (``resume``: keep them and append). A CSV written before the
    later columns (repeat, CPU seconds, provenance), or with a column's old name of
    ``old_names`` (old name: new name), resumes with its own columns."""
    if not csv_path:
        return None, None, set()
    path = Path(csv_path)
    done = set()
    old_names = old_names or {}
    if resume and path.exists() and path.stat().st_size:
        with open(path, encoding="utf-8") as fh:
            header = fh.readline().strip().split(",")
            if [old_names.get(name, name) for name in header] != fields[:len(header)]:
                raise BenchError(f"{path} has other columns; cannot resume it")
            fh.seek(0)
            done = {(row["id"], int(row.get("repeat") or 1)) for row in csv.DictReader(fh)}
        sink = open(path, "a", newline="", encoding="utf-8")
        return sink, _OldNames(sink, header, old_names), done
    sink = open(path, "w", newline="", encoding="utf-8")
    writer = csv.DictWriter(sink, fieldnames=fields)
    writer.writeheader()
    return sink, writer, done


def keep(row: dict, sink, writer, finished: list) -> None:
    """Write ``row`` to the run's CSV at once (an interrupted run keeps it), and keep it."""
    if writer:
        writer.writerow(row)
        sink.flush()
    finished.append(row)


def every_row(sink, csv_path, finished: list) -> list[dict]:
    """Close the run's CSV and read back all its rows, a resumed run's earlier ones too
    (without a CSV: ``finished``)."""
    if not sink:
        return finished
    sink.close()
    with open(csv_path, encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def unbounded(rows, max_nodes, options: SolveOptions, cshogi, csv_path, resume=False,
              repeat=1) -> None:
    """``solve`` with ``options`` on each of ``rows`` (no exact-shortest search after a
    proof: ``shortest_up_to`` 0), beside cshogi's DfPn."""
    # rows are written as problems finish: an interrupted run keeps them, --resume goes on
    sink, writer, done = open_rows(csv_path, resume, old_names=OLD_NAMES)
    if done:
        print(f"resuming: {len(done)} problems already in {csv_path}")
    our_nodes = our_s = 0.0
    finished = []
    print(f"{'problem':10s} {'stated':>6s} {'status':8s} {'length':>6s} {'nodes':>9s} {'s':>7s} "
          f"{'replay':10s}" + (f" | {'cshogi':7s} {'nodes':>9s}" if cshogi else ""))
    for k, r in ((k, r) for k in range(1, repeat + 1) for r in rows if (r["id"], k) not in done):
        pos = Position.from_sfen(r["sfen"])
        with measured() as used:
            out = solve_tsume(pos, options, max_nodes=max_nodes, shortest_up_to=0)
        our_nodes += out["nodes"]
        our_s += out["time_s"]
        check = replay_answer(pos, out["pv"]) if out["pv"] else "-"
        theirs = cshogi_dfpn(cshogi, r["sfen"], max_nodes)
        row = {"id": r["id"], "stated_length": r["stated_length"], "status": out["status"],
               "length": out["length"], "plies": out.get("plies"),
               "first_plies": out.get("first_plies"), "nodes": out["nodes"],
               "shorten_spent": out.get("shorten_spent"),
               "time_s": round(out["time_s"], 3), "replay": check,
               "cshogi_proven": theirs[0] if theirs else None,
               "cshogi_nodes": theirs[1] if theirs else None, "probes": out["probes"],
               "repeat": k, "cpu_s": round(used.cpu_s, 3),
               **row_fields("tsume", {"backend": out["backend"]})}
        keep(row, sink, writer, finished)
        line = (f"{r['id']:10s} {r['stated_length']:>6s} {out['status']:8s} "
                f"{str(out['length'] or '-'):>6s} {out['nodes']:9d} {out['time_s']:7.2f} {check[:10]:10s}")
        if theirs:
            line += f" | {str(bool(theirs[0])):7s} {theirs[1]:9d}"
        print(line, flush=True)
    finished = every_row(sink, csv_path, finished)  # a resumed run sums up every row
    print(f"\nthis run: {our_nodes / max(our_s, 1e-9):.0f} nodes/s (heuristics '{options.heuristics}', "
          f"budget {max_nodes:,} nodes)")
    for line in summary(finished):
        print(line)
    if csv_path:
        print(f"rows: {csv_path}")


CSHOGI_FIELDS = ["id", "stated_length", "cshogi_proven", "cshogi_nodes", "cshogi_time_s",
                 "cshogi_cpu_s", "repeat", *PROVENANCE]


def cshogi_only(rows, max_nodes, cshogi, csv_path, resume=False, repeat=1) -> None:
    """cshogi's DfPn alone on ``rows`` with ``max_nodes`` each: a row per problem (and
    round) with its verdict, nodes, wall seconds (``cshogi_time_s``) and CPU seconds
    (``cshogi_cpu_s``, ``time.process_time``), both around its search only (its table is
    freed after: that takes time in proportion to the nodes, outside both), written as each
    finishes."""
    sink, writer, done = open_rows(csv_path, resume, CSHOGI_FIELDS)
    if done:
        print(f"resuming: {len(done)} problems already in {csv_path}")
    print(f"{'problem':10s} {'stated':>6s} {'cshogi':7s} {'nodes':>9s} {'s':>7s} {'cpu s':>7s}")
    for k, r in ((k, r) for k in range(1, repeat + 1) for r in rows if (r["id"], k) not in done):
        proven, nodes, took, cpu = cshogi_dfpn(cshogi, r["sfen"], max_nodes)
        row = {"id": r["id"], "stated_length": r["stated_length"], "cshogi_proven": proven,
               "cshogi_nodes": nodes, "cshogi_time_s": round(took, 3), "cshogi_cpu_s": round(cpu, 3),
               "repeat": k, **row_fields("cshogi-dfpn", {})}
        if writer:
            writer.writerow(row)
            sink.flush()
        print(f"{r['id']:10s} {r['stated_length']:>6s} {str(bool(proven)):7s} {nodes:9d} "
              f"{took:7.2f} {cpu:7.2f}", flush=True)
    if sink:
        sink.close()
        print(f"rows: {csv_path}")


def summary(rows: list[dict]) -> list[str]:
    """What a set of unbounded rows (as written to the CSV, values or strings) says:
    solved per collection beside cshogi, node ratios where both solve, replays, and the
    answers' lengths against the stated ones.

    >>> row = dict(id="zukou-002", status=Status.MATE, stated_length="21", length=21, nodes=3021,
    ...            replay="ok", cshogi_proven="True", cshogi_nodes=1783)
    >>> summary([row])[0]
    'solved 1/1 (zukou 1/1); cshogi DfPn 1/1 (zukou 1/1)'
    """
    def proven(r):
        return str(r.get("cshogi_proven")) == "True"

    spread = repeat_lines(rows)
    rows = [r for r in rows if int(r.get("repeat") or 1) == 1]  # the first round's
    groups: dict[str, list] = {}
    for r in rows:
        groups.setdefault(r["id"].split("-")[0], []).append(r)
    ours = [r for r in rows if r["status"] == Status.MATE]
    each = ", ".join(f"{g} {sum(r['status'] == Status.MATE for r in rs)}/{len(rs)}"
                     for g, rs in groups.items())
    out = [f"solved {len(ours)}/{len(rows)} ({each})"]
    if any(r.get("cshogi_proven") not in (None, "") for r in rows):
        theirs = ", ".join(f"{g} {sum(map(proven, rs))}/{len(rs)}" for g, rs in groups.items())
        out[0] += f"; cshogi DfPn {sum(map(proven, rows))}/{len(rows)} ({theirs})"
        ratios = [int(r["nodes"]) / max(int(r["cshogi_nodes"]), 1) for r in ours if proven(r)]
        if ratios:
            out.append(f"where both solve ({len(ratios)}): within 2x of cshogi's nodes on "
                       f"{sum(x <= 2 for x in ratios)}, median ratio ours/cshogi "
                       f"{statistics.median(ratios):.2f}")
        missed = [r["id"] for r in rows if proven(r) and r["status"] != Status.MATE]
        if missed:
            out.append(f"solved by cshogi only: {', '.join(missed)}")
    bad = [r["id"] for r in ours if r["replay"] != "ok"]
    out.append(f"answers replayed ok: {len(ours) - len(bad)}/{len(ours)}"
               + (f" (not ok: {', '.join(bad)})" if bad else ""))
    diff = [int(r["length"]) - int(r["stated_length"]) for r in ours]
    out.append(f"lengths against the stated ones: {sum(d == 0 for d in diff)} equal, "
               f"{sum(d > 0 for d in diff)} longer, {sum(d < 0 for d in diff)} shorter")
    return out + spread


def repeat_lines(rows: list[dict]) -> list[str]:
    """With repeats: each round's solved count, the spread of a problem's seconds over
    the rounds, and the problems solved in some rounds only (none without repeats).

    >>> rows = [dict(id="a", status=Status.MATE, time_s="1.0", repeat="1"), dict(id="a", status=Status.MATE, time_s="3.0", repeat="2"),
    ...         dict(id="b", status=Status.MATE, time_s="2.0", repeat="1"), dict(id="b", status=Status.UNKNOWN, time_s="9.0", repeat="2")]
    >>> repeat_lines(rows)
    ['repeats 2: solved 2, 1 (min / median / max 1 / 1.5 / 2); seconds of the problems solved every time, (max - min) / median: median 100%, largest 100% (a)', 'solved in some repeats only: b']
    """
    rounds = sorted({int(r.get("repeat") or 1) for r in rows})
    if len(rounds) < 2:
        return []
    solved = [sum(r["status"] == Status.MATE for r in rows if int(r.get("repeat") or 1) == k)
              for k in rounds]
    by_id: dict[str, list] = {}
    for r in rows:
        by_id.setdefault(r["id"], []).append(r)
    spreads = {}
    for pid, group in by_id.items():
        times = [float(r["time_s"]) for r in group if r["status"] == Status.MATE]
        if len(times) == len(group) > 1 and statistics.median(times) > 0:
            spreads[pid] = (max(times) - min(times)) / statistics.median(times)
    line = (f"repeats {len(rounds)}: solved {', '.join(map(str, solved))} (min / median / max "
            f"{min(solved)} / {statistics.median(solved):g} / {max(solved)})")
    if spreads:
        worst = max(spreads, key=spreads.get)
        line += (f"; seconds of the problems solved every time, (max - min) / median: median "
                 f"{statistics.median(spreads.values()):.0%}, largest {spreads[worst]:.0%} ({worst})")
    borderline = sorted(pid for pid, group in by_id.items()
                        if len({r["status"] == Status.MATE for r in group}) > 1)
    return [line] + ([f"solved in some repeats only: {', '.join(borderline)}"] if borderline else [])


def by_ids(rows: list[dict], ids: str) -> list[dict]:
    """The rows named in ``ids`` (comma-separated), in order; ValueError naming the unknown
    ones, or saying none was given.

    >>> rows = [{"id": "zukou-001"}, {"id": "musou-001"}]
    >>> [r["id"] for r in by_ids(rows, "musou-001, zukou-001")]
    ['musou-001', 'zukou-001']
    >>> by_ids(rows, "zukou-201")
    Traceback (most recent call last):
    ValueError: unknown problem id(s) zukou-201 (ids look like zukou-001 or musou-100)
    """
    wanted = [i.strip() for i in ids.split(",") if i.strip()]
    by_id = {r["id"]: r for r in rows}
    unknown = [i for i in wanted if i not in by_id]
    if unknown or not wanted:
        raise ValueError(f"unknown problem id(s) {', '.join(unknown) or '(none given)'} "
                         f"(ids look like zukou-001 or musou-100)")
    return [by_id[i] for i in wanted]


def pick_edo(rows: list[dict], first: int, ids: str | None) -> list[dict]:
    """The first ``first`` problems, or those named in ``ids`` (comma-separated), in order;
    an unknown id is a BenchError naming it.

    >>> rows = [{"id": "zukou-001"}, {"id": "zukou-002"}, {"id": "musou-001"}]
    >>> [r["id"] for r in pick_edo(rows, 2, None)], [r["id"] for r in pick_edo(rows, 0, "musou-001")]
    (['zukou-001', 'zukou-002'], ['musou-001'])
    """
    if not ids:
        return rows[:first]
    try:
        return by_ids(rows, ids)
    except ValueError as exc:
        raise BenchError(str(exc)) from None


def _native(args, cshogi) -> int:
    """``--backend native``: see :mod:`tsumeqbf.bench.dfpn_native`; exit 1 on a
    disagreement with the Python search or a line that does not replay."""
    from .. import native
    from . import dfpn_native

    ignored = [flag for flag, off in (("--heuristics", args.heuristics == ""),
                                      ("--mate-probe", args.mate_probe == 0),
                                      ("--no-inherit", args.inherit),
                                      ("--plot", not args.plot),
                                      ("--only", args.only is None))
               if not off]
    if ignored:
        raise BenchError(f"--backend native does not take {', '.join(ignored)}")
    native.require()
    bad = 0
    if not args.no_bounded:
        bad += dfpn_native.bounded(read_rows("yaneuraou_mate_samples.csv"), args.max_nodes, cshogi)
    if args.edo or args.ids:
        every = read_rows("open_tsume_zukou_musou.csv")
        rows = pick_edo(every, args.edo, args.ids)
        python = no_probes = None
        if args.python_runs:
            if args.beside != "none":
                raise BenchError("--python-runs stands for the Python search "
                                 "beside; give --beside none")
            python = dfpn_native.python_answers(args.python_runs.split(","), every)
            no_probes = dfpn_native.python_answers(args.python_runs.split(","), every,
                                                   probes=False)
            if args.python_solved:
                rows = [r for r in rows if python.get(r["id"], ("",))[0]
                        in (Status.MATE, Status.NOMATE)]
        bad += dfpn_native.unbounded(rows, args.max_nodes, cshogi,
                                     None if args.beside == "none" else args.beside,
                                     args.csv, args.resume, args.tt_limit, python,
                                     args.shorten_nodes or 0, args.group_interpositions,
                                     args.cpu_limit, no_probes, args.repeat)
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    ap = BenchParser(prog="python -m tsumeqbf.bench dfpn")
    ap.add_argument("--max-nodes", type=positive_int_or_default, default=1_000_000)
    ap.add_argument("--edo", type=non_negative_int, default=20,
                    help="how many Edo problems (0: none, 200: all)")
    ap.add_argument("--ids", default=None,
                    help="Edo problems by id instead of the first K (zukou-023,musou-007)")
    # solve's options that the benchmark passes on (with solve's help)
    SolveOptions.add_flags(ap, ("heuristics", "shorten_nodes", "tt_limit", "mate_probe",
                                "group_interpositions", "inherit"))
    # the search measured: not solve's auto, so that a row's command means one search
    ap.add_argument("--backend", choices=("rules", "cshogi", "native"), default="rules",
                    help="the Python search with our rules engine's move generator (rules, "
                         "the default) or cshogi's, or the native core beside them "
                         "(tsumeqbf/bench/dfpn_native.py)")
    ap.add_argument("--csv", type=table_csv, default=None)
    ap.add_argument("--resume", action="store_true",
                    help="keep the problems already in --csv and solve the rest")
    ap.add_argument("--no-bounded", action="store_true", help="skip the YaneuraOu bounded set")
    ap.add_argument("--beside", choices=("rules", "cshogi", "none"), default="cshogi",
                    help="with --backend native: the Python search's move generator on the "
                         "same problems (none: not run)")
    ap.add_argument("--repeat", type=positive_int_or_default, default=1, metavar="K",
                    help="solve each Edo problem K times (rounds); the summary gives the "
                         "spread of the seconds and the problems solved in some rounds only "
                         "(with --backend native: each round's nodes per CPU s beside "
                         "cshogi's and the ratio's median and range)")
    ap.add_argument("--plot", default=None, metavar="PNG",
                    help="draw nodes and seconds against the stated length, ours beside "
                         "cshogi's DfPn, from every row of --csv once the run ends (with "
                         "--edo 0: from the CSV as it is, its summary printed)")
    ap.add_argument("--beside-csv", default=None, metavar="CSV",
                    help="with --plot: cshogi's seconds from a --only cshogi CSV of the same "
                         "problems and budget, drawn beside ours")
    ap.add_argument("--only", choices=("cshogi",), default=None,
                    help="cshogi: its DfPn alone on the Edo problems (wall and CPU seconds "
                         "to --csv); neither the bounded set nor our search runs")
    ap.add_argument("--python-runs", default=None, metavar="FILE,...",
                    help="with --backend native and --beside none: the Python search's "
                         "recorded runs (bench dfpn CSVs, solve --json answers) for its "
                         "verdicts and shortest answers, in place of a run beside")
    ap.add_argument("--no-cshogi", action="store_true",
                    help="leave cshogi's DfPn out (it runs beside ours when installed)")
    ap.add_argument("--python-solved", action="store_true",
                    help="with --python-runs: only the problems those runs decide")
    ap.add_argument("--cpu-limit", type=positive_float, default=None, metavar="S",
                    help="with --backend native: CPU seconds for each problem's search, "
                         "the proof and the search for a shorter line (unknown past it)")
    args = ap.parse_args(argv)
    native_only = [flag for flag, given in (("--python-runs", args.python_runs),
                                            ("--python-solved", args.python_solved),
                                            ("--cpu-limit", args.cpu_limit is not None)) if given]
    if native_only and args.backend != "native":
        raise BenchError(f"{', '.join(native_only)} go(es) with --backend native")
    if args.python_solved and not args.python_runs:
        raise BenchError("--python-solved needs --python-runs")
    try:
        options = SolveOptions.from_args(args)
    except (TsumeError, ValueError) as exc:  # (--tt-entries out of its range: bad input)
        ap.error(str(exc))
    if args.beside_csv and not args.plot:
        raise BenchError("--beside-csv goes with --plot")
    try:
        import cshogi
    except ImportError:
        cshogi = None
    if args.no_cshogi:
        if args.only == "cshogi":
            raise BenchError("--only cshogi and --no-cshogi contradict each other")
        cshogi = None
    if args.resume and not args.csv:
        raise BenchError("--resume needs --csv")
    if args.plot and not args.csv:
        raise BenchError("--plot draws the rows of --csv; give --csv")
    if args.backend == "native":
        return _native(args, cshogi)
    if args.only == "cshogi":
        if cshogi is None:
            raise BenchError("--only cshogi needs cshogi (pip install cshogi)")
        if not (args.edo or args.ids):
            raise BenchError("--only cshogi runs the Edo problems; give --edo K or --ids")
        if args.plot:
            raise BenchError("--only cshogi writes no picture; draw ours with "
                             "--plot PNG --beside-csv CSV")
        cshogi_only(pick_edo(read_rows("open_tsume_zukou_musou.csv"), args.edo, args.ids),
                    args.max_nodes, cshogi, args.csv, args.resume, args.repeat)
        return 0
    rows = pick_edo(read_rows("open_tsume_zukou_musou.csv"), args.edo, args.ids)
    if not args.no_bounded:
        bounded(read_rows("yaneuraou_mate_samples.csv"), args.max_nodes, cshogi)
    if args.edo or args.ids:
        unbounded(rows, args.max_nodes, options, cshogi, args.csv, args.resume, args.repeat)
    if args.plot:
        draw(args.csv, args.plot, args.max_nodes, summed=bool(args.edo or args.ids),
             beside_csv=args.beside_csv)
    return 0


def draw(csv_path: str, png: str, max_nodes: int, summed: bool, beside_csv=None) -> None:
    """The picture of a CSV's rows (:mod:`tsumeqbf.bench.dfpn_plot`); its summary first
    unless the run above printed it. ``beside_csv`` (a ``--only cshogi`` CSV) adds
    cshogi's seconds (:func:`with_cshogi_seconds`)."""
    from .dfpn_plot import plot_edo

    with open(csv_path, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not summed:
        for line in summary(rows):
            print(line)
    if beside_csv:
        with open(beside_csv, encoding="utf-8", newline="") as fh:
            rows, lines = with_cshogi_seconds(rows, list(csv.DictReader(fh)))
        for line in lines:
            print(line)
    title = (f"{Path(csv_path).name}: df-pn against cshogi's DfPn on {len(rows)} problems, "
             f"{max_nodes:,} nodes each")
    if beside_csv:
        title += f"\ncshogi's seconds from {Path(beside_csv).name}"
    if plot_edo(rows, Path(png), title, max_nodes):
        print(f"picture: {png}")
    else:
        print("bench dfpn: no picture (matplotlib missing, or no rows)")


def with_cshogi_seconds(rows: list[dict], theirs: list[dict]) -> tuple[list[dict], list[str]]:
    """``rows`` (a ``bench dfpn`` CSV's) with cshogi's wall and CPU seconds from
    ``theirs`` (a ``--only cshogi`` CSV's first round), taken only where its verdict and
    nodes are those ``rows`` recorded; and lines saying how many matched and the median
    seconds of each where both solve.

    >>> ours = [dict(id="a", status=Status.MATE, time_s="2.0", cshogi_proven="True", cshogi_nodes="10"),
    ...         dict(id="b", status=Status.MATE, time_s="4.0", cshogi_proven="False", cshogi_nodes="99")]
    >>> theirs = [dict(id="a", cshogi_proven="True", cshogi_nodes="10", cshogi_time_s="0.5", cshogi_cpu_s="0.4"),
    ...           dict(id="b", cshogi_proven="True", cshogi_nodes="50", cshogi_time_s="0.1", cshogi_cpu_s="0.1")]
    >>> rows, lines = with_cshogi_seconds(ours, theirs)
    >>> [r.get("cshogi_time_s") for r in rows], lines
    (['0.5', None], ['cshogi seconds: 1 of 2 rows (1 with another verdict or node count left out: b)', 'where both solve (1): median seconds ours 2, cshogi 0.5 (CPU 0.4)'])
    """
    by_id = {t["id"]: t for t in theirs if int(t.get("repeat") or 1) == 1}
    out, other = [], []
    for r in rows:
        t = by_id.get(r["id"])
        same = t and all(str(t[k]) == str(r.get(k)) for k in ("cshogi_proven", "cshogi_nodes"))
        if t and not same:
            other.append(r["id"])
        out.append({**r, "cshogi_time_s": t["cshogi_time_s"], "cshogi_cpu_s": t["cshogi_cpu_s"]} if same
                   else r)
    timed = [r for r in out if "cshogi_time_s" in r]
    lines = [f"cshogi seconds: {len(timed)} of {len(rows)} rows"
             + (f" ({len(other)} with another verdict or node count left out: "
                f"{', '.join(other)})" if other else "")]
    both = [r for r in timed if r["status"] == Status.MATE and str(r["cshogi_proven"]) == "True"]
    if both:
        def median(key):
            return f"{statistics.median(float(r[key]) for r in both):.3g}"
        lines.append(f"where both solve ({len(both)}): median seconds ours {median('time_s')}, "
                     f"cshogi {median('cshogi_time_s')} (CPU {median('cshogi_cpu_s')})")
    return out, lines
