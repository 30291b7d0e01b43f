"""The conventions of a Unix tool, command by command: --version, `-` for standard output,
--json, the exit statuses of docs/cli.md, limits above 0, a help text for every option."""

import argparse
import errno
import json
import os
import re
import stat
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from tsumeqbf import __version__
from tsumeqbf.cli import build_parser, main
from tsumeqbf.encoder.registry import VERSION
from tsumeqbf.solvers import SOLVERS, is_installed

FIG5 = "2k/3/1GP b - 1"  # mate in 1 with zone 2 (paper figure 5)
FIG6 = "1k1/3/PG1 b - 1"  # no mate in 1, mate in 3
ROOT = Path(__file__).resolve().parents[1]

needs_depqbf = pytest.mark.skipif(not is_installed("depqbf"), reason="DepQBF not installed")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _drain(fifo: Path) -> list:
    """A thread that reads the FIFO to its end; what it read, once joined, in the list."""
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    return reader, got


def test_encode_into_a_fifo_writes_through_and_never_removes_it(tmp_path, capsys, monkeypatch):
    # a device or a FIFO is written as standard output is: no sidecar beside it, and a
    # failed write leaves it in place (it once unlinked /dev/full)
    fifo = tmp_path / "formula.fifo"
    os.mkfifo(fifo)
    reader, got = _drain(fifo)
    code, out, _ = run(capsys, "encode", FIG5, "--zone", 2, "-n", 1, "-o", fifo)
    reader.join(10)
    assert code == 0 and out.startswith(f"wrote {fifo}")
    assert b"p cnf" in got[0]
    assert not (tmp_path / "formula.fifo.names.json").exists()

    def full_disk(*_):
        yield "c a first piece\n"
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr("tsumeqbf.encoder.command.qdimacs_pieces", full_disk)
    reader, _ = _drain(fifo)
    code, _, err = run(capsys, "encode", FIG5, "--zone", 2, "-n", 1, "-o", fifo)
    reader.join(10)
    assert code == 2 and "cannot write" in err and "No space left" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    # a regular file, by contrast, is not left half written
    plain = tmp_path / "formula.qdimacs"
    code, _, err = run(capsys, "encode", FIG5, "--zone", 2, "-n", 1, "-o", plain)
    assert code == 2 and not plain.exists() and not (tmp_path / "formula.qdimacs.names.json").exists()


def test_version_names_the_package_the_encoder_and_each_solver(capsys):
    code, out, err = run(capsys, "--version")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == f"tsumeqbf {__version__}"
    assert lines[1].startswith(f"encoder {VERSION}") and "paper: paper-2" in lines[1]
    assert [line.split(":")[0] for line in lines[2:]] == list(SOLVERS)
    for name, line in zip(SOLVERS, lines[2:]):
        assert ("sha256" in line) == is_installed(name)
    if is_installed("depqbf"):
        assert lines[2].startswith("depqbf: DepQBF ")


def test_version_from_the_installed_entry_point():
    proc = subprocess.run([sys.executable, "-m", "tsumeqbf", "--version"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("tsumeqbf ") and proc.stderr == ""


# -- `-` is standard output -------------------------------------------------------------

def test_encode_to_standard_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "encode", FIG5, "--zone", 2, "-n", 1, "-o", "-")
    assert code == 0
    assert out.startswith("c tsumeqbf encoding=enumerated") and "\np cnf " in out
    assert err.startswith("wrote standard output: ")
    assert list(tmp_path.iterdir()) == []  # no file named "-", no names sidecar
    code, out, err = run(capsys, "encode", FIG5, "--zone", 2, "-n", 1, "-o", "-", "--json",
                         "--format", "qcir")
    assert code == 0 and out.startswith("#QCIR-G14") and json.loads(err)["format"] == "qcir"


@needs_depqbf
def test_mate_strategy_to_standard_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "mate", FIG5, "--zone", 2, "-n", 1, "--engine", "depqbf",
                         "--strategy", "-")
    assert code == 0
    assert json.loads(out)["verdict"] == "mate"  # the tree alone
    assert err.startswith("mate within 1") and "certified:" in err
    assert list(tmp_path.iterdir()) == []


def test_solve_kif_to_standard_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "solve", FIG5, "--zone", 2, "--kif", "-", "--quiet")
    assert code == 0
    assert "まで1手で詰み" in out and "mate in" not in out
    assert err.startswith("mate in 1")
    assert list(tmp_path.iterdir()) == []


def test_check_formula_certificate_to_standard_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["encode", FIG5, "--zone", "2", "-n", "1", "-o", "f.qdimacs", "--quiet"]) == 0
    capsys.readouterr()
    code, out, err = run(capsys, "check-formula", "f.qdimacs", "--certificate", "-")
    assert code == 0
    assert json.loads(out)["formula_truth"] is True  # the certificate alone
    assert err.startswith("proven true: ")
    code, out, err = run(capsys, "check-formula", "f.qdimacs", "--aiger", "-")
    assert code == 0 and out.startswith("aag ") and err.startswith("proven true: ")
    assert run(capsys, "check-formula", "f.qdimacs", "--aiger", "-", "--certificate", "-")[0] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.qdimacs", "f.qdimacs.names.json"]


def test_a_checkpoint_cannot_be_standard_output(capsys):
    code, _, err = run(capsys, "solve", FIG5, "--zone", 2, "--checkpoint", "-")
    assert code == 2 and "not -" in err


# -- --json wherever a result is printed ------------------------------------------------

def test_show_json(capsys):
    code, out, _ = run(capsys, "show", FIG5, "--zone", 2, "--json")
    assert code == 0
    shown = json.loads(out)
    assert shown["sfen"] == FIG5 and shown["zone"] == 2
    checks = {m["usi"] for m in shown["moves"] if m["check"]}
    assert checks == {"1c1b", "1c1b+", "2c1b", "2c2b"} and len(shown["moves"]) == 6
    assert {"usi": "2c1b", "japanese": "▲１二金", "check": True} in shown["moves"]


def test_experiment_run_and_report_json(tmp_path, capsys):
    folder = tmp_path / "experiments"
    folder.mkdir()
    (folder / "cases.jsonl").write_text(json.dumps({"id": "fig5", "sfen": FIG5, "n": 1,
                                                    "zone": 2}) + "\n")
    (folder / "x.toml").write_text(textwrap.dedent("""
        title = "x"
        [[instances]]
        file = "cases.jsonl"
        [[engines]]
        engine = "brute"
        [report]
        kind = "agreement"
    """))
    code, out, _ = run(capsys, "experiment", "run", folder / "x.toml", "--quiet", "--json")
    assert code == 0
    assert json.loads(out) == {"experiment": "x", "counts": {"mate": 1, "shrunk": 0},
                               "csv": f"{tmp_path / 'results'}/x.csv"}
    code, out, _ = run(capsys, "experiment", "report", folder / "x.toml", "--no-plots", "--json")
    assert code == 0 and json.loads(out)["report"] == str(tmp_path / "results" / "x.md")


# -- exit statuses as docs/cli.md states them ---------------------------------------------

@pytest.mark.parametrize("argv, status", [
    (["mate", FIG5, "--zone", "2", "-n", "1"], 0),
    (["mate", FIG6, "--zone", "2", "-n", "1"], 0),  # no mate is an answer
    (["mate", FIG6, "--zone", "2", "-n", "3", "--max-nodes", "1"], 1),  # undecided
    (["mate", FIG5, "-n", "1", "--engine", "qbf", "--solver", "/no/such/solver"], 2),
    (["mate", FIG5, "-n", "1", "--engine", "nosuch"], 2),
    (["solve", FIG5, "--zone", "2", "--quiet"], 0),
    (["solve", FIG6, "--zone", "2", "--quiet", "--max-nodes", "1"], 1),
    (["solve", "zz", "--quiet"], 2),
    (["encode", FIG5, "--zone", "2", "-n", "1", "-o", "-"], 0),
    (["encode", FIG5, "--zone", "2", "-n", "1", "-o", "-", "--memory-mb", "1"], 1),
    (["encode", FIG5, "--zone", "2", "-n", "2", "-o", "-"], 2),
    (["show", FIG5, "--zone", "2"], 0),
    (["show", "zz"], 2),
    (["batch", "/no/such/cases.jsonl", "-o", "-"], 2),
    (["experiment", "run", "nosuch-experiment"], 2),
    (["experiment", "report", "nosuch-experiment"], 2),
    (["check-formula", "/no/such.qdimacs", "--sfen", FIG5, "-n", "1", "--encoding",
      "compact"], 2),
    (["family", "/no/such/spec.toml", "-o", "-"], 2),
    (["nosuch-command"], 2),
    ([], 2),
    (["--help"], 0),
    (["mate", "--help"], 0),
])
def test_exit_status(capsys, argv, status):
    code, _, err = run(capsys, *argv)
    assert code == status
    if status == 2:  # bad input: one line
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("tsumeqbf: error:"), err


def test_check_formula_exits_1_when_it_cannot_prove(tmp_path, capsys):
    formula = tmp_path / "f.qdimacs"
    assert main(["encode", FIG6, "--zone", "2", "-n", "3", "-o", str(formula), "--quiet"]) == 0
    capsys.readouterr()
    assert run(capsys, "check-formula", formula)[0] == 0
    code, out, err = run(capsys, "check-formula", formula, "--max-nodes", "1")
    assert code == 1 and out == "" and err.startswith("tsumeqbf: unknown: ")


def test_family_json(tmp_path, capsys):
    (tmp_path / "cases.jsonl").write_text(json.dumps({"id": "fig6", "sfen": FIG6, "n": 3,
                                                      "zone": 2}) + "\n")
    spec = tmp_path / "small.toml"
    spec.write_text('encodings = ["compact"]\n[[questions]]\nfile = "cases.jsonl"\n')
    code, out, _ = run(capsys, "family", spec, "-o", tmp_path / "out", "--quiet", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["index"] == f"{tmp_path / 'out'}/index.csv"
    assert summary["files"] == summary["true"] + summary["false"] > 0


def test_usi_exits_0_at_quit():
    proc = subprocess.run([sys.executable, "-m", "tsumeqbf", "usi"], input="usi\nquit\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "usiok" in proc.stdout


def test_batch_exits_0_whatever_its_cases_answer(tmp_path, capsys):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"id": "bad", "sfen": "zz", "n": 1}) + "\n"
                     + json.dumps({"id": "fig6", "sfen": FIG6, "n": 3, "zone": 2}) + "\n")
    code, out, _ = run(capsys, "batch", cases, "-o", "-", "--quiet", "--max-nodes", "1")
    assert code == 0
    assert sorted(json.loads(line)["status"] for line in out.splitlines()) == ["error", "unknown"]


@pytest.mark.parametrize("engine", ["qbf", "depqbf", "brute"])
def test_an_unknown_or_misplaced_solver_is_one_line_exit_2(tmp_path, capsys, engine):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps({"id": "fig5", "sfen": FIG5, "n": 1, "zone": 2}) + "\n")
    for argv in (["mate", FIG5, "--zone", "2", "-n", "1"], ["batch", cases, "-o", "-"]):
        code, out, err = run(capsys, *argv, "--engine", engine, "--solver", "nosuch")
        assert code == 2 and out == ""
        assert len(err.strip().splitlines()) == 1
        assert ("unknown QBF solver 'nosuch'" if engine == "qbf" else "engine qbf") in err


# -- limits of 0 or less are refused ---------------------------------------------------

LIMITED = {
    "mate": (["mate", FIG5, "-n", "1"], ["--timeout", "--memory-mb", "--max-nodes",
                                         "--certify-timeout", "--certify-nodes", "--cpu-limit",
                                         "--jobs"]),
    "batch": (["batch", "cases.jsonl", "-o", "-"], ["--timeout", "--memory-mb", "--max-nodes",
                                                     "--certify-timeout", "--jobs",
                                                     "--certify-nodes", "--cpu-limit"]),
    "encode": (["encode", FIG5, "-n", "1", "-o", "-"], ["--timeout", "--memory-mb"]),
    "check-formula": (["check-formula", "f.qdimacs"], ["--timeout", "--max-nodes",
                                                        "--max-lines"]),
    "solve": (["solve", FIG5], ["--timeout", "--max-nodes", "--checkpoint-every"]),
    "experiment": (["experiment", "run", "nosuch"], ["--jobs", "--repeat"]),
}


@pytest.mark.parametrize("command", LIMITED)
@pytest.mark.parametrize("value", ["0", "-3", "nan"])
def test_a_limit_of_0_or_less_is_refused_in_one_line(capsys, command, value):
    argv, options = LIMITED[command]
    for option in options:
        code, out, err = run(capsys, *argv, f"{option}={value}")
        assert code == 2 and out == ""
        lines = err.strip().splitlines()
        assert len(lines) == 1 and f"argument {option}" in lines[0], (option, err)


#: limits whose absence means a default, not no limit
WITH_DEFAULT = [
    (["mate", FIG5, "-n", "1", "--engine", "portfolio"], "--jobs"),
    (["mate", FIG5, "-n", "1", "--engine", "portfolio"], "-j"),
    (["batch", "cases.jsonl", "-o", "-"], "--jobs"),
    (["batch", "cases.jsonl", "-o", "-"], "-j"),
    (["experiment", "run", "nosuch"], "--jobs"),
    (["experiment", "run", "nosuch"], "-j"),
    (["experiment", "run", "nosuch"], "--repeat"),
    (["check-formula", "f.qdimacs"], "--max-lines"),
    (["solve", FIG5], "--checkpoint-every"),
    *((["family-score", "nosuch"], option)
      for option in ("--cpu-limit", "--memory-mb", "--jobs", "-j", "--every")),
]


@pytest.mark.parametrize("argv, option", WITH_DEFAULT)
def test_a_limit_with_a_default_takes_a_positive_integer_alone(capsys, argv, option):
    for value, why in (("0", "must be above 0 (leave the option out for its default)"),
                       ("-1", "must be above 0 (leave the option out for its default)"),
                       ("1.5", "not an integer: '1.5'"), ("abc", "not an integer: 'abc'")):
        code, out, err = run(capsys, *argv, option, value)
        lines = err.strip().splitlines()
        assert code == 2 and out == "" and len(lines) == 1, (option, value, err)
        assert lines[0].startswith("tsumeqbf: error: ") and why in lines[0], (option, value, err)


def test_certify_nodes_caps_the_certification_and_needs_certify(capsys):
    mate = ["mate", FIG5, "--zone", 2, "-n", 3, "--engine", "qbf", "--quiet"]
    code, out, err = run(capsys, *mate, "--certify-nodes", 5)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--certify-nodes" in err and "--certify" in err
    code, out, _ = run(capsys, *mate, "--certify", "--certify-nodes", 1)
    assert code == 0 and "not certified: too large (more than 1 strategy nodes)" in out
    code, out, _ = run(capsys, *mate, "--certify", "--certify-nodes", 1000)
    assert code == 0 and "certified: 2 strategy nodes" in out


def test_shorten_nodes_0_is_a_choice_not_a_limit(capsys):
    assert run(capsys, "solve", FIG5, "--zone", 2, "--shorten-nodes", 0, "--quiet")[0] == 0
    assert run(capsys, "solve", FIG5, "--zone", 2, "--shorten-nodes", -1)[0] == 2


# -- help -------------------------------------------------------------------------------

def _options(parser, path=("tsumeqbf",)):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _options(sub, (*path, name))
        elif not isinstance(action, argparse._HelpAction):
            yield " ".join(path), action


def test_every_option_has_a_help_text():
    missing = [f"{command} {'/'.join(action.option_strings) or action.dest}"
               for command, action in _options(build_parser()) if not action.help]
    assert missing == []


def _cli_doc() -> tuple[dict[str, str], str]:
    """docs/cli.md's synopsis, per command ("tsumeqbf mate", "tsumeqbf experiment run",
    "tsumeqbf" for --version), and its text after the synopsis."""
    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    start = doc.index("```sh\n") + len("```sh\n")
    block, body = doc[start:doc.index("```", start)], doc[doc.index("```", start):]
    synopsis, command = {}, None
    for line in block.splitlines():
        head = re.match(r"tsumeqbf(?: (?:experiment )?[a-z][\w-]*)?", line)
        if head:
            command = head.group(0)
        synopsis[command] = synopsis.get(command, "") + " " + line
    return synopsis, body


def _named(option: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


def test_every_option_is_in_the_synopsis_of_docs_cli_and_described_after_it():
    # -j, -o's --output and --out's --results were missing once; a new option must be
    # documented in the synopsis (every spelling) and in the text
    synopsis, body = _cli_doc()
    unlisted, undescribed, parser_options = [], [], {}
    for command, action in _options(build_parser()):
        if not action.option_strings:
            continue
        parser_options.setdefault(command, set()).update(action.option_strings)
        unlisted += [f"{command} {o}" for o in action.option_strings
                     if not _named(o, synopsis.get(command, ""))]
        if not any(_named(o, body) for o in action.option_strings):
            undescribed.append(f"{command} {action.option_strings[0]}")
    assert unlisted == [] and undescribed == []
    # and the synopsis names no option the command does not have
    stale = [f"{command} {o}" for command, text in synopsis.items()
             for o in re.findall(r"(?<![\w-])--?[a-zA-Z][\w-]*", text)
             if o not in parser_options.get(command, set())]
    assert stale == []


def test_the_certify_timeout_help_names_the_default_the_code_takes():
    # solvers/engine.py: options.get("certify_timeout", timeout)
    helps = [a.help for _, a in _options(build_parser()) if "--certify-timeout" in a.option_strings]
    assert len(helps) == 2 and all("default: the question's --timeout" in h for h in helps)


def test_no_number_option_is_taken_unchecked():
    # each of these is checked where it is used: -n odd and positive (the rules), --zone
    # within the board, --tt-entries at least 2 (solve), --mate-probe one of its choices;
    # every other number is a limit, typed by tsumeqbf.arguments
    plain = {action.option_strings[0] for _, action in _options(build_parser())
             if action.type in (int, float)}
    assert plain <= {"-n", "--zone", "--tt-entries", "--mate-probe"}


@pytest.mark.parametrize("argv", [["mate", FIG5, "-n", "1", "--zone", "0"],
                                  ["solve", FIG5, "--tt-entries", "0"]])
def test_the_numbers_checked_where_used_are_refused_in_one_line(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


@needs_depqbf
def test_a_memory_limit_past_what_the_kernel_holds_is_no_limit(capsys):
    # RLIMIT_AS takes a signed 64-bit count of bytes: more failed in the solver's start
    code, out, _ = run(capsys, "mate", FIG5, "--zone", 2, "-n", 1, "--engine", "depqbf",
                       "--memory-mb", 17592186044415)
    assert code == 0 and out.startswith("mate within 1")


@pytest.mark.parametrize("argv", [
    ["mate", FIG5, "--zone", "2", "-n", "1", "--engine", "brute", "--strategy", "{dir}"],
    ["encode", FIG5, "--zone", "2", "-n", "1", "-o", "{dir}"],
    ["solve", FIG5, "--zone", "2", "--kif", "{dir}/no/such/x.kif"],
    ["batch", "cases.jsonl", "-o", "{dir}"],
    ["check-formula", "f.qdimacs", "--certificate", "{dir}"],
])
def test_a_file_to_write_that_is_a_folder_is_refused_before_the_work(tmp_path, capsys, argv):
    # `mate --strategy DIR` once solved, then failed to write and lost the answer
    code, out, err = run(capsys, *[a.format(dir=tmp_path) for a in argv])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "is a folder: name a file in it" in err or "no folder" in err


def test_a_closed_standard_output_is_an_error_not_a_lost_answer():
    # with fd 1 closed Python has no sys.stdout, and print() wrote the answer nowhere
    done = subprocess.run(f"{sys.executable} -m tsumeqbf mate '{FIG5}' --zone 2 -n 1 >&-",
                          shell=True, capture_output=False, stderr=subprocess.PIPE, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 2 and done.stderr == "tsumeqbf: error: standard output is closed\n"


def test_an_unknown_option_before_the_command_is_named(capsys):
    # argparse said only "the following arguments are required: command"
    assert main(["--bogus", "mate"]) == 2
    assert capsys.readouterr().err == ("tsumeqbf: error: unrecognized option --bogus: a command "
                                       "comes first\n")
