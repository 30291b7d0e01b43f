"""Progress of a long command on stderr: a bar on a terminal, plain lines in a log; and
the phases of one question (:func:`phase_notes`, :func:`phase`).

The bar is tqdm's. Where stderr is not a terminal (a log file, a batch system, a pipe) a
redrawn bar would fill the file with carriage returns, so the same figures are written as
whole lines instead, at a tenth of the run or after ``LOG_EVERY_S`` seconds, whichever
comes first, and once at the end.

>>> import io
>>> log = io.StringIO()
>>> with Progress("[x] cells", 4, unit="cell", file=log, clock=iter(range(0, 100, 5)).__next__) as p:
...     for _ in range(4):
...         p.update(failed=0)
>>> print(log.getvalue(), end="")
[x] cells:  25% 1/4 [00:05<00:15,  5.00s/cell, failed=0]
[x] cells:  50% 2/4 [00:10<00:10,  5.00s/cell, failed=0]
[x] cells:  75% 3/4 [00:15<00:05,  5.00s/cell, failed=0]
[x] cells: 100% 4/4 [00:20<00:00,  5.00s/cell, failed=0]
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys
import threading
import time

from tqdm import tqdm

LOG_EVERY_S = 300.0
LOG_FORMAT = "{desc}: {percentage:3.0f}% {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]"
#: seconds a phase must last before it is noted (see Progress.phase)
PHASE_AFTER_S = 1.0
#: a count without an end (a search's nodes): no share, no time left
COUNT_FORMAT = "{desc}: {n_fmt} {unit}s [{elapsed}, {rate_fmt}{postfix}]"


class Progress:
    """``total`` items of which ``initial`` were done before (a resumed run: the rate and
    the time left count only this run's). ``update(**fields)`` counts one more item and
    shows ``fields`` (say running=2, failed=0) after the figures; ``advance_to(n,
    **fields)`` sets the count (a search's nodes). ``total=None`` is a count without an
    end, logged every ``log_step`` items. ``enabled=False`` shows nothing (``--quiet``)."""

    def __init__(self, desc: str, total: int | None, *, initial: int = 0, unit: str = "it",
                 enabled: bool = True, file=None, clock=time.monotonic,
                 log_step: int | None = None):
        self.desc, self.total, self.unit, self.initial = desc, total, unit, initial
        self.file = file if file is not None else sys.stderr
        self.enabled = enabled
        self.tty = enabled and _isatty(self.file)
        self.clock = clock
        self.n, self.fields = initial, {}
        self._phase: threading.Timer | None = None
        self.start = self.last_line = clock()
        self.step = log_step or max(1, ((total or 0) - initial) // 10)
        self.bar = tqdm(total=total, initial=initial, desc=desc, unit=unit, file=self.file,
                        disable=not self.tty, dynamic_ncols=True)

    def update(self, **fields) -> None:
        self.advance_to(self.n + 1, **fields)

    def advance_to(self, n: int, **fields) -> None:
        before, self.n = self.n, n
        self.fields = fields
        if self.tty:
            self.bar.set_postfix(fields, refresh=False)
            self.bar.update(n - before)
        elif self.enabled:
            now = self.clock()
            crossed = (n - self.initial) // self.step > (before - self.initial) // self.step
            ended = self.total is not None and n >= self.total
            if crossed or ended or now - self.last_line >= LOG_EVERY_S:
                self.last_line = now
                print(self.line(now), file=self.file, flush=True)

    def note(self, text: str) -> None:
        """A line of its own (a new phase, say), above the bar on a terminal."""
        if self.tty:
            self.bar.write(text, file=self.file)
        elif self.enabled:
            print(text, file=self.file, flush=True)

    def phase(self, text: str, after_s: float = PHASE_AFTER_S) -> None:
        """A new phase of the work: ``text`` is noted once it has lasted ``after_s``
        seconds, unless the next phase or the end comes first (a phase that ends at once
        says nothing)."""
        self._end_phase()
        if self.enabled:
            self._phase = threading.Timer(after_s, self.note, [text])
            self._phase.daemon = True
            self._phase.start()

    def _end_phase(self) -> None:
        if self._phase is not None:
            self._phase.cancel()
            self._phase = None

    def line(self, now: float) -> str:
        """The figures as one plain line (what a log shows)."""
        postfix = ", ".join(f"{k}={v}" for k, v in self.fields.items())
        return tqdm.format_meter(self.n, self.total, now - self.start, prefix=self.desc,
                                 unit=self.unit, postfix=postfix or None, initial=self.initial,
                                 bar_format=COUNT_FORMAT if self.total is None else LOG_FORMAT)

    def close(self) -> None:
        self._end_phase()
        self.bar.close()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


#: seconds into a phase at which :class:`PhaseNotes` names it (then every last step)
PHASE_NOTES_S = (PHASE_AFTER_S, 10.0, 60.0)


class PhaseNotes:
    """Which phase of a command runs (listing, encoding, writing, solving, certifying) and
    for how long, on stderr: a phase is named once it has lasted ``at_s[0]`` seconds, again
    at each later time of ``at_s`` and then every ``at_s[-1]`` seconds, and when it ends
    after being named, with its length. A phase that ends sooner says nothing, so a quick
    command prints its answer alone. ``timer`` is :class:`threading.Timer` (a test passes
    its own).

    >>> import io
    >>> log, now, timers = io.StringIO(), [0.0], []
    >>> class Timer:  # fires when the example says
    ...     def __init__(self, delay, fn, args):
    ...         self.delay, self.fire = delay, lambda: fn(*args)
    ...         timers.append(self)
    ...     start = cancel = lambda self: None
    >>> notes = PhaseNotes("mate", file=log, clock=lambda: now[0], timer=Timer)
    >>> notes.switch("encoding")
    >>> now[0] = 0.3; notes.switch("solving")  # encoding ended within a second: not named
    >>> timers[-1].delay
    1.0
    >>> now[0] = 1.3; timers[-1].fire()
    >>> timers[-1].delay  # the next note, 10 s into the phase
    9.0
    >>> now[0] = 4.0; notes.close()
    >>> print(log.getvalue(), end="")
    mate: solving, 1 s so far
    mate: solving took 3.7 s
    """

    def __init__(self, desc: str, *, enabled: bool = True, file=None, clock=time.monotonic,
                 at_s: tuple = PHASE_NOTES_S, timer=threading.Timer):
        self.desc, self.enabled, self.clock, self.at_s = desc, enabled, clock, at_s
        self.file = file if file is not None else sys.stderr
        self._timer_factory = timer
        self._lock = threading.Lock()
        self._timer = None
        self._generation = 0  # a timer of an earlier phase finds it changed and says nothing
        self.name, self.started, self.notes, self.held = None, 0.0, 0, 0
        self._pid = os.getpid()  # a forked child (a portfolio member) says nothing

    def switch(self, name: str | None) -> None:
        """Phase ``name`` begins (None: none runs); ignored while a phase is held."""
        if self.held or not self.enabled or os.getpid() != self._pid:
            return
        with self._lock:
            self._end()
            if name is not None:
                self.name, self.started = name, self.clock()
                self._schedule()

    @contextlib.contextmanager
    def hold(self, name: str):
        """Phase ``name`` for the whole block: the phases of the work inside (certifying
        asks many small questions, each encoded and solved) are not named apart."""
        self.switch(name)
        self.held += 1
        try:
            yield
        finally:
            self.held -= 1

    def close(self) -> None:
        with self._lock:
            self._end()

    def _schedule(self) -> None:
        if self.notes < len(self.at_s):
            at = self.at_s[self.notes]
        else:
            at = self.at_s[-1] * (self.notes - len(self.at_s) + 2)
        self._timer = self._timer_factory(max(0.0, self.started + at - self.clock()),
                                          self._note, [self._generation])
        self._timer.daemon = True
        self._timer.start()

    def _note(self, generation: int) -> None:
        with self._lock:
            if generation != self._generation:
                return
            self._say(f"{self.desc}: {self.name}, {self.clock() - self.started:.0f} s so far")
            self.notes += 1
            self._schedule()

    def _end(self) -> None:
        self._generation += 1
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.name is not None and self.notes:
            self._say(f"{self.desc}: {self.name} took {self.clock() - self.started:.1f} s")
        self.name, self.notes = None, 0

    def _say(self, text: str) -> None:
        try:
            print(text, file=self.file, flush=True)
        except (OSError, ValueError):  # stderr closed: progress is not worth an error
            pass


_notes: contextvars.ContextVar["PhaseNotes | _PhaseSink | None"] = contextvars.ContextVar("phase_notes",
                                                                             default=None)


@contextlib.contextmanager
def phase_notes(desc: str, enabled: bool = True, file=None):
    """Name the phases of the work inside the block on stderr (:class:`PhaseNotes`): the
    code that runs calls :func:`phase`, which does nothing outside such a block (a batch
    worker, an experiment's cell, the USI engine)."""
    notes = PhaseNotes(desc, enabled=enabled, file=file, at_s=PHASE_NOTES_S)
    token = _notes.set(notes)
    try:
        yield notes
    finally:
        notes.close()
        _notes.reset(token)


def phase(name: str | None) -> None:
    """Phase ``name`` of the current command begins (see :func:`phase_notes`)."""
    notes = _notes.get()
    if notes is not None:
        notes.switch(name)


@contextlib.contextmanager
def held_phase(name: str):
    """Phase ``name`` for the whole block, the phases inside it not named apart."""
    notes = _notes.get()
    if notes is None:
        yield
    else:
        with notes.hold(name):
            yield


class _PhaseSink:
    """:func:`phase` inside :func:`phases_to`: each phase's name to ``report``, in the
    process that set it only (a forked child sets its own or says nothing)."""

    def __init__(self, report):
        self.report, self.held, self._pid = report, 0, os.getpid()

    def switch(self, name: str | None) -> None:
        if not self.held and name is not None and os.getpid() == self._pid:
            self.report(name)

    hold = PhaseNotes.hold


@contextlib.contextmanager
def phases_to(report):
    """Inside the block :func:`phase` calls ``report(name)`` as each phase begins, in
    place of any notes on stderr (a portfolio member tells the portfolio what it is doing).

    >>> said = []
    >>> with phases_to(said.append):
    ...     phase("encoding"); phase("solving")
    >>> said
    ['encoding', 'solving']
    """
    token = _notes.set(_PhaseSink(report))
    try:
        yield
    finally:
        _notes.reset(token)


def shows_phases(json_output: bool, quiet: bool = False, stream=None) -> bool:
    """Whether a command shows its phases: not with ``--quiet``, and under ``--json``
    only to a person (stderr a terminal), not to a program reading both streams."""
    return not quiet and (not json_output or _isatty(stream if stream is not None else sys.stderr))


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no such method, or the stream is closed
        return False
