"""``python -m tsumeqbf.bench usi-mate --engine PROGRAM``: another USI mate engine (such as
KomoringHeights) beside the native core, on the same problems in the same run.

    python -m tsumeqbf.bench usi-mate --engine PATH [--engine-arg ARG ...]
                                      [--option NAME=VALUE ...] [--edo K | --ids ID,...]
                                      [--classics KEY,...] [--seconds S] [--max-nodes N]
                                      [--tt-entries N] [--no-core] [--cshogi-nodes N]
                                      [--csv FILE [--resume]] [--repeat K]

Each problem is asked of the engine (``go mate`` with ``--seconds`` to answer) and then
of the core (the proof alone, as ``bench dfpn --backend native --shorten-nodes 0``: at
most ``--max-nodes`` nodes and ``--seconds`` CPU seconds, its table ``--tt-entries``).
Both lines are replayed by the rules engine: an engine's mate is its word until then.
``--cshogi-nodes N`` runs cshogi's DfPn third, with N nodes (it has no time limit), so the
issue's measure (nodes per CPU second over cshogi's DfPn's, in one run) is given for
both engines. The summary gives how many each
decides, the verdicts that differ (a replayed mate against a no-mate: the no-mate is
wrong), the core's CPU seconds over the engine's at the median of the problems both
decide, each one's nodes per CPU second, and the lengths where both found a mate.

The engine's CPU seconds are those its process spent between ``go mate`` and its
``checkmate`` line (``/proc``, Linux; its own ``info time`` beside, wall milliseconds);
its nodes are its last ``info`` line's: an engine that times out reports the nodes of its
last periodic line (KH's ``PvInterval`` sets how often it writes one). A node is not the
same unit in two engines; the seconds to a verdict are the comparison that holds.

Exit status 1 when the core is wrong (a line that does not replay, or a no-mate against
the engine's replayed mate); the engine's wrong answers are reported, not failed on.
"""

from __future__ import annotations

import statistics
from pathlib import Path

from ..arguments import (BenchParser, non_negative_int, positive_float_or_default,
                        positive_int_or_default)
from ..data import read_rows
from ..dfpn.solve import replay_answer
from ..provenance import FIELDS as PROVENANCE, row_fields
from ..rules import Position
from ..settings import TABLE_ENTRIES
from ..usi.client import EngineError, MateEngine
from ..values import REASON, Status, reason_of
from . import BenchError
from .dfpn import by_ids, cshogi_dfpn, every_row, keep, open_rows, pick_edo
from .dfpn_native import nodes_per_second, solve_native

FIELDS = ["id", "stated_length", "engine", "engine_status", "engine_length", "engine_nodes",
          "engine_time_ms", "engine_cpu_s", "engine_wall_s", "engine_replay", f"engine_{REASON}",
          "status", "length", "nodes", "time_s", "cpu_s", "replay", REASON, "seconds",
          "max_nodes", "tt_entries", "engine_command", "engine_options", "cshogi_proven",
          "cshogi_nodes", "cshogi_time_s", "cshogi_cpu_s", "repeat", *PROVENANCE]


def problems(edo: int, ids: str | None, classics: str | None) -> list[dict]:
    """The Edo problems asked for, then the long classics named in ``classics``, as rows
    with ``id``, ``sfen`` and ``stated_length``."""
    rows = pick_edo(read_rows("open_tsume_zukou_musou.csv"), edo, ids)
    if classics:
        every = [dict(r, id=r["key"]) for r in read_rows("long_classics.csv")]
        try:
            rows += by_ids(every, classics)
        except ValueError:
            raise BenchError(f"--classics takes keys of long_classics.csv "
                             f"({', '.join(r['id'] for r in every)})") from None
    return rows


def engine_columns(engine: MateEngine, pos: Position, sfen: str, seconds: float) -> dict:
    """The engine's answer on one problem, its line replayed, as the row's columns."""
    got = engine.mate(sfen, seconds)
    replay = replay_answer(pos, got.line) if got.status == Status.MATE else "-"
    return {"engine_status": got.status, "engine_length": len(got.line) or None,
            "engine_nodes": got.nodes, "engine_time_ms": got.time_ms,
            "engine_cpu_s": got.cpu_s, "engine_wall_s": got.wall_s, "engine_replay": replay,
            f"engine_{REASON}": got.reason}


def core_columns(pos: Position, max_nodes: int, seconds: float,
                 tt_entries: int = TABLE_ENTRIES) -> dict:
    """The core's proof on one problem (no search for shorter lines), replayed."""
    out = solve_native(pos, max_nodes, tt_entries, 0, False, seconds)
    return {"status": out["status"], "length": out["length"], "nodes": out["nodes"],
            "time_s": round(out["time_s"], 6), "cpu_s": out["proof_cpu_s"],
            "replay": replay_answer(pos, out["pv"]) if out["pv"] else "-",
            REASON: reason_of(out)}


def _ok(row: dict, prefix: str) -> bool:
    return str(row.get(prefix + "replay") or "").startswith("ok")


def wrong_verdicts(rows: list[dict]) -> list[tuple[str, str]]:
    """(problem, who) for each verdict the other's replayed mate refutes: ``who`` is
    "engine" or "core", the one that said no mate.

    >>> mate, nomate = Status.MATE, Status.NOMATE
    >>> rows = [dict(id="a", engine_status=nomate, status=mate, replay="ok"),
    ...         dict(id="b", engine_status=mate, engine_replay="ok", status=nomate),
    ...         dict(id="c", engine_status=mate, engine_replay="ply 3 ...", status=nomate)]
    >>> wrong_verdicts(rows)
    [('a', 'engine'), ('b', 'core')]
    """
    out = []
    for r in rows:
        if r.get("engine_status") == Status.NOMATE and r.get("status") == Status.MATE and _ok(r, ""):
            out.append((r["id"], "engine"))
        if r.get("status") == Status.NOMATE and r.get("engine_status") == Status.MATE and _ok(r, "engine_"):
            out.append((r["id"], "core"))
    return out


def _decided(row: dict, prefix: str) -> bool:
    status = row.get(prefix + "status")
    return status == Status.NOMATE or (status == Status.MATE and _ok(row, prefix))


def _number(value) -> float | None:
    return None if value in (None, "") else float(value)


def _rate(rows: list[dict], prefix: str) -> float | None:
    """Nodes per CPU second of one engine (``prefix``) over the rows that give its nodes."""
    return nodes_per_second([r for r in rows if _number(r.get(prefix + "nodes")) is not None],
                            prefix)


def summary(rows: list[dict], name: str) -> list[str]:
    """The lines the run ends with (see the module's docstring).

    >>> mate, unknown = Status.MATE, Status.UNKNOWN
    >>> rows = [dict(id="a", engine_status=mate, engine_replay="ok", engine_length=9,
    ...              engine_nodes=1000, engine_cpu_s=2.0, status=mate, replay="ok",
    ...              length=9, nodes=3000, cpu_s=1.0),
    ...         dict(id="b", engine_status=unknown, engine_replay="-", engine_nodes=500,
    ...              engine_cpu_s=3.0, status=mate, replay="ok", length=11, nodes=900,
    ...              cpu_s=0.5)]
    >>> for line in summary(rows, "KH"): print(line)
    decided of 2: KH 1, the core 2, both 1
    wrong verdicts (a no-mate against the other's replayed mate): none
    lines that do not replay: KH 0, the core 0
    where both decide: the core's CPU s over KH's at the median 0.50 (1 problems)
    nodes per CPU s where each decides: KH 500, the core 2,600
    lengths where both mate: the core shorter 0, the same 1, longer 0
    """
    both = [r for r in rows if _decided(r, "") and _decided(r, "engine_")]
    wrong = wrong_verdicts(rows)
    out = [f"decided of {len(rows)}: {name} {sum(_decided(r, 'engine_') for r in rows)}, the "
           f"core {sum(_decided(r, '') for r in rows)}, both {len(both)}",
           "wrong verdicts (a no-mate against the other's replayed mate): "
           + (", ".join(f"{pid} ({who})" for pid, who in wrong) or "none"),
           f"lines that do not replay: {name} "
           f"{sum(r.get('engine_status') == Status.MATE and not _ok(r, 'engine_') for r in rows)}, "
           f"the core {sum(r.get('status') == Status.MATE and not _ok(r, '') for r in rows)}"]
    ratios = [float(r["cpu_s"]) / float(r["engine_cpu_s"]) for r in both
              if _number(r.get("engine_cpu_s")) and _number(r.get("cpu_s")) is not None]
    if ratios:
        out.append(f"where both decide: the core's CPU s over {name}'s at the median "
                   f"{statistics.median(ratios):.2f} ({len(ratios)} problems)")
    rates = [f"{who} {rate:,.0f}" for who, prefix in ((name, "engine_"), ("the core", ""))
             if (rate := _rate([r for r in rows if _decided(r, prefix)], prefix))]
    if rates:
        out.append("nodes per CPU s where each decides: " + ", ".join(rates))
    mates = [r for r in both if r["status"] == Status.MATE and r["engine_status"] == Status.MATE]
    if mates:
        diff = [int(r["length"]) - int(r["engine_length"]) for r in mates]
        out.append(f"lengths where both mate: the core shorter {sum(d < 0 for d in diff)}, "
                   f"the same {sum(d == 0 for d in diff)}, longer {sum(d > 0 for d in diff)}")
    return out


def rate_lines(rows: list[dict], name: str) -> list[str]:
    """With cshogi's DfPn in the run: each engine's nodes per CPU second over every
    problem (the issue's measure; the engine's nodes those of its last report) and its
    ratio to cshogi's.

    >>> rows = [dict(engine_nodes=900, engine_cpu_s=3.0, nodes=1200, cpu_s=2.0,
    ...              cshogi_nodes=400, cshogi_cpu_s=2.0)]
    >>> rate_lines(rows, "KH")
    ["nodes per CPU s over every problem: KH 300 (1.50x cshogi's DfPn), the core 600 (3.00x), cshogi's DfPn 200"]
    >>> rate_lines([dict(nodes=1, cpu_s=1.0)], "KH")
    []
    """
    theirs = _rate(rows, "cshogi_")
    if not theirs:
        return []
    parts = []
    for who, prefix in ((name, "engine_"), ("the core", "")):
        ours = _rate(rows, prefix)
        if ours:
            ratio = ours / theirs
            parts.append(f"{who} {ours:,.0f} ({ratio:.2f}x" + (" cshogi's DfPn)" if not parts else ")"))
    return ["nodes per CPU s over every problem: " + ", ".join(parts)
            + f", cshogi's DfPn {theirs:,.0f}"]


def run(engine: MateEngine, rows: list[dict], args, settings: dict, cshogi=None) -> list[dict]:
    """Every problem of ``rows``, ``args.repeat`` rounds, written as it finishes."""
    sink, writer, done = open_rows(args.csv, args.resume, FIELDS)
    if done:
        print(f"resuming: {len(done)} already searched in {args.csv}")
    print(f"{'problem':12s} {'stated':>6s} | {'engine':8s} {'length':>6s} {'nodes':>10s} "
          f"{'CPU s':>7s} {'replay':6s}" + ("" if args.no_core else
          f" | {'core':8s} {'length':>6s} {'nodes':>10s} {'CPU s':>7s} {'replay':6s}")
          + (f" | {'cshogi':5s} {'nodes':>9s} {'CPU s':>7s}" if cshogi else ""))
    finished = []
    for k in range(1, args.repeat + 1):
        for r in rows:
            if (r["id"], k) in done:
                continue
            pos = Position.from_sfen(r["sfen"])
            row = {"id": r["id"], "stated_length": r["stated_length"], "engine": engine.name,
                   **settings, "repeat": k,
                   **engine_columns(engine, pos, r["sfen"], args.seconds)}
            line = (f"{r['id']:12s} {r['stated_length']:>6s} | {row['engine_status']:8s} "
                    f"{str(row['engine_length'] or '-'):>6s} {str(row['engine_nodes'] or '-'):>10s} "
                    f"{str(row['engine_cpu_s']):>7s} {row['engine_replay'][:6]:6s}")
            if not args.no_core:
                row.update(core_columns(pos, args.max_nodes, args.seconds, args.tt_entries))
                line += (f" | {row['status']:8s} {str(row['length'] or '-'):>6s} "
                         f"{row['nodes']:10d} {float(row['cpu_s']):7.2f} {row['replay'][:6]:6s}")
            theirs = cshogi_dfpn(cshogi, r["sfen"], args.cshogi_nodes) if cshogi else None
            if theirs:
                row.update(cshogi_proven=bool(theirs[0]), cshogi_nodes=theirs[1],
                           cshogi_time_s=round(theirs[2], 6), cshogi_cpu_s=round(theirs[3], 6))
                line += f" | {str(bool(theirs[0])):5s} {theirs[1]:9d} {theirs[3]:7.2f}"
            row.update(row_fields("tsume", {"backend": "native"}))
            print(line + (f" (round {k})" if args.repeat > 1 else ""), flush=True)
            keep(row, sink, writer, finished)
    finished = every_row(sink, args.csv, finished)  # a resumed run sums up every row
    return [r for r in finished if int(r.get("repeat") or 1) == 1]


def parse_options(pairs: list[str]) -> dict:
    """``NAME=VALUE`` pairs as USI options.

    >>> parse_options(["USI_Hash=1024", "PostSearchLevel=None"])
    {'USI_Hash': '1024', 'PostSearchLevel': 'None'}
    >>> parse_options(["Threads"])
    Traceback (most recent call last):
    tsumeqbf.bench.BenchError: --option takes NAME=VALUE, not 'Threads'
    """
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise BenchError(f"--option takes NAME=VALUE, not {pair!r}")
        out[name] = value
    return out


def main(argv: list[str]) -> int:
    ap = BenchParser(prog="python -m tsumeqbf.bench usi-mate",
                                 description="another USI mate engine beside the native core")
    ap.add_argument("--engine", required=True, metavar="PATH", help="the engine's program")
    ap.add_argument("--engine-arg", action="append", default=[], metavar="ARG",
                    help="an argument for the program (repeatable)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a USI option for the engine (repeatable)")
    ap.add_argument("--edo", type=non_negative_int, default=20,
                    help="how many Edo problems (0: none)")
    ap.add_argument("--ids", default=None, help="Edo problems by id, comma-separated")
    ap.add_argument("--classics", default=None, metavar="KEY,...",
                    help="long classics by key (long_classics.csv), after the Edo problems")
    ap.add_argument("--seconds", type=positive_float_or_default, default=10.0,
                    help="each engine's seconds a problem (the engine's go mate; the core's CPU s)")
    ap.add_argument("--max-nodes", type=positive_int_or_default, default=100_000_000,
                    help="the core's node budget")
    ap.add_argument("--tt-entries", type=positive_int_or_default, default=TABLE_ENTRIES,
                    help="the core's table entries (as solve's --tt-entries)")
    ap.add_argument("--no-core", action="store_true", help="the engine alone")
    ap.add_argument("--cshogi-nodes", type=non_negative_int, default=0, metavar="N",
                    help="cshogi's DfPn third, with N nodes a problem (0: not run)")
    ap.add_argument("--csv", default=None, help="write a row per problem here")
    ap.add_argument("--resume", action="store_true", help="keep the CSV's rows and go on")
    ap.add_argument("--repeat", type=positive_int_or_default, default=1,
                    help="rounds over the problems")
    args = ap.parse_args(argv)
    cshogi = None
    if args.cshogi_nodes:
        try:
            import cshogi
        except ImportError:
            raise BenchError("--cshogi-nodes needs cshogi installed") from None
    if args.resume and not args.csv:
        raise BenchError("--resume needs --csv")
    rows = problems(args.edo, args.ids, args.classics)
    if not rows:
        raise BenchError("no problems (give --edo K, --ids or --classics)")
    if not args.no_core:
        from .. import native

        native.require()
    options = parse_options(args.option)
    settings = {"seconds": args.seconds, "max_nodes": None if args.no_core else args.max_nodes,
                "tt_entries": None if args.no_core else args.tt_entries,
                "engine_command": " ".join([Path(args.engine).name, *args.engine_arg]),
                "engine_options": " ".join(f"{k}={v}" for k, v in options.items())}
    try:
        with MateEngine([args.engine, *args.engine_arg], options) as engine:
            first = run(engine, rows, args, settings, cshogi)
    except EngineError as exc:
        raise BenchError(str(exc)) from None
    name = first[0]["engine"] if first else Path(args.engine).name
    for text in summary(first, name) + rate_lines(first, name):
        print(text)
    core_wrong = [pid for pid, who in wrong_verdicts(first) if who == "core"]
    bad_lines = [r["id"] for r in first if r.get("status") == Status.MATE and not _ok(r, "")]
    return 1 if core_wrong or bad_lines else 0
