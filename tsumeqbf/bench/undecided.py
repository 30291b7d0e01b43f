"""Ask again the questions an experiment left undecided, with the code as it is now.

    python -m tsumeqbf.bench undecided [--csv results/agreement.csv] [--max-plies 3]
                                       [--solvers depqbf,rareqs] [--encoding compact]
                                       [--timeout 60]

The questions are those of the committed CSV on which some QBF cell (of any solver)
ended without a verdict (a timeout or an error), up to ``--max-plies``. Each is asked of
every solver named, under the time limit, and the verdict is checked against brute force;
a line per question, then per solver how many it decided and its slowest. Exit 1 when a
solver contradicts brute force, so the bench is also a check.
"""

from __future__ import annotations

from pathlib import Path

from ..arguments import BenchParser, positive_float_or_default, positive_int_or_default
from ..engines import is_qbf_engine, run_engine
from ..values import Answer, Status, verdict_of
from ..experiments.store import read_csv
from ..rules import Position, TsumeError
from . import BenchError


def undecided_questions(rows: list[dict], max_plies: int) -> list[tuple]:
    """(instance, sfen, zone, n) of the questions some QBF cell left without a verdict.

    >>> rows = [{**Answer.unknown("limit").to_row(), "instance": i, "sfen": s, "zone": 1, "n": n,
    ...          "engine": e} for i, s, n, e in (("a", "s", 3, "depqbf"), ("b", "t", 3, "dfpn"),
    ...                                          ("c", "u", 5, "caqe"))]
    >>> undecided_questions(rows, 3)
    [('a', 's', 1, 3)]
    """
    return sorted({(r["instance"], r["sfen"], r["zone"], r["n"]) for r in rows
                   if r["n"] <= max_plies and is_qbf_engine(r["engine"])
                   and verdict_of(r) is None})


def main(argv: list[str]) -> int:
    p = BenchParser(prog="python -m tsumeqbf.bench undecided")
    p.add_argument("--csv", default="results/agreement.csv")
    p.add_argument("--max-plies", type=positive_int_or_default, default=3)
    p.add_argument("--solvers", default="depqbf,rareqs")
    p.add_argument("--encoding", default="compact")
    p.add_argument("--timeout", type=positive_float_or_default, default=60.0)
    args = p.parse_args(argv)
    solvers = [s for s in args.solvers.split(",") if s]
    unknown = [s for s in solvers if not is_qbf_engine(s)]
    if unknown:
        raise BenchError(f"unknown solver {unknown[0]!r}")
    try:
        rows = read_csv(Path(args.csv))
    except (OSError, KeyError, ValueError) as exc:
        raise BenchError(f"cannot read {args.csv}: {exc}") from None
    questions = undecided_questions(rows, args.max_plies)
    print(f"{len(questions)} questions of at most {args.max_plies} plies left undecided by a "
          f"QBF cell in {args.csv}; {args.encoding}, {args.timeout:g} s a question")
    decided = {s: [] for s in solvers}
    wrong = 0
    for instance, sfen, zone, n in questions:
        try:
            pos = Position.from_sfen(sfen, zone=zone)
        except TsumeError as exc:
            print(f"{instance}: {exc}")
            continue
        truth = run_engine("brute", pos, n).verdict
        cells = []
        for s in solvers:
            got = run_engine(s, pos, n, timeout=args.timeout, options={"encoding": args.encoding})
            seconds = got.timings.time_s or 0.0
            if got.verdict is None:
                cells.append(f"{s} {got.status}")
                continue
            decided[s].append(seconds)
            bad = truth is not None and got.verdict != truth
            wrong += bad
            cells.append(f"{s} {got.status.word} {seconds:.2f} s"
                         + (" WRONG" if bad else ""))
        print(f"{instance:12s} n={n} {Status.of(truth).word:8s} " + "; ".join(cells))
    for s in solvers:
        times = decided[s]
        print(f"{s}: decided {len(times)} of {len(questions)}"
              + (f", slowest {max(times):.2f} s" if times else ""))
    if wrong:
        print(f"{wrong} verdict(s) contradict brute force")
    return 1 if wrong else 0
