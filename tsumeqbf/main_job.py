"""The README's main job (``make run``): the quick experiments, their reports, a summary.

Runs the ``[quick]`` subsets of the named experiments ``ishiwaki-tables`` (the founding
paper's Tables 1-6), ``agreement`` (every engine on seeded random questions) and
``agreement-encodings`` (the default QBF engine, the portfolio, and the DAG encodings
beside brute force on other seeds) into the checkout's ``results/``, renders
``results/*-quick.md``, and prints per experiment the verdict counts, the disagreements
and where the report is. Resumable: a re-run keeps every finished cell that
this code made; cells stored by another commit or encoder version run again
(``same_code``), so that each report comes from one commit, as reports must.
Exit status 1 when engines disagree: two engines with opposite verdicts, a QBF
certificate that fails the rules (both agreement experiments certify every QBF
verdict), or a verdict that differs from the paper's.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .experiments.analysis import (certificate_errors, certification_counts, disagreements,
                                   expected_mismatches, status_counts, verdict)
from .experiments.config import CONFIGS, load_experiment
from .experiments.report import render_report
from .experiments.runner import run_experiment
from .experiments.store import read_csv
from .rules import TsumeError
from .values import Status, reason_of

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"  # the checkout's, wherever ``make run`` is started
EXPERIMENTS = ("ishiwaki-tables", "agreement", "agreement-encodings")
JOBS = 2


def summarize(name: str, rows: list[dict]) -> tuple[list[str], int]:
    """Summary lines for one experiment's rows, and how many disagreements they hold."""
    totals = {v: sum(s[v] for s in status_counts(rows, sorted({r["label"] for r in rows})))
              for v in (status.word for status in Status)}
    found = disagreements(rows)
    certs = certificate_errors(rows)
    differ = expected_mismatches(rows)
    lines = [f"{name}: {len(rows)} cells (" + ", ".join(f"{k} {v}" for k, v in totals.items())
             + f"); engine disagreements {len(found)}, bad certificates {len(certs)}, "
               f"verdicts differing from the expected {len(differ)}"]
    certified = certification_counts(rows, sorted({r["label"] for r in rows}))
    if certified:
        done = sum(c[k][0] for c in certified for k in (Status.MATE, Status.NOMATE))
        asked = sum(c[k][1] for c in certified for k in (Status.MATE, Status.NOMATE))
        lines.append(f"  QBF verdicts certified by the rules: {done} of {asked}")
    for d in found:
        lines.append(f"  DISAGREEMENT {d['instance']}: sfen {d['sfen']!r} n={d['n']} zone={d['zone']}: "
                     + ", ".join(f"{k}={'-' if v is None else Status.of(v).word}"
                                 for k, v in d["verdicts"].items()))
    for r in certs:
        lines.append(f"  BAD CERTIFICATE {r['instance']} ({r['label']}): {reason_of(r)}")
    for r in differ:
        lines.append(f"  DIFFERS {r['instance']} ({r['label']}): {verdict(r)}, "
                     f"sfen {r['sfen']!r} n={r['n']} zone={r['zone']}")
    return lines, len(found) + len(certs) + len(differ)


def main() -> int:
    problems = 0
    summary = []
    try:
        for name in EXPERIMENTS:
            exp = load_experiment(CONFIGS / f"{name}.toml", quick=True)
            print(f"== {exp.name}: {exp.title}", flush=True)
            run_experiment(exp, jobs=JOBS, results_dir=RESULTS, same_code=True)
            md = render_report(exp, results_dir=RESULTS)  # from the CSV just exported
            lines, found = summarize(exp.name, read_csv(RESULTS / f"{exp.name}.csv"))
            summary += lines + [f"  report: {md.relative_to(ROOT)}"]
            problems += found
    except TsumeError as exc:
        print(f"tsumeqbf: error: {exc}", file=sys.stderr)
        return 2
    print()
    print("\n".join(summary))
    print(f"\n{problems} disagreement(s)" + (": see above" if problems else "; all engines agree"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
