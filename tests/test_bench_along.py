"""The recorded lines and ``python -m tsumeqbf.bench along``: solving from the positions
along a problem's recorded line, and where an unsolved search spent its nodes."""

import pytest

from bench_refusal import refusal
from tsumeqbf.bench import along
from tsumeqbf.data import read_rows
from tsumeqbf.dfpn.core import INF
from tsumeqbf.dfpn.game import TsumeGame
from tsumeqbf.dfpn.solve import replay_answer
from tsumeqbf.dfpn.tsume import TsumeSearch
from tsumeqbf.rules import Position

pytest.importorskip("cshogi")


@pytest.mark.parametrize("problem_id", sorted(along.recorded_lines()))
def test_each_recorded_line_replays_to_mate_in_the_stated_length(problem_id):
    line = along.recorded_lines()[problem_id]
    row = next(r for r in read_rows("open_tsume_zukou_musou.csv") if r["id"] == problem_id)
    assert len(line) == int(row["stated_length"])
    assert replay_answer(Position.from_sfen(row["sfen"]), line) == "ok"


def test_walking_back_zukou_008_stops_after_two_unsolved_positions():
    line = along.recorded_lines()["zukou-008"]
    rows = along.walk_back("zukou-008", line, along.problem_sfen("zukou-008"), None, 3_000,
                           100_000, "cshogi", None, 3, emit=lambda row: None)
    plies = [r["plies"] for r in rows]
    assert plies == list(range(40, plies[-1] - 1, -2))
    # the mate in 1 at the end is found at once; a recorded line is a mate, so no
    # position on it can be disproven; the walk stops at the second unsolved one in a row
    assert rows[0]["status"] == "mate" and rows[0]["nodes"] == 1 and rows[0]["next"] == "1c2b"
    statuses = [r["status"] for r in rows]
    assert "nomate" not in statuses
    assert statuses[-2:] == ["unknown", "unknown"] and "unknown" not in statuses[:-2]
    for r in rows[-2:]:
        assert 0 <= r["recorded_share"] <= 1 and r["busiest"]
        works = [int(item.rsplit(":", 1)[1]) for item in r["busiest"].split()]
        assert works == sorted(works, reverse=True) and sum(works) <= r["nodes"]
        assert 0 < r["pn"] < INF and 0 < r["dn"] < INF


def test_listed_plies_are_solved_in_the_order_given_with_cshogi_beside():
    import cshogi

    line = along.recorded_lines()["zukou-008"]
    rows = along.walk_back("zukou-008", line, along.problem_sfen("zukou-008"), [34, 40], 2_000,
                           10_000, "rules", cshogi, 2, emit=lambda row: None)
    assert [(r["plies"], r["next"], r["status"]) for r in rows] == [(34, "L*3c", "mate"),
                                                                   (40, "1c2b", "mate")]
    assert all(r["cshogi_proven"] for r in rows) and rows[0]["busiest"] == ""


def test_the_search_reports_where_its_nodes_went():
    # after a proof some check is proven, after a disproof every check is disproven; cut
    # short, the children's work adds up to at most the nodes searched
    for sfen, zone, proven in (("2k/3/1GP b - 1", 2, True), ("4k/5/5/3s1/5 b RG 1", 1, False)):
        pos = Position.from_sfen(sfen, zone=zone)
        search = TsumeSearch(TsumeGame(pos.copy()))
        assert search.solve().proven is proven
        rows = search.children_numbers()
        assert [r[0] for r in rows] == TsumeGame(pos.copy()).moves()
        if proven:
            assert any(pn == 0 and dn >= INF for _, pn, dn, _ in rows)
        else:
            assert all(pn >= INF and dn == 0 for _, pn, dn, _ in rows)
    short = TsumeSearch(TsumeGame(Position.from_sfen(along.problem_sfen("zukou-008"))), max_nodes=500)
    assert short.solve().proven is None
    rows = short.children_numbers()
    assert 0 < sum(r[3] for r in rows) <= 500 and all(r[1] > 0 for r in rows)


def test_the_report_leaves_the_tables_alone():
    # a mate in 1 never searched: the report shows it proven without storing the proof
    pos = Position.from_sfen("2k/3/1GP b - 1", zone=2)
    search = TsumeSearch(TsumeGame(pos.copy()))
    rows = search.children_numbers()
    mates = [m for m, pn, dn, _ in rows if pn == 0 and dn >= INF]
    assert mates and search.proofs == {} and search.table == {} and search.tt_hits == 0
    # an unsolved entry for the same board with a richer attacker does not hide the mate
    # (inherited numbers are floors for unsolved positions only)
    game = TsumeGame(pos.copy())
    game.play(mates[0])
    board, att, dfn = game.dominance()
    search.tables.store_numbers("richer", 5, 1, 0, 1, (board, tuple(a + 1 for a in att), dfn))
    assert [m for m, pn, dn, _ in search.children_numbers() if pn == 0 and dn >= INF] == mates


@pytest.mark.parametrize("args, message", [
    (["zukou-009"], "no recorded line for 'zukou-009'"),
    (["zukou-008", "--plies", "3"], "--plies must be even numbers from 0 to 40"),
    (["zukou-008", "--plies", "x"], "--plies takes even numbers"),
])
def test_bad_arguments_end_with_one_line(args, message, capsys):
    assert refusal(capsys, "along", args).startswith(message)


def test_the_benchmark_writes_its_rows(tmp_path, capsys):
    out = tmp_path / "along.csv"
    assert along.main(["zukou-091", "--plies", "26,24", "--max-nodes", "1000", "--no-cshogi",
                       "--csv", str(out)]) == 0
    text = out.read_text(encoding="utf-8").splitlines()
    assert text[0].split(",") == list(along.FIELDS)
    assert [t.split(",")[1:4] for t in text[1:]] == [["26", "7c7b", "mate"], ["24", "7d7c+", "mate"]]
    assert "zukou-091: 27-ply recorded line" in capsys.readouterr().out


@pytest.mark.parametrize("flag, keyword, on, off, banner", [
    # cshogi's DfPn counts no probe as a node; like for like needs ours on too
    (["--mate-probe", "3"], "mate_probe", 3, 0, "mate probes 3"),
    (["--group-interpositions"], "group_interpositions", True, False, "interpositions grouped"),
])
def test_the_benchmark_passes_search_options_on(monkeypatch, capsys, flag, keyword, on, off,
                                                banner):
    seen = []
    real = along.TsumeSearch
    monkeypatch.setattr(along, "TsumeSearch", lambda *a, **kw: seen.append(kw[keyword]) or real(*a, **kw))
    for extra in (flag, []):
        assert along.main(["zukou-069", "--plies", "8", "--max-nodes", "2000", "--no-cshogi"] + extra) == 0
    assert seen == [on, off]
    assert banner in capsys.readouterr().out


def test_the_busiest_line_follows_the_most_work_down_from_the_root():
    pos = Position.from_sfen(along.problem_sfen("zukou-008"))
    game = TsumeGame(pos.copy())
    search = TsumeSearch(game, max_nodes=2_000)
    assert search.solve().proven is None
    root = game.key()
    line = search.busiest_line()
    assert game.key() == root and len(line) >= 4
    # the first step is the root's busiest check, each step a legal move of the position
    # reached, with its part of its siblings' work
    assert line[0][0] == max(search.children_numbers(), key=lambda r: r[3])[0]
    walk = pos.copy()
    for move, pn, dn, work, share in line:
        assert move in walk.legal_moves() and 0 < share <= 1 and 0 < work <= 2_000
        walk.push(move)
    assert len(search.busiest_line(max_plies=3)) == 3
    # a proof leaves no work behind: the line is empty
    short = TsumeSearch(TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2)))
    assert short.solve().proven and short.busiest_line() == []


def test_after_moves_solves_one_position_on_the_line_or_off_it(tmp_path, capsys):
    out = tmp_path / "after.csv"
    # 4a3c, the knight taking on 3c, is a defender's alternative to the recorded 3b3c
    assert along.main(["zukou-008", "--after", "P*4c 4b4c 2d3c 4a3c", "--max-nodes", "1000",
                       "--no-cshogi", "--csv", str(out)]) == 0
    import csv
    (row,) = csv.DictReader(out.open(encoding="utf-8"))
    assert (row["plies"], row["next"], row["status"], row["after"]) == (
        "4", "", "unknown", "P*4c 4b4c 2d3c 4a3c")
    assert row["recorded_share"] == "" and row["busiest_line"].split()[0].split(":")[0] == \
        row["busiest"].split()[0].split(":")[0]
    assert "busiest line:" in capsys.readouterr().out
    # on the recorded line the next recorded move is known; any Edo id may be used
    # several positions, one row each, in the order given
    assert along.main(["zukou-008", "--after", "P*4c 4b4c", "--after", "P*4c 4b4c 2d3c 5a3c",
                       "--max-nodes", "500", "--no-cshogi", "--csv", str(out)]) == 0
    on, off = csv.DictReader(out.open(encoding="utf-8"))
    assert on["next"] == "2d3c" and on["recorded_share"] != ""
    assert off["after"].endswith("5a3c") and off["next"] == ""
    assert along.main(["zukou-001", "--after", "", "--max-nodes", "500", "--no-cshogi"]) == 0


@pytest.mark.parametrize("after, message", [
    ("P*4c 4b4c 2d3c", "--after needs an even number of moves"),
    ("P*4c 4b4c 2d3c 4a4c", "illegal move '4a4c'"),
    ("P*4c 4b4c 2d3c x", "not a USI move"),
])
def test_bad_moves_after_end_with_one_line(after, message, capsys):
    # nothing printed before the error
    assert message in refusal(capsys, "along", ["zukou-008", "--after", after, "--no-cshogi"],
                              out="")


def test_after_and_plies_do_not_go_together(capsys):
    assert refusal(capsys, "along", ["zukou-008", "--after", "P*4c 4b4c", "--plies", "2"]
                   ) == "give --plies or --after, not both"
