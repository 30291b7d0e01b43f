"""Unbounded df-pn: the GHI problem, repetition, hand dominance, heuristics, answers."""

import csv
import io
import json
import random

import networkx as nx
import pytest

from tsumeqbf.cli import main
from tsumeqbf.data import read_rows
from tsumeqbf.dfpn.answer import principal_variation, rank_proven, shorten
from tsumeqbf.dfpn.core import INF
from tsumeqbf.dfpn.game import Game, GraphGame, TsumeGame
from tsumeqbf.dfpn.solve import replay_answer, solve_tsume
from tsumeqbf.dfpn.tables import TsumeTables
from tsumeqbf.dfpn.tsume import TsumeSearch
from tsumeqbf.rules import Position
from tsumeqbf.rules.moves import board_move
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.reference import mate_within, minimal_mate_length



def attractor(g):
    """Nodes from which the attacker forces a defender node without replies, cycles being
    failures: the least fixpoint, straight from the definition."""
    win, changed = set(), True
    while changed:
        changed = False
        for v in g.nodes:
            if v in win:
                continue
            succ = list(g.successors(v))
            ok = any(s in win for s in succ) if g.nodes[v]["kind"] == "or" else all(s in win for s in succ)
            if ok:
                win.add(v)
                changed = True
    return win


def cyclic_graph(edges, n):
    g = nx.DiGraph()
    g.add_nodes_from((i, {"kind": "or" if i % 2 == 0 else "and"}) for i in range(n))
    g.add_edges_from(edges)
    return g


#: found by random search: a table that stores a repetition-based disproof like any other
#: answers "no mate" here, although 0 -> 1 -> 8 -> 3 -> 4 -> 5 -> 2 -> 3 ... mates
GHI_EDGES = [(0, 1), (1, 4), (1, 8), (2, 3), (3, 4), (4, 5), (4, 9), (5, 2), (8, 3), (8, 5),
             (10, 1), (11, 0), (11, 4)]


class NaiveTables(TsumeTables):
    """The GHI mistake on purpose: repetition-based disproofs stored for every path."""

    def store_disproof(self, key, dom, path_key, path_dependent, pieces=None):
        super().store_disproof(key, dom, path_key, False, pieces)


class NaiveSearch(TsumeSearch):
    tables_type = NaiveTables


def test_ghi_graph_where_a_naive_table_is_wrong():
    g = cyclic_graph(GHI_EDGES, 12)
    assert 0 in attractor(g)
    for mobility in (True, False):
        assert TsumeSearch(GraphGame(g, 0), mobility=mobility).solve().proven is True
    # the same search with path-blind disproofs fails here (with the search order that
    # plain initial numbers give), so this graph does test GHI
    assert NaiveSearch(GraphGame(g, 0), mobility=False).solve().proven is False


@pytest.mark.parametrize("heuristics,dag,tt_limit,mobility,simulation,probe", [
    ("", True, 10**6, True, False, 0), ("CDE", False, 10**6, True, True, 0),
    ("", True, 3, True, False, 0), ("", True, 10**6, False, True, 0),
    ("", True, 10**6, True, False, 3), ("", True, 3, False, False, 1)])
def test_random_cyclic_graphs_match_the_fixpoint(heuristics, dag, tt_limit, mobility, simulation,
                                                 probe):
    rng = random.Random(7)
    for _ in range(400):
        n = rng.randint(4, 16)
        edges = [(i, j) for i in range(n) for _ in range(rng.choice((0, 1, 1, 2, 2, 3)))
                 for j in [rng.randrange(n)] if i % 2 != j % 2]
        g = cyclic_graph(edges, n)
        res = TsumeSearch(GraphGame(g, 0), max_nodes=200_000, heuristics=heuristics, dag=dag,
                          tt_limit=tt_limit, mobility=mobility, simulation=simulation,
                          mate_probe=probe).solve()
        assert res.proven == (0 in attractor(g)), edges


def distances(g):
    """Distance to mate of every node, straight from the definition: value iteration
    from infinity (an AND node without replies is 0)."""
    inf = float("inf")
    d = {v: inf for v in g.nodes}
    for _ in range(len(g) + 2):
        new = {}
        for v in g.nodes:
            succ = [d[s] for s in g.successors(v)]
            if g.nodes[v]["kind"] == "or":
                new[v] = 1 + min(succ, default=inf)
            else:
                new[v] = 1 + max(succ) if succ else 0
        d = new
    return d


class ProvenAs:
    """A stand-in for a finished search whose proven nodes are exactly ``proven``."""

    def __init__(self, proven):
        self.proven = proven

    def proof_seq(self, dom):
        return 1 if dom[0] in self.proven else None


def test_rank_is_the_distance_to_mate_on_random_cyclic_graphs():
    rng = random.Random(5)
    ranked = 0
    for _ in range(300):
        n = rng.randint(4, 16)
        edges = [(i, j) for i in range(n) for _ in range(rng.choice((0, 1, 1, 2, 2, 3)))
                 for j in [rng.randrange(n)] if i % 2 != j % 2]
        g = cyclic_graph(edges, n)
        win = attractor(g)
        if 0 not in win:
            continue
        game = GraphGame(g, 0)
        rank = rank_proven(ProvenAs(win), game)
        want = distances(g)
        assert rank[0] == want[0], edges
        assert all(rank[v] == want[v] for v in rank), edges
        line = principal_variation(ProvenAs(win), game, muda=False, rank=rank)
        assert len(line) == want[0] and game.key() == 0  # the line is as long; game untouched
        ranked += 1
    assert ranked > 50


class InterposingGraph(GraphGame):
    """A graph whose moves are move integers (the destination square is what the
    useless-interposition test reads) and whose nodes say which replies interpose."""

    def is_interposition(self, m) -> bool:
        return self.graph.nodes[m].get("inter", False)

    def next_to_king(self, sq: int) -> bool:
        return sq in self.graph.graph["next_to_king"]


def interposition_graph(near_king=()):
    """The end of zukou-064's recorded line in miniature. The check C (-> A) can only be
    answered by interposing I1 on square 40. The attacker then mates at once with X, or
    captures the interposed piece (Y, onto 40), after which the defender can only
    interpose I2 on 50, and capturing that (Z) mates. X is the nearer mate counting every
    ply, so the ranking (and the line) takes X; Y's line is longer only by an interposition
    that is itself useless. So I1 only delays the mate and C is mate as counted."""
    a, i1, x = board_move(2, 30), board_move(3, 40), board_move(4, 10)
    y, i2, z = board_move(5, 40), board_move(6, 50), board_move(7, 50)
    g = nx.DiGraph(next_to_king=set(near_king))
    g.add_nodes_from([0, i1, i2], kind="or")
    g.add_nodes_from([a, x, y, z], kind="and")
    g.nodes[i1]["inter"] = g.nodes[i2]["inter"] = True
    g.add_edges_from([(0, a), (a, i1), (i1, x), (i1, y), (y, i2), (i2, z)])
    return g, (a, i1, x)


def test_an_interposition_is_useless_when_some_capture_mates_as_fast_not_only_the_shown_one():
    g, (a, i1, x) = interposition_graph()
    game = InterposingGraph(g, 0)
    search = ProvenAs(attractor(g))
    rank = rank_proven(search, game)
    assert principal_variation(search, game, muda=False, rank=rank) == [a, i1, x]
    # counted, I1 is useless although the line shows X after it, not the capture
    assert principal_variation(search, game, rank=rank) == [a]
    # an interposition next to the king always counts
    g, _ = interposition_graph(near_king={40})
    game = InterposingGraph(g, 0)
    assert principal_variation(search, game, rank=rank_proven(search, game)) == [a, i1, x]


def test_shortening_finds_a_shorter_mate_than_the_first_proof():
    pos = Position.from_sfen("4R/P4/1L3/2k2/5 b GSP 1", zone=2)
    first = solve_tsume(pos, max_nodes=100_000, shorten_nodes=0, shortest_up_to=0)
    out = solve_tsume(pos, max_nodes=100_000, shorten_nodes=60_000, shortest_up_to=0)
    assert first["plies"] == first["first_plies"] == out["first_plies"] == 17
    assert minimal_mate_length(pos, 17) <= out["plies"] < 17
    assert 0 < out["shorten_spent"] <= 60_000 + 1
    replay_ok(pos, out["pv"])


def test_shortening_keeps_its_last_ranking_when_the_next_is_too_large(monkeypatch):
    # musou-031 at 1M nodes: the shortening found a 37-ply line, the proven part then grew
    # past the ranking limit, and the answer fell back to the first proof's 47 plies
    import tsumeqbf.dfpn.answer as answer

    pos = Position.from_sfen("4R/P4/1L3/2k2/5 b GSP 1", zone=2)
    real, shorter_seen = answer.rank_proven, []

    def rank_until_shorter(search, game, limit=500_000, known=None):
        if shorter_seen:
            return None  # as if the proven part had outgrown the limit
        rank = real(search, game, limit, known)
        if rank is not None and rank.get(game.key(), 17) < 17:
            shorter_seen.append(rank[game.key()])
        return rank

    monkeypatch.setattr(answer, "rank_proven", rank_until_shorter)
    out = solve_tsume(pos, max_nodes=100_000, shorten_nodes=60_000, shortest_up_to=0)
    assert shorter_seen and out["first_plies"] == 17
    assert out["plies"] == shorter_seen[0] < 17
    replay_ok(pos, out["pv"])


def test_shortening_goes_on_when_the_whole_proven_part_is_too_large_to_rank(monkeypatch):
    # zukou-019 with the native core: after one round the proven part passed the ranking
    # limit and the shortening stopped with a ranking that lacked that round's proofs
    import tsumeqbf.dfpn.answer as answer

    pos = Position.from_sfen("4R/P4/1L3/2k2/5 b GSP 1", zone=2)
    real, root = answer.rank_proven, []

    def whole_part_too_large(search, game, limit=500_000, known=None):
        if not root:
            root.append(game.key())
        elif game.key() == root[0] and known is None:
            return None  # the root's proven part, after the first proof, is "too large"
        return real(search, game, limit, known)

    monkeypatch.setattr(answer, "rank_proven", whole_part_too_large)
    out = solve_tsume(pos, max_nodes=100_000, shorten_nodes=60_000, shortest_up_to=0)
    assert out["first_plies"] == 17
    assert minimal_mate_length(pos, 17) <= out["plies"] < 17
    assert replay_ok(pos, out["pv"]) == "ok"


def test_shortening_starts_from_the_proofs_part_when_the_whole_is_too_large(monkeypatch):
    # zukou-001 and 071 with the native core: the proven part reachable from the root is
    # past the ranking limit right after the proof, and the shortening did not start
    import tsumeqbf.dfpn.answer as answer

    pos = Position.from_sfen("4R/P4/1L3/2k2/5 b GSP 1", zone=2)
    real, whole_asked = answer.rank_proven, []

    def root_part_too_large(search, game, limit=500_000, known=None):
        if known is None:
            whole_asked.append(game.key())
            return None  # every whole proven part "too large"
        return real(search, game, limit, known)

    monkeypatch.setattr(answer, "rank_proven", root_part_too_large)
    out = solve_tsume(pos, max_nodes=100_000, shorten_nodes=60_000, shortest_up_to=0)
    assert whole_asked and out["first_plies"] == 17 and out["shorten_spent"] > 0
    assert minimal_mate_length(pos, 17) <= out["plies"] < 17
    assert replay_ok(pos, out["pv"]) == "ok"


def test_a_ranking_below_known_distances_ranks_only_the_rest_and_never_nearer():
    # what a round of the shortening adds to its ranking: the walk stops at the ranked
    # nodes and follows the proofs' own order elsewhere, so its distances are those of a
    # part of the proven part: never nearer to mate than the whole part's
    pos = Position.from_sfen("4R/P4/1L3/2k2/5 b GSP 1", zone=2)
    game = TsumeGame(pos.copy())
    search = TsumeSearch(game)
    assert search.solve().proven
    shorten(search, game, 20_000)
    whole = rank_proven(search, game)
    line = principal_variation(search, game, rank=whole)
    for m in line[:4]:
        game.play(m)
    below = rank_proven(search, game, known={})  # the proofs' part below the line's 4th ply
    for _ in line[:4]:
        game.undo()
    assert below and all(d >= whole[key] for key, d in below.items())
    part = rank_proven(search, game, known=below)
    assert part and game.key() in part and not part.keys() & below.keys()
    merged = {**below, **part}
    assert all(d >= whole[key] for key, d in merged.items())
    assert merged[game.key()] >= whole[game.key()]
    merged_line = principal_variation(search, game, rank=merged)
    assert replay_ok(pos, [pos.usi(m) for m in merged_line]) == "ok"


def test_a_shorter_exact_mate_becomes_the_answer():
    pos = Position.from_sfen("4R/P4/1L3/2k2/5 b GSP 1", zone=2)
    proof_only = solve_tsume(pos, max_nodes=100_000, shorten_nodes=0, shortest_up_to=0)
    out = solve_tsume(pos, max_nodes=100_000, shorten_nodes=0, shortest=True)
    # the proof's line has one far interposition that only delays a mate as long as the
    # one after an interposition next to the king: 17 plies, 15 counted
    assert proof_only["answer"] == "proof"
    assert (proof_only["length"], proof_only["plies"]) == (15, 17)
    shortest = minimal_mate_length(pos, 17)
    assert out["answer"] == "bounded" and out["length"] == out["plies"] == shortest < 15
    assert out["proof_length"] == 15
    assert out["pv"] == out["pv_shortest"] and len(out["pv_ja"]) == shortest
    assert replay_ok(pos, out["pv"]) == "ok"


def test_search_below_a_node_leaves_the_search_as_it_was():
    pos = Position.from_sfen("4R/P4/1L3/2k2/5 b GSP 1", zone=2)
    game = TsumeGame(pos)
    search = TsumeSearch(game)
    assert search.solve().proven
    root = game.key()
    first = principal_variation(search, game, muda=False)
    others = [m for m in game.moves() if m != first[0]]
    for m in first[:2]:
        game.play(m)
    deeper = [first[:2] + [m] for m in game.moves() if m != first[2]]
    for _ in first[:2]:
        game.undo()
    results = [search.solve_below(line, 300) for line in [[m] for m in others] + deeper]
    assert game.key() == root and not search._on_path and not search._line
    assert search.max_nodes is None
    assert any(r is not None for r in results)


def replay_ok(pos, usi_line):
    """Legal, every attacker move a check, and it ends in mate or in a check that only
    useless interpositions answer; returns the replay's verdict."""
    check = replay_answer(pos, usi_line)
    assert check.startswith("ok"), (check, usi_line, pos.sfen())
    return check


def generated(count=90, seed=11):
    return question_set(seed, count, sizes=((3, 3), (4, 4), (3, 4)), plies=(1,),
                        attacker_hand=3, defender_hand=2)


def test_unbounded_agrees_with_the_reference_on_generated_positions():
    twins = mates = 0
    for case in generated():
        pos = Position.from_sfen(case["sfen"], zone=case["zone"])
        out = solve_tsume(pos, max_nodes=200_000, shorten_nodes=5_000, shortest=True)
        assert out["status"] in ("mate", "nomate"), case
        twins += out["twins"]
        if out["mate"]:
            mates += 1
            end = replay_ok(pos, out["pv"])
            assert replay_ok(pos, out["pv_shortest"]) == "ok"  # every ply counted: a mate
            assert out["shortest_plies"] == minimal_mate_length(pos, out["plies"]), case
            assert out["length"] <= out["plies"] <= out["first_plies"]
            if out["length"] == out["plies"]:
                assert end == "ok"  # nothing skipped: the line ends in mate
        else:
            assert not mate_within(pos, 7), case
    assert mates > 20 and twins > 0  # both verdicts and repetition disproofs were exercised


@pytest.mark.parametrize("letters", list("ABCDEF") + ["ABCDEF"])
def test_each_heuristic_keeps_the_verdicts(letters):
    simulated = 0
    for case in generated(40, seed=12):
        pos = Position.from_sfen(case["sfen"], zone=case["zone"])
        plain = solve_tsume(pos, max_nodes=200_000, shorten_nodes=0, shortest=True)
        for dag, mobility, simulation in ((True, True, True), (False, False, False)):
            out = solve_tsume(pos, max_nodes=200_000, heuristics=letters, dag=dag, mobility=mobility,
                              simulation=simulation, shorten_nodes=0, shortest=True)
            simulated += out["simulations"][1]
            assert out["mate"] == plain["mate"], (case, letters, dag)
            if out["mate"]:
                assert out["shortest_plies"] == plain["shortest_plies"]
                replay_ok(pos, out["pv"])
    assert simulated > 0  # simulation did prove some replies


def test_hand_dominance_proof_covers_a_bigger_hand():
    small = Position.from_sfen("2k/3/1G1 b G 1", zone=1)
    search = TsumeSearch(TsumeGame(small))
    assert search.solve().proven
    big = Position.from_sfen("2k/3/1G1 b GS 1", zone=1)
    board_key, att, dfn = TsumeGame(big).dominance()
    assert search.proof_seq((board_key, att, dfn)) is not None
    assert search.proof_seq(TsumeGame(Position.from_sfen("2k/3/1G1 b - 1", zone=1)).dominance()) is None


def test_proof_pieces_prove_smaller_attacker_and_larger_defender_hands():
    big = Position.from_sfen("2k/3/1G1 b GSp 1", zone=1)
    search = TsumeSearch(TsumeGame(big))
    assert search.solve().proven
    board_key = TsumeGame(big).dominance()[0]

    def proven(sfen):
        b, att, dfn = TsumeGame(Position.from_sfen(sfen, zone=1)).dominance()
        assert b == board_key
        return search.proof_seq((b, att, dfn)) is not None

    # G*1b and S*2b both mate: the proof needs one of the two pieces, not both; more of
    # a kind the defender holds gives it no new move, a kind it lacks might (a drop)
    one = "G" if proven("2k/3/1G1 b Gp 1") else "S"
    assert proven(f"2k/3/1G1 b {one}p 1") and proven(f"2k/3/1G1 b {one} 1")
    assert proven(f"2k/3/1G1 b {one}3p 1")
    assert not proven(f"2k/3/1G1 b {one}pl 1")
    assert not proven("2k/3/1G1 b p 1")
    exact = TsumeSearch(TsumeGame(big), proof_pieces=False)
    assert exact.solve().proven
    b, att, dfn = TsumeGame(Position.from_sfen(f"2k/3/1G1 b {one}p 1", zone=1)).dominance()
    assert exact.proof_seq((b, att, dfn)) is None


def test_disproof_pieces_never_cover_a_stronger_attacker_with_new_checks():
    def dom(sfen):
        return TsumeGame(Position.from_sfen(sfen, zone=1)).dominance()

    search = TsumeSearch(TsumeGame(Position.from_sfen("2k/3/3 b P 1", zone=1)))
    assert search.solve().proven is False
    assert search.is_disproven(dom("2k/3/3 b Pg 1"))  # the defender holds more: still no mate
    # a second pawn checks again after K x 1b (P*1c): not covered
    assert not search.is_disproven(dom("2k/3/3 b 2P 1"))
    # an attacker's node without a check: more of a kind it holds adds no check, a kind
    # it lacks might (a drop); the defender's hand does not matter
    board, _, _ = dom("2k/3/3 b P 1")
    att, dfn = (1, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 1, 0, 0)
    allow, need = search.tables.disproof_pieces((board, att, dfn), True, [])
    assert allow[0] > 1 and allow[1:] == (0,) * 6 and need == (0,) * 7


@pytest.mark.parametrize("seed", [21, 22])
def test_proof_pieces_keep_the_verdicts(seed):
    for case in generated(60, seed=seed):
        pos = Position.from_sfen(case["sfen"], zone=case["zone"])
        on = solve_tsume(pos, max_nodes=200_000, shorten_nodes=0, shortest_up_to=0)
        search = TsumeSearch(TsumeGame(pos.copy()), max_nodes=200_000, proof_pieces=False)
        assert on["mate"] == search.solve().proven == mate_within(pos, 9), case
        if on["mate"]:
            replay_ok(pos, on["pv"])


def test_yaneuraou_samples_shortest_mate_is_the_stated_length():
    for r in read_rows("yaneuraou_mate_samples.csv"):
        pos = Position.from_sfen(r["sfen"])
        out = solve_tsume(pos, max_nodes=300_000, shortest=True, shorten_nodes=0)
        assert out["status"] == "mate" and out["shortest_exact"]
        replay_ok(pos, out["pv"])
        assert out["shortest_plies"] == int(r["stated_length"]), r


def test_solve_command_json(capsys):
    assert main(["solve", "2k/3/1GP b - 1", "--zone", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "mate" and out["length"] == 1 and out["pv"][0] in ("2c1b", "1c1b+")
    assert out["nodes"] > 0 and out["time_s"] >= 0


def test_unbounded_statistics_count_table_hits():
    searched = solve_tsume(Position.from_sfen("4R/P4/1L3/2k2/5 b GSP 1", zone=2), shorten_nodes=0)
    assert searched["tt_hits"] > searched["nodes"] > 100  # children met again and again
    bare = solve_tsume(Position.from_sfen("2k/3/3 b - 1", zone=1), shorten_nodes=0)
    assert bare["status"] == "nomate" and bare["tt_hits"] == 0  # no check: nothing looked up


def test_solve_command_limits_and_bad_input(capsys):
    sfen = [r["sfen"] for r in read_rows("yaneuraou_mate_samples.csv") if r["stated_length"] == "11"][0]
    assert main(["solve", sfen, "--max-nodes", "5", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "unknown"
    assert main(["solve", "2k/3/1GP b - 1", "--heuristics", "XYZ"]) == 2
    assert "heuristic" in capsys.readouterr().err
    assert main(["solve", "3/3/1GP b - 1"]) == 2


def test_solve_tells_its_phases_and_the_whole_time():
    pos = Position.from_sfen("4R/P4/1L3/2k2/5 b GSP 1", zone=2)
    phases = []
    out = solve_tsume(pos, max_nodes=100_000, shorten_nodes=2_000, on_phase=phases.append)
    assert out["status"] == "mate" and len(phases) == 2
    assert phases[0].startswith("mate proven, a line of 17 plies")
    assert "looking for shorter mates with up to 2,000 more nodes" in phases[0]
    # then bounded df-pn, below the best line the shortening left
    assert phases[1].startswith("a line of ") and "with up to 20,000 nodes" in phases[1]
    assert "bounded df-pn looks for a mate within" in phases[1]
    assert out["total_s"] >= out["time_s"] and "stopped" not in out


def test_a_mate_in_1_is_answered_at_once():
    # the shortening used to spend 50,000 nodes on the other checks of a mate in 1
    out = solve_tsume(Position.from_sfen("2k/3/1GP b - 1", zone=2))
    assert out["length"] == 1 and out["shortest_exact"] is True
    assert out["shorten_spent"] == 0 and out["after_nodes"] == 0


def test_by_default_the_search_for_a_shorter_line_has_a_share_of_the_proofs_work():
    for r in read_rows("yaneuraou_mate_samples.csv")[:3]:  # mates in 3, proven in a few nodes
        pos = Position.from_sfen(r["sfen"])
        out = solve_tsume(pos)
        # the shortening spent 50,000 nodes after a proof of 3 to 9 nodes before
        assert out["nodes"] < 100 and out["shorten_spent"] <= 10_000 + 1
        assert out["after_nodes"] == out["shorten_spent"] + out["bounded_nodes"]
        assert out["bounded_nodes"] <= 20_000 + 1
        # bounded df-pn decided that no mate in 1 exists: the answer is the shortest
        assert out["shortest_exact"] is True and out["length"] == out["shortest_plies"] == 3
        assert replay_ok(pos, out["pv"]) == "ok"


def test_the_answer_says_whether_it_is_the_exact_shortest(monkeypatch):
    import tsumeqbf.dfpn.solve as solve_module

    pos = Position.from_sfen("4R/P4/1L3/2k2/5 b GSP 1", zone=2)
    exact = solve_tsume(pos, shorten_nodes=0, shortest=True)
    assert exact["shortest_exact"] is True and exact["first_plies"] == 17
    assert exact["length"] == exact["shortest_plies"] == minimal_mate_length(pos, 17)
    # a budget too small for bounded df-pn (it needs about 12,000 nodes here): the answer
    # is the proofs' line, and says that it may not be the shortest
    monkeypatch.setattr(solve_module, "AFTER_FLOOR_BOUNDED", 100)
    budgeted = solve_tsume(pos, shorten_nodes=0)
    assert budgeted["shortest_exact"] is False  # as many nodes as the proof's 748
    assert budgeted["bounded_nodes"] <= budgeted["nodes"] + 1 < 12_000
    assert (budgeted["length"], budgeted["plies"]) == (15, 17) and "shortest_plies" not in budgeted
    replay_ok(pos, budgeted["pv"])


def test_solve_prints_whether_the_answer_is_the_shortest(capsys, monkeypatch):
    import tsumeqbf.dfpn.solve as solve_module

    assert main(["solve", "2k/3/1GP b - 1", "--zone", "2"]) == 0
    assert "shortest: exact (a mate in 1)" in capsys.readouterr().out
    sfen = ["solve", "4R/P4/1L3/2k2/5 b GSP 1", "--zone", "2", "--quiet", "--shorten-nodes", "0"]
    assert main(sfen + ["--shortest"]) == 0
    assert "shortest: exact (bounded df-pn: no mate within 9 plies" in capsys.readouterr().out
    monkeypatch.setattr(solve_module, "AFTER_FLOOR_BOUNDED", 100)
    assert main(sfen + ["--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shortest_exact"] is False
    assert main(sfen) == 0
    assert "shortest: not proven" in capsys.readouterr().out


@pytest.mark.parametrize("phase, below_root", [("shorten", False), ("shorten", True),
                                               ("shorter_mate", False)])
def test_a_stop_while_looking_for_a_shorter_line_keeps_the_answer(monkeypatch, capsys, phase,
                                                                  below_root):
    import signal

    import tsumeqbf.dfpn.solve as solve_module
    from tsumeqbf.stop import Stopped

    def stop(search, game, *args, **kwargs):
        if below_root:  # the stop comes while the search has a move played (USI, under load)
            game.play(game.moves()[0])
        raise Stopped(signal.SIGTERM)

    monkeypatch.setattr(solve_module, phase, stop)
    pos = Position.from_sfen("4R/P4/1L3/2k2/5 b GSP 1", zone=2)
    out = solve_tsume(pos, max_nodes=100_000, answer_on_stop=True)
    assert out["status"] == "mate" and out["stopped"] == "SIGTERM" and out["exit_status"] == 143
    replay_ok(pos, out["pv"])  # the first proof's line when the stop came before the ranking
    with pytest.raises(Stopped):  # a caller that did not ask gets the stop
        solve_tsume(pos, max_nodes=100_000)
    code = main(["solve", "4R/P4/1L3/2k2/5 b GSP 1", "--zone", "2", "--quiet"])
    captured = capsys.readouterr()
    assert code == 143 and captured.out.startswith("mate in ")
    assert "stopped by SIGTERM while looking for a shorter line" in captured.err


def test_dfpn_benchmark_writes_a_row_per_problem(tmp_path, capsys):
    from tsumeqbf.bench.dfpn import main as bench

    out = tmp_path / "edo.csv"
    assert bench(["--edo", "3", "--max-nodes", "5000", "--heuristics", "", "--csv", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "bounded total" in printed and "this run: " in printed
    with open(out, encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["id"] for r in rows] == ["zukou-001", "zukou-002", "zukou-003"]
    for r in rows:
        assert r["status"] in ("mate", "unknown")
        if r["status"] == "mate":
            assert r["replay"] == "ok" and int(r["plies"]) <= int(r["first_plies"])
    assert any(r["status"] == "mate" for r in rows)


def test_dfpn_benchmark_resumes_without_redoing_rows(tmp_path, capsys):
    from tsumeqbf.bench.dfpn import main as bench

    pytest.importorskip("cshogi")

    out = tmp_path / "edo.csv"
    args = ["--no-bounded", "--max-nodes", "3000", "--shorten-nodes", "0", "--csv", str(out)]
    assert bench(["--edo", "2", "--backend", "cshogi"] + args) == 0
    first = out.read_text(encoding="utf-8")
    capsys.readouterr()
    assert bench(["--edo", "3", "--resume"] + args) == 0
    printed = capsys.readouterr().out
    assert "resuming: 2 problems" in printed and "bounded total" not in printed
    solved = sum(r["status"] == "mate" for r in csv.DictReader(io.StringIO(out.read_text())))
    assert f"solved {solved}/3 (zukou {solved}/3)" in printed  # the summary counts every row
    text = out.read_text(encoding="utf-8")
    assert text.startswith(first)  # the finished rows are kept as they were
    with open(out, encoding="utf-8") as fh:
        assert [r["id"] for r in csv.DictReader(fh)] == ["zukou-001", "zukou-002", "zukou-003"]


def test_dfpn_benchmark_solves_the_problems_named(tmp_path, capsys):
    from tsumeqbf.bench.dfpn import main as bench

    out = tmp_path / "edo.csv"
    args = ["--no-bounded", "--max-nodes", "3000", "--shorten-nodes", "0", "--csv", str(out)]
    assert bench(["--ids", "musou-002,zukou-002"] + args) == 0
    with open(out, encoding="utf-8") as fh:
        assert [r["id"] for r in csv.DictReader(fh)] == ["musou-002", "zukou-002"]
    from bench_refusal import refusal

    assert refusal(capsys, "dfpn", ["--ids", "zukou-002,zukou-201"] + args
                   ).startswith("unknown problem id(s) zukou-201")


def bench_passes_on(monkeypatch, keyword, *extra_args):
    """The values of solve_tsume's ``keyword`` in one benchmark run per argument list."""
    import tsumeqbf.bench.dfpn as bench_dfpn

    seen = []
    real = bench_dfpn.solve_tsume
    monkeypatch.setattr(bench_dfpn, "solve_tsume",
                        lambda pos, options, **kw: seen.append(getattr(options, keyword))
                        or real(pos, options, **kw))
    args = ["--no-bounded", "--max-nodes", "3000", "--shorten-nodes", "0", "--ids", "zukou-002"]
    for extra in extra_args:
        assert bench_dfpn.main(args + extra) == 0
    return seen


def test_dfpn_benchmark_passes_the_table_size_on(monkeypatch, capsys):
    # long runs need a larger table (zukou-091: 6.7M entries); the option must reach solve
    import tsumeqbf.bench.dfpn as bench_dfpn

    assert bench_passes_on(monkeypatch, "tt_limit", ["--tt-entries", "5000"], []) == [5000, 1_000_000]
    args = ["--no-bounded", "--max-nodes", "3000", "--ids", "zukou-002"]
    with pytest.raises(SystemExit) as exc:
        bench_dfpn.main(args + ["--tt-entries", "1"])
    assert exc.value.code == 2
    assert "--tt-entries must be from 2 to 1,000,000,000" in capsys.readouterr().err


def test_dfpn_benchmark_and_solve_pass_grouped_interpositions_on(monkeypatch, capsys):
    assert bench_passes_on(monkeypatch, "group_interpositions", ["--group-interpositions"], []) == [True, False]
    sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1"  # zukou-002
    capsys.readouterr()
    assert main(["solve", sfen, "--group-interpositions", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "mate" and out["group_interpositions"] is True


@pytest.mark.parametrize("option, seed", [("group_drops", 23), ("group_drops", 24),
                                          ("group_interpositions", 29),
                                          ("group_interpositions", 30),
                                          ("group_promotions", 25), ("group_promotions", 26),
                                          ("inherit", 27), ("inherit", 28)])
def test_options_that_guide_the_search_keep_the_verdicts(option, seed):
    # grouping drops or promotion pairs, or numbers inherited from the same board with
    # other hands, change which node is searched next, never what counts as proven
    for case in generated(60, seed=seed):
        pos = Position.from_sfen(case["sfen"], zone=case["zone"])
        verdicts = set()
        for grouped in (True, False):
            search = TsumeSearch(TsumeGame(pos.copy()), max_nodes=200_000, **{option: grouped})
            verdicts.add(search.solve().proven)
        assert verdicts == {mate_within(pos, 9)}, case


def test_a_reply_with_and_without_promotion_starts_as_one_proof_number_unit():
    # R*1e: the king steps to 2a or 2b, the silver interposes on 1c or takes on 1e with or
    # without promotion: five replies, four once the two captures count as one
    pos = Position.from_sfen("4k/5/5/3s1/5 b R 1", zone=1)
    check = pos.parse_usi("R*1e")
    game = TsumeGame(pos.copy())
    game.play(check)
    assert sorted(game.pos.usi(m) for m in game.moves()) == ["1a2a", "1a2b", "2d1c", "2d1e", "2d1e+"]
    game.undo()
    start = {grouped: dict(zip(game.moves(), TsumeSearch(game, group_promotions=grouped)
                                ._children(game.moves(), True)))[check][3][0]
             for grouped in (False, True)}
    assert start == {False: 5, True: 4}


def test_interposing_drops_onto_one_square_start_as_one_proof_number_unit():
    # R*1e checks from afar: the defender may interpose gold, silver or pawn on 1b, 1c
    # and 1d (9 drops) or move its king (2 squares); grouped, the drops count 3
    pos = Position.from_sfen("4k/5/5/5/5 b Rgsp 1", zone=1)
    check = pos.parse_usi("R*1e")
    start = {}
    for group_drops in (True, False):
        game = TsumeGame(pos.copy())
        search = TsumeSearch(game, group_drops=group_drops)
        game.play(check)
        replies = game.moves()
        game.undo()
        init = dict(zip(game.moves(), search._children(game.moves(), True)))[check][3]
        start[group_drops] = init[0]
    assert start[False] == len(replies)
    drops = sum(1 for m in replies if pos.usi(m)[1] == "*")
    assert drops == 9 and start[True] == len(replies) - drops + 3


def test_every_interposition_counts_once_when_grouped():
    # R*1e against the king on 1a with a silver on 2d and gold, silver, pawn in hand: 9
    # drops and the silver's 2d1c block the line (10 interpositions), the king steps to
    # 2a or 2b, the silver takes on 1e with or without promotion (4 other replies)
    pos = Position.from_sfen("4k/5/5/3s1/5 b Rgsp 1", zone=1)
    check = pos.parse_usi("R*1e")
    game = TsumeGame(pos.copy())
    game.play(check)
    blocks = sorted(game.pos.usi(m) for m in game.moves() if game.interposition_group(m))
    others = sorted(game.pos.usi(m) for m in game.moves() if not game.interposition_group(m))
    assert others == ["1a2a", "1a2b", "2d1e", "2d1e+"]
    assert len(blocks) == 10 and "2d1c" in blocks
    assert game.reply_count(True, True) == 5  # others plus one for all the blocks
    game.undo()
    start, after = {}, {}
    for grouped in (False, True):
        search = TsumeSearch(TsumeGame(pos.copy()), group_interpositions=grouped)
        start[grouped] = dict(zip(search.game.moves(), search._children(search.game.moves(), True)))[check][3][0]
        search.game.play(check)
        after[grouped] = search._mid(1, 0, 2, INF)[0]  # one expansion: every reply at pn 1
    # ungrouped: 4 others, the silver's block and drops on 3 squares (grouped by square)
    assert start == {False: 8, True: 5} and after == {False: 8, True: 5}


def test_progress_shows_the_roots_numbers_after_the_table_drops_entries():
    # a small table drops the root's entry (its work is counted only when it returns);
    # the progress line must still show the root's numbers, not the (1, 1) of a fresh node
    pos = Position.from_sfen("9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1")  # zukou-002
    seen = []
    search = TsumeSearch(TsumeGame(pos), max_nodes=3_000, tt_limit=40, progress_every=100,
                         progress=lambda s: seen.append(s.root_status()))
    search.solve()
    assert len(seen) >= 10
    assert all(dn > 1 for _, dn in seen), seen


def test_solve_keeps_the_table_within_tt_entries(capsys):
    sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1"  # zukou-002, 21 plies
    assert main(["solve", sfen, "--tt-entries", "60", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "mate" and 0 < out["tt_size"] <= 60
    assert main(["solve", sfen, "--tt-entries", "1"]) == 2
    assert "--tt-entries" in capsys.readouterr().err


def test_a_childs_key_and_hands_without_playing_the_move_are_those_after_playing_it():
    # child_dominance (Position.key_after) must agree with push exactly, on every check
    # and reply along random lines: a wrong key would mix two positions' tables
    rng = random.Random(11)
    compared = 0
    for case in generated(90, seed=31) * 2:
        game = TsumeGame(Position.from_sfen(case["sfen"], zone=case["zone"]))
        for _ in range(8):
            moves = game.moves()
            for m in moves:
                peeked = game.child_dominance(m)
                game.play(m)
                assert peeked == (game.key(), game.dominance()), (case, game.pos.sfen())
                game.undo()
                compared += 1
            if not moves:
                break
            game.play(rng.choice(moves))
    assert compared > 2000


class PlayingGame(TsumeGame):
    """TsumeGame without the shortcuts: every child is played to read its key and to
    count its replies."""

    child_dominance = Game.child_dominance
    reply_count_after = Game.reply_count_after


@pytest.mark.parametrize("heuristics", ["", "ABCDEF"])
def test_the_search_is_the_same_whether_children_are_played_or_peeked(heuristics):
    for case in generated(30, seed=37):
        results = []
        for game_type in (TsumeGame, PlayingGame):
            search = TsumeSearch(game_type(Position.from_sfen(case["sfen"], zone=case["zone"])),
                                 max_nodes=3000, heuristics=heuristics)
            res = search.solve()
            results.append((res.proven, res.nodes, res.proofs, res.disproofs, res.tt_size))
        assert results[0] == results[1], case


@pytest.mark.parametrize("probe, seed", [(1, 31), (3, 32), (3, 33)])
def test_mate_probes_keep_the_verdicts_and_the_answers(probe, seed):
    probed = 0
    for case in generated(40, seed=seed):
        pos = Position.from_sfen(case["sfen"], zone=case["zone"])
        plain = solve_tsume(pos, max_nodes=200_000, shorten_nodes=0, shortest=True)
        out = solve_tsume(pos, max_nodes=200_000, shorten_nodes=0, mate_probe=probe,
                          shortest=True)
        assert out["mate"] == plain["mate"], (case, probe)
        probed += out["probes"]
        if out["mate"]:
            assert out["shortest_plies"] == plain["shortest_plies"]
            assert replay_ok(pos, out["pv"]).startswith("ok")
    assert probed > 0


def test_probe_3_proves_a_mate_in_3_at_the_roots_first_expansion():
    rows = [r for r in read_rows("yaneuraou_mate_samples.csv") if r["stated_length"] == "3"]
    for row in rows[:3]:
        pos = Position.from_sfen(row["sfen"])
        plain = solve_tsume(pos, shorten_nodes=0, backend="cshogi")
        probed = solve_tsume(pos, shorten_nodes=0, backend="cshogi", mate_probe=3)
        # every check of the root is probed when the root is expanded; the one whose
        # replies all mate in 1 is proven there, so the root needs no other node
        assert probed["status"] == plain["status"] == "mate"
        assert probed["nodes"] == 1 < plain["nodes"] and probed["probes"] > 0
        assert probed["length"] == plain["length"] == 3
        assert replay_answer(pos, probed["pv"]) == "ok"


def test_solve_and_bench_take_the_mate_probe(monkeypatch, capsys):
    sfen = "2k/3/1GP b - 1"
    assert main(["solve", sfen, "--zone", "2", "--json", "--mate-probe", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mate_probe"] == 3 and out["status"] == "mate"
    assert main(["solve", sfen, "--zone", "2", "--mate-probe", "2"]) != 0
    assert "--mate-probe: invalid choice: 2" in capsys.readouterr().err
    assert bench_passes_on(monkeypatch, "mate_probe", ["--mate-probe", "1"], []) == [1, 0]
    with pytest.raises(ValueError, match="mate_probe must be 0, 1 or 3"):
        TsumeSearch(TsumeGame(Position.from_sfen(sfen, zone=2)), mate_probe=2)


def test_a_new_position_starts_from_the_same_boards_numbers_with_other_hands():
    # on one board: the attacker better off somewhere (pn 9 there is a floor for ours),
    # worse off somewhere else (dn 6 there is a floor for ours), hands that do not compare
    # (nothing), and a position solved since (it left the table, nothing)
    search = TsumeSearch(TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2)))
    here = ("board", (1, 0, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0, 0))
    richer = ("board", (2, 0, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0, 0))
    poorer = ("board", (1, 0, 0, 0, 0, 0, 0), (1, 1, 0, 0, 0, 0, 0))
    other = ("board", (0, 1, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0, 0))
    for key, dom, pn, dn in [("r", richer, 9, 2), ("p", poorer, 3, 6), ("o", other, 50, 50),
                             ("s", richer, 70, 70)]:
        search.tables.store_numbers(key, pn, dn, 0, 1, dom)
    search.tables.store_proof("s", richer)
    assert search.tables.inherited(here, (1, 1), search._on_path) == (9, 6)
    search._on_path.add("r")  # an ancestor's number is not fed back to it
    assert search.tables.inherited(here, (1, 1), search._on_path) == (1, 6)
    search._on_path.clear()
    assert search.tables.inherited(here, (12, 7), search._on_path) == (12, 7)  # only ever raised
    assert search.tables.inherited(("board", (0, 2, 0, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0, 0)), (1, 1), search._on_path) == (1, 50)
    assert search.tables.inherited(("board", (3, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 0)), (1, 1), search._on_path) == (1, 6)


def _boards_of(search) -> dict:
    """board key -> set of the unsolved table's keys with that board, from the index."""
    return {b: set(search.tables.same_board(b)) for b in search.tables._boards}


def test_the_board_index_lists_exactly_the_unsolved_positions_of_each_board():
    # one position on a board is kept as its key, more as a list; solving them one by one
    # shrinks the list back to a key and then takes the board out
    search = TsumeSearch(TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2)))
    hands = [(n, 0, 0, 0, 0, 0, 0) for n in range(3)]
    for n, att in enumerate(hands):
        search.tables.store_numbers(f"k{n}", 2, 2, 0, 1, ("board", att, hands[0]))
    search.tables.store_numbers("lone", 2, 2, 0, 1, ("other", hands[0], hands[0]))
    assert _boards_of(search) == {"board": {"k0", "k1", "k2"}, "other": {"lone"}}
    assert search.tables._boards["other"] == "lone"
    for gone, left in (("k1", {"k0", "k2"}), ("k0", {"k2"})):
        search.tables.store_proof(gone, ("board", hands[int(gone[1])], hands[0]))
        assert _boards_of(search)["board"] == left
    assert search.tables._boards["board"] == "k2"
    search.tables.store_disproof("k2", ("board", hands[2], hands[0]), 0, False)
    search.tables.store_proof("lone", ("other", hands[0], hands[0]))
    assert search.tables._boards == {} and search.table == {}
    # after a real search, and after the table dropped its least-worked half, the index
    # still matches the table
    for limit in (1_000_000, 300):
        pos = Position.from_sfen("4+bn1g1/5kpPl/2l1b1s2/3+l1N1GP/4G1+P1N/5L3/9/1+r7/R8 b GP3sn13p 1")
        search = TsumeSearch(TsumeGame(pos), max_nodes=3_000, tt_limit=limit)
        assert search.solve().proven is None
        expected: dict = {}
        for key, e in search.table.items():
            expected.setdefault(e.board, set()).add(key)
        assert _boards_of(search) == expected and len(expected) > 1
        assert all(type(v) is not list or len(v) > 1 for v in search.tables._boards.values())


def test_solve_and_bench_take_no_inherit(monkeypatch, capsys):
    sfen = "2k/3/1GP b - 1"
    assert main(["solve", sfen, "--zone", "2", "--json", "--no-inherit"]) == 0
    assert json.loads(capsys.readouterr().out)["inherit"] is False
    assert bench_passes_on(monkeypatch, "inherit", ["--no-inherit"], []) == [False, True]


def test_an_unsolved_root_returned_without_thresholds_ends_as_unknown(monkeypatch):
    # with no thresholds only a solved root returns; if one came back unsolved, searching
    # again would loop: the search ends with the reason instead
    search = TsumeSearch(TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2)))
    calls = []
    monkeypatch.setattr(search, "_mid", lambda *a: calls.append(a) or (7, 3, False))
    res = search.solve()
    assert res.proven is None and "unsolved" in res.reason and len(calls) == 1


def test_a_sum_past_the_range_is_not_taken_for_a_solved_node():
    # zukou-043's root disproof number passed 10**9 after 470k nodes; capped at INF it read
    # as solved and the search stopped as unknown. Two checks whose disproof numbers are
    # near the cap: the root's sum stays INF - 1 and the mate is still found.
    from tsumeqbf.dfpn.core import INF

    g = nx.DiGraph()
    g.add_nodes_from(["R", "X"], kind="or")
    g.add_nodes_from(["A1", "A2"], kind="and")
    g.add_edges_from([("R", "A1"), ("R", "A2"), ("A2", "X")])  # A1: no reply, mate
    search = TsumeSearch(GraphGame(g, "R"), max_nodes=100)
    for child in ("A1", "A2"):
        search.tables.store_numbers(child, 2, INF - 1, 1, 1, (child, (), ()))
    res = search.solve()
    assert res.proven is True and search.root_status()[0] == 0




def _edo_sfen(problem_id: str) -> str:
    return next(r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv") if r["id"] == problem_id)


# the Python search's checkpoints (backend rules); the native core's: test_native_solve.py
def test_a_checkpointed_search_goes_on_where_it_stopped(tmp_path):
    # zukou-029 (stated 15) takes about 9,000 nodes in one run. Stopped at 3,000, the
    # second run goes on from the checkpoint: it needs fewer nodes of its own than a whole
    # run, and reaches the same verdict with an answer that replays
    pos = Position.from_sfen(_edo_sfen("zukou-029"))
    whole = solve_tsume(pos, backend="rules", shorten_nodes=0, shortest_up_to=0)
    assert whole["status"] == "mate" and whole["resumed_nodes"] == 0
    path = tmp_path / "zukou-029.ckpt"
    first = solve_tsume(pos, backend="rules", max_nodes=3_000, checkpoint=str(path),
                        checkpoint_every=1_000)
    assert first["status"] == "unknown" and path.exists() and not (tmp_path / "zukou-029.ckpt.tmp").exists()
    second = solve_tsume(pos, backend="rules", checkpoint=str(path), shorten_nodes=0, shortest_up_to=0)
    assert second["status"] == "mate" and second["resumed_nodes"] == first["nodes"]
    assert second["nodes"] - second["resumed_nodes"] < whole["nodes"]
    assert replay_answer(pos, second["pv"]).startswith("ok")
    # the checkpoint after the proof holds it: a third run proves the root at once
    third = solve_tsume(pos, backend="rules", checkpoint=str(path), shorten_nodes=0, shortest_up_to=0)
    assert third["status"] == "mate" and third["nodes"] == second["nodes"]


def test_checkpoints_are_written_on_the_way_and_on_an_interrupt(tmp_path, monkeypatch):
    pos = Position.from_sfen(_edo_sfen("zukou-029"))
    path = tmp_path / "ckpt"
    saved = []
    real = TsumeSearch.save_tables
    monkeypatch.setattr(TsumeSearch, "save_tables",
                        lambda self, p, ident: saved.append(self.nodes) or real(self, p, ident))
    solve_tsume(pos, backend="rules", max_nodes=2_500, checkpoint=str(path), checkpoint_every=1_000)
    assert saved[:2] == [1_000, 2_000] and saved[-1] == 2_501  # on the way, then at the end

    def interrupt(search):  # Ctrl-C at 2,000 nodes, before that progress call's checkpoint
        if search.nodes == 2_000:
            raise KeyboardInterrupt
    saved.clear()
    path.unlink()
    with pytest.raises(KeyboardInterrupt):
        solve_tsume(pos, backend="rules", checkpoint=str(path), progress=interrupt,
                    checkpoint_every=1_000)
    assert saved == [1_000, 2_000]
    resumed = solve_tsume(pos, backend="rules", max_nodes=2_100, checkpoint=str(path))
    assert resumed["resumed_nodes"] == 2_000


def test_a_checkpoint_of_another_problem_or_no_checkpoint_is_one_line(tmp_path, capsys):
    path = tmp_path / "ckpt"
    assert main(["solve", "2k/3/1GP b - 1", "--zone", "2", "--checkpoint", str(path)]) == 0
    assert f"tables written to {path}" in capsys.readouterr().out
    assert main(["solve", "2k/3/1GP b - 1", "--zone", "3", "--checkpoint", str(path)]) == 2
    assert "is of another problem or options" in capsys.readouterr().err
    # the same problem hashed differently (another Zobrist seed) is refused too
    import pickle
    state = pickle.loads(path.read_bytes())
    state["identity"]["root_key"] ^= 1
    path.write_bytes(pickle.dumps(state))
    assert main(["solve", "2k/3/1GP b - 1", "--zone", "2", "--checkpoint", str(path)]) == 2
    assert "root_key" in capsys.readouterr().err
    path.write_bytes(b"not a pickle")
    assert main(["solve", "2k/3/1GP b - 1", "--zone", "2", "--checkpoint", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tsumeqbf: error: checkpoint") and "not readable" in err
    assert err.count("\n") == 1
    assert main(["solve", "2k/3/1GP b - 1", "--checkpoint-every", "0"]) == 2


def test_a_position_solved_apart_seeds_the_whole_problem(tmp_path):
    # zukou-029: the position two plies into the answer is solved on its own with a
    # checkpoint; seeded with it, the whole problem takes fewer nodes of its own, and its
    # answer (read off the proofs, the seed's among them) replays
    pos = Position.from_sfen(_edo_sfen("zukou-029"))
    whole = solve_tsume(pos, backend="rules", shorten_nodes=0, shortest_up_to=0)
    after = pos.copy()
    for text in whole["pv"][:2]:
        after.push(after.parse_usi(text))
    part = tmp_path / "part.ckpt"
    assert solve_tsume(after, backend="rules", checkpoint=str(part), shorten_nodes=0,
                       shortest_up_to=0)["status"] == "mate"
    seeded = solve_tsume(pos, seeds=(str(part),), shorten_nodes=0, shortest_up_to=0)
    assert seeded["status"] == "mate" and seeded["seeded_proofs"] > 0
    assert seeded["nodes"] < whole["nodes"]
    assert replay_answer(pos, seeded["pv"]).startswith("ok")
    # a checkpointed run seeded again on resuming does not take the same proofs twice
    mine = tmp_path / "whole.ckpt"
    first = solve_tsume(pos, max_nodes=50, seeds=(str(part),), checkpoint=str(mine))
    again = solve_tsume(pos, seeds=(str(part),), checkpoint=str(mine), shorten_nodes=0,
                        shortest_up_to=0)
    assert first["seeded_proofs"] > 0 and again["seeded_proofs"] == 0
    assert again["status"] == "mate" and replay_answer(pos, again["pv"]).startswith("ok")


def test_a_wrong_proof_in_a_seed_is_caught_by_the_answer(tmp_path):
    # a seed that claims the root of a problem without mate is proven: the search takes
    # it in and stops at once, but reading the answer walks the proof with the rules and
    # finds no proven check, so the verdict is an error, not "mate"
    pos = Position.from_sfen("2k/3/3 b G 1", zone=2)
    assert solve_tsume(pos)["status"] == "nomate"
    game = TsumeGame(pos.copy())
    search = TsumeSearch(game)
    board, att, dfn = game.dominance()
    search.proofs[board] = [(att, dfn, 1)]
    path = tmp_path / "forged.ckpt"
    search.save_tables(str(path), {"sfen": pos.sfen(), "zone": pos.geo.zone, "root_key": game.key()})
    out = solve_tsume(pos, seeds=(str(path),))
    assert out["status"] == "error" and "answer extraction failed" in out["error"]


def test_a_seed_of_another_board_attacker_or_hashing_is_one_line(tmp_path, capsys):
    path = tmp_path / "seed.ckpt"
    assert main(["solve", "2k/3/1GP b - 1", "--zone", "2", "--checkpoint", str(path)]) == 0
    capsys.readouterr()
    assert main(["solve", "2k/3/1GP b - 1", "--zone", "2", "--seed", str(path)]) == 0
    assert "proofs taken in from 1 file" in capsys.readouterr().out
    for sfen, zone in (("2k/3/1GP b - 1", "1"), ("3k/4/1GP1/4 b - 1", "2"), ("1gp/3/2K w - 1", "2")):
        assert main(["solve", sfen, "--zone", zone, "--seed", str(path)]) == 2
        err = capsys.readouterr().err
        assert "is of another board, zone or attacker" in err and err.count("\n") == 1
    import pickle
    state = pickle.loads(path.read_bytes())
    state["identity"]["root_key"] ^= 1
    path.write_bytes(pickle.dumps(state))
    assert main(["solve", "2k/3/1GP b - 1", "--zone", "2", "--seed", str(path)]) == 2
    assert "another hashing" in capsys.readouterr().err
    assert main(["solve", "2k/3/1GP b - 1", "--zone", "2", "--seed", str(tmp_path / "none")]) == 2
    assert "cannot read checkpoint" in capsys.readouterr().err
