"""The portfolio engine: complementary QBF configurations side by side, the first verdict wins.

Each member is a configuration of the QBF engine (:func:`tsumeqbf.solvers.engine.solve_mate`),
written as its label in ``results/qbf-real.md``: ``SOLVER/ENCODING[/attacker=M][/defender=M]``
(SOLVER a name or the path of a QDIMACS solver). ``jobs`` members run at once (option
``jobs``, by default the cores this process may use), each in a forked child process that
leads a process group of its own and encodes and solves the question there (so that a
member solved in process, a C call that cannot be interrupted, can still be stopped). The
first member to decide the question answers; the others are stopped at once: SIGTERM to
each member's group (the member kills its solver's group and removes its QDIMACS file, as
every QBF engine does on a stop), then SIGKILL to the group; a solver whose member died is
killed by the kernel (:func:`tsumeqbf.stop.die_with_parent`). A member that ends without
a verdict (a crash, its memory share) makes room for the next one in the list.

The limits hold for the whole portfolio: one deadline (``timeout``) for every member, and
``memory_mb`` shared evenly between the members that run at once (each member's encoder
and solver keep within their share). The answer is the winning member's, with
``member`` its label and ``members`` what each member did; under ``certify`` the verdict
is certified in this process by re-asking sub-questions under the winning member's
configuration (:func:`tsumeqbf.solvers.engine.certify_answer`), so that a lying member is
caught like a lying solver. A member whose own root certificate fails the rules (a true
verdict whose first move is no legal check) ends the portfolio with that error: a
disagreement is reported, never outvoted.

Why these members (:data:`DEFAULT_MEMBERS`, in the order they start): first CAQE and
DepQBF on ``mating`` (``enumerated`` whose last attacker ply offers only mating checks).
In ``results/runs/qbf-mating/`` (60 CPU seconds a question) CAQE on it decides 10 of the
11 YaneuraOu mate-in-7 samples, among them mate7-2 and mate7-9, which no configuration on
``enumerated`` decides in qbf-real, and DepQBF 9; CAQE took fewer CPU seconds there than
CAQE on ``enumerated`` took wall seconds in qbf-real on 7 of the 8 samples both decide.
CAQE on ``mating`` decides no mate-in-9 sample (DepQBF was not asked). After them come the
members chosen before ``mating`` existed, from ``results/qbf-real.csv`` (60 s a question,
two cells at once on 2 cores), where no configuration decides a question at 9 or 11 plies
and up to 7 plies the four enumerated configurations differ mostly in speed. CAQE on
``enumerated`` decides the most (45 of the 48 questions all four were asked, PAR-2 10.7 s)
and alone decides yaneuraou-mate7-10. Beside it RAReQS on ``enumerated`` (a different
algorithm, recursive abstraction refinement, where CAQE refines clausal abstractions)
makes the pair that decides the most at every limit up to 10 s (39 within 5 s, 41 within
10 s, against 38 and 40 for CAQE with any other partner):
it is fastest on yaneuraou-mate5-1, mate5-8 and mate7-4 (5.4 s, CAQE 10.6 s). Then CAQE
with one-hot attacker moves (fastest on mate5-2, mate5-3, mate5-10 and mate7-3, 22.7 s
against 35.5 s), which takes the best pair's PAR-2 from 10.6 s to 10.2 s; last DepQBF on
``enumerated``, a search solver (QCDCL), fastest on mate5-4 and the paper's figures, and
the one solver besides CAQE asked at 9 and 11 plies. Configurations on ``compact``, QFun
and Qute decide nothing that these do not decide sooner.

>>> parse_member("caqe/enumerated/attacker=onehot-seqcounter").options
{'solver': 'caqe', 'encoding': 'enumerated', 'attacker_moves': 'onehot-seqcounter'}
>>> parse_member("depqbf").label
'depqbf/enumerated'
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
from dataclasses import dataclass, field

from ..encoder.registry import DEFAULT_ENCODING, ENCODINGS
from ..encoder.size import check_plies
from ..rules import Position
from ..stop import Stopped, signals_held, worker_signals
from ..usage import add_child
from .engine import certify_answer, question_of, solve_mate as solve_member
from .runner import SolverError

#: the members in the order they start (see the module's docstring for why)
DEFAULT_MEMBERS = ("caqe/mating", "depqbf/mating", "caqe/enumerated", "rareqs/enumerated",
                   "caqe/enumerated/attacker=onehot-seqcounter", "depqbf/enumerated")
#: a member's label's axis names and the options they set
AXES = {"attacker": "attacker_moves", "defender": "defender_moves"}
#: seconds a stopped member gets to kill its solver and clean up before SIGKILL
STOP_S = 5.0
#: seconds past the deadline during which the members' own answers (their reasons) are
#: still read: each member stops itself at the same deadline
LATE_S = 0.2
#: options of the QBF engine that a member carries in its label, not the portfolio
MEMBER_OPTIONS = ("solver", "encoding", "attacker_moves", "defender_moves")


@dataclass(frozen=True)
class Member:
    """One configuration: ``label`` (as the experiments write it) and the QBF engine's
    options it sets."""
    label: str
    options: dict = field(hash=False)


def parse_member(text: str) -> Member:
    """The member a label names; ValueError with one line for an unknown axis."""
    parts = text.strip().split("/")
    axes = {}
    while parts and "=" in parts[-1]:
        key, _, value = parts.pop().partition("=")
        if key not in AXES:
            raise ValueError(f"portfolio member {text!r}: unknown axis {key!r}; choose "
                             f"{' or '.join(AXES)}")
        axes[AXES[key]] = value
    encoding = parts.pop() if len(parts) > 1 and parts[-1] in ENCODINGS else DEFAULT_ENCODING
    solver = "/".join(parts)
    if not solver:
        raise ValueError(f"portfolio member {text!r} names no solver")
    label = "/".join([solver, encoding] + [f"{k}={axes[v]}" for k, v in AXES.items() if v in axes])
    return Member(label, {"solver": solver, "encoding": encoding, **axes})


def members_of(options: dict) -> list[Member]:
    """The members that option ``members`` names (a list of labels, or one string of
    labels separated by commas), :data:`DEFAULT_MEMBERS` without it; each checked (its
    encoding, its axes, its solver installed): ValueError or SolverError with one line."""
    given = options.get("members") or DEFAULT_MEMBERS
    if isinstance(given, str):
        given = given.split(",")
    members = [parse_member(text) for text in given if text.strip()]
    if not members:
        raise ValueError("the portfolio needs at least one member")
    for member in members:
        try:
            question_of(member.options)
        except (ValueError, SolverError) as exc:
            raise type(exc)(f"portfolio member {member.label}: {exc}") from None
    return members


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def checked(options: dict) -> tuple[list[Member], int]:
    """The members and the number run at once that ``options`` ask for; ValueError or
    SolverError with one line for an option that the members carry, a member that cannot
    run or fewer than one job (the command line says so before any question)."""
    mixed = [name for name in MEMBER_OPTIONS if options.get(name)]
    if mixed:
        raise ValueError(f"the portfolio's members carry their own {', '.join(mixed)}; name "
                         f"them with --members (e.g. caqe/enumerated,rareqs/compact)")
    members = members_of(options)
    jobs = default_jobs() if options.get("jobs") is None else int(options["jobs"])
    if jobs < 1:
        raise ValueError(f"the portfolio needs at least one job, got {jobs}")
    return members, jobs


def solve_mate(pos: Position, n: int, timeout: float | None, options: dict) -> dict:
    """Engine function (see tsumeqbf.engines): options ``members``, ``jobs``,
    ``memory_mb`` and the QBF engine's ``certify`` options."""
    check_plies(n)
    try:
        members, jobs = checked(options)
    except (ValueError, SolverError) as exc:
        return _error(str(exc))
    jobs = min(jobs, len(members))
    memory = options.get("memory_mb")
    share = None if memory is None else max(1, int(memory) // jobs)
    extra = {k: v for k, v in options.items() if k == "used_kinds_only"}
    result = _race(pos, n, members, jobs, timeout, {**extra, "memory_mb": share})
    if options.get("certify") and result["status"] in ("mate", "nomate"):
        winner = next(m for m in members if m.label == result["member"])
        result.update(certify_answer(pos, n, result, timeout, {**options, **winner.options}))
        if result["status"] == "error":
            result["error"] = f"{result['member']}: {result['error']}"
    return result


@dataclass
class _Running:
    member: Member
    pid: int
    fd: int  # the read end of the pipe the member's answer comes through
    started: float
    data: bytearray = field(default_factory=bytearray)


def _race(pos: Position, n: int, members: list[Member], jobs: int, timeout: float | None,
          shared: dict) -> dict:
    """Run the members, ``jobs`` at once, until one decides; stop the rest."""
    start = time.monotonic()
    deadline = None if timeout is None else start + timeout
    queue = list(members)
    running: dict[int, _Running] = {}
    done: list[dict] = []  # what each member did, in the order they ended
    try:
        while queue or running:
            while queue and len(running) < jobs and (deadline is None
                                                     or time.monotonic() < deadline):
                left = None if deadline is None else max(0.001, deadline - time.monotonic())
                child = _start(queue.pop(0), pos, n, left, shared)
                running[child.fd] = child
            if not running:
                break
            wait = None if deadline is None else deadline + LATE_S - time.monotonic()
            if wait is not None and wait <= 0:
                break
            ready, _, _ = select.select(list(running), [], [], wait)
            for fd in ready:
                chunk = os.read(fd, 1 << 16)
                if chunk:
                    running[fd].data += chunk
                    continue
                child = running.pop(fd)
                answer = _ended(child)
                done.append(_summary(child.member, answer))
                if answer["status"] in ("mate", "nomate") or _lied(answer):
                    return _answer(answer, child.member, done, running.values(), start)
        for child in running.values():
            done.append({"member": child.member.label, "status": "unknown",
                         "time_s": round(time.monotonic() - child.started, 6),
                         "error": "stopped at the portfolio's timeout"})
        return _undecided(done, timeout)
    finally:
        _stop(list(running.values()))


def _start(member: Member, pos: Position, n: int, timeout: float | None,
           shared: dict) -> _Running:
    """Fork a member: a process group of its own, its answer pickled into a pipe."""
    read_end, write_end = os.pipe()
    parent = os.getpid()
    with signals_held():  # the child unholds them once its own handlers are set
        pid = os.fork()
    if pid == 0:  # the member: whatever happens, it ends here, never in the caller's code
        status = 143
        try:
            os.close(read_end)
            status = _member(member, pos, n, timeout, shared, parent, write_end)
        finally:
            os._exit(status)
    os.close(write_end)
    return _Running(member, pid, read_end, time.monotonic())


def _member(member: Member, pos: Position, n: int, timeout: float | None, shared: dict,
            parent: int, write_end: int) -> int:
    """In the forked member: a process group of its own, stopped by SIGTERM (or by the
    death of the thread that started it); its answer pickled into ``write_end``."""
    os.setsid()
    worker_signals(parent)
    status = 0
    try:
        answer = solve_member(pos, n, timeout, {**shared, **member.options})
    except Stopped:
        return 143
    except Exception as exc:  # a bug in the member: its one line, not a traceback
        answer = {"status": "error", "mate": None,
                  "error": f"internal error: {type(exc).__name__}: {exc}"}
        status = 1
    with os.fdopen(write_end, "wb") as out:
        pickle.dump(answer, out)
    return status


def _ended(child: _Running) -> dict:
    """The answer of a member whose pipe is closed (it wrote it, or it died)."""
    os.close(child.fd)
    _, code, usage = os.wait4(child.pid, 0)
    add_child(usage)  # the member's CPU seconds and its solver's, in the engine's
    child.pid = 0
    try:
        answer = pickle.loads(bytes(child.data))
    except Exception:
        how = (f"signal {os.WTERMSIG(code)}" if os.WIFSIGNALED(code)
               else f"exit code {os.waitstatus_to_exitcode(code)}")
        answer = {"status": "error", "mate": None, "error": f"the member died ({how})"}
    answer["time_s"] = round(time.monotonic() - child.started, 6)
    return answer


def _lied(answer: dict) -> bool:
    """A member whose solver's own certificate failed the rules (a disagreement)."""
    return answer["status"] == "error" and answer.get("solver_verdict") is not None


def _summary(member: Member, answer: dict) -> dict:
    out = {"member": member.label, "status": answer["status"], "time_s": answer["time_s"]}
    if answer.get("error"):
        out["error"] = answer["error"]
    return out


def _answer(answer: dict, member: Member, done: list[dict], losers, start: float) -> dict:
    stopped = [{"member": c.member.label, "status": "stopped",
                "time_s": round(time.monotonic() - c.started, 6)} for c in losers]
    out = {**answer, "member": member.label, "members": done + stopped}
    out["time_s"] = round(time.monotonic() - start, 6)
    if _lied(answer):
        out["error"] = f"{member.label}: {answer['error']}"
    return out


def _undecided(done: list[dict], timeout: float | None) -> dict:
    """No member decided: unknown when one ran out of its limits, else an error."""
    status = "unknown" if any(d["status"] == "unknown" for d in done) else "error"
    reasons = "; ".join(f"{d['member']}: {d.get('error') or d['status']}" for d in done)
    if not done:
        reasons = f"timeout after {timeout:.1f} s before any member started"
    return {"status": status, "mate": None, "member": None, "members": done,
            "error": f"no member decided ({reasons})"}


def _stop(children: list[_Running]) -> None:
    """Stop members: SIGTERM to each group (the member ends its solver's group and
    exits), SIGKILL to the group once the member has exited or ``STOP_S`` later, then
    reap it. The group is signalled while its leader is not yet reaped, so that its id
    cannot have been reused."""
    children = [c for c in children if c.pid]
    for child in children:
        _signal_group(child.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_S
    for child in children:
        while time.monotonic() < deadline and not _exited(child.pid):
            time.sleep(0.01)
        _signal_group(child.pid, signal.SIGKILL)
        add_child(os.wait4(child.pid, 0)[2])
        os.close(child.fd)


def _exited(pid: int) -> bool:
    """Whether ``pid`` has ended (left unreaped)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _signal_group(pid: int, signum: int) -> None:
    """Signal member ``pid``'s group, and the member itself (it may not lead its group
    yet when it has only just been forked)."""
    for send in (os.killpg, os.kill):
        try:
            send(pid, signum)
        except (ProcessLookupError, PermissionError):
            pass


def _error(message: str) -> dict:
    return {"status": "error", "mate": None, "error": message}
