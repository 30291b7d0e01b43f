"""md5 of every encoding's formula (prefix and matrix, comments aside) over the questions
the encoder's tests use: the check that a refactoring of the encoders left every formula
bit for bit as it was.

    python tests/formula_md5.py > before.txt      # on the old code
    python tests/formula_md5.py > after.txt       # on the new code
    diff before.txt after.txt                     # empty: no formula moved

One line per formula: the question, the encoding, the move-choice axes, the md5 of the
QDIMACS prefix and matrix, of the QCIR prefix and gates (for ``compact`` and ``nested``,
the encodings the QCIR tests check, and on the small questions), and of the first-move
list. ``--quick`` keeps the small questions only, ``--only=PREFIX`` (repeatable) the
questions whose names start with PREFIX.
"""

from __future__ import annotations

import hashlib
import sys

from tsumeqbf.data import collection_cases, read_jsonl
from tsumeqbf.encoder.choice import ATTACKER_CHOICES, DEFENDER_CHOICES
from tsumeqbf.encoder.formula import write_qdimacs
from tsumeqbf.encoder.qcir import circuit, qcir_pieces
from tsumeqbf.encoder.registry import encode
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set

#: the questions every move choice is tried on
AXES_ON = {"g41-0", "g41-1", "g41-2", "g77-1", "g2711-1"}
FULL = ("compact", "nested", "enumerated", "lifted", "lifted-nested", "paper-hands")


def _generated():
    """(name, sfen, zone, n, no_hands) of small generated questions of both verdicts."""
    sets = [
        ("g11", dict(seed=11, count=24, sizes=((3, 3), (4, 4), (5, 5)), plies=(1,))),
        ("g13", dict(seed=13, count=12, sizes=((3, 3), (4, 4)), plies=(3,))),
        ("g14", dict(seed=14, count=12, sizes=((3, 3), (4, 4), (5, 5)), plies=(1, 3),
                     defender_hand=2)),
        ("g15", dict(seed=15, count=4, sizes=((3, 3), (4, 4)), plies=(5,))),
        ("g41", dict(seed=41, count=12, sizes=[(3, 3), (4, 4)], plies=[1, 3])),
        ("g77", dict(seed=77, count=20, sizes=[(3, 3), (4, 4), (5, 5)], plies=[1, 3],
                     attacker_king=True)),
        ("g2711", dict(seed=2711, count=20, sizes=[(5, 5)], plies=[1, 3], attacker_king=True,
                       attacker_hand=4, defender_hand=3)),
        ("g12", dict(seed=12, count=4, sizes=((9, 9),), plies=(1,))),
    ]
    out = []
    for name, kw in sets:
        for i, q in enumerate(question_set(**kw)):
            out.append((f"{name}-{i}", q["sfen"], q["zone"], q["n"], False))
    for i, q in enumerate(question_set(25, 16, sizes=((3, 3), (4, 4)), plies=(1, 3),
                                       attacker_hand=0, defender_hand=0)):
        out.append((f"g25nh-{i}", q["sfen"], q["zone"], q["n"], True))
    return out


def _figures():
    out = []
    for r in read_jsonl("figures.jsonl"):
        if r["n"] <= 5 and r["width"] <= 5:
            for no_hands in (False, True):
                out.append((r["id"] + ("-nh" if no_hands else ""), r["sfen"], r["zone"], r["n"],
                            no_hands))
    return out


def _yaneuraou():
    wanted = {"yaneuraou-mate3-1", "yaneuraou-mate3-2", "yaneuraou-mate3-8",
              "yaneuraou-mate5-2", "yaneuraou-mate5-3", "yaneuraou-mate5-8",
              "yaneuraou-mate7-71"}
    return [(c["id"], c["sfen"], None, c["n"], False)
            for c in collection_cases("yaneuraou_mate_samples.csv") if c["id"] in wanted]


def _affordable(encoding: str, width: int, n: int) -> bool:
    """Whether ``encoding`` is built for a question on a board ``width`` wide at ``n``
    plies here (paper-hands grounds 9x9 states: only at n = 1; the unexpanded last ply of
    ``nested`` and ``lifted-nested`` on 9x9: only at n <= 3)."""
    if width <= 5:
        return True
    if encoding == "paper-hands":
        return n == 1
    if encoding in ("nested", "lifted-nested"):
        return n <= 3
    return True


def _md5(pieces) -> str:
    h = hashlib.md5()
    for p in pieces:
        h.update(p.encode())
    return h.hexdigest()


def _line(name, pos, n, encoding, choices, qcir):
    enc = encode(pos, n, encoding, **choices)
    f = enc.formula
    prefix, clauses, _ = f.prefix_and_matrix()
    qd = _md5([write_qdimacs(prefix, clauses, ())])
    qc = "-"
    if qcir:
        cprefix, gates, _, _ = circuit(f)
        qc = _md5(qcir_pieces(cprefix, gates, ()))
    first = _md5([repr([getattr(m, "move", lambda: m)() for m in enc.first_moves])])
    axes = ",".join(f"{k}={v}" for k, v in sorted(choices.items()))
    return f"{name} {encoding} [{axes}] qdimacs={qd} qcir={qc} first={first}"


def main(argv) -> int:
    quick = "--quick" in argv
    small = _generated() + _figures()
    questions = small if quick else small + _yaneuraou()
    only = [a.removeprefix("--only=") for a in argv if a.startswith("--only=")]
    if only:  # the questions whose names start with one of these
        questions = [q for q in questions if q[0].startswith(tuple(only))]
    count = 0
    for name, sfen, zone, n, no_hands in questions:
        pos = Position.from_sfen(sfen, zone=zone, no_hands=no_hands)
        width = pos.geo.width
        big = width > 5
        encodings = ("paper", "paper-used") if no_hands else ()
        encodings += tuple(e for e in FULL if _affordable(e, width, n))
        for encoding in encodings:
            choices = {}
            if encoding == "paper-used":
                encoding, choices = "paper", {"used_kinds_only": True}
            if encoding == "paper-hands":
                # grounded: 10-20 s a 5x5 question under load, so only the smaller code set
                for used in (False, True) if width <= 4 else (True,):
                    print(_line(name, pos, n, encoding, {"used_kinds_only": used}, False))
                    count += 1
                continue
            qcir = not big and encoding in ("compact", "nested")
            print(_line(name, pos, n, encoding, choices, qcir))
            count += 1
        # the move-choice axes: every attacker choice, every defender choice, on the
        # small questions of the axes' own test and the drop checks
        if name in AXES_ON:
            for encoding in ("compact", "nested", "enumerated", "paper-hands", "lifted"):
                if encoding == "paper-hands" and width > 4:
                    continue
                for i, a in enumerate(ATTACKER_CHOICES):
                    d = DEFENDER_CHOICES[i % len(DEFENDER_CHOICES)]
                    if encoding == "lifted":
                        d = "binary"
                    print(_line(name, pos, n, encoding, {"attacker_moves": a,
                                                         "defender_moves": d}, False))
                    count += 1
        sys.stdout.flush()
    print(f"# {count} formulas", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
