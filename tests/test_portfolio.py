"""The portfolio engine (issue 41): QBF configurations side by side, the first verdict wins.

Which member answers first is made certain, not left to timing: a member that never
answers (a sleeping solver) runs beside one that answers only once the sleeper is running
(it waits for the sleeper's pid file), so the test knows both who wins and that there was
a loser to kill. Every solver process a member started must be gone when the portfolio
returns.
"""

import json
import os
import shutil
import signal
import sys
import time

import pytest

from liar_solver import make_liar
from test_limits import FIG5, assert_all_dead, fake_solver, start, wait_for_pids
from tsumeqbf.cli import main
from tsumeqbf.engines import run_engine
from tsumeqbf.limits import resident_mb
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.reference import ReferenceSolver
from tsumeqbf.solvers import SolverError, find_solver, is_installed
from tsumeqbf.solvers import engine as engine_module
from tsumeqbf.solvers import portfolio as portfolio_module
from tsumeqbf.solvers.portfolio import STOP_S, members_of, parse_member

pytestmark = pytest.mark.skipif(not is_installed("depqbf"), reason="pyqbf solvers not installed")

FIG6 = "1k1/3/PG1 b - 1"  # no mate in 1, mate in 3 (paper figure 6)


def gated_depqbf(tmp_path, pids) -> str:
    """DepQBF (with its certificate), started only once a file is in ``pids``."""
    _, depqbf = find_solver("depqbf")
    path = tmp_path / "gated"
    path.write_text(f"""#!{__import__('sys').executable}
import os, sys, time
while not os.listdir({str(pids)!r}):
    time.sleep(0.01)
os.execv({depqbf!r}, [{depqbf!r}, "--qdo", "--no-dynamic-nenofex", *sys.argv[1:]])
""")
    path.chmod(0o755)
    return str(path)


def sleeper(tmp_path) -> tuple[str, object]:
    """A solver that never answers, with a child of its own; each writes "its pid, its
    child's pid" to a file in the folder returned (``sleeping_solver`` answers 1 ply)."""
    pids = tmp_path / "pids"
    pids.mkdir()
    exe = fake_solver(tmp_path, f"""
        import os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        with open(os.path.join({str(pids)!r}, str(os.getpid())), "w") as fh:
            fh.write(f"{{os.getpid()}} {{child.pid}}")
        time.sleep(120)
    """)
    return exe, pids


def mating_moves(sfen, n, zone=2) -> list[str]:
    pos = Position.from_sfen(sfen, zone=zone)
    return [pos.usi(m) for m in ReferenceSolver().mating_moves(pos, n)]


def sleeper_pids(pids) -> list[int]:
    return [int(p) for f in pids.iterdir() for p in f.read_text().split()]


def portfolio(sfen, n, zone=2, timeout=60, **options):
    """The portfolio's answer as ``mate --json`` writes it."""
    return run_engine("portfolio", Position.from_sfen(sfen, zone=zone), n, timeout,
                      options).to_dict()


def test_member_labels():
    assert parse_member("rareqs/compact/defender=onehot-sequential/attacker=onehot-ladder").label \
        == "rareqs/compact/attacker=onehot-ladder/defender=onehot-sequential"
    assert parse_member("/opt/x/depqbf/compact").options == {"solver": "/opt/x/depqbf",
                                                             "encoding": "compact"}
    with pytest.raises(ValueError, match="unknown axis 'both'"):
        parse_member("caqe/compact/both=binary")
    with pytest.raises(SolverError, match="member nosuch/enumerated: unknown QBF solver"):
        members_of({"members": "caqe,nosuch"})
    with pytest.raises(ValueError, match="caqe/paper/attacker=onehot-ladder: encoding paper chooses"):
        members_of({"members": ["caqe/paper/attacker=onehot-ladder"]})


def test_the_first_verdict_wins_and_the_losers_leave_no_process(tmp_path):
    exe, pids = sleeper(tmp_path)
    gated = gated_depqbf(tmp_path, pids)
    got = portfolio(FIG6, 3, members=[exe, gated], jobs=2)
    assert got["status"] == "mate" and got["first_move"] in mating_moves(FIG6, 3)
    assert got["member"] == f"{gated}/enumerated" and got["engine"] == "portfolio"
    assert got["certificate"] == "checked"
    assert {m["member"]: m["status"] for m in got["members"]} == {
        f"{exe}/enumerated": "stopped", f"{gated}/enumerated": "mate"}
    running = sleeper_pids(pids)
    assert len(running) == 2  # the sleeping solver and its child, both started
    assert_all_dead(running)


def test_members_that_share_an_encoding_solve_one_formula(tmp_path):
    """Two members on one encoding started together: one encoder, one QDIMACS file that
    both solvers read, removed once they are done; the loser is killed."""
    seen = tmp_path / "seen"
    seen.mkdir()
    _, depqbf = find_solver("depqbf")
    solvers = []
    for name in ("sleeps", "answers"):  # each says what it reads, then waits for the other
        path = tmp_path / name
        path.write_text(f"""#!{sys.executable}
import os, sys, time
with open(os.path.join({str(seen)!r}, str(os.getpid())), "w") as fh:
    fh.write(sys.argv[-1])
while len(os.listdir({str(seen)!r})) < 2:
    time.sleep(0.01)
if sys.argv[0].endswith("answers"):
    os.execv({depqbf!r}, [{depqbf!r}, "--qdo", "--no-dynamic-nenofex", *sys.argv[1:]])
time.sleep(120)
""")
        path.chmod(0o755)
        solvers.append(f"{path}/dag-fold")
    got = portfolio(FIG6, 3, members=solvers, jobs=2)
    assert got["status"] == "mate" and got["first_move"] in mating_moves(FIG6, 3)
    assert got["member"] == solvers[1] and got["encoding"] == "dag-fold"
    assert {m["member"]: m["status"] for m in got["members"]} == {
        solvers[0]: "stopped", solvers[1]: "mate"}
    [formula] = {f.read_text() for f in seen.iterdir()}
    assert formula.endswith(".qdimacs") and not os.path.exists(formula)
    assert_all_dead([int(f.name) for f in seen.iterdir()])


def test_a_member_that_shares_an_encoding_and_fails_leaves_the_other_to_answer(tmp_path):
    ended = tmp_path / "ended"
    ended.mkdir()
    fails = tmp_path / "fails"  # says which process ran it (its member), then fails
    fails.write_text(f"""#!{sys.executable}
import os, sys
open(os.path.join({str(ended)!r}, str(os.getppid())), "w").close()
sys.exit(1)
""")
    fails.chmod(0o755)
    _, depqbf = find_solver("depqbf")
    waits = tmp_path / "waits"  # DepQBF once the failing member has ended
    waits.write_text(f"""#!{sys.executable}
import os, sys, time
def ended():
    for name in os.listdir({str(ended)!r}):
        try:
            return open(f"/proc/{{name}}/stat").read().split(") ")[-1][0] in "ZX"
        except OSError:
            return True
while not ended():
    time.sleep(0.01)
os.execv({depqbf!r}, [{depqbf!r}, "--qdo", "--no-dynamic-nenofex", *sys.argv[1:]])
""")
    waits.chmod(0o755)
    members = [f"{fails}/dag-fold", f"{waits}/dag-fold"]
    got = portfolio(FIG6, 3, members=members, jobs=2)
    assert got["status"] == "mate" and got["member"] == members[1]
    assert [(m["member"], m["status"]) for m in got["members"]] == [
        (members[0], "error"), (members[1], "mate")]


@pytest.mark.parametrize("shared", [False, True], ids=["own-encodings", "one-encoding"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_or_killed_portfolio_leaves_no_solver(tmp_path, signum, shared):
    exe, pids = sleeper(tmp_path)
    other = f"{exe}/compact"
    if shared:  # the same solver under another name, on the same encoding
        other = str(tmp_path / "sleeper2")
        shutil.copy(exe, other)
    proc = start("mate", FIG6, "--zone", "2", "-n", "3", "--engine", "portfolio",
                 "--members", f"{exe},{other}", "--jobs", "2")
    solvers = wait_for_pids(proc, pids, 2)
    assert len(solvers) == 4  # two members' solvers and their children
    proc.send_signal(signum)
    assert proc.wait(timeout=30) == (128 + signum if signum != signal.SIGKILL else -signum)
    assert_all_dead(solvers)


def test_a_member_without_a_verdict_makes_room_for_the_next(tmp_path):
    got = portfolio(FIG5, 1, members=["/bin/false", "depqbf/compact"], jobs=1)
    assert got["status"] == "mate" and got["member"] == "depqbf/compact"
    assert got["members"][0]["member"] == "/bin/false/enumerated"
    assert got["members"][0]["status"] == "error"


def test_the_timeout_holds_for_the_whole_portfolio(tmp_path):
    exe, pids = sleeper(tmp_path)
    got = portfolio(FIG6, 3, timeout=2, members=[exe, f"{exe}/compact"], jobs=2)
    assert got["status"] == "unknown" and got["mate"] is None
    assert got["error"].startswith("no member decided")
    assert "timeout" in got["error"]
    assert got["time_s"] < 2 + STOP_S + 5  # generous: a loaded machine must not flake
    assert_all_dead(sleeper_pids(pids))


def test_members_still_at_work_when_the_portfolio_gives_up_are_stopped(tmp_path, monkeypatch):
    """Each member stops itself at the deadline; one that has not answered ``LATE_S``
    later (an encoder deep in a long call, a loaded machine) is stopped and said to be,
    with the phase it last told: two members that share an encoding, in their sleeping
    solvers, and one whose encoder sleeps (it starts sleeping once both solvers run, so
    that each member's phase at the stop is certain)."""
    monkeypatch.setattr(portfolio_module, "LATE_S", -3.0)  # give up before the members do
    exe, pids = sleeper(tmp_path)
    other = str(tmp_path / "sleeper2")
    shutil.copy(exe, other)
    encode = engine_module.encode

    def stuck(pos, n, name, **choices):
        if name != "compact":
            return encode(pos, n, name, **choices)
        while len(list(pids.iterdir())) < 2:
            time.sleep(0.01)
        time.sleep(120)
    monkeypatch.setattr(engine_module, "encode", stuck)
    got = portfolio(FIG6, 3, timeout=8, members=[exe, other, "depqbf/compact"], jobs=3)
    assert got["status"] == "unknown" and got["error"].startswith("no member decided")
    assert len(list(pids.iterdir())) == 2  # both sleeping solvers ran (generous: 5 s)
    assert {m["member"]: (m["status"], m["error"]) for m in got["members"]} == {
        f"{exe}/enumerated": ("unknown", "stopped at the portfolio's timeout while solving"),
        f"{other}/enumerated": ("unknown", "stopped at the portfolio's timeout while solving"),
        "depqbf/compact": ("unknown", "stopped at the portfolio's timeout while encoding")}
    assert "depqbf/compact: stopped at the portfolio's timeout while encoding" in got["error"]
    assert_all_dead(sleeper_pids(pids))


def test_the_memory_limit_is_shared_between_the_members_at_work(tmp_path):
    limits = tmp_path / "limits"
    limits.mkdir()
    probe = fake_solver(tmp_path, f"""
        import os, resource, sys, time
        with open(os.path.join({str(limits)!r}, str(os.getpid())), "w") as fh:
            fh.write(str(resource.getrlimit(resource.RLIMIT_AS)[0]))
        while len(os.listdir({str(limits)!r})) < 2:  # both members are at work
            time.sleep(0.01)
        sys.exit(20)
    """)
    got = portfolio(FIG6, 3, memory_mb=3000, members=[probe, f"{probe}/compact"], jobs=2)
    assert got["status"] == "nomate"  # the probe's word
    assert sorted(int(f.read_text()) for f in limits.iterdir()) == [1500 * 2**20] * 2
    # a limit this process keeps but half of it does not: each member stops at once
    memory = int(resident_mb() * 1.5)
    got = portfolio(FIG6, 3, memory_mb=memory, members=["depqbf", "rareqs/compact"], jobs=2)
    assert got["status"] == "unknown"
    assert f"memory limit while encoding ({memory // 2} MB)" in got["error"]
    # two members that share an encoding: its one encoder has their two shares
    got = portfolio(FIG6, 3, memory_mb=memory, members=["depqbf", "rareqs"], jobs=2)
    assert got["status"] == "mate", got["error"]


def test_a_lying_member_is_caught_under_certify(tmp_path):
    exe, pids = sleeper(tmp_path)
    liar = make_liar(tmp_path, "flip")
    for sfen, n, truth in ((FIG5, 1, True), (FIG6, 1, False), (FIG6, 3, True)):
        lied = portfolio(sfen, n, members=[liar, exe], jobs=2)
        assert lied["mate"] is (not truth) and lied["member"] == f"{liar}/enumerated"
        caught = portfolio(sfen, n, members=[liar, exe], jobs=2, certify=True)
        assert caught["status"] == "error" and caught["mate"] is None
        assert caught["error"].startswith(f"{liar}/enumerated: certificate failed at ")
    assert_all_dead(sleeper_pids(pids))


def test_agreement_with_brute_force_on_generated_questions():
    questions = question_set(seed=41, count=10, sizes=[(3, 3), (4, 4)], plies=[1, 3])
    for q in questions:
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        want = ReferenceSolver().mating_moves(pos, q["n"])
        got = run_engine("portfolio", pos, q["n"], 60, {"jobs": 2, "certify": True})
        assert got.status.decided, got
        assert got.verdict is bool(want), (q, got)
        assert got.certification.certified is True
        if want:
            assert got.first_move in [pos.usi(m) for m in want]


def test_deepen_asks_each_length_of_the_portfolio():
    got = portfolio(FIG6, 5, deepen=True, jobs=2)
    assert got["status"] == "mate" and got["mate_length"] == 3
    assert [a["status"] for a in got["deepened"]] == ["nomate", "mate"]


def test_cli_names_the_member_that_answered(capsys):
    assert main(["mate", FIG6, "--zone", "2", "-n", "3", "--engine", "portfolio",
                 "--members", "rareqs/compact", "--jobs", "1"]) == 0
    assert capsys.readouterr().out.startswith("mate within 3  [portfolio: rareqs/compact, ")
    assert main(["mate", FIG6, "--zone", "2", "-n", "3", "--engine", "portfolio", "--json",
                 "--members", "caqe/enumerated/attacker=onehot-seqcounter", "--certify"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["member"] == "caqe/enumerated/attacker=onehot-seqcounter"
    assert out["certified"] is True and out["engine"] == "portfolio"


def test_cli_bad_members_are_one_line(capsys):
    # bad input: exit 2, as docs/cli.md says
    assert main(["mate", FIG5, "--zone", "2", "-n", "1", "--engine", "portfolio",
                 "--members", "caqe,nosuch"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "portfolio member nosuch/enumerated: unknown QBF solver" in err[0]
    assert main(["mate", FIG5, "--zone", "2", "-n", "1", "--engine", "portfolio",
                 "--encoding", "compact"]) == 2
    assert "carry their own encoding" in capsys.readouterr().err
    assert main(["mate", FIG5, "--zone", "2", "-n", "1", "--engine", "portfolio",
                 "--jobs", "0"]) == 2
    assert "argument --jobs/-j: must be above 0" in capsys.readouterr().err
    for empty in ("", " , "):  # (the empty list ran the default members)
        assert main(["mate", FIG5, "--zone", "2", "-n", "1", "--engine", "portfolio",
                     "--members", empty]) == 2
        assert "the portfolio needs at least one member" in capsys.readouterr().err
    assert main(["mate", FIG5, "--zone", "2", "-n", "1", "--engine", "caqe", "--jobs", "2"]) == 2
    assert "--jobs sets the portfolio's members; engine 'caqe'" in capsys.readouterr().err


def test_batch_and_usi_use_the_portfolio(tmp_path):
    from tsumeqbf.usi.search import MateRequest, answer_mate

    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"id": "fig6", "sfen": FIG6, "n": 3, "zone": 2}) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(cases), "--engine", "portfolio", "--members", "depqbf,caqe",
                 "-o", str(out), "--quiet"]) == 0
    row = json.loads(out.read_text())
    assert row["status"] == "mate" and row["member"] in ("depqbf/enumerated", "caqe/enumerated")
    got = answer_mate(MateRequest("7k1/9/7G1/9/9/9/9/9/9 b G 1", engine="portfolio"),
                      lambda *a: None)
    assert got.status == "mate" and got.line == ("G*2b",)


def test_an_experiment_runs_the_portfolio(tmp_path):
    from test_experiments import cases_file, write_experiment
    from tsumeqbf.experiments.store import read_csv

    cases_file(tmp_path, [{"id": "fig6", "sfen": FIG6, "n": 3, "zone": 2}])
    path = write_experiment(tmp_path, """
        [limits]
        timeout = 30
        cpu_limit = 30
        memory_mb = 2048
        [[instances]]
        file = "cases.jsonl"
        [[engines]]
        engine = "portfolio"
        options = {members = ["depqbf/compact", "rareqs/enumerated"], jobs = 2}
        [report]
        kind = "agreement"
    """)
    assert main(["experiment", "run", str(path), "--quiet"]) == 0
    [row] = read_csv(tmp_path / "results" / "x.csv")
    assert row["engine"] == "portfolio" and row["status"] == "mate"
    assert '"memory_mb":2048' in row["key"]
    # the CPU limit counts per core: 2 members at once have twice a single solver's
    assert row["cpu_limit"] == 60 and '"cpu_limit":60' in row["key"]
    # the member that answered is a column; the members' CPU seconds are counted
    assert row["member"] in ("depqbf/compact", "rareqs/enumerated")
    assert row["solver"] == row["member"].split("/")[0] and row["solver_version"]
    assert row["cpu_s"] >= row["solver_cpu_s"] > 0


@pytest.mark.parametrize("shared", [False, True], ids=["own-encodings", "one-encoding"])
def test_the_cpu_limit_holds_for_all_members_together(tmp_path, shared):
    """An experiment cell under a CPU limit: two members whose solvers only burn CPU are
    stopped once their CPU seconds together reach the limit (each alone would be let run
    to the whole limit by its own RLIMIT_CPU), those seconds are the cell's, and no
    solver is left running."""
    from tsumeqbf.experiments.runner import run_cell

    pids = tmp_path / "pids"
    pids.mkdir()
    burner = fake_solver(tmp_path, f"""
        import os
        open(os.path.join({str(pids)!r}, str(os.getpid())), "w").close()
        while True:
            pass
    """)
    other = f"{burner}/compact"
    if shared:  # the same solver under another name, on the same encoding
        other = str(tmp_path / "burner2")
        shutil.copy(burner, other)
    limit = 4.0
    cell = {"key": "fig6|portfolio", "instance": "fig6", "sfen": FIG6, "n": 3, "zone": 2,
            "meta": "{}", "engine": "portfolio", "label": "portfolio", "timeout": 600,
            "options": {"members": [burner, other], "jobs": 2, "cpu_limit": limit}}
    row = run_cell(cell)
    assert row["status"] == "unknown" and row["mate"] is None
    assert row["error"].startswith("no member decided")
    assert row["error"].count("stopped at the portfolio's CPU limit") == 2
    assert row["cpu_limit"] == limit and row["member"] is None
    # both burned, together up to the limit: not each its own (8 CPU s), with room for
    # the readings' interval and the stop
    assert len(list(pids.iterdir())) == 2
    assert 0.9 * limit <= row["cpu_s"] < limit + 2.5
    assert row["solver_cpu_s"] >= 0.75 * limit  # the members' share: nearly all of it
    assert_all_dead([int(f.name) for f in pids.iterdir()])
