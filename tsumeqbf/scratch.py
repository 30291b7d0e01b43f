"""A command's scratch folder: its temporary files, and those of the processes it forks.

A formula goes to a QBF solver as a temporary QDIMACS file, which the process that wrote it
removes when the solver is done. A worker or a portfolio member killed outright (SIGKILL, or
the kernel's OOM killer) cannot remove it, so inside :func:`scratch_dir` every temporary
file lands in one folder of the command's own, which the command removes as it ends,
however its workers ended. A command killed outright itself leaves its folder behind; the
next command to open one removes such folders, which their names tie to a process that
is gone (its pid, within the same pid namespace, so that a container sharing the
temporary folder is never taken for gone).

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
import os
import re
import shutil
import tempfile


_active: list[str] = []  # the folder of the block running now, if any
PREFIX = "tsumeqbf-"


def _namespace() -> int | None:
    """The inode of this process's pid namespace: pids mean the same only within one."""
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def remove_orphans(parent: str, namespace: int | None) -> list[str]:
    """The scratch folders under ``parent`` of processes of ``namespace`` that are gone,
    removed (only this user's); their paths. Without a namespace, none: a pid alone
    could be another container's.

    >>> import tempfile
    >>> parent = tempfile.mkdtemp()
    >>> gone = os.path.join(parent, f"{PREFIX}7-{2 ** 22 + 1}-abc")  # beyond pid_max
    >>> os.mkdir(gone)
    >>> remove_orphans(parent, 7) == [gone], os.path.exists(gone)
    (True, False)
    """
    if namespace is None:
        return []
    pattern = re.compile(rf"{re.escape(PREFIX)}{namespace}-(\d+)-")
    removed = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return []
    for entry in entries:
        match = pattern.match(entry.name)
        try:
            if (not match or not entry.is_dir(follow_symlinks=False)
                    or entry.stat(follow_symlinks=False).st_uid != os.getuid()
                    or _alive(int(match.group(1)))):
                continue
        except OSError:
            continue
        shutil.rmtree(entry.path, ignore_errors=True)
        removed.append(entry.path)
    return removed


@contextlib.contextmanager
def scratch_dir():
    """Within the block, :mod:`tempfile` makes its files in a new folder (under the usual
    temporary folder, ``TMPDIR``), removed with all it holds when the block ends. Forked
    processes inherit it; a block inside another uses the outer block's folder."""
    if _active and tempfile.tempdir == _active[-1]:
        yield _active[-1]
        return
    outer = tempfile.tempdir
    namespace = _namespace()
    remove_orphans(tempfile.gettempdir(), namespace)
    own = f"{namespace}-{os.getpid()}-" if namespace is not None else ""
    folder = tempfile.mkdtemp(prefix=f"{PREFIX}{own}")
    tempfile.tempdir = folder
    _active.append(folder)
    try:
        yield folder
    finally:
        _active.pop()
        tempfile.tempdir = outer
        shutil.rmtree(folder, ignore_errors=True)
