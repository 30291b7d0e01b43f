"""``tsumeqbf experiment list|run|report``: the command line of the experiments layer.

    tsumeqbf experiment list [--json]
    tsumeqbf experiment run EXPERIMENT [--jobs J] [--executor local|dask --scheduler ADDRESS]
                                       [--quick] [--out DIR] [--quiet] [--continue-csv]
                                       [--repeat K] [--same-code]
    tsumeqbf experiment report EXPERIMENT [--quick] [--out DIR] [--no-plots] [--mixed]

EXPERIMENT is a name (one's own ``experiments/NAME.toml`` in the current folder, else a
named experiment shipped in the package) or the path of a TOML file. A named experiment
writes to ``results/`` in the current folder, one's own beside its ``experiments/``
folder; ``--out DIR`` writes to DIR.
"""

from __future__ import annotations

import json
import sys

from ..arguments import positive_int_or_default
from ..rules import TsumeError


def register(sub) -> None:
    p = sub.add_parser("experiment", help="list the named experiments, run one or render its report")
    actions = p.add_subparsers(dest="action", required=True)

    listing = actions.add_parser("list", help="the named experiments shipped in the package, "
                                              "each with its title")
    listing.add_argument("--json", action="store_true",
                         help="one JSON object per line: name, title, quick (has a [quick] subset)")
    listing.set_defaults(func=cmd_list)

    run = actions.add_parser("run", help="run every unfinished cell; RESULTS/NAME.sqlite and .csv")
    _common(run)
    run.add_argument("--jobs", "-j", type=positive_int_or_default, default=1,
                     help="cells at once (local executor; default: 1)")
    run.add_argument("--executor", choices=("local", "dask"), default="local",
                     help="local: worker processes on this machine; dask: the cluster "
                          "of --scheduler (default: local)")
    run.add_argument("--scheduler", default=None, help="dask scheduler address (tcp://host:8786)")
    run.add_argument("--quiet", action="store_true", help="no progress line")
    run.add_argument("--continue-csv", action="store_true",
                     help="with no store yet, take the finished cells of RESULTS/NAME.csv "
                          "(continue a partial run committed from another machine)")
    run.add_argument("--repeat", type=positive_int_or_default, default=1, metavar="K",
                     help="run every cell K times (the report gives each timing's spread; "
                          "default: 1)")
    run.add_argument("--same-code", action="store_true",
                     help="run again the stored cells that another commit or encoder version "
                          "made, so that the report comes from this code alone")
    run.add_argument("--json", action="store_true",
                     help="print the counts per status and the CSV's path as one JSON object")
    run.set_defaults(func=cmd_run)

    report = actions.add_parser("report", help="render RESULTS/NAME.md (and plots) from RESULTS/NAME.csv")
    _common(report)
    report.add_argument("--no-plots", action="store_true", help="Markdown only")
    report.add_argument("--mixed", action="store_true",
                        help="render rows of more than one commit or encoder version (refused "
                             "without it); the report's header names the mix")
    report.add_argument("--json", action="store_true",
                        help="print the report's path as one JSON object")
    report.set_defaults(func=cmd_report)


def _common(p) -> None:
    p.add_argument("experiment",
                   help="a NAME (experiments/NAME.toml in the current folder, else the named "
                        "experiment of `tsumeqbf experiment list`) or a TOML path")
    p.add_argument("--quick", action="store_true", help="the [quick] subset, stored as NAME-quick")
    p.add_argument("--out", "--results", dest="results", metavar="DIR", default=None,
                   help="the results folder RESULTS (default: results/ in the current folder "
                        "for a named experiment; for a TOML file, results/ beside the "
                        "experiments/ folder that holds it, else beside it)")


def cmd_list(args) -> int:
    from .config import CONFIGS, experiment_names, load_experiment

    for name in experiment_names():
        exp = load_experiment(CONFIGS / f"{name}.toml", with_instances=False)
        if args.json:
            print(json.dumps({"name": name, "title": exp.title, "quick": exp.has_quick},
                             ensure_ascii=False))
        else:
            print(f"{name:<18} {exp.title}")
    return 0


def cmd_run(args) -> int:
    from .config import experiment_path, load_experiment
    from .runner import run_experiment

    if args.scheduler is not None and args.executor != "dask":
        raise TsumeError("--scheduler names a Dask scheduler: give --executor dask with it")
    exp = load_experiment(experiment_path(args.experiment), quick=args.quick)
    counts = run_experiment(exp, jobs=args.jobs, executor=args.executor, scheduler=args.scheduler,
                            results_dir=args.results, progress=not args.quiet,
                            continue_csv=args.continue_csv, repeat=args.repeat,
                            same_code=args.same_code)
    results = args.results or exp.results_dir
    if args.json:
        print(json.dumps({"experiment": exp.name, "counts": dict(sorted(counts.items())),
                          "csv": f"{results}/{exp.name}.csv"}))
        return 0
    print(f"{exp.name}: " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "nothing to run")
          + f"; rows in {results}/{exp.name}.csv", file=sys.stderr)
    return 0


def cmd_report(args) -> int:
    from .config import experiment_path, load_experiment
    from .report import render_report

    exp = load_experiment(experiment_path(args.experiment), quick=args.quick, with_instances=False)
    path = render_report(exp, results_dir=args.results, plots=not args.no_plots,
                         mixed=args.mixed)
    print(json.dumps({"experiment": exp.name, "report": str(path)}) if args.json else path)
    return 0
