"""``python -m tsumeqbf.bench native-ab``: builds of the native core side by side in one
process. The run's figures are timings and are not asserted; what is asserted is what the
comparison rests on: every build searches the same problems and its node counts are told."""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench_refusal import refusal
from tsumeqbf import native
from tsumeqbf.bench import native_ab
from tsumeqbf.bench.native_ab import AB_IDS, SETUP_FLAGS, main, problems

needs_core = pytest.mark.skipif(
    not native.available() and not os.environ.get("TSUMEQBF_REQUIRE_NATIVE"),
    reason="the native core is not built (pip install . builds it)")


def _error(capsys, argv) -> str:
    return refusal(capsys, "native-ab", argv)


def test_the_default_problems_are_the_notebooks_34():
    rows = problems(AB_IDS)
    assert len(rows) == len({r["id"] for r in rows}) == 34
    assert [r["id"] for r in rows[:2]] == ["zukou-080", "zukou-034"]


def test_setup_flags_are_setup_pys():
    # a compiled build must be the extension pip builds: the same flags after Python's own
    text = (Path(__file__).resolve().parents[1] / "setup.py").read_text(encoding="utf-8")
    assert '["' + '", "'.join(SETUP_FLAGS) + '"]' in text


def test_bad_arguments_are_one_line(capsys, tmp_path):
    assert "two or more builds" in _error(capsys, ["installed"])
    assert "zukou-999" in _error(capsys, ["installed", "installed", "--ids", "zukou-999"])
    assert "no such built core" in _error(capsys, [str(tmp_path / "x.so"), "installed"])
    assert "neither a built core" in _error(capsys, ["no-such-revision-xyz", "installed"])
    assert "--callgrind" in _error(capsys, ["installed", "installed", "--callgrind", "--cshogi"])
    bad = tmp_path / "bad.cpp"
    bad.write_text("this is not C++\n", encoding="utf-8")
    assert "does not compile" in _error(capsys, [str(bad), "installed", "--ids", "zukou-002"])


def test_missing_tools_are_one_line(capsys, monkeypatch):
    monkeypatch.setattr(native_ab.shutil, "which", lambda name: None)
    assert "valgrind" in _error(capsys, ["installed", "installed", "--callgrind"])
    monkeypatch.setitem(sys.modules, "cshogi", None)  # import cshogi raises ImportError
    assert "cshogi" in _error(capsys, ["installed", "installed", "--cshogi"])


@needs_core
def test_the_installed_core_twice_searches_the_same_nodes(capsys, tmp_path):
    rows = tmp_path / "ab.csv"
    argv = ["a=installed", "b=installed", "--ids", "zukou-002,zukou-080",
            "--max-nodes", "3000", "--rounds", "2", "--csv", str(rows)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "b: node counts equal a's on all 2 problems" in out
    assert "load (1 min)" in out
    with open(rows, encoding="utf-8", newline="") as fh:
        got = list(csv.DictReader(fh))
    assert len(got) == 2 * 2 * 2  # rounds x problems x builds
    for pid in ("zukou-002", "zukou-080"):
        counts = {(r["round"], r["engine"]): int(r["nodes"]) for r in got if r["id"] == pid}
        assert len(set(counts.values())) == 1, counts  # the same search in every round
        assert 0 < counts[("1", "a")] <= 3000 + native_ab.TICK_EVERY


@needs_core
@pytest.mark.slow
def test_a_compiled_source_searches_as_the_installed_core(capsys):
    # the checkout's source, compiled with the package's flags, is the core pip built
    source = Path(native_ab.__file__).resolve().parents[1] / "native" / "_core.cpp"
    assert main(["installed", f"src={source}", "--ids", "zukou-002", "--max-nodes", "3000",
                 "--rounds", "1"]) == 0
    assert "src: node counts equal installed's on all 1 problems" in capsys.readouterr().out


def _in_git_checkout() -> bool:
    done = subprocess.run(["git", "-C", str(native_ab.checkout_root()), "rev-parse", "HEAD"],
                          capture_output=True)
    return done.returncode == 0


@pytest.mark.skipif(not _in_git_checkout(), reason="not a git checkout")
def test_a_git_revision_gives_the_core_source_with_its_headers(tmp_path):
    # the core is one translation unit of _core.cpp and the headers it includes: a
    # revision's source is all of them, so that it compiles as the checkout's does
    source = native_ab.source_of("HEAD", tmp_path)
    assert source == tmp_path / "_core.cpp"
    included = re.findall(r'#include "([^"]+)"', source.read_text())
    assert included and all((tmp_path / name).is_file() for name in included)


def test_a_spec_that_is_no_revision_is_one_clear_error(tmp_path):
    with pytest.raises(native_ab.BuildError, match="neither a built core"):
        native_ab.source_of("no-such-revision-xyz", tmp_path)
