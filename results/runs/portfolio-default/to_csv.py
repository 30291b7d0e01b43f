"""portfolio-default.csv from the four batch outputs beside it (run from this folder):
their rows, a later file's row replacing an earlier one's of the same id."""
import csv
import json

from tsumeqbf.provenance import FIELDS

rows = {}
for path in ("portfolio-default.jsonl", "portfolio-default-rerun.jsonl", "portfolio-default-edo.jsonl",
             "portfolio-default-quiet.jsonl"):
    for line in open(path, encoding="utf-8"):
        row = json.loads(line)
        row["batch_file"] = path
        rows[row["id"]] = row
cols = ["id", "n", "status", "mate", "first_move", "member", "time_s", "certify_s", "encode_s",
        "solve_s", "cpu_s", "solver_cpu_s", "peak_mb", "vars", "clauses", "certified",
        "strategy_nodes", "error", "members", *FIELDS, "jobs", "batch_file"]
with open("portfolio-default.csv", "w", newline="", encoding="utf-8") as fh:
    out = csv.DictWriter(fh, cols, extrasaction="ignore")
    out.writeheader()
    for row in rows.values():
        row["members"] = json.dumps(row.get("members"), separators=(",", ":"))
        out.writerow(row)
