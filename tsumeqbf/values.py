"""The values every command passes across its boundaries: a :class:`Question`, its
:class:`Limits` and the :class:`Answer` an engine gives, with its :class:`Status`.

An answer is a typed value inside the program and a flat dict outside it, written one
way only: :meth:`Answer.to_dict` is what ``mate --json`` prints and what a ``batch``
line holds, :meth:`Answer.to_row` the answer's columns of an experiment's store and CSV
(:data:`Answer.COLUMNS`); :meth:`Answer.from_dict` reads either back. The status's values
are the words the JSON and CSV have always held:

>>> answer = Answer.decided(True, first_move="G*2b", engine="brute")
>>> answer.status, answer.status.decided, answer.verdict
(<Status.MATE: 'mate'>, True, True)
>>> answer.to_dict()
{'status': 'mate', 'mate': True, 'first_move': 'G*2b', 'engine': 'brute'}
>>> later = Answer.from_dict({"status": "unknown", "mate": None, "error": "timeout", "nodes": 7})
>>> later.status, later.verdict, later.error, later.facts
(<Status.UNKNOWN: 'unknown'>, None, 'timeout', {'nodes': 7})
>>> Answer.from_dict(answer.to_dict()) == answer
True

This module is the bottom layer (docs/layout.md): it imports nothing of tsumeqbf, so
every layer can speak in these values.
"""

from __future__ import annotations

import dataclasses
import enum
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping


class Status(str, enum.Enum):
    """How a question ended: decided (``MATE``, ``NOMATE``), not decided within the
    limits (``UNKNOWN``), or failed (``ERROR``: bad input, a crash, a disagreement).
    Its values are the strings the JSON and CSV outputs hold, and a status equals its
    string.

    >>> Status.of(False), Status("mate") == "mate", f"{Status.UNKNOWN}"
    (<Status.NOMATE: 'nomate'>, True, 'unknown')
    >>> {"mate": 1}[Status.MATE], Status.ERROR in {"error"}
    (1, True)
    >>> [s.verdict for s in Status]
    [True, False, None, None]
    """

    MATE = "mate"
    NOMATE = "nomate"
    UNKNOWN = "unknown"
    ERROR = "error"

    # the plain word wherever a status is printed, and the same key as it in a dict
    __str__ = str.__str__
    __format__ = str.__format__
    __hash__ = str.__hash__

    @classmethod
    def of(cls, verdict: bool | None) -> Status:
        """The status of a search's verdict: True, False, or None (limit reached)."""
        # (a store's 0 and 1 are its booleans)
        if verdict is not None and (type(verdict) not in (bool, int) or verdict not in (0, 1)):
            raise ValueError(f"a verdict is True, False or None, not {verdict!r}")
        return {True: cls.MATE, False: cls.NOMATE, None: cls.UNKNOWN}[verdict]

    @property
    def decided(self) -> bool:
        """Whether the question was answered (mate or no mate)."""
        return self in (Status.MATE, Status.NOMATE)

    @property
    def verdict(self) -> bool | None:
        """True for a mate, False for none, None when not decided."""
        return {Status.MATE: True, Status.NOMATE: False}.get(self)

    @property
    def word(self) -> str:
        """How the reports name it: ``mate``, ``no mate``, ``timeout`` or ``error``.

        >>> [s.word for s in Status]
        ['mate', 'no mate', 'timeout', 'error']
        """
        return {Status.NOMATE: "no mate", Status.UNKNOWN: "timeout"}.get(self, self.value)


#: the key of a row, a JSON line or a case that holds a verdict (True, False, None)
VERDICT_KEY = "mate"


def plies(n: int) -> str:
    """A count of plies as a line says it.

    >>> plies(1), plies(3)
    ('1 ply', '3 plies')
    """
    return f"{n} ply" if n == 1 else f"{n} plies"


def check_seconds(seconds: float | None) -> None:
    """ValueError for a time limit that is negative or NaN (None: no limit; 0: none left).

    >>> check_seconds(-1)
    Traceback (most recent call last):
    ValueError: a time limit is 0 seconds or more (None: no limit), not -1
    """
    if seconds is not None and not seconds >= 0:  # (NaN too)
        raise ValueError(f"a time limit is 0 seconds or more (None: no limit), not {seconds}")


def verdict_of(row: Mapping[str, Any]) -> bool | None:
    """The verdict a row holds (a store's or a JSON line's, or any dict with its key
    ``mate``): True, False, or None when not decided.

    >>> verdict_of({"status": "nomate", "mate": False}), verdict_of({"status": "error"})
    (False, None)
    """
    return row.get(VERDICT_KEY)


def status_of(row: Mapping[str, Any]) -> Status | None:
    """The status a row holds, None where it has none.

    >>> status_of({"status": "unknown"}), status_of({"mate": True})
    (<Status.UNKNOWN: 'unknown'>, None)
    """
    return Status(row["status"]) if row.get("status") else None


#: the column of a row (and the key of an answer's dict) that says why its question was
#: not decided
REASON = "error"


def reason_of(row: Mapping[str, Any]) -> str:
    """Why a row's question was not decided (its ``error``), "" where none is given."""
    return row.get(REASON) or ""


#: the rules variants a question can be asked under (spec/RULES.md)
RULES = ("standard", "no-hands")


@dataclass(frozen=True)
class Question:
    """Mate(P, n): can the side to move force mate within ``n`` plies, every attacking
    move a check? ``sfen`` is the position, ``zone`` its promotion zone's depth (None:
    the board's default) and ``rules`` the variant (``standard`` or ``no-hands``).

    >>> Question("2k/3/1GP b - 1", 1, zone=2)
    Question(sfen='2k/3/1GP b - 1', n=1, zone=2, rules='standard')
    >>> Question("2k/3/1GP b - 1", 2)
    Traceback (most recent call last):
    ValueError: n must be an odd number of plies >= 1, got 2
    """

    sfen: str
    n: int
    zone: int | None = None
    rules: str = "standard"

    def __post_init__(self):
        if not isinstance(self.sfen, str):
            raise TypeError(f"a question's sfen is a string, not {type(self.sfen).__name__}")
        if self.zone is not None and (isinstance(self.zone, bool) or not isinstance(self.zone, int)
                                      or self.zone < 1):
            raise ValueError(f"a promotion zone is a depth >= 1 (or None), not {self.zone!r}")
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n < 1 or self.n % 2 == 0:
            raise ValueError(f"n must be an odd number of plies >= 1, got {self.n!r}")
        if self.rules not in RULES:
            raise ValueError(f"unknown rules {self.rules!r}; choose one of {', '.join(RULES)}")

    @classmethod
    def of(cls, pos, n: int) -> Question:
        """The question asked of a position (a :class:`tsumeqbf.rules.Position`)."""
        return cls(pos.sfen(), n, pos.geo.zone, "no-hands" if pos.no_hands else "standard")

    def to_dict(self) -> dict:
        """The question's keys of an answer's JSON (``mate --json``): ``sfen``, ``n``,
        ``zone`` and, for other rules than the standard ones, ``rules``.

        >>> Question("2k/3/1GP b - 1", 3, 2).to_dict()
        {'sfen': '2k/3/1GP b - 1', 'n': 3, 'zone': 2}
        """
        out = {"sfen": self.sfen, "n": self.n, "zone": self.zone}
        if self.rules != "standard":
            out["rules"] = self.rules
        return out


@dataclass(frozen=True)
class Limits:
    """What one question may spend: a ``deadline`` (a ``time.monotonic()`` value, None
    for none), this process's resident memory ``memory_mb`` and ``max_nodes`` of a
    search; ``seconds`` is the time the deadline was set at, which a second stage (the
    certification of a QBF verdict) may take again. Made once where a question starts
    (:meth:`within`) and passed down whole: every layer reads the same deadline, and
    :meth:`seconds_left` is never 0, which the solvers would read as no limit.

    >>> limits = Limits.within(30, memory_mb=512, clock=lambda: 100.0)
    >>> limits.deadline, limits.seconds, limits.seconds_left(clock=lambda: 129.5)
    (130.0, 30, 0.5)
    >>> limits.seconds_left(clock=lambda: 131.0), Limits().seconds_left()
    (0.001, None)
    >>> limits.passed(clock=lambda: 131.0), Limits().passed()
    (True, False)
    """

    deadline: float | None = None
    memory_mb: float | None = None
    max_nodes: int | None = None
    seconds: float | None = None

    #: what :meth:`seconds_left` says once the deadline has passed (not 0: no limit)
    LAST_S = 0.001

    @classmethod
    def within(cls, seconds: float | None, memory_mb: float | None = None,
               max_nodes: int | None = None,
               clock: Callable[[], float] = time.monotonic) -> Limits:
        """Limits of ``seconds`` from now (None: no deadline; 0: passed already, as the
        native core reads a limit of 0). ValueError for a negative or NaN ``seconds``, whose
        deadline is in the past or never passes.

        >>> Limits.within(0, clock=lambda: 5.0).passed(clock=lambda: 5.0)
        True
        >>> Limits.within(float("nan"))
        Traceback (most recent call last):
        ValueError: a time limit is 0 seconds or more (None: no limit), not nan
        """
        check_seconds(seconds)
        return cls(None if seconds is None else clock() + seconds, memory_mb, max_nodes, seconds)

    def seconds_left(self, clock: Callable[[], float] = time.monotonic) -> float | None:
        """Seconds until the deadline, at least :attr:`LAST_S`; None without one."""
        if self.deadline is None:
            return None
        return max(self.LAST_S, self.deadline - clock())

    def passed(self, clock: Callable[[], float] = time.monotonic) -> bool:
        """Whether the deadline has passed."""
        return self.deadline is not None and clock() >= self.deadline


@dataclass(frozen=True)
class Timings:
    """Where an answer's time went: ``time_s`` the whole call (wall seconds),
    ``solve_s`` the search or solver alone, ``encode_s`` the encoding; ``cpu_s`` the
    call's CPU seconds with the solvers' own among them as ``solver_cpu_s``, ``peak_mb``
    the peak resident memory and ``measured_by`` how they were measured
    (:mod:`tsumeqbf.usage`)."""

    time_s: float | None = None
    solve_s: float | None = None
    encode_s: float | None = None
    cpu_s: float | None = None
    solver_cpu_s: float | None = None
    peak_mb: float | None = None
    measured_by: str | None = None


@dataclass(frozen=True)
class Certification:
    """The rules' check of a QBF verdict's strategy (option ``certify``): ``certified``
    whether it was checked whole, ``strategy_nodes`` how many nodes, ``certify_s`` in how
    long, ``certify_reason`` why not, and the ``main_line`` it holds."""

    certified: bool = False
    strategy_nodes: int | None = None
    certify_s: float | None = None
    certify_reason: str | None = None
    main_line: tuple[str, ...] | None = None

    def __post_init__(self):
        if self.main_line is not None:
            object.__setattr__(self, "main_line", _moves(self.main_line, "main_line"))


def _moves(line, name: str) -> tuple[str, ...]:
    """A line of USI moves as a tuple; TypeError for one string (read move by letter)."""
    if isinstance(line, str):
        raise TypeError(f"{name} is a sequence of USI moves, not one string: {line!r}")
    return tuple(line)


#: the dict keys of the typed fields; every other key of an answer's dict is a fact
_TIMINGS = tuple(f.name for f in dataclasses.fields(Timings))
_CERTIFICATION = tuple(f.name for f in dataclasses.fields(Certification))


@dataclass(frozen=True)
class Answer:
    """An engine's answer to a :class:`Question`: its ``status`` and ``verdict`` (True,
    False, or None when not decided; the key ``mate`` in JSON and CSV), the ``first_move``
    and the ``line`` (USI; ``pv``), ``error`` the reason an answer is not decided, the
    ``engine`` with its ``settings`` (the options it ran with: not written, a row's
    options are its cell's), its :class:`Timings` and, when asked, its
    :class:`Certification`. ``facts`` holds what one engine alone reports (nodes, formula
    sizes, table sizes...), in its dict as they are. The verdict always agrees with the
    status:

    >>> Answer(Status.MATE, False)
    Traceback (most recent call last):
    ValueError: an answer of status mate has verdict True, not False
    >>> a = Answer.from_dict({"status": "nomate", "mate": False, "time_s": 0.5,
    ...                       "certified": True, "strategy_nodes": 12})
    >>> a.timings.time_s, a.certification.strategy_nodes, a.to_row()["certified"]
    (0.5, 12, True)
    """

    status: Status
    verdict: bool | None = None
    first_move: str | None = None
    line: tuple[str, ...] | None = None
    error: str | None = None
    engine: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    timings: Timings = field(default_factory=Timings, repr=False)
    certification: Certification | None = field(default=None, repr=False)
    facts: Mapping[str, Any] = field(default_factory=dict, hash=False)

    #: the answer's columns of an experiment's store and CSV, with their SQL kinds
    #: (:data:`tsumeqbf.experiments.store.COLUMNS` holds them among the cell's)
    COLUMNS = (("status", "TEXT"), (VERDICT_KEY, "BOOLEAN"), ("first_move", "TEXT"),
               ("time_s", "REAL"), ("encode_s", "REAL"), ("solve_s", "REAL"),
               ("vars", "INTEGER"), ("clauses", "INTEGER"), ("blocks", "INTEGER"),
               ("nodes", "INTEGER"), ("certified", "BOOLEAN"), ("strategy_nodes", "INTEGER"),
               ("certify_s", "REAL"), ("certify_reason", "TEXT"), ("error", "TEXT"),
               ("cpu_s", "REAL"), ("solver_cpu_s", "REAL"), ("peak_mb", "REAL"),
               ("measured_by", "TEXT"))

    def __post_init__(self):
        object.__setattr__(self, "status", Status(self.status))
        if self.verdict != self.status.verdict:
            raise ValueError(f"an answer of status {self.status} has verdict "
                             f"{self.status.verdict}, not {self.verdict}")
        object.__setattr__(self, "verdict", self.status.verdict)  # (1 read as True)
        if self.line is not None:
            object.__setattr__(self, "line", _moves(self.line, "line"))

    # -- made by engines ----------------------------------------------------------------

    @classmethod
    def decided(cls, verdict: bool, **fields) -> Answer:
        """A mate (True) or no mate (False)."""
        return cls(Status.of(verdict), verdict, **fields)

    @classmethod
    def of(cls, verdict: bool | None, **fields) -> Answer:
        """A search's verdict: True, False, or None when a limit was reached."""
        return cls(Status.of(verdict), verdict, **fields)

    @classmethod
    def unknown(cls, reason: str, **fields) -> Answer:
        """Not decided within the limits; ``reason`` says which."""
        return cls(Status.UNKNOWN, error=reason, **fields)

    @classmethod
    def failed(cls, reason: str, **fields) -> Answer:
        """Status ``error``: bad input, a crash, or a disagreement, as ``reason`` says."""
        return cls(Status.ERROR, error=reason, **fields)

    def replace(self, **changes) -> Answer:
        """This answer with some fields changed (``facts`` and ``timings`` are merged)."""
        if "facts" in changes:
            changes["facts"] = {**self.facts, **changes["facts"]}
        if isinstance(changes.get("timings"), Mapping):
            changes["timings"] = dataclasses.replace(self.timings, **changes["timings"])
        return dataclasses.replace(self, **changes)

    def with_facts(self, **facts) -> Answer:
        """This answer with more facts."""
        return self.replace(facts=facts)

    # -- read and written ---------------------------------------------------------------

    def to_dict(self) -> dict:
        """The answer as JSON keys: ``status``, ``mate``, ``first_move``, ``pv`` (when
        there is a line), the facts, the certification's keys (when asked), ``error``,
        ``engine`` and the timings (those measured)."""
        out = {"status": self.status.value, VERDICT_KEY: self.verdict, "first_move": self.first_move}
        if self.line is not None:
            out["pv"] = list(self.line)
        out.update(self.facts)
        if self.certification is not None:
            cert = dataclasses.asdict(self.certification)
            if cert["main_line"] is None:
                del cert["main_line"]
            else:
                cert["main_line"] = list(cert["main_line"])
            out.update({k: v for k, v in cert.items() if v is not None})
        if self.error is not None:
            out["error"] = self.error
        if self.engine is not None:
            out["engine"] = self.engine
        out.update({k: v for k, v in dataclasses.asdict(self.timings).items() if v is not None})
        return out

    def summary(self) -> dict:
        """The short form a list of answers holds (the portfolio's members): ``status``,
        ``time_s`` and, when there is one, ``error``.

        >>> Answer.unknown("timeout", timings=Timings(time_s=2.0)).summary()
        {'status': 'unknown', 'time_s': 2.0, 'error': 'timeout'}
        """
        out = {"status": self.status.value, "time_s": self.timings.time_s}
        if self.error:
            out["error"] = self.error
        return out

    def to_row(self) -> dict:
        """The answer's columns (:data:`COLUMNS`) of a store's row, None where unknown."""
        out = self.to_dict()
        return {name: out.get(name) for name, _ in self.COLUMNS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], settings: Mapping[str, Any] | None = None
                  ) -> Answer:
        """The answer in a dict of :meth:`to_dict`'s keys: an engine's, a JSON line's or
        a store's row (whose other columns become facts); a missing ``mate`` follows
        the status."""
        data = dict(data)
        if "status" not in data:
            raise ValueError("an answer's dict has no status")
        status = Status(data.pop("status"))
        verdict = data.pop(VERDICT_KEY, status.verdict)
        line = data.pop("pv", None)
        timings = Timings(**{k: data.pop(k) for k in _TIMINGS if k in data})
        certification = None
        if "certified" in data:
            certification = Certification(**{k: data.pop(k) for k in _CERTIFICATION
                                             if k in data})
        return cls(status, verdict, first_move=data.pop("first_move", None), line=line,
                   error=data.pop("error", None), engine=data.pop("engine", None),
                   settings=dict(settings or {}), timings=timings,
                   certification=certification, facts=data)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Answer:
        """The answer in a store's row: its :data:`COLUMNS` alone (None where empty)."""
        return cls.from_dict({name: row[name] for name, _ in cls.COLUMNS
                              if row.get(name) is not None or name == "status"})
