"""A command's scratch folder: its temporary files, and those of the processes it forks.

A formula goes to a QBF solver as a temporary QDIMACS file, which the process that wrote it
removes when the solver is done. A worker or a portfolio member killed outright (SIGKILL, or
the kernel's OOM killer) cannot remove it, so inside :func:`scratch_dir` every temporary
file lands in one folder of the command's own, which the command removes as it ends,
however its workers ended.

>>> import os, tempfile
>>> with scratch_dir() as folder:
...     fd, path = tempfile.mkstemp()
...     os.path.dirname(path) == folder
True
>>> os.path.exists(folder)
False
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile


_active: list[str] = []  # the folder of the block running now, if any


@contextlib.contextmanager
def scratch_dir():
    """Within the block, :mod:`tempfile` makes its files in a new folder (under the usual
    temporary folder, ``TMPDIR``), removed with all it holds when the block ends. Forked
    processes inherit it; a block inside another uses the outer block's folder."""
    if _active and tempfile.tempdir == _active[-1]:
        yield _active[-1]
        return
    outer = tempfile.tempdir
    folder = tempfile.mkdtemp(prefix="tsumeqbf-")
    tempfile.tempdir = folder
    _active.append(folder)
    try:
        yield folder
    finally:
        _active.pop()
        tempfile.tempdir = outer
        shutil.rmtree(folder, ignore_errors=True)
