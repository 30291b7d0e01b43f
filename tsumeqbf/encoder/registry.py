"""The encodings of Mate(P, n) as a QBF, one module each, behind one entry point.

| name | module | what |
|---|---|---|
| ``compact`` | :mod:`.compact` | the game pruned by reachability, checks and evasions, guarded, last ply expanded |
| ``nested`` | :mod:`.nested` | the same pruning, unguarded, every ply a move choice |
| ``paper`` | :mod:`.paper` | the founding paper's own structure under its no-hands rules |
| ``paper-hands`` | :mod:`.paper_hands` | the paper's grounding under the full rules |
| ``lifted`` | :mod:`.lifted` | ``compact`` with the defender's replies as symbolic move fields |
| ``lifted-nested`` | :mod:`.lifted` | the same with the last ply lifted too |
| ``enumerated`` (default) | :mod:`.enumerated` | ``compact`` offering the legal moves of the positions lines reach |
| ``mating`` | :mod:`.mating` | ``enumerated`` offering at ply n only the checks that mate |
| ``dag`` | :mod:`.dag` | the listed positions as a DAG, one variable a position, no board |
| ``dag-global`` | :mod:`.dag` | the same with move codes over the ply's candidates |
| ``dag-fold`` | :mod:`.dag_fold` | ``dag`` with its last two plies folded into clauses |
| ``dag-fold-reduced`` | :mod:`.dag_fold` | ``dag-fold`` with ply n - 1's universal code reduced away |

:func:`encode` calls the encoding's function from :data:`ENCODERS`; the move-choice axes
(:mod:`.choice`) are keyword arguments that :func:`encoding_options` checks against the
encoding. A new encoding is a module with its ``encode`` (most are a small subclass of
:class:`.game.PlyGame`) and a line in :data:`ENCODERS` (see docs/layout.md).

>>> from tsumeqbf.rules import Position
>>> enc = encode(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1)
>>> enc.formula.num_vars > 0, len(enc.first_moves) >= 2
(True, True)
>>> encode(Position.from_sfen("2k/3/1GP b - 1", zone=2), 1, "qdimacs")
Traceback (most recent call last):
ValueError: unknown encoding 'qdimacs'; choose one of compact, nested, paper, paper-hands, lifted, lifted-nested, enumerated, mating, dag, dag-global, dag-fold, dag-fold-reduced
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable

from ..rules.position import Position
from ..settings import Settings, setting
from . import compact, dag, dag_fold, enumerated, lifted, mating, nested, paper, paper_hands
from .choice import ATTACKER_CHOICES, DEFENDER_CHOICES
from .game import VERSION, Encoded

#: encoding name -> its function (pos, n, **choices) -> Encoded
ENCODERS: dict[str, Callable[..., Encoded]] = {
    "compact": compact.encode, "nested": nested.encode, "paper": paper.encode,
    "paper-hands": paper_hands.encode, "lifted": lifted.encode,
    "lifted-nested": lifted.encode_nested, "enumerated": enumerated.encode,
    "mating": mating.encode, "dag": dag.encode, "dag-global": dag.encode_global,
    "dag-fold": dag_fold.encode, "dag-fold-reduced": dag_fold.encode_reduced}
ENCODINGS = tuple(ENCODERS)
#: the encodings whose formulas carry a version of their own, not the game loop's
VERSIONS = {"paper": paper.VERSION, "lifted": lifted.VERSION, "lifted-nested": lifted.VERSION}
#: the encoding of ``mate``, ``encode`` and ``batch`` when none is named: the one that
#: decides the most real problems in results/qbf-real.md
DEFAULT_ENCODING = "enumerated"
__all__ = ["DEFAULT_ENCODING", "ENCODINGS", "EncodingOptions", "VERSION", "encode",
           "encoding_options", "encoding_version"]


def encoding_version(encoding: str) -> str:
    """The version written in the comments of ``encoding``'s formulas: its module's own
    (``paper``, ``lifted``) or the game encoder's, which the others build on.

    >>> encoding_version("paper"), encoding_version("compact") == VERSION
    ('paper-2', True)
    """
    if encoding not in ENCODERS:
        raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    return VERSIONS.get(encoding, VERSION)


@dataclass(frozen=True)
class EncodingOptions(Settings):
    """How a question is encoded: the encoding and its move-choice axes (:mod:`.choice`),
    checked as they are built: ValueError with one line for an encoding or a choice that
    does not exist or does not apply. None (a flag or a key not given) is the default.

    >>> EncodingOptions(None, attacker_moves="onehot-seqcounter").choices()
    {'used_kinds_only': False, 'attacker_moves': 'onehot-seqcounter', 'defender_moves': 'binary'}
    """

    encoding: str = setting(DEFAULT_ENCODING,
                            f"QBF encoding (QBF engines only; default {DEFAULT_ENCODING})",
                            choices=ENCODINGS)
    used_kinds_only: bool = setting(
        False, "encoding paper: variables only for the piece kinds in the position")
    attacker_moves: str = setting(
        "binary", "how the attacker's move is chosen: binary codes (default) or one variable "
                  "per candidate with PySAT's at-most-one encoding named",
        choices=ATTACKER_CHOICES)
    defender_moves: str = setting(
        "binary", "how the defender's move is chosen: binary codes (default) or one variable "
                  "per candidate, at most one as a circuit the reply needs",
        choices=DEFENDER_CHOICES)

    def __post_init__(self):
        for f in fields(EncodingOptions):
            object.__setattr__(self, f.name, getattr(self, f.name) or f.default)
        if self.encoding not in ENCODERS:
            raise ValueError(f"unknown encoding {self.encoding!r}; choose one of "
                             f"{', '.join(ENCODINGS)}")
        for side, allowed in (("attacker_moves", ATTACKER_CHOICES),
                              ("defender_moves", DEFENDER_CHOICES)):
            kind = getattr(self, side)
            if kind not in allowed:
                raise ValueError(f"unknown {side.replace('_', ' ')} choice {kind!r}; choose one "
                                 f"of {', '.join(allowed)}")
            if kind != "binary" and self.encoding == "paper":
                raise ValueError(f"encoding paper chooses moves by (from, to) pairs; "
                                 f"{side.replace('_', ' ')} {kind!r} does not apply")
            if kind != "binary" and self.encoding.startswith("dag"):
                raise ValueError(f"encoding {self.encoding} chooses moves by binary codes; "
                                 f"{side.replace('_', ' ')} {kind!r} does not apply")
            if kind != "binary" and self.encoding.startswith("lifted") and side == "defender_moves":
                raise ValueError(f"encoding {self.encoding} chooses the defender's moves by "
                                 f"fields; defender moves {kind!r} does not apply")

    def choices(self) -> dict:
        """:func:`encode`'s keyword arguments."""
        return {"used_kinds_only": self.used_kinds_only, "attacker_moves": self.attacker_moves,
                "defender_moves": self.defender_moves}


def encoding_options(encoding: str, options: dict) -> dict:
    """The keyword arguments of :func:`encode` that an engine's or a command's options
    ask for (``used_kinds_only``, ``attacker_moves``, ``defender_moves``), checked
    (:class:`EncodingOptions`)."""
    return EncodingOptions.from_config({**options, "encoding": encoding}).choices()


def encode(pos: Position, n: int, encoding: str = DEFAULT_ENCODING, **choices) -> Encoded:
    """The QBF that is true exactly when Mate(pos, n) holds, by the encoding named;
    ``choices`` as :func:`encoding_options` gives them (``used_kinds_only``,
    ``attacker_moves``, ``defender_moves``)."""
    if encoding not in ENCODERS:
        raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    return ENCODERS[encoding](pos, n, **choices)
