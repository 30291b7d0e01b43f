"""Progress on stderr: a tqdm bar on a terminal, plain lines at a modest rate in a log."""

import io
import json

import tsumeqbf.progress as progress_module
from tsumeqbf.cli import main
from tsumeqbf.progress import Progress

FIG5 = "2k/3/1GP b - 1"


class Terminal(io.StringIO):
    def isatty(self):
        return True


def ticks(step=1.0):
    """A clock that moves ``step`` seconds each time it is read."""
    now = [0.0]

    def clock():
        now[0] += step
        return now[0]
    return clock


def test_a_log_gets_a_line_per_tenth_and_the_last():
    log = io.StringIO()
    with Progress("[x] cells", 100, unit="cell", file=log, clock=ticks()) as p:
        for i in range(100):
            p.update(running=2, failed=i // 50)
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue() and len(lines) == 10
    assert lines[0].startswith("[x] cells:  10% 10/100 [") and lines[0].endswith("running=2, failed=0]")
    assert lines[-1].startswith("[x] cells: 100% 100/100 [") and lines[-1].endswith("failed=1]")


def test_a_resumed_run_counts_from_where_it_was_and_rates_only_this_run():
    log = io.StringIO()
    with Progress("[x] cells", 30, initial=20, unit="cell", file=log, clock=ticks(2.0)) as p:
        for _ in range(10):
            p.update()
    lines = log.getvalue().splitlines()
    assert lines[0].startswith("[x] cells:  70% 21/30 [")
    assert lines[0].endswith("<00:18,  2.00s/cell]")  # 9 left at this run's 2 s a cell
    assert len(lines) == 10


def test_a_long_quiet_stretch_in_a_log_still_gets_a_line(monkeypatch):
    monkeypatch.setattr(progress_module, "LOG_EVERY_S", 60.0)
    log = io.StringIO()
    with Progress("batch", 1000, unit="case", file=log, clock=ticks(30.0)) as p:
        for _ in range(5):
            p.update()
    # a tenth is 100 cases; 30 s a case gives a line every other case (60 s) instead
    assert [line.split()[2] for line in log.getvalue().splitlines()] == ["2/1000", "4/1000"]


def test_a_terminal_gets_a_bar_redrawn_in_place():
    tty = Terminal()
    with Progress("[x] cells", 4, unit="cell", file=tty) as p:
        for _ in range(4):
            p.update(failed=0)
    text = tty.getvalue()
    assert "\r" in text and "4/4" in text and "100%|" in text and "failed=0" in text


def test_disabled_shows_nothing():
    for stream in (io.StringIO(), Terminal()):
        with Progress("[x] cells", 3, file=stream, enabled=False) as p:
            for _ in range(3):
                p.update()
        assert stream.getvalue() == ""


def test_batch_progress_in_a_log_is_plain_lines(tmp_path, capsys):
    cases, out = tmp_path / "cases.jsonl", tmp_path / "out.jsonl"
    cases.write_text("".join(json.dumps({"id": f"c{i}", "sfen": FIG5, "n": 1, "zone": 2}) + "\n"
                             for i in range(3)))
    assert main(["batch", str(cases), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err
    assert err.splitlines()[-1].startswith("batch: 100% 3/3 [") and err.endswith("mate=3]\n")


def test_experiment_progress_in_a_log_is_plain_lines(tmp_path, capsys):
    folder = tmp_path / "experiments"
    folder.mkdir()
    (folder / "cases.jsonl").write_text(json.dumps({"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2}) + "\n")
    (folder / "x.toml").write_text('[[instances]]\nfile = "cases.jsonl"\n[[engines]]\nengine = "brute"\n'
                                   '[[engines]]\nengine = "dfpn"\n[report]\nkind = "agreement"\n')
    assert main(["experiment", "run", str(folder / "x.toml")]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err
    *lines, summary = err.splitlines()  # the command's own summary comes last
    assert lines and all(line.startswith("[x] cells: ") for line in lines)
    assert lines[-1].startswith("[x] cells: 100% 2/2 [") and lines[-1].endswith("running=0, failed=0]")
    assert summary.startswith("x: mate 2")


def test_a_count_without_an_end_logs_every_step_it_crosses():
    # solve's nodes: the search reports every 100,000 nodes, the log has a line a million
    log = io.StringIO()
    with Progress("solve", None, unit="node", file=log, clock=ticks(), log_step=1_000_000) as p:
        for nodes in range(100_000, 3_100_000, 100_000):
            p.advance_to(nodes, root="3/5")
    lines = log.getvalue().splitlines()
    assert len(lines) == 3 and "\r" not in log.getvalue()
    assert lines[0].startswith("solve: 1000000 nodes [") and lines[0].endswith("root=3/5]")


def test_solve_shows_no_progress_when_quiet(capsys):
    assert main(["solve", FIG5, "--zone", "2", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_a_phase_is_noted_only_once_it_has_lasted():
    import time

    log = io.StringIO()
    with Progress("solve", None, unit="node", file=log) as p:
        p.phase("quick", after_s=0.5)
        p.phase("slow", after_s=0.05)  # ends the quick one before it is noted
        waited = time.monotonic() + 10
        while not log.getvalue() and time.monotonic() < waited:
            time.sleep(0.01)
        p.phase("at the end", after_s=5)  # the end comes first
    assert log.getvalue() == "slow\n"
    quiet = io.StringIO()
    with Progress("solve", None, file=quiet, enabled=False) as p:
        p.phase("nothing", after_s=0.01)
        time.sleep(0.1)
    assert quiet.getvalue() == ""
