"""The native core (tsumeqbf/native) against the rules engine and brute force.

* its move lists (every legal move, and the legal checks) equal ``Position.legal_moves()``
  and ``Position.checks()`` as sets, on positions reached from generated 9x9 questions and
  from the real problems (Edo collections, YaneuraOu samples, long classics, the recorded
  main lines) by seeded random walks through the tsume tree (checks and replies, so the
  defender is often in check) and through ordinary play (so both sides hold pieces);
* its bounded df-pn gives brute force's verdict on Mate(P, n), and its first move is one
  brute force finds mating;
* questions it cannot answer are refused with one clear error, and the Python side says
  how to build it when it is missing.

The tests need the built extension: they skip without it, unless TSUMEQBF_REQUIRE_NATIVE
is set (``make test`` sets it, so a fresh clone's build is tested, not skipped).
"""

from __future__ import annotations

import json
import os
import random

import pytest

from tsumeqbf import native
from tsumeqbf.data import read_rows
from tsumeqbf.rules import InvalidQuestion, Position, TsumeError
from tsumeqbf.rules.generate import random_question
from tsumeqbf.rules.reference import ReferenceSolver

if not native.available():
    if os.environ.get("TSUMEQBF_REQUIRE_NATIVE"):
        raise RuntimeError("TSUMEQBF_REQUIRE_NATIVE is set but the native core is not built")
    pytest.skip("the native core is not built (python setup.py build_ext --inplace)",
                allow_module_level=True)


def _real_sfens() -> list[str]:
    sfens = [r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv")]
    sfens += [r["sfen"] for r in read_rows("yaneuraou_mate_samples.csv")]
    sfens += [r["sfen"] for r in read_rows("long_classics.csv")]
    return sfens


def _recorded_line_positions() -> list[Position]:
    """Every position along the recorded main lines (zukou-008, zukou-091)."""
    starts = {r["id"]: r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv")}
    out = []
    for r in read_rows("recorded_lines.csv"):
        pos = Position.from_sfen(starts[r["id"]])
        out.append(pos.copy())
        for text in r["line"].split():
            pos.push(pos.parse_usi(text))
            out.append(pos.copy())
    return out


def _walk(pos: Position, rng: random.Random, plies: int, tsume: bool) -> list[Position]:
    """Positions along one random walk from ``pos``: in the tsume tree (the side that
    started plays checks, the other replies) or in ordinary play."""
    attacker = pos.turn
    out = [pos.copy()]
    for _ in range(plies):
        moves = pos.checks() if tsume and pos.turn == attacker else pos.legal_moves()
        if not moves:
            break
        # captures first now and then, so that hands fill
        captures = [m for m in moves if not (m >> 7 & 127) >= 96 and pos.board[m & 127]]
        pos.push(rng.choice(captures if captures and rng.random() < 0.4 else moves))
        out.append(pos.copy())
    return out


def _generated_positions(seed: int, count: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        q = random_question(rng, 9, 9, attacker_pieces=rng.randint(2, 12),
                            defender_pieces=rng.randint(0, 10), attacker_hand=rng.randint(0, 6),
                            defender_hand=rng.randint(0, 6))
        out += _walk(q, rng, rng.randint(0, 8), tsume=rng.random() < 0.7)
    return out[:count]


def _real_positions(seed: int, walks_per_problem: int) -> list[Position]:
    rng = random.Random(seed)
    out = _recorded_line_positions()
    for sfen in _real_sfens():
        for _ in range(walks_per_problem):
            out += _walk(Position.from_sfen(sfen), rng, rng.randint(0, 10),
                         tsume=rng.random() < 0.7)
    return out


def _differences(positions) -> list[str]:
    bad = []
    for pos in positions:
        for name, ours in (("legal_moves", pos.legal_moves), ("checks", pos.checks)):
            theirs = sorted(getattr(native, name)(pos))
            if theirs != sorted(ours()):
                extra = [pos.usi(m) for m in set(theirs) - set(ours())]
                missing = [pos.usi(m) for m in set(ours()) - set(theirs)]
                bad.append(f"{pos.sfen()} {name}: native extra {extra} missing {missing}")
            if len(theirs) != len(set(theirs)):
                bad.append(f"{pos.sfen()} {name}: native lists a move twice")
    return bad


def test_move_lists_equal_the_rules_engines_on_generated_positions():
    positions = _generated_positions(seed=45, count=3000)
    in_check = sum(p.in_check() for p in positions)
    assert in_check > 300  # the walks reach the defender's evasions often
    assert _differences(positions) == []


def test_move_lists_equal_the_rules_engines_on_real_positions():
    positions = _real_positions(seed=45, walks_per_problem=2)
    assert len(positions) > 2000
    assert _differences(positions) == []


@pytest.mark.slow
def test_move_lists_equal_the_rules_engines_on_many_more_positions():
    positions = _generated_positions(seed=4545, count=30_000)
    positions += _real_positions(seed=4545, walks_per_problem=12)
    assert _differences(positions) == []


def test_the_rules_corners_are_the_rules_engines():
    # uchifuzume (pawn drop mate illegal, a pinned defender cannot take the pawn), nifu,
    # dead drops and forced promotion, and a check that must also escape one's own check
    cases = [
        "8k/9/6NG1/9/9/9/9/9/9 b P 1",          # P*1b would be mate: refused
        "8k/7r1/6NG1/9/9/9/9/9/9 b P 1",        # P*1b: the rook takes the pawn, allowed
        "4R2gk/9/9/6NN1/9/9/9/9/9 b P 1",       # P*1b: only a pinned gold could take it
        "8k/9/8P/9/9/9/9/9/9 b P 1",            # nifu on file 1
        "4k4/9/9/9/9/9/9/9/4K4 b LNP 1",       # dead drops on ranks 1-2
        "4k4/2P6/1L7/N8/9/9/9/9/9 b - 1",       # forced promotions
        "4k4/9/9/9/9/9/9/4r4/4K3B b G 1",      # in check: only checks that also escape
        "4k4/4p4/9/9/9/9/9/9/4K4 w P 1",        # gote attacks
    ]
    positions = [Position.from_sfen(s) for s in cases]
    for pos in positions:
        pos.validate_question()  # the defender not in check: a question of RULES.md
    assert _differences(positions) == []


def _fold_counts_by_rules(pos: Position) -> tuple[int, int]:
    """The side to move's legal moves, and those after which no check of the other side
    mates, by the rules engine."""
    lost = 0
    for m in pos.legal_moves():
        child = _played(pos, m)
        lost += not any(not _played(child, c).legal_moves() for c in child.checks())
    return len(pos.legal_moves()), lost


def _played(pos: Position, m: int) -> Position:
    child = pos.copy()
    child.push(m)
    return child


def test_fold_counts_read_sfens_and_count_as_the_rules_engine():
    rng = random.Random(46)
    positions = rng.sample(_real_positions(seed=46, walks_per_problem=1), 120)
    positions += [Position.from_sfen(s) for s in (
        "4k4/9/4G4/9/9/9/9/9/4K4 w 12p 1",                  # a hand count of two digits
        "9/9/6n2/8n/6+pl1/7Sn/4+pp1k1/7N1/7s+R b R2B4g2s3l15p 1")]  # zukou-050
    sfens = [p.sfen() for p in positions]
    assert native.fold_counts(sfens) == [_fold_counts_by_rules(p) for p in positions]
    assert any(lost < total for total, lost in native.fold_counts(sfens))  # mates are met
    for bad in ("9/9 b - 1", "9/9/9/9/9/9/9/9/9 x - 1", "4k4/9/9/9/9/9/9/9/4K4 b 3K 1",
                "4k4/9/9/9/9/9/9/9/4K+G3 b - 1"):
        with pytest.raises(ValueError, match="not an SFEN"):
            native.fold_counts([bad])


def _brute_cases(seed: int, count: int, n: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        q = random_question(rng, 9, 9, attacker_pieces=rng.randint(1, 5),
                            defender_pieces=rng.randint(0, 4), attacker_hand=rng.randint(0, 3),
                            defender_hand=rng.randint(0, 2))
        if q.checks():
            out.append(q)
    return out


def _disagreements(questions, n: int, max_nodes: int = 200_000) -> tuple[list[str], int]:
    bad, mates = [], 0
    for pos in questions:
        solver = ReferenceSolver(max_nodes=max_nodes)
        mating = solver.mating_moves(pos.copy(), n)
        got = native.mate(pos, n)
        mates += bool(mating)
        if got["proven"] != bool(mating):
            bad.append(f"{pos.sfen()} n={n}: native {got['proven']}, brute {bool(mating)}")
        elif got["proven"] and got["best_move"] not in mating:
            bad.append(f"{pos.sfen()} n={n}: native's first move {pos.usi(got['best_move'])} "
                       f"does not mate")
    return bad, mates


@pytest.mark.parametrize("n,count", [(1, 300), (3, 150), (5, 60)])
def test_bounded_verdicts_equal_brute_force_on_generated_questions(n, count):
    bad, mates = _disagreements(_brute_cases(seed=450 + n, count=count, n=n), n)
    assert bad == []
    assert 0 < mates < count  # both verdicts are asked


def test_bounded_verdicts_equal_brute_force_on_the_yaneuraou_mate_in_3_samples():
    rows = [r for r in read_rows("yaneuraou_mate_samples.csv") if r["stated_length"] == "3"]
    questions = [Position.from_sfen(r["sfen"]) for r in rows]
    for n, expected_mates in ((1, None), (3, len(questions))):
        bad, mates = _disagreements(questions, n)
        assert bad == []
        if expected_mates is not None:
            assert mates == expected_mates


@pytest.mark.slow
@pytest.mark.parametrize("n,count", [(3, 1500), (5, 300), (7, 60)])
def test_bounded_verdicts_equal_brute_force_on_more_questions(n, count):
    bad, _ = _disagreements(_brute_cases(seed=4500 + n, count=count, n=n), n,
                            max_nodes=5_000_000)
    assert bad == []


def _shortest_by_brute_force(pos: Position, most: int) -> int | None:
    """The smallest odd k <= ``most`` with a mate in k (the reference solver), else None."""
    return next((k for k in range(1, most + 1, 2) if ReferenceSolver().mate(pos.copy(), k)),
                None)


def test_the_shortest_mate_equals_brute_forces_on_generated_questions():
    # its length, a line of that length ending in mate, and at every defender node of it
    # a reply whose shortest mate is the longest
    lengths = set()
    for pos in _brute_cases(seed=4611, count=300, n=5):
        got = native.shortest_mate(pos, 5)
        k = _shortest_by_brute_force(pos, 5)
        assert got["found"] is (k is not None), pos.sfen()
        if k is None:
            assert got["line"] == [] and got["refuted"] == 5
            continue
        lengths.add(k)
        assert len(got["line"]) == k and got["refuted"] == k - 2, pos.sfen()
        p = pos.copy()
        for ply, m in enumerate(got["line"]):
            if ply % 2:  # the defender's choice: no reply mates later than it
                left = k - ply - 1
                chosen = p.copy()
                chosen.push(m)
                longest = _shortest_by_brute_force(chosen, left)
                for r in p.legal_moves():
                    after = p.copy()
                    after.push(r)
                    assert _shortest_by_brute_force(after, left) <= longest, pos.sfen()
            else:
                assert m in p.checks(), pos.sfen()
            p.push(m)
        assert p.is_checkmate(), pos.sfen()
    assert lengths == {1, 3, 5}  # mates of every length were asked


def test_the_shortest_mate_asks_for_the_longest_first_and_shares_the_nodes():
    # Mate(P, most) is asked first with half the nodes: twice what that one question
    # takes alone decides "no mate within most"; with one and a half times, it is left
    # open at the half and k = 1, 3, 5 (5 again) decide with the rest and its table,
    # agreeing with brute force whenever they decide
    decided_after_open = 0
    for pos in _brute_cases(seed=4612, count=120, n=5):
        alone = native.mate(pos, 5)["nodes"]
        k = _shortest_by_brute_force(pos, 5)
        if k is None:
            got = native.shortest_mate(pos, 5, max_nodes=2 * alone + 2)
            assert got["found"] is False and got["refuted"] == 5, pos.sfen()
        got = native.shortest_mate(pos, 5, max_nodes=alone + alone // 2)
        if got["found"] is None:
            assert got["refuted"] < (5 if k is None else k), pos.sfen()
            continue
        decided_after_open += alone > 2
        assert got["found"] is (k is not None), pos.sfen()
        assert len(got["line"]) == (k or 0), pos.sfen()
        assert got["refuted"] == (5 if k is None else k - 2), pos.sfen()
    assert decided_after_open > 0


def test_a_line_two_plies_too_long_is_shown_the_shortest_by_one_question():
    # musou-074: the proof's line has 29 plies, every ply counted. Mate(P, 27) alone
    # decides that no mate is shorter; k = 1, 3, ... 27 in turn took 1,504,366 nodes
    pos = Position.from_sfen(next(r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv")
                                  if r["id"] == "musou-074"))
    alone = native.mate(pos, 27)
    assert alone["proven"] is False
    got = native.shortest_mate(pos, 27, max_nodes=2 * alone["nodes"] + 2)
    assert got["found"] is False and got["refuted"] == 27 and got["nodes"] <= alone["nodes"] + 1


def test_the_shortest_mate_on_the_yaneuraou_samples_is_the_stated_length():
    for r in read_rows("yaneuraou_mate_samples.csv"):
        pos, stated = Position.from_sfen(r["sfen"]), int(r["stated_length"])
        got = native.shortest_mate(pos, stated)
        assert got["found"] and len(got["line"]) == stated and got["refuted"] == stated - 2, r
        p = pos.copy()
        for m in got["line"]:
            p.push(m)
        assert p.is_checkmate(), r
        if stated > 3:  # asked for less than the shortest: no mate, every k refuted
            fewer = native.shortest_mate(pos, stated - 2)
            assert fewer["found"] is False and fewer["line"] == []
            assert fewer["refuted"] == stated - 2


def test_the_shortest_mate_at_a_limit_is_unknown_with_the_reason():
    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[0]["sfen"])
    got = native.shortest_mate(pos, 69, max_nodes=500)
    assert got["found"] is None and got["line"] == []
    assert got["reason"] == "node limit 500 reached" and got["nodes"] == 501
    assert 1 <= got["refuted"] < 69  # the mates in few plies it did rule out
    # Mate(P, 69) is asked first, with half the nodes and half the time: the other half
    # still rules out the mates in few plies
    got = native.shortest_mate(pos, 69, timeout=1.0)
    assert got["found"] is None and got["reason"] == "time limit reached"
    assert 1 <= got["refuted"] < 69
    calls = []
    got = native.shortest_mate(pos, 69, max_nodes=10_000, on_nodes=lambda: calls.append(1))
    assert got["found"] is None and len(calls) == 2  # at 4,096 and 8,192 nodes
    with pytest.raises(ValueError, match="most must be an odd number"):
        native.shortest_mate(pos, 4)


def test_limits_give_an_unknown_verdict_with_the_reason():
    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[0]["sfen"])
    got = native.mate(pos, 69, max_nodes=500)
    assert got["proven"] is None and got["reason"] == "node limit 500 reached"
    assert got["nodes"] == 501


def test_a_time_limit_past_the_cores_clock_is_none():
    # 1e10 s in nanoseconds wrapped round the core's 64-bit clock: every search stopped
    # at once with "time limit reached" ('solve --timeout 1e10' after 256 nodes)
    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[0]["sfen"])
    for seconds in (1e10, 1e14):
        assert native.mate(pos, 69, max_nodes=2000, timeout=seconds)["reason"] == \
            "node limit 2000 reached"
        assert native.tsume(pos, max_nodes=2000, timeout=seconds)["reason"] == \
            "node limit 2000 reached"
        assert native.shortest_mate(pos, 69, max_nodes=2000, timeout=seconds)["reason"] == \
            "node limit 2000 reached"


def test_a_time_limit_of_0_leaves_no_time_and_none_is_no_limit():
    # the wrappers read 0 as no limit while the core (and the Python search at a passed
    # deadline) read it as no time left: 0 now stops each search at its first reading of
    # the clock (every 256 nodes); None alone is no limit
    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[0]["sfen"])  # 69 plies
    for got in (native.mate(pos, 69, max_nodes=5000, timeout=0),
                native.tsume(pos, max_nodes=5000, timeout=0),
                native.shortest_mate(pos, 69, max_nodes=5000, timeout=0.0)):
        assert got["reason"] == "time limit reached" and got["nodes"] <= 512, got
    assert native.mate(pos, 69, max_nodes=5000)["reason"] == "node limit 5000 reached"
    for bad in (-1, float("nan")):  # the core read both as no limit
        with pytest.raises(ValueError, match="0 seconds or more"):
            native.mate(pos, 69, max_nodes=5000, timeout=bad)
        with pytest.raises(ValueError, match="0 seconds or more"):
            native.tsume(pos, max_nodes=5000, timeout=bad)


def test_questions_the_core_cannot_answer_are_refused():
    with pytest.raises(InvalidQuestion, match="only standard 9x9"):
        native.checks(Position.from_sfen("2k/3/1GP b - 1", zone=2))
    with pytest.raises(InvalidQuestion, match="only standard 9x9"):
        native.checks(Position.from_sfen("7k1/9/7G1/9/9/9/9/9/9 b - 1", zone=2))
    with pytest.raises(InvalidQuestion, match="no-hands"):
        native.mate(Position.from_sfen("7k1/9/7G1/9/9/9/9/9/9 b - 1", no_hands=True), 1)


def test_without_the_extension_the_error_says_how_to_build_it(monkeypatch):
    monkeypatch.setattr(native, "_core", None)
    assert not native.available()
    with pytest.raises(TsumeError, match="native core is not built"):
        native.mate(Position.from_sfen("7k1/9/7G1/9/9/9/9/9/9 b G 1"), 1)


def test_the_dfpn_engine_answers_with_the_backend_it_was_given(capsys):
    from tsumeqbf.cli import main

    sfen = read_rows("yaneuraou_mate_samples.csv")[0]["sfen"]  # gote mates in 3
    answers = {}
    for backend in ("rules", "native"):
        assert main(["mate", sfen, "-n", "3", "--engine", "dfpn", "--backend", backend,
                     "--json"]) == 0
        answers[backend] = json.loads(capsys.readouterr().out)
    assert answers["native"]["backend"] == "native" and answers["rules"]["backend"] == "rules"
    assert answers["native"]["status"] == answers["rules"]["status"] == "mate"
    pos = Position.from_sfen(sfen)
    assert pos.parse_usi(answers["native"]["first_move"]) in ReferenceSolver().mating_moves(pos, 3)
    # a question the core cannot answer, or a backend for another engine: one line, exit 2
    assert main(["mate", "2k/3/1GP b - 1", "--zone", "2", "-n", "1", "--engine", "dfpn",
                 "--backend", "native"]) == 2
    assert "only standard 9x9" in capsys.readouterr().err
    assert main(["mate", sfen, "-n", "3", "--backend", "native"]) == 2
    assert "--backend chooses the dfpn engine's search" in capsys.readouterr().err


def test_bounded_verdicts_equal_the_python_searchs_on_the_yaneuraou_samples():
    # at the stated length (mate) and two plies less (no mate within it), mate-3 to mate-11
    from tsumeqbf.dfpn import DfPn, ShogiGame

    verdicts = []
    for r in read_rows("yaneuraou_mate_samples.csv"):
        pos = Position.from_sfen(r["sfen"])
        for n in (int(r["stated_length"]), int(r["stated_length"]) - 2):
            ours = DfPn(ShogiGame(pos.copy())).solve(n).proven
            # and with a table so small that it drops half its entries again and again
            small = native.mate(pos, n, tt_limit=16)["proven"]
            verdicts.append((r["sfen"], n, ours, native.mate(pos, n)["proven"], small))
    assert [v for v in verdicts if not v[2] == v[3] == v[4]] == []
    assert {v[2] for v in verdicts} == {True, False}


# -- the unbounded search --------------------------------------------------------------
def _unbounded_findings(questions, native_nodes: int, python_nodes: int,
                        **steers) -> tuple[list, dict]:
    """What is wrong with the core's unbounded answers (``steers``: its dag and inherit
    options): a verdict other than the Python search's (where both decide), a no-mate
    where brute force finds a mate within 3, a line that does not replay as mate."""
    from tsumeqbf.dfpn import TsumeSearch
    from tsumeqbf.dfpn.game import TsumeGame
    from tsumeqbf.dfpn.solve import replay_answer

    bad, counts = [], {"mate": 0, "nomate": 0, "unknown": 0, "compared": 0}
    for pos in questions:
        got = native.tsume(pos, max_nodes=native_nodes, **steers)
        ours = TsumeSearch(TsumeGame(pos.copy()), max_nodes=python_nodes).solve().proven
        counts[{True: "mate", False: "nomate", None: "unknown"}[got["proven"]]] += 1
        if got["proven"] is not None and ours is not None:
            counts["compared"] += 1
            if got["proven"] != ours:
                bad.append(f"{pos.sfen()}: native {got['proven']}, Python {ours}")
        if got["proven"] is False and ReferenceSolver().mate(pos.copy(), 3):
            bad.append(f"{pos.sfen()}: native no mate, brute force mates within 3")
        if got["proven"]:
            check = replay_answer(pos, [pos.usi(m) for m in got["line"]])
            if check != "ok":
                bad.append(f"{pos.sfen()}: native line {check}")
    return bad, counts


def test_unbounded_verdicts_equal_the_python_searchs_on_generated_questions():
    bad, counts = _unbounded_findings(_brute_cases(seed=4507, count=60, n=3), 20_000, 3_000)
    assert bad == []
    assert counts["mate"] and counts["nomate"] and counts["compared"] >= 50


@pytest.mark.parametrize("dag, inherit", [(False, False), (True, False), (False, True)])
def test_unbounded_verdicts_without_the_steers_equal_the_python_searchs(dag, inherit):
    # the DAG correction and inherited numbers only choose what is searched next
    bad, counts = _unbounded_findings(_brute_cases(seed=4508, count=20, n=3), 20_000, 3_000,
                                      dag=dag, inherit=inherit)
    assert bad == []
    assert counts["compared"] >= 15


def test_the_steers_reach_the_core():
    # musou-020: proven either way, by different searches
    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[119]["sfen"])
    runs = {(dag, inherit): native.tsume(pos, max_nodes=400_000, dag=dag, inherit=inherit)
            for dag in (False, True) for inherit in (False, True)}
    assert all(r["proven"] for r in runs.values())
    assert len({r["nodes"] for r in runs.values()}) == 4


def test_a_small_table_still_proves_and_replays():
    # musou-020 with 3,000 unsolved entries: the table drops half of them again and again,
    # and the lists of each board's unsolved positions (inherited numbers) are swept
    from tsumeqbf.dfpn.solve import replay_answer

    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[119]["sfen"])
    got = native.tsume(pos, max_nodes=1_000_000, tt_limit=3_000)
    assert got["proven"] is True
    assert replay_answer(pos, [pos.usi(m) for m in got["line"]]) == "ok"


def test_unbounded_answers_on_the_yaneuraou_samples_replay_as_mate():
    from tsumeqbf.dfpn.solve import replay_answer

    for r in read_rows("yaneuraou_mate_samples.csv"):
        pos = Position.from_sfen(r["sfen"])
        got = native.tsume(pos, max_nodes=100_000)
        assert got["proven"] is True, r["sfen"]
        assert replay_answer(pos, [pos.usi(m) for m in got["line"]]) == "ok"


def test_solve_with_the_native_backend(capsys):
    from tsumeqbf.cli import main

    sfen = read_rows("open_tsume_zukou_musou.csv")[1]["sfen"]  # zukou-002, 21 plies
    assert main(["solve", sfen, "--backend", "native", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "mate" and out["backend"] == "native"
    assert out["answer"] in ("proof", "bounded") and out["length"] <= len(out["pv"])
    assert main(["solve", sfen, "--backend", "native", "--heuristics", "ABC"]) == 2
    assert "backend 'native' has no option heuristics" in capsys.readouterr().err


@pytest.mark.slow
def test_unbounded_verdicts_equal_the_python_searchs_on_more_questions():
    bad, counts = _unbounded_findings(_brute_cases(seed=45070, count=400, n=3), 200_000, 20_000)
    assert bad == []
    assert counts["compared"] >= 350


@pytest.mark.slow
def test_unbounded_answers_on_edo_problems_replay_as_mate():
    # every one is a mate (zukou-073 aside, which the first 40 do not hold)
    from tsumeqbf.dfpn.solve import replay_answer

    solved = 0
    for r in read_rows("open_tsume_zukou_musou.csv")[:40]:
        pos = Position.from_sfen(r["sfen"])
        got = native.tsume(pos, max_nodes=300_000)
        assert got["proven"] is not False, r["id"]
        if got["proven"]:
            solved += 1
            assert replay_answer(pos, [pos.usi(m) for m in got["line"]]) == "ok", r["id"]
    assert solved >= 20


def test_the_tsume_engine_answers_with_the_native_backend():
    from tsumeqbf.dfpn.solve import replay_answer
    from tsumeqbf.engines import run_engine

    pos = Position.from_sfen(read_rows("yaneuraou_mate_samples.csv")[0]["sfen"])
    out = run_engine("tsume", pos, 3, options={"backend": "native", "max_nodes": 10_000})
    assert out.status == "mate" and out.facts["backend"] == "native"
    assert replay_answer(pos, list(out.line)) == "ok" and out.first_move == out.line[0]


def test_the_native_bench_writes_and_resumes_its_rows(tmp_path, capsys):
    from tsumeqbf.bench.dfpn import main as bench_dfpn

    rows = tmp_path / "native.csv"
    args = ["--backend", "native", "--ids", "zukou-002", "--max-nodes", "20000", "--no-bounded",
            "--beside", "rules", "--csv", str(rows)]
    assert bench_dfpn(args) == 0
    assert bench_dfpn(args[:3] + ["zukou-002,zukou-005"] + args[4:] + ["--resume"]) == 0
    out = capsys.readouterr().out
    assert "resuming: 1 already searched" in out and "native lines replayed as mate: 2/2" in out
    import csv

    with open(rows, encoding="utf-8") as fh:
        written = list(csv.DictReader(fh))
    assert [r["id"] for r in written] == ["zukou-002", "zukou-005"]
    assert {r["status"] for r in written} == {r["python_status"] for r in written} == {"mate"}
    assert all(r["dfpn_backend"] == "native" and float(r["cpu_s"]) > 0 for r in written)


def test_the_native_bench_refuses_the_options_it_would_ignore(capsys):
    from bench_refusal import refusal

    assert refusal(capsys, "dfpn", ["--backend", "native", "--heuristics", "AB", "--repeat", "2",
                                    "--plot", "x.png", "--csv", "x.csv"]
                   ) == "--backend native does not take --heuristics, --plot"  # (--repeat it takes)
