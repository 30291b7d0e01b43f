"""Board geometry: squares of a W x H board and every precomputed table move generation uses.

Squares are numbered in SFEN reading order: rank 1 first, files W..1 left to right, so
``sq = (rank - 1) * W + (W - file)``. The tables are built once per (W, H, Z).

>>> g = geometry(9, 9, 3)
>>> g.square(7, 7), g.name(g.square(7, 7))
(56, '77')
"""

from __future__ import annotations

from functools import lru_cache

from .pieces import (BISHOP, BLACK, DRAGON, GOLD, HORSE, KING, KNIGHT, LANCE, PAWN,
                     PRO_KNIGHT, PRO_LANCE, PRO_PAWN, PRO_SILVER, ROOK, SILVER, WHITE,
                     ALL_KINDS, piece_code)

#: the eight line directions as (dx, dy); x grows to the right (towards file 1),
#: y grows downwards (towards rank H); sente moves "forward" with dy = -1
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
_ORTHO = ((0, -1), (1, 0), (0, 1), (-1, 0))
_DIAG = ((1, -1), (1, 1), (-1, 1), (-1, -1))
_GOLD = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1))

#: movement of sente's pieces; gote's are the same with dy negated
STEP_VECTORS = {
    PAWN: ((0, -1),), LANCE: (), KNIGHT: ((-1, -2), (1, -2)),
    SILVER: ((-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)), GOLD: _GOLD,
    BISHOP: (), ROOK: (), KING: _ORTHO + _DIAG,
    PRO_PAWN: _GOLD, PRO_LANCE: _GOLD, PRO_KNIGHT: _GOLD, PRO_SILVER: _GOLD,
    HORSE: _ORTHO, DRAGON: _DIAG,
}
SLIDE_VECTORS = {k: () for k in ALL_KINDS}
SLIDE_VECTORS.update({LANCE: ((0, -1),), BISHOP: _DIAG, ROOK: _ORTHO, HORSE: _DIAG,
                      DRAGON: _ORTHO})

MAX_SIDE = 9
#: piece codes index the per-piece tables (colour bit and kind; see pieces.piece_code)
CODES = 32


class Geometry:
    """All static tables of one board shape and promotion-zone depth."""

    def __init__(self, width: int, height: int, zone: int):
        if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
            raise ValueError(f"board {width}x{height} is outside 1x1..9x9")
        if not 1 <= zone <= height:
            raise ValueError(f"promotion zone depth {zone} is outside 1..{height}")
        self.width, self.height, self.zone = width, height, zone
        self.size = n = width * height
        self.squares = range(n)
        self.xy = [(s % width, s // width) for s in range(n)]
        h = height
        #: zone[c][s]: square s lies in colour c's promotion zone
        self.in_zone = [[y < zone for (x, y) in self.xy], [y >= h - zone for (x, y) in self.xy]]
        #: last_rank[c][s] / last_two[c][s]: squares where an unpromoted pawn or lance /
        #: knight of colour c could never move again
        self.last_rank = [[y == 0 for (x, y) in self.xy], [y == h - 1 for (x, y) in self.xy]]
        self.last_two = [[y <= 1 for (x, y) in self.xy], [y >= h - 2 for (x, y) in self.xy]]
        self._build_piece_moves()
        self._build_ray_attackers()
        self._build_check_from()
        self._build_lines()

    def __reduce__(self):
        # one object a shape: positions compare their geometries by identity
        return geometry, (self.width, self.height, self.zone)

    def _at(self, x: int, y: int) -> int:
        """The square at (x, y), or -1 off the board."""
        return y * self.width + x if 0 <= x < self.width and 0 <= y < self.height else -1

    def _ray(self, x: int, y: int, dx: int, dy: int) -> tuple[int, ...]:
        """The squares from (x, y) outward by (dx, dy), (x, y) itself excluded."""
        ray, cx, cy = [], x + dx, y + dy
        while self._at(cx, cy) >= 0:
            ray.append(self._at(cx, cy))
            cx, cy = cx + dx, cy + dy
        return tuple(ray)

    def _build_piece_moves(self) -> None:
        """steps[code][s] / rays[code][s]: where piece `code` steps, and its sliding rays."""
        self.steps = [[()] * self.size for _ in range(CODES)]
        self.rays = [[()] * self.size for _ in range(CODES)]
        for color in (BLACK, WHITE):
            sign = 1 if color == BLACK else -1
            for kind in ALL_KINDS:
                code = piece_code(kind, color)
                for s, (x, y) in enumerate(self.xy):
                    self.steps[code][s] = tuple(
                        t for (dx, dy) in STEP_VECTORS[kind]
                        if (t := self._at(x + dx, y + sign * dy)) >= 0)
                    self.rays[code][s] = tuple(
                        ray for dx, dy in SLIDE_VECTORS[kind]
                        if (ray := self._ray(x, y, dx, sign * dy)))

    def _build_ray_attackers(self) -> None:
        """ray8, near, far, scan and knight_from: what attacks a square from where."""
        n = self.size
        #: ray8[s][d]: squares from s outward in DIRECTIONS[d]
        self.ray8 = [tuple(self._ray(x, y, dx, dy) for dx, dy in DIRECTIONS)
                     for (x, y) in self.xy]
        # near[c][d]: codes of colour c that attack s from the first square of ray8[s][d];
        # far[c][d]: codes of colour c that attack s from further along that ray
        near = [[set() for _ in DIRECTIONS] for _ in (BLACK, WHITE)]
        far = [[set() for _ in DIRECTIONS] for _ in (BLACK, WHITE)]
        for color in (BLACK, WHITE):
            sign = 1 if color == BLACK else -1
            for kind in ALL_KINDS:
                code = piece_code(kind, color)
                steps = {(dx, sign * dy) for dx, dy in STEP_VECTORS[kind]}
                slides = {(dx, sign * dy) for dx, dy in SLIDE_VECTORS[kind]}
                for d, (dx, dy) in enumerate(DIRECTIONS):
                    back = (-dx, -dy)  # the attacker moves from its square back towards s
                    if back in steps or back in slides:
                        near[color][d].add(code)
                    if back in slides:
                        far[color][d].add(code)
        self.near = [[frozenset(x) for x in c] for c in near]
        self.far = [[frozenset(x) for x in c] for c in far]
        #: scan[c][s]: per non-empty ray from s, (first square, near codes, the rest of the
        #: ray, far codes): the same facts as ray8/near/far, laid out for the hot attack test
        self.scan = [[tuple((ray[0], self.near[c][d], ray[1:], self.far[c][d])
                            for d, ray in enumerate(self.ray8[s]) if ray)
                      for s in range(n)] for c in (BLACK, WHITE)]
        #: knight_from[c][s]: squares from which a knight of colour c attacks s
        knight_from = [[[] for _ in range(n)] for _ in (BLACK, WHITE)]
        for color in (BLACK, WHITE):
            code = piece_code(KNIGHT, color)
            for s in range(n):
                for t in self.steps[code][s]:
                    knight_from[color][t].append(s)
        self.knight_from = [[tuple(x) for x in c] for c in knight_from]

    def _build_check_from(self) -> None:
        """check_from[code][k]: squares from which piece `code` attacks square k on an
        empty board (a superset of the squares that give a direct check)."""
        self.check_from = [[frozenset()] * self.size for _ in range(CODES)]
        for color in (BLACK, WHITE):
            for kind in ALL_KINDS:
                code = piece_code(kind, color)
                acc = [set() for _ in range(self.size)]
                for s in range(self.size):
                    for t in self.steps[code][s]:
                        acc[t].add(s)
                    for ray in self.rays[code][s]:
                        for t in ray:
                            acc[t].add(s)
                self.check_from[code] = [frozenset(a) for a in acc]

    def _build_lines(self) -> None:
        """line[a][b]: direction index from a towards b when they share a rank, file or
        diagonal, else -1; between[a][b]: the squares strictly between them."""
        n = self.size
        self.line = [[-1] * n for _ in range(n)]
        self.between = [[()] * n for _ in range(n)]
        for a in range(n):
            for d, ray in enumerate(self.ray8[a]):
                for i, b in enumerate(ray):
                    self.line[a][b] = d
                    self.between[a][b] = ray[:i]

    # -- names ---------------------------------------------------------------------------
    def square(self, file: int, rank: int) -> int:
        """Square index of (file, rank), both 1-based."""
        if not (1 <= file <= self.width and 1 <= rank <= self.height):
            raise ValueError(f"square {file}{rank} is off the {self.width}x{self.height} board")
        return (rank - 1) * self.width + (self.width - file)

    def file_of(self, s: int) -> int:
        return self.width - s % self.width

    def rank_of(self, s: int) -> int:
        return s // self.width + 1

    def name(self, s: int) -> str:
        """Shogi name "fr" of a square: file digit then rank digit."""
        return f"{self.file_of(s)}{self.rank_of(s)}"

    def usi(self, s: int) -> str:
        """USI name: file digit then rank letter ("7g")."""
        return f"{self.file_of(s)}{chr(ord('a') + self.rank_of(s) - 1)}"

    def parse_usi_square(self, text: str) -> int:
        if len(text) != 2 or not "1" <= text[0] <= "9" or not "a" <= text[1] <= "i":
            raise ValueError(f"bad square {text!r}")
        return self.square(int(text[0]), ord(text[1]) - ord("a") + 1)


def default_zone(height: int) -> int:
    """Promotion-zone depth used when a question does not give one: 3 on 9 ranks,
    a third of the ranks (rounded up) otherwise."""
    return max(1, -(-height // 3))


@lru_cache(maxsize=None)
def geometry(width: int, height: int, zone: int) -> Geometry:
    """The shared (cached) tables of one board shape."""
    return Geometry(width, height, zone)
