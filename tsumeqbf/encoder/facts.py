"""The rules as circuits: facts about any state of a game encoding (occupied, owned,
attacked, in check, a candidate move valid), memoised per state object.

A state whose two squares one known move changed (:class:`~.states.MovedView`) shares the
facts of its base state wherever the move is out of sight, which is most of the work of the
expanded last ply on a 9x9 board.
"""

from __future__ import annotations

from ..rules.geometry import Geometry
from ..rules.pieces import KING, KNIGHT, PAWN, piece_code
from .choice import MoveChoice
from .formula import Formula, neg
from .reach import Cand, _color
from .states import MovedView


class Rules:
    """Rule facts about any state (memoised per state object)."""

    def __init__(self, f: Formula, geo: Geometry):
        self.f, self.geo = f, geo
        # keyed by the state object itself (identity hash): the key keeps the state alive,
        # so a freed state's id can never be reused for another and hit a stale entry
        self._cache: dict = {}
        self._rays: dict = {}  # (state, "ray", square, colour, direction) -> literals
        self._sight: dict = {}  # (square, colour) -> the squares seen from it

    def _memo(self, key, build):
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = build()
            self.f.label(v, "_".join(map(str, key[1:])))
        return v

    def occ(self, st, s):
        return self._memo((st, "occ", s),
                          lambda: self.f.or_(st.piece(s, p) for p in st.reach.codes[s]))

    def own(self, st, s, c):
        return self._memo((st, "own", s, c), lambda: self.f.or_(
            st.piece(s, p) for p in st.reach.codes[s] if _color(p) == c))

    def attacked(self, st, s, by):
        """Square ``s`` is attacked by colour ``by`` in state ``st``."""
        if isinstance(st, MovedView):
            shared = self._shared_view(st, self._seen_from(s, by), by)
            if shared is not st:
                return self.attacked(shared, s, by)  # the same gate

        def build():
            geo = self.geo
            terms = []
            for d in range(len(geo.ray8[s])):
                terms += self._ray_terms(st, s, by, d)
            knight = piece_code(KNIGHT, by)
            terms += [st.piece(x, knight) for x in geo.knight_from[by][s]
                      if knight in st.reach.codes[x]]
            return self.f.or_(terms)
        return self._memo((st, "att", s, by), build)

    def _arrival(self, view: MovedView, by: int) -> MovedView:
        """The base state of ``view`` with only its move's arrival: the piece on the target
        square and nothing vacated. The piece counts only when it is ``by``'s."""
        m = view.m
        key = (view.st, "arrival", m.to, m.result if _color(m.result) == by else -1)
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

    def _seen_from(self, s, by) -> frozenset:
        """The squares whose content can change whether ``s`` is attacked by ``by``."""
        key = (s, by)
        seen = self._sight.get(key)
        if seen is None:
            seen = self._sight[key] = frozenset(
                [x for ray in self.geo.ray8[s] for x in ray] + list(self.geo.knight_from[by][s]))
        return seen

    def _ray_terms(self, st, s, by, d):
        """The attacks on ``s`` by ``by`` along direction ``d``: a list of literals. A state
        that one known move changes (a :class:`MovedView`) shares those of its base state
        on every ray that does not pass through the move's two squares: on a 9x9 board at
        the last ply this is most of the encoder's work, repeated for every reply."""
        key = (st, "ray", s, by, d)
        terms = self._rays.get(key)
        if terms is None:
            ray = self.geo.ray8[s][d]
            shared = self._shared_view(st, ray, by) if isinstance(st, MovedView) else st
            if shared is not st:
                terms = self._ray_terms(shared, s, by, d)
            else:
                terms = self._build_ray_terms(st, ray, self.geo.near[by][d], self.geo.far[by][d])
            self._rays[key] = terms
        return terms

    def _shared_view(self, view: MovedView, squares, by: int):
        """The state that agrees with ``view`` on ``squares`` (for the attacks of ``by``):
        its base when the move is off them, its arrival or departure alone when only one
        of its squares is among them (shared by every move to, or from, that square),
        else the view itself."""
        to_on, frm_on = view.m.to in squares, view.m.frm in squares
        if not to_on:
            return self._departure(view) if frm_on else view.st
        return view if frm_on else self._arrival(view, by)

    def _build_ray_terms(self, st, ray, near, far) -> list:
        if not ray:
            return []
        f, R = self.f, st.reach.codes
        terms = [st.piece(ray[0], q) for q in R[ray[0]] if q in near]
        # the path is built only up to the last square a slider may stand on
        clear, pending = True, []
        for prev_sq, x in zip(ray, ray[1:]):
            pending.append(prev_sq)
            hits = [st.piece(x, q) for q in R[x] if q in far]
            if not hits:
                continue
            for z in pending:
                clear = f.and_([clear, neg(self.occ(st, z))])
            pending = []
            if clear is False:
                break
            terms.append(f.and_([clear, f.or_(hits)]))
        return terms

    def in_check(self, st, c):
        king = piece_code(KING, c)
        if isinstance(st, MovedView) and st.m.code == king and st.m.frm >= 0:
            # a view is asked about only where its move is valid, and a king's move is
            # valid only from the one square the king stands on: after it the king
            # stands on the target alone
            return self.attacked(st, st.m.to, 1 - c)
        return self._memo((st, "check", c), lambda: self.f.or_(
            self.f.and_([st.piece(s, king), self.attacked(st, s, 1 - c)])
            for s in range(self.geo.size) if king in st.reach.codes[s]))

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

