"""The native core's unbounded search is the Python search (:class:`TsumeSearch` with its
defaults) node for node when both walk the same moves in the same order: the Python
search run on the core's game (:class:`NativeGame`: the core's move lists and keys) counts
the nodes, proofs, disproofs and twin entries the core counts, and ends with the same root
numbers, with the DAG correction and inherited numbers on and off.

So where the two differ in nodes on a problem (zukou-086: 306,016 in the core, 166,263 in
the Python search with cshogi's move generator, 197,317 with the rules engine's), the
difference is the order of the moves, which breaks ties between equal children, and not
the search (docs/dfpn-notebook.md).
"""

from __future__ import annotations

import pytest

from test_native import _real_sfens  # noqa: F401  (its guard: skip or fail without the core)
from tsumeqbf.data import read_rows
from tsumeqbf.dfpn.native_solve import NativeGame, NativeSearch
from tsumeqbf.dfpn.options import TsumeOptions
from tsumeqbf.dfpn.tsume import TsumeSearch
from tsumeqbf.rules import Position


def _search_both(problem: str, options: TsumeOptions) -> tuple:
    """The Edo ``problem`` searched by the Python search and by the core on the core's
    moves with ``options`` (10,000 nodes): each count and the root's status equal; the
    core's nodes, proofs and disproofs."""
    pos = Position.from_sfen(next(r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv")
                                  if r["id"] == problem))
    python = TsumeSearch(NativeGame(pos.copy()), max_nodes=10_000, options=options)
    core = NativeSearch(NativeGame(pos.copy()), max_nodes=10_000, options=options)
    ours, theirs = python.solve(), core.solve()
    assert ((ours.proven, ours.nodes, ours.proofs, ours.disproofs, ours.twins)
            == (theirs.proven, theirs.nodes, theirs.proofs, theirs.disproofs, theirs.twins))
    assert python.root_status() == core.root_status()
    return theirs.nodes, theirs.proofs, theirs.disproofs


@pytest.mark.parametrize("dag_inherit", [True, False])
@pytest.mark.parametrize("problem", ["zukou-001", "zukou-012", "zukou-013", "zukou-029"])
def test_the_core_searches_as_the_python_search_on_the_same_moves(problem, dag_inherit):
    # zukou-001 is not solved within the limit, zukou-012 only with both options on
    _search_both(problem, TsumeOptions(dag=dag_inherit, inherit=dag_inherit))


@pytest.mark.parametrize("problem", ["zukou-001", "zukou-012", "zukou-029", "musou-005"])
def test_the_core_groups_interpositions_as_the_python_search_does(problem):
    # every interposition counted once (group_interpositions), in the proof-number sums and
    # in a new check's starting number: the same nodes, and not those without the option
    counts = {grouped: _search_both(problem, TsumeOptions(group_interpositions=grouped))
              for grouped in (True, False)}
    assert counts[True] != counts[False]
