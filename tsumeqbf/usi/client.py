"""Another USI mate engine, driven from Python: :class:`MateEngine` starts the program,
sets its options and asks ``go mate`` of one position at a time. Its answer is an
:class:`EngineAnswer`: the verdict from the ``checkmate`` line (moves: a mate; ``nomate``;
``timeout`` or ``notimplemented``: not decided), the nodes and milliseconds of the last
``info`` line before it, and the CPU seconds the engine's process spent on the question
(read from ``/proc`` on Linux, None elsewhere: a USI engine reports wall time only).

A mate claimed is the engine's word, not a proof: the bench replays the line with the
rules engine. An engine that is missing, dies, or says nothing within the time it was
given and a grace after ``stop`` is an :class:`EngineError` with one line saying which;
its process group is killed.

Our own engine answers as another would (``tsumeqbf usi``):

>>> import sys
>>> with MateEngine([sys.executable, "-m", "tsumeqbf", "usi"], {"MaxPlies": "5"}) as e:
...     got = e.mate("7k1/9/7G1/9/9/9/9/9/9 b G 1", seconds=30)
>>> got.status is Status.MATE, got.line, e.name.startswith("tsumeqbf")
(True, ['G*2b'], True)
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field, replace

from ..values import Status

#: seconds an engine may take past its time to answer, and then past ``stop``
GRACE_S = 10.0
#: seconds for ``usiok`` and ``readyok`` (an engine may clear a large table first)
HANDSHAKE_S = 120.0


class EngineError(RuntimeError):
    """The engine is missing, died, or did not answer in time (one line, for the user)."""


@dataclass(frozen=True)
class EngineAnswer:
    """One ``go mate``: the verdict, the mate's moves (USI), what the engine reported of
    its work, and the CPU seconds of its process (None where it cannot be read).

    >>> EngineAnswer.of_checkmate("checkmate nomate".split(), {}).status is Status.NOMATE
    True
    >>> a = EngineAnswer.of_checkmate("checkmate G*2b".split(), {"nodes": 3, "time": 1})
    >>> a.status is Status.MATE, a.line, a.nodes, a.time_ms
    (True, ['G*2b'], 3, 1)
    >>> EngineAnswer.of_checkmate(["checkmate", "timeout"], {}).reason
    'timeout'
    """

    status: Status
    line: list[str] = field(default_factory=list)
    nodes: int | None = None
    time_ms: int | None = None
    cpu_s: float | None = None
    wall_s: float | None = None
    reason: str | None = None

    @classmethod
    def of_checkmate(cls, words: list[str], info: dict) -> EngineAnswer:
        said = words[1:]
        facts = dict(nodes=info.get("nodes"), time_ms=info.get("time"))
        if " ".join(words) == "checkmate nomate":
            return cls(Status.NOMATE, **facts)
        if not said or said[0] in ("timeout", "notimplemented"):
            return cls(Status.UNKNOWN, reason=said[0] if said else "empty checkmate line",
                       **facts)
        return cls(Status.MATE, line=said, **facts)


def info_numbers(words: list[str]) -> dict:
    """The numbers of an ``info`` line (``nodes``, ``time``, ``nps``, ...), up to its
    ``pv`` or ``string`` (which run to the end of the line).

    >>> info_numbers("info time 492 nodes 116514 nps 236817 string # mate in 39".split())
    {'time': 492, 'nodes': 116514, 'nps': 236817}
    """
    out = {}
    for name, value in zip(words[1::2], words[2::2]):
        if name in ("pv", "string"):
            break
        try:
            out[name] = int(value)
        except ValueError:
            continue
    return out


def process_cpu_s(pid: int) -> float | None:
    """CPU seconds (user and system, every thread) process ``pid`` has spent so far, from
    ``/proc`` (None where there is none)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class MateEngine:
    """A USI engine program (``command``: its argv) with ``options`` set once (USI names,
    values as text). ``name`` is what it calls itself (``id name``)."""

    def __init__(self, command: list[str], options: dict | None = None):
        self.command = list(command)
        try:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                         text=True, encoding="utf-8", errors="replace",
                                         bufsize=1, start_new_session=True)
        except OSError as exc:
            raise EngineError(f"cannot start USI engine {self.command[0]}: "
                              f"{exc.strerror or exc}") from None
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.name = self.command[0]
        try:
            self.send("usi")
            for words in self._until("usiok", HANDSHAKE_S):
                if words[:2] == ["id", "name"]:
                    self.name = " ".join(words[2:])
            for key, value in (options or {}).items():
                self.send(f"setoption name {key} value {value}")
            self.ready()
        except EngineError:
            self.kill()
            raise

    def _read(self) -> None:
        for text in self.proc.stdout:
            self.lines.put(text.split())
        self.lines.put(None)  # the engine closed its output: it has ended

    def send(self, text: str) -> None:
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(f"USI engine {self.name} has ended "
                              f"(exit code {self.proc.poll()})") from None

    def _until(self, word: str, seconds: float):
        """The engine's lines up to the one starting with ``word`` (yielded last), within
        ``seconds``."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                words = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineError(f"USI engine {self.name} did not say {word!r} "
                                  f"within {seconds:g} s") from None
            if words is None:
                self.proc.wait()
                raise EngineError(f"USI engine {self.name} ended before saying {word!r} "
                                  f"(exit code {self.proc.returncode})")
            yield words
            if words and words[0] == word:
                return

    def ready(self) -> None:
        self.send("isready")
        for _ in self._until("readyok", HANDSHAKE_S):
            pass

    def mate(self, sfen: str, seconds: float) -> EngineAnswer:
        """``go mate`` on ``sfen`` with ``seconds`` to answer; past them and ``GRACE_S``,
        ``stop``; no ``checkmate`` line after another ``GRACE_S`` is an EngineError (the
        engine is killed)."""
        self.send(f"position sfen {sfen}")
        cpu = process_cpu_s(self.proc.pid)
        start = time.monotonic()
        self.send(f"go mate {max(1, int(seconds * 1000))}")
        info: dict = {}
        try:
            words = self._checkmate(info, seconds + GRACE_S)
        except EngineError:
            if self.proc.poll() is not None:
                raise
            self.send("stop")
            try:
                words = self._checkmate(info, GRACE_S)
            except EngineError:
                self.kill()
                raise EngineError(f"USI engine {self.name} gave no answer within "
                                  f"{seconds:g} s and {2 * GRACE_S:g} s of grace") from None
        wall = time.monotonic() - start
        used = process_cpu_s(self.proc.pid)
        return replace(EngineAnswer.of_checkmate(words, info), wall_s=round(wall, 6),
                       cpu_s=None if cpu is None or used is None else round(used - cpu, 3))

    def _checkmate(self, info: dict, seconds: float) -> list[str]:
        for words in self._until("checkmate", seconds):
            if words and words[0] == "info":
                info.update(info_numbers(words))
        return words

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait()

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(timeout=GRACE_S)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def __enter__(self) -> MateEngine:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
