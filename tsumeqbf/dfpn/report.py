"""Where an unbounded search spent its nodes, read off its tables without searching.

>>> from tsumeqbf.rules import Position
>>> from tsumeqbf.dfpn.game import TsumeGame
>>> from tsumeqbf.dfpn.tsume import TsumeSearch
>>> busiest_line(TsumeSearch(TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2))))
[]
"""

from __future__ import annotations

from .tables import path_step


def children_numbers(search, path_key: int = 0) -> list[tuple]:
    """(move, pn, dn, work) of each child of the game's current node, read from the
    tables of ``search`` (a TsumeSearch). A solved child shows 0 or INF; ``work`` is the
    nodes spent below a child still unsolved (0 once it is solved, or if it was never
    searched or was dropped from the table). ``path_key`` is the node's own, as the search
    gave it (0 at the root; twin entries are looked up by it). The tables are left as they
    were."""
    game, tables = search.game, search.tables
    moves, hits = game.moves(), tables.tt_hits
    own_path = path_step(path_key, game.key())  # as the search keys the children
    rows = []
    for m, child in zip(moves, search._children(moves, game.is_or(), store=False)):
        found = tables.lookup(child, own_path)
        pn, dn = found[:2] if found is not None else child[3]
        entry = tables.table.get(child[0])
        rows.append((m, pn, dn, entry.work if entry is not None else 0))
    tables.tt_hits = hits  # a report, not part of the search
    return rows


def busiest_line(search, max_plies: int = 60) -> list[tuple]:
    """The line a search cut short was stuck in: from the game's current node (the root),
    the child with the most work below it, then its busiest child, and so on, read from
    the tables like :func:`children_numbers`. Each step is (move, pn, dn, work, share),
    share being the move's part of its siblings' work. It stops at a node whose children
    have no work recorded, at a repetition or after ``max_plies``; the game is left at the
    node it started from."""
    game = search.game
    line, seen, path_key = [], {game.key()}, 0
    try:
        while len(line) < max_plies:
            rows = children_numbers(search, path_key)
            total = sum(r[3] for r in rows)
            if not total:
                break
            move, pn, dn, work = max(rows, key=lambda r: r[3])
            path_key = path_step(path_key, game.key())
            game.play(move)
            line.append((move, pn, dn, work, work / total))
            if game.key() in seen:
                break
            seen.add(game.key())
    finally:
        for _ in line:
            game.undo()
    return line
