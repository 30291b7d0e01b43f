"""The package as a user gets it: a wheel, installed (not editable), run outside a checkout.

The slow test builds the wheel from a copy of the sources (compiling the native core), installs it with ``--no-deps``
into a fresh virtual environment whose only other packages are this interpreter's
site-packages (a ``.pth`` file: nothing but the build's setuptools comes from the package
index, and the QBF solvers that pyqbf builds from source are not built again), checks that the checkout is not what it imports, and
runs a bench, a quick experiment of its own and a named experiment of the package from a
temporary folder. The fast tests check that the wheel's package-data patterns take every
data file and every named experiment's configuration.
"""

from __future__ import annotations

import csv
import fnmatch
import os
import shutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tsumeqbf" / "data"
CONFIGS = ROOT / "tsumeqbf" / "experiments" / "configs"


def test_every_data_file_ships_in_the_wheel():
    with open(ROOT / "pyproject.toml", "rb") as fh:
        patterns = tomllib.load(fh)["tool"]["setuptools"]["package-data"]["tsumeqbf.data"]
    files = sorted(p.name for p in DATA.iterdir() if p.is_file() and p.suffix != ".py")
    assert {"figures.jsonl", "ishiwaki_tables.csv", "SOURCES.md"} <= set(files)
    assert [f for f in files if not any(fnmatch.fnmatch(f, p) for p in patterns)] == []


def test_every_named_experiment_ships_in_the_wheel():
    from tsumeqbf.experiments.config import experiment_names

    with open(ROOT / "pyproject.toml", "rb") as fh:
        patterns = tomllib.load(fh)["tool"]["setuptools"]["package-data"]["tsumeqbf.experiments"]
    files = sorted(p.relative_to(CONFIGS.parent).as_posix() for p in CONFIGS.iterdir())
    assert len(files) >= 5 and not (ROOT / "experiments").exists()  # one copy: the package's
    assert [f for f in files if not any(fnmatch.fnmatch(f, p) for p in patterns)] == []
    assert experiment_names() == sorted(Path(f).stem for f in files if f.endswith(".toml"))


def _run(args, cwd, env, timeout=300):
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{args}: {proc.stdout[-2000:]}{proc.stderr[-2000:]}"
    return proc


def _outside_sys_path() -> list[str]:
    """This interpreter's package folders (site-packages and what its .pth files added)
    from which ``tsumeqbf`` itself cannot be imported. The virtual environment may sit
    inside the checkout (``make`` puts it in .venv): its site-packages still count, since
    an editable install's path hook is a .pth file that a plain path entry never runs."""
    return [p for p in sys.path
            if p and ("site-packages" in p or "dist-packages" in p) and Path(p).is_dir()
            and not (Path(p) / "tsumeqbf" / "__init__.py").is_file()]


@pytest.mark.slow
def test_the_installed_wheel_runs_a_bench_and_an_experiment_outside_the_checkout(tmp_path):
    src = tmp_path / "src"  # a copy: building in the checkout would leave build/ there
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "tsumeqbf", src / "tsumeqbf",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    wheels = tmp_path / "wheels"
    # pip's own build environment: setuptools from the package index or pip's cache
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(src)],
         tmp_path, env)
    wheel = next(wheels.glob("tsumeqbf-*.whl"))

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], tmp_path, env)
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
         tmp_path, env)
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     tmp_path, env).stdout.strip())
    # plain lines: the folders are appended, their own .pth files (among them an editable
    # install of this checkout) are not run
    (site / "zz_outside.pth").write_text("\n".join(_outside_sys_path()) + "\n")

    work = tmp_path / "work"
    work.mkdir()
    where = _run([str(python), "-c", "import tsumeqbf; print(tsumeqbf.__file__)"], work, env)
    assert Path(where.stdout.strip()).is_relative_to(venv)
    # the wheel's build compiled the native core (the copy holds no built one)
    _run([str(python), "-c", "from tsumeqbf import native; native.require()"], work, env)

    bench = _run([str(python), "-m", "tsumeqbf.bench", "movegen", "--positions", "40",
                  "--shogi-positions", "5", "--repeat", "1"], work, env)
    assert "tsumeqbf: all legal moves" in bench.stdout and " 40 " in bench.stdout

    (work / "small.toml").write_text(textwrap.dedent("""
        title = "from the wheel"
        [limits]
        timeout = 60
        max_nodes = 20_000
        [[instances]]
        paper = [1]                  # the paper's figures and tables: package data
        [[instances]]
        file = "zukou.jsonl"         # a plain name: package data
        [[engines]]
        engine = "brute"
        max_plies = 3
        [[engines]]
        engine = "dfpn"
        [report]
        kind = "agreement"
        [quick]
        instances = ["paper-fig5-n1", "paper-fig6-n3", "zukou-002"]
    """))
    tsumeqbf = str(venv / "bin" / "tsumeqbf")
    _run([tsumeqbf, "experiment", "run", "small.toml", "--quick", "--quiet"], work, env)
    _run([tsumeqbf, "experiment", "report", "small.toml", "--quick", "--no-plots"], work, env)
    with open(work / "results" / "small-quick.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    verdicts = {(r["instance"], r["label"]): r["status"] for r in rows}
    assert verdicts[("paper-fig5-n1", "brute")] == verdicts[("paper-fig5-n1", "dfpn")] == "mate"
    assert ("zukou-002", "dfpn") in verdicts and ("zukou-002", "brute") not in verdicts
    assert (work / "results" / "small-quick.md").is_file()

    # the named experiments: listed, run and reported from the package, into ./results
    listed = _run([tsumeqbf, "experiment", "list"], work, env).stdout.split("\n")
    assert [line.split()[0] for line in listed if line] == sorted(p.stem for p in CONFIGS.glob("*.toml"))
    named = work / "named"
    (named / "results").mkdir(parents=True)
    # the committed quick run but the mate-in-1 of figure 5 under brute force and df-pn
    # (4 cells, both rule sets): --continue-csv takes the rest, only those 4 run here
    with open(ROOT / "results" / "ishiwaki-tables-quick.csv", encoding="utf-8", newline="") as fh:
        lines = fh.read().splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith(('"paper-fig5-n1|brute|', '"paper-fig5-n1|dfpn|'))]
    assert len(lines) - len(kept) == 4
    (named / "results" / "ishiwaki-tables-quick.csv").write_text("".join(kept), encoding="utf-8")
    _run([tsumeqbf, "experiment", "run", "ishiwaki-tables", "--quick", "--continue-csv", "--quiet"],
         named, env)
    # the committed rows and the 4 run here come from different code: --mixed
    _run([tsumeqbf, "experiment", "report", "ishiwaki-tables", "--quick", "--mixed"], named, env)
    with open(named / "results" / "ishiwaki-tables-quick.csv", encoding="utf-8") as fh:
        rows = {r["key"]: r for r in csv.DictReader(fh)}
    assert len(rows) == len(lines) - 1
    assert {rows[line.split('",', 1)[0][1:].replace('""', '"')]["status"]
            for line in lines if line not in kept} == {"mate"}
    for made in ("ishiwaki-tables-quick.md", "ishiwaki-tables-quick-plies.png"):
        assert (named / "results" / made).is_file()
