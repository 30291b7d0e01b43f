"""--deepen: 1, 3, 5, ... plies within one timeout, stopping at the shortest mate."""

import json

import pytest

from tsumeqbf.cli import main
from tsumeqbf.engines import run_engine
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.reference import minimal_mate_length
from tsumeqbf.solvers import is_installed

ENGINES = ["brute", "dfpn"] + (["depqbf"] if is_installed("depqbf") else [])


@pytest.mark.parametrize("engine", ENGINES)
def test_deepening_finds_the_shortest_mate(engine):
    lengths = set()
    for q in question_set(seed=21, count=16, sizes=[(3, 3), (4, 4)], plies=[5]):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        shortest = minimal_mate_length(pos, 5)
        got = run_engine(engine, pos, 5, timeout=60, options={"deepen": True})
        asked = [d["n"] for d in got.facts["deepened"]]
        if got.status == "unknown":
            continue
        if shortest is None:
            assert got.status == "nomate" and asked == [1, 3, 5]
        else:
            assert got.status == "mate" and got.facts["mate_length"] == shortest
            assert asked == list(range(1, shortest + 1, 2))
            assert all(d["status"] == "nomate" for d in got.facts["deepened"][:-1])
        lengths.add(shortest)
    assert len(lengths) >= 2


def test_deepen_from_the_command_line(capsys):
    assert main(["mate", "1k1/3/PG1 b - 1", "--zone", "2", "-n", "7", "--deepen"]) == 0
    assert capsys.readouterr().out.startswith("mate within 3  [brute")
    assert main(["mate", "1k1/3/PG1 b - 1", "--zone", "2", "-n", "7", "--deepen", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["mate_length"] == 3 and [d["n"] for d in got["deepened"]] == [1, 3]
