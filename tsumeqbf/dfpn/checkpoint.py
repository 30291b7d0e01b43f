"""Checkpoints of an unbounded search: its tables in a file, to go on from later.

A checkpoint is a pickle of a dict of plain values (format ``tsumeqbf-tables-1``): the
format tag, the caller's ``identity`` (what a later run must match, such as the problem's
SFEN), the node count, the proofs, disproofs and twin entries as the tables keep them,
heuristic C's answers, the table-hit and probe counts and the unsolved numbers as rows.
Load only files you wrote: a pickle can run code.
"""

from __future__ import annotations

import os
import pickle

from .tables import Entry

CHECKPOINT_FORMAT = "tsumeqbf-tables-1"  # bump when what save_tables writes changes


def read_checkpoint(path) -> dict:
    """What :func:`save_tables` wrote to ``path``; TsumeError when it cannot be read or is
    of another version."""
    from ..rules import TsumeError
    try:
        with open(path, "rb") as fh:
            state = pickle.load(fh)
    except OSError as exc:
        raise TsumeError(f"cannot read checkpoint {path}: {exc.strerror or exc}") from None
    except Exception as exc:  # a truncated or foreign file: unpickling fails many ways
        raise TsumeError(f"checkpoint {path} is not readable ({type(exc).__name__})") from None
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
