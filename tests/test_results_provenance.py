"""Every committed result CSV says what made each row (issue 46, item 2): the columns of
tsumeqbf.provenance.FIELDS, filled in every row. The CSVs written before those columns
existed are named in results/README.md ("Historical rows") until they are run again; a new
CSV without them fails here, and so does a named one that has them now (take it off the list)."""

import csv
import re
from pathlib import Path

from tsumeqbf.provenance import FIELDS

RESULTS = Path(__file__).resolve().parents[1] / "results"


def historical() -> set[str]:
    """The CSVs made before rows recorded their provenance, as results/README.md lists them
    in its section "Historical rows" (kept as measured, not filled in afterwards)."""
    text = (RESULTS / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Historical rows"):]
    section = section[:section.index("\n## ", 1)]
    return set(re.findall(r"`([\w./-]+\.csv)`", section))


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
    listed = historical()
    assert set(lacking) - listed == set(), "new CSVs without provenance"
    assert listed - set(lacking) == set(), "these have it now: take them off the README's list"
