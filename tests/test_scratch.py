"""A command's temporary files live in its scratch folder, gone when it ends, even those of
a worker killed outright."""

import os
import signal
import subprocess
import sys
import tempfile
import textwrap

from tsumeqbf.scratch import scratch_dir



def test_a_killed_childs_file_goes_with_the_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with scratch_dir() as folder:
        pid = os.fork()
        if pid == 0:  # a worker that writes a formula file and is killed before removing it
            tempfile.mkstemp(suffix=".qdimacs")
            os.kill(os.getpid(), signal.SIGKILL)
        os.waitpid(pid, 0)
        assert [name.endswith(".qdimacs") for name in os.listdir(folder)] == [True]
    assert os.listdir(tmp_path) == []
    assert tempfile.tempdir == str(tmp_path)


def test_nested_blocks_share_the_outer_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with scratch_dir() as outer:
        with scratch_dir() as inner:
            assert inner == outer
        assert os.path.isdir(outer)
    assert not os.path.exists(outer)


def test_the_command_gives_its_solver_a_file_in_its_scratch_folder(tmp_path):
    seen = tmp_path / "seen"
    solver = tmp_path / "solver"
    solver.write_text(f"#!{sys.executable}\n" + textwrap.dedent(f"""
        import os, sys
        open({str(seen)!r}, "w").write(os.path.dirname(sys.argv[-1]))
        sys.exit(20)
    """))
    solver.chmod(0o755)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    out = subprocess.run([sys.executable, "-m", "tsumeqbf", "mate", "4k4/9/4G4/9/9/9/9/9/9 b - 1",
                          "-n", "1", "--engine", "qbf", "--solver", str(solver)],
                         capture_output=True, text=True, env={**os.environ, "TMPDIR": str(tmp)})
    assert out.returncode == 0, out.stderr
    folder = seen.read_text()
    assert os.path.dirname(folder) == str(tmp) and os.path.basename(folder).startswith("tsumeqbf-")
    assert os.listdir(tmp) == []


def test_a_killed_commands_folder_goes_with_the_next_command(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys, time
        from tsumeqbf.scratch import scratch_dir
        with scratch_dir() as folder:
            print(folder, flush=True)
            time.sleep(60)
    """)], stdout=subprocess.PIPE, text=True, env={**os.environ, "TMPDIR": str(tmp_path)})
    left = child.stdout.readline().strip()
    other_namespace = tmp_path / "tsumeqbf-1-1-kept"  # (a pid of another namespace)
    other_namespace.mkdir()
    with scratch_dir() as folder:  # the child still runs: its folder stays
        assert os.path.isdir(left) and folder != left
    child.kill()
    child.wait()
    with scratch_dir() as folder:
        assert not os.path.exists(left)
        assert sorted(os.listdir(tmp_path)) == sorted([os.path.basename(folder), other_namespace.name])
