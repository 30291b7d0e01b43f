"""``solve --backend native``: the native core's unbounded search read by the Python
answer code (tsumeqbf/dfpn/native_solve.py).

* the core's game serves the answer the facts the rules engine's TsumeGame does (moves,
  reply counts, hands, interpositions, squares next to the king) on walks through real
  problems;
* on the YaneuraOu samples its answers are no longer, by the project's convention, than
  the Python search's with the same shortening settings, replay as mate, and say whether
  they are the exact shortest as the Python path does;
* the searches after a proof go on in the core's tables (solve_below), and the options
  the core does not have are refused.
"""

from __future__ import annotations

import json
import random

import pytest

from test_native import _real_sfens  # noqa: F401  (its guard: skip or fail without the core)
from tsumeqbf.data import read_rows
from tsumeqbf.dfpn.game import TsumeGame
from tsumeqbf.dfpn.native_solve import NativeGame, NativeSearch
from tsumeqbf.dfpn.solve import replay_answer, solve_tsume
from tsumeqbf.rules import Position


def _sample(name: str) -> Position:
    """A YaneuraOu sample by its name (mate7-6: mate7.sfen, line 6)."""
    for r in read_rows("yaneuraou_mate_samples.csv"):
        if r["yaneuraou_file"][:-5] + "-" + r["line_no"] == name:
            return Position.from_sfen(r["sfen"])
    raise KeyError(name)


def _game_differences(sfen: str, rng: random.Random, plies: int) -> list[str]:
    """Where the core's game and the rules engine's differ along one random walk."""
    pos = Position.from_sfen(sfen)
    ours, theirs = TsumeGame(pos.copy()), NativeGame(pos.copy())
    bad = []
    for _ in range(plies + 1):
        here = ours.pos.sfen()
        moves = sorted(ours.moves())
        if sorted(theirs.moves()) != moves or ours.is_or() != theirs.is_or():
            return [f"{here}: moves differ"]
        if ours.dominance()[1:] != theirs.dominance()[1:]:
            bad.append(f"{here}: hands differ")
        if not ours.is_or():  # the replies are counted at the defender's nodes
            for grouped in ((True, False), (False, False), (True, True)):
                if ours.reply_count(*grouped) != theirs.reply_count(*grouped):
                    bad.append(f"{here}: reply_count{grouped} differs")
            bad += [f"{here} {ours.pos.usi(m)}: is_interposition differs" for m in moves
                    if ours.is_interposition(m) != theirs.is_interposition(m)]
            bad += [f"{here} {ours.pos.usi(m)}: interposition_group differs" for m in moves
                    if ours.interposition_group(m) != theirs.interposition_group(m)]
            bad += [f"{here} square {sq}: next_to_king differs" for sq in range(81)
                    if ours.next_to_king(sq) != theirs.next_to_king(sq)]
        if not moves:
            break
        m = rng.choice(moves)
        ours.play(m)
        theirs.play(m)
    return bad


def test_the_cores_game_serves_the_answer_what_the_rules_engine_does():
    rng = random.Random(4545)
    sfens = [r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv")]
    sfens += [r["sfen"] for r in read_rows("yaneuraou_mate_samples.csv")]
    bad = []
    for sfen in sfens:
        bad += _game_differences(sfen, rng, rng.randint(1, 12))
    assert bad == []


def test_the_cores_game_refuses_a_move_it_cannot_play():
    game = NativeGame(Position.from_sfen("7k1/9/7G1/9/9/9/9/9/9 b G 1"))
    with pytest.raises(ValueError, match="cannot be played"):
        game.play(5 | 6 << 7)  # from an empty square
    with pytest.raises(IndexError):
        game.undo()


def _answer(pos, backend, **options) -> dict:
    out = solve_tsume(pos, backend=backend, **options)
    assert out["status"] == "mate", (backend, pos.sfen())
    assert replay_answer(pos, out["pv"]).startswith("ok")
    return out


def test_native_answers_on_the_yaneuraou_samples_are_exact_and_replay_as_mate():
    # with the default budget after a proof every answer is proven shortest (measured:
    # the Python search's too, mate11-4 aside under load, docs/dfpn-notebook.md)
    for r in read_rows("yaneuraou_mate_samples.csv"):
        pos = Position.from_sfen(r["sfen"])
        out = _answer(pos, "native")
        assert out["backend"] == "native" and out["shortest_exact"] is True, r["sfen"]
        assert out["length"] <= int(r["stated_length"]) and out["plies"] >= out["length"]


@pytest.mark.parametrize("name", ["mate5-2", "mate7-6", "mate9-1", "mate7-5"])
def test_native_answers_are_no_longer_than_the_python_searchs(name):
    # answers the shortening or the bounded search changed, and two whose useless
    # interpositions are not counted (mate7-6: 5 counted, mate9-1: 7)
    pos = _sample(name)
    ours, theirs = _answer(pos, "cshogi"), _answer(pos, "native")
    assert theirs["length"] <= ours["length"]
    assert theirs["shortest_exact"] or not ours["shortest_exact"]


@pytest.mark.slow
def test_native_answers_on_every_yaneuraou_sample_are_no_longer_than_the_python_searchs():
    for r in read_rows("yaneuraou_mate_samples.csv"):
        pos = Position.from_sfen(r["sfen"])
        ours, theirs = _answer(pos, "cshogi", shortest=True), _answer(pos, "native", shortest=True)
        assert theirs["length"] <= ours["length"], r["sfen"]
        assert theirs["shortest_exact"] and ours["shortest_exact"], r["sfen"]


def test_solve_with_the_native_backend_says_whether_its_answer_is_the_shortest(capsys):
    from tsumeqbf.cli import main

    sfen = _sample("mate7-6").sfen()
    assert main(["solve", sfen, "--backend", "native", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("mate in 5") and "shortest: exact" in text
    assert main(["solve", sfen, "--backend", "native", "--json", "--check-shortest"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["backend"] == "native" and out["answer"] == "proof" and out["plies"] == 7
    assert out["shorter_mate_exists"] is False and out["dag"] is True and out["inherit"] is True
    assert main(["solve", sfen, "--backend", "native", "--heuristics", "ABC"]) == 2
    assert "backend 'native' has no option heuristics" in capsys.readouterr().err


def test_when_the_budget_runs_out_the_answer_says_how_far_the_cores_bounded_search_got(capsys):
    from tsumeqbf.cli import main

    # zukou-050: a 21-ply line, every ply counted, where bounded df-pn needs millions of
    # nodes to rule out 19, far past the default budget (the proof's 139,688)
    sfen = next(r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv") if r["id"] == "zukou-050")
    assert main(["solve", sfen, "--backend", "native", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["shortest_exact"] is False and out["plies"] == 21
    within = out["no_mate_within"]
    assert within % 2 == 1 and 1 <= within < out["plies"] - 2
    # what it ruled out holds: no mate within those plies (the core's bounded search
    # asked once, at that bound alone)
    from tsumeqbf import native

    assert native.mate(Position.from_sfen(sfen), within)["proven"] is False
    assert main(["solve", sfen, "--backend", "native", "--quiet"]) == 0
    assert f"no mate within {within} plies, every ply counted, then the budget ran out" in \
        capsys.readouterr().out


def test_solve_below_goes_on_in_the_cores_tables():
    pos = _sample("mate9-1")
    game = NativeGame(pos.copy())
    search = NativeSearch(game)
    first = game.moves()[0]
    assert search.solve_below([first], 100_000) in (True, False)
    assert search.current_line() == []  # back at the root
    spent = search.nodes
    assert spent > 0 and search.solve_below([first], 100_000) in (True, False)
    assert search.nodes == spent  # settled in the tables: no node more
    assert search.solve().proven is True and search.root_numbers[0] == 0
    assert search.solve_below([first], 0) in (True, False)  # a settled node needs no node
    with pytest.raises(ValueError, match="illegal"):
        search.solve_below([first, first], 10)


def test_the_native_search_stops_at_its_limits():
    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[0]["sfen"])  # 69 plies
    out = solve_tsume(pos, backend="native", max_nodes=2_000)
    assert out["status"] == "unknown" and "node limit 2000" in out["error"]
    assert out["nodes"] <= 2_001 and out["backend"] == "native"
    # a timeout past the core's clock is none ('solve --timeout 1e10' stopped at once)
    out = solve_tsume(pos, backend="native", max_nodes=2_000, timeout=1e10)
    assert out["status"] == "unknown" and "node limit 2000" in out["error"]


@pytest.mark.parametrize("backend", ["native", "rules"])
def test_a_timeout_of_0_stops_both_backends_alike(backend):
    # solve_tsume read timeout 0 as no limit (only the node limit stopped it here)
    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[0]["sfen"])  # 69 plies
    out = solve_tsume(pos, backend=backend, max_nodes=5_000, timeout=0)
    assert out["status"] == "unknown" and "time" in out["error"], out
    assert out["nodes"] <= 512
    with pytest.raises(ValueError, match="0 seconds or more"):
        solve_tsume(pos, backend=backend, max_nodes=5_000, timeout=-1)


def test_a_stop_in_the_core_while_looking_for_a_shorter_line_keeps_the_answer():
    import signal

    from tsumeqbf.stop import Stopped

    def progress(search):  # a signal's exception raised inside the core's search
        if search.root_numbers[0] == 0:  # proven: the searches for a shorter line run
            raise Stopped(signal.SIGTERM)

    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[1]["sfen"])  # zukou-002
    out = solve_tsume(pos, backend="native", progress=progress, progress_every=64,
                      answer_on_stop=True)
    assert out["status"] == "mate" and out["stopped"] == "SIGTERM" and out["exit_status"] == 143
    assert replay_answer(pos, out["pv"]).startswith("ok") and out["backend"] == "native"
    with pytest.raises(Stopped):  # a caller that did not ask gets the stop
        solve_tsume(pos, backend="native", progress=progress, progress_every=64)


def test_ctrl_c_stops_the_cores_search():
    import os
    import signal
    import subprocess

    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[0]["sfen"])  # 69 plies
    game = NativeGame(pos.copy())
    search = NativeSearch(game)
    # Ctrl-C from another process: a thread of this one would need the GIL, which the
    # core holds between its calls to Python
    # Python's own Ctrl-C handler for the test: a test run started in the background of a
    # non-interactive shell (as CI may start it) inherits SIGINT ignored, and Python then
    # installs no handler, so the signal would never raise KeyboardInterrupt
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    sender = subprocess.Popen(["sh", "-c", f"sleep 0.3; kill -INT {os.getpid()}"])
    try:
        with pytest.raises(KeyboardInterrupt):
            search.solve()
    finally:
        sender.wait()
        signal.signal(signal.SIGINT, before)
    stopped_at = search.nodes
    assert 0 < stopped_at and search.current_line() == []  # back at the root
    search.max_nodes = stopped_at + 1_000  # the tables are whole: the search goes on
    assert search.solve().proven is None and search.nodes > stopped_at


def test_the_search_for_shorter_lines_never_lengthens_the_answer():
    # zukou-065: the core's proof reads as a 31-move answer by the convention (39 plies);
    # the shortening finds a 37-ply line whose ranking, every ply counted, reads as 35:
    # the answer keeps the shorter reading of the two
    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[64]["sfen"])
    alone = solve_tsume(pos, backend="native", shortest_up_to=0, shorten_nodes=0)
    shortened = solve_tsume(pos, backend="native", shortest_up_to=0, shorten_nodes=150_000)
    assert alone["status"] == shortened["status"] == "mate" and shortened["shorten_spent"] > 0
    assert shortened["length"] <= alone["length"]
    assert replay_answer(pos, shortened["pv"]).startswith("ok")


def _usi_line(game, moves) -> list[str]:
    """``moves`` from the game's current node in USI (the game is left unchanged)."""
    out = []
    for m in moves:
        out.append(game.pos.usi(m))
        game.play(m)
    for _ in moves:
        game.undo()
    return out


def test_the_search_for_shorter_lines_tries_the_checks_along_the_answers_line():
    # zukou-020: the core's proof reads as 41 by the convention through 8i7i S*6h 7i6h,
    # whose branch is 32 plies though the silver mates at once after 2b2c 2d3d (S*4e,
    # open in the core's tables; the Python search's proof has it: 39). The line by
    # distance, every ply counted, goes through 8i7i P*6h instead (as far from mate), so
    # only a walk along the answer's own line offers that check to the shortening
    from tsumeqbf.dfpn.answer import _candidates, principal_variation, rank_proven

    pos = Position.from_sfen(read_rows("open_tsume_zukou_musou.csv")[19]["sfen"])
    game = NativeGame(pos.copy())
    search = NativeSearch(game)
    assert search.solve().proven
    rank = rank_proven(search, game)
    line = principal_variation(search, game, rank=rank)
    usi = _usi_line(game, line)
    assert len(line) == 41 and usi[8:11] == ["8i7i", "S*6h", "7i6h"]
    tried = [_usi_line(game, path) for _, path in _candidates(search, game, rank, 1)]
    target = usi[:16] + ["S*4e"]
    assert target in tried
    path = next(p for _, p in _candidates(search, game, rank, 1) if _usi_line(game, p) == target)
    assert search.solve_below(path, 500) is True  # a mate in 1


@pytest.mark.parametrize("problem", ["zukou-003", "zukou-036", "zukou-063"])
def test_shortened_native_answers_are_no_longer_than_the_proofs_nor_the_python_searchs(problem):
    # the same shortening budget for both searches (50,000 nodes: the Python search's own
    # after these proofs); the core's proofs read 51, 23 and 37 alone
    pos = Position.from_sfen(next(r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv")
                                  if r["id"] == problem))
    alone = solve_tsume(pos, backend="native", shortest_up_to=0, shorten_nodes=0)
    ours = solve_tsume(pos, backend="native", shortest_up_to=0, shorten_nodes=50_000)
    theirs = solve_tsume(pos, backend="cshogi", shortest_up_to=0, shorten_nodes=50_000)
    assert alone["status"] == ours["status"] == theirs["status"] == "mate"
    assert ours["length"] <= alone["length"] and ours["length"] <= theirs["length"]
    assert replay_answer(pos, ours["pv"]).startswith("ok")


class _PythonWalks:
    """A native search seen without its own walks: the answer code's Python walks run on
    its tables."""

    def __init__(self, search):
        self._search = search

    def __getattr__(self, name):
        if name in ("rank_proven", "principal_variation"):
            raise AttributeError(name)
        return getattr(self._search, name)


def _proven(problem: str) -> tuple:
    """An Edo problem proven by the core: (its game, the search, the search seen without
    its own walks)."""
    pos = Position.from_sfen(next(r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv")
                                  if r["id"] == problem))
    game = NativeGame(pos.copy())
    search = NativeSearch(game)
    assert search.solve().proven
    return game, search, _PythonWalks(search)


@pytest.mark.parametrize("problem", ["zukou-020", "musou-066"])
def test_the_core_ranks_and_reads_the_proven_part_as_the_python_walks_do(problem):
    # the shortening's rankings and answers read by the core (the Python walks were
    # nearly all its time) are the Python walks' own, on the proof and after rounds of
    # shortening: with and without a rank, with and without useless interpositions, the
    # part below a node with a ranking given, and past the rank limit
    from tsumeqbf.dfpn.answer import _rank_line, principal_variation, rank_proven, shorten

    game, search, python = _proven(problem)
    for _ in range(2):
        rank = search.rank_proven(game, 500_000)
        assert rank and rank == rank_proven(python, game)
        assert search.rank_proven(game, len(rank) - 1) is rank_proven(python, game, len(rank) - 1) is None
        assert search.rank_proven(game, 500_000, {}) == rank_proven(python, game, known={})
        known = dict(list(rank.items())[: len(rank) // 3])
        line = _rank_line(game, rank)[:3]
        for m in line:
            game.play(m)
        expected = rank_proven(python, game, known=known)
        assert search.rank_proven(game, 500_000, known) == expected
        assert search.rank_proven(game, 500_000, search.ranking(known)) == expected
        for _ in line:
            game.undo()
        for order in (None, rank, search.ranking(rank)):
            for muda in (True, False):
                assert (search.principal_variation(game, muda, order)
                        == principal_variation(python, game, muda, order and dict(order)))
        shorten(search, game, 30_000)


def test_a_ranking_is_a_mapping_that_only_grows():
    from tsumeqbf.dfpn.native_solve import NativeSearch

    rank = NativeSearch.ranking({7: 3, 2**64 - 1: 0})
    assert (len(rank), rank[7], rank.get(8), rank.get(8, -1), 7 in rank, 8 in rank) == (
        2, 3, None, -1, True, False)
    assert "7" not in rank and -7 not in rank and 2**64 not in rank
    rank[8] = 1
    rank[7] = 2
    copy = rank.copy()
    rank.update({9: 5})
    rank.update(NativeSearch.ranking({10: 4}))
    assert dict(rank) == {7: 2, 8: 1, 9: 5, 10: 4, 2**64 - 1: 0} == rank
    assert sorted(rank.items()) == sorted(dict(rank).items()) and sorted(rank) == sorted(rank.keys())
    assert copy == {7: 2, 8: 1, 2**64 - 1: 0} and copy != rank and not NativeSearch.ranking()
    many = NativeSearch.ranking({k * 7919: k % 50 for k in range(20_000)})
    assert len(many) == 20_000 and all(many[k * 7919] == k % 50 for k in range(20_000))
    with pytest.raises(KeyError):
        rank[11]
    for key, value, error in ((-1, 0, TypeError), ("7", 0, TypeError), (7, -1, ValueError),
                              (7, "1", ValueError)):
        with pytest.raises(error):
            rank[key] = value
    with pytest.raises(TypeError, match="only grows"):
        del rank[7]
    with pytest.raises(TypeError, match="Ranking or a mapping"):
        NativeSearch.ranking([7])
    assert rank == {7: 2, 8: 1, 9: 5, 10: 4, 2**64 - 1: 0}
    bare = type(rank).__new__(type(rank))  # a Ranking whose __init__ never ran
    rank.update(bare)
    bare.update(rank)
    assert len(bare) == 5 and bare == rank and bare.copy() == rank


class _DictRankings:
    """A search whose rankings are dicts: the core's, without its Ranking."""

    def __init__(self, search):
        self._search = search

    def __getattr__(self, name):
        if name == "ranking":
            raise AttributeError(name)
        return getattr(self._search, name)


def test_the_rounds_rankings_are_the_same_in_a_ranking_as_in_a_dict():
    # the shortening past its rank limit ranks each round's proofs into a copy of the last
    # ranking (_rank_update): in the core's Ranking, the same entries as in a dict
    from tsumeqbf.dfpn.answer import _rank_line, _rank_update

    game, search, _ = _proven("zukou-020")
    rank = search.rank_proven(game, 500_000)
    line = _rank_line(game, rank)
    near = {k: d for k, d in rank.items() if d < len(line) // 2}  # the part near mate
    targets = [tuple(line[:i]) for i in range(0, len(line), 2)]  # the line's OR nodes
    before = dict(near)
    in_dict = _rank_update(_DictRankings(search), game, near, targets, 500_000)
    in_ranking = _rank_update(search, game, near, targets, 500_000)
    assert type(in_dict) is dict and type(in_ranking) is not dict
    assert in_ranking == in_dict and len(near) < len(in_dict)
    assert near == before  # each ranked into a copy


@pytest.mark.parametrize("problem", ["zukou-003", "zukou-036"])
def test_the_kept_ranking_of_the_whole_proven_part_is_a_fresh_walks_as_proofs_come(problem):
    # rank_proven without `known` keeps the part it walked and walks on from the links
    # proven since (ProvenGraph): after each batch of new proofs (the open checks along
    # the answer's line searched, the shallowest first) its ranking is the Python walk's
    # of the whole part, the part having grown; past a limit it is None, then within it
    # again the same ranking
    from tsumeqbf.dfpn.answer import principal_variation, rank_proven

    game, search, python = _proven(problem)
    rank = search.rank_proven(game, 500_000)
    assert rank == rank_proven(python, game)
    line = principal_variation(search, game, rank=rank)
    sizes = [len(rank)]
    for i in range(0, len(line), 2):
        for m in line[:i]:
            game.play(m)
        opened = []
        for m in game.moves():
            with game.played(m):
                if search.proof_seq(game.dominance()) is None:
                    opened.append(m)
        for _ in line[:i]:
            game.undo()
        for m in opened:
            search.solve_below(list(line[:i]) + [m], 2_000)
        rank = search.rank_proven(game, 500_000)
        assert rank == rank_proven(python, game)
        sizes.append(len(rank))
    assert sizes[-1] > sizes[0]
    assert search.rank_proven(game, len(rank) - 1) is None
    assert search.rank_proven(game, 500_000) == rank


def goal_length(problem_id: str) -> int:
    """The length of the core's answer to an Edo problem with the goal run's shortening
    (``--shorten-nodes 1000000``), after checking it is a mate that replays."""
    pos = Position.from_sfen(next(r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv")
                                  if r["id"] == problem_id))
    out = solve_tsume(pos, backend="native", max_nodes=10_000_000, shortest_up_to=0,
                      shorten_nodes=1_000_000)
    assert out["status"] == "mate" and replay_answer(pos, out["pv"]).startswith("ok")
    return out["length"]


def test_the_search_for_shorter_lines_goes_below_the_captures_of_interpositions():
    # musou-066: the core's proof reads 33 through the horse's check 2e3e after 7c6b; the
    # other check 2e2f reads 16 plies there, as the core's tables hold only a long line
    # below 2f5c, the capture of the interposition P*5c (6b6a then mates in 7). The
    # shortening walks the lines below the captures of interposed pieces along the
    # answer's side checks and finds the Python search's 29 (it read 33 without them)
    assert goal_length("musou-066") <= 29


@pytest.mark.slow
def test_the_search_for_shorter_lines_gives_the_answers_own_checks_a_larger_budget_early():
    # zukou-053: the core's proof reads 37 through B*9e N*8f 9e8f at ply 13; the Python
    # search's 35 plays B*8f there, an open check on the answer's line that needs about
    # 6,400 nodes after the proof and 700 after 100,000 nodes of shortening, more than
    # the rounds' 500 a candidate, and the rounds stay at 500 until past half the
    # budget. Proven that late, the proven part below it is too large to rank whole and
    # its line stays 36 plies below it. The shortening's pass along the answer's line
    # after its first rounds proves it while the rounds after it can still shorten below
    assert goal_length("zukou-053") <= 35


def test_the_candidates_given_again_where_side_checks_lines_meet_lead_to_open_nodes():
    # zukou-044 after a little shortening: the lines below its answer's side checks meet,
    # and a walk reaching a node another walk has passed gives that walk's candidates
    # again from its own path, so one open node is offered by several paths; each path
    # must still lead to the node its key names, and that node must be open
    from tsumeqbf.dfpn.answer import _candidates, shorten

    pos = Position.from_sfen(next(r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv")
                                  if r["id"] == "zukou-044"))
    game = NativeGame(pos.copy())
    search = NativeSearch(game)
    assert search.solve().proven
    shorten(search, game, 30_000)
    rank = search.rank_proven(game, 500_000)
    late: list = []
    found = _candidates(search, game, rank, 1, late) + late
    paths: dict = {}
    for key, path in found:
        paths.setdefault(key, set()).add(tuple(path))
        for m in path:
            game.play(m)
        assert game.key() == key
        assert search.proof_seq(game.dominance()) is None
        assert not search.is_disproven(game.dominance())
        for _ in path:
            game.undo()
    assert max(len(p) for p in paths.values()) > 1


class _Stop(Exception):
    pass


@pytest.mark.parametrize("backend", ["native", "cshogi"])
def test_the_search_is_told_before_it_runs_and_counts_what_a_stop_cut_short(backend):
    # a stop from outside (a CPU limit) ends the proof by an exception, so the answer is
    # never made: the nodes searched are read from the search on_search told
    sfen = [r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv") if r["id"] == "zukou-001"][0]
    told = []

    def stop(search):
        told.append(("progress", search.nodes))
        raise _Stop

    with pytest.raises(_Stop):
        solve_tsume(Position.from_sfen(sfen), max_nodes=10_000_000, backend=backend,
                    progress=stop, progress_every=4_096, on_search=told.append)
    search, (event, nodes_then) = told
    assert event == "progress" and nodes_then >= 4_096 and search.nodes >= nodes_then
    # and where nothing stops it, the search told is the one whose nodes the answer gives
    told.clear()
    out = solve_tsume(Position.from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1"), backend=backend,
                      on_search=told.append)
    assert out["status"] == "mate" and [s.nodes for s in told] == [out["nodes"]]


def test_a_cpu_limit_landing_while_the_answer_is_replayed_stops_the_solve_not_fails_it(
        monkeypatch):
    """The core's lines are replayed with the rules engine before they are given; a CPU
    limit (an exception from a signal) that lands there is the limit, not a line that does
    not replay (it was an answer with status error)."""
    from tsumeqbf.limits import LimitReached

    pos = _sample("mate7-6")
    real = Position.parse_usi

    def limit_on_the_third_move(self, text, _seen=[]):
        _seen.append(text)
        if len(_seen) == 3:
            raise LimitReached("CPU time limit (1 s)")
        return real(self, text)

    monkeypatch.setattr(Position, "parse_usi", limit_on_the_third_move)
    with pytest.raises(LimitReached):
        solve_tsume(pos, backend="native", shortest_up_to=0, shorten_nodes=0)
    monkeypatch.setattr(Position, "parse_usi", real)
    assert replay_answer(pos, ["1a1b"]).startswith("ply 1 1a1b: ")  # still the finding


def test_a_hand_past_the_unbounded_tables_goes_to_the_python_search():
    # 99 of a kind: the core's positions hold it (bounded df-pn answers) but its unbounded
    # tables do not; `auto` chose the core all the same and the solve was a ValueError
    from tsumeqbf import native
    from tsumeqbf.rules import InvalidQuestion

    many = Position.from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G99P 1")
    assert native.mate(many, 1)["proven"] is True
    out = solve_tsume(many.copy())
    assert out["backend"] == "rules" and out["status"] == "mate" and out["pv"] == ["G*5b"]
    with pytest.raises(InvalidQuestion, match="unbounded search holds at most 98"):
        solve_tsume(many.copy(), backend="native")
    with pytest.raises(InvalidQuestion, match="unbounded search holds at most 98"):
        native.tsume(many)
    fewer = Position.from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G98P 1")
    assert solve_tsume(fewer.copy())["backend"] == "native"


def test_limits_past_what_the_core_counts(capsys):
    # a node limit past 64 bits is none; plies past a C int go to the Python search under
    # auto and are refused by --backend native; a table past a billion entries is refused
    from tsumeqbf.cli import main

    sfen, huge = "7k1/9/7G1/9/9/9/9/9/9 b G 1", str(10 ** 23)
    for backend in ("native", "rules", "cshogi"):
        assert main(["solve", sfen, "--backend", backend, "--max-nodes", huge, "--quiet"]) == 0
        assert capsys.readouterr().out.startswith("mate in 1")
    assert main(["mate", sfen, "-n", "3", "--engine", "dfpn", "--max-nodes", huge, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["backend"] == "native"
    assert main(["mate", sfen, "-n", str(2 ** 31 + 1), "--engine", "dfpn", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["backend"] == "rules" and out["status"] == "mate"
    assert main(["mate", sfen, "-n", str(2 ** 31 + 1), "--engine", "dfpn", "--backend", "native"]) == 2
    assert "native core answers at most 2,147,483,647 plies" in capsys.readouterr().err
    assert main(["solve", sfen, "--tt-entries", huge]) == 2
    assert "--tt-entries must be from 2 to 1,000,000,000" in capsys.readouterr().err


@pytest.mark.parametrize("backend", ["native", "cshogi", "rules"])
def test_far_interpositions_that_delay_one_next_to_the_king_are_not_counted(backend):
    # the discovered check 3c3b+ can be met by a pawn on any square of the bishop's
    # diagonal; the one on 2b, next to the king, always counts (P*2b 3b2b), and each far
    # one is taken by the bishop with no gain: mate in 3, 15 plies with every ply counted
    pos = Position.from_sfen("8k/8p/6P2/9/9/9/9/9/B8 b - 1", tsume_hands=True)
    out = _answer(pos, backend, shorten_nodes=0, shortest_up_to=0)
    assert (out["length"], out["plies"]) == (3, 15)
    assert out["pv"] == ["3c3b+", "P*2b", "3b2b"]
