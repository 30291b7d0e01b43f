"""A family's files: one formula in one format with its header, and ``index.csv``.

Each file is written beside its final name (``NAME.part``) and renamed once complete (and,
where asked, checked), so that an interrupted run leaves no partial formula under a final
name. ``md5_formula`` is the MD5 of the file without its comment lines (QDIMACS ``c``
lines, QCIR ``#`` lines after ``#QCIR-G14``): the prefix and the matrix alone, equal for
two files of one formula whatever their headers say.

>>> formula_name("fig5", 3, "compact", ("binary", "binary"), False)
'fig5-n3-compact-false'
>>> formula_name("fig5", 3, "lifted", ("onehot-ladder", "binary"), True)
'fig5-n3-lifted-a.onehot-ladder-true'
"""

from __future__ import annotations

import csv
import hashlib
import io
import os

from ..encoder.formula import qdimacs_pieces
from ..encoder.header import truth_word
from ..encoder.qcir import circuit, qcir_pieces
from ..rules import TsumeError

#: the columns of index.csv, in order (docs/encodings.md says what each holds)
INDEX_COLUMNS = ("id", "question", "file", "format", "sfen", "n", "zone", "board", "rules",
                 "encoding", "axes", "variables", "clauses", "blocks", "gates", "truth",
                 "proven_by", "md5", "md5_formula")
EXTENSIONS = {"qdimacs": ".qdimacs", "qcir": ".qcir"}


def axes_text(axes: tuple) -> str:
    """``ATTACKER/DEFENDER`` as index.csv writes the move-choice axes."""
    return "/".join(axes)


def formula_name(question: str, n: int, encoding: str, axes: tuple, truth: bool) -> str:
    """The name of a formula's files (without the extension): the question, the depth,
    the encoding, the move choices that are not binary (``a.`` attacker, ``d.``
    defender), and the truth value last, as QBF families name theirs."""
    parts = [question, f"n{n}", encoding]
    parts += [f"{side}.{kind}" for side, kind in zip("ad", axes) if kind != "binary"]
    return "-".join(parts + [truth_word(truth)])


def write_formula(path: str, enc, fmt: str, header: list[str]) -> dict:
    """Write ``enc`` as ``fmt`` to ``path`` with the comment ``header``. Returns its
    statistics (``variables``, ``clauses`` or ``gates``, ``blocks``)."""
    if fmt == "qcir":
        prefix, gates, _, _ = circuit(enc.formula)
        pieces = qcir_pieces(prefix, gates, header)
        stats = {"variables": sum(len(vs) for _, vs in prefix), "clauses": "",
                 "blocks": len(prefix), "gates": len(gates)}
    else:
        prefix, clauses, _ = enc.formula.prefix_and_matrix()
        pieces = qdimacs_pieces(prefix, clauses, header)
        stats = {"variables": max((v for _, vs in prefix for v in vs), default=0),
                 "clauses": len(clauses), "blocks": len(prefix), "gates": ""}
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for piece in pieces:
            fh.write(piece)
    return stats


def file_md5s(path: str) -> tuple[str, str]:
    """(MD5 of the file, MD5 of the file without its comment lines)."""
    whole, body = hashlib.md5(), hashlib.md5()
    with open(path, "rb") as fh:
        for line in fh:
            whole.update(line)
            if not is_comment(line):
                body.update(line)
    return whole.hexdigest(), body.hexdigest()


def is_comment(line: bytes) -> bool:
    r"""A QDIMACS comment (``c`` and a space or the line's end) or a QCIR one (``#``, but
    not the format line ``#QCIR-G14``).

    >>> [is_comment(x) for x in (b"c n=3\n", b"c\n", b"#QCIR-G14\n", b"# n=3\n", b"-1 2 0\n")]
    [True, True, False, True, False]
    """
    return line[:1] == b"c" and line[1:2] in (b" ", b"\n", b"\r", b"") or (
        line[:1] == b"#" and not line.startswith(b"#QCIR"))


def write_index(path: str, rows: list[dict]) -> None:
    """index.csv (``INDEX_COLUMNS``, ``\\n`` line ends), replaced whole."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=INDEX_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    part = path + ".part"
    with open(part, "w", encoding="utf-8", newline="") as fh:
        fh.write(text.getvalue())
    os.replace(part, path)


def columns_problem(columns, expected, names=", ".join) -> str:
    """What differs between a CSV's header ``columns`` and the ``expected`` ones, for a
    one-line refusal; ``names`` lists column names.

    >>> columns_problem(("a", "c"), ("a", "b")), columns_problem(("b", "a"), ("a", "b"))
    ('missing column(s) b; unknown column(s) c', 'its columns out of order')
    """
    missing = [c for c in expected if c not in columns]
    extra = [c for c in columns if c not in expected]
    return "; ".join(([f"missing column(s) {names(missing)}"] if missing else [])
                     + ([f"unknown column(s) {names(extra)}"] if extra else [])) \
        or "its columns out of order"


def read_index(folder: str, empty_ok: bool = False) -> list[dict]:
    """The rows of ``folder``/index.csv, its columns those ``family`` writes and every row
    complete with a truth of ``true`` or ``false``, a format of :data:`EXTENSIONS`, a file
    of the folder with that format's extension and an odd ``n``, and (unless ``empty_ok``)
    at least one row; anything else is one TsumeError line."""
    path = os.path.join(folder, "index.csv")
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            rows = list(reader)
            columns = tuple(reader.fieldnames or ())
    except OSError as exc:
        raise TsumeError(f"cannot read {path}: {exc.strerror}") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise TsumeError(f"cannot read {path}: {exc}") from None
    if columns != INDEX_COLUMNS:
        raise TsumeError(f"{path}: not an index that `family` writes "
                         f"({columns_problem(columns, INDEX_COLUMNS)})")
    seen: set = set()
    for line, row in enumerate(rows, 2):
        if None in row or None in row.values():
            raise TsumeError(f"{path}: line {line} does not have the header's "
                             f"{len(INDEX_COLUMNS)} fields")
        if row["truth"] not in ("true", "false"):
            raise TsumeError(f"{path}: line {line}: truth {row['truth']!r} is not true or false")
        # (a format no solver reads would leave the file unscored without a word)
        if row["format"] not in EXTENSIONS:
            raise TsumeError(f"{path}: line {line}: format {row['format']!r} is not "
                             f"{' or '.join(EXTENSIONS)}")
        if (os.path.basename(row["file"]) != row["file"]
                or not row["file"].endswith(EXTENSIONS[row["format"]])):
            raise TsumeError(f"{path}: line {line}: file {row['file']!r} is not a "
                             f"{EXTENSIONS[row['format']]} file of the folder (format "
                             f"{row['format']})")
        if not row["n"].isdigit() or int(row["n"]) % 2 == 0:  # (the summary groups by it)
            raise TsumeError(f"{path}: line {line}: n {row['n']!r} is not an odd number of plies")
        if row["file"] in seen:  # (its cells would be run and counted twice)
            raise TsumeError(f"{path}: line {line}: file {row['file']!r} is listed twice")
        seen.add(row["file"])
    if not rows and not empty_ok:
        raise TsumeError(f"{path}: lists no formulas (an empty family): nothing to score")
    return rows
