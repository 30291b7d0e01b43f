"""The search behind ``go mate``, one child process per search.

``answer_mate(request, send)`` answers a :class:`MateRequest` (it runs in the child and
sends ``("info", line)`` messages while it searches); :class:`MateSearch` runs it in a
forked child and turns what comes back into protocol lines, ending with exactly one
``checkmate ...`` line whether the search ends, fails, times out or is stopped.

The engine ``dfpn`` is ``tsumeqbf solve`` itself (:func:`solve_tsume`, same defaults, so
the same answer); the bounded engines (``brute``, the certifying QBF solvers and the
portfolio of them) answer Mate(P, n) for n = 1, 3, ... up to a ply limit and then spell
out the line with more questions of the same engine (:func:`bounded_line`).

>>> from tsumeqbf.rules import Position
>>> out = answer_mate(MateRequest("7k1/9/7G1/9/9/9/9/9/9 b G 1", engine="brute"), lambda *a: None)
>>> out.status is Status.MATE, out.line
(True, ('G*2b',))
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from dataclasses import dataclass, field

from ..dfpn.options import SolveOptions
from ..rules import Position, TsumeError
from ..solvers.runner import certifying_solvers
from ..stop import die_with_parent, signals_held, unhold_signals
from ..values import Answer, Limits, Status, plies

#: engines that answer a bounded question with a first move (a QBF solver that prints no
#: certificate gives none, so it cannot spell out a line; the portfolio's members all do)
BOUNDED_ENGINES = ("brute", *certifying_solvers(), "portfolio")
ENGINES = ("dfpn",) + BOUNDED_ENGINES
STOP_GRACE_S = 0.5  # after SIGTERM, the child is killed if still alive after this
HANDOVER_S = 0.4  # of it, what a stopped search may take to finish a mate's proven line
TIME_GRACE_S = 1.0  # a timed search is stopped this long after its limit, at the latest


@dataclass
class MateRequest:
    sfen: str
    engine: str = "dfpn"
    timeout: float | None = None  # seconds; None: until stopped
    max_plies: int = 15  # bounded engines: the longest mate asked for
    max_nodes: int | None = None
    dfpn: SolveOptions = field(default_factory=SolveOptions)  # engine dfpn: as solve's
    threads: int | None = None  # portfolio: members at once (None: its default, the cores)
    info_every_s: float = 1.0


class _Stopped(KeyboardInterrupt):
    """Raised in the child by SIGTERM; not an Exception, so that no ``except Exception``
    in the search swallows it (the QBF runner kills its solver on any BaseException), and
    a KeyboardInterrupt, so that df-pn stopped after its proof answers with the line it
    has (``solve_tsume``'s ``answer_on_stop``)."""


class _OutOfTime(Exception):
    pass


def info_line(nodes: int, seconds: float, hashfull: int | None, pv: list[str],
              string: str = "") -> str:
    """A USI ``info`` line (``pv`` or ``string`` last, as the protocol wants; the depth
    is the pv's length, and without a pv there is none).

    >>> info_line(2000, 0.5, 12, ["G*2b"])
    'info depth 1 time 500 nodes 2000 nps 4000 hashfull 12 pv G*2b'
    >>> info_line(2000, 0.5, None, [], "mate found")
    'info time 500 nodes 2000 nps 4000 string mate found'
    """
    parts = ["info"] + ([f"depth {len(pv)}"] if pv else [])
    parts += [f"time {int(seconds * 1000)} nodes {nodes}",
              f"nps {int(nodes / seconds) if seconds > 0 else 0}"]
    if hashfull is not None:
        parts.append(f"hashfull {hashfull}")
    if pv:
        parts.append("pv " + " ".join(pv))
    elif string:
        parts.append("string " + string)
    return " ".join(parts)


def answer_mate(request: MateRequest, send) -> Answer:
    """Answer ``request``: its status, its ``line`` (USI moves) when a mate, and ``error``
    when there is one. ``send(kind, text)`` reports progress."""
    pos = Position.from_sfen(request.sfen)
    pos.validate_question()
    if request.engine == "dfpn":
        return _solve_dfpn(pos, request, send)
    if request.engine in BOUNDED_ENGINES:
        return _solve_bounded(pos, request, send)
    raise TsumeError(f"unknown engine {request.engine!r}")


def _solve_dfpn(pos, request: MateRequest, send) -> Answer:
    from ..dfpn.command import shortest_note
    from ..dfpn.solve import solve_tsume

    start = time.monotonic()
    last = [start]

    def progress(search):
        now = time.monotonic()
        if now - last[0] >= request.info_every_s:
            last[0] = now
            full = min(1000, len(search.table) * 1000 // request.dfpn.tt_limit)
            if search.root_numbers[0] == 0:
                # proven: the line searched now is below a check tried for a shorter mate,
                # not a mate, so it is not shown as the pv
                send("info", info_line(search.nodes, now - start, full, [],
                                       "mate found, looking for a shorter one"))
            else:
                send("info", info_line(search.nodes, now - start, full,
                                       [pos.usi(m) for m in search.current_line()]))

    out = solve_tsume(pos, request.dfpn, max_nodes=request.max_nodes, timeout=request.timeout,
                      progress=progress, progress_every=1024, answer_on_stop=True)
    _answer_in_hand()  # (a stop meanwhile ended the search with what it had: said below)
    full = min(1000, out["tt_size"] * 1000 // request.dfpn.tt_limit)
    nodes = out["nodes"] + out.get("after_nodes", 0)  # the proof's, then the searches after it
    send("info", info_line(nodes, time.monotonic() - start, full, out["pv"] or []))
    if out.get("pv"):
        send("info", "info string " + shortest_note(out, asks="the option Shortest"))
    return Answer.from_dict(out)


def _solve_bounded(pos, request: MateRequest, send) -> Answer:
    from ..engines import run_engine

    start = time.monotonic()
    # every question of the search within one deadline
    limits = Limits.within(request.timeout, max_nodes=request.max_nodes)
    options = {"jobs": request.threads} if (request.engine == "portfolio"
                                            and request.threads is not None) else {}
    answers = {}  # (sfen, plies) -> Answer: a line spelt out again asks nothing twice

    def mate(p, k, limits=limits) -> Answer:
        key = (p.sfen(), k)
        if key in answers:
            return answers[key]
        if limits.passed():
            raise _OutOfTime
        answer = run_engine(request.engine, p, k, options=options, limits=limits)
        if answer.status is Status.UNKNOWN:
            raise _OutOfTime
        if answer.status is Status.ERROR:
            raise TsumeError(answer.error or "engine error")
        if answer.verdict and not answer.first_move:
            raise TsumeError(f"{request.engine} gave no first move for a mate")
        answers[key] = answer
        return answer

    def say_depth(n, answer) -> None:
        send("info", f"info depth {n} time {int((time.monotonic() - start) * 1000)} "
                     f"string {answer.status.word} within {plies(n)} ({request.engine})")

    try:
        for n in range(1, request.max_plies + 1, 2):
            answer = mate(pos, n)
            if answer.verdict:
                pv = [pos.usi(m) for m in _proven_line(pos, n, answer, mate, request, say_depth)]
                _answer_in_hand()
                send("info", f"info depth {len(pv)} time {int((time.monotonic() - start) * 1000)} "
                             f"pv {' '.join(pv)}")
                return Answer.decided(True, first_move=pv[0], line=pv)
            say_depth(n, answer)
    except _OutOfTime:
        return Answer.unknown("time or node limit reached")
    if not pos.checks():  # no check at all: no mate at any length
        return Answer.decided(False, facts={"note": "no check: no mate"})
    # a mate may still exist beyond the ply limit: an unfinished search, not no mate
    return Answer.unknown(f"no mate within {plies(request.max_plies)} (option MaxPlies); a "
                          f"longer one is not ruled out")


def _proven_line(pos, n: int, first: Answer, mate, request: MateRequest,
                 say_depth) -> list[int]:
    """:func:`bounded_line` of the mate in ``n`` that ``first`` proved (``say_depth``
    says the depth first). A stop meanwhile does not lose it: the engine waits
    STOP_GRACE_S for the line, so the line is spelt out again within HANDOVER_S
    (``mate`` asks no question twice); a stop then."""
    try:
        say_depth(n, first)
        return bounded_line(pos, n, first, mate)
    except _Stopped:
        grace = Limits.within(HANDOVER_S, max_nodes=request.max_nodes)
        try:
            return bounded_line(pos, n, first, lambda p, k: mate(p, k, limits=grace))
        except _OutOfTime:
            raise _Stopped from None


def bounded_line(pos, n: int, first: Answer, mate) -> list[int]:
    """The line of a shortest mate in ``n`` plies, spelt out with the bounded engine
    ``mate(position, k) -> Answer``: the attacker plays the engine's first move for the
    plies left, the defender the reply after which the attacker's shortest mate is
    longest. ``first`` is the engine's answer at ``pos`` for ``n``."""
    p, line, k, answer = pos.copy(), [], n, first
    while True:
        m = p.parse_usi(answer.first_move)
        p.push(m)
        line.append(m)
        if p.is_checkmate():
            return line
        if k <= 1:
            raise TsumeError(f"the engine's mate in 1 ({p.usi(m)}) does not mate")
        reply = _longest_reply(p, k - 2, mate)
        p.push(reply)
        line.append(reply)
        k -= 2
        answer = mate(p, k)
        if not answer.verdict:
            raise TsumeError(f"the engine disagrees with itself: no mate within {k} "
                             f"after {' '.join(pos.usi(x) for x in line)}")


def _longest_reply(p, left: int, mate) -> int:
    """The defender's reply after which no mate within ``left - 2`` plies exists (within
    ``left - 4`` if there is none, and so on); with ``left`` 1 any reply."""
    replies = p.legal_moves()
    for j in range(left - 2, 0, -2):
        for r in replies:
            p.push(r)
            try:
                shorter = mate(p, j).verdict
            finally:
                p.pop()
            if not shorter:
                return r
    return replies[0]


# -- the child process ---------------------------------------------------------------------
def _on_sigterm(signum, frame):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: a second must not cut the clean-up
    raise _Stopped


def _answer_in_hand() -> None:
    """The search has its answer: a stop from now on would only lose it, so SIGTERM is
    ignored (in the search's child only, where _child set its handler: answer_mate also
    runs in-process)."""
    if signal.getsignal(signal.SIGTERM) is _on_sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _quiet_streams() -> None:
    """Point this process's standard streams at /dev/null: the engine's stdout is the
    GUI's protocol and its stdin the GUI's commands, and nothing of the search (a warning,
    a solver started with the streams it inherits) may write into the one or read the
    other."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    if null > 2:
        os.close(null)


def _child(request: MateRequest, conn, parent: int) -> None:
    _quiet_streams()
    # Ctrl-C and a hang-up reach the whole process group: they are the engine's to act on,
    # and it stops this search with SIGTERM. The engine holds these signals while it forks
    # (its own handlers, inherited, would raise its Stopped here before these are set).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)
    # a search outlives no engine, even one killed with SIGKILL (Linux); the QBF solver
    # is killed with this process in turn (tsumeqbf.solvers.runner)
    die_with_parent(signal.SIGKILL)

    def send(kind, payload):
        conn.send((kind, payload))

    try:
        unhold_signals()  # (a stop sent meanwhile is raised here, where it is caught)
        if os.getppid() != parent:  # the engine died before die_with_parent: no one asks
            return
        try:
            answer = answer_mate(request, send)
        except TsumeError as exc:
            answer = Answer.failed(str(exc))
        except Exception as exc:  # a bug: say so on the protocol rather than die silently
            answer = Answer.failed(f"internal error: {type(exc).__name__}: {exc}")
        _answer_in_hand()
        send("done", answer)
    except (KeyboardInterrupt, OSError):  # (_Stopped is one)
        pass  # stopped, or the engine went away: the parent answers for us
    finally:
        _answer_in_hand()  # a stop that comes now would raise past multiprocessing's exit
        conn.close()


def answer_lines(answer: Answer | None) -> list[str]:
    """The lines that end a ``go mate``: a ``checkmate`` line, after an ``info string``
    when there is something to explain. None means the search was stopped.

    >>> answer_lines(Answer.decided(True, line=["G*2b"]))
    ['checkmate G*2b']
    >>> answer_lines(None)
    ['checkmate timeout']
    """
    if answer is None:
        return ["checkmate timeout"]
    if answer.status is Status.MATE:
        return [f"checkmate {' '.join(answer.line)}"]
    if answer.status is Status.NOMATE:
        note = answer.facts.get("note")
        return ([f"info string {note}"] if note else []) + ["checkmate nomate"]
    if answer.status is Status.UNKNOWN:
        return [f"info string {answer.error or 'limit reached'}", "checkmate timeout"]
    return [f"info string {answer.error or answer.status}", "checkmate notimplemented"]


class MateSearch:
    """One ``go mate`` in a forked child. ``write(line)`` writes a protocol line, always
    under ``lock`` (the engine's own writes take it too): held while forking, so the child
    never inherits a half-written line, and held from the answer to ``finished``, so a
    client that sends the next ``go`` on reading the answer finds this search finished."""

    def __init__(self, request: MateRequest, write, lock):
        self.request, self.write, self.lock = request, write, lock
        self.finished = threading.Event()
        self._timer = None

    def start(self) -> None:
        """Fork the search's child (from a thread that outlives the search: the child is
        killed when the thread that forked it ends, as when the engine is killed)."""
        # fork: nothing re-imported, a search starts at once (spawn where there is no fork)
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        recv, send = ctx.Pipe(duplex=False)
        # a stop signal to the engine waits until the search is whole (child, relay,
        # timer), so that its clean-up finds one to stop; the child unholds them itself
        with signals_held():
            with self.lock:
                self.proc = ctx.Process(target=_child, args=(self.request, send, os.getpid()),
                                        daemon=True)
                self.proc.start()
            send.close()
            threading.Thread(target=self._relay, args=(recv,), daemon=True).start()
            if self.request.timeout is not None:
                self._timer = threading.Timer(self.request.timeout + TIME_GRACE_S, self.stop)
                self._timer.daemon = True
                self._timer.start()

    def _relay(self, conn) -> None:
        result = None
        try:
            while True:
                kind, payload = conn.recv()
                if kind == "info":
                    with self.lock:
                        self.write(payload)
                elif kind == "done":
                    result = payload
                    break
        except (EOFError, OSError):
            pass  # the child ended without an answer: it was stopped
        conn.close()
        self.proc.join()
        if self._timer is not None:
            self._timer.cancel()
        with self.lock:
            for line in answer_lines(result):
                self.write(line)
            self.finished.set()

    def stop(self) -> None:
        """End the search now: SIGTERM (the child stops its QBF solver too), then SIGKILL
        if it is still there after STOP_GRACE_S. The relay then answers ``timeout``."""
        if self.finished.is_set():
            return
        self.proc.terminate()
        self.proc.join(STOP_GRACE_S)
        if self.proc.is_alive():
            self.proc.kill()
        self.finished.wait(STOP_GRACE_S + 1)
