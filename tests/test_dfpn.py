"""Bounded df-pn: agreement with the reference solver and with brute force on AND/OR
graphs, depth-tagged results, limits."""

import random

import networkx as nx
import pytest

from tsumeqbf.data import read_jsonl, read_rows
from tsumeqbf.dfpn import DfPn, GraphGame, ShogiGame
from tsumeqbf.dfpn.engine import solve_mate
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.reference import mating_moves
from tsumeqbf.values import Limits



def graph(edges, kinds):
    g = nx.DiGraph()
    g.add_nodes_from(kinds)
    g.add_edges_from(edges)
    nx.set_node_attributes(g, kinds, "kind")
    return g


def brute(g, node, depth):
    """Bounded AND/OR value straight from the definition."""
    succ = list(g.successors(node))
    if g.nodes[node]["kind"] == "or":
        return depth >= 1 and any(brute(g, c, depth - 1) for c in succ)
    if not succ:
        return True
    return depth >= 1 and all(brute(g, c, depth - 1) for c in succ)


def test_disproof_at_a_shallow_depth_is_not_reused_deeper():
    # X mates in 3. Searched first via A1 it has 1 ply left (no mate); via A2 it has 3.
    # A table keyed on the position alone would reuse the first answer and say no mate.
    kinds = {"R": "or", "A1": "and", "Y": "or", "B": "and", "A2": "and", "X": "or",
             "C": "and", "Z": "or", "D": "and"}
    g = graph([("R", "A1"), ("A1", "Y"), ("Y", "B"), ("B", "X"), ("R", "A2"), ("A2", "X"),
               ("X", "C"), ("C", "Z"), ("Z", "D")], kinds)
    search = DfPn(GraphGame(g, "R"))
    res = search.solve(5)
    assert res.proven is True and res.best_move == "A2"
    assert brute(g, "R", 5) and not brute(g, "R", 3)
    assert DfPn(GraphGame(g, "R")).solve(3).proven is False


def random_dag(rng, layers=7, width=4):
    """A layered AND/OR DAG: OR on even layers, AND on odd ones, shared children."""
    kinds, edges = {}, []
    names = [[f"{d}.{i}" for i in range(rng.randint(1, width))] for d in range(layers)]
    for d, layer in enumerate(names):
        for v in layer:
            kinds[v] = "or" if d % 2 == 0 else "and"
            if d + 1 < layers and rng.random() < 0.85:
                for c in rng.sample(names[d + 1], rng.randint(1, len(names[d + 1]))):
                    edges.append((v, c))
    return graph(edges, kinds), names[0][0]


@pytest.mark.parametrize("seed", range(300))
def test_random_dags_agree_with_brute_force(seed):
    rng = random.Random(seed)
    g, root = random_dag(rng)
    for n in (1, 3, 5, 7):
        res = DfPn(GraphGame(g, root), tt_limit=rng.choice([4, 1000])).solve(n)
        assert res.proven == brute(g, root, n), (seed, n)
        if res.proven:
            a = res.best_move
            assert all(brute(g, c, n - 2) for c in g.successors(a)) if list(g.successors(a)) else True


@pytest.mark.parametrize("plies, sizes, count", [
    (1, ((3, 3), (4, 4), (5, 5), (9, 9)), 150),
    (3, ((3, 3), (4, 4), (5, 5), (9, 9)), 150),
    (5, ((3, 3), (4, 4), (5, 5)), 120),
    (7, ((3, 3), (4, 4)), 60),
])
def test_generated_questions_agree_with_reference(plies, sizes, count):
    for q in question_set(200 + plies, count, sizes=sizes, plies=(plies,)):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        want = {pos.usi(m) for m in mating_moves(pos, plies)}
        got = solve_mate(pos, plies, Limits(), {})
        assert got.verdict == bool(want), q
        if want:
            assert got.first_move in want, q


@pytest.mark.parametrize("plies", [1, 3, 5])
def test_no_hands_questions_agree_with_reference(plies):
    # the no-hands rules: bounded df-pn and brute force read them from the position
    for q in question_set(300 + plies, 60, sizes=((3, 3), (4, 4)), plies=(plies,),
                          attacker_hand=0, defender_hand=0, attacker_pieces=5, defender_pieces=3):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"], no_hands=True)
        want = {pos.usi(m) for m in mating_moves(pos, plies)}
        got = solve_mate(pos, plies, Limits(), {})
        assert got.verdict == bool(want), q
        if want:
            assert got.first_move in want, q


@pytest.mark.parametrize("mobility, group_drops", [(True, True), (True, False), (False, True),
                                                  (False, False)])
def test_small_table_still_agrees(mobility, group_drops):
    for q in question_set(77, 60, sizes=((3, 3), (4, 4)), plies=(5,)):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        res = DfPn(ShogiGame(pos.copy()), tt_limit=8, mobility=mobility,
                   group_drops=group_drops).solve(5)
        assert res.proven == bool(mating_moves(pos, 5)), q


def test_replies_count_start_saves_nodes_and_keeps_verdicts():
    # a new check starts with as many proof-number units as it has replies, and a check
    # without reply (or, with no plies left, with one) is settled without a node of its own
    nodes = {True: 0, False: 0}
    for q in question_set(78, 40, sizes=((4, 4), (5, 5)), plies=(5,)):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        runs = {m: DfPn(ShogiGame(pos.copy()), mobility=m).solve(5) for m in (True, False)}
        assert runs[True].proven == runs[False].proven == bool(mating_moves(pos, 5)), q
        for m, res in runs.items():
            nodes[m] += res.nodes
    assert nodes[True] < nodes[False] / 2


@pytest.mark.parametrize("row", read_jsonl("figures.jsonl"),
                         ids=lambda r: r["id"])
def test_paper_figures(row):
    got = solve_mate(Position.from_sfen(row["sfen"], zone=row["zone"]), row["n"], Limits(), {})
    assert got.verdict is row["mate"]


def _samples():
    return read_rows("yaneuraou_mate_samples.csv")


@pytest.mark.parametrize("row", _samples(), ids=lambda r: f"{r['yaneuraou_file']}-{r['line_no']}")
def test_yaneuraou_samples_mate_at_stated_length_only(row):
    pos = Position.from_sfen(row["sfen"])
    n = int(row["stated_length"])
    got = solve_mate(pos, n, Limits(), {})
    assert got.status == "mate"
    move = pos.parse_usi(got.first_move)
    assert move in pos.checks()
    assert solve_mate(pos, n - 2, Limits(), {}).status == "nomate"


def test_node_limit_gives_unknown():
    pos = Position.from_sfen(_samples()[-3]["sfen"])
    got = solve_mate(pos, 11, Limits(max_nodes=50), {})
    assert got.status == "unknown" and got.verdict is None


def test_bounded_sum_past_the_range_is_not_taken_for_a_solved_node():
    # as in the unbounded search: a sum capped at INF read as solved, and the root's loop
    # searched again and again with nothing to do
    from tsumeqbf.dfpn.core import INF, capped_sum, child_thresholds

    g = graph([("R", "A1"), ("R", "A2"), ("A2", "X")],
              {"R": "or", "A1": "and", "A2": "and", "X": "or"})
    search = DfPn(GraphGame(g, "R"), max_nodes=100)
    for child in ("A1", "A2"):
        search.store(child, 2, 2, INF - 1, 1)
    res = search.solve(3)
    assert res.proven is True and res.best_move == "A1"
    assert capped_sum(2 * INF, False) == INF - 1 and capped_sum(5, True) == INF
    # no limit stays no limit for a summed child, however large the sum
    assert child_thresholds(True, INF, INF, 3, INF - 1, 3, INF - 1, 9, 0.25)[1] == INF
    assert child_thresholds(False, 50, 9, 40, 2, 10, 2, 5, 0.25) == (20, 7)


def test_the_searches_ask_a_game_only_through_its_interface():
    # every capability is a method of dfpn.game.Game with a default: a search that probed
    # a game with hasattr/getattr would turn a heuristic off unseen for a game that lacks it
    import ast
    from pathlib import Path

    import tsumeqbf.dfpn as package
    from tsumeqbf.dfpn.game import Game, ShogiGame

    probes = []
    for path in Path(package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("hasattr", "getattr") and node.args
                    and "game" in ast.unparse(node.args[0]).lower()):
                probes.append(f"{path.name}:{node.lineno}")
    assert probes == []
    # and the graph and shogi games are games
    assert issubclass(GraphGame, Game) and issubclass(ShogiGame, Game)
