"""The README's main job (``make run``): the founding paper's questions, every engine.

Runs each available engine over ``tests/data/figures.jsonl`` with ``tsumeqbf batch``
(resumable: an interrupted run keeps its finished rows), then prints one table of verdicts
and times with the paper's verdicts beside them, and says where the rows are.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .batch import run_batch
from .engines import UnknownEngine, engine_names, get_engine

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "data" / "figures.jsonl"
OUT = ROOT / "results" / "main-job"
ENGINE_ORDER = ("brute", "dfpn", "depqbf", "rareqs", "caqe", "qfun", "qute")


def available_engines() -> list[str]:
    out = []
    for name in ENGINE_ORDER + tuple(n for n in engine_names() if n not in ENGINE_ORDER):
        try:
            get_engine(name)
        except UnknownEngine:
            continue
        out.append(name)
    return out


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    engines = available_engines()
    print(f"engines: {', '.join(engines)}; questions: {CASES.relative_to(ROOT)}")
    rows: dict[str, dict[str, dict]] = {}
    for engine in engines:
        out = OUT / f"figures-{engine}.jsonl"
        print(f"== {engine}")
        run_batch(str(CASES), str(out), engine=engine, jobs=2, timeout=60)
        with open(out, encoding="utf-8") as fh:
            rows[engine] = {r["id"]: r for r in map(json.loads, fh)}
    cases = [json.loads(line) for line in open(CASES, encoding="utf-8")]
    print()
    print(f"{'question':22s} {'paper':>6s} " + " ".join(f"{e:>14s}" for e in engines))
    disagreements = 0
    for case in cases:
        cells = []
        for engine in engines:
            r = rows[engine].get(case["id"], {})
            verdict = {True: "mate", False: "nomate"}.get(r.get("mate"), r.get("status", "-"))
            if r.get("mate") is not None and r["mate"] != case["mate"]:
                disagreements += 1
                verdict += "!"
            cells.append(f"{verdict:>7s} {r.get('time_s', 0):6.2f}s")
        paper = "mate" if case["mate"] else "nomate"
        print(f"{case['id']:22s} {paper:>6s} " + " ".join(cells))
    print()
    print(f"rows: {OUT.relative_to(ROOT)}/figures-<engine>.jsonl; "
          f"{disagreements} verdict(s) differ from the paper")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
