"""Two or more builds of the native core side by side in one process, on the same problems.

    python -m tsumeqbf.bench native-ab BUILD BUILD [BUILD ...] [--rounds K] [--max-nodes N]
                                       [--ids ID,...] [--cshogi] [--csv FILE]
                                       [--cxxflags FLAGS] [--callgrind]

A BUILD is ``[NAME=]SPEC``: SPEC is a built core (a ``.so``, or ``installed`` for the one
:mod:`tsumeqbf.native` imports), a ``_core.cpp`` to compile (the headers it includes
beside it), or a git revision of this checkout whose ``tsumeqbf/native`` sources are
compiled (``main``, ``HEAD~1``, a commit).
Sources are compiled into a temporary directory with the flags ``pip install`` gives the
extension (Python's own CFLAGS and CCSHARED from :mod:`sysconfig`, then setup.py's
:data:`SETUP_FLAGS`; ``--cxxflags`` appended, for trying a flag), so a build measures the
source, not how it was built.

Every build loads as its own module beside the others. Each problem is searched by each
build in turn (the order reversed every other round, so neither runs always first on a
warm cache), unbounded df-pn with the package's defaults up to ``--max-nodes``; with
``--cshogi`` cshogi's DfPn searches it too with the same node budget. Only the search is
timed, by the process's CPU seconds (what a rate is worth on a shared machine; the wall
clock moves with the other processes). The summary gives per engine the nodes, CPU
seconds, nodes per CPU second, the ratio to the first build and to cshogi's DfPn, whether
each build's node counts equal the first's on every problem (a change meant to keep the
search must keep them), and the 1-minute load over the run. ``--csv`` writes a row per
round, problem and engine.

``--callgrind`` counts instructions instead (valgrind on PATH): each build searches the
problems (default :data:`CALLGRIND_IDS`) once under callgrind in a child process,
collecting only inside ``Tsume.solve``; the count does not move with the machine's load,
so it shows a change of a few tenths of a percent that timed runs cannot.

The default problems (:data:`AB_IDS`) are the 34 Edo problems of the notebook's speed
sessions (docs/dfpn-notebook.md, issue 45), at 300,000 nodes each.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..arguments import BenchParser, positive_int_or_default
from ..data import read_rows
from ..provenance import loads
from ..rules import Position
from ..settings import TABLE_ENTRIES
from . import BenchError
from .dfpn import cshogi_dfpn, pick_edo

#: the Edo problems the native core's speed is measured on (docs/dfpn-notebook.md, issue
#: 45's eleventh to fourteenth sessions): 27 the core solves within 300,000 nodes, 7 it
#: does not, so both ends of a search are timed
AB_IDS = ("zukou-080,zukou-034,zukou-038,zukou-058,musou-024,musou-062,zukou-094,musou-018,"
          "zukou-068,musou-091,zukou-092,zukou-095,musou-036,zukou-046,musou-068,musou-072,"
          "musou-042,musou-080,zukou-055,zukou-088,zukou-075,musou-015,zukou-086,musou-093,"
          "musou-020,zukou-039,zukou-097,zukou-050,zukou-001,zukou-004,zukou-008,zukou-017,"
          "zukou-023,zukou-027")

#: the pair the notebook's instruction counts are of (427,494 nodes at 300,000 each)
CALLGRIND_IDS = "zukou-004,musou-020"

#: setup.py's extra_compile_args on a POSIX compiler, after Python's own flags
SETUP_FLAGS = ("-std=c++17", "-O3")

#: the core's source in a checkout, for a git revision
SOURCE = "tsumeqbf/native/_core.cpp"

#: the core calls back this often, as ``solve`` has it
TICK_EVERY = 4096


class BuildError(BenchError):
    """A build that cannot be had: its message is the bench's one error line."""


@dataclass
class Engine:
    """One build of the core (``module``), or cshogi's DfPn (``module`` None)."""
    name: str
    module: object = None
    nodes: dict = field(default_factory=dict)   # problem id -> node count per round
    cpu_s: float = 0.0

    @property
    def total_nodes(self) -> int:
        return sum(sum(counts) for counts in self.nodes.values())


def checkout_root() -> Path:
    """The checkout this package runs from (a git revision's source is read from it)."""
    return Path(__file__).resolve().parents[2]


def split_build(text: str) -> tuple[str, str]:
    """``(name, spec)`` of a BUILD argument: ``NAME=SPEC``, or SPEC named by itself.

    >>> split_build("new=/tmp/x/_core.cpp"), split_build("main")
    (('new', '/tmp/x/_core.cpp'), ('main', 'main'))
    """
    name, sep, spec = text.partition("=")
    if sep and name and spec and "/" not in name:
        return name, spec
    return text, text


def compile_command(source: Path, out_dir: Path, extra: str = "") -> list[list[str]]:
    """The compile and link commands that make ``out_dir/_core<EXT_SUFFIX>`` from ``source``,
    with the flags the package's build gives the extension on this Python."""
    var = sysconfig.get_config_var
    cxx = shlex.split(var("CXX") or "c++")
    paths = sysconfig.get_paths()
    includes = {paths["include"], paths["platinclude"], os.path.join(sys.exec_prefix, "include")}
    obj = out_dir / "_core.o"
    flags = shlex.split(var("CFLAGS") or "") + shlex.split(var("CCSHARED") or "")
    compile_ = [*cxx, *flags, *(f"-I{d}" for d in sorted(includes) if os.path.isdir(d)),
                "-c", str(source), "-o", str(obj), *SETUP_FLAGS, *shlex.split(extra)]
    link = shlex.split(var("LDCXXSHARED") or f"{' '.join(cxx)} -shared")
    so = out_dir / f"_core{var('EXT_SUFFIX') or '.so'}"
    return [compile_, [*link, *shlex.split(var("CFLAGS") or ""), str(obj), "-o", str(so),
                       *shlex.split(extra)]]


def compile_core(source: Path, out_dir: Path, extra: str = "") -> Path:
    """The built core of ``source`` in ``out_dir``; BuildError with the compiler's last
    line when it fails."""
    out_dir.mkdir(parents=True, exist_ok=True)
    commands = compile_command(source, out_dir, extra)
    for command in commands:
        try:
            done = subprocess.run(command, capture_output=True, text=True)
        except OSError as exc:
            raise BuildError(f"cannot run the compiler {command[0]}: {exc}") from None
        if done.returncode:
            last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise BuildError(f"{source} does not compile: {last}")
    return Path(commands[1][commands[1].index("-o") + 1])


def source_of(spec: str, work: Path) -> Path:
    """The ``_core.cpp`` a spec names: a file, or the checkout's at a git revision (with
    the headers beside it there, written into ``work``); BuildError when it is neither."""
    path = Path(spec)
    if path.is_file():
        return path
    root = str(checkout_root())
    folder = SOURCE.rpartition("/")[0]
    listed = subprocess.run(["git", "-C", root, "ls-tree", "--name-only", f"{spec}:{folder}"],
                            capture_output=True, text=True)
    names = [n for n in listed.stdout.split() if n.endswith((".cpp", ".h"))]
    if listed.returncode or Path(SOURCE).name not in names:
        raise BuildError(f"{spec!r} is neither a built core (.so), a _core.cpp, nor a git "
                         f"revision of {root} with {SOURCE}")
    work.mkdir(parents=True, exist_ok=True)
    for name in names:
        done = subprocess.run(["git", "-C", root, "show", f"{spec}:{folder}/{name}"],
                              capture_output=True)
        if done.returncode:
            raise BuildError(f"{spec}:{folder}/{name} cannot be read from git")
        (work / name).write_bytes(done.stdout)
    return work / Path(SOURCE).name


def built(spec: str, work: Path, extra: str = "") -> Path:
    """The shared object a spec stands for, compiling it into ``work`` when it is a source."""
    if spec == "installed":
        from .. import native
        if native._core is None:
            raise BuildError("'installed': the package's core is not built (pip install .)")
        return Path(native._core.__file__)
    if spec.endswith((".so", ".pyd", sysconfig.get_config_var("EXT_SUFFIX") or ".so")):
        if not Path(spec).is_file():
            raise BuildError(f"{spec}: no such built core")
        return Path(spec)
    if os.name == "nt":  # (the flags below are a POSIX compiler's)
        raise BuildError(f"{spec}: compiling a source needs a POSIX compiler here; give "
                         f"built cores")
    return compile_core(source_of(spec, work / "src"), work, extra)


def load(so: Path, index: int):
    """The core in ``so`` as a module of its own (the same file twice gives two names)."""
    spec = importlib.util.spec_from_file_location(f"tsumeqbf_ab{index}._core", so)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError as exc:
        raise BuildError(f"{so} does not load: {exc}") from None
    if not hasattr(module, "Tsume"):
        raise BuildError(f"{so} is not the native core (no Tsume)")
    return module


def search(module, sfen: str, max_nodes: int) -> tuple[int, float, object]:
    """(nodes, CPU seconds of the search alone, verdict) of the unbounded search of
    ``module``'s core on ``sfen`` with the package's defaults (``native.tsume``'s)."""
    from ..native import position_args
    pos = Position.from_sfen(sfen)
    try:
        tsume = module.Tsume(*position_args(pos), TABLE_ENTRIES, True, True, True, True, False)
    except TypeError as exc:  # a core of another interface
        raise BuildError(f"its Tsume takes other arguments (VERSION "
                         f"{getattr(module, 'VERSION', '?')}): {exc}") from None
    start = time.process_time()
    proven, _reason = tsume.solve(max_nodes, -1.0, _tick, TICK_EVERY)
    cpu = time.process_time() - start
    return tsume.stats()[0], cpu, proven


def _tick():
    """The callback ``solve`` is given, as the package's searches are (it does nothing)."""


def search_all(so: str, ids: str, max_nodes: int) -> int:
    """Every problem of ``ids`` searched once by the core in ``so``; the nodes in all (what
    ``--callgrind`` runs in its child process)."""
    module = load(Path(so), 0)
    return sum(search(module, r["sfen"], max_nodes)[0] for r in problems(ids))


def problems(ids: str) -> list[dict]:
    """The Edo problems named in ``ids`` (comma-separated), in order; a BenchError naming
    the unknown ones."""
    return pick_edo(read_rows("open_tsume_zukou_musou.csv"), 0, ids)


def rate(nodes: float, seconds: float) -> float:
    return nodes / seconds if seconds > 0 else 0.0


def run_rounds(engines: list[Engine], rows: list[dict], rounds: int, max_nodes: int,
               cshogi, writer) -> list[float]:
    """Every problem searched by every engine, ``rounds`` times; the 1-minute loads seen."""
    seen = [loads()[0]]
    for rd in range(rounds):
        order = engines if rd % 2 == 0 else engines[::-1]
        for r in rows:
            for e in order:
                if e.module is None:
                    proven, nodes, _, cpu = cshogi_dfpn(cshogi, r["sfen"], max_nodes)
                else:
                    try:
                        nodes, cpu, proven = search(e.module, r["sfen"], max_nodes)
                    except BuildError as exc:
                        raise BuildError(f"{e.name}: {exc}") from None
                e.cpu_s += cpu
                e.nodes.setdefault(r["id"], []).append(nodes)
                if writer:
                    writer.writerow({"round": rd + 1, "id": r["id"], "engine": e.name,
                                     "nodes": nodes, "cpu_s": round(cpu, 6),
                                     "proven": proven})
        seen.append(loads()[0])
        print(f"round {rd + 1}: " + ", ".join(
            f"{e.name} {rate(e.total_nodes, e.cpu_s):,.0f}" for e in engines)
            + f" nodes per CPU s; load {seen[-1]:.2f}", flush=True)
    return seen


def summary(engines: list[Engine]) -> list[str]:
    """The table of the engines' totals and the node-count parity of each build with the
    first.

    >>> a = Engine("a", module=1, nodes={"p": [100], "q": [50]}, cpu_s=1.5)
    >>> b = Engine("b", module=1, nodes={"p": [100], "q": [60]}, cpu_s=1.0)
    >>> c = Engine("cshogi", nodes={"p": [40], "q": [40]}, cpu_s=1.0)
    >>> print("\\n".join(summary([a, b, c])))
    engine          nodes    CPU s  nodes/CPU s  vs first  vs cshogi
    a                 150    1.500          100    1.000x     1.250x
    b                 160    1.000          160    1.600x     2.000x
    cshogi             80    1.000           80    0.800x          -
    b: node counts differ from a's on 1 of 2 problems (q)
    """
    first = engines[0]
    cs = next((e for e in engines if e.module is None), None)
    lines = [f"{'engine':12s} {'nodes':>8s} {'CPU s':>8s} {'nodes/CPU s':>12s} "
             f"{'vs first':>9s} {'vs cshogi':>10s}"]
    base = rate(first.total_nodes, first.cpu_s)
    theirs = rate(cs.total_nodes, cs.cpu_s) if cs else 0.0
    for e in engines:
        mine = rate(e.total_nodes, e.cpu_s)
        vs_cs = f"{mine / theirs:.3f}x" if theirs and e is not cs else "-"
        lines.append(f"{e.name[:12]:12s} {e.total_nodes:8,d} {e.cpu_s:8.3f} {mine:12,.0f} "
                     f"{(mine / base if base else 0):8.3f}x {vs_cs:>10s}")
    for e in engines[1:]:
        if e is cs:
            continue
        differ = [p for p in first.nodes if e.nodes.get(p) != first.nodes[p]]
        lines.append(f"{e.name}: node counts " + (
            f"differ from {first.name}'s on {len(differ)} of {len(first.nodes)} problems "
            f"({', '.join(differ)})" if differ else
            f"equal {first.name}'s on all {len(first.nodes)} problems"))
    return lines


def callgrind(names: list[str], sos: list[Path], ids: str, max_nodes: int, work: Path) -> int:
    """Instructions inside ``Tsume.solve`` per build, each counted in a child process
    under callgrind; the lines printed."""
    package_parent = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [package_parent, *filter(None, [os.environ.get("PYTHONPATH")])])}
    counts = []
    for name, so in zip(names, sos):
        print(f"{name}: {so}")
    print(f"{'build':12s} {'nodes':>9s} {'instructions':>15s} {'a node':>7s} {'vs first':>9s}")
    for i, (name, so) in enumerate(zip(names, sos)):
        out = work / f"callgrind-{i}.out"
        code = ("import sys; from tsumeqbf.bench.native_ab import search_all; "
                "print('nodes', search_all(sys.argv[1], sys.argv[2], int(sys.argv[3])))")
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             "--toggle-collect=*tsume_solve*", sys.executable, "-c", code, str(so), ids,
             str(max_nodes)], capture_output=True, text=True, env=env)
        nodes = re.search(r"^nodes (\d+)$", done.stdout, re.M)
        total = re.search(r"^(?:summary|totals): (\d+)", out.read_text() if out.exists() else "",
                          re.M)
        if done.returncode or not nodes or not total:
            last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
            raise BuildError(f"{name}: the callgrind run failed: {last}")
        n, ins = int(nodes.group(1)), int(total.group(1))
        counts.append(ins)
        print(f"{name[:12]:12s} {n:9,d} {ins:15,d} {ins / max(n, 1):7,.0f} "
              f"{ins / counts[0] - 1:+8.2%}", flush=True)
    return 0


def parse(argv: list[str]) -> argparse.Namespace:
    ap = BenchParser(prog="python -m tsumeqbf.bench native-ab",
                                 description="builds of the native core side by side")
    ap.add_argument("builds", nargs="+", metavar="BUILD",
                    help="[NAME=]SPEC: a built core (.so, or 'installed'), a _core.cpp, or a "
                         "git revision of this checkout")
    ap.add_argument("--rounds", type=positive_int_or_default, default=2,
                    help="times each problem is searched")
    ap.add_argument("--max-nodes", type=positive_int_or_default, default=300_000,
                    help="each search's node budget")
    ap.add_argument("--ids", default=None,
                    help=f"comma-separated Edo problem ids (default: the 34 of AB_IDS; with "
                         f"--callgrind {CALLGRIND_IDS})")
    ap.add_argument("--cshogi", action="store_true", help="cshogi's DfPn beside the builds")
    ap.add_argument("--csv", default=None, help="a row per round, problem and engine")
    ap.add_argument("--cxxflags", default="", help="flags appended when compiling a source")
    ap.add_argument("--callgrind", action="store_true",
                    help="count instructions in Tsume.solve (valgrind) instead of timing")
    return ap.parse_args(argv)


def check(args) -> str | None:
    """Why the arguments cannot run, or None."""
    if len(args.builds) < 2:
        return "give two or more builds to compare"
    if args.callgrind and (args.cshogi or args.csv):
        return "--callgrind counts the builds' instructions; it takes no --cshogi or --csv"
    if args.callgrind and shutil.which("valgrind") is None:
        return "--callgrind needs valgrind on PATH (apt-get install valgrind)"
    return None


def unique(names: list[str]) -> list[str]:
    """The names, a repeated one numbered.

    >>> unique(["installed", "installed", "main"])
    ['installed', 'installed#2', 'main']
    """
    seen: dict = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def main(argv: list[str]) -> int:
    args = parse(argv)
    why = check(args)
    cshogi = None
    if why is None and args.cshogi:
        try:
            import cshogi
        except ImportError:
            why = "--cshogi needs cshogi (pip install cshogi)"
    if why:
        raise BenchError(why)
    names = unique([split_build(b)[0] for b in args.builds])
    rows = problems(args.ids or (CALLGRIND_IDS if args.callgrind else AB_IDS))
    with tempfile.TemporaryDirectory(prefix="native-ab-") as tmp:
        sos = [built(split_build(b)[1], Path(tmp) / str(i), args.cxxflags)
               for i, b in enumerate(args.builds)]
        if args.callgrind:
            return callgrind(names, sos, ",".join(r["id"] for r in rows), args.max_nodes,
                             Path(tmp))
        return timed(args, names, sos, rows, cshogi)


def timed(args, names: list[str], sos: list[Path], rows: list[dict], cshogi) -> int:
    """The timed rounds and their summary."""
    engines = [Engine(name, load(so, i)) for i, (name, so) in enumerate(zip(names, sos))]
    for e, so in zip(engines, sos):
        print(f"{e.name}: {so} (VERSION {getattr(e.module, 'VERSION', '?')})")
    if cshogi:
        engines.append(Engine("cshogi"))
    print(f"{len(rows)} problems, {args.max_nodes:,} nodes each, {args.rounds} round(s); "
          f"load {' / '.join(f'{x:.2f}' for x in loads())} (1 / 5 / 15 min)", flush=True)
    try:
        sink = open(args.csv, "w", newline="", encoding="utf-8") if args.csv else None
    except OSError as exc:
        raise BuildError(f"cannot write {args.csv}: {exc}") from None
    writer = None
    if sink:
        writer = csv.DictWriter(sink, fieldnames=["round", "id", "engine", "nodes", "cpu_s",
                                                  "proven"])
        writer.writeheader()
    try:
        seen = run_rounds(engines, rows, args.rounds, args.max_nodes, cshogi, writer)
    finally:
        if sink:
            sink.close()
    for line in summary(engines):
        print(line)
    print(f"load (1 min) {min(seen):.2f}-{max(seen):.2f} over the run; "
          f"15 min {loads()[2]:.2f} at the end")
    return 0
