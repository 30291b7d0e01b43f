"""How the unbounded search counts an AND node's replies in its proof number.

Replies in one group count once, the largest, in the node's proof-number sum
(:func:`reply_groups`): captures of the checker by one kind of piece (heuristic B), drops
onto one square (``group_drops``) or every interposition (``group_interpositions``), and a
reply with and without promotion (``group_promotions``). Heuristic A leaves a
non-promoting capture out while its promoting twin is unproven (:func:`promotion_twins`).
A new check starts with its proof number equal to its replies grouped the same way
(:func:`count_replies`). None of this changes what counts as proven: a sum of maxima is 0
only when every reply is proven.

>>> from tsumeqbf.rules import Position
>>> from tsumeqbf.dfpn.game import TsumeGame
>>> from tsumeqbf.dfpn.options import TsumeOptions
>>> g = TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2))
>>> [count_replies_after(g, m, TsumeOptions()) for m in g.moves()]
[1, 0, 0, 1]
"""

from __future__ import annotations

def promotion_pairs(game, moves, groups) -> list:
    """``groups`` with each reply made with and without promotion (both legal) put in one
    group, unless it is in a group already: the defender's choice to promote seldom
    changes the attacker's answer, so the pair counts once in the proof-number sum."""
    keys = [game.promotion_group(m) for m in moves]
    seen, paired = set(), set()
    for k in keys:
        (paired if k in seen else seen).add(k)
    return [g if g is not None or k not in paired else k for k, g in zip(keys, groups)]


def reply_groups(game, moves, options) -> list:
    """Per reply of the current AND node, the group it counts in (None: on its own)."""
    groups = [None] * len(moves)
    if "B" in options.heuristics:
        groups = [game.capture_group(m) for m in moves]
    if options.group_interpositions:
        # every drop is an interposition: this grouping takes in the one below
        groups = [game.interposition_group(m) or g for m, g in zip(moves, groups)]
    elif options.group_drops:
        groups = [game.drop_group(m) or g for m, g in zip(moves, groups)]
    if options.group_promotions:
        groups = promotion_pairs(game, moves, groups)
    return groups


def promotion_twins(game, moves, options) -> list:
    """Heuristic A: per reply of the current AND node, the index of its promoting twin
    (None: it has none, or the heuristic is off)."""
    if "A" not in options.heuristics:
        return [None] * len(moves)
    index = {m: i for i, m in enumerate(moves)}
    return [index.get(game.promotion_twin(m, index)) for m in moves]


def count_replies(game, options) -> int:
    """The current AND node's replies, grouped as :func:`reply_groups` groups them
    (heuristic B aside)."""
    if not options.group_promotions:
        return game.reply_count(options.group_drops, options.group_interpositions)
    replies = game.moves()
    return len({(options.group_interpositions and game.interposition_group(r))
                or (options.group_drops and game.drop_group(r))
                or game.promotion_group(r) for r in replies})


def count_replies_after(game, m, options) -> int:
    """:func:`count_replies` at the node check ``m`` of the current node leads to (the
    starting proof number of that check); the game is left at its node."""
    if not options.group_promotions:
        return game.reply_count_after(m, options.group_drops, options.group_interpositions)
    with game.played(m):
        return count_replies(game, options)
