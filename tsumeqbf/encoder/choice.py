"""How a ply's move is chosen among its candidates: an encoding axis.

- ``binary``: ceil(log2 N) variables hold the candidate's index; ``sel(i)`` is its minterm
  (an index past the list selects nothing, which the ply's legality then rejects).
- ``onehot``: a variable per candidate, ``sel(i)`` the variable itself, and "exactly one":
  - for the attacker (existential) as clauses: one at-least-one clause and PySAT's
    ``CardEnc.atmost(..., 1, encoding=...)`` (``onehot-pairwise``, ``onehot-ladder``,
    ``onehot-seqcounter``, ``onehot-totalizer``, ``onehot-bitwise``, ...), its auxiliary
    variables in the attacker's block;
  - for the defender (universal) never as clauses, which would constrain the universal
    player: a gate that the reply's legality requires, so that choosing none or two makes
    the reply illegal. Its at-most-one is a circuit: ``onehot-pairwise`` (a gate per pair)
    or ``onehot-sequential`` (a running "some before" chain, linear in N).

>>> from tsumeqbf.encoder.formula import Formula
>>> f = Formula()
>>> c = make_choice(f, ["a", "b", "c"], 0, "m1", "onehot-seqcounter")
>>> len(c.bits), c.well_formed(), f.num_vars > 3
(3, True, True)
>>> make_choice(Formula(), ["a", "b", "c"], 1, "m2", "binary").bits
[1, 2]
"""

from __future__ import annotations

from .formula import Formula, neg

#: PySAT's at-most-one encodings that the attacker's one-hot choice can use
CARD_ENCODINGS = ("pairwise", "ladder", "seqcounter", "totalizer", "mtotalizer",
                  "kmtotalizer", "sortnetwrk", "cardnetwrk", "bitwise")
#: the defender's at-most-one circuits
GATE_ENCODINGS = ("pairwise", "sequential")

ATTACKER_CHOICES = ("binary", *(f"onehot-{e}" for e in CARD_ENCODINGS))
DEFENDER_CHOICES = ("binary", *(f"onehot-{e}" for e in GATE_ENCODINGS))


class MoveChoice:
    """Binary code over a candidate list; ``sel(i)`` is the minterm of candidate i."""

    def __init__(self, f: Formula, cands: list, level: int, name: str):
        self.f, self.cands, self.name = f, cands, name
        nbits = (len(cands) - 1).bit_length() if len(cands) > 1 else 0
        self.bits = [f.var(f"{name}_bit{i}", level) for i in range(nbits)]
        self._sel: dict[int, object] = {}
        f.choices[name] = self

    def sel(self, i: int):
        g = self._sel.get(i)
        if g is None:
            g = self._sel[i] = self.f.and_(b if i >> j & 1 else -b for j, b in enumerate(self.bits))
        return g

    def decode(self, values: dict[int, bool]):
        i = sum(1 << j for j, b in enumerate(self.bits) if values.get(b, False))
        return self.cands[i] if i < len(self.cands) else None

    def well_formed(self, active=True):
        """Every code selects at most one candidate; one past the list selects none."""
        return True


class OneHotChoice:
    """A variable per candidate; ``amo`` says how "at most one" is built (see module)."""

    def __init__(self, f: Formula, cands: list, level: int, name: str, amo: str):
        self.f, self.cands, self.name, self.level, self.amo = f, cands, name, level, amo
        self.bits = [f.var(f"{name}_{i}", level) for i in range(len(cands))]
        self._wf = None
        f.choices[name] = self

    def sel(self, i: int):
        return self.bits[i]

    def decode(self, values: dict[int, bool]):
        chosen = [m for m, b in zip(self.cands, self.bits) if values.get(b, False)]
        return chosen[0] if len(chosen) == 1 else None

    def well_formed(self, active=True):
        """Exactly one candidate: clauses (True) on an existential level, the "at least
        one" only while ``active`` (a line still going on); a gate on a universal level."""
        if self._wf is None:
            self._wf = self._gate() if self.level & 1 else self._clauses(active)
        return self._wf

    def _clauses(self, active) -> bool:
        from pysat.card import CardEnc, EncType

        f = self.f
        f.add_clause([neg(active), *self.bits])
        if len(self.bits) > 1:
            cnf = CardEnc.atmost(lits=self.bits, bound=1, vpool=f.pool,
                                 encoding=getattr(EncType, self.amo))
            f.adopt(self.level, f"{self.name}_amo")  # its auxiliaries, in the attacker's block
            for clause in cnf.clauses:
                f.add_clause(clause)
        return True

    def _gate(self):
        f, xs = self.f, self.bits
        if self.amo == "pairwise":
            amo = f.and_(neg(f.and_([x, y])) for i, x in enumerate(xs) for y in xs[i + 1:])
        else:  # sequential: no x_i together with some x_j before it
            before, parts = False, []
            for x in xs:
                parts.append(neg(f.and_([x, before])))
                before = f.or_([before, x])
            amo = f.and_(parts)
        return f.and_([f.or_(xs), amo])


def make_choice(f: Formula, cands: list, level: int, name: str, kind: str = "binary"):
    """The move choice of ``kind`` (see ``ATTACKER_CHOICES`` and ``DEFENDER_CHOICES``)."""
    if kind == "binary":
        return MoveChoice(f, cands, level, name)
    allowed = GATE_ENCODINGS if level & 1 else CARD_ENCODINGS
    amo = kind.removeprefix("onehot-")
    if not kind.startswith("onehot-") or amo not in allowed:
        side = "defender" if level & 1 else "attacker"
        choices = DEFENDER_CHOICES if level & 1 else ATTACKER_CHOICES
        raise ValueError(f"unknown {side} move choice {kind!r}; choose one of {', '.join(choices)}")
    return OneHotChoice(f, cands, level, name, amo)
