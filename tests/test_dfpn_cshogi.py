"""The optional cshogi move-generator backend of the unbounded solver: same moves as our
rules engine, same search when both list moves in one order, refusals where its rules
differ from ours."""

import random
import subprocess
import sys

import pytest

from tsumeqbf.bench.along import recorded_lines
from tsumeqbf.data import read_rows
from tsumeqbf.dfpn.cshogi_backend import CshogiTsumeGame, make_game
from tsumeqbf.dfpn.game import TsumeGame
from tsumeqbf.dfpn.solve import replay_answer, solve_tsume
from tsumeqbf.dfpn.tsume import TsumeSearch
from tsumeqbf.rules import Position, TsumeError

pytest.importorskip("cshogi")



def edo_rows():
    return read_rows("open_tsume_zukou_musou.csv")


def walk_positions(count_per_problem=6, plies=14, seed=3):
    """Positions along random check/reply lines from every Edo problem, both sides to move."""
    rng = random.Random(seed)
    out = []
    for row in edo_rows():
        start = Position.from_sfen(row["sfen"])
        for _ in range(count_per_problem):
            game = CshogiTsumeGame(start.copy())
            for _ in range(plies):
                moves = game.moves()
                out.append((game.pos.sfen(), game.is_or(), moves))
                if not moves:
                    break
                game.play(rng.choice(moves))
    return out


def test_same_checks_and_replies_as_the_rules_engine():
    # thousands of positions: the attacker's checks and the defender's replies, as sets,
    # with no duplicate in cshogi's list
    seen = walk_positions()
    assert len(seen) > 5000
    for sfen, is_or, theirs in seen:
        pos = Position.from_sfen(sfen)
        ours = pos.checks() if is_or else pos.legal_moves()
        assert len(theirs) == len(set(theirs)), sfen
        assert set(theirs) == set(ours), (sfen, sorted(pos.usi(m) for m in set(theirs) ^ set(ours)))


def test_same_checks_when_the_attacker_has_a_king_and_may_be_in_check():
    # YaneuraOu's samples give both sides a king; any legal move (not only checks) for the
    # attacker now and then lets the defender check it back
    rows = read_rows("yaneuraou_mate_samples.csv")
    rng = random.Random(2)
    compared = in_check = 0
    for row in rows:
        for _ in range(20):
            pos = Position.from_sfen(row["sfen"])
            attacker = pos.turn
            for _ in range(10):
                if pos.turn == attacker:
                    game = CshogiTsumeGame(pos.copy())
                    assert set(game.moves()) == set(pos.checks()), pos.sfen()
                    compared += 1
                    in_check += pos.is_attacked(pos.kings[attacker], attacker ^ 1)
                own = pos.turn == attacker and rng.random() < 0.7
                moves = pos.checks() if own else pos.legal_moves()
                if not moves:
                    break
                pos.push(rng.choice(moves))
    assert compared > 3000 and in_check > 50


def test_play_and_undo_keep_both_boards_in_step():
    rng = random.Random(5)
    for row in edo_rows()[:40]:
        game = CshogiTsumeGame(Position.from_sfen(row["sfen"]))
        played = 0
        for _ in range(10):
            moves = game.moves()
            if not moves:
                break
            game.play(rng.choice(moves))
            played += 1
            assert game.board.sfen().split(" ")[:3] == game.pos.sfen().split(" ")[:3]
        for _ in range(played):
            game.undo()
        assert game.board.sfen().split(" ")[:3] == Position.from_sfen(row["sfen"]).sfen().split(" ")[:3]


class _Sorted:
    """A game whose move lists come in ascending order, so that two backends search alike."""

    def moves(self):
        return sorted(super().moves())


class SortedRules(_Sorted, TsumeGame):
    pass


class SortedCshogi(_Sorted, CshogiTsumeGame):
    pass


@pytest.mark.parametrize("heuristics", ["", "ABCDEF"])
def test_same_search_when_moves_come_in_one_order(heuristics):
    # with moves in one order the two backends must walk the very same tree: same nodes,
    # same verdicts, same table sizes
    for row in edo_rows()[:12]:
        results = []
        for game_type in (SortedRules, SortedCshogi):
            search = TsumeSearch(game_type(Position.from_sfen(row["sfen"])), max_nodes=4000,
                                 heuristics=heuristics)
            res = search.solve()
            results.append((res.proven, res.nodes, res.proofs, res.disproofs, res.twins))
        assert results[0] == results[1], row["id"]


def test_solve_with_the_cshogi_backend_gives_a_replayed_answer():
    row = next(r for r in edo_rows() if r["id"] == "zukou-002")
    pos = Position.from_sfen(row["sfen"])
    out = solve_tsume(pos, shorten_nodes=0, shortest_up_to=0, backend="cshogi")
    assert out["status"] == "mate" and out["backend"] == "cshogi"
    assert out["length"] == int(row["stated_length"])
    assert replay_answer(pos, out["pv"]) == "ok"


def test_exact_shortest_mate_with_cshogi_moves_is_the_stated_length():
    # bounded df-pn on cshogi's generator finds the same exact shortest mates as on ours
    rows = [r for r in read_rows("yaneuraou_mate_samples.csv") if int(r["stated_length"]) in (5, 7)][:6]
    assert len(rows) == 6
    for r in rows:
        pos = Position.from_sfen(r["sfen"])
        out = solve_tsume(pos, max_nodes=300_000, shortest=True, shorten_nodes=0,
                          backend="cshogi")
        assert out["shortest_plies"] == int(r["stated_length"]), r
        assert replay_answer(pos, out["pv_shortest"]) == "ok"


@pytest.mark.parametrize("sfen, message", [
    ("2k2/5/5/5/5 b G 1", "standard 9x9"),
    ("4k4/9/9/9/9/9/9/9/9 b 3R 1", "standard 40 pieces"),
])
def test_refuses_questions_outside_standard_shogi(sfen, message):
    with pytest.raises(TsumeError, match=message):
        make_game(Position.from_sfen(sfen), "cshogi")


def test_refuses_a_zone_other_than_three():
    with pytest.raises(TsumeError, match="zone 3"):
        make_game(Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b G 1", zone=2), "cshogi")


def test_unknown_backend_is_an_error():
    with pytest.raises(TsumeError, match="unknown backend"):
        make_game(Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b G 1"), "yaneuraou")


def test_solve_command_refuses_a_small_board_with_one_line():
    run = subprocess.run([sys.executable, "-m", "tsumeqbf", "solve", "2k2/5/5/5/5 b G 1",
                          "--backend", "cshogi"], capture_output=True, text=True)
    assert run.returncode != 0
    assert run.stderr.strip().count("\n") == 0 and "standard 9x9" in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.slow
def test_a_defender_non_promotion_saves_zukou_029():
    # cshogi's DfPn claims zukou-029 mates within 15 plies; it tries only the rook's
    # promoting capture 6i6e+ after 8g9f 8d7c N*6e. Taking without promoting (6i6e, from
    # inside the defender's zone) leaves no mate within the remaining 11 plies.
    from tsumeqbf.dfpn import DfPn

    base = "9/lgsl5/1pk6/4G4/L1n{}5/+B8/9/1+R7/9 b B2NP2g3snl16p 5"
    promoted = DfPn(make_game(Position.from_sfen(base.format("+r")), "cshogi")).solve(11)
    unpromoted = DfPn(make_game(Position.from_sfen(base.format("r")), "cshogi")).solve(11)
    assert promoted.proven is True and unpromoted.proven is False


def test_peeked_keys_and_counted_replies_match_playing_the_move():
    # the shortcuts the search takes on 9x9 (a child's key without playing the move, its
    # replies counted on cshogi's board alone) against playing the move in our rules
    rng = random.Random(13)
    positions = walk_positions(count_per_problem=1, seed=4)
    compared = 0
    for sfen, is_or, moves in rng.sample(positions, 600):
        ours, theirs = TsumeGame(Position.from_sfen(sfen)), CshogiTsumeGame(Position.from_sfen(sfen))
        for m in moves:
            peeked = theirs.child_dominance(m)
            ours.play(m)
            assert peeked == (ours.key(), ours.dominance()), (sfen, ours.pos.usi(m))
            ways = [(True, False), (False, False), (True, True)]  # drops, interpositions
            expected = {way: ours.reply_count(*way) for way in ways}
            replies = ours.moves()
            blocks = [r for r in replies if ours.interposition_group(r)]
            # replies to a check: the cheap grouping test is the geometric one
            same = all(ours.is_interposition(r) == (r in blocks) for r in replies)
            ours.undo()
            assert expected[False, False] == len(replies)
            assert expected[True, True] == len(replies) - len(blocks) + bool(blocks)
            if is_or:
                got = {way: theirs.reply_count_after(m, *way) for way in ways}
                assert got == expected, (sfen, ours.pos.usi(m))
                assert same, (sfen, ours.pos.usi(m))
                compared += 1
    assert compared > 500


def test_mate_in_1_finds_a_mate_exactly_when_the_rules_engine_does():
    # the mate probes ask every new node for a mate in 1; cshogi's answer, tried on its own
    # integers (in its own order), must be a check that leaves no reply in our rules exactly
    # when our rules have one
    positions = [(sfen, moves) for sfen, is_or, moves in walk_positions(count_per_problem=2, seed=5)
                 if is_or]
    mates = 0
    for sfen, moves in positions:
        ours, theirs = TsumeGame(Position.from_sfen(sfen)), CshogiTsumeGame(Position.from_sfen(sfen))
        mating = {m for m in moves if not ours.reply_count_after(m, False)}
        found = theirs.mate_in_1()
        assert (found in mating) if mating else found is None, sfen
        assert ours.mate_in_1() == next((m for m in ours.moves() if m in mating), None)
        mates += bool(mating)
    assert len(positions) > 1000 and mates > 50


def test_a_pawn_drop_mate_is_no_mate_in_1():
    # P*1b would mate (the gold guards 1b and 2b, the silver 2a) but is not a legal move
    sfen = "8k/6S2/7G1/9/9/9/9/9/K8 b P 1"
    for game in (TsumeGame(Position.from_sfen(sfen)), CshogiTsumeGame(Position.from_sfen(sfen))):
        assert game.mate_in_1() is None and len(game.moves()) == 3


#: 将棋図巧 No. 91 (stated 27) as recorded (data/recorded_lines.csv): twelve plies of
#: exchanges, the distant B*1h, then pawn steps that open and close two diagonals
ZUKOU_091_LINE = recorded_lines()["zukou-091"]


@pytest.mark.slow
def test_zukou_091_from_its_fourteenth_ply_is_the_recorded_mate():
    # the whole problem takes tens of millions of nodes (docs/dfpn-notebook.md); 14 plies in, the
    # unbounded solver proves the mate and answers with the recorded continuation
    row = next(r for r in edo_rows() if r["id"] == "zukou-091")
    pos = Position.from_sfen(row["sfen"])
    assert replay_answer(pos, ZUKOU_091_LINE) == "ok" and len(ZUKOU_091_LINE) == int(row["stated_length"])
    for m in ZUKOU_091_LINE[:14]:
        pos.push(pos.parse_usi(m))
    # the exact shortest (the default budget after the proof answers 2 plies longer here)
    out = solve_tsume(pos, max_nodes=200_000, backend="cshogi", shortest=True)
    assert out["status"] == "mate" and out["pv"] == ZUKOU_091_LINE[14:]


@pytest.mark.slow
def test_zukou_064_counts_its_stated_length():
    # the line ends ... 3i2h 1i2h 3g3h 2h1i or 2h2i: after 2h1i the distant check 8c7c can
    # be met by interpositions that the attacker captures and mates as fast; whether the
    # printed line shows the capture or another check as short must not decide that they
    # are useless (the rule once counted them: 77 instead of the stated 69)
    row = next(r for r in edo_rows() if r["id"] == "zukou-064")
    pos = Position.from_sfen(row["sfen"])
    out = solve_tsume(pos, max_nodes=100_000, backend="cshogi", shortest_up_to=0)
    assert out["status"] == "mate" and out["plies"] == 77
    assert out["length"] == int(row["stated_length"]) == 69
    assert replay_answer(pos, out["pv"]) == "ok"
