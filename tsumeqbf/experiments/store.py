"""Where cells are kept: ``results/NAME.sqlite`` while running, ``results/NAME.csv`` to commit.

Each finished cell is one row, inserted in its own transaction the moment the cell ends,
so a killed run loses nothing finished; a row is replaced only by the same cell run again
after it ran out of time, with a larger timeout. The CSV export has a
fixed column order (``COLUMNS``), rows sorted by instance, engine and options, and values
written in one way only (``true``/``false``, ``repr`` of floats, empty for none), so the
same store always gives the same bytes. Reports read the CSV back with :func:`read_csv`.

>>> format_value(0.1, "REAL"), format_value(True, "BOOLEAN"), format_value(None, "INTEGER")
('0.1', 'true', '')
>>> parse_value("true", "BOOLEAN"), parse_value("3", "INTEGER"), parse_value("", "REAL")
(True, 3, None)
"""

from __future__ import annotations

import csv
import os
import sqlite3
from pathlib import Path

from ..rules import TsumeError
from ..values import Answer, Status

#: the answer's columns (:data:`tsumeqbf.values.Answer.COLUMNS`) that came later than the rest
_LATER = ("cpu_s", "solver_cpu_s", "peak_mb", "measured_by")
#: one row per cell, in CSV column order: the cell's question, its answer, what made it
COLUMNS: tuple[tuple[str, str], ...] = (
    ("key", "TEXT"), ("instance", "TEXT"), ("sfen", "TEXT"), ("n", "INTEGER"),
    ("zone", "INTEGER"), ("meta", "TEXT"), ("engine", "TEXT"), ("label", "TEXT"),
    ("options", "TEXT"), ("timeout", "REAL"),
    *((name, kind) for name, kind in Answer.COLUMNS if name not in _LATER),
    ("code_version", "TEXT"), ("machine", "TEXT"), ("finished_at", "TEXT"),
    # added later: a CSV written before them lacks them, and its rows read them as empty
    ("repeat", "INTEGER"), ("cpu_limit", "REAL"),
    *((name, kind) for name, kind in Answer.COLUMNS if name in _LATER), ("jobs", "INTEGER"),
    ("commit", "TEXT"), ("clean", "BOOLEAN"), ("encoder_version", "TEXT"), ("solver", "TEXT"),
    ("solver_version", "TEXT"), ("dfpn_backend", "TEXT"), ("pyqbf", "TEXT"), ("pysat", "TEXT"),
    ("cshogi", "TEXT"), ("cpu_model", "TEXT"), ("cores", "INTEGER"), ("load", "REAL"),
    ("member", "TEXT"),  # engine portfolio: the member that answered
)
#: one row per shrunk disagreement (instance, the two engines that disagree)
SHRUNK_COLUMNS: tuple[tuple[str, str], ...] = (
    ("instance", "TEXT"), ("label_a", "TEXT"), ("label_b", "TEXT"), ("n", "INTEGER"),
    ("zone", "INTEGER"), ("sfen", "TEXT"), ("reproduced", "BOOLEAN"), ("shrunk_sfen", "TEXT"),
    ("mate_a", "BOOLEAN"), ("mate_b", "BOOLEAN"), ("removed", "INTEGER"), ("tries", "INTEGER"),
)


def format_value(value, kind: str) -> str:
    if value is None:
        return ""
    if kind == "BOOLEAN":
        return "true" if value else "false"
    if kind == "REAL":
        return repr(float(value))
    return str(value)


def parse_value(text: str, kind: str):
    if text == "":
        return None
    if kind == "BOOLEAN":
        return text == "true"
    if kind == "INTEGER":
        return int(text)
    if kind == "REAL":
        return float(text)
    return text


def write_csv(path: Path, rows: list[dict], columns=COLUMNS) -> None:
    """Write rows (dicts) in column order; replaced atomically, so Ctrl-C never leaves half
    a file."""
    tmp = Path(f"{path}.tmp")
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh, lineterminator="\n")
        out.writerow([name for name, _ in columns])
        for row in rows:
            out.writerow([format_value(row.get(name), kind) for name, kind in columns])
    os.replace(tmp, path)


def read_csv(path: Path, columns=COLUMNS) -> list[dict]:
    """Rows of a CSV written by :func:`write_csv`, typed again."""
    kinds = dict(columns)
    with open(path, encoding="utf-8", newline="") as fh:
        try:
            rows = [{k: parse_value(v, kinds.get(k, "TEXT")) for k, v in row.items()}
                    for row in csv.DictReader(fh)]
        except (ValueError, TypeError, AttributeError) as exc:  # (a torn or foreign file)
            raise TsumeError(f"{path} is not an experiment's CSV as written ({exc})") from None
    needed = ("key", "instance", "label", "status") if columns is COLUMNS else ()
    missing = [name for name in needed if rows and name not in rows[0]]
    if missing:
        raise TsumeError(f"{path} is not an experiment's CSV: no column {', '.join(missing)}")
    return rows


def _quoted(names) -> str:
    """Column names for SQL, quoted (``commit`` is a keyword)."""
    return ", ".join(f'"{name}"' for name in names)


def _create(table: str, columns, primary: str) -> str:
    cols = ", ".join(f'"{name}" {"INTEGER" if kind == "BOOLEAN" else kind}' for name, kind in columns)
    return f"CREATE TABLE IF NOT EXISTS {table} ({cols}, PRIMARY KEY ({primary}))"


class Store:
    """The SQLite file of one experiment."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        try:
            self.db = sqlite3.connect(path, timeout=30)
            with self.db:
                self.db.execute(_create("cells", COLUMNS, "key"))
                self._add_missing_columns("cells", COLUMNS)
                self.db.execute(_create("shrunk", SHRUNK_COLUMNS, "instance, label_a, label_b"))
        except sqlite3.DatabaseError as exc:  # (not a database, or one that cannot be written)
            raise TsumeError(f"{path}: the experiment's store cannot be opened ({exc})") from None

    def _add_missing_columns(self, table: str, columns) -> None:
        """A store begun by an older version resumes: columns added since are added empty."""
        have = {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")}
        for name, kind in columns:
            if name not in have:
                self.db.execute(f'ALTER TABLE {table} ADD COLUMN "{name}" {kind}')

    def close(self) -> None:
        self.db.close()

    def finished_keys(self) -> set[str]:
        return {key for (key,) in self.db.execute("SELECT key FROM cells")}

    def timed_out(self) -> dict[str, float | None]:
        """The cells that ran out of time or nodes (status unknown): key -> their timeout."""
        return dict(self.db.execute("SELECT key, timeout FROM cells WHERE status = ?",
                                    (Status.UNKNOWN.value,)))

    def _insert(self, table: str, columns, rows: list[dict]) -> None:
        names = [name for name, _ in columns]
        with self.db:  # one transaction: the rows are on disk when this returns
            self.db.executemany(f"INSERT OR IGNORE INTO {table} ({_quoted(names)}) "
                                f"VALUES ({', '.join('?' * len(names))})",
                                [[row.get(name) for name in names] for row in rows])

    def _select(self, table: str, columns, order: str) -> list[dict]:
        names = [name for name, _ in columns]
        rows = [dict(zip(names, values))
                for values in self.db.execute(f"SELECT {_quoted(names)} FROM {table}")]
        for row in rows:
            for name, kind in columns:
                if kind == "BOOLEAN" and row[name] is not None:
                    row[name] = bool(row[name])
        # sorted in Python (code point order) rather than by SQLite's collation
        return sorted(rows, key=lambda r: tuple(str(r[k]) for k in order.split(",")))

    def record(self, row: dict) -> None:
        """Insert a finished cell; a key already there is kept as it is, unless it ran out
        of time with a smaller timeout than this row had."""
        if row.get("timeout") is not None:  # committed with the insert: one transaction
            self.db.execute("DELETE FROM cells WHERE key = ? AND status = ? AND timeout < ?",
                            (row["key"], Status.UNKNOWN.value, row["timeout"]))
        self._insert("cells", COLUMNS, [row])

    def forget_other_code(self, code_version: str) -> int:
        """Delete the cells (and shrunk disagreements) that other code made, so that they
        run again; returns how many cells."""
        with self.db:
            gone = self.db.execute("DELETE FROM cells WHERE code_version IS NOT ?",
                                   (code_version,)).rowcount
            if gone:
                self.db.execute("DELETE FROM shrunk")
        return gone

    def relabel(self, labels: dict[str, str]) -> int:
        """Give the stored cells of ``labels`` (key -> label) those labels: a label is not
        part of a cell's key, so a renamed engine keeps its cells; how many changed."""
        with self.db:
            return sum(self.db.execute("UPDATE cells SET label = ? WHERE key = ? AND label IS NOT ?",
                                       (label, key, label)).rowcount
                       for key, label in labels.items())

    def record_many(self, rows: list[dict]) -> None:
        """Insert finished cells in one transaction (a commit per row costs a disk sync)."""
        self._insert("cells", COLUMNS, rows)

    def rows(self) -> list[dict]:
        return self._select("cells", COLUMNS, "instance,engine,options,key")

    def record_shrunk(self, row: dict) -> None:
        self._insert("shrunk", SHRUNK_COLUMNS, [row])

    def record_shrunk_many(self, rows: list[dict]) -> None:
        self._insert("shrunk", SHRUNK_COLUMNS, rows)

    def shrunk_rows(self) -> list[dict]:
        return self._select("shrunk", SHRUNK_COLUMNS, "instance,label_a,label_b")

    def export(self, csv_path: Path, shrunk_path: Path) -> None:
        """Both CSVs; the shrunk one only when there is something in it."""
        write_csv(csv_path, self.rows())
        shrunk = self.shrunk_rows()
        if shrunk:
            write_csv(shrunk_path, shrunk, SHRUNK_COLUMNS)
        elif shrunk_path.exists():
            shrunk_path.unlink()
