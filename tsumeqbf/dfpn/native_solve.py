"""``solve --backend native``: the unbounded search of the native core (:mod:`tsumeqbf.native`)
with the answer dict of :func:`~tsumeqbf.dfpn.solve.solve_tsume`.

The core searches as :class:`~tsumeqbf.dfpn.tsume.TsumeSearch` does with its defaults,
less what only steers that search (the DAG correction, inherited numbers); it has none of
the heuristics, probes, simulation, checkpoints or seeds, and those options are refused
here. Its answer is the line read off its proofs (``answer``: "native proof walk"), every
ply counted (``length`` equals ``plies``): not the tsume-shogi convention's choice of line
(longest defence, useless interpositions left out, shorter mates sought), which the Python
search's ``solve`` gives. The line is replayed with the rules engine before it is
returned; a line that does not replay as mate is an error, never an answer.
"""

from __future__ import annotations

import time

from ..rules import TsumeError, line_to_japanese
from ..values import Status

#: solve_tsume's options the native core does not have, with the value that means "off"
UNSUPPORTED = {"heuristics": "", "simulation": False, "mate_probe": 0, "checkpoint": None,
               "seeds": (), "group_interpositions": False, "group_promotions": False,
               "proof_pieces": True, "check_shortest": False}


def refuse_unsupported(options) -> None:
    """TsumeError naming the first option (of a SolveOptions) the native core does not have."""
    for name, off in UNSUPPORTED.items():
        if getattr(options, name) != off:
            raise TsumeError(f"backend 'native' has no option {name} (the Python search "
                             f"has: --backend rules)")


#: what the native core does whatever its options say: no DAG correction, no inherited
#: numbers (the answer says so)
NATIVE_SEARCH = {"dag": False, "inherit": False}


def solve_native(pos, options, max_nodes: int | None = None,
                 timeout: float | None = None) -> dict:
    """Unbounded df-pn in the native core under ``options`` (a SolveOptions, with
    nothing of :data:`UNSUPPORTED` asked); see the module docstring."""
    from .. import native
    from .solve import replay_answer

    started = time.monotonic()
    pos.validate_question()
    res = native.tsume(pos, max_nodes=max_nodes, timeout=timeout, tt_limit=options.tt_limit,
                       mobility=options.mobility, group_drops=options.group_drops)
    out = {"status": Status.of(res["proven"]),
           "mate": res["proven"], "pv": None, "pv_ja": None, "length": None,
           "nodes": res["nodes"], "time_s": round(res["time_s"], 6), "proofs": res["proofs"],
           "disproofs": res["disproofs"], "twins": res["twins"], "tt_size": res["tt_size"],
           "tt_hits": res["tt_hits"], **options.row(), **NATIVE_SEARCH, "probes": 0,
           "resumed_nodes": 0, "seeded_proofs": 0,
           "shortest": False}  # its first line: no search for a shorter one
    if res["reason"]:
        out["error"] = res["reason"]
    if res["proven"]:
        line = res["line"]
        usi = [pos.usi(m) for m in line]
        check = replay_answer(pos, usi) if line else "no line read off the proofs"
        if check != "ok":  # a bug in the core: say so rather than print a wrong line
            out.update(status=Status.ERROR, error=f"native answer does not replay as mate: {check}")
        else:
            out.update(pv=usi, pv_ja=line_to_japanese(pos, line), length=len(line),
                       plies=len(line), first_plies=len(line), shorten_nodes=0,
                       answer="native proof walk")
    out["total_s"] = round(time.monotonic() - started, 6)
    return out
