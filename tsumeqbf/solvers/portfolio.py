"""The portfolio engine: complementary QBF configurations side by side, the first verdict wins.

Each member is a configuration of the QBF engine (:func:`tsumeqbf.solvers.engine.solve_mate`),
written as its label in ``results/qbf-real.md``: ``SOLVER/ENCODING[/attacker=M][/defender=M]``
(SOLVER a name or the path of a QDIMACS solver). ``jobs`` members run at once (option
``jobs``, by default the cores this process may use), each in a forked child process that
leads a process group of its own and encodes and solves the question there (so that a
member solved in process, a C call that cannot be interrupted, can still be stopped).
Members that start together and ask the same formula (the same encoding with the same
move choices) share one such process: it encodes and writes the QDIMACS once, then forks
a child per member in its group that runs that member's solver on the file (encoding
``dag-fold`` at 11 plies took 12-13 of the 60 wall seconds in
``results/runs/portfolio-default/``, which two members would pay twice). The
first member to decide the question answers; the others are stopped at once: SIGTERM to
each member's group (the member kills its solver's group and removes its QDIMACS file, as
every QBF engine does on a stop), then SIGKILL to the group; a solver whose member died is
killed by the kernel (:func:`tsumeqbf.stop.die_with_parent`). A member that ends without
a verdict (a crash, its memory share) makes room for the next one in the list.

The limits hold for the whole portfolio: one deadline for every member, the memory
shared evenly between the members that run at once (each member's encoder
and solver keep within their share; the encoder of members that share one, within their
shares together), and a CPU limit (option ``cpu_limit`` of
:func:`tsumeqbf.engines.run_engine`) for the CPU seconds of every member together, their
encoders and solvers counted (:func:`tsumeqbf.usage.tree_cpu_s`, read again when the
members could have used what is left on all the cores, at least :data:`CPU_POLL_S`
apart): once they reach it, every member is stopped. Each member process
also keeps within what was left when it started, its solver by the kernel's RLIMIT_CPU.
A member tells the portfolio each phase of its work as it begins (listing, encoding,
writing, solving: :func:`tsumeqbf.progress.phase`, through its pipe), so that one
stopped at a limit before its own answer came is said to be stopped while in that
phase (``stopped at the portfolio's timeout while encoding``), however late a loaded
machine would have let its own reason come.
(The experiments give a portfolio of ``jobs`` members at once ``jobs`` times a single
solver's CPU limit: the same CPU seconds on each core.) The answer is the winning member's, with
``member`` its label and ``members`` what each member did; under ``certify`` the verdict
is certified in this process by re-asking sub-questions under the winning member's
configuration (:func:`tsumeqbf.solvers.engine.certify_answer`), so that a lying member is
caught like a lying solver. A member whose own root certificate fails the rules (a true
verdict whose first move is no legal check) ends the portfolio with that error: a
disagreement is reported, never outvoted.

Why these members (:data:`DEFAULT_MEMBERS`, in the order they start): first CAQE and
DepQBF on ``dag-fold-reduced`` (the listed positions as a DAG, move codes local to each
position, the last two plies folded into clauses and ply n - 1's universal code reduced
away), which on 2 cores solve one formula side by side; CAQE first, so that it is the
one that runs on a single core. ``dag-fold-reduced`` writes a fifth to a tenth of
``dag-fold``'s clauses at 9 and 11 plies, and on it both decide zukou-050 at 9, which no
configuration decided on ``dag-fold`` (no mate; CAQE 5.4, DepQBF 5.3 CPU s in the
solver, 7.8 to encode), and CAQE mate11-4 at 11 (mate; 16.4 in CAQE, 27.6 with the
encoding; DepQBF 65.2 in the solver). CAQE decides every question of
``results/runs/portfolio-default/`` at d and d - 2 (44) within 60 CPU s each, 74.7 in all,
DepQBF 42 of them (41.3, where CAQE took 33.3) (docs/encodings.md, "dag-fold-reduced").
Before it the first members were DepQBF and CAQE on ``dag-fold``.
In ``results/runs/qbf-dag-fold/`` (60 CPU seconds a question) DepQBF on ``dag-fold``
decides 4 of the 5 YaneuraOu mate-in-11 samples at 11 plies (19.3-43.9 s) and CAQE 2
(mate11-3 and 11-5, which DepQBF decides sooner), both decide musou-065 at 9 (DepQBF
45.0, CAQE 59.4) and all five at 9 plies; CAQE on ``dag-fold`` decides every question CAQE on ``dag`` decides, each
in fewer CPU seconds (the 11 mate-in-7 samples within 0.33 s, ``dag`` 0.83; the 5
mate-in-9 1.1-13.6 s, ``dag`` 3.4-34.5; all 16 at d - 2), DepQBF the 5 mate-in-9 in
1.0-7.4 s. The two together, ``tsumeqbf mate ... --engine portfolio --timeout 60
--certify`` on 2 cores at a 1-minute load of 3.3-6.3 (``results/runs/portfolio-default/``):
every mate-in-7 (verdict within 0.9 wall seconds) and mate-in-9 sample (2.3-15.6) at d
and at d - 2, the 5 mate-in-11 samples at 9, and mate11-3 and 11-5 at 11 (51.7, 37.0 s;
about 0.3 of a core each at that load; on a quieter machine, load 1.6-2.0, 4 of the 5 at
11 and musou-065 at 9), all certified; CAQE answered first on 14 of the 39
questions decided, DepQBF on 25. (CAQE on ``dag`` decided all 5 mate-in-9 samples in
``results/runs/qbf-dag/``, where no other configuration decided one.) DepQBF is put first
since it decides more than CAQE at 11 plies, musou-065 sooner, and in
``qbf-dag-fold-9.csv`` 4 of the 5 mate-in-9 samples sooner. Then CAQE and DepQBF on ``mating``
(``enumerated`` whose last attacker ply offers only mating checks), the first members
before ``dag`` existed, which start when a ``dag-fold-reduced`` member ends without a verdict
(or beside them, given more cores). In ``results/runs/qbf-mating/`` (60 CPU seconds a question) CAQE on it decides 10 of the
11 YaneuraOu mate-in-7 samples, among them mate7-2 and mate7-9, which no configuration on
``enumerated`` decides in qbf-real, and DepQBF 9; CAQE took fewer CPU seconds there than
CAQE on ``enumerated`` took wall seconds in qbf-real on 7 of the 8 samples both decide.
Neither decides a mate-in-9 sample. After them come the
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

import contextlib
import dataclasses
import os
import pickle
import select
import signal
import time
from dataclasses import dataclass, field

from ..encoder.registry import DEFAULT_ENCODING, ENCODINGS
from ..encoder.size import check_plies
from ..rules import Position
from ..niceness import carry_nice
from ..progress import phases_to
from ..stop import Stopped, signals_held, worker_signals
from ..limits import LimitReached
from ..usage import add_child, cpu_left, cpu_limited, tree_cpu_s
from ..settings import setting
from ..values import Answer, Limits, Status, Timings
from .engine import (CertifyOptions, QbfOptions, certify_answer, question_of, solve_written,
                     solve_mate as solve_member, write_question)
from .runner import SolverError

#: the members in the order they start (see the module's docstring for why)
DEFAULT_MEMBERS = ("caqe/dag-fold-reduced", "depqbf/dag-fold-reduced", "caqe/mating",
                   "depqbf/mating",
                   "caqe/enumerated",
                   "rareqs/enumerated", "caqe/enumerated/attacker=onehot-seqcounter",
                   "depqbf/enumerated")
#: a member's label's axis names and the options they set
AXES = {"attacker": "attacker_moves", "defender": "defender_moves"}
#: seconds a stopped member gets to kill its solver and clean up before SIGKILL
STOP_S = 5.0
#: seconds past the deadline during which the members' own answers (their reasons) are
#: still read: each member stops itself at the same deadline. One that has not answered by
#: then is said to be stopped at the portfolio's timeout while in the phase it last told
#: (:data:`PHASES`), so that a loaded machine loses no reason by a short wait
LATE_S = 0.2
#: what a member's pipe carries: a line ``PHASE_TAG + name`` as each phase of its work
#: begins (:func:`tsumeqbf.progress.phase`), then ``ANSWER_TAG`` and its pickled answer
PHASE_TAG, ANSWER_TAG = b"p", b"a"
#: a member's phase as its stop's reason says it (``while ...``)
PHASES = {"listing": "listing the positions", "writing": "writing the QDIMACS"}
#: the least wall seconds between two readings of the members' CPU seconds under a CPU
#: limit (each reads every process's /proc entry)
CPU_POLL_S = 0.2
#: options of the QBF engine that a member carries in its label, not the portfolio
MEMBER_OPTIONS = ("solver", "encoding", "attacker_moves", "defender_moves")


@dataclass(frozen=True)
class PortfolioOptions(CertifyOptions):
    """How the portfolio answers (:mod:`tsumeqbf.settings`): its members, how many run at
    once, and the certification of the winner's verdict; the answer carries it (its
    ``members`` there say what each member did)."""

    members: tuple | None = setting(
        None, "engine portfolio: its configurations, comma-separated, each "
              "SOLVER/ENCODING[/attacker=M][/defender=M] (SOLVER a name or a path; default "
              + ",".join(DEFAULT_MEMBERS) + ")", type=str, metavar="LIST")
    jobs: int | None = None  # members at once (None: the cores this process may use)
    used_kinds_only: bool = False  # every member's (encoding paper)

    def __post_init__(self):
        members = DEFAULT_MEMBERS if self.members is None else self.members
        if isinstance(members, str):
            members = members.split(",")
        members = tuple(m.strip() for m in members if m.strip())
        if not members:
            raise ValueError("the portfolio needs at least one member")
        object.__setattr__(self, "members", members)


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
    members = [parse_member(text) for text in PortfolioOptions.from_config(options).members]
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
    settings = PortfolioOptions.from_config(options)
    jobs = default_jobs() if settings.jobs is None else int(settings.jobs)
    if jobs < 1:
        raise ValueError(f"the portfolio needs at least one job, got {jobs}")
    return members, jobs


def solve_mate(pos: Position, n: int, limits: Limits, options: dict) -> Answer:
    """Engine function (see tsumeqbf.engines): the options of :class:`PortfolioOptions`;
    ``limits``' memory is shared by the members at once."""
    check_plies(n)
    try:
        members, jobs = checked(options)
    except (ValueError, SolverError) as exc:
        return Answer.failed(str(exc))
    settings = PortfolioOptions.from_config(options)
    jobs = min(jobs, len(members))
    memory = limits.memory_mb
    share = dataclasses.replace(limits, memory_mb=None if memory is None
                                else max(1, int(memory) // jobs))
    answer = _race(pos, n, members, jobs, share, {"used_kinds_only": settings.used_kinds_only},
                   cpu_left())
    # the answer carries its options, over the winning member's (its members: what each
    # member did)
    own = settings.row()
    if "members" in answer.facts:
        del own["members"]
    answer = answer.replace(facts=own)
    if settings.certify and answer.status.decided:
        label = answer.facts["member"]
        winner = next(m for m in members if m.label == label)
        answer = certify_answer(pos, n, answer, limits, {**options, **winner.options})
        if answer.status is Status.ERROR:
            answer = answer.replace(error=f"{label}: {answer.error}")
    return answer


@dataclass
class _Process:
    """A process the race forked: one member's, or the encoder of members that share an
    encoding (:func:`_shared`); reaped once the pipes of all its members are closed."""
    pid: int  # 0 once reaped (its CPU seconds then counted by add_child)
    open: int  # its members' pipes still open


@dataclass
class _Running:
    member: Member
    proc: _Process
    fd: int  # the read end of the pipe the member's answer comes through
    started: float
    data: bytearray = field(default_factory=bytearray)


def _race(pos: Position, n: int, members: list[Member], jobs: int, limits: Limits,
          shared: dict, cpu_s: float | None = None) -> Answer:
    """Run the members, ``jobs`` at once, each within ``limits``, until one decides; stop
    the rest. ``cpu_s``: the CPU seconds all members may use together (None: no limit)."""
    start = time.monotonic()
    deadline = limits.deadline
    queue = list(members)
    running: dict[int, _Running] = {}
    done: list[dict] = []  # what each member did, in the order they ended
    procs: list[_Process] = []
    limit, cores = cpu_s, default_jobs()  # at most a core a process: the members' pace

    def cpu_left_now() -> float | None:  # this process's own seconds count too
        if limit is None:
            return None
        # (cpu_left() has spent the processes reaped: add_child counted them)
        return cpu_left() - tree_cpu_s([p.pid for p in procs if p.pid])
    try:
        while queue or running:
            left = cpu_left_now()
            if left is not None and left <= 0:
                return _undecided(done + _stopped(running.values(), "CPU limit"), limits)
            if queue and len(running) < jobs and not limits.passed():
                starting = queue[:jobs - len(running)]
                del queue[:len(starting)]
                for group in _by_encoding(starting, shared):
                    for child in _start(group, pos, n, limits, shared, left):
                        running[child.fd] = child
                        if not any(p is child.proc for p in procs):
                            procs.append(child.proc)
            if not running:
                break
            wait = None if deadline is None else deadline + LATE_S - time.monotonic()
            if wait is not None and wait <= 0:
                break
            if limit is not None:  # read again before the members could have used what is left
                reading = max(CPU_POLL_S, left / cores)
                wait = reading if wait is None else min(wait, reading)
            # (a wait past what select takes, a day at most: the loop reads the clocks again)
            ready, _, _ = select.select(list(running), [], [], None if wait is None else min(wait, 86400))
            for fd in ready:
                chunk = os.read(fd, 1 << 16)
                if chunk:
                    running[fd].data += chunk
                    continue
                child = running.pop(fd)
                answer = _ended(child)
                done.append(_summary(child.member, answer))
                if answer.status.decided or _lied(answer):
                    return _answer(answer, child.member, done, running.values(), start)
        return _undecided(done + _stopped(running.values(), "timeout"), limits)
    finally:
        _stop(list(running.values()))


def _by_encoding(members: list[Member], shared: dict) -> list[list[Member]]:
    """``members`` (starting together) in groups that ask the same formula: the same
    encoding with the same choices, in the order of their first member."""
    groups: dict[tuple, list[Member]] = {}
    for member in members:
        settings = QbfOptions.from_config({**shared, **member.options})
        key = (settings.encoding, tuple(sorted(settings.choices().items())))
        groups.setdefault(key, []).append(member)
    return list(groups.values())


def _start(group: list[Member], pos: Position, n: int, limits: Limits,
           shared: dict, cpu_s: float | None = None) -> list[_Running]:
    """Fork a process for ``group`` (members that share an encoding), leading a process
    group of its own, within ``cpu_s`` CPU seconds (None: no limit); each member's answer
    comes pickled through a pipe of its own."""
    pipes = [os.pipe() for _ in group]
    writes = [write_end for _, write_end in pipes]

    def work() -> int:
        # on this process's clock, which began at the fork; the encoder's phases are
        # those of every member that shares it
        with cpu_limited(cpu_s), _telling(*writes):
            if len(group) == 1:
                return _member(group[0], pos, n, limits, shared, writes[0])
            return _shared(group, pos, n, limits, shared, writes)
    pid = _fork(work, closing=[read_end for read_end, _ in pipes], leader=True)
    for _, write_end in pipes:
        os.close(write_end)
    proc, now = _Process(pid, len(group)), time.monotonic()
    return [_Running(member, proc, read_end, now) for member, (read_end, _) in zip(group, pipes)]


def _fork(work, closing=(), leader: bool = False) -> int:
    """Fork a child that closes the descriptors ``closing``, is stopped by SIGTERM or by
    this process's death, leads a process group of its own if ``leader`` (at this
    process's nice value), runs ``work()`` and exits with the status it returns (143 if
    it raised); this process gets its pid. Whatever happens, the child ends here, never
    in the caller's code."""
    parent = os.getpid()
    with signals_held():  # the child unholds them once its own handlers are set
        pid = os.fork()
    if pid == 0:
        status = 143
        try:
            for fd in closing:
                os.close(fd)
            if leader:
                os.setsid()
                carry_nice()
            worker_signals(parent)
            status = work()
        finally:
            os._exit(status)
    return pid


def _member(member: Member, pos: Position, n: int, limits: Limits, shared: dict,
            write_end: int) -> int:
    """In a forked member (stopped by SIGTERM, or by the death of the thread that
    started it): it encodes and solves; its answer pickled into ``write_end``."""
    return _answering(write_end, lambda: solve_member(pos, n, limits,
                                                      {**shared, **member.options}))


def _answering(write_end: int, answer_of) -> int:
    """Pickle ``answer_of()`` into ``write_end``; the process's exit status."""
    status = 0
    try:
        answer = answer_of()
    except Stopped:
        return 143
    except LimitReached as exc:  # its CPU seconds, outside the engine's own limits
        answer = Answer.unknown(exc.reason)
    except Exception as exc:  # a bug in the member: its one line, not a traceback
        answer = Answer.failed(f"internal error: {type(exc).__name__}: {exc}")
        status = 1
    with os.fdopen(write_end, "wb") as out:
        out.write(ANSWER_TAG)
        pickle.dump(answer, out)
    return status


def _telling(*write_ends: int):
    """Within the block, each phase of the work told through ``write_ends``: a line short
    enough (under PIPE_BUF) that the pipe takes it whole."""
    def report(name: str) -> None:
        line = PHASE_TAG + name.encode()[:200] + b"\n"
        for write_end in write_ends:
            with contextlib.suppress(OSError):  # the portfolio has gone: the member will too
                os.write(write_end, line)
    return phases_to(report)


def _read(data: bytes) -> tuple[str | None, bytes]:
    """The phase a member's pipe last told (None: none yet) and its pickled answer (empty
    while it has not come).

    >>> _read(b"pencoding\\npsolving\\npwri")
    ('solving', b'')
    """
    said, at = None, 0
    while data.startswith(PHASE_TAG, at):
        end = data.find(b"\n", at)
        if end < 0:
            break
        said, at = data[at + len(PHASE_TAG):end].decode(errors="replace"), end + 1
    return said, data[at + len(ANSWER_TAG):] if data.startswith(ANSWER_TAG, at) else b""


def _shared(group: list[Member], pos: Position, n: int, limits: Limits, shared: dict,
            writes: list[int]) -> int:
    """In the forked process of members that share an encoding: it encodes and writes the
    question once (its memory the members' shares together), then forks one child per
    member, in its process group, which runs that member's solver on the file and pickles
    its answer into the member's pipe; it waits for them and removes the file."""
    options = [{**shared, **member.options} for member in group]
    encoder = limits if limits.memory_mb is None else dataclasses.replace(
        limits, memory_mb=limits.memory_mb * len(group))
    try:
        written = write_question(pos, n, encoder, options[0])
    except Stopped:
        return 143
    except Exception as exc:  # a bug in the encoder: every member says it
        written = Answer.failed(f"internal error: {type(exc).__name__}: {exc}")
    path = getattr(written, "path", None)
    children, cpu_s = [], cpu_left()
    try:
        for i, write_end in enumerate(writes):
            def work() -> int:
                # what the encoder left, on this clock
                with cpu_limited(cpu_s), _telling(write_end):
                    return _answering(write_end, lambda: solve_written(
                        pos, written, limits, options[i]))
            children.append(_fork(work, closing=writes[:i] + writes[i + 1:]))
        for write_end in writes:
            os.close(write_end)
        for pid in children:
            os.waitpid(pid, 0)
        return 0
    except Stopped:  # each child kills its solver's group, as a member does
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        for pid in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
        return 143
    finally:
        if path is not None:
            os.unlink(path)


def _ended(child: _Running) -> Answer:
    """The answer of a member whose pipe is closed (it wrote it, or it died); its process
    is reaped once none of its members' pipes is open."""
    os.close(child.fd)
    proc, code = child.proc, None
    proc.open -= 1
    if proc.open == 0:
        _, code, usage = os.wait4(proc.pid, 0)
        add_child(usage)  # the members' CPU seconds and their solvers', in the engine's
        proc.pid = 0
    try:
        answer = pickle.loads(_read(bytes(child.data))[1])
    except Exception:
        how = ("" if code is None else f" ({f'signal {os.WTERMSIG(code)}' if os.WIFSIGNALED(code) else f'exit code {os.waitstatus_to_exitcode(code)}'})")
        answer = Answer.failed(f"the member died{how}")
    return answer.replace(timings={"time_s": round(time.monotonic() - child.started, 6)})


def _lied(answer: Answer) -> bool:
    """A member whose solver's own certificate failed the rules (a disagreement)."""
    return answer.status is Status.ERROR and answer.facts.get("solver_verdict") is not None


def _summary(member: Member, answer: Answer) -> dict:
    """What a member did, as the answer's ``members`` list says it: its label, status,
    seconds and the reason it gave."""
    return {"member": member.label, **answer.summary()}


def _stopped(children, limit: str) -> list[dict]:
    """What members still at work when the portfolio stopped at its ``limit`` did: unknown,
    the reason naming the phase each last told."""
    said = []
    for child in children:
        now = _read(bytes(child.data))[0]
        reason = f"stopped at the portfolio's {limit}" + (
            "" if now is None else f" while {PHASES.get(now, now)}")
        said.append(_summary(child.member, Answer.unknown(
            reason, timings=Timings(time_s=round(time.monotonic() - child.started, 6)))))
    return said


def _answer(answer: Answer, member: Member, done: list[dict], losers, start: float) -> Answer:
    stopped = [{"member": c.member.label, "status": "stopped",
                "time_s": round(time.monotonic() - c.started, 6)} for c in losers]
    out = answer.replace(facts={"member": member.label, "members": done + stopped},
                         timings={"time_s": round(time.monotonic() - start, 6)})
    return out.replace(error=f"{member.label}: {answer.error}") if _lied(answer) else out


def _undecided(done: list[dict], limits: Limits) -> Answer:
    """No member decided: unknown when one ran out of its limits, else an error."""
    said = [Answer.from_dict(d) for d in done]
    status = (Status.UNKNOWN if any(a.status is Status.UNKNOWN for a in said)
              else Status.ERROR)
    reasons = "; ".join(f"{d['member']}: {a.error or a.status}" for d, a in zip(done, said))
    if not done:
        reasons = ("the deadline passed before any member started" if limits.seconds is None
                   else f"timeout after {limits.seconds:.1f} s before any member started")
    return Answer(status, error=f"no member decided ({reasons})",
                  facts={"member": None, "members": done})


def _stop(children: list[_Running]) -> None:
    """Stop members: SIGTERM to each process group (each member ends its solver's group
    and exits), SIGKILL to the group once its leader has exited or ``STOP_S`` later, then
    reap the leader. A group is signalled while its leader is not yet reaped, so that its
    id cannot have been reused."""
    procs = list({id(c.proc): c.proc for c in children if c.proc.pid}.values())
    for proc in procs:
        _signal_group(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_S
    for proc in procs:
        while time.monotonic() < deadline and not _exited(proc.pid):
            time.sleep(0.01)
        _signal_group(proc.pid, signal.SIGKILL)
        add_child(os.wait4(proc.pid, 0)[2])
        proc.pid = 0
    for child in children:
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

