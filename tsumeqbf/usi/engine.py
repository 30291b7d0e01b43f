"""The USI protocol for a tsume engine: :class:`UsiEngine` takes one command line at a
time and writes its answers through ``write``.

Commands: ``usi``, ``isready``, ``setoption``, ``usinewgame``, ``position``, ``go mate
<ms>|infinite`` (``go mate 0`` is ``infinite``), ``stop``, ``quit`` (``gameover`` and
``ponderhit`` are accepted and ignored). A plain ``go`` answers ``bestmove resign`` with
an explanation: this engine only solves mates. A ``go mate`` while a search runs stops
that search and waits for its answer first. Anything it cannot take gets an ``info
string`` line, never a crash.

>>> out = []
>>> e = UsiEngine(out.append)
>>> e.handle("position sfen 7k1/9/7G1/9/9/9/9/9/9 b G 1")
True
>>> e.handle("go mate 1000") and e.wait(30)
True
>>> out[-1]
'checkmate G*2b'
"""

from __future__ import annotations

import threading
from dataclasses import replace

from .. import __version__, native
from ..dfpn.options import SolveOptions
from ..dfpn.tables import ENTRY_BYTES
from ..rules import TsumeError
from ..solvers.portfolio import default_jobs
from ..rules.problem_files import position_from_usi
from ..settings import TABLE_ENTRIES, USI_NUMBER, usi_number
from .search import ENGINES, MateRequest, MateSearch

NAME = f"tsumeqbf {__version__}"
HASH_DEFAULT_MB = TABLE_ENTRIES * ENTRY_BYTES >> 20  # 314: the table of 'tsumeqbf solve'
CORES = default_jobs()
AUTHOR = "the tsumeqbf developers"

#: option -> its USI declaration (after "option name X ")
OPTIONS = {
    "Engine": "type combo default dfpn " + " ".join(f"var {e}" for e in ENGINES),
    "MaxPlies": "type spin default 15 min 1 max 255",
    "MaxNodes": "type spin default 0 min 0 max 2000000000",
    # df-pn's, as 'tsumeqbf solve' takes them: TableEntries, Heuristics, Shortest,
    # ShortenNodes (-1: solve's default), Backend
    **SolveOptions.usi_options(),
    # MB for df-pn's table (TableEntries counts its entries; the last one sent wins): the
    # default is the 1,000,000 entries of 'tsumeqbf solve'
    "USI_Hash": f"type spin default {HASH_DEFAULT_MB} min 1 max 1048576",
    # members of the portfolio engine at once; the other engines use one core
    "Threads": f"type spin default {CORES} min 1 max 1024",
}
#: seconds a ``go`` waits for the search before it to answer once stopped (it is killed
#: within STOP_GRACE_S: this is for a machine too loaded to run its relay at once)
FINISH_WAIT_S = 30.0
#: options GUIs send to every engine, taken without a word
IGNORED_OPTIONS = {"USI_Ponder", "USI_OwnBook", "USI_MultiPV"}


class UsiEngine:
    def __init__(self, write):
        self._lock = threading.Lock()
        self._write = write
        self.request = MateRequest(sfen="")
        self.search: MateSearch | None = None
        self._threads_told = None  # (Threads, Engine) whose note was said: once, not every go

    # -- output --------------------------------------------------------------------------------
    def emit(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def say(self, text: str) -> None:
        self.emit(f"info string {text}")

    # -- input ---------------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one command line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        handler = getattr(self, f"cmd_{words[0]}", None)
        if handler is None:
            self.say(f"unknown command: {words[0]}")
            return True
        try:
            return handler(words[1:]) is not False
        except TsumeError as exc:
            self.say(f"{words[0]}: {exc}")
        except Exception as exc:  # a bug, but the engine stays up
            self.say(f"{words[0]}: internal error: {type(exc).__name__}: {exc}")
        return True

    def cmd_usi(self, args) -> None:
        self.emit(f"id name {NAME}")
        self.emit(f"id author {AUTHOR}")
        for name, declaration in OPTIONS.items():
            self.emit(f"option name {name} {declaration}")
        self.emit("usiok")

    def cmd_isready(self, args) -> None:
        self.emit("readyok")

    def cmd_usinewgame(self, args) -> None:
        pass

    cmd_gameover = cmd_ponderhit = cmd_usinewgame

    def cmd_setoption(self, args) -> None:
        if args[:1] != ["name"]:
            raise TsumeError("expected 'setoption name NAME [value VALUE]'")
        cut = args.index("value") if "value" in args else len(args)
        name, value = " ".join(args[1:cut]), " ".join(args[cut + 1:])
        if name in IGNORED_OPTIONS:
            return
        setter = _SETTERS.get(name)
        if setter is None:
            raise TsumeError(f"unknown option {name!r}; options: {', '.join(OPTIONS)}")
        _within_declared(name, value)
        setter(self.request, value)

    def cmd_position(self, args) -> None:
        self.request.sfen = ""  # a refused position leaves none rather than the last one
        pos = position_from_usi(" ".join(args))
        if (pos.geo.width, pos.geo.height) != (9, 9):
            raise TsumeError("USI is a 9x9 protocol; use 'tsumeqbf solve' for other boards")
        self.request.sfen = pos.sfen()

    def cmd_go(self, args) -> None:
        if args[:1] != ["mate"]:
            self.say("tsumeqbf only solves mates: send 'go mate <ms>' or 'go mate infinite'")
            self.emit("bestmove resign")
            return
        if self.searching() and not self._end_search():
            self.say(f"the search before is still running after {FINISH_WAIT_S:g} s")
            self.emit("checkmate notimplemented")  # (this go's line: a GUI waits for one)
            return
        limit = args[1] if len(args) > 1 else "infinite"
        if limit == "infinite":
            timeout = None
        elif limit.isascii() and limit.isdigit():  # (str.isdigit alone takes '１２' and '²')
            # 0 ms: the USI spec gives milliseconds or 'infinite' and says nothing of 0;
            # no search answers within none, so it is read as no limit, as 'infinite' (the
            # search ends at 'stop'). Past what the timers hold (go mate 99999999999999):
            # no limit either.
            ms = int(limit)
            timeout = None if ms == 0 else native.time_limit(ms / 1000)
        else:  # still a checkmate line: a GUI waits for one after every 'go mate'
            self.say(f"'go mate' takes milliseconds or 'infinite', not {limit!r}")
            self.emit("checkmate notimplemented")
            return
        if not self.request.sfen:
            self.say("no position: send 'position sfen ...' first")
            self.emit("checkmate notimplemented")
            return
        setting = (self.request.threads, self.request.engine)
        if (self.request.threads or 1) > 1 and self.request.engine != "portfolio" \
                and setting != self._threads_told:
            self._threads_told = setting
            self.say(f"Threads: engine {self.request.engine} uses one core; only the "
                     f"portfolio runs members side by side")
        self.search = MateSearch(replace(self.request, timeout=timeout), self._write, self._lock)
        self.search.start()

    def _end_search(self) -> bool:
        """Stop the search still running and wait for its answer, before a new ``go``: a
        GUI sends ``go`` right after ``stop``, which waits for the answer a limited time
        (a loaded machine answers later), or sends ``go`` without ``stop``. Each ``go``
        then has its own ``checkmate`` line, in order, and never two searches run. False
        when the search has not answered within FINISH_WAIT_S."""
        self.search.stop()
        return self.search.finished.wait(FINISH_WAIT_S)

    def cmd_stop(self, args) -> None:
        if self.search is not None:
            self.search.stop()

    def cmd_quit(self, args) -> bool:
        self.cmd_stop(args)
        return False

    # -- state ---------------------------------------------------------------------------------
    def searching(self) -> bool:
        with self._lock:  # the search answers and finishes under it
            return self.search is not None and not self.search.finished.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the running search to answer (tests, scripts); True when it has."""
        return self.search is None or self.search.finished.wait(timeout)


# -- options -----------------------------------------------------------------------------------
def _int_option(name: str, low: int, value: str) -> int:
    try:
        number = usi_number(name, value)
    except ValueError as exc:
        raise TsumeError(str(exc)) from None
    if number < low:
        raise TsumeError(f"{name} must be at least {low}")
    return number


def _within_declared(name: str, value: str) -> None:
    """A spin option's value past the max its declaration gives is refused (a GUI shows
    that range; a whole number is each setter's own check).

    >>> _within_declared("MaxPlies", "255")
    >>> _within_declared("MaxPlies", "257")
    Traceback (most recent call last):
    tsumeqbf.rules.errors.TsumeError: MaxPlies must be at most 255
    """
    words = OPTIONS[name].split()
    if "spin" in words and "max" in words:
        top = int(words[words.index("max") + 1])
        if USI_NUMBER.fullmatch(value) and int(value) > top:
            raise TsumeError(f"{name} must be at most {top}")


def _set_engine(request, value):
    if value not in ENGINES:
        raise TsumeError(f"Engine must be one of {', '.join(ENGINES)}, not {value!r}")
    request.engine = value


def _set_max_plies(request, value):
    plies = _int_option("MaxPlies", 1, value)
    if plies % 2 == 0:
        raise TsumeError("MaxPlies must be odd (the attacker moves first and last)")
    request.max_plies = plies


def _set_max_nodes(request, value):
    request.max_nodes = _int_option("MaxNodes", 0, value) or None


def _dfpn_with(request, name: str, value: str):
    """The request's df-pn options with USI option ``name`` (a field of SolveOptions) set."""
    try:
        return request.dfpn.with_usi(name, value)
    except ValueError as exc:
        raise TsumeError(str(exc)) from None


def _set_dfpn(name: str):
    """The setter of df-pn's USI option ``name``."""
    def set_option(request, value):
        request.dfpn = _dfpn_with(request, name, value)
    return set_option


def _set_backend(request, value):
    options = _dfpn_with(request, "Backend", value)
    if value == "cshogi":
        from ..dfpn.cshogi_backend import load_cshogi
        load_cshogi()  # a clear error now rather than at 'go mate'
    if value == "native":
        from .. import native
        native.require()
    request.dfpn = options


def table_entries(mb: int) -> int:
    """Table entries that fit in ``mb`` megabytes (2**20 bytes), at ENTRY_BYTES each.

    >>> table_entries(314), table_entries(1)
    (997735, 3177)
    """
    return max(2, (mb << 20) // ENTRY_BYTES)


def _set_usi_hash(request, value):
    request.dfpn = replace(request.dfpn, tt_limit=table_entries(_int_option("USI_Hash", 1, value)))


def _set_threads(request, value):
    request.threads = _int_option("Threads", 1, value)


_SETTERS = {"Engine": _set_engine, "MaxPlies": _set_max_plies, "MaxNodes": _set_max_nodes,
            **{name: _set_dfpn(name) for name in SolveOptions.usi_options()},
            "Backend": _set_backend, "USI_Hash": _set_usi_hash, "Threads": _set_threads}
