"""The defender's pawn-drop check and the attacker's escape (uchifuzume of the defender).

A defender's pawn drop that checks the attacker's king is legal only if the attacker then
has a legal move. ``compact`` asks this as a circuit over the attacker's candidate moves;
``nested`` keeps the older form, a witness move on universal bits beside the reply. Both
must give the reference's verdicts; only the circuit leaves the prefix as short as a
question without such drops.
"""

import pytest

from tsumeqbf.encoder.registry import encode
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set
from tsumeqbf.rules.pieces import PAWN
from tsumeqbf.rules.reference import mate_within
from tsumeqbf.solvers import is_installed
from tsumeqbf.solvers.engine import solve_mate

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


def _drop_check_questions():
    """Generated questions where the defender holds a pawn and the attacker has a king."""
    out = []
    for q in question_set(77, 400, sizes=[(3, 3), (4, 4), (5, 5)], plies=[1, 3], attacker_king=True):
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        if pos.hands[1 - pos.turn][PAWN] and pos.kings[pos.turn] >= 0:
            out.append((pos, q["n"]))
    return out[:24]


@needs_solvers
@pytest.mark.parametrize("encoding", ["compact", "nested", "lifted"])
def test_verdicts_with_defender_pawn_drops_agree_with_the_reference(encoding):
    questions = _drop_check_questions()
    assert len(questions) >= 20
    decided = 0
    for pos, n in questions:
        got = solve_mate(pos, n, 30, {"solver": "depqbf", "encoding": encoding})
        if got["mate"] is not None:
            assert got["mate"] == mate_within(pos, n), (pos.sfen(), n, encoding)
            decided += 1
    assert decided >= len(questions) // 2  # not vacuous (nested, the slow form, leaves some)
