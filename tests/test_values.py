"""The values at the boundaries (tsumeqbf/values.py): an answer is written one way and
read back the same, its columns are the store's, and the four statuses are spelt in one
place (the ratchet at the end counts their literals everywhere else)."""

import json
import re
from pathlib import Path

import pytest

from tsumeqbf.experiments.store import COLUMNS, format_value, parse_value
from tsumeqbf.engines import run_engine
from tsumeqbf.rules import TsumeError
from tsumeqbf.values import Answer, Certification, Limits, Question, Status, Timings

ROOT = Path(__file__).resolve().parent.parent


def test_a_status_is_written_as_its_word():
    assert json.dumps({"status": Status.NOMATE}) == '{"status": "nomate"}'
    assert str(Status.ERROR) == "error" and f"{Status.MATE:>6}" == "  mate"
    assert format_value(Status.UNKNOWN, "TEXT") == "unknown"
    assert [Status.of(v) for v in (True, False, None)] == ["mate", "nomate", "unknown"]
    assert {s for s in Status if s.decided} == {Status.MATE, Status.NOMATE}


def test_an_answer_goes_to_json_and_back_unchanged():
    engine_said = {"status": "mate", "mate": True, "first_move": "G*2b", "pv": ["G*2b"],
                   "nodes": 12, "certified": True, "strategy_nodes": 3, "certify_s": 0.25,
                   "main_line": ["G*2b"], "engine": "depqbf", "time_s": 1.5, "cpu_s": 1.25,
                   "peak_mb": 80.0, "measured_by": "rusage"}
    answer = Answer.from_dict(engine_said)
    assert answer.line == ("G*2b",) and answer.facts == {"nodes": 12}
    assert answer.certification == Certification(True, 3, 0.25, None, ("G*2b",))
    assert answer.timings == Timings(time_s=1.5, cpu_s=1.25, peak_mb=80.0, measured_by="rusage")
    assert json.loads(json.dumps(answer.to_dict())) == engine_said
    assert Answer.from_dict(json.loads(json.dumps(answer.to_dict()))) == answer


def test_an_answer_goes_to_a_csv_row_and_back():
    answer = Answer.unknown("timeout while encoding", engine="caqe", facts={"vars": 9},
                            timings=Timings(time_s=0.5, encode_s=0.5))
    row = answer.to_row()
    assert list(row) == [name for name, _ in Answer.COLUMNS]
    kinds = dict(Answer.COLUMNS)
    text = {name: format_value(value, kinds[name]) for name, value in row.items()}
    assert text["status"] == "unknown" and text["mate"] == "" and text["vars"] == "9"
    back = Answer.from_row({name: parse_value(value, kinds[name]) for name, value in text.items()})
    # the engine's name is the cell's column, not the answer's
    assert back == answer.replace(engine=None)


def test_the_answer_columns_are_the_stores_with_the_same_kinds():
    assert set(Answer.COLUMNS) <= set(COLUMNS)


def test_a_verdict_that_contradicts_its_status_is_refused():
    for status, verdict in (("mate", None), ("nomate", True), ("unknown", False), ("error", True)):
        with pytest.raises(ValueError):
            Answer(status, verdict)
    with pytest.raises(ValueError):
        Answer("maybe")


def test_a_question_checks_itself():
    assert Question("2k/3/1GP b - 1", 3, 2, "no-hands").rules == "no-hands"
    for n in (0, 2, True, "3"):
        with pytest.raises(ValueError):
            Question("2k/3/1GP b - 1", n)
    with pytest.raises(ValueError):
        Question("2k/3/1GP b - 1", 1, rules="chess")


def test_a_question_of_a_position():
    from tsumeqbf.rules import Position

    pos = Position.from_sfen("2k/3/1GP b - 1", zone=2)
    assert Question.of(pos, 3) == Question(pos.sfen(), 3, 2, "standard")
    assert Question.of(pos.with_no_hands(), 1).rules == "no-hands"


def test_limits_keep_one_deadline():
    now = [10.0]
    limits = Limits.within(5, max_nodes=100, clock=lambda: now[0])
    assert limits.deadline == 15.0 and limits.seconds_left(lambda: now[0]) == 5.0
    now[0] = 20.0
    assert limits.passed(lambda: now[0]) and limits.seconds_left(lambda: now[0]) == Limits.LAST_S
    assert Limits.within(None).deadline is None and not Limits().passed()


#: literals of the four statuses (as statuses or as the answer's keys) in tsumeqbf's
#: Python outside values.py; the goal (issue 44) is under 20
STATUS_LITERAL = re.compile(r"[\"'](mate|nomate|unknown|error)[\"']")
CEILING = 17


def test_status_literals_do_not_come_back():
    found = [f"{path.relative_to(ROOT)}:{n}"
             for path in sorted((ROOT / "tsumeqbf").rglob("*.py")) if path.name != "values.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             for _ in STATUS_LITERAL.finditer(line)]
    # lower CEILING as literals go; a new one is Status.X or an Answer field instead
    assert len(found) <= CEILING, found


def test_run_engine_hands_every_question_one_limits(monkeypatch):
    # made once where the question starts and passed down whole: each question of a
    # deepening reads the same deadline and node limit, never seconds made anew
    import time

    from tsumeqbf import engines
    from tsumeqbf.rules import Position

    seen = []

    def engine(pos, n, limits, options):
        seen.append((n, limits))
        return Answer.decided(False)

    monkeypatch.setitem(engines.ENGINES, "fake", engines.EngineSpec(lambda: engine,
                                                                    settings=lambda: engines.BruteOptions))
    before = time.monotonic()
    answer = engines.run_engine("fake", Position.from_sfen("2k/3/1GP b - 1", zone=2), 5,
                                timeout=30, options={"deepen": True, "max_nodes": 7})
    assert [n for n, _ in seen] == [1, 3, 5] and answer.status is Status.NOMATE
    limits = {id(limits) for _, limits in seen}
    assert len(limits) == 1
    one = seen[0][1]
    assert before + 30 <= one.deadline <= time.monotonic() + 30
    assert (one.max_nodes, one.seconds) == (7, 30)
    assert answer.engine == "fake" and answer.settings["max_nodes"] == 7


def test_typed_values_refuse_what_they_would_misread():
    from tsumeqbf.rules import Position
    # a line given as one string was read move by letter; a 1 was kept as the verdict
    with pytest.raises(TypeError, match="sequence of USI moves"):
        Answer.decided(True, line="G*2b")
    assert Answer.of(1).verdict is True and Answer.from_dict({"status": "mate", "mate": 1}).verdict is True
    with pytest.raises(ValueError, match="True, False or None"):
        Status.of("x")
    with pytest.raises(ValueError, match="no status"):
        Answer.from_dict({})
    with pytest.raises(TypeError):
        Question(None, 1)
    with pytest.raises(ValueError, match="zone"):
        Question("2k/3/1GP b - 1", 1, zone=-3)
    with pytest.raises(TypeError, match="an SFEN is a string"):
        Position.from_sfen(None)
    with pytest.raises(TypeError, match="promotion zone"):
        Position.from_sfen("2k/3/1GP b - 1", zone="2")
    with pytest.raises(TypeError, match="takes a Position"):
        run_engine("brute", "2k/3/1GP b - 1", 1)
    with pytest.raises(TsumeError, match="has no option all_movs"):
        run_engine("brute", Position.from_sfen("2k/3/1GP b - 1", zone=2), 1, options={"all_movs": False})


def test_an_answer_is_hashable_and_its_certified_line_compares_as_read_back():
    cert = Certification(True, strategy_nodes=3, main_line=["G*2b"])
    answer = Answer.decided(True, first_move="G*2b", certification=cert, facts={"nodes": 1})
    assert hash(answer) == hash(Answer.from_dict(answer.to_dict()))
    assert Answer.from_dict(answer.to_dict()) == answer
