"""A solver in a session of its own keeps the nice value of the command that started it."""

import os
import subprocess

import pytest

from tsumeqbf.niceness import AUTOGROUP
from tsumeqbf.solvers.runner import _child_setup

needs_autogroup = pytest.mark.skipif(
    not os.path.exists(AUTOGROUP) or os.nice(0) > 5,
    reason="no scheduler autogroups here, or this run is already niced past 5")


def _autogroup_nice(preexec) -> int:
    out = subprocess.run(["cat", AUTOGROUP], capture_output=True, text=True, check=True,
                         start_new_session=True, preexec_fn=preexec).stdout
    return int(out.split("nice")[1])


@needs_autogroup
def test_a_niced_solver_session_carries_the_nice_value():
    def niced_solver():
        os.nice(7 - os.nice(0))
        _child_setup(None)()
    assert _autogroup_nice(niced_solver) == 7


@needs_autogroup
def test_a_solver_session_gets_the_nice_value_of_its_command():
    assert _autogroup_nice(_child_setup(None)) == os.nice(0)  # 0 in a run not niced
