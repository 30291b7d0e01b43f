"""Every bench's refusals (an option, a combination of options, a file it cannot use) come
in one format, as ``python -m tsumeqbf.bench NAME`` prints them: exit status 2 and one line
on stderr, ``tsumeqbf.bench NAME: error: MESSAGE``, no traceback."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys

import pytest

from bench_refusal import refusal
from tsumeqbf import native

HAS_CSHOGI = importlib.util.find_spec("cshogi") is not None
needs_core = pytest.mark.skipif(not native.available(), reason="the native core is not built")
ENGINE = ["--engine", "/no/such/usi-engine"]
NATIVE = ["--backend", "native", "--beside", "none", "--no-bounded", "--no-cshogi", "--ids",
          "zukou-002"]

#: (bench, arguments, the message's start); {tmp} is a folder of the test's files
REFUSALS = [
    ("dfpn", ["--backend", "native", "--heuristics", "AB"],
     "--backend native does not take --heuristics"),
    ("dfpn", ["--python-runs", "x.csv"], "--python-runs go(es) with --backend native"),
    ("dfpn", ["--backend", "native", "--python-solved"], "--python-solved needs --python-runs"),
    ("dfpn", ["--beside-csv", "c.csv"], "--beside-csv goes with --plot"),
    ("dfpn", ["--only", "cshogi", "--no-cshogi"],
     "--only cshogi and --no-cshogi contradict each other"),
    ("dfpn", ["--resume"], "--resume needs --csv"),
    ("dfpn", ["--plot", "p.png"], "--plot draws the rows of --csv; give --csv"),
    ("dfpn", ["--no-bounded", "--ids", "zukou-999"], "unknown problem id(s) zukou-999"),
    ("dfpn", ["--no-bounded", "--ids", "zukou-002", "--csv", "{tmp}/other.csv", "--resume"],
     "{tmp}/other.csv has other columns; cannot resume it"),
    pytest.param("dfpn", ["--only", "cshogi", "--edo", "0"],
                 "--only cshogi runs the Edo problems", marks=pytest.mark.skipif(
                     not HAS_CSHOGI, reason="cshogi is not installed")),
    pytest.param("dfpn", ["--only", "cshogi", "--ids", "zukou-002", "--csv", "{tmp}/c.csv",
                          "--plot", "{tmp}/p.png"], "--only cshogi writes no picture",
                 marks=pytest.mark.skipif(not HAS_CSHOGI, reason="cshogi is not installed")),
    pytest.param("dfpn", ["--only", "cshogi", "--edo", "0"], "--only cshogi needs cshogi",
                 marks=pytest.mark.skipif(HAS_CSHOGI, reason="cshogi is installed")),
    pytest.param("dfpn", [*NATIVE, "--beside", "rules", "--python-runs", "x.csv"],
                 "--python-runs stands for the Python search beside", marks=needs_core),
    pytest.param("dfpn", [*NATIVE, "--python-runs", "{tmp}/missing.csv"],
                 "cannot read the Python search's run {tmp}/missing.csv", marks=needs_core),
    pytest.param("dfpn", [*NATIVE, "--python-runs", "{tmp}/a.csv,{tmp}/b.csv"],
                 "the Python search's runs disagree on zukou-002", marks=needs_core),
    ("usi-mate", [*ENGINE, "--resume"], "--resume needs --csv"),
    ("usi-mate", [*ENGINE, "--edo", "0"], "no problems (give --edo K, --ids or --classics)"),
    ("usi-mate", [*ENGINE, "--edo", "0", "--classics", "nope"],
     "--classics takes keys of long_classics.csv"),
    ("usi-mate", [*ENGINE, "--ids", "zukou-999"], "unknown problem id(s) zukou-999"),
    ("usi-mate", [*ENGINE, "--ids", "zukou-002", "--no-core", "--option", "Threads"],
     "--option takes NAME=VALUE, not 'Threads'"),
    ("usi-mate", [*ENGINE, "--ids", "zukou-002", "--no-core"], "cannot start USI engine"),
    pytest.param("usi-mate", [*ENGINE, "--cshogi-nodes", "5"],
                 "--cshogi-nodes needs cshogi installed",
                 marks=pytest.mark.skipif(HAS_CSHOGI, reason="cshogi is installed")),
    ("lengths", ["--rows", "{tmp}/missing.csv"], "no such rows file: {tmp}/missing.csv"),
    ("lengths", ["--resume"], "--resume needs --csv"),
    ("lengths", ["--ids", "zukou-999"], "unknown problem id(s) zukou-999"),
    ("lengths", ["--ids", "zukou-002", "--csv", "{tmp}/other.csv", "--resume"],
     "{tmp}/other.csv has other columns; cannot resume it"),
    ("answers", [], "no problems (give --yaneuraou, --ids or --edo-up-to)"),
    ("answers", ["--ids", "zukou-999"], "unknown problem id(s) zukou-999"),
    ("along", ["zukou-009"], "no recorded line for 'zukou-009'"),
    ("along", ["zukou-008", "--after", "P*4c 4b4c", "--plies", "2"],
     "give --plies or --after, not both"),
    ("native-ab", ["installed"], "give two or more builds to compare"),
    ("native-ab", ["installed", "installed", "--callgrind", "--cshogi"],
     "--callgrind counts the builds' instructions"),
    ("native-ab", ["installed", "installed", "--ids", "zukou-999"],
     "unknown problem id(s) zukou-999"),
    ("native-ab", ["{tmp}/x.so", "installed"], "{tmp}/x.so: no such built core"),
    pytest.param("native-ab", ["installed", "installed", "--callgrind"],
                 "--callgrind needs valgrind on PATH", marks=pytest.mark.skipif(
                     shutil.which("valgrind") is not None, reason="valgrind is on PATH")),
    pytest.param("native-ab", ["installed", "installed", "--cshogi"],
                 "--cshogi needs cshogi", marks=pytest.mark.skipif(
                     HAS_CSHOGI, reason="cshogi is installed")),
    ("bloqqer", ["--sizes", "3"], "--sizes WxH,..., --plies N,... and --seeds S,..."),
    ("qbf", ["--encodings", "nope"], "unknown encoding 'nope'"),
    ("undecided", ["--solvers", "nosuch"], "unknown solver 'nosuch'"),
    ("undecided", ["--csv", "{tmp}/missing.csv"], "cannot read {tmp}/missing.csv"),
]


@pytest.mark.parametrize("name, argv, message", REFUSALS)
def test_a_refusal_is_one_line_and_status_2(name, argv, message, tmp_path, capsys):
    (tmp_path / "other.csv").write_text("id,colour\nzukou-002,red\n", encoding="utf-8")
    (tmp_path / "a.csv").write_text("id,status,length\nzukou-002,mate,21\n", encoding="utf-8")
    (tmp_path / "b.csv").write_text("id,status,length\nzukou-002,nomate,\n", encoding="utf-8")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert refusal(capsys, name, argv).startswith(message.replace("{tmp}", str(tmp_path)))


def test_python_dash_m_prints_the_same_line():
    done = subprocess.run([sys.executable, "-m", "tsumeqbf.bench", "dfpn", "--resume"],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (
        2, "tsumeqbf.bench dfpn: error: --resume needs --csv\n")
