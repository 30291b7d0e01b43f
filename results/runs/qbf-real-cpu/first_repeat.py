"""results/qbf-real.csv: the rows of the first repeat of the run's partial CSV beside this
file, so that its first complete repeat is the committed report while the other two run.
From the repository root, in a checkout whose report code is at least the rows' commit's:
    python results/runs/qbf-real-cpu/first_repeat.py && tsumeqbf experiment report qbf-real"""
import csv

with open("results/runs/qbf-real-cpu/qbf-real.csv", newline="", encoding="utf-8") as fh:
    reader = csv.DictReader(fh)
    rows = [row for row in reader if row["repeat"] == "1"]
with open("results/qbf-real.csv", "w", newline="", encoding="utf-8") as fh:
    out = csv.DictWriter(fh, reader.fieldnames)
    out.writeheader()
    out.writerows(rows)
