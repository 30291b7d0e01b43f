"""Every committed result CSV says what made each row (issue 46, item 2): the columns of
tsumeqbf.provenance.FIELDS, filled in every row. The CSVs written before those columns
existed are named below until they are run again; a new CSV without them fails here, and
so does a named one that has them now (take it off the list)."""

import csv
from pathlib import Path

from tsumeqbf.provenance import FIELDS

RESULTS = Path(__file__).resolve().parents[1] / "results"

#: made before rows recorded their provenance: too long to run again in one session (the
#: full experiments, the 1M- and 10M-node df-pn runs, the along runs), or not a table of
#: results (the family's index of formulas, whose README row names the commit and versions)
WITHOUT_PROVENANCE = {
    "agreement.csv", "dfpn-vs-qbf.csv", "ishiwaki-tables.csv", "nagai-heuristics.csv",
    "qbf-real.csv", "family/index.csv",
    *(f"runs/dfpn-edo/{name}.csv" for name in (
        "dfpn-edo-100k", "dfpn-edo-100k-probe3", "dfpn-edo-100k-interpositions",
        "dfpn-edo-100k-interpositions-886468a", "dfpn-edo-1m", "dfpn-edo-1m-probe3",
        "dfpn-edo-lengths", "dfpn-zukou-10m")),
    *(f"runs/cshogi-gap/along-{name}-probe3.csv" for name in (
        "musou-072", "musou-090", "zukou-060", "zukou-069", "zukou-070", "zukou-082",
        "zukou-085")),
    *(f"runs/zukou-008/along-zukou-008{tail}.csv" for tail in ("", "-gi", "-replies", "-4a3c-lines")),
}
#: columns that are empty where they do not apply (no QBF solver, no df-pn, no cshogi)
MAY_BE_EMPTY = {"solver", "solver_version", "dfpn_backend", "cshogi"}


def _csvs() -> dict[str, tuple[list[str], list[dict]]]:
    out = {}
    for path in sorted(RESULTS.rglob("*.csv")):
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            out[path.relative_to(RESULTS).as_posix()] = (reader.fieldnames or [], list(reader))
    return out


def test_every_result_csv_says_what_made_each_row():
    lacking = {}
    for name, (columns, rows) in _csvs().items():
        missing = [f for f in FIELDS if f not in columns]
        empty = sorted({f for f in FIELDS if f in columns and f not in MAY_BE_EMPTY
                        for row in rows if not row.get(f)})
        if missing or empty:
            lacking[name] = missing or empty
    assert set(lacking) - WITHOUT_PROVENANCE == set(), "new CSVs without provenance"
    assert WITHOUT_PROVENANCE - set(lacking) == set(), "these have it now: take them off"
