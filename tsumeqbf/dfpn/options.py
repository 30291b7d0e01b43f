"""What an unbounded search is asked to do: :class:`TsumeOptions`, fixed for a search,
and what ``solve`` is asked to do around it: :class:`SolveOptions`.

The limits of one run (node budget, deadline, progress callback) are not options: they
belong to the search, which narrows them while it runs (``solve_below``) and has them
wrapped by its caller (checkpoints).

>>> TsumeOptions(heuristics="fca").heuristics
'ACF'
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..arguments import non_negative_int, positive_int_or_default
from ..settings import TABLE_ENTRIES, TABLE_ENTRIES_MAX, Settings, setting

HEURISTICS = "ABCDEF"


def check_heuristics(letters: str) -> str:
    """Heuristic letters upper-cased, once each, in order; TsumeError for an unknown one."""
    letters = letters.upper()
    bad = sorted(set(letters) - set(HEURISTICS))
    if bad:
        from ..rules import TsumeError
        raise TsumeError(f"unknown heuristic(s) {''.join(bad)}; choose from {HEURISTICS}")
    return "".join(sorted(set(letters)))


@dataclass(frozen=True)
class TsumeOptions(Settings):
    """How :class:`~tsumeqbf.dfpn.tsume.TsumeSearch` searches; see that module's docstring.
    A field with help text is a flag of ``tsumeqbf solve`` (:mod:`tsumeqbf.settings`)."""

    # Nagai's heuristics, letters of HEURISTICS
    heuristics: str = setting("", "Nagai's heuristics to switch on, letters of ABCDEF", usi="Heuristics")
    # double-count correction where paths merge
    dag: bool = setting(True, "no double-count correction on DAGs")
    mobility: bool = True  # a new AND node starts with pn = its number of replies
    # Kawano's simulation of a proven sibling's proof
    simulation: bool = setting(
        False, "Kawano's simulation: replay a proven sibling's proof on a similar reply")
    simulation_budget: int = 2_000  # nodes per simulation attempt
    proof_pieces: bool = True  # store (dis)proofs with the hands they need (proof pieces)
    # an AND node counts its drops onto one square once (the largest)
    group_drops: bool = setting(
        True, "count every interposing drop in an AND node's proof number")
    # ... and every interposition of any square once
    group_interpositions: bool = setting(
        False, "count every interposition of an AND node (any square, drop or board move) "
               "once in its proof number")
    # ... and a reply with and without promotion once
    group_promotions: bool = setting(
        False, "count a defender's move with and without promotion once in an AND node's "
               "proof number")
    # a new position starts from the numbers of the same board with other hands
    # (TsumeTables.inherited)
    inherit: bool = setting(
        True, "start every new position at proof and disproof number 1 (or its reply "
              "count), not from the same board's numbers with other hands")
    # probes when a node is first searched: 1, an AND node whose every reply mates in 1 is
    # proven at once; 3, an OR node with a check whose every reply mates in 1 too
    mate_probe: int = setting(
        0, "before a node is first searched, prove it when every reply mates in 1 (1), or "
           "also when it mates in 3 (3); cshogi's DfPn probes new nodes likewise without "
           "counting them as nodes (default 0: none)", choices=(0, 1, 3))
    # unsolved entries (and twin entries) kept
    tt_limit: int = setting(
        TABLE_ENTRIES, "unsolved positions the table keeps before it drops the half with the "
                       "least work behind them (about 330 bytes each with the proofs beside "
                       f"them; default {TABLE_ENTRIES:,})", flag="--tt-entries", usi="TableEntries",
        usi_min=2, usi_max=TABLE_ENTRIES_MAX)
    epsilon: float = 0.25  # the 1+ε trick's ε

    def __post_init__(self):
        object.__setattr__(self, "heuristics", check_heuristics(self.heuristics))
        if self.mate_probe not in (0, 1, 3):
            raise ValueError(f"mate_probe must be 0, 1 or 3, not {self.mate_probe!r}")
        if not 2 <= self.tt_limit <= TABLE_ENTRIES_MAX:
            from ..rules import TsumeError
            raise TsumeError(f"--tt-entries must be from 2 to {TABLE_ENTRIES_MAX:,} (the "
                             f"table's tt_limit, {self.tt_limit})")

    def search_options(self) -> TsumeOptions:
        """The search's own options (a subclass's further fields left out)."""
        return TsumeOptions(**{f.name: getattr(self, f.name) for f in fields(TsumeOptions)})


#: the move generators (and, native, the compiled search) that ``backend`` chooses from;
#: auto, the default, is the fastest that can answer (:func:`.native_solve.fastest_backend`)
SOLVE_BACKENDS = ("auto", "rules", "cshogi", "native")


@dataclass(frozen=True)
class SolveOptions(TsumeOptions):
    """What :func:`~tsumeqbf.dfpn.solve.solve_tsume` is asked to do: the search's options
    and what comes after the proof (the searches for a shorter line), the move generator
    and the checkpoints. The one carrier of ``tsumeqbf solve``'s flags, engine ``tsume``'s
    options and the USI engine's df-pn options, copied whole into the answer.

    >>> SolveOptions(heuristics="ba", shortest=True).row()["heuristics"]
    'AB'
    """

    shortest: bool = setting(
        False, "answer with the exact shortest mate: after the proof, bounded df-pn runs "
               "until it knows whether a shorter mate exists (within --max-nodes and "
               "--timeout; default: the searches for a shorter line get as many nodes as "
               "the proof took, at least 20,000 (the native core's bounded search "
               "1,000,000) and 10,000, and its time, at least 30 s)",
        usi="Shortest")  # USI: as 'tsumeqbf solve --shortest'
    # bounded df-pn after the proof asks for a shorter mate when the line has at most so
    # many plies (engine tsume: 0, none)
    shortest_up_to: int = 31
    shorten_nodes: int | None = setting(
        None, "nodes the search for shorter mates along the proof's lines spends after the "
              "proof (default: as many as the proof took, at least 10,000, or 50,000 with "
              "--shortest; 0: none)", type=non_negative_int, usi="ShortenNodes", usi_min=-1,
        usi_max=2_000_000_000, usi_none=-1)  # USI: -1, as 'tsumeqbf solve' by default
    backend: str = setting(
        "auto", "the search: native, compiled (standard 9x9 only; the same answer convention, "
                "none of the heuristics: docs/dfpn.md), or in Python with "
                "our rules engine's move generator (rules) or cshogi's (standard 9x9 only); "
                "auto (the default): native where it can answer, else rules; the answer "
                "names the one that gave it", choices=SOLVE_BACKENDS, usi="Backend",
        usi_choices=SOLVE_BACKENDS)
    check_shortest: bool = setting(False, "ask bounded df-pn whether a mate two plies shorter exists")
    checkpoint: str | None = setting(
        None, "keep the search in FILE: go on from it when it exists (nodes and --max-nodes "
              "count from the first run), write it every --checkpoint-every nodes, at the "
              "end and on Ctrl-C (the native core's file and the Python search's are not "
              "each other's; auto goes on with the one that wrote FILE)", type=str,
        metavar="FILE")
    checkpoint_every: int = setting(10_000_000, "nodes between checkpoints (default 10,000,000)",
                                    type=positive_int_or_default, metavar="N")
    seeds: tuple = setting(
        (), "take in the proofs of another checkpoint (a position of this problem or another "
            "one, same hashing and attacker) before searching; repeatable", flag="--seed",
        metavar="FILE")

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "seeds", tuple(self.seeds))  # given as a list too
