"""The defender's pawn-drop check and the attacker's escape (uchifuzume of the defender).

A defender's pawn drop that checks the attacker's king is legal only if the attacker then
has a legal move. ``compact`` asks this as a circuit over the attacker's candidate moves;
``nested`` keeps the older form, a witness move on universal bits beside the reply. Both
must give the reference's verdicts; only the circuit leaves the prefix as short as a
question without such drops. Either form offers only the answers a pawn's check can have
(the king's moves from in front of it, captures of it), as does the attacker's own pawn
drop's witness reply: questions where both sides hold a pawn check all of them.
"""

import pytest

from tsumeqbf.encoder.game import pawn_check_answers
from tsumeqbf.encoder.lines import move_cand
from tsumeqbf.encoder.reach import generate, initial_reach
from tsumeqbf.encoder.registry import encode
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.moves import drop_kind, is_drop
from tsumeqbf.rules.pieces import KING, PAWN, piece_code
from tsumeqbf.rules.reference import mate_within
from tsumeqbf.solvers import is_installed
from tsumeqbf.solvers.engine import solve_mate
from tsumeqbf.values import Limits

# 3x3, the attacker's king on 1b, the defender holding a pawn that p*1a would check it with
DROP_CHECK = "k2/2K/2R b N2Pp 1"
needs_solvers = pytest.mark.skipif(not is_installed("depqbf"), reason="pyqbf solvers not installed")


def _witnesses(enc) -> list[str]:
    """Witness bits on universal levels (the attacker's own drops keep existential ones)."""
    f = enc.formula
    return [name for v, name in enumerate(f.names) if name.startswith("w") and f.levels[v] & 1]


def test_compact_asks_the_escape_without_universal_witness_bits():
    pos = Position.from_sfen(DROP_CHECK)
    compact, nested = encode(pos, 3, "compact"), encode(pos, 3, "nested")
    assert _witnesses(nested) and not _witnesses(compact)
    prefix, _, _ = compact.formula.prefix_and_matrix()
    assert [q for q, _ in prefix] == ["e", "a", "e"]  # the same as without the pawn in hand
    without, _, _ = encode(Position.from_sfen("k2/2K/2R b N2P 1"), 3, "compact").formula.prefix_and_matrix()
    assert len(prefix) == len(without)


def _generated(seed, count, sizes, keep, **bounds):
    """The first 24 generated questions (1 and 3 plies, the attacker's king asked for)
    whose position ``keep`` accepts, as (position, n)."""
    out = []
    for q in question_set(seed, count, sizes=sizes, plies=[1, 3], attacker_king=True, **bounds):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        if keep(pos):
            out.append((pos, q["n"]))
    return out[:24]


def _drop_check_questions():
    """Generated questions where the defender holds a pawn and the attacker has a king."""
    return _generated(77, 400, [(3, 3), (4, 4), (5, 5)],
                      lambda pos: pos.hands[1 - pos.turn][PAWN] and pos.kings[pos.turn] >= 0)


def _after_pawn_drop_checks():
    """Positions just after a legal pawn drop that gives check, with the drop as a
    candidate: the first such drop of generated 5x5 and 9x9 questions."""
    out = []
    for q in question_set(2713, 400, sizes=[(5, 5), (9, 9)], plies=[1], attacker_king=True,
                          attacker_hand=4, defender_hand=3):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        for m in pos.legal_moves():
            if is_drop(m) and drop_kind(m) == PAWN and pos.gives_check(m):
                drop = move_cand(pos, m)
                pos.push(m)
                out.append((pos, drop))
                break
    return out


def test_every_answer_to_a_pawn_drop_check_is_offered():
    """The answers offered after a pawn drop's check hold every legal reply the rules
    engine lists, and the front they name, where the encodings test the king's safety
    after a reply other than the king's, is the square the king stands on."""
    cases = _after_pawn_drop_checks()
    assert len(cases) >= 30
    captures = 0
    for pos, drop in cases:
        geo, c = pos.geo, pos.turn
        cands = generate(geo, initial_reach(pos), c, board_only=True, evasion_filter=True)
        offered, fronts = pawn_check_answers(geo, cands, [drop])
        assert fronts == (pos.kings[c],)
        for reply in pos.legal_moves():
            answer = move_cand(pos, reply)
            assert answer in offered, (pos.sfen(), pos.usi(reply))
            captures += answer.code != piece_code(KING, c)
    assert captures  # not only the king's moves: captures of the pawn by other pieces too


def _both_drop_questions():
    """Generated 5x5 questions where both sides hold a pawn (the attacker's king asked for,
    which the generator places on most of them)."""
    return _generated(2711, 300, [(5, 5)], lambda pos: pos.hands[0][PAWN] and pos.hands[1][PAWN],
                      attacker_hand=4, defender_hand=3)


def _agree(questions, encoding):
    decided = 0
    for pos, n in questions:
        got = solve_mate(pos, n, Limits.within(30), {"solver": "depqbf", "encoding": encoding})
        if got.verdict is not None:
            assert got.verdict == mate_within(pos, n), (pos.sfen(), n, encoding)
            decided += 1
    assert decided >= len(questions) // 2  # not vacuous (nested, the slow form, leaves some)


@needs_solvers
@pytest.mark.parametrize("encoding", ["compact", "nested", "lifted", "enumerated"])
def test_verdicts_with_defender_pawn_drops_agree_with_the_reference(encoding):
    questions = _drop_check_questions()
    assert len(questions) >= 20
    _agree(questions, encoding)


@needs_solvers
@pytest.mark.parametrize("encoding", ["compact", pytest.param("nested", marks=pytest.mark.slow),
                                      "lifted", "enumerated"])
def test_verdicts_with_pawn_drops_on_both_sides_agree_with_the_reference(encoding):
    questions = _both_drop_questions()
    assert len(questions) >= 20
    _agree(questions, encoding)
