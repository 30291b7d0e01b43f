"""Certified QBF verdicts: the strategy behind a verdict, checked node by node by the rules.

Oracles in Python test the walk itself (a perfect one certifies, lying ones are caught);
lying solver executables (``liar_solver.py``) and a deliberately broken encoding test the
whole engine: every lie that changes a verdict must end as an error naming its node, and a
certified verdict must be the reference's.
"""

import json

import pytest

from liar_solver import make_liar
from tsumeqbf.cli import main
from tsumeqbf.data import read_jsonl
from tsumeqbf.engines import run_engine
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.reference import ReferenceSolver, mate_within
from tsumeqbf.solvers import is_installed
from tsumeqbf.solvers.certify import (Answer, CertificateFailure, CertificateIncomplete,
                                      certify)

FIGURES = read_jsonl("figures.jsonl")
SOLVERS = ("depqbf", "rareqs", "caqe", "qfun", "qute")
needs_solvers = pytest.mark.skipif(not is_installed("depqbf"), reason="pyqbf solvers not installed")


def questions(count, sizes=((3, 3), (4, 4)), plies=(1, 3), seed=77):
    return [(Position.from_sfen(q["sfen"], zone=q["zone"]), q["n"])
            for q in question_set(seed=seed, count=count, sizes=list(sizes), plies=list(plies))]


def truthful(pos, k):
    """A perfect solver without certificates."""
    return Answer(ReferenceSolver().mate(pos, k))


def with_moves(pos, k):
    """A perfect solver with certificates: the first mating move of the reference."""
    moves = ReferenceSolver().mating_moves(pos, k)
    return Answer(bool(moves), moves[0] if moves else None)


# -- the walk, with oracles -----------------------------------------------------------------

@pytest.mark.parametrize("oracle", [truthful, with_moves])
def test_a_perfect_solver_certifies_both_verdicts(oracle):
    seen = set()
    for pos, n in questions(40, plies=(1, 3, 5)):
        mate = mate_within(pos, n)
        cert = certify(pos, n, mate, oracle, root_move=None)
        assert cert.mate is mate and cert.nodes >= 1
        seen.add(mate)
        if mate:  # the main line is played out by the rules and ends in mate
            line = []
            for text in cert.main_line:
                m = pos.parse_usi(text)
                line.append(m)
                pos.push(m)
            assert pos.is_checkmate() and len(line) <= n
    assert seen == {True, False}


def test_a_flipped_verdict_is_caught_at_the_root_or_below():
    caught = 0
    for pos, n in questions(30, plies=(1, 3)):
        mate = mate_within(pos, n)
        with pytest.raises(CertificateFailure) as info:
            certify(pos, n, not mate, truthful)
        caught += 1
        assert "solver side" in str(info.value)
    assert caught == 30


def mate_in_3_not_1():
    return next((p, n) for p, n in questions(60, plies=(3,), seed=8)
                if mate_within(p, 3) and not mate_within(p, 1))


def test_a_lie_deep_in_the_tree_is_caught_and_named():
    pos, _ = mate_in_3_not_1()
    below_root = []

    def lies_below(sub, k):  # truthful at the root only, then "no mate" everywhere
        below_root.append(k)
        return Answer(False) if k < 3 else with_moves(sub, k)

    with pytest.raises(CertificateFailure) as info:
        certify(pos, 3, True, lies_below, root_move=with_moves(pos, 3).move)
    assert info.value.line  # the node is named by its moves from the root
    assert below_root


def test_a_move_that_is_not_a_legal_check_is_caught():
    pos = Position.from_sfen("2k/3/1GP b - 1", zone=2)
    quiet = next(m for m in pos.legal_moves() if m not in pos.checks())
    with pytest.raises(CertificateFailure, match="not a legal check"):
        certify(pos, 1, True, lambda sub, k: Answer(True, quiet), root_move=quiet)


def test_a_tree_too_large_or_unanswered_is_not_certified():
    pos, n = next((p, n) for p, n in questions(40, plies=(3,)) if not mate_within(p, n)
                  and len(p.checks()) > 1)
    with pytest.raises(CertificateIncomplete, match="too large"):
        certify(pos, n, False, truthful, max_nodes=1)
    with pytest.raises(CertificateIncomplete, match="timeout"):
        certify(pos, n, False, lambda sub, k: Answer(None, reason="timeout"))


# -- the engine, with real and lying solvers ----------------------------------------------

def certified(solver, pos, n, **options):
    """The certified answer as ``mate --json`` writes it."""
    return run_engine("qbf", pos, n, timeout=60,
                      options={"solver": solver, "certify": True, **options}).to_dict()


@needs_solvers
@pytest.mark.parametrize("solver", SOLVERS)
def test_every_solver_certifies_the_papers_figures_and_generated_questions(solver):
    cases = [(Position.from_sfen(f["sfen"], zone=f["zone"]), f["n"]) for f in FIGURES
             if f["width"] * f["height"] <= 16 and f["n"] <= 3]
    cases += questions(8, plies=(1, 3), seed=5)
    counts = {True: 0, False: 0}
    for pos, n in cases:
        got = certified(solver, pos, n)
        assert got["status"] in ("mate", "nomate", "unknown"), got
        if got["status"] == "unknown":
            continue
        assert got["mate"] == mate_within(pos, n)
        assert got["certified"] is True, got
        assert got["strategy_nodes"] >= 1 and got["certify_s"] >= 0
        counts[got["mate"]] += 1
    assert counts[True] >= 3 and counts[False] >= 1


@needs_solvers
@pytest.mark.parametrize("mode", ["sat", "flip", "random", "deep"])
def test_every_lie_that_changes_a_verdict_is_caught(tmp_path, mode):
    liar = make_liar(tmp_path, mode)
    changed = 0
    for pos, n in questions(12, sizes=((3, 3),), plies=(1, 3, 5), seed=11):
        truth = mate_within(pos, n)
        (tmp_path / f"liar-{mode}.calls").unlink(missing_ok=True)
        got = certified(liar, pos, n)
        if got["status"] in ("mate", "nomate"):
            assert got["mate"] == truth and got["certified"], (mode, pos.sfen(), n, got)
        else:
            assert got["status"] == "error" and "\n" not in got["error"]
            changed += got.get("solver_verdict") is not None and got["solver_verdict"] != truth
    if mode != "deep":
        assert changed >= 3  # the liar did lie, and was caught each time


@needs_solvers
def test_the_deep_liar_is_caught_below_the_root(tmp_path):
    liar = make_liar(tmp_path, "deep")
    pos, _ = mate_in_3_not_1()
    got = certified(liar, pos, 3)
    assert got["status"] == "error" and got["solver_verdict"] is True
    assert got["error"].startswith("certificate failed at ") and "at the root" not in got["error"]


@needs_solvers
def test_a_broken_encoding_is_caught(monkeypatch):
    from tsumeqbf.encoder import reach
    from tsumeqbf.rules.pieces import KING, piece_code

    may_evade = reach._may_evade

    def no_king_escapes(geo, reach, c, cands):  # the defender's king forgets how to move
        return [m for m in may_evade(geo, reach, c, cands) if m.code != piece_code(KING, c)]

    monkeypatch.setattr(reach, "_may_evade", no_king_escapes)
    wrong = 0
    for pos, n in questions(40, plies=(1, 3), seed=3):
        got = certified("depqbf", pos, n, encoding="compact")  # lists from _may_evade
        truth = mate_within(pos, n)
        if got["status"] in ("mate", "nomate"):
            assert got["mate"] == truth and got["certified"]
        elif got["status"] == "error":
            wrong += got["solver_verdict"] != truth
    assert wrong >= 2  # the broken encoding did change verdicts, and each was caught


@needs_solvers
def test_a_cpu_limit_met_while_certifying_leaves_the_verdict_unchecked(monkeypatch):
    # the verdict was found within the limit: the check cut short by it is said, as one
    # whose sub-question meets the limit, and the verdict is not thrown away
    from tsumeqbf.solvers import engine

    def endless(*args, **kwargs):  # a check that would run for ever: the limit stops it
        while True:
            pass

    monkeypatch.setattr(engine, "certify", endless)
    pos, _ = mate_in_3_not_1()
    got = run_engine("qbf", pos, 3, timeout=60, options={
        "solver": "depqbf", "certify": True, "cpu_limit": 1.0}).to_dict()
    assert (got["status"], got["mate"], got["certified"]) == ("mate", True, False)
    assert got["certify_reason"] == "CPU time limit (1 s)"


@needs_solvers
def test_cli_certify_json_and_strategy_file(tmp_path, capsys):
    out = tmp_path / "strategy.json"
    pos, _ = mate_in_3_not_1()
    code = main(["mate", pos.sfen(), "-n", "3", "--zone", str(pos.geo.zone), "--engine",
                 "depqbf", "--json", "--strategy", str(out)])
    got = json.loads(capsys.readouterr().out)
    assert code == 0 and got["certified"] is True and got["strategy_nodes"] >= 2
    tree = json.loads(out.read_text())
    assert tree["verdict"] == "mate" and tree["main_line"] == got["main_line"]
    assert len(tree["main_line_japanese"]) == len(tree["main_line"]) == 3
    for text in tree["main_line"]:
        pos.push(pos.parse_usi(text))
    assert pos.is_checkmate()


@needs_solvers
def test_cli_batch_with_a_liar_reports_errors(tmp_path, capsys):
    liar = make_liar(tmp_path, "sat")
    cases = tmp_path / "cases.jsonl"
    qs = question_set(seed=11, count=12, sizes=[(3, 3)], plies=[3])
    cases.write_text("".join(json.dumps({"id": q["id"], "sfen": q["sfen"], "n": q["n"],
                                         "zone": q["zone"]}) + "\n" for q in qs))
    out = tmp_path / "out.jsonl"
    assert main(["batch", str(cases), "--engine", "qbf", "--solver", liar, "--certify",
                 "-o", str(out), "--quiet"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    for row, q in zip(sorted(rows, key=lambda r: r["id"]), qs):
        truth = mate_within(Position.from_sfen(q["sfen"], zone=q["zone"]), q["n"])
        assert row["status"] == "error" or (row["mate"] == truth and row["certified"])
    assert any(r["status"] == "error" for r in rows)


def test_certify_needs_a_qbf_engine(capsys):
    assert main(["mate", "2k/3/1GP b - 1", "-n", "1", "--engine", "dfpn", "--certify"]) == 2
    assert "not a QBF engine" in capsys.readouterr().err


def _refutations_take_the_fewest_checks(pos, tree, k):
    """Every reply of the no-mate tree leaves the fewest attacker checks among the
    replies the reference refutes with; the count of the nodes where that choice mattered."""
    mattered = 0
    for usi, entry in tree["checks"].items():
        if "reply" not in entry:
            continue
        pos.push(pos.parse_usi(usi))
        counts = {}
        for r in pos.legal_moves():
            pos.push(r)
            if not mate_within(pos, k - 2):
                counts[r] = len(pos.checks())
            pos.pop()
        reply = pos.parse_usi(entry["reply"])
        assert counts[reply] == min(counts.values()), (usi, entry["reply"], counts)
        mattered += len(set(counts.values())) > 1
        pos.push(reply)
        mattered += _refutations_take_the_fewest_checks(pos, entry["then"], k - 2)
        pos.pop()
        pos.pop()
    return mattered


def test_a_no_mate_is_refuted_by_the_replies_that_leave_the_fewest_checks():
    mattered = 0
    for pos, n in questions(40, sizes=((4, 4), (5, 5)), plies=(3, 5), seed=7):
        if mate_within(pos, n):
            continue
        cert = certify(pos, n, False, truthful)
        mattered += _refutations_take_the_fewest_checks(pos.copy(), cert.tree, n)
    assert mattered > 0  # the questions hold refutations to choose between
