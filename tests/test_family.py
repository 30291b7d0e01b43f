"""Benchmark families (`tsumeqbf family SPEC -o DIR`): the files, their headers, index.csv,
the critical-depth pairs, byte-identical regeneration and SPECs refused in one line."""

import csv
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tsumeqbf.cli import main
from tsumeqbf.encoder.formula import read_qdimacs
import tsumeqbf.family as family_module
from tsumeqbf.family import build_family
from tsumeqbf.family.spec import load_spec, parse_spec
from tsumeqbf.family.truth import Disagreement, establish
from tsumeqbf.family.writer import INDEX_COLUMNS
from tsumeqbf.rules import Position, TsumeError
from tsumeqbf.rules.reference import mate_within

ROOT = Path(__file__).resolve().parent.parent
#: figure 6 of the paper: mate in 3, no mate in 1
FIG6 = {"id": "fig6", "sfen": "1k1/3/PG1 b - 1", "n": 5, "zone": 2}

SMALL = """
encodings = ["compact", "enumerated", "lifted", "paper"]
axes = ["binary/binary", "onehot-seqcounter/onehot-pairwise"]

[truth]
brute_max_nodes = 100000
dfpn_max_nodes = 100000

[[questions]]
file = "cases.jsonl"

[[questions]]
generate = { seed = 7, count = 2, sizes = [[3, 3]], plies = [3], attacker_hand = 0, defender_hand = 0 }
no_hands = true
"""


def small_spec(tmp_path: Path, text: str = SMALL) -> Path:
    (tmp_path / "cases.jsonl").write_text(json.dumps(FIG6) + "\n")
    spec = tmp_path / "small.toml"
    spec.write_text(text)
    return spec


def read_index(folder: Path) -> list[dict]:
    with open(folder / "index.csv", newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def family(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("family")
    spec = small_spec(tmp)
    out = tmp / "out"
    assert main(["family", str(spec), "-o", str(out), "--quiet"]) == 0
    return spec, out, read_index(out)


def test_index_columns_describe_each_file(family):
    _, out, rows = family
    with open(out / "index.csv", newline="") as fh:
        assert next(csv.reader(fh)) == list(INDEX_COLUMNS)
    files = sorted(p.name for p in out.iterdir() if p.name != "index.csv")
    assert sorted(r["file"] for r in rows) == files  # every file indexed, no leftovers
    for r in rows:
        data = (out / r["file"]).read_bytes()
        assert r["md5"] == hashlib.md5(data).hexdigest()
        body = b"".join(line for line in data.splitlines(keepends=True)
                        if not line.startswith((b"c ", b"# ")))
        assert r["md5_formula"] == hashlib.md5(body).hexdigest()
        assert r["file"] == f"{r['id']}.{r['format']}" and r["id"].endswith("-" + r["truth"])
        assert r["board"] == "3x3" and r["n"] in r["id"].split("-n")[-1]
        if r["format"] == "qdimacs":
            num_vars, prefix, clauses, _ = read_qdimacs(data.decode())
            assert (int(r["variables"]), int(r["clauses"]), int(r["blocks"]), r["gates"]) == \
                (num_vars, len(clauses), len(prefix), "")
        else:
            text = data.decode()
            assert int(r["gates"]) == text.count(" = ") and r["clauses"] == ""
            assert int(r["blocks"]) == sum(text.startswith(q, i) for q in ("exists(", "forall(")
                                           for i in [0] + [k + 1 for k, c in enumerate(text)
                                                           if c == "\n"])
    assert {r["encoding"] for r in rows} == {"compact", "enumerated", "lifted", "paper"}
    # paper only under the no-hands rules; lifted and paper have no one-hot defender axis
    assert all(r["rules"] == "no-hands" for r in rows if r["encoding"] == "paper")
    assert not [r for r in rows if r["encoding"] in ("lifted", "paper")
                and r["axes"] != "binary/binary"]
    assert {r["truth"] for r in rows} == {"true", "false"}


def test_every_truth_is_the_reference_answer_established_by_both_engines_and_the_check(family):
    _, _, rows = family
    for r in rows:
        pos = Position.from_sfen(r["sfen"], zone=int(r["zone"]), no_hands=r["rules"] == "no-hands")
        assert mate_within(pos, int(r["n"])) is (r["truth"] == "true"), r["file"]
        assert r["proven_by"] == "brute-force dfpn-rules strategy-check"


def test_a_mate_is_paired_at_its_critical_depth(family):
    _, _, rows = family
    fig6 = {(int(r["n"]), r["truth"]) for r in rows if r["question"] == "fig6"}
    # asked at 5 as given; shortest mate 3; 3 - 2 = 1 is false
    assert fig6 == {(5, "true"), (3, "true"), (1, "false")}


def test_the_header_says_what_the_formula_asks_and_how_its_truth_is_known(family):
    _, out, rows = family
    for r in rows:
        mark = "c " if r["format"] == "qdimacs" else "# "
        header = [line[2:] for line in (out / r["file"]).read_text().splitlines()
                  if line.startswith(mark)]
        fields = dict(part.split("=", 1) for line in header for part in line.split(" ")
                      if "=" in part and not line.startswith("sfen="))
        assert f"sfen={r['sfen']}" in header
        assert fields["encoding"] == r["encoding"] and fields["n"] == r["n"]
        assert fields["zone"] == r["zone"] and fields["board"] == r["board"]
        assert fields["rules"] == r["rules"]
        assert f"{fields['attacker-moves']}/{fields['defender-moves']}" == r["axes"]
        assert fields["used-kinds-only"] == "no"
        assert fields["tsumeqbf-version"] and fields["encoder-version"] == fields["version"]
        assert {"pysat", "cshogi", "python"} <= set(fields)
        assert fields["truth"] == r["truth"]
        assert header[-1] == f"proven-by={r['proven_by']}"


def test_encode_writes_the_same_header_and_the_same_formula(family, tmp_path, capsys):
    _, out, rows = family
    row = next(r for r in rows if r["question"] == "fig6" and r["n"] == "3"
               and r["encoding"] == "compact" and r["format"] == "qdimacs"
               and r["axes"] == "binary/binary")
    path = tmp_path / "e.qdimacs"
    assert main(["encode", row["sfen"], "--zone", row["zone"], "-n", "3", "--encoding",
                 "compact", "-o", str(path)]) == 0
    mine = path.read_text().splitlines()
    theirs = (out / row["file"]).read_text().splitlines()
    # the same lines but what encode does not know: the truth and who established it
    assert [x for x in mine if not x.startswith(("c truth=", "c proven-by="))] == \
        [x for x in theirs if not x.startswith(("c truth=", "c proven-by="))]
    assert "c truth=unknown" in mine and "c proven-by=none" in mine


def test_check_formula_reads_the_question_rules_and_axes_from_the_header(family, capsys):
    _, out, rows = family
    row = next(r for r in rows if r["rules"] == "no-hands" and r["encoding"] == "compact"
               and r["axes"] == "onehot-seqcounter/onehot-pairwise" and r["format"] == "qdimacs")
    assert main(["check-formula", str(out / row["file"])]) == 0  # no option given
    assert capsys.readouterr().out.startswith(f"proven {row['truth']}: compact, {row['sfen']} ")


def test_the_same_spec_writes_the_same_bytes(family, tmp_path):
    spec, out, _ = family
    again = tmp_path / "again"
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "tsumeqbf", "family", str(spec), "-o",
                           str(again), "--quiet"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    second = {p.name: p.read_bytes() for p in again.iterdir()}
    assert first.keys() == second.keys() and first == second


@pytest.mark.parametrize("text, words", [
    ("encodings = [\"compact\"]\n", "questions: missing"),
    ("encodings = [\"cnf\"]\n[[questions]]\ncollection = \"figures.jsonl\"\n",
     "unknown encoding 'cnf'"),
    ("encodings = [\"compact\"]\naxes = [\"binary\"]\n[[questions]]\ncollection = \"figures.jsonl\"\n",
     "not \"ATTACKER/DEFENDER\""),
    ("encodings = [\"compact\"]\naxes = [\"onehot-ladder/onehot-ladder\"]\n[[questions]]\n"
     "collection = \"figures.jsonl\"\n", "unknown defender move choice 'onehot-ladder'"),
    ("encodings = [\"compact\"]\nformat = [\"qcir\"]\n[[questions]]\ncollection = \"figures.jsonl\"\n",
     "unknown key 'format'"),
    ("encodings = [\"compact\"]\n[truth]\nmin_engines = 3\n[[questions]]\ncollection = \"figures.jsonl\"\n",
     "truth.min_engines"),
    ("encodings = [\"compact\"]\n[[questions]]\ncollection = \"nothing.csv\"\n",
     "not a file of tsumeqbf/data"),
    ("encodings = [\"compact\"]\n[[questions]]\nfile = \"absent.jsonl\"\n", "no such file"),
    ("encodings = [\"compact\"]\n[[questions]]\ncollection = \"figures.jsonl\"\nfile = \"x\"\n",
     "exactly one of"),
    ("encodings = [\"compact\"\n", "not valid TOML"),
    ("description = 3\nencodings = [\"compact\"]\n[[questions]]\ncollection = \"figures.jsonl\"\n",
     "description: must be a string"),
    # the generator's values, once a TypeError or "wrote 0 files"
    *((f"encodings = [\"compact\"]\n[[questions]]\ngenerate = {{{table}}}\n", words)
      for table, words in [
          ('seed = "x", count = 2', "generate.seed: must be an integer"),
          ("seed = 1, count = -1", "generate.count: must be an integer >= 1"),
          ("seed = 1, count = 2, sizes = [[0, 0]]", "generate.sizes: must be an integer >= 1"),
          ("seed = 1, count = 2, sizes = [[10, 3]]", "board 10x3 is outside"),
          ("seed = 1, count = 2, sizes = [3, 3]", "must be a list of [W, H] pairs"),
          ("seed = 1, count = 2, plies = [2]", "generate.plies: 2 is even"),
          ("seed = 1, count = 2, plies = [-1]", "generate.plies: must be an integer >= 1"),
          # (once a MemoryError: every depth up to it was listed for the search)
          ("seed = 1, count = 2, plies = [99999999999]",
           "generate.plies: 99999999999 is more than an encoding holds (at most 9999)"),
          ('seed = 1, count = 2, attacker_hand = "lots"', "generate.attacker_hand: must be"),
          # (once accepted: the questions are all made before the first is asked, and a
          # piece bound is a loop's length)
          ("seed = 1, count = 100001", "generate.count: must be at most 100,000"),
          ("seed = 9223372036854775808, count = 2", "generate.seed: must be at most"),
          ("seed = 1, count = 2, attacker_hand = 39", "generate.attacker_hand: must be at most 38"),
          ("seed = 1, count = 2, defender_pieces = 81", "generate.defender_pieces: must be at most 80")]),
])
def test_a_bad_spec_is_refused_in_one_line(tmp_path, capsys, text, words):
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    assert main(["family", str(spec), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("tsumeqbf: error: ") and words in err, err
    assert not (tmp_path / "out" / "index.csv").exists()


def test_a_missing_spec_is_one_line(tmp_path, capsys):
    assert main(["family", str(tmp_path / "none.toml"), "-o", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"tsumeqbf: error: {tmp_path / 'none.toml'}: no such SPEC file\n"


def test_a_spec_a_question_file_or_an_output_of_the_wrong_kind_is_one_line(tmp_path, capsys):
    folder = tmp_path / "folder"
    folder.mkdir()
    spec = small_spec(tmp_path, "encodings = [\"compact\"]\n[[questions]]\nfile = \"cases.jsonl\"\n")
    (tmp_path / "folder.toml").write_text(spec.read_text().replace("cases.jsonl", "folder"))
    (tmp_path / "big.jsonl").write_text(json.dumps({**FIG6, "n": 99999999999}) + "\n")
    (tmp_path / "big.toml").write_text(spec.read_text().replace("cases.jsonl", "big.jsonl"))
    for argv, words in [
            ([str(folder), "-o", str(tmp_path / "out")], f"{folder}: a folder, not a SPEC file"),
            ([str(tmp_path / "folder.toml"), "-o", str(tmp_path / "out")],
             f"{folder}: a folder, not a cases file"),
            ([str(tmp_path / "big.toml"), "-o", str(tmp_path / "out")],
             "question 'fig6' of file"),
            ([str(spec), "-o", str(spec)], f"{spec} is a file, not a folder")]:
        assert main(["family", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("tsumeqbf: error: ") and words in err, err
    assert not (tmp_path / "out" / "index.csv").exists()


def test_a_question_one_engine_does_not_answer_is_left_out_or_proven_by_one(tmp_path):
    spec_text = SMALL.replace("brute_max_nodes = 100000", "brute_max_nodes = 0")
    spec = load_spec(str(small_spec(tmp_path, spec_text)))
    report = build_family(spec, str(tmp_path / "two"))
    assert report.rows == [] and len(report.left_out) == 3  # fig6 and two generated
    one = parse_spec({"encodings": ["compact"], "formats": ["qdimacs"],
                      "truth": {"brute_max_nodes": 0, "min_engines": 1},
                      "questions": [{"file": "cases.jsonl"}]}, str(tmp_path))
    rows = build_family(one, str(tmp_path / "one")).rows
    assert {r["proven_by"] for r in rows} == {"dfpn-rules strategy-check"} and len(rows) == 3


def test_a_source_may_name_its_own_encodings(tmp_path):
    fig6_spec(tmp_path)  # writes cases.jsonl
    spec = parse_spec({"encodings": ["compact"], "formats": ["qdimacs"], "pairs": False,
                       "truth": {"strategy_check": False},
                       "questions": [{"file": "cases.jsonl", "encodings": ["lifted", "nested"]},
                                     {"file": "cases.jsonl", "prefix": "again-"}]},
                      str(tmp_path))
    rows = build_family(spec, str(tmp_path / "out")).rows
    # the second source asks the same formula under compact only
    assert [(r["question"], r["encoding"]) for r in rows] == [
        ("fig6", "lifted"), ("fig6", "nested"), ("again-fig6", "compact")]


def test_engines_that_disagree_stop_the_family(monkeypatch):
    import tsumeqbf.family.truth as truth
    from tsumeqbf.values import Status

    real = truth.run_engine

    def lying(engine, pos, n, options=None):
        out = real(engine, pos, n, options=options)
        if engine == "dfpn":
            out = out.replace(status=Status.of(not out.verdict), verdict=not out.verdict)
        return out

    monkeypatch.setattr(truth, "run_engine", lying)
    with pytest.raises(Disagreement, match="brute force says mate, df-pn"):
        establish(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1, 1000, 1000)


def fig6_spec(tmp_path, **truth):
    (tmp_path / "cases.jsonl").write_text(json.dumps({**FIG6, "n": 3}) + "\n")
    return parse_spec({"encodings": ["compact"], "pairs": False, "truth": truth,
                       "questions": [{"file": "cases.jsonl"}]}, str(tmp_path))


def test_without_the_strategy_check_proven_by_names_the_engines_alone(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "killed-n9-compact-true.qcir.part").write_text("#QCIR-G14\n")
    rows = build_family(fig6_spec(tmp_path, strategy_check=False), str(tmp_path / "out")).rows
    assert not [p for p in os.listdir(tmp_path / "out") if p.endswith(".part")]
    assert len(rows) == 2 and {r["proven_by"] for r in rows} == {"brute-force dfpn-rules"}
    assert (tmp_path / "out" / rows[0]["file"]).read_text().splitlines()[9] == \
        "c proven-by=brute-force dfpn-rules"


def test_a_file_the_check_does_not_prove_stops_the_family(tmp_path, monkeypatch):
    from tsumeqbf.solvers.formula_check import CheckFailed

    def failing(path, *args, **kwargs):
        assert path.endswith(".part") and os.path.exists(path)  # the very file, unnamed yet
        raise CheckFailed("the formula fails against the mating strategy", ["2c2b"])

    monkeypatch.setattr(family_module, "check_file", failing)
    with pytest.raises(TsumeError, match="fig6-n3-compact-true.qdimacs: the strategy check "
                                         "does not prove it: .*; line 2c2b"):
        build_family(fig6_spec(tmp_path), str(tmp_path / "out"))
    assert sorted(os.listdir(tmp_path / "out")) == []  # no file under its name, no .part


def test_a_file_the_check_leaves_undecided_does_not_claim_it(tmp_path, monkeypatch):
    from tsumeqbf.solvers.formula_check import CheckUnknown

    def undecided(*args, **kwargs):
        raise CheckUnknown("no strategy: node limit reached")

    monkeypatch.setattr(family_module, "check_file", undecided)
    rows = build_family(fig6_spec(tmp_path), str(tmp_path / "out")).rows
    assert {r["proven_by"] for r in rows} == {"brute-force dfpn-rules"}
    for r in rows:
        assert "strategy-check" not in (tmp_path / "out" / r["file"]).read_text()


def test_the_committed_family_index_follows_its_spec():
    # results/family/index.csv lists, in SPEC order, formulas of the SPEC's questions only,
    # each as QDIMACS and QCIR, both verdicts, every truth proven three ways
    from tsumeqbf.family.questions import spec_questions

    spec = load_spec(str(ROOT / "results" / "family" / "family.toml"))
    asked = {q["id"]: q for q in spec_questions(spec)}
    rows = read_index(ROOT / "results" / "family")
    order = list(dict.fromkeys(r["question"] for r in rows))
    assert order == [q for q in asked if q in order] and len(order) >= 200
    assert len(rows) >= 600 and {r["truth"] for r in rows} == {"true", "false"}
    assert {r["proven_by"] for r in rows} == {"brute-force dfpn-rules strategy-check"}
    for r in rows:
        q = asked[r["question"]]
        assert int(r["n"]) <= q["n"] and r["encoding"] in (q["encodings"] or spec.encodings)
        assert r["file"] == f"{r['id']}.{r['format']}"
    assert sum(r["format"] == "qcir" for r in rows) == sum(r["format"] == "qdimacs" for r in rows)


def test_only_the_command_line_imports_the_family_layer():
    import ast

    import tsumeqbf

    root = Path(tsumeqbf.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        rel = path.relative_to(root)
        if rel.parts[0] == "family" or rel.name == "cli.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            if any(n == "tsumeqbf.family" or n.startswith("tsumeqbf.family.")
                   or n == "family" or n.startswith("family.") for n in names):
                offenders.append(f"{rel}:{node.lineno}")
    assert offenders == []


def test_a_question_with_an_even_n_is_named(tmp_path, capsys):
    (tmp_path / "cases.jsonl").write_text('{"id": "q7", "sfen": "2k/3/1GP b - 1", "n": 2, "zone": 2}\n')
    spec = tmp_path / "spec.toml"
    spec.write_text('encodings = ["compact"]\n[[questions]]\nfile = "cases.jsonl"\n')
    assert main(["family", str(spec), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "question 'q7' of file" in err and "n must be an odd number" in err


TWO = [{**FIG6, "n": 3}, {"id": "g1", "sfen": "2k/3/1GP b - 1", "n": 1, "zone": 2}]
FAST = 'encodings = ["compact"]\nformats = ["qdimacs"]\npairs = false\n' \
       '[[questions]]\nfile = "cases.jsonl"\n'


def two_questions(tmp_path: Path, spec_text: str = FAST) -> Path:
    (tmp_path / "cases.jsonl").write_text("".join(json.dumps(q) + "\n" for q in TWO))
    spec = tmp_path / "spec.toml"
    spec.write_text(spec_text)
    return spec


def _signal_in_a_hard_sat_call(tmp_path: Path, sig, deadline: str) -> tuple:
    """``family`` on two questions whose second check is a hard SAT call (``deadline``: a
    Python expression, ``None`` or a time.monotonic() one), sent ``sig`` a second into
    that call: (exit code, standard error, seconds from the signal to the exit, out)."""
    import time

    spec = two_questions(tmp_path)
    out = tmp_path / "out"
    # the first file's check is the real one; the second's SAT call is in PySAT's C code
    # when the signal comes
    script = (
        "import sys, time\n"
        "import tsumeqbf.family as family\n"
        "from pysat.examples.genhard import PHP\n"
        "from tsumeqbf.solvers.formula_check.sat import solve_cnf\n"
        "real, calls = family.check_file, []\n"
        "def check(*args, **kwargs):\n"
        "    calls.append(args)\n"
        "    if len(calls) == 1:\n"
        "        return real(*args, **kwargs)\n"
        "    clauses = PHP(12).clauses\n"
        "    print('SAT call', file=sys.stderr, flush=True)\n"
        f"    solve_cnf(clauses, {deadline})\n"
        "    raise AssertionError('the hard SAT call returned')\n"
        "family.check_file = check\n"
        "from tsumeqbf.cli import main\n"
        f"sys.exit(main(['family', {str(spec)!r}, '-o', {str(out)!r}, '--quiet']))\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stderr.readline() == "SAT call\n"
    time.sleep(1.0)
    start = time.monotonic()
    proc.send_signal(sig)
    try:
        err = proc.stderr.read()
        proc.wait(timeout=20)
    finally:
        proc.kill()
    return proc.returncode, err, time.monotonic() - start, out


def test_ctrl_c_in_the_strategy_checks_sat_call_is_an_interrupt(tmp_path):
    import signal

    code, err, _, out = _signal_in_a_hard_sat_call(tmp_path, signal.SIGINT, "None")
    assert code == 130, err
    assert err == "tsumeqbf: interrupted\n"
    # the finished question kept, indexed; nothing of the interrupted one
    assert sorted(os.listdir(out)) == ["fig6-n3-compact-true.qdimacs", "index.csv"]
    assert [r["file"] for r in read_index(out)] == ["fig6-n3-compact-true.qdimacs"]


def test_sigterm_in_a_sat_call_under_a_deadline_stops_at_once(tmp_path):
    import signal

    # under a deadline (check-formula --timeout's: Glucose, which PySAT can interrupt);
    # SIGTERM once waited for the deadline
    code, err, seconds, out = _signal_in_a_hard_sat_call(tmp_path, signal.SIGTERM,
                                                         "time.monotonic() + 40")
    assert code == 143 and seconds < 20, err
    assert err == "tsumeqbf: stopped by SIGTERM\n"
    assert [r["file"] for r in read_index(out)] == ["fig6-n3-compact-true.qdimacs"]


def test_a_folder_that_holds_a_family_needs_overwrite_which_removes_its_files_alone(
        tmp_path, capsys):
    spec = two_questions(tmp_path)
    out = tmp_path / "out"
    assert main(["family", str(spec), "-o", str(out), "--quiet"]) == 0
    first = sorted(os.listdir(out))
    mine = {"notes.txt": "mine", "backup.part": "mine too", "old.qdimacs": "c not indexed\n"}
    for name, text in mine.items():
        (out / name).write_text(text)
    capsys.readouterr()
    assert main(["family", str(spec), "-o", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds a family" in err and "--overwrite" in err
    # a SPEC asking only the first question: with --overwrite, the second's file goes
    (tmp_path / "cases.jsonl").write_text(json.dumps(TWO[0]) + "\n")
    (out / "fig6-n3-compact-true.qdimacs.part").write_text("left by a kill")
    assert main(["family", str(spec), "-o", str(out), "--quiet", "--overwrite"]) == 0
    assert sorted(os.listdir(out)) == sorted(["fig6-n3-compact-true.qdimacs", "index.csv",
                                              *mine])
    assert len(first) == 3 and "g1-n1-compact-true.qdimacs" in first
    for name, text in mine.items():
        assert (out / name).read_text() == text


def test_overwrite_removes_nothing_when_the_index_is_not_a_familys(tmp_path, capsys):
    spec = two_questions(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.csv").write_text("file\nnotes.txt\n")
    (out / "notes.txt").write_text("mine")
    assert main(["family", str(spec), "-o", str(out), "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not removed" in err
    assert sorted(os.listdir(out)) == ["index.csv", "notes.txt"]


def test_spec_ids_match_a_files_ids_as_text(tmp_path, capsys):
    (tmp_path / "cases.jsonl").write_text(
        json.dumps({**FIG6, "id": 7, "n": 3}) + "\n" + json.dumps({**TWO[1], "id": "007"}) + "\n")
    spec = tmp_path / "spec.toml"
    spec.write_text(FAST + 'ids = ["7"]\n')
    assert main(["family", str(spec), "-o", str(tmp_path / "a"), "--quiet"]) == 0
    assert [r["question"] for r in read_index(tmp_path / "a")] == ["7"]
    spec.write_text(FAST + 'ids = ["007"]\n')
    assert main(["family", str(spec), "-o", str(tmp_path / "b"), "--quiet"]) == 0
    assert [r["question"] for r in read_index(tmp_path / "b")] == ["007"]
    spec.write_text(FAST + 'ids = ["07"]\n')
    assert main(["family", str(spec), "-o", str(tmp_path / "c"), "--quiet"]) == 2
    assert "no question '07'" in capsys.readouterr().err


@pytest.mark.parametrize("extra, words", [
    ("ids = []\n", "the SPEC asks no question"),
    ("[truth]\nbrute_max_nodes = 0\ndfpn_max_nodes = 0\n", "no formula written: all 2 "
     "questions left out (the first, fig6: fewer than 2 engine(s) answered"),
])
def test_an_empty_family_is_one_line(tmp_path, capsys, extra, words):
    spec = two_questions(tmp_path, FAST.replace("[[questions]]", extra + "[[questions]]")
                         if extra.startswith("[truth]") else FAST + extra)
    assert main(["family", str(spec), "-o", str(tmp_path / "out"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err
