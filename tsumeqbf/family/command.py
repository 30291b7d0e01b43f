"""``tsumeqbf family SPEC -o DIR [--quiet]``: write a benchmark family (:mod:`tsumeqbf.family`);
``tsumeqbf family-score DIR``: the QBF solvers on it (:mod:`.scores`).

One line per question on stderr (unless ``--quiet``), a summary on stdout; a bad SPEC, a
bad question, a disagreement between the engines, a failed strategy check, a family
already in DIR (without ``--overwrite``) or an empty family is one line and exit status 2.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from ..arguments import STDOUT, is_stream, output_file, positive_int_or_default, to_stdout


def register(sub) -> None:
    p = sub.add_parser("family", help="write a benchmark family: QDIMACS and QCIR files of "
                                      "questions of known truth, and index.csv")
    p.add_argument("spec", help="the family's SPEC (TOML; docs/cli.md)")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="folder to write the formulas and index.csv into")
    p.add_argument("--overwrite", action="store_true",
                   help="DIR already holds a family: replace it (only the files its index "
                        "lists and the index are removed)")
    p.add_argument("--quiet", action="store_true", help="no line per question")
    p.add_argument("--json", action="store_true",
                   help="print the summary as one JSON object: files, true, false, questions, "
                        "left_out, index")
    p.set_defaults(func=cmd_family)
    register_score(sub)


def cmd_family(args) -> int:
    from . import build_family
    from .spec import load_spec

    from ..rules import TsumeError

    spec = load_spec(args.spec)
    report = build_family(spec, args.output, log=None if args.quiet else sys.stderr,
                          overwrite=args.overwrite)
    if not report.rows:
        first, why = report.left_out[0]
        raise TsumeError(f"no formula written: all {len(report.left_out)} questions left out "
                         f"(the first, {first}: {why}); an empty family")
    truths = Counter(row["truth"] for row in report.rows)
    if args.json:
        print(json.dumps({"files": len(report.rows), "true": truths["true"],
                          "false": truths["false"], "questions": report.questions,
                          "left_out": len(report.left_out),
                          "index": f"{args.output}/index.csv"}))
        return 0
    print(f"wrote {len(report.rows)} files ({truths['true']} true, {truths['false']} false) "
          f"from {report.questions} questions to {args.output}; index {args.output}/index.csv"
          + (f"; {len(report.left_out)} questions left out" if report.left_out else ""))
    return 0


def scores_csv(path: str) -> str:
    """An argparse type for ``--csv``: a regular file (to be), never ``-`` nor a device or
    FIFO. The CSV is read back: a run resumes from the cells it holds and the summary is
    drawn from it, and neither can read standard output.

    >>> scores_csv("s.csv")
    's.csv'
    >>> scores_csv("-")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '-' is not offered: the CSV is read back (a run resumes from it, the summary is drawn from it), so it must be a file; --md - prints the summary on standard output
    """
    import argparse

    if path == STDOUT or is_stream(path):
        raise argparse.ArgumentTypeError(
            f"{path!r} is not offered: the CSV is read back (a run resumes from it, the "
            f"summary is drawn from it), so it must be a file; --md - prints the summary "
            f"on standard output")
    return output_file(path)


def register_score(sub) -> None:
    from .scores import READS
    p = sub.add_parser("family-score",
                       help="score the QBF solvers on a written family: decided, wrong against "
                            "the proven truth, PAR-2")
    p.add_argument("folder", metavar="DIR", help="a folder `family` wrote (index.csv and files)")
    p.add_argument("--csv", default=None, metavar="FILE", type=scores_csv,
                   help="the rows, one per file x solver (default DIR/scores.csv); a run "
                        "again with the same FILE skips the cells it holds")
    p.add_argument("--md", default=None, metavar="FILE", type=output_file,
                   help="the summary drawn from the CSV (default: beside it, .md; '-': "
                        "standard output)")
    p.add_argument("--solvers", default=",".join(READS["qdimacs"]),
                   help="comma-separated (default: all five)")
    p.add_argument("--cpu-limit", type=positive_int_or_default, default=60, metavar="S",
                   help="CPU seconds a cell (the kernel's RLIMIT_CPU; default 60)")
    p.add_argument("--memory-mb", type=positive_int_or_default, default=4096, metavar="MB",
                   help="a solver's address space (default 4096)")
    p.add_argument("--jobs", "-j", type=positive_int_or_default, default=1,
                   help="cells at once (default 1)")
    p.add_argument("--every", type=positive_int_or_default, default=1, metavar="K",
                   help="a sample: only the files of every K-th formula of the index (to "
                        "estimate a whole run's time; a run without it adds the rest)")
    p.add_argument("--report-only", action="store_true",
                   help="run nothing: draw the summary from the CSV")
    p.add_argument("--quiet", action="store_true", help="no line per cell")
    p.set_defaults(func=cmd_family_score)


def _same_file(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name one file (existing or not)."""
    import os

    try:
        return os.path.samefile(a, b)
    except OSError:  # (one of them not there yet)
        return os.path.realpath(a) == os.path.realpath(b)


def _check_outputs(folder: str, index: list[dict], csv_path: str, md_path: str) -> None:
    """The CSV and the summary are files of their own: neither the family's index nor one
    of its formulas, nor each other (the summary would overwrite the rows it is drawn
    from). Refused in one line before anything runs."""
    import os

    from ..rules import TsumeError

    family = [("the family's index", os.path.join(folder, "index.csv"))]
    family += [(f"a formula of the family ({row['file']})", os.path.join(folder, row["file"]))
               for row in index]
    for flag, path in (("--csv", csv_path), ("--md", md_path)):
        if to_stdout(path):
            continue
        for what, other in family:
            if _same_file(path, other):
                raise TsumeError(f"{flag} {path} is {what}: name another file")
    if _same_file(csv_path, md_path):
        raise TsumeError(f"--md {md_path} is the scores CSV: name another file")


def cmd_family_score(args) -> int:
    import os

    from ..rules import TsumeError
    from ..solvers.runner import SOLVERS
    from .scores import (ScoreLimits, cells, read_index, read_scores, render_scores,
                         score_family, this_run)

    csv_path = args.csv or os.path.join(args.folder, "scores.csv")
    md_path = args.md or os.path.splitext(csv_path)[0] + ".md"
    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    unknown = [s for s in solvers if s not in SOLVERS]
    if unknown or not solvers:
        raise TsumeError(f"unknown solver {unknown[0] if unknown else '(none)'!r}: "
                         f"choose among {', '.join(SOLVERS)}")
    twice = [s for k, s in enumerate(solvers) if s in solvers[:k]]
    if twice:
        raise TsumeError(f"--solvers names {twice[0]!r} twice")
    index = read_index(args.folder)
    _check_outputs(args.folder, index, csv_path, md_path)
    limits = ScoreLimits(args.cpu_limit, memory_mb=args.memory_mb)
    if args.report_only and not os.path.isfile(csv_path):
        raise TsumeError(f"{csv_path}: no such scores CSV to report from (run without "
                         f"--report-only first, or give its --csv)")
    if not args.report_only:
        command = " ".join(["tsumeqbf family-score", args.folder, "--csv", csv_path,
                            "--cpu-limit", str(args.cpu_limit), "--memory-mb",
                            str(args.memory_mb), "--jobs", str(args.jobs)]
                           + (["--every", str(args.every)] if args.every > 1 else [])
                           + (["--solvers", ",".join(solvers)]
                              if solvers != list(SOLVERS) else []))
        score_family(args.folder, csv_path, solvers, limits, args.jobs, command, args.every,
                     log=None if args.quiet else sys.stderr)
    # the CSV may also hold rows of runs with other solvers, limits or family bytes
    held = read_scores(csv_path)
    rows = this_run(held, index, solvers, limits, args.every)
    if args.report_only and not rows:
        ours = {(r["file"], r["md5"]) for r in index}
        if held and not any((r["file"], r["md5"]) in ours for r in held):
            raise TsumeError(f"{csv_path}: its {len(held)} rows score none of the files of "
                             f"{args.folder} as they are now (another family's CSV, or "
                             f"the family written again)")
        raise TsumeError(f"{csv_path}: no scores of these cells (--solvers, --cpu-limit, "
                         f"--memory-mb, --every as given) to report" if held else
                         f"{csv_path}: holds no scores to report")
    asked = len(cells(index, solvers, args.every))
    summary = render_scores(rows, asked)
    if to_stdout(md_path):  # the summary alone on standard output, the line on stderr
        sys.stdout.write(summary)
    else:
        with open(md_path, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(summary)
    wrong = sum(r["wrong"] == "1" for r in rows)
    print(f"{len(rows)} cells of {asked} scored in {csv_path}; {wrong} wrong; summary "
          f"{'on standard output' if to_stdout(md_path) else md_path}",
          file=sys.stderr if to_stdout(md_path) else sys.stdout)
    return 0
