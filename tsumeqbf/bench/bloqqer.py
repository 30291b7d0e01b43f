"""Is pyqbf's Bloqqer sound on our formulas? The probe behind leaving it out as an axis.

    python -m tsumeqbf.bench bloqqer [--solvers depqbf] [--encoding compact]
                                     [--seeds 2024,5,11] [--count 30] [--sizes 3x3,4x4,5x5]
                                     [--plies 1,3] [--yaneuraou K] [--timeout S] [--keep DIR]

Questions: the agreement experiment's generator (``--count`` questions for each of
``--seeds``, on the given boards and plies) and the first K of YaneuraOu's mate-in-3
samples (9x9, both sides holding pieces). The small boards by default: that is where
Bloqqer's output was found corrupt (``--sizes 3x3,4x4,5x5,9x9 --plies 1,3,5`` for the
larger formulas). Each is encoded, written as QDIMACS and given to
``pyqbf.process.Bloqqer().preprocess`` in a child process (the C++ call cannot be
interrupted in ours; the child is killed after ``--timeout``). Bloqqer either decides the
formula (``preprocess`` returns True or False) or returns a formula, which is written with
pyqbf's own ``to_qdimacs`` and read by our strict reader
(:func:`tsumeqbf.encoder.formula.read_qdimacs`). Every solver then answers the original
and, valid or not, the preprocessed formula (as it would if it were handed to it).

A line per question: variables and clauses before and after, Bloqqer's seconds, the
reference verdict (brute force within the timeout, else df-pn, else the solvers on the
original formula), and per solver its verdict before and after. The outcome is ``ok``,
``WRONG`` (a verdict, Bloqqer's own or a solver's on the preprocessed formula, that is not
the reference), ``INVALID`` (not QDIMACS: the reader's reason follows), ``CRASH`` or
``timeout``. The summary counts them; the exit status is 1 when any output was wrong or
invalid. ``--keep DIR`` writes each question's original and preprocessed QDIMACS there.
"""

from __future__ import annotations

import os
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from ..arguments import (BenchParser, non_negative_int, positive_float_or_default,
                        positive_int_or_default)
from ..data import collection_cases
from ..encoder.formula import QdimacsError, qdimacs_pieces, read_qdimacs
from ..encoder.registry import ENCODINGS, encode
from ..engines import run_engine
from ..rules import Position
from ..rules.generate import question_set
from ..solvers.runner import SolverError, SolverSpec, find_solver, run_child, run_solver
from . import BenchError

#: the child: Bloqqer on argv[1], pyqbf's QDIMACS of its formula to argv[2], or its verdict
#: as the exit code (10 true, 20 false, as a solver's)
CHILD = r"""
import sys
from pyqbf.formula import PCNF
from pyqbf.process import Bloqqer
result = Bloqqer().preprocess(PCNF(from_file=sys.argv[1]))
if isinstance(result, bool):
    sys.exit(10 if result else 20)
with open(sys.argv[2], "w") as fh:
    fh.write(result.to_qdimacs())
"""

_SPEC = SolverSpec("bloqqer", (sys.executable,))


def run_bloqqer(path: str, out_path: str, timeout: float | None) -> tuple[str, float, str]:
    """(status, seconds, message): ``true``/``false`` (decided), ``formula`` (written to
    ``out_path``), ``timeout`` or ``crash``."""
    ran = run_child(_SPEC, sys.executable, ["-c", CHILD, path, out_path], timeout=timeout,
                    memory_mb=None)
    if ran.limit:
        return "timeout", ran.seconds, ran.limit
    elapsed, out, err = ran.seconds, ran.out, ran.err
    if ran.code in (10, 20):
        return ("true" if ran.code == 10 else "false"), elapsed, ""
    if ran.code == 0:
        return "formula", elapsed, ""
    last = (err.strip() or out.strip()).splitlines()[-1:] or [""]
    return "crash", elapsed, f"exit {ran.code}: {last[0][:200]}"


def reference(pos: Position, n: int, timeout: float) -> tuple[bool | None, str]:
    """Brute force within ``timeout``, else df-pn: (verdict, engine) or (None, "")."""
    for engine in ("brute", "dfpn"):
        answer = run_engine(engine, pos, n, timeout=timeout)
        if answer.status.decided:
            return answer.verdict, engine
    return None, ""


def questions(seeds: list[int], count: int, sizes, plies,
              yaneuraou: int) -> list[tuple[str, Position, int]]:
    out = []
    for seed in seeds:
        for q in question_set(seed=seed, count=count, sizes=sizes, plies=plies):
            out.append((q["id"], Position.from_sfen(q["sfen"], zone=q["zone"]), q["n"]))
    mate3 = [q for q in collection_cases("yaneuraou_mate_samples.csv") if q["n"] == 3]
    for q in mate3[:yaneuraou]:
        out.append((q["id"], Position.from_sfen(q["sfen"]), 3))
    return out


def describe(text: str) -> str:
    r"""What an output's head and prefix say against its clauses (the corruption seen:
    variable 0 in the prefix, a problem line below the clauses' variables).

    >>> describe("p cnf 2 1\ne 1 0 0 0\n1 3 0\n")
    'p cnf 2 1; the prefix lists variable 0 2 times; literals up to 3'
    """
    head, zeros, top = "no problem line", 0, 0
    for line in text.splitlines():
        parts = line.split()
        if not parts or parts[0] == "c":
            continue
        if parts[0] == "p":
            head = " ".join(parts)
        elif parts[0] in ("a", "e"):
            zeros += parts[1:-1].count("0")
        else:
            top = max([top, *(abs(int(x)) for x in parts if x.lstrip("-").isdigit())])
    return f"{head}; the prefix lists variable 0 {zeros} times; literals up to {top}"


def _verdict(v: bool | None) -> str:
    return {True: "T", False: "F", None: "?"}[v]


def probe(qid: str, pos: Position, n: int, args, solvers: list[str], tmp: str) -> dict:
    """One question through Bloqqer: the row's fields and its outcome."""
    enc = encode(pos, n, args.encoding)
    prefix, clauses, _ = enc.formula.prefix_and_matrix()
    src, dst = os.path.join(tmp, f"{qid}.qdimacs"), os.path.join(tmp, f"{qid}.bloqqer.qdimacs")
    with open(src, "w") as fh:
        for piece in qdimacs_pieces(prefix, clauses):
            fh.write(piece)
    row = {"id": qid, "n": n, "vars": max((v for _, vs in prefix for v in vs), default=0),
           "clauses": len(clauses), "after": "", "outcome": "ok", "note": ""}
    status, row["bloqqer_s"], message = run_bloqqer(src, dst, args.timeout)
    before = {s: run_solver(s, src, timeout=args.timeout) for s in solvers}
    ref, row["ref_by"] = reference(pos, n, args.timeout / 2)
    if ref is None:  # the solvers on the original formula, when they agree
        verdicts = {r.verdict for r in before.values()} - {None}
        ref, row["ref_by"] = (verdicts.pop(), "solvers") if len(verdicts) == 1 else (None, "none")
    row["ref"] = ref
    off = [s for s, r in before.items() if ref is not None and r.verdict not in (None, ref)]
    if off:  # not Bloqqer's doing, but never to pass unsaid
        row["note"] = f"{', '.join(off)} disagree{'s' * (len(off) == 1)} with the reference " \
                      f"on the original formula"
    after: dict = {}
    if status in ("true", "false"):
        row["after"] = f"decided {status}"
        if ref is not None and (status == "true") != ref:
            row["outcome"] = "WRONG"
    elif status == "formula":
        with open(dst, encoding="ascii", errors="replace") as fh:
            text = fh.read()
        try:
            nv, _, out_clauses, _ = read_qdimacs(text)
            row["after"] = f"{nv}/{len(out_clauses)}"
        except (QdimacsError, ValueError) as exc:
            row["after"], row["outcome"] = "invalid", "INVALID"
            row["note"] = "; ".join(filter(None, [f"{exc} ({describe(text)})", row["note"]]))
        after = {s: run_solver(s, dst, timeout=args.timeout) for s in solvers}
        misled = [s for s, r in after.items()
                  if ref is not None and r.verdict is not None and r.verdict != ref]
        if misled and row["outcome"] == "ok":
            row["outcome"] = "WRONG"
        elif misled:  # an invalid output that a solver still answers, wrongly
            row["note"] += f"; {', '.join(misled)} answer{'s' * (len(misled) == 1)} it wrongly"
            row["misled"] = True
    else:
        row["after"], row["outcome"], row["note"] = status, status.upper() if status == "crash" \
            else "timeout", message
    row["solvers"] = " ".join(
        f"{s}:{_verdict(before[s].verdict)}({before[s].time_s:.2f}s)"
        + (f"->{_verdict(after[s].verdict)}({after[s].time_s:.2f}s)" if s in after else "")
        for s in solvers)
    row["solve_s"] = {s: (before[s].time_s, after[s].time_s if s in after else None,
                          before[s].verdict is not None, s in after and after[s].verdict is not None)
                      for s in solvers}
    if args.keep:
        keep = Path(args.keep)
        keep.mkdir(parents=True, exist_ok=True)
        for path in (src, dst):
            if os.path.exists(path) and os.path.getsize(path):
                os.replace(path, keep / os.path.basename(path))
    for path in (src, dst):
        if os.path.exists(path):
            os.unlink(path)
    return row


def main(argv: list[str]) -> int:
    ap = BenchParser(prog="python -m tsumeqbf.bench bloqqer")
    ap.add_argument("--solvers", default="depqbf", help="comma-separated QBF solvers")
    # the questions hold pieces in hand, which encoding paper's rules do not have
    ap.add_argument("--encoding", default="compact", choices=[e for e in ENCODINGS if e != "paper"])
    ap.add_argument("--seeds", default="2024,5,11", help="the generator's seeds")
    ap.add_argument("--count", type=positive_int_or_default, default=30,
                    help="generated questions per seed")
    ap.add_argument("--sizes", default="3x3,4x4,5x5")
    ap.add_argument("--plies", default="1,3")
    ap.add_argument("--yaneuraou", type=non_negative_int, default=11,
                    help="how many mate-in-3 samples")
    ap.add_argument("--timeout", type=positive_float_or_default, default=60.0,
                    help="seconds for Bloqqer and for each solver call (half for the reference)")
    ap.add_argument("--keep", default=None, metavar="DIR",
                    help="write each question's QDIMACS, before and after, to DIR")
    args = ap.parse_args(argv)
    try:
        sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",")]
        plies = [int(x) for x in args.plies.split(",")]
        seeds = [int(x) for x in args.seeds.split(",")]
        if any(len(s) != 2 for s in sizes):
            raise ValueError(args.sizes)
    except ValueError:
        raise BenchError(f"--sizes WxH,..., --plies N,... and --seeds S,... (got "
                         f"{args.sizes!r}, {args.plies!r}, {args.seeds!r})") from None
    solvers = [s for s in args.solvers.split(",") if s]
    try:
        for s in solvers:
            find_solver(s)
        version = metadata.version("pyqbf")
    except (SolverError, metadata.PackageNotFoundError) as exc:
        raise BenchError(str(exc) if isinstance(exc, SolverError)
                         else "pyqbf is not installed") from None
    print(f"Bloqqer of pyqbf {version}; encoding {args.encoding}; solvers {', '.join(solvers)}")
    print(f"{'question':16} {'n':>2} {'vars/clauses':>13} {'after':>13} {'bloq s':>7} "
          f"{'ref':>3} {'by':7} {'outcome':8} solvers before->after")
    rows = []
    with tempfile.TemporaryDirectory(prefix="tsumeqbf-bloqqer-") as tmp:
        for qid, pos, n in questions(seeds, args.count, sizes, plies, args.yaneuraou):
            row = probe(qid, pos, n, args, solvers, tmp)
            rows.append(row)
            print(f"{qid:16} {n:>2} {row['vars']:>6}/{row['clauses']:<6} {row['after']:>13} "
                  f"{row['bloqqer_s']:7.2f} {_verdict(row['ref']):>3} {row['ref_by']:7} "
                  f"{row['outcome']:8} {row['solvers']}", flush=True)
            if row["note"]:
                print(f"    {row['note']}", flush=True)
    return summary(rows, version, solvers)


def summary(rows: list[dict], version: str, solvers: list[str]) -> int:
    count = {k: sum(r["outcome"] == k for r in rows) for k in ("ok", "WRONG", "INVALID",
                                                               "CRASH", "timeout")}
    decided = [r for r in rows if r["after"].startswith("decided")]
    written = [r for r in rows if r["after"] not in ("timeout", "crash") and r not in decided]
    print(f"\nBloqqer (pyqbf {version}) on {len(rows)} formulas: {len(decided)} decided by "
          f"Bloqqer itself, {len(written)} preprocessed formulas written; {count['WRONG']} wrong "
          f"verdicts, {count['INVALID']} invalid QDIMACS outputs, {count['CRASH']} crashes, "
          f"{count['timeout']} timeouts, {count['ok']} ok")
    misled = sum(bool(r.get("misled")) for r in rows)
    if misled:
        print(f"{misled} of the invalid outputs got a wrong verdict from a solver that "
              f"accepted them")
    print(f"Bloqqer's seconds: total {sum(r['bloqqer_s'] for r in rows):.1f}, largest "
          f"{max((r['bloqqer_s'] for r in rows), default=0):.1f}")
    for s in solvers:
        both = [r["solve_s"][s] for r in rows if r["outcome"] == "ok" and r["solve_s"][s][3]
                and r["solve_s"][s][2]]
        if both:
            print(f"{s} on the {len(both)} valid preprocessed formulas it decided: "
                  f"{sum(b for b, *_ in both):.2f} s before, {sum(a for _, a, *_ in both):.2f} s "
                  f"after (Bloqqer's own seconds not counted)")
    return 1 if count["WRONG"] or count["INVALID"] else 0
