"""Problem files: KIF/BOD diagrams, CSA, USI lines and SFEN as input, KIF as output.

Other libraries serve as independent writers and readers: cshogi writes the BOD diagrams
and CSA positions we read, python-shogi reads the KIF records we write."""


import pytest

from tsumeqbf.cli import main
from tsumeqbf.data import read_rows
from tsumeqbf.rules import Position, TsumeError, diagram
from tsumeqbf.rules.problem_files import (ProblemFileError, STARTPOS, load_position,
                                         position_from_usi, read_problem, sfen_from_csa,
                                         sniff_format)

cshogi = pytest.importorskip("cshogi")
import cshogi.KIF  # noqa: E402
import shogi.KIF  # noqa: E402  (python-shogi)

EDO = read_rows("open_tsume_zukou_musou.csv")
YANE = read_rows("yaneuraou_mate_samples.csv")
# Edo problems with the defender's hand written out, and YaneuraOu positions of either side
SFENS = [Position.from_sfen(r["sfen"], tsume_hands=True).sfen() for r in EDO[::20]] + \
        [r["sfen"].rsplit(" ", 1)[0] + " 1" for r in YANE[::8]]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("sfen", SFENS)
@pytest.mark.parametrize("suffix, encoding", [(".kif", "cp932"), (".kifu", "utf-8"),
                                              (".bod", "utf-8-sig"), ("", "cp932")])
def test_cshogi_bod_is_read_back(tmp_path, sfen, suffix, encoding):
    text = "# a problem\n" + cshogi.KIF.board_to_bod(cshogi.Board(sfen)) + "\n"
    path = tmp_path / f"p{suffix}"
    path.write_bytes(text.encode(encoding))
    assert read_problem(str(path)).sfen() == sfen


@pytest.mark.parametrize("sfen", SFENS)
def test_cshogi_csa_is_read_back(tmp_path, sfen):
    path = tmp_path / "p.csa"
    path.write_text("V2.2\nN+attacker\n'a comment\n" + cshogi.Board(sfen).csa_pos() + "+7776FU\n")
    assert read_problem(str(path)).sfen() == sfen


@pytest.mark.parametrize("sfen", ["2k/3/1GP b - 1", "1k1/3/PG1 b - 1", "3k/4/4/1GR1 w Bp 1"])
def test_our_diagram_on_small_boards_is_read_back(tmp_path, sfen):
    path = tmp_path / "small.bod"
    pos = Position.from_sfen(sfen)
    path.write_text(diagram(pos))
    assert read_problem(str(path)) == pos


def test_all_the_rest_is_the_tsume_convention(tmp_path):
    row = EDO[1]  # zukou-002: the defender holds every piece not shown
    bod = cshogi.KIF.board_to_bod(cshogi.Board(row["sfen"]))
    lines = ["後手の持駒：残り全部" if ln.startswith("後手の持駒") else ln for ln in bod.splitlines()]
    (tmp_path / "z.kif").write_bytes("\n".join(lines).encode("cp932"))
    expected = Position.from_sfen(row["sfen"], tsume_hands=True)
    assert read_problem(str(tmp_path / "z.kif")) == expected
    # CSA's 00AL says the same
    csa = cshogi.Board(row["sfen"]).csa_pos().replace("P-", "P-00AL", 1)
    if "P-00AL" not in csa:
        csa = csa.replace("\n+\n", "\nP-00AL\n+\n")
    (tmp_path / "z.csa").write_text(csa)
    assert read_problem(str(tmp_path / "z.csa")) == expected


def test_csa_pi_and_handicap():
    from tsumeqbf.rules.problem_files import sfen_from_csa
    assert sfen_from_csa("PI\n+\n")[0] == STARTPOS
    sfen, _ = sfen_from_csa("PI82HI22KA\n-\n")
    assert sfen == "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"


def test_usi_lines_and_sfen_files(tmp_path):
    (tmp_path / "a.usi").write_text("position startpos moves 7g7f 3c3d\n")
    (tmp_path / "b.sfen").write_text("# comment\nsfen " + SFENS[0] + "\n")
    played = Position.from_sfen(STARTPOS)
    for move in ("7g7f", "3c3d"):
        played.push(played.parse_usi(move))
    assert read_problem(str(tmp_path / "a.usi")) == Position.from_sfen(played.sfen())
    assert read_problem(str(tmp_path / "b.sfen")).sfen() == SFENS[0]
    assert load_position(SFENS[0]).sfen() == SFENS[0]  # not a file: an SFEN
    with pytest.raises(TsumeError, match=r"move 2 \(7g7f\)"):
        position_from_usi("position startpos moves 7g7f 7g7f")


def test_an_argument_neither_file_nor_sfen_is_named_so(tmp_path):
    """A folder, and one word naming no file, are refused as what they are; an SFEN cut
    short still gets the SFEN's own message."""
    with pytest.raises(ProblemFileError, match="is a folder"):
        load_position(str(tmp_path))
    for word in ("problem7", str(tmp_path / "gone"), "./gone"):
        with pytest.raises(ProblemFileError, match=r"^no such file: .*gone|^no such file: problem7"):
            load_position(word)
    with pytest.raises(TsumeError, match="SFEN needs"):
        load_position("2k/3/1GP")
    assert load_position("2k/3/1GP b - 1").sfen() == "2k/3/1GP b - 1"


@pytest.mark.parametrize("name, text, fragment", [
    ("bad.kif", "後手の持駒：なし\n+---+\n| ・v玉 X|一\n+---+\n", "line 3: unknown piece 'X'"),
    ("bad.kif", "後手の持駒：金百\n+------+\n| ・v玉|一\n| 金 ・|二\n+------+\n", "line 1: bad count"),
    ("ragged.kif", "+------+\n| ・v玉|一\n| 金|二\n+------+\n", "line 3: 1 squares on this rank"),
    ("none.kif", "先手：someone\n", "no board diagram"),
    ("rest.kif", "後手の持駒：なし\n+------+\n| ・v玉|一\n| 金 ・|二\n+------+\n先手の持駒：残り全部\n",
     "line 6: 残り全部 is for the defender"),
    ("bad.csa", "P1 *  * -XX *  *  *  *  *  * \n+\n", "line 1: bad square '-XX'"),
    ("bad.csa", "P1 *  *  *  *  *  *  * -OU * \nP+00OU\n+\n", "line 2: bad piece 'OU'"),
    ("noturn.csa", "P1 *  *  *  *  *  *  * -OU * \n", "no side to move"),
    ("junk.csa", "P1 *  *  *  *  *  *  * -OU * \nhello\n+\n", "line 2: not a CSA position line"),
    # a piece put on a taken square replaced the one there; a second diagram overwrote
    # the first: both read as another problem than the file's
    ("taken.csa", "P1 *  *  *  *  *  *  * -OU * \nP+22KI21FU\n+\n", "line 2: square 21 already holds"),
    ("twice.csa", "P1 *  *  *  *  *  *  * -OU * \nP1 *  *  *  *  *  * -OU *  * \n+\n",
     "line 2: P1 given twice"),
    ("pi-twice.csa", "PI\nPI\n+\n", "line 2: PI after another diagram"),
    ("two.usi", "position startpos\nposition startpos\n", "line 2: expected one USI"),
    ("illegal.usi", "\nposition startpos moves 7g7f 7g7f\n", "line 2: move 2 (7g7f)"),
    ("kings.kif", "後手の持駒：なし\n+------+\n|v玉v玉|一\n| 金 ・|二\n+------+\n先手の持駒：なし\n",
     "more than one king"),
    # what each read as another problem than the file's: a hand line in another spelling
    # skipped (an empty hand), a second diagram's hands and turn with the first's board, a
    # rank missing (a smaller board), a missing hand line read as empty, ranks of a CSA
    # file missing or cut short (empty squares), a P+ piece under a later rank line
    ("colon.kif", "後手の持駒：なし\n+------+\n| ・v玉|一\n| ・ ・|二\n+------+\n先手の持駒 金\n",
     "no 先手の持駒 line"),
    ("two.kif", "後手の持駒：なし\n+------+\n| ・v玉|一\n| 金 ・|二\n+------+\n先手の持駒：金\n"
     "後手の持駒：なし\n+------+\n| ・v玉|一\n| ・ ・|二\n+------+\n先手の持駒：なし\n",
     "line 7: a second hand line for this side"),
    ("two-frames.kif", "後手の持駒：なし\n+------+\n| ・v玉|一\n| 金 ・|二\n+------+\n+------+\n",
     "line 6: a second board diagram"),
    ("rank.kif", "後手の持駒：なし\n+------+\n| ・v玉|一\n| 金 ・|三\n+------+\n先手の持駒：なし\n",
     "line 4: rank 三 where rank 二 comes"),
    ("files.kif", "後手の持駒：なし\n  ３ ２ １\n+------+\n| ・v玉|一\n| 金 ・|二\n+------+\n先手の持駒：なし\n",
     "line 2: 3 file numbers over a board 2 squares wide"),
    ("turns.kif", "後手の持駒：なし\n+------+\n| ・v玉|一\n| 金 ・|二\n+------+\n先手の持駒：なし\n"
     "先手番\n後手番\n", "line 8: a second side to move"),
    ("nohands.kif", "+------+\n| ・v玉|一\n| 金 ・|二\n+------+\n先手の持駒：金\n",
     "no 後手の持駒 line"),
    ("ranks.csa", "P1 *  *  *  *  *  *  * -OU * \nP2 *  *  *  *  *  *  *  *  * \n+\n",
     "no P3 P4 P5 P6 P7 P8 P9: a diagram by ranks gives all nine"),
    ("short.csa", "P1 *  *  *  *  *  *  * -OU * \nP2 *  * \n+\n", "line 2: fewer than nine squares"),
    ("order.csa", "P+23KI\nP1 *  *  *  *  *  *  * -OU * \n+\n", "line 2: P1 after a P+/P- line"),
    ("pi-ranks.csa", "PI\nP1 *  *  *  *  *  *  * -OU * \n+\n", "line 2: P1 after another diagram"),
])
def test_malformed_file_is_one_line_exit_2(tmp_path, capsys, name, text, fragment):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "show", path)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tsumeqbf: error: {path}")
    assert fragment in lines[0]
    with pytest.raises(ProblemFileError):
        read_problem(str(path))


def test_missing_file_with_a_problem_extension(capsys):
    code, _, err = run(capsys, "solve", "/nonexistent/p.kif")
    assert code == 2 and err.strip() == "tsumeqbf: error: no such file: /nonexistent/p.kif"


def test_commands_take_a_file(tmp_path, capsys):
    sfen = YANE[0]["sfen"]
    path = tmp_path / "p.csa"
    path.write_text(cshogi.Board(sfen).csa_pos())
    by_sfen = run(capsys, "solve", sfen, "--quiet")
    by_file = run(capsys, "solve", path, "--quiet")
    assert by_sfen[0] == by_file[0] == 0
    assert by_sfen[1].splitlines()[1:] == by_file[1].splitlines()[1:]  # same answer
    code, out, _ = run(capsys, "mate", path, "-n", "3", "--engine", "dfpn")
    assert code == 0 and out.startswith("mate within 3")
    code, out, _ = run(capsys, "show", path)
    assert code == 0 and "checks" in out
    code, out, _ = run(capsys, "encode", path, "-n", "3", "-o", tmp_path / "p.qdimacs")
    assert code == 0 and "variables" in out and (tmp_path / "p.qdimacs").exists()


@pytest.mark.parametrize("row", [YANE[0], YANE[20], EDO[1]], ids=lambda r: r.get("id", r["sfen"][:12]))
def test_solve_writes_a_kif_that_readers_import(tmp_path, capsys, row):
    pos = Position.from_sfen(row["sfen"], tsume_hands="id" in row)
    kif = tmp_path / "answer.kif"
    code, out, _ = run(capsys, "solve", pos.sfen(), "--quiet", "--json", "--kif", kif)
    assert code == 0
    import json
    pv = json.loads(out)["pv"]
    assert pv
    text = kif.read_bytes().decode("cp932")
    assert text.rstrip().endswith(f"まで{len(pv)}手で詰み")
    # python-shogi: the same moves (its SFEN's side to move is after the moves)
    record = shogi.KIF.Parser.parse_str(text)[0]
    assert record["moves"] == pv
    assert record["sfen"].split()[0] == pos.sfen().split()[0]
    # (cshogi's KIF reader reads no board diagram, only games from a handicap's start)
    # and our own reader takes the record back as the problem
    assert read_problem(str(kif)) == pos


def test_kif_hand_and_turn_lines_as_writers_spell_them(tmp_path):
    board = "+------+\n| ・v玉|一\n| 金 ・|二\n+------+\n"
    for text in [f"後手の持駒:なし\n{board}先手の持ち駒：金\n  後手番\n",
                 f" 後手の持ち駒：なし\n  ２ １\n{board} 先手の持駒: 金\n手番：後手\n",
                 f"後手の持駒：なし\n{board}先手の持駒：金\n後手番  (board 2x2, zone 1)\n"]:
        path = tmp_path / "p.kif"
        path.write_text(text, encoding="utf-8")
        assert read_problem(str(path), zone=1).sfen() == "1k/G1 w G 1", text


def test_csa_statements_separated_by_commas():
    assert sfen_from_csa("P-21OU,P+23KI00KI\n+") == sfen_from_csa("P-21OU\nP+23KI00KI\n+")


@pytest.mark.parametrize("text", ["P8/9/9/9/9/9/9/9/k8 b - 1\n", "position sfen P8/9/9/9/9/9/9/9/k8 b - 1\n"])
def test_an_sfen_starting_with_a_pawn_is_not_taken_for_csa(text):
    assert sniff_format(text) == "usi"
