"""The strategy check: a written formula's truth value proven by SAT calls from a brute-force
or df-pn strategy, for every encoding, both verdicts, QDIMACS and QCIR; a formula built
with a legality rule left out is caught."""

import json

import pytest

from tsumeqbf.cli import main
from tsumeqbf.encoder import facts
from tsumeqbf.encoder.formula import neg
from tsumeqbf.encoder.registry import encode
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.pieces import PAWN
from tsumeqbf.rules.reference import mate_within
from tsumeqbf.solvers.formula_check import (CheckFailed, check_aiger, check_file, choice_code,
                                            write_aiger, write_formula)

MATE = ("2k/3/1GP b - 1", 2)  # mate in 1 (and so within 3)
NO_MATE = [("2k/3/G2 b - 1", 2), ("1k1/3/1P1 b - 1", 2)]
#: the grounded encodings are slow to check at 3 plies (100 s on 4x4): 1 ply for them
PLIES = {"paper": 1, "paper-hands": 1}
ENCODINGS = ["compact", "nested", "enumerated", "mating", "lifted", "lifted-nested", "paper-hands",
             "paper"]


def _check(tmp_path, pos, n, encoding, fmt, **choices):
    path = str(tmp_path / f"f.{fmt}")
    write_formula(encode(pos, n, encoding, **choices), path)
    return check_file(path, pos, n, encoding, choices=choices)


@pytest.mark.parametrize("fmt", ["qcir", "qdimacs"])
@pytest.mark.parametrize("encoding", ["lifted", "lifted-nested"])
def test_a_lifted_drop_is_read_whatever_its_promote_bit(tmp_path, fmt, encoding):
    # lifted accepts a drop with either promote bit and drops the same piece: the
    # defender's interposition G*2a at ply 2 must be read by its fields alone, else the
    # other code of that drop meets no move of the strategy and the check is not proven
    pos = Position.from_sfen("2k/+R1p/3 b GLrg 1", zone=1)
    assert _check(tmp_path, pos, 3, encoding, fmt).truth is True
    choice = encode(pos, 3, encoding).formula.choices["m2"]
    after = pos.copy()
    after.push(after.parse_usi("3b3a"))
    drop = after.parse_usi("G*2a")
    assert choice.promote in choice_code(choice, after, drop)  # what the defender sets
    assert choice.promote not in choice_code(choice, after, drop, reading=True)


def _position(sfen, zone, encoding):
    pos = Position.from_sfen(sfen, zone=zone)
    return pos.with_no_hands() if encoding == "paper" else pos


@pytest.mark.parametrize("fmt", ["qcir", "qdimacs"])
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_both_verdicts_are_proven_for_every_encoding(tmp_path, encoding, fmt):
    n = PLIES.get(encoding, 3)
    pos = _position(*MATE, encoding)
    assert mate_within(pos, n)
    result = _check(tmp_path, pos, n, encoding, fmt)
    assert result.truth is True and result.fmt == fmt
    for sfen, zone in NO_MATE[:1] if encoding in PLIES else NO_MATE:
        pos = _position(sfen, zone, encoding)
        assert not mate_within(pos, n)
        assert _check(tmp_path, pos, n, encoding, fmt).truth is False


@pytest.mark.parametrize("encoding,choices", [
    ("compact", {"attacker_moves": "onehot-seqcounter"}),
    ("enumerated", {"attacker_moves": "onehot-totalizer", "defender_moves": "onehot-sequential"}),
    ("nested", {"defender_moves": "onehot-pairwise"}),
    ("lifted", {"attacker_moves": "onehot-ladder"}),
])
def test_the_move_choice_axes_are_proven(tmp_path, encoding, choices):
    for sfen, zone in [MATE, *NO_MATE]:
        pos = Position.from_sfen(sfen, zone=zone)
        for fmt in ("qcir", "qdimacs"):
            assert _check(tmp_path, pos, 3, encoding, fmt, **choices).truth == mate_within(pos, 3)


def _pawn_drop_questions():
    """Generated questions where the attacker and the defender hold pawns (witness replies
    and named escapes are needed)."""
    out = []
    for q in question_set(77, 60, sizes=[(3, 3), (4, 4)], plies=[3], attacker_king=True,
                          attacker_hand=4, defender_hand=3):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        if pos.hands[0][PAWN] or pos.hands[1][PAWN]:
            out.append((pos, q["n"]))
    return out[:8]


@pytest.mark.parametrize("encoding", ["compact", "nested", "enumerated", "mating", "lifted"])
def test_questions_with_pawn_drops_are_proven(tmp_path, encoding):
    questions = _pawn_drop_questions()
    verdicts = set()
    for pos, n in questions:
        truth = mate_within(pos, n)
        verdicts.add(truth)
        assert _check(tmp_path, pos, n, encoding, "qcir").truth == truth, pos.sfen()
    assert len(questions) >= 6 and verdicts == {True, False}


def _no_path_blocking(orig):
    def valid(self, st, m, c):  # a slide may jump over pieces: one rule left out
        if m.frm >= 0:
            return self.f.and_([st.piece(m.frm, m.code), neg(self.own(st, m.to, c))])
        return orig(self, st, m, c)
    return valid


#: no mate within 3; with sliders allowed to jump the dragon's 4c2c checks, and a
#: QBF solver (DepQBF) finds that broken compact formula true
BROKEN = ("1p2/4/+RG1k/2P1 b LP 1", 2, 3)


@pytest.mark.parametrize("fmt", ["qcir", "qdimacs"])
@pytest.mark.parametrize("encoding", ["compact", "nested", "enumerated", "lifted"])
def test_a_formula_with_a_legality_rule_left_out_is_caught(tmp_path, monkeypatch, encoding, fmt):
    sfen, zone, n = BROKEN
    pos = Position.from_sfen(sfen, zone=zone)
    assert not mate_within(pos, n)
    path = str(tmp_path / f"f.{fmt}")
    with monkeypatch.context() as m:
        m.setattr(facts.Rules, "valid", _no_path_blocking(facts.Rules.valid))
        write_formula(encode(pos, n, encoding), path)
        with pytest.raises(CheckFailed) as exc:
            check_file(path, pos, n, encoding)
    assert "4c2c, which is no legal check" in str(exc.value)
    assert _check(tmp_path, pos, n, encoding, fmt).truth is False  # the rules restored


def test_a_dfpn_strategy_proves_too(tmp_path):
    pos = Position.from_sfen(*MATE[:1], zone=MATE[1])
    path = str(tmp_path / "f.qcir")
    write_formula(encode(pos, 3, "lifted"), path)
    assert check_file(path, pos, 3, "lifted", strategy="dfpn").strategy == "dfpn"


def test_check_formula_command(tmp_path, capsys, monkeypatch):
    out = str(tmp_path / "m.qcir")
    assert main(["encode", MATE[0], "--zone", "2", "-n", "3", "--encoding", "compact",
                 "--format", "qcir", "-o", out]) == 0
    capsys.readouterr()
    cert = str(tmp_path / "m.cert.json")
    assert main(["check-formula", out, "--certificate", cert]) == 0  # the question from the sidecar
    line = capsys.readouterr().out.strip()
    assert line.startswith("proven true: compact, 2k/3/1GP b - 1 n=3 (QCIR")
    assert json.load(open(cert))["formula_truth"] is True

    sfen, zone, n = BROKEN
    bad = str(tmp_path / "b.qdimacs")
    with monkeypatch.context() as m:
        m.setattr(facts.Rules, "valid", _no_path_blocking(facts.Rules.valid))
        assert main(["encode", sfen, "--zone", str(zone), "-n", str(n), "--encoding",
                     "enumerated", "-o", bad]) == 0
    capsys.readouterr()
    assert main(["check-formula", bad]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"tsumeqbf: not proven: enumerated, {sfen} n=3: ")
    assert "line L*1d 1c1d (ply 3: 4c2c, which is no legal check)" in err[0]

    assert main(["check-formula", bad, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["line"][:2] == ["L*1d", "1c1d"]
    assert main(["check-formula", out, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["truth"] is True

    assert main(["check-formula", str(tmp_path / "missing.qcir")]) == 2
    assert "missing.qcir" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["qcir", "qdimacs"])
@pytest.mark.parametrize("encoding", ["compact", "nested", "lifted", "enumerated"])
def test_the_aiger_certificate_proves_the_formula_alone(tmp_path, encoding, fmt):
    for sfen, zone in [MATE, *NO_MATE]:
        pos = Position.from_sfen(sfen, zone=zone)
        result = _check(tmp_path, pos, 3, encoding, fmt)
        aag = str(tmp_path / "f.aag")
        write_aiger(result, aag)
        assert check_aiger(str(tmp_path / f"f.{fmt}"), aag) is result.truth


def test_a_forged_aiger_certificate_is_refused(tmp_path):
    pos = Position.from_sfen(*MATE[:1], zone=MATE[1])
    result = _check(tmp_path, pos, 3, "compact", "qdimacs")
    aag = str(tmp_path / "f.aag")
    write_aiger(result, aag)
    rows = open(aag).read().split("\n")
    _, m, i, _, o, a = rows[0].split()
    outputs = range(1 + int(i), 1 + int(i) + int(o))
    assert any(rows[k] != "0" for k in outputs)
    for k in outputs:  # every existential false: no move chosen
        rows[k] = "0"
    open(aag, "w").write("\n".join(rows))
    with pytest.raises(CheckFailed):
        check_aiger(str(tmp_path / "f.qdimacs"), aag)


def test_check_formula_writes_and_verifies_an_aiger_certificate(tmp_path, capsys):
    out = str(tmp_path / "n.qdimacs")
    assert main(["encode", NO_MATE[1][0], "--zone", "2", "-n", "3", "--encoding", "nested",
                 "-o", out]) == 0
    aag = str(tmp_path / "n.aag")
    assert main(["check-formula", out, "--aiger", aag]) == 0
    capsys.readouterr()
    assert main(["check-formula", out, "--verify-aiger", aag]) == 0
    assert capsys.readouterr().out.startswith(f"proven false: {out} by the certificate")


def test_a_problem_line_that_declares_far_more_variables_than_used_is_read(tmp_path):
    # new variables are numbered past those the formula uses: 2^31 declared once made
    # the SAT solver allocate for all of them (the memory filled); the child's address
    # space is bounded so that such a regression fails here rather than the machine
    import resource
    import subprocess
    import sys

    written = tmp_path / "f.qdimacs"
    assert main(["encode", "2k/3/1GP b - 1", "--zone", "2", "-n", "1", "-o", str(written),
                 "--quiet"]) == 0
    lines = written.read_text().splitlines()
    p_line = next(i for i, line in enumerate(lines) if line.startswith("p cnf"))
    lines[p_line] = f"p cnf {2 ** 31} {lines[p_line].split()[3]}"
    written.write_text("\n".join(lines) + "\n")
    (tmp_path / "f.qdimacs.names.json").unlink()  # the question from the comments alone

    def bounded():
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    done = subprocess.run([sys.executable, "-m", "tsumeqbf", "check-formula", str(written)],
                          capture_output=True, text=True, preexec_fn=bounded, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("proven true"), done.stderr


def test_a_token_that_is_not_an_integer_is_one_line(tmp_path, capsys):
    written = tmp_path / "f.qdimacs"
    written.write_text("p cnf 2 1\ne 1 2 0\n1 x 0\n")
    assert main(["check-formula", str(written), "--sfen", "2k/3/1GP b - 1", "--zone", "2",
                 "-n", "1", "--encoding", "enumerated"]) == 2
    assert capsys.readouterr().err == f"tsumeqbf: error: {written}: line 3: 'x' is not an integer\n"


@pytest.mark.parametrize("edit, fragment", [
    (lambda lines, at: [lines[0].replace("G14", "G99")] + lines[1:], "line 1: not a QCIR-14 header"),
    (lambda lines, at: lines[:at + 1] + [lines[at]] + lines[at + 1:], "quantified twice"),
    (lambda lines, at: lines + [lines[-1]], "defined twice"),
    (lambda lines, at: lines + [f"{10 ** 6} = and(99999)"], "99999 is neither a quantified variable"),
])
def test_a_qcir_file_the_encoder_would_not_write_is_refused(tmp_path, capsys, edit, fragment):
    # each was read as another formula than the file's (a second definition won, a free
    # variable was left free) and "proven"
    sfen, zone = MATE
    written = tmp_path / "f.qcir"
    write_formula(encode(Position.from_sfen(sfen, zone=zone), 1, "compact"), str(written))
    lines = written.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("exists("))
    written.write_text("\n".join(edit(lines, at)) + "\n")
    assert main(["check-formula", str(written)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tsumeqbf: error: {written}") and fragment in err, err


def test_check_formula_refuses_a_hopeless_n_and_encodes_within_its_timeout(tmp_path, capsys):
    sfen, zone = MATE
    written = tmp_path / "f.qdimacs"
    write_formula(encode(Position.from_sfen(sfen, zone=zone), 3, "compact"), str(written))
    assert main(["check-formula", str(written), "-n", str(10 ** 11 + 1)]) == 2
    assert "too large for a QBF encoding" in capsys.readouterr().err
    # (the question encoded again for 2001 plies would take minutes)
    assert main(["check-formula", str(written), "-n", "2001", "--timeout", "1"]) == 1
    assert "unknown: " in capsys.readouterr().err
