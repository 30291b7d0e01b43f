"""Benchmark families: ``tsumeqbf family SPEC -o DIR`` writes QDIMACS and QCIR files of
mate questions whose truth is established without a QBF solver, and ``index.csv``.

For each question of the SPEC (:mod:`.spec`, :mod:`.questions`) the truth is established
at the depths asked (:mod:`.truth`: brute force and df-pn on the rules engine, and the
critical pair d, d - 2 of a mate of shortest length d); then for each depth x encoding x
move-choice axes, each format is written with the full comment header
(:mod:`tsumeqbf.encoder.header`) under a name that carries its truth value
(:mod:`.writer`). With ``strategy_check`` (the default) each file is also proven from its
bytes by the strategy check (:mod:`tsumeqbf.solvers.formula_check`) before it takes its
final name: a file the check proves lists ``strategy-check`` in ``proven-by``; one that
the check's limits leave undecided does not (its header is written again without it); a
file the check does not prove stops the family.

Nothing here reads a clock: node limits bound the engines, so the same SPEC writes the
same bytes (files and index) on any run with the same package versions.

Layering: this package stands above ``engines`` (which it calls for brute force and
df-pn), the strategy check, the encoder and the rules; only the command line imports it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..encoder.header import header_lines, truth_word
from ..encoder.registry import encode, encoding_options
from ..rules import Position, TsumeError
from ..solvers.formula_check import CheckFailed, CheckUnknown, check_file
from .questions import spec_questions
from .spec import FamilySpec
from .truth import BRUTE, STRATEGY, asked_depths, establish, shortest
from .writer import (EXTENSIONS, axes_text, file_md5s, formula_name, read_index, write_formula,
                     write_index)


@dataclass
class FamilyReport:
    rows: list = field(default_factory=list)  # index.csv's rows
    questions: int = 0  # questions with at least one formula written
    left_out: list = field(default_factory=list)  # (question id, why)


def _question_position(q: dict) -> Position:
    try:
        pos = Position.from_sfen(q["sfen"], zone=q["zone"])
        if q["no_hands"]:
            pos = pos.with_no_hands()
        pos.validate_question()
    except TsumeError as exc:
        raise TsumeError(f"question {q['id']}: {exc}") from None
    return pos


def _configurations(spec: FamilySpec, pos: Position, encodings=None):
    """(encoding, axes, choices) for each encoding (``encodings``, else the SPEC's) x axes
    that applies to ``pos``: ``paper`` only under the no-hands rules, each axis only where
    the encoding has it."""
    for encoding in encodings or spec.encodings:
        if encoding == "paper" and not pos.no_hands:
            continue
        for axes in spec.axes:
            try:
                choices = encoding_options(encoding, {"attacker_moves": axes[0],
                                                      "defender_moves": axes[1],
                                                      "used_kinds_only": spec.used_kinds_only})
            except ValueError:  # an axis the encoding does not have
                continue
            yield encoding, axes, choices


#: the endings of the temporaries a family writes (formulas and index.csv): a run killed
#: outright leaves them, the next run removes them and no other file of the folder
_PARTS = tuple(ext + ".part" for ext in EXTENSIONS.values()) + ("index.csv.part",)


def _clear(out_dir: str, overwrite: bool) -> None:
    """Make ``out_dir`` ready for a family: a family already there (its index.csv) is
    refused without ``overwrite``, and with it its own files alone are removed (those its
    index lists, the index); then the temporaries a killed run left."""
    index = os.path.join(out_dir, "index.csv")
    if os.path.exists(index):
        if not overwrite:
            raise TsumeError(f"{out_dir} already holds a family ({index}); give --overwrite "
                             f"to replace it, or another folder")
        try:
            listed = [row["file"] for row in read_index(out_dir, empty_ok=True)]
        except TsumeError as exc:
            raise TsumeError(f"{exc}; not removed: clear {out_dir} yourself") from None
        for name in listed:
            if os.path.basename(name) != name:  # (an index names files of its folder only)
                raise TsumeError(f"{index}: file {name!r} is not a name in {out_dir}; "
                                 f"not removed: clear {out_dir} yourself")
        for name in [*listed, "index.csv"]:
            try:
                os.unlink(os.path.join(out_dir, name))
            except FileNotFoundError:
                pass
    for stale in os.listdir(out_dir):
        if stale.endswith(_PARTS):
            os.unlink(os.path.join(out_dir, stale))


def build_family(spec: FamilySpec, out_dir: str, log=None, overwrite: bool = False) -> FamilyReport:
    """Write the family of ``spec`` into ``out_dir``; ``log`` (a file) gets a line per
    question. A family already in ``out_dir`` is replaced only with ``overwrite``. Raises
    TsumeError (a SPEC that asks no question, a bad question, a disagreement, a failed
    check, a family there)."""
    questions = spec_questions(spec)
    if not questions:
        raise TsumeError("the SPEC asks no question (its sources' ids, max_n and limit "
                         "keep none): an empty family")
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise TsumeError(f"{out_dir} is a file, not a folder: give -o a folder for the family")
    os.makedirs(out_dir, exist_ok=True)
    _clear(out_dir, overwrite)
    report = FamilyReport()
    done: set = set()  # (sfen, zone, rules, n, encoding, axes) of each formula written
    for q in questions:
        pos = _question_position(q)
        truths = establish(pos, q["n"], spec.brute_max_nodes, spec.dfpn_max_nodes, spec.pairs)
        depths = [k for k in asked_depths(truths, q["n"], spec.pairs)
                  if len(truths[k].proven_by) >= spec.min_engines]
        if not depths:
            why = (f"fewer than {spec.min_engines} engine(s) answered within the node limits"
                   if q["n"] not in truths else "no depth established by enough engines")
            report.left_out.append((q["id"], why))
            if log:
                print(f"{q['id']}: left out ({why})", file=log, flush=True)
            continue
        written, at = 0, []
        for k in depths:
            for encoding, axes, choices in _configurations(spec, pos, q["encodings"]):
                key = (pos.sfen(), pos.geo.zone, pos.no_hands, k, encoding, axes)
                if key in done:  # an earlier question asked the same (a pair's depth)
                    continue
                done.add(key)
                rows = _write_formula(spec, out_dir, q, pos, k, truths[k], encoding, axes,
                                      choices, log)
                report.rows += rows
                written += len(rows)
                at += [k] if rows and k not in at else []
        report.questions += written > 0
        write_index(os.path.join(out_dir, "index.csv"), report.rows)
        if log:
            d = shortest(truths)
            print(f"{q['id']}: {written} files at n={','.join(map(str, at)) or '-'}"
                  f"{f' (shortest mate {d})' if d else ''}", file=log, flush=True)
    write_index(os.path.join(out_dir, "index.csv"), report.rows)
    return report


def _write_formula(spec, out_dir, q, pos, k, truth, encoding, axes, choices, log) -> list:
    """The files of one formula (each format), checked where asked; their index rows."""
    enc = encode(pos, k, encoding, **choices)
    name = formula_name(q["id"], k, encoding, axes, truth.mate)
    rows = []
    for fmt in spec.formats:
        file = name + EXTENSIONS[fmt]
        path = os.path.join(out_dir, file)
        part = path + ".part"
        proven_by = list(truth.proven_by) + ([STRATEGY] if spec.strategy_check else [])
        try:
            stats = write_formula(part, enc, fmt, header_lines(
                enc, pos, encoding, choices, truth.mate, " ".join(proven_by)))
            if spec.strategy_check and not _check(part, file, pos, k, encoding, choices,
                                                  truth, spec, log):
                proven_by.remove(STRATEGY)  # left undecided: the header must not claim it
                stats = write_formula(part, enc, fmt, header_lines(
                    enc, pos, encoding, choices, truth.mate, " ".join(proven_by)))
            os.replace(part, path)
        except OSError as exc:
            raise TsumeError(f"cannot write {path}: {exc.strerror}") from None
        finally:
            if os.path.exists(part):
                os.unlink(part)
        md5, md5_formula = file_md5s(path)
        rows.append({"id": name, "question": q["id"], "file": file, "format": fmt,
                     "sfen": pos.sfen(), "n": k, "zone": pos.geo.zone,
                     "board": f"{pos.geo.width}x{pos.geo.height}",
                     "rules": "no-hands" if pos.no_hands else "hands", "encoding": encoding,
                     "axes": axes_text(axes), **stats, "truth": truth_word(truth.mate),
                     "proven_by": " ".join(proven_by), "md5": md5, "md5_formula": md5_formula})
    enc.formula.release()
    return rows


def _check(part, file, pos, k, encoding, choices, truth, spec, log) -> bool:
    """Prove the written file's truth from its bytes: True when proven, False when the
    check's limits leave it undecided; a failure (or another truth) stops the family."""
    strategy = "reference" if BRUTE in truth.proven_by else "dfpn"
    max_nodes = spec.brute_max_nodes if strategy == "reference" else spec.dfpn_max_nodes
    try:
        result = check_file(part, pos, k, encoding, strategy=strategy, choices=choices,
                            max_nodes=max_nodes)
    except CheckUnknown as exc:
        if log:
            print(f"{file}: strategy check undecided ({exc})", file=log, flush=True)
        return False
    except CheckFailed as exc:
        raise TsumeError(f"{file}: the strategy check does not prove it: {exc}") from None
    if result.truth != truth.mate:
        raise TsumeError(f"{file}: the strategy check proves it {truth_word(result.truth)}, "
                         f"the engines say {truth_word(truth.mate)}")
    return True
