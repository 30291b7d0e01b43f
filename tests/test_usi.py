"""`tsumeqbf usi`: driven as a subprocess by cshogi's USI client, as a GUI would, and
in-process for the protocol's corners."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

import pytest

import tsumeqbf
from tsumeqbf.cli import main
from tsumeqbf.data import read_rows
from tsumeqbf.dfpn.solve import replay_answer
from tsumeqbf.rules import Position
from tsumeqbf.usi.engine import UsiEngine

cshogi_usi = pytest.importorskip("cshogi.usi")

YANE = read_rows("yaneuraou_mate_samples.csv")
EDO = {r["id"]: r for r in read_rows("open_tsume_zukou_musou.csv")}
# the defender's hand written out, as a GUI sends it
PROBLEMS = {f"yaneuraou-{i}": Position.from_sfen(YANE[i]["sfen"]).sfen() for i in (0, 10, 25, 41)}
PROBLEMS["musou-077"] = Position.from_sfen(EDO["musou-077"]["sfen"], tsume_hands=True).sfen()
HARD = Position.from_sfen(EDO["zukou-001"]["sfen"], tsume_hands=True).sfen()  # 69 plies
NO_MATE = "4k4/9/9/9/9/9/9/9/9 b P 1"  # P*5b is taken by the king, and nothing is left


@pytest.fixture
def engine_cmd(tmp_path):
    """An executable that starts the engine, as a GUI registers it (cshogi's client, like
    a GUI, runs a file without arguments)."""
    path = tmp_path / "tsumeqbf-usi"
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m tsumeqbf usi\n')
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def engine(engine_cmd):
    e = cshogi_usi.Engine(engine_cmd)
    yield e
    if e.proc is not None:
        e.quit()


def solve_pv(capsys, sfen, *options) -> str:
    assert main(["solve", sfen, "--quiet", "--json", *options]) == 0
    return " ".join(json.loads(capsys.readouterr().out)["pv"])


def test_handshake_lists_the_options(engine):
    assert engine.name.startswith("tsumeqbf")
    lines = engine.usi()
    for name in ("Engine", "MaxPlies", "TableEntries", "Heuristics", "Backend", "ShortenNodes",
                 "Shortest", "USI_Hash", "Threads"):
        assert any(ln.startswith(f"option name {name} type") for ln in lines)
    engine.isready()


@pytest.mark.parametrize("key", sorted(PROBLEMS))
def test_go_mate_answers_as_solve_does(engine, capsys, key):
    sfen = PROBLEMS[key]
    engine.setoption("ShortenNodes", 0)  # the search for shorter mates costs 50k nodes
    engine.isready()
    engine.position(sfen="sfen " + sfen)
    lines = []
    answer = engine.go_mate(byoyomi=120_000, listener=lines.append)
    assert answer == solve_pv(capsys, sfen, "--shorten-nodes", "0")
    assert replay_answer(Position.from_sfen(sfen), answer.split()).startswith("ok")
    info = [ln for ln in lines if ln.startswith("info") and " nodes " in ln]
    assert info and info[-1].endswith("pv " + answer)  # the last info line carries the answer


def test_default_options_answer_as_solve_does(engine, capsys):
    # the same budget after the proof as solve's default (it spent 50,000 nodes on this
    # mate in 3 before), and the same word on whether the answer is the shortest
    sfen = PROBLEMS["yaneuraou-0"]
    engine.position(sfen="sfen " + sfen)
    lines = []
    assert engine.go_mate(byoyomi=120_000, listener=lines.append) == solve_pv(capsys, sfen)
    assert "info string shortest: exact (bounded df-pn: no mate within 1 ply, every ply " \
           "counted)" in lines
    nodes = [int(ln.split(" nodes ")[1].split()[0]) for ln in lines if " nodes " in ln]
    assert nodes[-1] <= 10_000 + 20_000 + 100


def test_usi_hash_sizes_the_table(engine, capsys):
    # USI_Hash was ignored: the table stayed at 1,000,000 entries whatever the GUI sent
    sfen = PROBLEMS["musou-077"]
    entries = (1 << 20) // 330  # 1 MB at the measured 330 bytes an entry
    for name, value in (("USI_Hash", 1), ("ShortenNodes", 0)):
        engine.setoption(name, value)
    engine.position(sfen="sfen " + sfen)
    lines = []
    engine.go_mate(byoyomi=120_000, listener=lines.append)
    assert main(["solve", sfen, "--quiet", "--json", "--shorten-nodes", "0",
                 "--tt-entries", str(entries)]) == 0
    size = json.loads(capsys.readouterr().out)["tt_size"]
    full = [ln for ln in lines if " hashfull " in ln][-1]
    assert f" hashfull {min(1000, size * 1000 // entries)} " in full and size * 1000 >= entries


def test_usi_hash_and_threads_set_the_request():
    engine = UsiEngine(lambda line: None)
    for command in ("setoption name USI_Hash value 64", "setoption name Threads value 3",
                    "setoption name Shortest value true"):
        engine.handle(command)
    assert engine.request.dfpn.tt_limit == (64 << 20) // 330
    assert engine.request.threads == 3 and engine.request.dfpn.shortest is True
    engine.handle("setoption name ShortenNodes value -1")  # (a minus sign is a number's)
    engine.handle("setoption name ShortenNodes value 7")
    assert engine.request.dfpn.shorten_nodes == 7
    engine.handle("setoption name ShortenNodes value -1")
    assert engine.request.dfpn.shorten_nodes is None
    out = _talk("setoption name USI_Hash value 0", "setoption name Threads value x", wait=False)
    assert "USI_Hash must be at least 1" in out[0] and "Threads must be a whole" in out[1]


def test_threads_is_the_portfolios_members_at_once(monkeypatch):
    import tsumeqbf.engines as engines
    from tsumeqbf.usi.search import MateRequest, answer_mate
    from tsumeqbf.values import Answer

    asked = []

    def run_engine(name, pos, n, timeout=None, options=None, limits=None):
        asked.append((name, dict(options or {})))
        return Answer.unknown("node or time limit reached")

    monkeypatch.setattr(engines, "run_engine", run_engine)
    for threads, jobs in ((3, {"jobs": 3}), (None, {})):
        asked.clear()
        answer_mate(MateRequest(PROBLEMS["yaneuraou-0"], engine="portfolio", threads=threads),
                    lambda *a: None)
        assert asked == [("portfolio", jobs)]
    note = "info string Threads: engine dfpn uses one core; only the portfolio runs members " \
           "side by side"
    out = _talk("setoption name Threads value 2", f"position sfen {PROBLEMS['yaneuraou-0']}",
                "go mate 1000", "go mate 1000")
    assert out.count(note) == 1  # once for the setting, not at every go
    out = _talk("setoption name Threads value 2", f"position sfen {PROBLEMS['yaneuraou-0']}",
                "go mate 1000", "setoption name Threads value 3", "go mate 1000",
                "setoption name Engine value brute", "go mate 1000")
    assert out.count(note) == 2 and out.count(note.replace("dfpn", "brute")) == 1


def test_backend_option_cshogi(engine, capsys):
    sfen = PROBLEMS["musou-077"]
    for name, value in (("Backend", "cshogi"), ("ShortenNodes", 0)):
        engine.setoption(name, value)
    engine.position(sfen="sfen " + sfen)
    assert engine.go_mate(byoyomi=120_000) == solve_pv(
        capsys, sfen, "--backend", "cshogi", "--shorten-nodes", "0")


def test_no_mate_and_timeout(engine):
    engine.position(sfen="sfen " + NO_MATE)
    assert engine.go_mate(byoyomi=10_000) == "nomate"
    engine.position(sfen="sfen " + HARD)
    assert engine.go_mate(byoyomi=300) == "timeout"
    engine.isready()  # still answering


@pytest.mark.parametrize("name", ["brute", "depqbf"])
def test_bounded_engines_give_a_shortest_line(engine, name):
    from tsumeqbf.solvers.runner import is_installed
    if name != "brute" and not is_installed(name):
        pytest.skip(f"{name} not built")
    row = YANE[0]  # a stated mate in 3
    engine.setoption("Engine", name)
    engine.setoption("MaxPlies", 5)
    engine.position(sfen="sfen " + row["sfen"])
    lines = []
    answer = engine.go_mate(byoyomi=60_000, listener=lines.append).split()
    assert len(answer) == int(row["stated_length"])
    assert replay_answer(Position.from_sfen(row["sfen"]), answer) == "ok"
    assert any(ln.endswith(f" string no mate within 1 ply ({name})") for ln in lines)
    # none within MaxPlies is no 'nomate' (a mate in 3 exists): the search is unfinished
    engine.setoption("MaxPlies", 1)
    assert engine.go_mate(byoyomi=60_000, listener=lines.append) == "timeout"
    assert ("info string no mate within 1 ply (option MaxPlies); a longer one is not "
            "ruled out") in lines
    engine.position(sfen="sfen 4k4/9/9/9/9/9/9/9/9 b - 1")  # no check at all: no mate
    assert engine.go_mate(byoyomi=60_000, listener=lines.append) == "nomate"
    assert "info string no check: no mate" in lines


def test_threads_with_the_portfolio_through_a_gui_client(engine):
    from tsumeqbf.solvers.portfolio import DEFAULT_MEMBERS, parse_member
    from tsumeqbf.solvers.runner import is_installed

    if not all(is_installed(parse_member(m).options["solver"]) for m in DEFAULT_MEMBERS):
        pytest.skip("the portfolio's solvers are not built")
    row = YANE[0]  # a stated mate in 3
    for name, value in (("Engine", "portfolio"), ("MaxPlies", 3), ("Threads", 1)):
        engine.setoption(name, value)
    engine.position(sfen="sfen " + row["sfen"])
    lines = []
    answer = engine.go_mate(byoyomi=120_000, listener=lines.append).split()
    assert replay_answer(Position.from_sfen(row["sfen"]), answer) == "ok" and len(answer) == 3
    assert not any(ln.startswith("info string") for ln in lines)  # Threads taken in silence


def _read_until(proc, prefix, lines, limit_s=60):
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        line = proc.stdout.readline().strip()
        lines.append(line)
        if line.startswith(prefix):
            return line
    raise AssertionError(f"no {prefix!r} line; got {lines[-5:]}")


@contextlib.contextmanager
def _engine_process(engine_cmd):
    proc = subprocess.Popen([engine_cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env_of_this_package())
    try:
        yield proc
    finally:
        proc.kill()


def _env_of_this_package() -> dict:
    """The environment with the package under test first on the path: an installed
    script's interpreter would otherwise import whatever copy it finds (a wheel in its
    site-packages, another checkout's editable install)."""
    here = str(Path(tsumeqbf.__file__).resolve().parent.parent)
    rest = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {**os.environ, "PYTHONPATH": os.pathsep.join([here, *rest])}


def _send(proc, text: str) -> None:
    proc.stdin.write(text)
    proc.stdin.flush()


def test_stop_answers_within_a_second_with_info_lines(engine_cmd):
    with _engine_process(engine_cmd) as proc:
        _send(proc, f"usi\nisready\nposition sfen {HARD}\ngo mate infinite\n")
        lines = []
        info = _read_until(proc, "info depth", lines)
        for field in ("time", "nodes", "nps", "hashfull", "pv"):
            assert f" {field} " in info
        start = time.monotonic()
        _send(proc, "stop\n")
        assert _read_until(proc, "checkmate", lines) == "checkmate timeout"
        assert time.monotonic() - start < 3  # protocol: within a second; a shared machine
        _send(proc, "isready\nquit\n")
        assert _read_until(proc, "readyok", lines) == "readyok"
        assert proc.wait(timeout=10) == 0
        assert "Traceback" not in proc.stderr.read()


def test_stop_after_the_proof_answers_with_the_mate(engine_cmd):
    # zukou-030 is proven in about 0.3 s; with Shortest the searches for a shorter line
    # then take over a minute. A stop during them answers with the line found, not with a
    # timeout.
    sfen = EDO["zukou-030"]["sfen"]
    with _engine_process(engine_cmd) as proc:
        _send(proc, "usi\nsetoption name Shortest value true\nisready\n"
                    f"position sfen {sfen}\ngo mate infinite\n")
        lines = []
        _read_until(proc, "info time", lines)  # "... string mate found, looking for ..."
        assert lines[-1].endswith("string mate found, looking for a shorter one")
        _send(proc, "stop\n")
        answer = _read_until(proc, "checkmate", lines)
        assert answer != "checkmate timeout"
        pv = answer.split()[1:]
        assert replay_answer(Position.from_sfen(sfen), pv) == "ok" and len(pv) == 17
        _send(proc, "quit\n")
        assert proc.wait(timeout=10) == 0


def _stat(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields after the command name (state first, parent second, start
    time twentieth), or None when there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def _children(pid: int) -> list[tuple[int, str]]:
    """(pid, start time) of each process whose parent is ``pid``, found by reading every
    /proc/PID/stat (/proc/PID/task/TID/children is not in every kernel: not in this
    machine's)."""
    found = []
    for entry in os.listdir("/proc"):
        fields = _stat(int(entry)) if entry.isdigit() else None
        if fields and int(fields[1]) == pid:
            found.append((int(entry), fields[19]))
    return found


def _running(pid: int, started: str) -> bool:
    """Whether the process ``pid`` that started at ``started`` still runs. A zombie does
    not: a killed child whose parent is gone waits for PID 1 to reap it, which takes up to
    2 s on this machine and forever where PID 1 reaps nothing (the pid answers
    ``os.kill(pid, 0)`` meanwhile); the pid taken again by another process neither."""
    fields = _stat(pid)
    return fields is not None and fields[19] == started and fields[0] not in ("Z", "X")


def _installed_script(name: str) -> str:
    """The console script ``name`` of this interpreter's installation (its bin folder,
    not PATH, which a run of .venv/bin/python without activating does not change)."""
    path = Path(sysconfig.get_path("scripts")) / name
    if not path.is_file():
        pytest.skip(f"{name} is not installed beside {sys.executable}")
    return str(path)


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="the parent-death signal and /proc are Linux's")
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM])
@pytest.mark.parametrize("door", ["tsumeqbf usi", "tsumeqbf-usi"])
def test_an_engine_killed_during_a_search_leaves_no_child(engine_cmd, door, signum):
    # the child outlived an engine killed by a GUI (SIGKILL), and tsumeqbf-usi, which
    # did not stop as 'tsumeqbf usi' does, on SIGTERM too: a df-pn search running for
    # good, its table growing
    command = engine_cmd if door == "tsumeqbf usi" else _installed_script("tsumeqbf-usi")
    with _engine_process(command) as proc:
        _send(proc, f"usi\nisready\nposition sfen {HARD}\ngo mate infinite\n")
        _read_until(proc, "info depth", [])  # the search's child is running
        children = _children(proc.pid)
        assert children  # (else the test would pass checking nothing)
        os.kill(proc.pid, signum)
        proc.wait(timeout=30)
        end = time.monotonic() + 30  # (a loaded machine: the kill is at once, as a rule)
        while any(_running(*child) for child in children) and time.monotonic() < end:
            time.sleep(0.05)
        assert [pid for pid, started in children if _running(pid, started)] == []
        assert "Traceback" not in proc.stderr.read()


@pytest.mark.parametrize("end", ["stop\nquit\n", "quit\n", ""])
def test_a_search_stopped_at_once_prints_no_traceback(engine_cmd, end):
    # the child ran with the engine's SIGTERM handler until it had set its own: a stop
    # in between raised the engine's Stopped in multiprocessing's start-up and printed a
    # traceback on the GUI's stderr (about one 'go mate' and 'stop' in six)
    commands = (f"position sfen {HARD}\n" + "go mate 60000\nstop\n" * 20
                + "go mate infinite\n" + end)  # "": the GUI closes our stdin
    done = subprocess.run([engine_cmd], input=commands, capture_output=True, text=True,
                          timeout=300, env=_env_of_this_package())
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    assert done.stderr == ""
    answers = [line for line in done.stdout.splitlines() if not line.startswith("info")]
    assert answers == ["checkmate timeout"] * 21 and done.returncode == 0


def test_a_stop_while_a_bounded_engine_spells_out_its_mate_answers_with_it(monkeypatch):
    # brute proves a mate in 3, then asks more questions to spell out the line: a stop
    # among them answered 'checkmate timeout', the mate proven lost
    import tsumeqbf.engines as engines

    real, held = engines.run_engine, []

    def run_engine(name, pos, n, **kwargs):  # (in the search's child, a fork of this process)
        if n == 1 and pos.sfen() != Position.from_sfen(YANE[0]["sfen"]).sfen() and not held:
            held.append(n)
            time.sleep(120)  # the first question of the line waits for the stop
        return real(name, pos, n, **kwargs)

    monkeypatch.setattr(engines, "run_engine", run_engine)
    out = []
    engine = UsiEngine(out.append)
    for command in ("setoption name Engine value brute", "setoption name MaxPlies value 5",
                    f"position sfen {YANE[0]['sfen']}", "go mate infinite"):
        engine.handle(command)
    end = time.monotonic() + 60
    while not any("mate within 3" in line for line in out) and time.monotonic() < end:
        time.sleep(0.05)
    time.sleep(0.2)  # (into the first question of the line)
    engine.handle("stop")
    assert engine.wait(10)
    answer = out[-1].split()
    assert answer[0] == "checkmate" and len(answer[1:]) == 3, out
    assert replay_answer(Position.from_sfen(YANE[0]["sfen"]), answer[1:]) == "ok"


@pytest.mark.parametrize("limit", ["10000000000000", "99999999999999"])
def test_a_time_past_what_the_timers_hold_is_no_limit(engine_cmd, limit):
    # 'go mate 99999999999999' printed an OverflowError traceback from the timer's thread,
    # and 'go mate 10000000000000' (1e10 s) wrapped round the core's clock: 'checkmate
    # timeout' at once
    with _engine_process(engine_cmd) as proc:
        _send(proc, f"position sfen {HARD}\ngo mate {limit}\n")
        lines = []
        _read_until(proc, "info depth", lines)  # searching after a second, as infinite
        assert not any(line.startswith("checkmate") for line in lines)
        _send(proc, "stop\n")
        assert _read_until(proc, "checkmate", lines) == "checkmate timeout"
        _send(proc, "quit\n")
        assert proc.wait(timeout=10) == 0
        assert proc.stderr.read() == ""


def test_go_mate_0_is_infinite():
    # the USI spec gives milliseconds or 'infinite' and nothing for 0: the dfpn search read
    # 0 as no limit but its stop timer ended it after TIME_GRACE_S with 'checkmate timeout'
    from tsumeqbf.usi.search import TIME_GRACE_S

    out = []
    engine = UsiEngine(out.append)
    engine.handle(f"position sfen {HARD}")
    engine.handle("go mate 0")
    assert engine.search.request.timeout is None
    assert not engine.wait(TIME_GRACE_S + 1.5), out  # still searching, as 'infinite'
    assert not any(line.startswith("checkmate") for line in out)
    engine.handle("stop")
    assert engine.wait(10) and out[-1] == "checkmate timeout"


@pytest.mark.parametrize("name", ["dfpn", "brute"])
def test_a_request_with_0_seconds_has_no_time(name):
    # answer_mate's doors read a timeout of 0 as no limit (bounded: 'timeout or None')
    # where the core reads it as none left; None is no limit
    from tsumeqbf.usi.search import MateRequest, answer_mate

    from tsumeqbf.values import Status

    request = MateRequest(HARD, engine=name, timeout=0, max_nodes=20_000, max_plies=3)
    out = answer_mate(request, lambda kind, text: None)
    assert out.status is Status.UNKNOWN and "time" in out.error, out


def _talk(*commands, wait=True) -> list[str]:
    out = []
    engine = UsiEngine(out.append)
    for command in commands:
        engine.handle(command)
        if wait:
            assert engine.wait(60)
    return out


@pytest.mark.parametrize("command, fragment", [
    ("bogus", "unknown command: bogus"),
    ("setoption name Nope value 1", "unknown option 'Nope'"),
    ("setoption name MaxPlies value 4", "MaxPlies must be odd"),
    ("setoption name MaxNodes value many", "must be a whole number"),
    ("setoption name Engine value qfun", "Engine must be one of"),
    ("setoption name Heuristics value XYZ", "unknown heuristic"),
    ("setoption value 3", "expected 'setoption name"),
    ("position startpos moves 7g7f 7g7f", "move 2 (7g7f): illegal move"),
    ("position sfen 2k/3/1GP b - 1", "USI is a 9x9 protocol"),
    ("position sfen nonsense", "position: SFEN needs"),
    ("setoption name MaxPlies value 257", "MaxPlies must be at most 255"),
    ("setoption name TableEntries value 99999999999999", "TableEntries must be at most"),
    # ASCII digits only, as USI writes numbers: int() took all of these (and '²' passed
    # the check of the declared max, then int() failed there: an internal error)
    ("setoption name MaxPlies value １５", "MaxPlies must be a whole number, not '１５'"),
    ("setoption name MaxNodes value +5", "MaxNodes must be a whole number, not '+5'"),
    ("setoption name USI_Hash value 1_000", "USI_Hash must be a whole number, not '1_000'"),
    ("setoption name Threads value ²", "Threads must be a whole number, not '²'"),
    ("setoption name TableEntries value ²", "TableEntries must be a whole number, not '²'"),
    ("setoption name ShortenNodes value ５", "ShortenNodes must be a whole number, not '５'"),
])
def test_a_bad_command_gets_an_info_string(command, fragment):
    out = _talk(command, "isready")
    assert len(out) == 2 and out[0].startswith("info string ") and fragment in out[0]
    assert out[1] == "readyok"


@pytest.mark.parametrize("limit", ["soon", "-5", "１２", "²", "+5", "1_000"])
def test_go_mate_with_a_bad_limit_still_ends_with_a_checkmate_line(limit):
    # a GUI waits for the checkmate line after every 'go mate'
    out = _talk(f"go mate {limit}", "isready")
    assert out[0] == f"info string 'go mate' takes milliseconds or 'infinite', not {limit!r}"
    assert out[1:] == ["checkmate notimplemented", "readyok"]


def test_go_without_mate_resigns_and_go_without_position():
    assert _talk("go btime 0 wtime 0 byoyomi 1000") == [
        "info string tsumeqbf only solves mates: send 'go mate <ms>' or 'go mate infinite'",
        "bestmove resign"]
    out = _talk("go mate 1000")
    assert out[-1] == "checkmate notimplemented" and "no position" in out[0]
    out = _talk("position sfen 4k4/4G4/9/9/9/9/9/9/9 b - 1", "go mate 1000")
    # gote is in check with sente to move: not a question the engine answers
    assert out[-1] == "checkmate notimplemented" and out[-2].startswith("info string")


def test_position_with_moves_and_a_refused_position_clears_it():
    out = []
    engine = UsiEngine(out.append)
    engine.handle("position startpos moves 7g7f 3c3d")
    assert engine.request.sfen == "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1"
    engine.handle("position startpos moves 7g7f 7g7f")
    assert engine.request.sfen == "" and out[-1].startswith("info string position")
    engine.handle(f"position sfen {HARD}")
    engine.handle("go mate infinite")
    first = engine.search
    engine.handle("go mate infinite")  # never two searches at once: the first is stopped
    assert first.finished.is_set() and not first.proc.is_alive()
    assert out[-1] == "checkmate timeout" and engine.searching()
    engine.handle("stop")
    assert engine.wait(5) and out[-2:] == ["checkmate timeout", "checkmate timeout"]


def test_a_go_right_after_a_stop_answered_late_waits_for_the_answer(monkeypatch):
    # stop waits 1.5 s at most for the answer; on a loaded machine the answer came later
    # and the GUI's next 'go' was refused ("a search is running"), with no checkmate line
    import tsumeqbf.usi.search as search

    real, slow = search.MateSearch._relay, []

    def relay(self, conn):  # (its own thread, in this process)
        if not slow:
            slow.append(1)
            time.sleep(search.STOP_GRACE_S + 3)  # the answer comes after stop() gave up
        return real(self, conn)

    monkeypatch.setattr(search.MateSearch, "_relay", relay)
    out = []
    engine = UsiEngine(out.append)
    engine.handle(f"position sfen {HARD}")
    engine.handle("go mate infinite")
    engine.handle("stop")
    assert engine.searching()  # not answered yet
    engine.handle("go mate infinite")
    assert out.count("checkmate timeout") == 1 and engine.searching()
    assert not any("search is running" in line or "still running" in line for line in out)
    engine.handle("stop")
    assert engine.wait(10) and out.count("checkmate timeout") == 2
    checkmates = [line for line in out if line.startswith("checkmate")]
    assert checkmates == ["checkmate timeout", "checkmate timeout"]


def test_a_go_whose_search_before_never_answers_still_gets_a_checkmate_line(monkeypatch):
    import tsumeqbf.usi.engine as usi_engine
    import tsumeqbf.usi.search as search

    real = search.MateSearch._relay

    def relay(self, conn):
        time.sleep(3)
        return real(self, conn)

    monkeypatch.setattr(search.MateSearch, "_relay", relay)
    monkeypatch.setattr(usi_engine, "FINISH_WAIT_S", 0.2)
    out = []
    engine = UsiEngine(out.append)
    engine.handle(f"position sfen {HARD}")
    engine.handle("go mate infinite")
    engine.handle("go mate infinite")
    assert out[-2:] == ["info string the search before is still running after 0.2 s",
                        "checkmate notimplemented"]
    assert engine.wait(10) and out[-1] == "checkmate timeout"


def test_info_lines_after_the_proof_show_no_searched_line_as_pv():
    # yaneuraou-0 is proven in 9 nodes; what follows looks for shorter mates below other
    # checks, whose lines are not mates and must not be shown as the pv
    from tsumeqbf.dfpn.options import SolveOptions
    from tsumeqbf.usi.search import MateRequest, answer_mate

    lines = []
    out = answer_mate(MateRequest(PROBLEMS["yaneuraou-0"], dfpn=SolveOptions(shorten_nodes=5000),
                                  info_every_s=0.0), lambda kind, text: lines.append(text))
    assert out.line == ("B*5g", "4h5h", "7i6i")
    assert lines[-2].endswith(" pv B*5g 4h5h 7i6i")
    assert lines[-1].startswith("info string shortest: exact")
    during = lines[:-2]
    assert len(during) >= 3
    assert all(line.endswith(" string mate found, looking for a shorter one")
               and " pv " not in line and " depth " not in line for line in during)


def test_the_note_on_the_shortest_names_the_usi_option():
    # it named solve's flag --shortest, which a GUI does not have
    from tsumeqbf.dfpn.options import SolveOptions
    from tsumeqbf.usi.search import MateRequest, answer_mate

    lines = []
    answer_mate(MateRequest(PROBLEMS["yaneuraou-0"],  # (no search for a shorter line)
                            dfpn=SolveOptions(shortest_up_to=0, shorten_nodes=0)),
                lambda kind, text: lines.append(text))
    assert lines[-1] == ("info string shortest: not proven (the shortest line found within "
                         "the budget; the option Shortest asks bounded df-pn until it knows)")


def test_the_search_child_leaves_ctrl_c_to_the_engine_and_stops_quietly(capfd):
    # Ctrl-C reaches the whole process group: the child once raised it past its clean-up
    # and multiprocessing printed a traceback; the engine stops the child itself
    import os
    import signal

    sfen = next(r["sfen"] for r in read_rows("long_classics.csv") if r["key"] == "microcosmos")
    out = []
    engine = UsiEngine(out.append)
    engine.handle(f"position sfen {sfen}")
    engine.handle("go mate infinite")
    time.sleep(0.5)
    os.kill(engine.search.proc.pid, signal.SIGINT)
    time.sleep(0.5)
    assert engine.search.proc.is_alive()  # (ignored: not the child's to act on)
    os.kill(engine.search.proc.pid, signal.SIGTERM)
    os.kill(engine.search.proc.pid, signal.SIGTERM)  # a second, in its clean-up
    assert engine.wait(30)
    assert out[-1] == "checkmate timeout"
    # its stderr is /dev/null: a traceback would show as multiprocessing's exit status 1
    assert engine.search.proc.exitcode == 0
    assert "Traceback" not in capfd.readouterr().err
