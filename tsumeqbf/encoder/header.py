"""The comment header of a written formula: everything needed to know what it asks and to
make it again.

The encoding's own lines come first, unchanged (``tsumeqbf encoding=E version=V``,
``sfen=``, ``n= zone=``, ``board=WxH``: what ``check-formula`` reads back), then one
``key=value`` line each for the rules, the encoding's options (the move-choice axes and
``used-kinds-only``), the versions (the toolkit, the encoder, the packages that shape the
formula: PySAT draws the numbering and the one-hot auxiliaries, cshogi lists the moves of
``enumerated``; Python's for the order of its sets), the expected truth and how it was
established. Nothing in it depends on the time, the machine or the path, so that the same
question writes the same bytes.

>>> from tsumeqbf.rules import Position
>>> from tsumeqbf.encoder.registry import encode
>>> pos = Position.from_sfen("2k/3/1GP b - 1", zone=2)
>>> lines = header_lines(encode(pos, 1, "compact"), pos, "compact", {}, truth=True,
...                      proven_by="brute-force dfpn-rules")
>>> lines[:4]
['tsumeqbf encoding=compact version=8', 'sfen=2k/3/1GP b - 1', 'n=1 zone=2', 'board=3x3']
>>> lines[4:7]
['rules=hands', 'attacker-moves=binary defender-moves=binary used-kinds-only=no', 'tsumeqbf-version=0.1.0 encoder-version=8']
>>> lines[-2:]
['truth=true', 'proven-by=brute-force dfpn-rules']
"""

from __future__ import annotations

import platform
from importlib import metadata

from .. import __version__
from ..values import Status

#: the distributions whose versions are written (name in the header, distribution name)
PACKAGES = (("pysat", "python-sat"), ("cshogi", "cshogi"))


def package_versions() -> dict[str, str]:
    """The versions of the packages that shape a formula, ``none`` where not installed,
    and Python's (major.minor.micro)."""
    out = {}
    for key, dist in PACKAGES:
        try:
            out[key] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[key] = "none"
    out["python"] = platform.python_version()
    return out


def truth_word(truth: bool | None) -> str:
    """``true``, ``false`` or ``unknown``: the words of the header and of index.csv."""
    return Status.UNKNOWN.value if truth is None else ("true" if truth else "false")


def header_lines(enc, pos, encoding: str, choices: dict, truth: bool | None = None,
                 proven_by: str = "") -> list[str]:
    """The comment lines of ``enc`` (Mate(pos, n) by ``encoding`` with the move-choice
    ``choices`` of :func:`~.registry.encoding_options`), without the comment marks."""
    from .registry import encoding_version

    lines = list(enc.formula.comments)
    if not any(line.startswith("rules=") for line in lines):
        lines.append(f"rules={'no-hands' if pos.no_hands else 'hands'}")
    lines.append(f"attacker-moves={choices.get('attacker_moves') or 'binary'} "
                 f"defender-moves={choices.get('defender_moves') or 'binary'} "
                 f"used-kinds-only={'yes' if choices.get('used_kinds_only') else 'no'}")
    lines.append(f"tsumeqbf-version={__version__} encoder-version={encoding_version(encoding)}")
    lines.append(" ".join(f"{k}={v}" for k, v in package_versions().items()))
    lines.append(f"truth={truth_word(truth)}")
    lines.append(f"proven-by={proven_by or 'none'}")
    return lines
