"""The CSVs from the batch outputs beside it (run from this folder): portfolio-default.csv
from the four runs of the portfolio on `dag-fold`, portfolio-reduced.csv from the two of
one commit on `dag-fold-reduced`; in each, a later file's row replaces an earlier one's of
the same id."""
import csv
import json

from tsumeqbf.provenance import FIELDS

RUNS = {
    "portfolio-default.csv": ("portfolio-default.jsonl", "portfolio-default-rerun.jsonl",
                              "portfolio-default-edo.jsonl", "portfolio-default-quiet.jsonl"),
    "portfolio-reduced.csv": ("portfolio-reduced.jsonl", "portfolio-reduced-edo.jsonl"),
}
COLUMNS = ["id", "n", "status", "mate", "first_move", "member", "time_s", "certify_s",
           "encode_s", "solve_s", "cpu_s", "solver_cpu_s", "peak_mb", "vars", "clauses",
           "certified", "strategy_nodes", "error", "members", *FIELDS, "jobs", "batch_file"]
for target, paths in RUNS.items():
    rows = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            row = json.loads(line)
            row["batch_file"] = path
            rows[row["id"]] = row
    with open(target, "w", newline="", encoding="utf-8") as fh:
        out = csv.DictWriter(fh, COLUMNS, extrasaction="ignore")
        out.writeheader()
        for row in rows.values():
            row["members"] = json.dumps(row.get("members"), separators=(",", ":"))
            out.writerow(row)
