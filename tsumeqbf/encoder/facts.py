"""The rules as circuits: facts about any state of a game encoding (occupied, owned,
attacked, in check, a candidate move valid), memoised per state object.

A state whose two squares one known move changed (:class:`~.states.MovedView`) shares the
facts of its base state wherever the move is out of sight, which is most of the work of the
expanded last ply on a 9x9 board.
"""

from __future__ import annotations

from ..rules.geometry import Geometry
from ..rules.pieces import KING, KNIGHT, PAWN, piece_code, piece_color
from .choice import MoveChoice
from .formula import Formula, neg
from .reach import Cand
from .states import MovedView


class Rules:
    """Rule facts about any state (memoised per state object)."""

    def __init__(self, f: Formula, geo: Geometry):
        self.f, self.geo = f, geo
        # keyed by the state object itself (identity hash): the key keeps the state alive,
        # so a freed state's id can never be reused for another and hit a stale entry
        self._cache: dict = {}
        self._rays: dict = {}  # (state, square, colour, direction) -> (index, literal)s
        self._sight: dict = {}  # (square, colour) -> {square seen from it: its line}
        self._after: dict = {}  # attacks_after's terms, by what they depend on

    def _memo(self, key, build):
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = build()
            self.f.label(v, "_".join(map(str, key[1:])))
        return v

    def occ(self, st, s):
        if isinstance(st, MovedView) and s != st.m.to and s != st.m.frm:
            return self.occ(st.st, s)
        return self._memo((st, "occ", s),
                          lambda: self.f.or_(st.piece(s, p) for p in st.reach.codes[s]))

    def own(self, st, s, c):
        return self._memo((st, "own", s, c), lambda: self.f.or_(
            st.piece(s, p) for p in st.reach.codes[s] if piece_color(p) == c))

    def attacked(self, st, s, by):
        """Square ``s`` is attacked by colour ``by`` in state ``st``."""
        if isinstance(st, MovedView):
            shared = self._shared_view(st, self._seen_from(s, by), by)
            if shared is not st:
                return self.attacked(shared, s, by)  # the same gate

        return self._memo((st, "att", s, by),
                          lambda: self.f.or_(self._attack_terms(st, s, by, ())))

    def attacks_after(self, view: MovedView, s, by) -> list:
        """Literals whose disjunction says square ``s`` is attacked by ``by`` in ``view``:
        one gate for the attacks of the base state along the lines the move does not
        touch (shared by every move that touches the same lines), and the attacks of
        ``view`` along the lines through the move's squares. The list is shared: do not
        change it."""
        m = view.m
        # the terms depend on the move's squares alone, and on the arriving piece only
        # when it is ``by``'s: the replies that share them (a piece's moves with and
        # without promotion, the pieces that may stand on one square) get the same gates
        key = (view.st, m.frm, m.to, m.result if piece_color(m.result) == by else -1, s, by)
        terms = self._after.get(key)
        if terms is None:
            seen = self._seen_from(s, by)
            lines = tuple(sorted({seen[x] for x in (m.frm, m.to) if x in seen}))
            terms = [self._attacked_off(view.st, s, by, lines)]
            for d in lines:
                terms += (self._knight_terms(view, s, by) if d < 0
                          else self._ray_terms(view, s, by, d))
            self._after[key] = terms
        return terms

    def _attacked_off(self, st, s, by, lines: tuple):
        """Square ``s`` is attacked by ``by`` in ``st`` along a line not in ``lines``
        (indices of ``geo.ray8[s]``, -1 for the knight's squares)."""
        return self._memo((st, "att_off", s, by, *lines),
                          lambda: self.f.or_(self._attack_terms(st, s, by, lines)))

    def _attack_terms(self, st, s, by, lines: tuple) -> list:
        """The attacks on ``s`` by ``by`` in ``st`` along every line not in ``lines``, as
        literals to be ORed (the rays of ``geo.ray8[s]`` by index, then the knights, -1)."""
        terms = []
        for d in range(len(self.geo.ray8[s])):
            if d not in lines:
                terms += self._ray_terms(st, s, by, d)
        if -1 not in lines:
            terms += self._knight_terms(st, s, by)
        return terms

    def _knight_terms(self, st, s, by) -> list:
        knight = piece_code(KNIGHT, by)
        return [st.piece(x, knight) for x in self.geo.knight_from[by][s]
                if knight in st.reach.codes[x]]

    def _arrival(self, view: MovedView, by: int) -> MovedView:
        """The base state of ``view`` with only its move's arrival: the piece on the target
        square and nothing vacated. The piece counts only when it is ``by``'s."""
        m = view.m
        key = (view.st, "arrival", m.to, m.result if piece_color(m.result) == by else -1)
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = view if m.frm < 0 else MovedView(
                view.st, Cand(-1, m.to, m.result, m.result))
        return v

    def _departure(self, view: MovedView) -> MovedView:
        """The base state of ``view`` with only its move's origin vacated."""
        key = (view.st, "departure", view.m.frm)
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = view if view.m.to < 0 else MovedView(
                view.st, Cand(view.m.frm, -1, view.m.code, view.m.code))
        return v

    def in_sight(self, s, x, by) -> bool:
        """What stands on square ``x`` can change whether ``s`` is attacked by ``by``."""
        return x in self._seen_from(s, by)

    def _seen_from(self, s, by) -> dict:
        """The squares whose content can change whether ``s`` is attacked by ``by``, each
        with the line it lies on: its index in ``geo.ray8[s]``, or -1 for a knight's square."""
        key = (s, by)
        seen = self._sight.get(key)
        if seen is None:
            seen = {x: d for d, ray in enumerate(self.geo.ray8[s]) for x in ray}
            seen.update((x, -1) for x in self.geo.knight_from[by][s])
            self._sight[key] = seen
        return seen

    def _ray_terms(self, st, s, by, d) -> list:
        """The attacks on ``s`` by ``by`` along direction ``d``: a list of literals."""
        return [lit for _, lit in self._ray_pairs(st, s, by, d)]

    def _ray_pairs(self, st, s, by, d) -> list:
        """The attacks on ``s`` by ``by`` along direction ``d``, each with the index on the
        ray of the square it comes from. A state that one known move changes (a
        :class:`MovedView`) shares those of its base state on every ray that does not pass
        through the move's two squares, and a piece of the other colour put on a ray only
        cuts the base state's attacks short: on a 9x9 board at the last ply this is most
        of the encoder's work, repeated for every reply."""
        key = (st, s, by, d)
        pairs = self._rays.get(key)
        if pairs is None:
            ray = self.geo.ray8[s][d]
            shared = self._shared_view(st, ray, by) if isinstance(st, MovedView) else st
            if shared is not st:
                pairs = self._ray_pairs(shared, s, by, d)
            elif isinstance(st, MovedView) and st.m.frm < 0 and piece_color(st.m.result) != by:
                cut = ray.index(st.m.to)
                pairs = [(i, lit) for i, lit in self._ray_pairs(st.st, s, by, d) if i < cut]
            else:
                pairs = self._build_ray_pairs(st, ray, self.geo.near[by][d], self.geo.far[by][d])
            self._rays[key] = pairs
        return pairs

    def _shared_view(self, view: MovedView, squares, by: int):
        """The state that agrees with ``view`` on ``squares`` (for the attacks of ``by``):
        its base when the move is off them, its arrival or departure alone when only one
        of its squares is among them (shared by every move to, or from, that square),
        else the view itself."""
        to_on, frm_on = view.m.to in squares, view.m.frm in squares
        if not to_on:
            return self._departure(view) if frm_on else view.st
        return view if frm_on else self._arrival(view, by)

    def _build_ray_pairs(self, st, ray, near, far) -> list:
        if not ray:
            return []
        f, R = self.f, st.reach.codes
        pairs = [(0, st.piece(ray[0], q)) for q in R[ray[0]] if q in near]
        # the path is built only up to the last square a slider may stand on
        clear, pending = True, []
        for i in range(1, len(ray)):
            pending.append(ray[i - 1])
            x = ray[i]
            hits = [st.piece(x, q) for q in R[x] if q in far]
            if not hits:
                continue
            for z in pending:
                clear = f.and_([clear, neg(self.occ(st, z))])
            pending = []
            if clear is False:
                break
            pairs.append((i, f.and_([clear, f.or_(hits)])))
        return pairs

    def in_check(self, st, c, kings: tuple = ()):
        """Colour ``c``'s king is attacked in ``st``; with ``kings``, a tuple of squares,
        the test asks only whether a king on one of them is: exact wherever the king is
        known to stand on one of those squares (the caller's condition)."""
        king = piece_code(KING, c)
        if isinstance(st, MovedView) and st.m.code == king and st.m.frm >= 0:
            # a view is asked about only where its move is valid, and a king's move is
            # valid only from the one square the king stands on: after it the king
            # stands on the target alone
            return self.attacked(st, st.m.to, 1 - c)
        squares = kings or range(self.geo.size)
        return self._memo((st, "check", c, *kings), lambda: self.f.or_(
            self.f.and_([st.piece(s, king), self.attacked(st, s, 1 - c)])
            for s in squares if king in st.reach.codes[s]))

    def valid(self, st, m: Cand, c: int):
        """Candidate ``m`` is a pseudo-legal move of colour ``c`` in ``st``."""
        f, geo = self.f, self.geo
        if m.frm >= 0:
            return f.and_([st.piece(m.frm, m.code), neg(self.own(st, m.to, c))]
                          + [neg(self.occ(st, x)) for x in geo.between[m.frm][m.to]])
        kind = m.code & 15
        lits = [st.hand(c, kind, 1), neg(self.occ(st, m.to))]
        if kind == PAWN:  # nifu: no unpromoted pawn of the dropper on the file
            file_ = m.to % geo.width
            lits += [neg(st.piece(x, m.code)) for x in range(file_, geo.size, geo.width)]
        return f.and_(lits)

    def chosen_valid(self, st, choice: MoveChoice, c: int):
        return self.f.or_(self.f.and_([choice.sel(i), self.valid(st, m, c)])
                          for i, m in enumerate(choice.cands))

