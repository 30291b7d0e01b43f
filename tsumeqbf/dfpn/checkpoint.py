"""Checkpoints of an unbounded search: its tables in a file, to go on from later.

The Python search's checkpoint (:class:`~.tsume.TsumeSearch`) is a pickle of a dict of
plain values (format ``tsumeqbf-tables-1``): the format tag, the caller's ``identity``
(what a later run must match, such as the problem's SFEN), the node count, the proofs,
disproofs and twin entries as the tables keep them, heuristic C's answers, the table-hit
and probe counts and the unsolved numbers as rows. Load only files you wrote: a pickle can
run code.

The native core's (:class:`~.native_solve.NativeSearch`) is a file of its own (format
``tsumeqbf-native-tables-1``): two text lines, the format tag and the identity as JSON
(with the core's VERSION and the options that change what an unsolved entry's numbers
mean), then the core's tables as fixed-size binary records in this machine's byte
order, written and read by the core (``Tsume.save``, ``Tsume.load``). The two formats are
not interchangeable: the tables are keyed by hashes of positions, not by the positions,
and the core's hashing is not the Python search's (nor is cshogi's), so neither side
could look up the other's entries; and pickling tens of millions of entries from the core
would cost more than the search between checkpoints. A file of the other kind is refused
with one line that names the backend it belongs to.
"""

from __future__ import annotations

import json
import os
import pickle

from .tables import Entry

CHECKPOINT_FORMAT = "tsumeqbf-tables-1"  # bump when what save_tables writes changes
NATIVE_FORMAT = "tsumeqbf-native-tables-1"  # bump when the head lines' meaning changes


def checkpoint_kind(path) -> str | None:
    """``native`` for a checkpoint of the native core, ``python`` for anything else that
    exists (the Python search's, or a file that is none), None when ``path`` does not
    exist or cannot be read."""
    try:
        with open(path, "rb") as fh:
            start = fh.read(len(NATIVE_FORMAT) + 1)
    except OSError:
        return None
    return "native" if start == f"{NATIVE_FORMAT}\n".encode() else "python"


def read_checkpoint(path) -> dict:
    """What :func:`save_tables` wrote to ``path``; TsumeError when it cannot be read or is
    of another version."""
    from ..rules import TsumeError
    if checkpoint_kind(path) == "native":
        raise TsumeError(f"checkpoint {path} is the native core's (--backend native), not "
                         f"the Python search's")
    try:
        with open(path, "rb") as fh:
            state = pickle.load(fh)
    except OSError as exc:
        raise TsumeError(f"cannot read checkpoint {path}: {exc.strerror or exc}") from None
    except Exception as exc:  # a truncated or foreign file: unpickling fails many ways
        raise TsumeError(f"checkpoint {path} is not readable (truncated or damaged: unpickling "
                         f"failed with {type(exc).__name__})") from None
    if not isinstance(state, dict) or state.get("format") != CHECKPOINT_FORMAT:
        raise TsumeError(f"{path} is not a checkpoint of this version ({CHECKPOINT_FORMAT})")
    return state


def save_tables(search, path, identity: dict) -> None:
    """Write what ``search`` (a TsumeSearch) has found to ``path`` for a later run to go on
    from, with ``identity``. The file is written beside and renamed over ``path``, so an
    old checkpoint is never left half overwritten. Safe at any point of a search: the line
    being searched is not part of it, and every stored result holds whatever the path."""
    tables = search.tables
    state = {"format": CHECKPOINT_FORMAT, "identity": identity, "nodes": search.nodes,
             "seq": tables.seq, "proofs": tables.proofs, "disproofs": tables.disproofs,
             "twins": tables.twins, "answers": search.answers, "tt_hits": tables.tt_hits,
             "probes": search.probes,
             # rows, not objects: pickling millions of objects is seven times slower
             "table": [(k, e.pn, e.dn, e.work, e.min_depth, e.board, e.att, e.dfn)
                       for k, e in tables.table.items()]}
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as fh:
        pickle.dump(state, fh, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)


def load_tables(search, path, identity: dict) -> None:
    """Make ``search`` go on from the checkpoint :func:`save_tables` wrote to ``path``.
    TsumeError when it cannot be read or was written for another ``identity``; the node
    count goes on from the checkpoint's."""
    from ..rules import TsumeError
    state = read_checkpoint(path)
    if state["identity"] != identity:
        theirs = ", ".join(f"{k} {v}" for k, v in state["identity"].items())
        raise TsumeError(f"checkpoint {path} is of another problem or options ({theirs})")
    tables = search.tables
    for name in ("seq", "proofs", "disproofs", "twins", "tt_hits"):
        setattr(tables, name, state[name])
    search.nodes, search.answers, search.probes = state["nodes"], state["answers"], state["probes"]
    hand = tables.hand
    tables.table = {k: Entry(pn, dn, work, depth, board, hand(att), hand(dfn))
                    for k, pn, dn, work, depth, board, att, dfn in state["table"]}
    tables.index_boards()


def _refuse_other(path, theirs: dict, ours: dict) -> None:
    """TsumeError naming what differs between a checkpoint's identity and the run's."""
    from ..rules import TsumeError
    if theirs.get("core_version") != ours.get("core_version"):
        raise TsumeError(f"checkpoint {path} was written by native core VERSION "
                         f"{theirs.get('core_version')}, this core is VERSION "
                         f"{ours.get('core_version')}: its tables do not carry over")
    differ = ", ".join(f"{k} {theirs.get(k)} (here {ours.get(k)})"
                       for k in ours if theirs.get(k) != ours.get(k))
    raise TsumeError(f"checkpoint {path} is of another problem or options: {differ}")


def save_native(core, path, identity: dict) -> None:
    """Write the native core's tables (``core``, a ``_core.Tsume``) to ``path`` with
    ``identity``, beside and renamed over it as :func:`save_tables` does. Safe from the
    core's tick, between nodes."""
    head = f"{NATIVE_FORMAT}\n{json.dumps(identity, sort_keys=True)}\n".encode()
    tmp = f"{path}.tmp"
    core.save(tmp, head)
    os.replace(tmp, path)


def load_native(core, path, identity: dict) -> None:
    """Fill the native core's tables (``core``, a ``_core.Tsume`` that has not searched)
    from ``path``; TsumeError in one line when it cannot be read, is the Python search's or
    was written for another ``identity`` (problem, hashing, core VERSION, options)."""
    theirs = read_native_identity(path)
    if theirs != identity:
        _refuse_other(path, theirs, identity)
    _native_call(core.load, path)


def read_native_identity(path, what: str = "checkpoint") -> dict:
    """The identity in the head of the native core's checkpoint ``path``; TsumeError
    when it cannot be read or is not the core's (``what``: checkpoint or seed)."""
    from ..rules import TsumeError
    if checkpoint_kind(path) == "python":
        raise TsumeError(f"{what} {path} is not the native core's (a Python search's "
                         f"checkpoint is read with --backend rules or cshogi)")
    try:
        with open(path, "rb") as fh:
            fh.readline()
            return json.loads(fh.readline())
    except OSError as exc:
        raise TsumeError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except ValueError:
        raise TsumeError(f"{what} {path} is not readable (its head is damaged)") from None


def add_native_proofs(core, path) -> int:
    """The proofs of the native core's checkpoint ``path`` taken into ``core`` (a
    ``_core.Tsume``) before its own, as :meth:`TsumeTables.add_proofs` takes a seed's;
    the caller has checked the file's identity. How many were new."""
    return _native_call(core.add_proofs, path, "seed")


def _native_call(method, path, what: str = "checkpoint"):
    """``method(path)`` of the core, its errors as one-line TsumeErrors."""
    from ..rules import TsumeError
    try:
        return method(os.fspath(path))
    except OSError as exc:
        raise TsumeError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise TsumeError(f"{what} {path} is not readable ({exc})") from None
