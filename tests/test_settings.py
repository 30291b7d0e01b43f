"""One options class per engine (tsumeqbf/settings.py): the command line, an experiment
configuration and the USI engine build it, each by one function, and the answer carries
it whole; adding a field is all it takes to add an option."""

import argparse
import json
from dataclasses import dataclass, fields

import pytest

from tsumeqbf.cli import main
from tsumeqbf.dfpn.options import SolveOptions, TsumeOptions
from tsumeqbf.engines import run_engine
from tsumeqbf.rules import Position, TsumeError
from tsumeqbf.settings import TABLE_ENTRIES, setting

MATE1 = "2k/3/1GP b - 1"  # zone 2: mate in 1


def solve_json(capsys, *args) -> dict:
    capsys.readouterr()
    assert main(["solve", MATE1, "--zone", "2", "--quiet", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_solve_answers_with_every_option_it_ran_with(capsys):
    out = solve_json(capsys, "--tt-entries", "5000", "--no-dag", "--heuristics", "cb",
                     "--mate-probe", "1", "--shorten-nodes", "0")
    assert out["status"] == "mate"
    # backend auto names the one that answered: the Python search, as heuristics are asked
    asked = dict(tt_limit=5000, dag=False, heuristics="BC", mate_probe=1, backend="rules",
                 shorten_nodes=0)
    for f in fields(SolveOptions):
        if f.name in asked:
            assert out[f.name] == asked[f.name], f.name
        else:
            assert out[f.name] == ([] if f.default == () else f.default), f.name
    assert out["shorten_nodes"] == 0


def test_solve_json_keeps_the_options_given_beside_what_the_searches_did(capsys):
    # the result's own keys once had the options' names, and overwrote them: a mate in 1
    # said shortest true without --shortest, and shorten_nodes the nodes spent
    out = solve_json(capsys)
    assert out["shortest"] is False and out["shorten_nodes"] is None  # as given: not at all
    assert out["shortest_exact"] is True and out["shorten_spent"] == 0  # a mate in 1
    capsys.readouterr()
    assert main(["solve", "4R/P4/1L3/2k2/5 b GSP 1", "--zone", "2", "--quiet", "--json",
                 "--shorten-nodes", "3000", "--shortest"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["first_plies"] == 17 and out["shortest"] is True and out["shorten_nodes"] == 3000
    assert out["shortest_exact"] is True and 0 < out["shorten_spent"] <= 3000 + 1
    assert out["after_nodes"] == out["shorten_spent"] + out["bounded_nodes"]


def test_every_documented_field_is_a_solve_flag_with_its_help():
    from tsumeqbf.cli import build_parser

    solve = build_parser()._subparsers._group_actions[0].choices["solve"]
    by_dest = {a.dest: a for a in solve._actions}
    for f in fields(SolveOptions):
        if f.metadata.get("help"):
            assert by_dest[f.name].help == f.metadata["help"], f.name
        else:
            assert f.name not in by_dest, f.name
    assert "--tt-entries" in by_dest["tt_limit"].option_strings
    assert by_dest["tt_limit"].default == TABLE_ENTRIES == SolveOptions().tt_limit


def test_engine_tsume_reads_its_options_from_the_configuration():
    pos = Position.from_sfen(MATE1, zone=2)
    answer = run_engine("tsume", pos, 3, options={"heuristics": "ab", "tt_limit": 500,
                                                  "dag": False, "max_nodes": 10_000,
                                                  "seeds": []})
    assert answer.status == "mate"
    out = answer.facts
    assert (out["heuristics"], out["tt_limit"], out["dag"]) == ("AB", 500, False)
    # the engine's own defaults where they are not solve's: no search after a proof
    assert out["shortest_up_to"] == 0 and out["shorten_nodes"] == 0
    with pytest.raises(TsumeError, match="unknown heuristic"):
        run_engine("tsume", pos, 3, options={"heuristics": "Z"})


def test_usi_options_set_the_df_pn_options():
    from tsumeqbf.usi.engine import UsiEngine

    engine = UsiEngine(lambda line: None)
    for command in ("setoption name Heuristics value ba", "setoption name TableEntries value 99",
                    "setoption name ShortenNodes value -1", "setoption name Shortest value true"):
        engine.handle(command)
    assert engine.request.dfpn == SolveOptions(heuristics="AB", tt_limit=99, shortest=True)
    engine.handle("setoption name ShortenNodes value 7")
    engine.handle("setoption name Heuristics value <empty>")
    assert (engine.request.dfpn.shorten_nodes, engine.request.dfpn.heuristics) == (7, "")
    for name, value, said in (("TableEntries", "1", "TableEntries must be at least 2"),
                              ("ShortenNodes", "x", "ShortenNodes must be a whole number"),
                              ("Shortest", "yes", "Shortest must be true or false")):
        with pytest.raises(ValueError, match=said):
            SolveOptions().with_usi(name, value)


def test_a_new_field_is_a_flag_a_configuration_key_and_a_column_of_the_answer():
    # the one edit that adds an option, here to a subclass
    @dataclass(frozen=True)
    class Wider(SolveOptions):
        max_depth: int = setting(0, "plies below the root the search goes at most", usi="MaxDepth")

    parser = argparse.ArgumentParser()
    Wider.add_flags(parser)
    assert "plies below the root" in parser.format_help()
    assert Wider.from_args(parser.parse_args(["--max-depth", "9", "--seed", "a"])).max_depth == 9
    assert Wider.from_config({"max_depth": 5, "engine": "tsume"}).max_depth == 5
    assert Wider().with_usi("MaxDepth", "3").row()["max_depth"] == 3
    assert set(Wider().row()) == {f.name for f in fields(Wider)}


def test_the_search_gets_its_own_options_only():
    options = SolveOptions(heuristics="F", shortest=True, tt_limit=10)
    assert options.search_options() == TsumeOptions(heuristics="F", tt_limit=10)
    assert type(options.search_options()) is TsumeOptions
    with pytest.raises(TsumeError, match="--tt-entries must be from 2 to 1,000,000,000"):
        SolveOptions(tt_limit=1)


def test_the_bounded_engines_build_and_carry_their_options():
    pos = Position.from_sfen(MATE1, zone=2)
    assert run_engine("dfpn", pos, 1).facts["backend"] == "rules"
    with pytest.raises(TsumeError, match="unknown dfpn backend 'cshogi'"):
        run_engine("dfpn", pos, 1, options={"backend": "cshogi"})
    every = run_engine("brute", pos, 1).facts
    one = run_engine("brute", pos, 1, options={"all_moves": False}).facts
    assert (every["all_moves"], one["all_moves"]) == (True, False)
    assert every["mating_moves"] and "mating_moves" not in one


def test_mate_flags_are_the_engines_options_fields_and_only_the_given_ones_are_passed():
    from tsumeqbf.cli import _engine_options, build_parser
    from tsumeqbf.dfpn.engine import MateOptions
    from tsumeqbf.solvers.engine import QbfOptions
    from tsumeqbf.solvers.portfolio import PortfolioOptions

    parser = build_parser()
    mate = parser._subparsers._group_actions[0].choices["mate"]
    by_dest = {a.dest: a for a in mate._actions}
    for cls in (QbfOptions, PortfolioOptions, MateOptions):
        for f in fields(cls):
            if f.metadata.get("help"):
                assert by_dest[f.name].help == f.metadata["help"], f.name
    args = parser.parse_args(["mate", MATE1, "-n", "1", "--engine", "qbf",
                              "--encoding", "compact", "--attacker-moves", "onehot-seqcounter"])
    assert _engine_options(args) == {"encoding": "compact", "attacker_moves": "onehot-seqcounter"}
    assert _engine_options(parser.parse_args(["mate", MATE1, "-n", "1"])) == {}


def test_the_qbf_options_check_their_encoding_axes_as_they_are_built():
    from tsumeqbf.encoder.registry import DEFAULT_ENCODING, EncodingOptions
    from tsumeqbf.solvers.engine import QbfOptions
    from tsumeqbf.solvers.portfolio import DEFAULT_MEMBERS, PortfolioOptions

    q = QbfOptions.from_config({"encoding": None, "solver": None, "certify": True, "jobs": 2})
    assert (q.encoding, q.solver, q.certify, q.attacker_moves) == (DEFAULT_ENCODING, "depqbf",
                                                                   True, "binary")
    with pytest.raises(ValueError, match="encoding paper chooses moves by"):
        EncodingOptions("paper", attacker_moves="onehot-seqcounter")
    with pytest.raises(ValueError, match="unknown encoding 'qdimacs'"):
        QbfOptions.from_config({"encoding": "qdimacs"})
    assert PortfolioOptions.from_config({}).members == DEFAULT_MEMBERS
    assert PortfolioOptions.from_config({"members": "caqe, depqbf/compact,"}).members == (
        "caqe", "depqbf/compact")
    assert PortfolioOptions.from_config({"members": ["caqe"], "jobs": 1}).row()["members"] == ["caqe"]


def test_the_native_backend_answers_with_its_options_and_what_it_does_not_do(capsys):
    from tsumeqbf import native

    if not native.available():
        pytest.skip("the native core is not built")
    sfen = "7k1/9/7G1/9/9/9/9/9/9 b G 1"  # standard 9x9, a mate in 1
    capsys.readouterr()
    assert main(["solve", sfen, "--quiet", "--json", "--backend", "native",
                 "--tt-entries", "5000", "--shortest"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["status"], out["backend"], out["tt_limit"]) == ("mate", "native", 5000)
    # the DAG correction and inherited numbers as asked; a mate in 1 is the shortest
    assert (out["dag"], out["inherit"], out["shortest_exact"]) == (True, True, True)
    assert main(["solve", sfen, "--quiet", "--json", "--backend", "native", "--no-dag",
                 "--no-inherit"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["backend"], out["dag"], out["inherit"]) == ("native", False, False)
    with pytest.raises(TsumeError, match="backend 'native' has no option heuristics"):
        from tsumeqbf.dfpn.solve import solve_tsume
        solve_tsume(Position.from_sfen(sfen), backend="native", heuristics="A")


def test_the_usi_engine_declares_the_df_pn_options_from_their_fields():
    from tsumeqbf.usi.engine import OPTIONS

    assert {name: OPTIONS[name] for name in SolveOptions.usi_options()} == {
        "Heuristics": "type string default <empty>",
        "TableEntries": f"type spin default {TABLE_ENTRIES} min 2 max 1000000000",
        "Shortest": "type check default false",
        "ShortenNodes": "type spin default -1 min -1 max 2000000000",
        "Backend": "type combo default auto var auto var rules var cshogi var native"}
    with pytest.raises(ValueError, match="Backend must be auto or rules or cshogi or native, "
                                         "not 'bogus'"):
        SolveOptions().with_usi("Backend", "bogus")
