"""Move-generation speed: our generators beside python-shogi's and cshogi's, same positions.

    python -m tsumeqbf.bench movegen [--positions N] [--shogi-positions M]

Positions: the tsume problems shipped in ``tsumeqbf/data`` (defender holding the rest of the
set, so drops abound) and positions a few random moves away from them. Figures are
positions per second:

* ``all legal``  - every legal move of the side to move;
* ``checks``     - the attacker's legal checks (what an OR node of a solver needs);
* ``replies``    - the defender's legal replies to each of those checks (AND nodes);
* python-shogi   - its full legal move list, on a sample of the same positions;
* cshogi         - its full legal move list (C++), when cshogi is installed.
"""

from __future__ import annotations

import random
import time

from ..arguments import BenchParser, positive_int_or_default
from ..data import read_rows
from ..rules import Position


def bench_positions(limit: int, seed: int = 7) -> list[str]:
    sfens = [row["sfen"] for name in ("open_tsume_zukou_musou.csv", "yaneuraou_mate_samples.csv")
             for row in read_rows(name)]
    rng = random.Random(seed)
    out = []
    for sfen in sfens:
        out.append(sfen)
        pos = Position.from_sfen(sfen)
        for _ in range(2):  # wander a little: an attacker check, then any reply
            checks = pos.checks()
            if not checks:
                break
            pos.push(rng.choice(checks))
            replies = pos.legal_moves()
            if not replies:
                break
            pos.push(rng.choice(replies))
            out.append(pos.sfen())
    return out[:limit]


def _count_lists(boards) -> int:
    """Build the full legal move list of each board (python-shogi and cshogi alike)."""
    for b in boards:
        list(b.legal_moves)
    return len(boards)


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def main(argv: list[str] | None = None) -> int:
    ap = BenchParser(prog="python -m tsumeqbf.bench movegen")
    ap.add_argument("--positions", type=positive_int_or_default, default=600)
    ap.add_argument("--shogi-positions", type=positive_int_or_default, default=150,
                    help="python-shogi is slow: time it on the first M positions only")
    ap.add_argument("--repeat", type=positive_int_or_default, default=3)
    args = ap.parse_args(argv)
    sfens = bench_positions(args.positions)
    positions = [Position.from_sfen(s) for s in sfens]
    print(f"{len(positions)} positions (tsume problems with full hands, and a few plies on)")

    rows = []

    def timed(label, fn, items):
        best = None
        for _ in range(args.repeat):
            start = time.perf_counter()
            count = fn(items)
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
        rows.append((label, count, best))
        return _rate(count, best)

    def all_legal(ps):
        for p in ps:
            p.legal_moves()
        return len(ps)

    def checks(ps):
        for p in ps:
            p.checks()
        return len(ps)

    after_check = []
    for p in positions:
        for m in p.checks():
            q = p.copy()
            q.push(m)
            after_check.append(q)

    def replies(ps):
        for p in ps:
            p.legal_moves()
        return len(ps)

    ours_all = timed("tsumeqbf: all legal moves", all_legal, positions)
    ours_checks = timed("tsumeqbf: attacker checks", checks, positions)
    ours_replies = timed("tsumeqbf: defender replies (after each check)", replies, after_check)

    import shogi

    sample = sfens[:args.shogi_positions]
    boards = [shogi.Board(s) for s in sample]
    shogi_rate = timed("python-shogi: all legal moves", _count_lists, boards)
    reply_boards = [shogi.Board(p.sfen()) for p in after_check[:args.shogi_positions]]
    shogi_reply_rate = timed("python-shogi: defender replies", _count_lists, reply_boards)

    cshogi_rate = None
    try:
        import cshogi
    except ImportError:
        cshogi = None
    if cshogi is not None:
        cboards = [cshogi.Board(s) for s in sfens]
        cshogi_rate = timed("cshogi: all legal moves", _count_lists, cboards)
        creply = [cshogi.Board(p.sfen()) for p in after_check]
        cshogi_reply_rate = timed("cshogi: defender replies", _count_lists, creply)

    print(f"{'generator':48s} {'positions':>9s} {'seconds':>9s} {'pos/s':>10s}")
    for label, count, sec in rows:
        print(f"{label:48s} {count:9d} {sec:9.3f} {_rate(count, sec):10.0f}")
    print()
    print(f"ratio to python-shogi:  all legal x{ours_all / shogi_rate:.1f}, checks x{ours_checks / shogi_rate:.1f}, "
          f"replies x{ours_replies / shogi_reply_rate:.1f}")
    if cshogi_rate:
        print(f"ratio to cshogi:        all legal x{ours_all / cshogi_rate:.3f}, checks x{ours_checks / cshogi_rate:.3f}, "
              f"replies x{ours_replies / cshogi_reply_rate:.3f}")
    else:
        print("cshogi not installed (pip install cshogi): no C++ comparison")
    return 0
