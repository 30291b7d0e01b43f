"""The rules of generalized tsume-shogi on W x H boards (see RULES.md in the shared spec).

>>> from tsumeqbf.rules import Position
>>> Position.from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").legal_moves().__len__()
30
"""

from .errors import InvalidQuestion, MoveError, SfenError, TsumeError
from .geometry import Geometry, default_zone, geometry
from .moves import (board_move, drop_kind, drop_move, is_drop, is_promotion, move_from,
                    move_to)
from .notation import diagram, line_to_japanese, move_to_japanese, move_to_usi, parse_usi_move
from .pieces import BLACK, WHITE
from .position import Position, check_n

__all__ = [
    "BLACK", "WHITE", "Geometry", "InvalidQuestion", "MoveError", "Position", "SfenError",
    "TsumeError", "board_move", "check_n", "default_zone", "diagram", "drop_kind", "drop_move",
    "geometry", "is_drop", "is_promotion", "line_to_japanese", "move_from", "move_to",
    "move_to_japanese", "move_to_usi", "parse_usi_move",
]
