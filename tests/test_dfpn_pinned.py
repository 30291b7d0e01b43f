"""Node counts and verdicts of both df-pn solvers pinned on fixed problems.

The numbers were measured before tsumeqbf/dfpn/tsume.py was split into its modules
(options, tables, checkpoint, probes, simulation, report); a change of the code's layout
must leave every count exactly as it was. A change meant to alter the search (a new
heuristic, another tie-break) changes them on purpose: measure again and say why in the
commit. The positions are written out here so that the pins do not move with the data
files."""

import shutil
from pathlib import Path

import pytest

from tsumeqbf.dfpn import DfPn, ShogiGame
from tsumeqbf.dfpn.game import TsumeGame
from tsumeqbf.dfpn.solve import solve_tsume
from tsumeqbf.dfpn.tsume import TsumeSearch
from tsumeqbf.rules import Position
from tsumeqbf.rules.generate import question_set

HERE = Path(__file__).parent

# YaneuraOu's mate samples (tsumeqbf/data/yaneuraou_mate_samples.csv)
MATE7_7 = "l6nl/3k2+B2/p1n1g2pp/2G1ppp2/2P2N1P1/3P2P1P/Ps1GP4/1+rSK2R2/LN6L b G3Pb2s2p 77"
MATE9_1 = "ln2k3l/1Rs1gsgb1/2pppp3/p5Npp/5PP2/PP2P3P/2PPS4/1Bs2K3/LN3G1+rL w 2Pgnp 56"
MATE9_3 = "l4kb1+R/4gs1+P1/2+Pp2p1n/p3pS2p/9/P1pP2PbP/4PPN2/2+pS1K1s1/L+r3G1NL b GL2Pgnp 59"
MATE11_1 = "+P2+Rb1gnl/7k1/n1p1+Bp1pp/p5p2/1p1pP2P1/2+s6/PsNGSPP1P/3KG4/L5RNL b SL3Pg 83"

# 将棋図巧 (tsumeqbf/data/open_tsume_zukou_musou.csv)
ZUKOU = {
    "zukou-002": "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1",
    "zukou-005": "n+B1sS4/1R1g5/1Ls6/2k6/2n6/3L5/R8/9/9 b B2P3gs2n2l16p 1",
    "zukou-007": "1nkg5/2s6/3rp4/1B7/r8/1PN6/9/9/9 b BG3SN2gn4l16p 1",
    "zukou-011": "r+b2n4/1Pk1p4/pp1sG4/N1+s1+p4/2P1+R4/+pB1LN4/9/9/9 b SN3gs3l11p 1",
    "zukou-013": "2lS5/1kgp5/pB3+r3/3+b+P4/PlpgS4/9/9/9/9 b R2SP2g4n2l12p 1",
    "zukou-030": "4+LgB2/3+P1+R1R1/4+bl1g1/8k/5p1p1/7+p1/9/9/9 b 2G4s4n2l14p 1",
    "zukou-038": "3p2p2/3Rl1n1P/8n/4+p2+R1/4Pks2/6lN1/2N1bPS2/9/9 b BP4g2s2l11p 1",
    "zukou-042": "9/5Bl1G/4+P1n2/6r1S/3G+p2n1/6kP1/4L1B1p/4s1+R2/9 b 3P2g2s2n2l11p 1",
    "zukou-051": "9/9/9/9/G1p6/2g6/1kNS+R4/4r4/LP1+pG4 b NL2bg3s2n2l15p 1",
}


def verdict(proven) -> str:
    return {True: "mate", False: "nomate", None: "unknown"}[proven]


@pytest.mark.parametrize("sfen, n, expected", [
    (MATE7_7, 7, ("mate", 203, 984, 43)),
    (MATE9_3, 9, ("mate", 281, 1049, 130)),
    (MATE11_1, 11, ("mate", 442, 1560, 190)),
    (MATE9_1, 7, ("nomate", 1351, 7581, 259)),
    (MATE11_1, 9, ("nomate", 2071, 12496, 523)),
])
def test_bounded_dfpn_counts(sfen, n, expected):
    res = DfPn(ShogiGame(Position.from_sfen(sfen))).solve(n)
    assert (verdict(res.proven), res.nodes, res.tt_hits, res.tt_size) == expected


def unbounded(problem: str, **options) -> tuple:
    search = TsumeSearch(TsumeGame(Position.from_sfen(ZUKOU[problem])), **options)
    res = search.solve()
    return (verdict(res.proven), res.nodes, res.proofs, res.disproofs, res.twins,
            res.tt_hits, res.tt_size, search.probes, tuple(search.simulations))


@pytest.mark.parametrize("problem, options, expected", [
    ("zukou-042", {}, ("mate", 281, 73, 38, 0, 627, 117, 0, (0, 0))),
    ("zukou-051", {}, ("mate", 2433, 380, 113, 3, 7832, 1278, 0, (0, 0))),
    ("zukou-002", {"heuristics": "ABCDEF", "simulation": True},
     ("mate", 2886, 223, 205, 1, 8573, 1339, 0, (48, 11))),
    ("zukou-038", {"heuristics": "ABCDEF"}, ("mate", 6105, 345, 175, 8, 21598, 3467, 0, (0, 0))),
    ("zukou-030", {"simulation": True}, ("mate", 2824, 248, 46, 1, 8896, 1647, 0, (177, 48))),
    ("zukou-005", {"mate_probe": 3}, ("mate", 1420, 521, 25, 0, 5066, 897, 2923, (0, 0))),
    ("zukou-005", {"mate_probe": 1}, ("mate", 2457, 236, 57, 0, 9802, 1498, 667, (0, 0))),
    ("zukou-011", {"group_interpositions": True, "group_promotions": True},
     ("mate", 3312, 494, 69, 0, 16166, 1945, 0, (0, 0))),
    ("zukou-013", {"proof_pieces": False, "dag": False, "inherit": False, "mobility": False,
                   "group_drops": False},
     ("mate", 7271, 160, 28, 0, 33023, 5487, 0, (0, 0))),
    # stopped by the node limit, with a table small enough to drop entries on the way
    ("zukou-007", {"max_nodes": 3000, "tt_limit": 500},
     ("unknown", 3001, 471, 11, 0, 9837, 275, 0, (0, 0))),
])
def test_unbounded_dfpn_counts(problem, options, expected):
    assert unbounded(problem, **options) == expected


def generated():
    return question_set(12, 40, sizes=((3, 3), (4, 4), (3, 4)), plies=(1,),
                        attacker_hand=3, defender_hand=2)


GENERATED_VERDICTS = "NNNNMNMNMNMMMMNMMNNNNNNMNMNMNNNNMNNNNNNM"


@pytest.mark.parametrize("options, expected", [
    ({}, (4937, 103, 0, 0)),
    ({"heuristics": "ABCDEF", "simulation": True}, (4158, 35, 0, 7)),
    ({"mate_probe": 3, "group_interpositions": True, "group_promotions": True},
     (5139, 113, 6340, 0)),
    ({"dag": False, "mobility": False, "inherit": False, "proof_pieces": False,
      "group_drops": False}, (5660, 64, 0, 0)),
])
def test_unbounded_counts_on_generated_positions(options, expected):
    # small boards: no-mates and repetition (twin) disproofs, which the Edo problems lack
    verdicts, nodes, twins, probes, simulated = "", 0, 0, 0, 0
    for case in generated():
        pos = Position.from_sfen(case["sfen"], zone=case["zone"])
        search = TsumeSearch(TsumeGame(pos), max_nodes=200_000, **options)
        res = search.solve()
        verdicts += "M" if res.proven else "N"
        nodes, twins = nodes + res.nodes, twins + res.twins
        probes, simulated = probes + search.probes, simulated + search.simulations[1]
    assert verdicts == GENERATED_VERDICTS
    assert (nodes, twins, probes, simulated) == expected


def test_bounded_counts_on_generated_positions():
    verdicts, nodes = "", 0
    for case in generated():
        for n in (1, 3, 5):
            res = DfPn(ShogiGame(Position.from_sfen(case["sfen"], zone=case["zone"]))).solve(n)
            verdicts += "M" if res.proven else "N"
            nodes += res.nodes
    assert verdicts == ("NNNNNNNNNNNNMMMNNNNNNNNNNNMNNNNMMNNNNNMMMMNNNMMMMMMNNNNNNNNNNNNNNNNNN"
                        "MMMNNNMMMNNNNMMNNNNNNNNNNNNMMMNNNNNNNNNNNNNNNNNNMMM")
    assert nodes == 1440


def answer(out: dict) -> tuple:
    return (out["status"], out["nodes"], out["shorten_spent"], out["length"], out["plies"],
            out["first_plies"], out["tt_hits"], " ".join(out["pv"]))


@pytest.mark.parametrize("problem, backend, expected", [
    ("zukou-042", "rules", ("mate", 281, 3001, 27, 27, 27, 627,
                            "1d2e 3c2e N*2h 3f4e P*4f 5e4f 6e5e 4e3e P*3f 4f3f 3g4f 3e2f P*2g "
                            "3f2g 4f3e 3d3e 3h3e 3b3e 4b1e+ 2f1e R*1f 1e2d 1f1c+ 2d3d 5e4d "
                            "3d4d 1c4c")),
    ("zukou-030", "rules", ("mate", 2584, 3001, 17, 17, 17, 8911,
                            "2b2c+ 1d2c 3a1c+ 2c3d G*3e 5c3e G*4d 3e4d 4b3c 3d3c G*2c 3c4b "
                            "1c3a 4b3a 5a4a 3a2a G*1b")),
    ("zukou-002", "cshogi", ("mate", 2586, 3001, 21, 21, 21, 8229,
                             "2h2g 2f1e 2g1f 2e1f N*2g 1f2g P*1f 1e1f 4g2e 1f2e 6c3f+ 2e1e "
                             "P*1f 1e1f 2i2g 1f1e 3f2e 3d2e P*1f 2e1f 2g2d")),
])
def test_solve_tsume_answers(problem, backend, expected):
    if backend == "cshogi":
        pytest.importorskip("cshogi")
    out = solve_tsume(Position.from_sfen(ZUKOU[problem]), shorten_nodes=3000,
                      shortest_up_to=0, backend=backend)
    assert answer(out) == expected


def test_a_checkpoint_written_before_the_split_still_loads(tmp_path):
    # zukou-042 stopped after 150 nodes by the code before the split (format
    # tsumeqbf-tables-1): the search goes on from it to the same proof and counts
    path = tmp_path / "zukou-042.ckpt"
    shutil.copy(HERE / "checkpoints" / "zukou-042-150-nodes.ckpt", path)
    out = solve_tsume(Position.from_sfen(ZUKOU["zukou-042"]), checkpoint=str(path),
                      shorten_nodes=500, shortest_up_to=0)
    assert out["resumed_nodes"] == 151
    assert (out["proofs"], out["disproofs"]) == (73, 38)
    assert answer(out) == ("mate", 294, 501, 27, 27, 27, 646,
                           "1d2e 3c2e N*2h 3f4e P*4f 5e4f 6e5e 4e3e P*3f 4f3f 3g4f 3e2f P*2g "
                           "3f2g 4f3e 3d3e 3h3e 3b3e 4b1e+ 2f1e R*1f 1e2d 1f1c+ 2d3d 5e4d "
                           "3d4d 1c4c")
