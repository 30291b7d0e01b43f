"""What an unbounded search is asked to do: :class:`TsumeOptions`, fixed for a search.

The limits of one run (node budget, deadline, progress callback) are not options: they
belong to the search, which narrows them while it runs (``solve_below``) and has them
wrapped by its caller (checkpoints).

>>> TsumeOptions(heuristics="fca").heuristics
'ACF'
"""

from __future__ import annotations

from dataclasses import dataclass

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
class TsumeOptions:
    """How :class:`~tsumeqbf.dfpn.tsume.TsumeSearch` searches; see that module's docstring."""

    heuristics: str = ""  # Nagai's heuristics, letters of HEURISTICS
    dag: bool = True  # double-count correction where paths merge
    mobility: bool = True  # a new AND node starts with pn = its number of replies
    simulation: bool = False  # Kawano's simulation of a proven sibling's proof
    simulation_budget: int = 2_000  # nodes per simulation attempt
    proof_pieces: bool = True  # store (dis)proofs with the hands they need (proof pieces)
    group_drops: bool = True  # an AND node counts its drops onto one square once (the largest)
    group_interpositions: bool = False  # ... and every interposition of any square once
    group_promotions: bool = False  # ... and a reply with and without promotion once
    inherit: bool = True  # a new position starts from the numbers of the same board with
    # other hands (TsumeTables.inherited)
    mate_probe: int = 0  # probes when a node is first searched: 1, an AND node whose every
    # reply mates in 1 is proven at once; 3, an OR node with a check whose every reply
    # mates in 1 too
    tt_limit: int = 1_000_000  # unsolved entries (and twin entries) kept
    epsilon: float = 0.25  # the 1+ε trick's ε

    def __post_init__(self):
        object.__setattr__(self, "heuristics", check_heuristics(self.heuristics))
        if self.mate_probe not in (0, 1, 3):
            raise ValueError(f"mate_probe must be 0, 1 or 3, not {self.mate_probe!r}")
