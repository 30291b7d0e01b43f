"""The answer a tsume-shogi reader expects, read off a finished unbounded search.

Over the proven part of the tables (every proof has a sequence number and a proven
node's children were proven earlier, so the walk is finite) each proven node gets a value
(length, pieces left in the attacker's hand at the end):

* the attacker picks the shortest mate, then the one that uses up its hand;
* the defender picks the longest defence, then the line that leaves the attacker no
  pieces in hand;
* a useless interposition (muda-ai) is not counted: an interposition away from the king
  (a piece put next to the king always counts) after which the attacker can capture the
  interposed piece and mate at most two plies later than after the defender's best other
  reply (an interposition next to the king among them; an immediate mate when there is
  none) only delays the same mate, so the defender is not credited with it. The
  capture need not be the line the answer shows (which may be another check, equally
  short), nor be ranked nearer to mate: after a capture the defender may interpose
  again, which costs plies but is not counted. When every reply is such an
  interposition the check is mate, as tsume-shogi counts it.

The length is the shortest within the proofs found; ``shortest_check`` asks the bounded
solver whether a mate two plies shorter exists.

>>> from tsumeqbf.rules import Position
>>> from tsumeqbf.dfpn.game import TsumeGame
>>> from tsumeqbf.dfpn.tsume import TsumeSearch
>>> g = TsumeGame(Position.from_sfen("2k/3/1GP b - 1", zone=2)); s = TsumeSearch(g); _ = s.solve()
>>> [g.pos.usi(m) for m in principal_variation(s, g)]
['2c1b']
"""

from __future__ import annotations

import time

from ..rules.moves import move_to
from .core import deep_recursion

#: the share of the shortening's nodes the candidates below side checks and captures
#: (:func:`_candidates`'s ``late``) may have
LATE_SHARE = 1 / 8
#: the share of the shortening's nodes the pass along the answer's line may have
#: (:func:`_line_pass`), each check's nodes in it as a multiple of the rounds' first
#: nodes a candidate, and the rounds of the shortening before it (after the first round,
#: zukou-059 35 against 33, musou-042 49 against 47, zukou-062 27 against 23)
LINE_SHARE = 1 / 8
LINE_FACTOR = 4
LINE_AFTER = 2


class AnswerError(Exception):
    """The tables do not hold a complete proof (should not happen after a proof)."""


def principal_variation(search, game, muda: bool = True, rank: dict | None = None) -> list:
    """The main line of a proven root: a list of moves (the game is left unchanged).
    ``muda=False`` counts every interposition (the raw number of plies). ``rank`` (from
    :func:`rank_proven`) orders the proven nodes by their distance to mate, so every
    proven check can be used; without it the proofs' sequence numbers order them."""
    read = getattr(search, "principal_variation", None)
    if read is not None:  # the search's own reading of its tables (the native core's)
        return read(game, muda, rank)
    if rank is None:
        order = lambda: search.proof_seq(game.dominance())  # noqa: E731
    else:
        order = lambda: rank.get(game.key())  # noqa: E731
    with deep_recursion():
        memo: dict = {}
        _value(game, order, memo, muda)
        line = []
        while True:
            entry = memo.get(game.key())
            if entry is None or entry[2] is None:
                break
            line.append(entry[2])
            game.play(entry[2])
        for _ in line:
            game.undo()
        return line


def _hand_size(game) -> int:
    return sum(game.dominance()[1])


class _OnStack(Exception):
    """A value asked for a node whose value is being computed (a cycle)."""


_ON_STACK = object()


def _value(game, order, memo, muda=True):
    """(length, attacker's pieces left, best move or None) of the current proven node;
    ``order()`` is the current node's place in a well-founded order of the proven nodes
    (None: not proven), and only children earlier in it are followed."""
    key = game.key()
    if key in memo:
        if memo[key] is _ON_STACK:
            raise _OnStack
        return memo[key]
    memo[key] = _ON_STACK
    try:
        memo[key] = _value_here(game, order, memo, muda)
    except BaseException:
        del memo[key]
        raise
    return memo[key]


def _value_here(game, order, memo, muda):
    here = order()
    if here is None:
        raise AnswerError("a node of the proof is not proven in the tables")
    moves = game.moves()
    if not moves:  # AND node without a reply: mate (an OR node here has a check)
        return (0, _hand_size(game), None)
    scored = []
    for m in moves:
        game.play(m)
        try:
            below = order()
            if below is not None and below < here:
                length, left, best = _value(game, order, memo, muda)
                scored.append((m, 1 + length, left, best))
            elif not game.is_or():
                continue  # an OR node skips checks that were not part of its proof
        finally:
            game.undo()
    if game.is_or():
        if not scored:
            raise AnswerError("a proven OR node has no proven check")
        m, length, left, _ = min(scored, key=lambda s: (s[1], s[2]))
        return (length, left, m)
    if len(scored) != len(moves):
        raise AnswerError("a proven AND node has an unproven reply")
    if muda:
        capture = lambda m: _capture_length(game, m, order, memo)  # noqa: E731
        counted = _without_useless_interpositions(game, scored, capture)
    else:
        counted = scored
    if not counted:
        return (0, _hand_size(game), None)
    m, length, left, _ = max(counted, key=lambda s: (s[1], -s[2]))
    return (length, left, m)


def _capture_length(game, m, order, memo):
    """Plies to mate (useless interpositions not counted) after the defender's
    interposition ``m`` when the attacker first captures the interposed piece: the
    fastest proven capture, whether or not it is ranked nearer to mate than the node
    after ``m`` (None: no proven capture). Only a number: the answer's line never
    follows it, so it need not respect the order that keeps the line finite; a capture
    whose value would need a node still being valued (a cycle) is left out."""
    to = move_to(m)
    best = None
    with game.played(m):
        for c in game.moves():
            if move_to(c) != to:
                continue
            with game.played(c):
                try:
                    if order() is not None:
                        length = 2 + _value(game, order, memo)[0]
                        best = length if best is None else min(best, length)
                except (_OnStack, AnswerError):
                    pass
    return best


def rank_proven(search, game, limit: int = 500_000, known: dict | None = None) -> dict | None:
    """Distance to mate (every ply counted) of each node of the proven part of the tables
    reachable from the current node, by retrograde analysis: an AND node without reply
    is 0, an OR node 1 + its nearest proven check, an AND node 1 + its farthest reply once
    every reply has a distance. Nodes on cycles only never get one, so the order is
    well-founded and a line along it never repeats a position. Unlike the proofs'
    sequence numbers it lets the answer use checks proven after their parent (by
    :func:`shorten`, say). None when more than ``limit`` nodes are reachable.

    With ``known`` (distances already given, such as a ranking's) the walk stops at the
    nodes in it, each a leaf at its distance, and follows at an OR node only the checks
    proven before it (the proofs' own order, as :func:`principal_variation` reads without
    a rank): the part below a check :func:`shorten` has just proven, or the proofs' part
    when the whole proven part is too large (zukou-019: more than 5M positions). Only the
    nodes not in ``known`` are returned; each is farther from mate than the children it
    is ranked by, so the two rankings together stay well-founded.

    A ranking is a mapping of keys to distances: a dict, or the native core's ``Ranking``
    (its whole-part rankings, and :func:`_rank_update`'s copies), which reads the same and
    which the core's walks read without a Python object per lookup."""
    walk = getattr(search, "rank_proven", None)
    if walk is not None:  # the search's own walk of its tables (the native core's)
        return walk(game, limit, known)
    parents: dict = {}
    is_or: dict = {}
    waiting: dict = {}  # AND node -> replies without a distance yet
    mated = []
    root = game.key()
    if known is not None and root in known:
        return {}
    is_or[root] = game.is_or()
    stack = [_expand(search, game, root, parents, is_or, waiting, mated, known)]
    while stack:
        todo = stack[-1]
        if not todo:
            stack.pop()
            if stack:
                game.undo()
            continue
        m = todo.pop()
        game.play(m)
        key = game.key()
        if key in is_or:
            game.undo()
            continue
        if len(is_or) >= limit:
            for _ in range(len(stack) - 1):
                game.undo()
            game.undo()
            return None
        is_or[key] = game.is_or()
        stack.append(_expand(search, game, key, parents, is_or, waiting, mated, known))
    # distances enter in non-decreasing order: one bucket a distance, the mated first
    # and the known leaves at theirs
    buckets: dict = {0: list(mated)}
    for key in parents.keys() - is_or.keys():  # the known leaves reached
        buckets.setdefault(known[key], []).append(key)
    dist = {key: 0 for key in mated}
    d = 0
    while buckets:
        for key in buckets.pop(d, ()):
            for p in parents.get(key, ()):
                if p in dist:
                    continue
                if not is_or[p]:
                    waiting[p] -= 1
                    if waiting[p]:
                        continue
                dist[p] = d + 1
                buckets.setdefault(d + 1, []).append(p)
        d += 1
    return dist


def _expand(search, game, key, parents, is_or, waiting, mated, known=None) -> list:
    """The moves to follow from the current node (proven children only, with ``known``
    those of an OR node proven before it), recording the parent links (a child in
    ``known`` gets its link and is not followed); an AND node with an unproven reply
    gets no links (it can never get a distance)."""
    moves = game.moves()
    if not moves:
        if not is_or[key]:
            mated.append(key)
        return []
    here = None if known is None or not is_or[key] else search.proof_seq(game.dominance())
    follow, children = [], []
    for m in moves:
        with game.played(m):
            child = game.key()
            if known is not None and child in known:
                children.append(child)
                continue
            seq = search.proof_seq(game.dominance())
        if seq is not None and (here is None or seq < here):
            follow.append(m)
            children.append(child)
        elif not is_or[key]:
            return []
    unique = set(children)
    for child in unique:
        parents.setdefault(child, []).append(key)
    if not is_or[key]:
        waiting[key] = len(unique)
    follow.reverse()  # popped from the end: moves in generation order
    return follow


def shorten(search, game, budget: int, per_check: int = 500, reach: int = 1,
            rank_limit: int = 500_000, part_limit: int = 2_000_000):
    """Look for shorter mates after a proof. The candidates are the checks that are
    neither proven nor disproven at the attacker nodes of the main line (every ply
    counted) and, ``reach`` levels deep, of the main lines of its proven side checks
    (a side check proven by a long line can become the best one once that line is
    shortened). Each candidate is searched with ``per_check`` nodes, the deepest first
    (cheap, and a shorter mate deep shortens every line above it); then the proven nodes
    are ranked again. When the main line gets shorter, the small budget starts again;
    when every candidate has had the current budget, it grows fourfold. The candidates
    below the answer's side checks and the captures of interposed pieces
    (:func:`_candidates`'s ``late``) have the last ``LATE_SHARE`` of the budget (tried
    among the others, they took the budget the others needed: zukou-044 25 against 19,
    zukou-001 71 against 69, mate7-6 7 against 5). After ``LINE_AFTER`` rounds the open
    checks of the answer's own line get ``LINE_FACTOR`` times ``per_check`` each, the
    shallowest first, within ``LINE_SHARE`` of the budget (:func:`_line_pass`). This goes on
    until ``budget`` nodes are spent or the search's time runs out. Once the whole
    proven part is past ``rank_limit`` nodes, each round's proofs are ranked into the
    last ranking (:func:`_rank_update`); when it is past the limit right after the proof
    (zukou-001, 071), the ranking starts from the proofs' own part (``rank_proven`` with
    ``known``; at most ``part_limit`` nodes: zukou-001's has 526,846, the part the
    answer reads anyway). Returns (rank or None, nodes spent, the first rank or None); a rank
    orders :func:`principal_variation`. The first rank, of the proof alone, is returned
    too (None when it is only the proofs' part: their order then reads the same line):
    a rank counts every ply, and a line read along a later one can be longer by the
    convention than along the first (zukou-065 with the native core: 35 against 31),
    so the answer reads both."""
    start = search.nodes
    tried: dict = {}  # child key -> the largest budget it has had
    level = per_check
    rank = first = rank_proven(search, game, rank_limit)
    whole = rank is not None  # False once the whole proven part has outgrown rank_limit
    if not whole:
        rank = rank_proven(search, game, part_limit, known={})
        if rank is not None and game.key() not in rank:
            rank = None

    def out_of_budget() -> bool:
        return (search.nodes - start >= budget
                or bool(search.deadline and time.monotonic() > search.deadline))

    main = budget - int(budget * LATE_SHARE)  # then the late candidates come first
    doms: dict = {}  # a candidate's dominance by its key, to see it proven after a round
    rounds = 0  # the rounds that searched
    found = None  # (rank, nodes, candidates, late): the last walks, kept while no search ran
    while rank is not None and not out_of_budget():
        wide = search.nodes - start >= main  # a round begun before goes on past it
        if found is None or found[0] is not rank or found[1] != search.nodes:
            # their walks also rank what each round proves below them (musou-066 33
            # against 29 without), but under a deadline they take time the searches need
            # (mate7-6 7 against 5), so then they are made for the last share only
            late: list | None = [] if wide or not search.deadline else None
            found = (rank, search.nodes, _candidates(search, game, rank, reach, late, doms),
                     late or ())
        todo = [t for t in found[2] if tried.get(t[0], 0) < level]
        late = [t for t in found[3] if tried.get(t[0], 0) < level]
        tries = late + todo if wide else todo
        if not tries:
            if level >= budget:
                break
            level *= 4
            continue
        _search_each(search, tries, tried, level, lambda: budget - (search.nodes - start),
                     out_of_budget)
        before = rank.get(game.key())
        # every candidate the round proved: its searches prove some not tried (musou-066
        # 33 against 29 without them); the others, still open, add nothing, and zukou-083
        # offers about 170,000 a round
        rank, whole = _ranked_again(search, game, rank, whole, rank_limit, lambda: [
            t for key, t in todo + late if search.proof_seq(doms[key]) is not None])
        rounds += 1
        if rounds == LINE_AFTER and not out_of_budget():
            left = min(int(budget * LINE_SHARE), budget - (search.nodes - start))
            proved = _line_pass(search, game, rank, tried, LINE_FACTOR * per_check, left)
            if proved:
                rank, whole = _ranked_again(search, game, rank, whole, rank_limit,
                                            lambda: proved)
        if rank.get(game.key(), before) < before:
            level = per_check
    return rank, search.nodes - start, first


def _search_each(search, tries, tried, level: int, left, out_of_budget):
    """Each of ``tries`` (child key, path), the deepest first, not tried with ``level``
    nodes yet, searched with them (or the ``left()`` of the budget), until
    ``out_of_budget()``; ``tried`` records it."""
    for child, target in reversed(tries):
        if tried.get(child, 0) >= level:
            continue  # reached by two lines
        tried[child] = level
        search.solve_below(target, min(level, left()))
        if out_of_budget():
            break


def _ranked_again(search, game, rank, whole: bool, limit: int, targets) -> tuple:
    """(rank, whole) after a round: the whole proven part ranked again while it fits
    ``limit``; past it (zukou-019: past 5M proven positions after one round), the last
    ranking, whose proofs still hold, with the proofs below ``targets()`` (the round's
    proven checks) ranked into it and carried up their lines (:func:`_rank_update`)."""
    fresh = rank_proven(search, game, limit) if whole else None
    if fresh is None:
        return _rank_update(search, game, rank, targets(), limit), False
    return fresh, whole


def _line_pass(search, game, rank, tried, each: int, total: int) -> list:
    """The pass along the answer's line after :func:`shorten`'s first rounds: each open
    check at the line's attacker nodes, the shallowest first, searched with ``each``
    nodes (``tried`` records it), ``total`` nodes in all; returns the paths (moves from
    the current node) of the checks it proved.

    Why: a check of the answer's own line that needs more than the rounds' 500 nodes
    waits for the level to grow, which it does only once a round brings no new
    candidates, and by then (zukou-053: past 571,000 nodes) the proven part below it is
    too large to rank whole and its line is not shortened in turn (B*8f at ply 13, the
    Python search's 35, proven then in 592 nodes, still reads 36 plies below it, against
    the 24 of the answer's B*9e). Proven early, the rounds after shorten below it too."""
    start = search.nodes
    line = principal_variation(search, game, rank=rank)
    proved = []
    for i in range(0, len(line), 2):  # the attacker's nodes
        for m in line[:i]:
            game.play(m)
        opened = []
        for m in game.moves():
            if m != line[i]:
                with game.played(m):
                    dom = game.dominance()
                    if search.proof_seq(dom) is None and not search.is_disproven(dom):
                        opened.append((m, game.key()))
        for _ in line[:i]:
            game.undo()
        for m, key in opened:
            left = total - (search.nodes - start)
            if left <= 0 or (search.deadline and time.monotonic() > search.deadline):
                return proved
            tried[key] = max(tried.get(key, 0), min(each, left))
            if search.solve_below(list(line[:i]) + [m], min(each, left)) is True:
                proved.append(tuple(line[:i]) + (m,))
    return proved


def _rank_update(search, game, rank, targets, limit) -> dict:
    """``rank`` with the proven part below each of ``targets`` (moves from the current
    node) not ranked yet ranked (``rank_proven`` with ``known``: each target's walk
    stops at the ranked nodes, so a round costs the part it added, not the whole part
    below its targets, which made zukou-020's shortening 201.5 CPU s) and each node
    above on the targets' lines ranked again from its children. A distance depends only
    on the proven part below its node, so rankings of parts merge; keeping the smaller
    of two distances, and ranking a node only from its children's, keeps every ranked
    node farther from mate than the children it is ranked by, so the order stays
    well-founded.

    The targets' lines share most of their moves (the answer's line, a side check's), so
    they are walked as one tree, each node ranked again once, after every target below
    it: ranked again once per target, zukou-083's 269-ply answer with the candidates
    below captures (tens of thousands a round) took 28M rankings from children in two
    rounds and no answer within 300 CPU s. Distances only shrink, so a node ranked after
    its children have their last values has the smallest it would get ranked after each."""
    # (a copy: the caller's ranking stays as it was; the core's search keeps its own kind
    # of mapping, which its walks read without a Python object per lookup)
    rank = getattr(search, "ranking", dict)(rank)
    tree: list = [{}, False]  # [children by move, a target ends here]
    for path in targets:
        node = tree
        for m in path:
            node = node[0].setdefault(m, [{}, False])
        node[1] = True
    stack = [(tree, iter(tree[0].items()))]
    while stack:
        node, below = stack[-1]
        step = next(below, None)
        if step is not None:
            game.play(step[0])
            stack.append((step[1], iter(step[1][0].items())))
            continue
        stack.pop()
        if node[1] and search.proof_seq(game.dominance()) is not None:
            rank.update(rank_proven(search, game, limit, known=rank) or {})
        if node[0]:
            d = _rank_from_children(game, rank)
            if d is not None and d < rank.get(game.key(), d + 1):
                rank[game.key()] = d
        if stack:
            game.undo()
    return rank


def _rank_from_children(game, rank):
    """1 + the nearest ranked check (OR node) or the farthest reply once every reply is
    ranked (AND node) of the current node; None when it has none."""
    is_or, best = game.is_or(), None
    for m in game.moves():
        with game.played(m):
            d = rank.get(game.key())
        if d is None:
            if not is_or:
                return None
        elif best is None or (d < best if is_or else d > best):
            best = d
    return None if best is None else best + 1


def _rank_line(game, rank) -> list:
    """The main line below the current (ranked) node by distance alone: the nearest
    check, the farthest reply."""
    line = []
    while True:
        best, best_r = None, None
        is_or = game.is_or()
        for m in game.moves():
            with game.played(m):
                r = rank.get(game.key())
            if r is not None and (best_r is None or (r < best_r if is_or else r > best_r)):
                best, best_r = m, r
        if best is None:
            break
        line.append(best)
        game.play(best)
    for _ in line:
        game.undo()
    return line


def _candidates(search, game, rank, reach: int, late: list | None = None,
                doms: dict | None = None) -> list:
    """(child key, moves from the root) of the open checks :func:`shorten` tries (with
    ``late``, a list, those below the answer's proven side checks and below captures
    too, into it; with ``doms``, a dict, each one's dominance by its key, into it): along
    the line by distance (every ply counted) and along the answer's line by the
    convention. The two part where a defender's interposition counts in one and not in
    the other: zukou-020's answer is 41 with the core's proof because after 8i7i S*6h
    7i6h the proof's line is 32 plies, though a check with the silver (open in the core's
    tables) mates in 8; the line by distance never passes there, as other replies are
    as far from mate, every ply counted.

    Along the answer's line, the proven side checks' lines are walked too, and at each
    defender's node on these lines the attacker's captures of each interposed piece: a
    capture's own line is walked (or the capture is a candidate when open). An
    interposition counts unless the capture mates soon enough, and a side check can be
    the better one once its interpositions are shortened: musou-066's answer is 33 with
    the core's proof because after 7c6b the horse's check 2e2f counts 16 plies (P*5c
    2f5c 6b6a mates in 7 more, but the core's tables have only a longer line below the
    capture), against the Python search's 29 through 2e2f; neither line by itself
    passes below those captures."""
    walks = _Walks(search, game, rank, doms)
    walks.walk((), reach)
    walks.seen.update(key for key, _ in walks.out)
    walks.walk((), 0 if late is None else 1, principal_variation(search, game, rank=rank),
               captures=late is not None)
    if late is not None:
        late += walks.below
    return walks.out


class _Walks:
    """The walks of :func:`_candidates` and what they gave: ``out``, and ``below`` (the
    candidates below captures, tried after the others).

    The side checks' lines meet (zukou-083, a 269-ply answer: about 145,000 candidates a
    round, 12,000 of them distinct), and a line by distance and what a walk gives below
    it depend only on the node (and how deep, whether captures, into which list): so
    each node of a finished walk's line keeps what was given at it (moves from it) and
    the next node, and a walk reaching such a node gives the rest again from there.
    Only finished walks are kept: a line can meet one under way through a cycle. The
    paths are tuples, which the garbage collector stops tracking (of ints only), where
    as many lists are traversed by each full collection: zukou-083 24.7 CPU s with
    lists, 11.2 with tuples."""

    def __init__(self, search, game, rank, doms: dict | None):
        self.search, self.game, self.rank, self.doms = search, game, rank, doms
        self.out: list = []
        self.seen: set = set()  # the keys the line by distance gave, for the second walk
        self.below: list = []
        self.walked: dict = {}  # (key, reach_left, captures, id(into)) -> (given, step, next)
        self.recording: list = []  # (given, moves before the node) of the current nodes

    def give(self, into, key, path):
        into.append((key, path))
        for given, depth in self.recording:
            given.append((into, key, path[depth:]))

    def offer(self, path, reach_left, captures, into):
        """The node ``path`` leads to (played): a candidate when open, else walked on
        ``reach_left`` levels deep."""
        search, game = self.search, self.game
        key, dom = game.key(), game.dominance()
        if search.proof_seq(dom) is None:
            if not search.is_disproven(dom) and key not in self.seen:
                self.give(into, key, path)
                if self.doms is not None:
                    self.doms[key] = dom
        elif reach_left >= 0 and key in self.rank:
            self.walk(path, reach_left, captures=captures,
                      into=self.below if captures else into, kept=True)

    def again(self, base, at):
        """What the kept walk from ``at`` gave, given again from ``base`` (its moves)."""
        base = list(base)
        while at is not None:
            given, step, at = self.walked[at]
            if given:
                here = tuple(base)
                for where, child, rest in given:
                    self.give(where, child, here + rest)
            base.append(step)

    def walk(self, prefix, reach_left, line=None, captures=False, into=None, kept=False):
        game, into = self.game, self.out if into is None else into
        line = tuple(_rank_line(game, self.rank) if line is None else line)
        nodes: list = []  # (its key in walked, given at it) along the line, when kept
        played = 0
        for i, step in enumerate(line):
            if kept:
                at = (game.key(), reach_left, captures, id(into))
                if at in self.walked:
                    self.again(prefix + line[:i], at)
                    nodes.append((at, None))
                    break
                given: list = []
                nodes.append((at, given))
                self.recording.append((given, len(prefix) + i))
            if game.is_or():
                for m in game.moves():
                    if m != step:
                        with game.played(m):
                            self.offer(prefix + line[:i] + (m,), reach_left - 1, captures, into)
            elif captures:
                after = line[i + 1] if i + 1 < len(line) else None
                for r, c in _interposition_captures(game):
                    if (r, c) != (step, after):
                        with game.played(r), game.played(c):
                            self.offer(prefix + line[:i] + (r, c), 0, False, self.below)
            if kept:
                self.recording.pop()
            game.play(step)
            played += 1
        for _ in range(played):
            game.undo()
        for j, (at, given) in enumerate(nodes):
            if given is not None:
                self.walked[at] = (given, line[j],
                                   nodes[j + 1][0] if j + 1 < len(nodes) else None)


def _interposition_captures(game) -> list:
    """(interposition, capture) pairs at the current defender's node: each reply that
    interposes (next to the king too: it always counts, so its line's length does), with
    each check that takes the piece."""
    pairs = []
    for r in game.moves():
        to = move_to(r)
        if not game.is_interposition(r):
            continue
        with game.played(r):
            pairs += [(r, c) for c in game.moves() if move_to(c) == to]
    return pairs


def _without_useless_interpositions(game, scored, capture_length):
    """The replies that count: ``scored`` without the useless interpositions;
    ``capture_length(m)`` is the length after interposition ``m`` when its piece is
    captured at once (None: no such proven line)."""
    inter = [s for s in scored if game.is_interposition(s[0])]
    if not inter:
        return scored
    others = [s for s in scored if not game.is_interposition(s[0])]
    near = [game.next_to_king(move_to(s[0])) for s in inter]
    # an interposition next to the king always counts, so it is one of the best other
    # replies a far one is measured against
    base = max([s[1] for s in others] + [s[1] for s, n in zip(inter, near) if n], default=0)
    kept = list(others)
    for s, n in zip(inter, near):
        if n:
            kept.append(s)
            continue
        onto = capture_length(s[0])
        if onto is None or onto > base + 2:
            kept.append(s)
    return kept


def shortest_check(pos, length: int, max_nodes: int | None = None, deadline: float | None = None,
                   backend: str = "rules"):
    """Whether a mate within ``length - 2`` plies exists (bounded df-pn): False means the
    length is the shortest (counting every interposition), None that the budget ran out."""
    from .core import DfPn
    from .cshogi_backend import make_game

    if length <= 1:
        return False
    if backend == "native":
        from ..native import mate

        left = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        return mate(pos, length - 2, max_nodes=max_nodes, timeout=left)["proven"]
    res = DfPn(make_game(pos.copy(), backend), max_nodes=max_nodes,
               deadline=deadline).solve(length - 2)
    return res.proven
