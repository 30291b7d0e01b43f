"""Progress of a long command on stderr: a bar on a terminal, plain lines in a log.

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


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no such method, or the stream is closed
        return False
