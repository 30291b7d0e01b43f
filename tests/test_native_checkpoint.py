"""Checkpoints of the native core's search (``solve --backend native --checkpoint FILE``):
the core's tables written to a file of its own every ``checkpoint_every`` nodes, at the
end and on a stop, and a later run going on from them (tsumeqbf/dfpn/checkpoint.py's
``save_native`` / ``load_native``, the core's ``Tsume.save`` / ``Tsume.load``).

* a search stopped by its node limit and resumed reaches the verdict and the answer of an
  uninterrupted run, with fewer nodes of its own than that run;
* a stop signal during the proof leaves the file, and the next run goes on from it;
* a checkpoint of another problem, options, hashing or core VERSION, a damaged one and
  the Python search's are refused in one line with a non-zero exit.
"""

from __future__ import annotations

import json
import os
import signal

import pytest

from test_native import _real_sfens  # noqa: F401  (its guard: skip or fail without the core)
from tsumeqbf.cli import main
from tsumeqbf.data import read_rows
from tsumeqbf.dfpn.native_solve import NativeSearch
from tsumeqbf.dfpn.solve import replay_answer, solve_tsume
from tsumeqbf.rules import Position
from tsumeqbf.stop import Stopped, stop_on_signals

#: no search for a shorter line after the proof: the runs compared are the proofs alone
PROOF_ONLY = {"shorten_nodes": 0, "shortest_up_to": 0}


def _edo(problem_id: str) -> Position:
    return Position.from_sfen(next(r["sfen"] for r in read_rows("open_tsume_zukou_musou.csv")
                                   if r["id"] == problem_id))


def test_a_native_search_stopped_by_its_node_limit_goes_on_from_its_checkpoint(tmp_path):
    # zukou-007 (mate in 15) takes about 37,000 of the core's nodes in one run
    pos = _edo("zukou-007")
    whole = solve_tsume(pos, backend="native", **PROOF_ONLY)
    assert whole["status"] == "mate" and whole["nodes"] > 20_000
    path = tmp_path / "zukou-007.ckpt"
    first = solve_tsume(pos, max_nodes=20_000, checkpoint=str(path))  # auto: the core
    assert first["status"] == "unknown" and first["backend"] == "native"
    assert path.exists() and not (tmp_path / "zukou-007.ckpt.tmp").exists()
    second = solve_tsume(pos, checkpoint=str(path), **PROOF_ONLY)
    assert second["backend"] == "native" and second["resumed_nodes"] == first["nodes"]
    assert second["status"] == "mate" and second["pv"] == whole["pv"]
    assert second["length"] == whole["length"]
    assert second["nodes"] - second["resumed_nodes"] < whole["nodes"]
    assert replay_answer(pos, second["pv"]).startswith("ok")
    # written again after the proof: a third run finds the root proven at once
    third = solve_tsume(pos, backend="native", checkpoint=str(path), **PROOF_ONLY)
    assert third["status"] == "mate" and third["nodes"] == second["nodes"]
    assert third["pv"] == whole["pv"]


def test_the_native_checkpoint_is_written_on_the_way(tmp_path, monkeypatch):
    saved = []
    real = NativeSearch.save_tables
    monkeypatch.setattr(NativeSearch, "save_tables",
                        lambda self, p, ident: saved.append(self.nodes) or real(self, p, ident))
    out = solve_tsume(_edo("zukou-009"), backend="native", max_nodes=30_000,
                      checkpoint=str(tmp_path / "ckpt"), checkpoint_every=5_000)
    # every 5,000 nodes, rounded up to the core's call to Python, then at the node limit
    assert len(saved) >= 4 and saved[-1] == out["nodes"] == 30_001
    assert all(b - a >= 5_000 for a, b in zip(saved, saved[1:-1]))


def test_a_stop_signal_keeps_the_native_checkpoint(tmp_path):
    # SIGTERM during the proof, with no checkpoint due before the end (every 10,000,000
    # nodes): the file exists only because the stop wrote it, and the next run goes on
    pos = _edo("zukou-009")
    path = tmp_path / "ckpt"

    def progress(search):
        if search.nodes >= 20_000:
            os.kill(os.getpid(), signal.SIGTERM)

    with stop_on_signals(), pytest.raises(Stopped):
        solve_tsume(pos, backend="native", checkpoint=str(path), progress=progress,
                    progress_every=10_000)
    assert path.exists()
    whole = solve_tsume(pos, backend="native", **PROOF_ONLY)
    again = solve_tsume(pos, backend="native", checkpoint=str(path), **PROOF_ONLY)
    assert again["resumed_nodes"] >= 20_000 and again["status"] == "mate"
    assert again["pv"] == whole["pv"]
    assert again["nodes"] - again["resumed_nodes"] < whole["nodes"]


def _refused(args: list[str], capsys) -> str:
    """The one line on stderr of a command that exits 2."""
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("tsumeqbf: error: ") and err.count("\n") == 1, err
    return err


def test_a_mismatched_native_checkpoint_is_refused_in_one_line(tmp_path, capsys):
    sfen, other = _edo("zukou-007").sfen(), _edo("zukou-012").sfen()
    path = tmp_path / "ckpt"
    solve = ["solve", "--quiet", "--backend", "native", "--checkpoint", str(path)]
    assert main([*solve, sfen, "--max-nodes", "3000", "--json"]) == 1  # unknown
    assert json.loads(capsys.readouterr().out)["backend"] == "native"
    good = path.read_bytes()
    assert "is of another problem or options: " in _refused([*solve, other], capsys)
    assert "dag True (here False)" in _refused([*solve, sfen, "--no-dag"], capsys)
    # another core VERSION, named in the head
    head, ident, body = good.split(b"\n", 2)
    theirs = json.loads(ident)
    path.write_bytes(b"\n".join([head, json.dumps({**theirs, "core_version": 3}).encode(), body]))
    err = _refused([*solve, sfen], capsys)
    assert "written by native core VERSION 3, this core is VERSION" in err
    # the same problem hashed otherwise (another Zobrist table)
    path.write_bytes(b"\n".join([head, json.dumps({**theirs, "root_key": 1}).encode(), body]))
    assert "root_key" in _refused([*solve, sfen], capsys)
    # a body cut short, or of another VERSION than its head says
    path.write_bytes(good[:len(good) // 2])
    assert "not readable (truncated or damaged)" in _refused([*solve, sfen], capsys)
    at = len(head) + len(ident) + 2 + 4  # the body's VERSION follows its 4-byte tag
    path.write_bytes(good[:at] + (3).to_bytes(4, "little") + good[at + 4:])
    assert "not readable (written by core VERSION 3" in _refused([*solve, sfen], capsys)
    # the Python search's checkpoint and the core's are not each other's
    path.write_bytes(good)
    err = _refused([*solve[:2], "--backend", "rules", "--checkpoint", str(path), sfen], capsys)
    assert "is the native core's (--backend native)" in err
    python = tmp_path / "python.ckpt"
    assert solve_tsume(_edo("zukou-007"), backend="rules", max_nodes=100,
                       checkpoint=str(python))["status"] == "unknown"
    err = _refused(["solve", "--quiet", "--backend", "native", "--checkpoint", str(python), sfen],
                   capsys)
    assert "is not the native core's" in err
    # auto goes on with the search that wrote the file
    out = solve_tsume(_edo("zukou-007"), max_nodes=200, checkpoint=str(python))
    assert out["backend"] == "rules" and out["resumed_nodes"] == 101


def test_a_position_solved_apart_seeds_the_cores_search(tmp_path, capsys):
    # as the Python search's seeds (test_tsume): zukou-007's position two plies into the
    # answer solved on its own with a checkpoint; seeded with it, the whole problem takes
    # fewer nodes of its own and its answer (read off the proofs, the seed's among them)
    # replays
    pos = _edo("zukou-007")
    whole = solve_tsume(pos, backend="native", **PROOF_ONLY)
    after = pos.copy()
    for text in whole["pv"][:2]:
        after.push(after.parse_usi(text))
    part = tmp_path / "part.ckpt"
    assert solve_tsume(after, checkpoint=str(part), **PROOF_ONLY)["status"] == "mate"
    seeded = solve_tsume(pos, seeds=(str(part),), **PROOF_ONLY)  # auto: the core
    assert seeded["backend"] == "native" and seeded["seeded_proofs"] > 0
    assert seeded["status"] == "mate" and seeded["nodes"] < whole["nodes"]
    assert replay_answer(pos, seeded["pv"]).startswith("ok")
    # a checkpointed run seeded again on resuming does not take the same proofs twice
    mine = tmp_path / "whole.ckpt"
    first = solve_tsume(pos, max_nodes=50, seeds=(str(part),), checkpoint=str(mine))
    again = solve_tsume(pos, seeds=(str(part),), checkpoint=str(mine), **PROOF_ONLY)
    assert first["seeded_proofs"] > 0 and again["seeded_proofs"] == 0
    assert again["status"] == "mate" and replay_answer(pos, again["pv"]).startswith("ok")
    # another hashing or VERSION, or the Python search's file: one line
    head, ident, body = part.read_bytes().split(b"\n", 2)
    solve = ["solve", "--quiet", "--backend", "native", pos.sfen(), "--seed", str(part)]
    for change, says in (({"root_key": 1}, "written with another hashing"),
                         ({"core_version": 3}, "written by native core VERSION 3")):
        part.write_bytes(b"\n".join([head, json.dumps({**json.loads(ident), **change}).encode(),
                                     body]))
        assert says in _refused(solve, capsys)
    python = tmp_path / "python.ckpt"
    solve_tsume(after, backend="rules", max_nodes=100, checkpoint=str(python))
    assert "seed " + str(python) + " is not the native core's" in _refused(
        [*solve[:-1], str(python)], capsys)
    assert solve_tsume(pos, max_nodes=10, seeds=(str(python),))["backend"] == "rules"


def test_a_finished_checkpoint_run_again_does_the_same_work(tmp_path, capsys):
    # checkpoints taken during the searches for a shorter line after the proof stored
    # their nodes as the proof's: each run from the file then reported more nodes and
    # gave the searches after the proof that much more (558,143 -> 1,003,520 -> 2,002,944)
    sfen = "6S+Pl/5s3/4L2l1/5gkBr/4pn3/5Gp2/9/6N2/7+R+n b BN2g2sl15p 1"  # zukou-004
    argv = ["solve", sfen, "--checkpoint", str(tmp_path / "ck.bin"),
            "--checkpoint-every", "100000", "--json", "--quiet"]
    runs = []
    for _ in range(2):
        assert main(argv) == 0
        runs.append(json.loads(capsys.readouterr().out))
    first, again = runs
    assert first["resumed_nodes"] == 0 and first["after_nodes"] > 100_000
    assert again["resumed_nodes"] == first["nodes"] == again["nodes"]
    assert again["after_nodes"] == first["after_nodes"] and again["pv"] == first["pv"]
