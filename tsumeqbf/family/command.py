"""``tsumeqbf family SPEC -o DIR [--quiet]``: write a benchmark family (:mod:`tsumeqbf.family`).

One line per question on stderr (unless ``--quiet``), a summary on stdout; a bad SPEC, a
bad question, a disagreement between the engines or a failed strategy check is one line
and exit status 2.
"""

from __future__ import annotations

import json
import sys
from collections import Counter


def register(sub) -> None:
    p = sub.add_parser("family", help="write a benchmark family: QDIMACS and QCIR files of "
                                      "questions of known truth, and index.csv")
    p.add_argument("spec", help="the family's SPEC (TOML; docs/cli.md)")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="folder to write the formulas and index.csv into")
    p.add_argument("--quiet", action="store_true", help="no line per question")
    p.add_argument("--json", action="store_true",
                   help="print the summary as one JSON object: files, true, false, questions, "
                        "left_out, index")
    p.set_defaults(func=cmd_family)


def cmd_family(args) -> int:
    from . import build_family
    from .spec import load_spec

    spec = load_spec(args.spec)
    report = build_family(spec, args.output, log=None if args.quiet else sys.stderr)
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
