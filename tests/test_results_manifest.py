"""results/README.md names every file below results/, once, and nothing that is not there.

A manifest row's first cell lists its files as code spans, relative to results/; a span
may be a glob (``*``, ``?``, ``[...]``) for a group of files."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
MANIFEST = RESULTS / "README.md"


def manifest_rows(text: str) -> list[list[str]]:
    """The file patterns of each table row (header and rule rows have none)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|"):
            first = line.split("|")[1]
            names = re.findall(r"`([^`]+)`", first)
            if names:
                rows.append(names)
    return rows


def result_files() -> set[str]:
    """Files below results/ as the repository has them: tracked, or new and not ignored
    (a run's store, results/NAME.sqlite, is ignored and so not listed)."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                              "--", "results"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    files = {str(Path(p).relative_to("results")) for p in out.splitlines()
             if (ROOT / p).is_file()}
    return files - {"README.md"}


def matches(pattern: str, files: set[str]) -> set[str]:
    return {str(p.relative_to(RESULTS)) for p in RESULTS.glob(pattern)} & files


def test_manifest_rows_are_read():
    rows = manifest_rows("| files | what |\n|---|---|\n| `a.csv` `b/*.png` | x |\n| y | `z` |\n")
    assert rows == [["a.csv", "b/*.png"]]


def test_every_name_in_the_manifest_is_a_file():
    files = result_files()
    missing = [name for row in manifest_rows(MANIFEST.read_text(encoding="utf-8"))
               for name in row if not matches(name, files)]
    assert not missing, f"results/README.md names files that are not there: {missing}"


def test_every_file_in_results_is_in_exactly_one_row():
    files = result_files()
    rows = manifest_rows(MANIFEST.read_text(encoding="utf-8"))
    assert files, "no result files found"
    count = {f: sum(any(f in matches(name, files) for name in row) for row in rows) for f in files}
    unlisted = sorted(f for f, n in count.items() if n == 0)
    twice = sorted(f for f, n in count.items() if n > 1)
    assert not unlisted, f"results/README.md has no row for: {unlisted}"
    assert not twice, f"results/README.md has more than one row for: {twice}"
