"""A prenex CNF formula built as a circuit, and its QDIMACS form.

Variables live on quantifier *levels*: even levels are existential, odd levels universal,
level 0 outermost. Gates (AND/OR of literals) are Tseitin-defined in full (both
directions), so each gate is a function of its inputs; a gate is placed on the earliest
existential level at or after its inputs' levels. With ``polarity`` the written formula
keeps of each definition only the directions in which the gate is used (Plaisted and
Greenbaum), plus the facts an encoding grounds for their own sake (``keep``). Constants are the Python booleans
``True``/``False`` and fold away as gates are built; equal gates are built once.

>>> f = Formula()
>>> x, y = f.var("x", 0), f.var("y", 1)
>>> f.add_clause([f.and_([x, y]), -x])
>>> print(f.to_qdimacs().splitlines()[:4])
['p cnf 3 4', 'e 1 0', 'a 2 0', 'e 3 0']

Variable numbers come from a PySAT :class:`~pysat.formula.IDPool`: a named variable is
the pool's id of its name, so a name given twice is an error rather than two variables
under one name, and a library that takes the pool (PySAT's ``CardEnc``) draws its
auxiliary variables from the same numbering (:meth:`Formula.adopt`).

>>> f.pool.obj(x), f.pool.id("y") == y
('x', True)
>>> f.var("x", 2)
Traceback (most recent call last):
ValueError: variable name 'x' is given twice

Building and writing a formula can be bounded from outside the encoder: inside
``with tsumeqbf.limits.limits(deadline=..., memory_mb=...)`` every formula checks the
clock, this process's resident memory and the memory the machine has left every
``CHECK_EVERY`` gates and clauses (the writers every ``16 * CHECK_EVERY`` clauses), and
raises :class:`tsumeqbf.limits.LimitReached` past a limit.

>>> import time
>>> from tsumeqbf.limits import limits
>>> f = Formula()
>>> with limits(deadline=time.monotonic() + 60) as budget:
...     budget.deadline = time.monotonic() - 1  # past, as if the encoding had run long
...     for i in range(CHECK_EVERY + 1):
...         _ = f.and_([f.var(f"x{i}", 0), f.var(f"y{i}", 0)])
Traceback (most recent call last):
tsumeqbf.limits.LimitReached: timeout while encoding
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pysat.formula import IDPool

from ..limits import check_budget

Lit = "int | bool"

#: gates asked for and clauses added between two budget checks. Hashed gates count too:
#: on 9x9 the encoder asks for ~300,000 gates a second, most of them found built, while
#: it creates ~1,000 new variables (measured on 将棋図巧 no. 2 at 9 plies), so counting
#: new variables alone would check every few seconds. A check costs a clock read, a read
#: of /proc/meminfo (the machine's reserve) and, with a memory limit, one of
#: /proc/self/statm (~30 us in all); every 4096 asks is ~100 checks a second.
CHECK_EVERY = 4096


@dataclass
class Formula:
    levels: list[int] = field(default_factory=lambda: [0])  # levels[v] for v >= 1
    #: names[v]: the variable's name, or for a gate the role it was labelled with ("" if none)
    names: list[str] = field(default_factory=lambda: [""])
    #: the variable numbering: named variables by name, gates and auxiliaries unnamed
    pool: IDPool = field(default_factory=IDPool, repr=False)
    clauses: list[list[int]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    _gates: dict = field(default_factory=dict)
    #: a literal that guards the definitions of new gates: while it is false they are
    #: not enforced. Sound when every clause that uses such a gate is itself satisfied by
    #: the guard being false (a game encoding's "this line is over" literal); it lets a
    #: solver see every clause satisfied as soon as a line of play ends.
    guard: object = True
    #: define each gate only in the directions its uses need (Plaisted-Greenbaum): a gate
    #: used only positively keeps ``g -> inputs``, only negatively ``inputs -> g``
    polarity: bool = False
    #: gate -> (index of its first definition clause, number of inputs)
    _defs: dict = field(default_factory=dict)
    #: literals whose gate definitions are kept whatever their use (see ``keep``)
    _kept: list = field(default_factory=list)
    #: the move choices by the name their variables are named after (``m3``, ``w4``): a
    #: strategy's moves are turned back into these variables' values (solvers.formula_check)
    choices: dict = field(default_factory=dict, repr=False, compare=False)
    #: gates asked for and clauses added since the last budget check
    _work: int = field(default=0, repr=False, compare=False)

    def _checkpoint(self) -> None:
        self._work = 0
        check_budget()

    # -- variables -----------------------------------------------------------------------
    def var(self, name: str, level: int) -> int:
        """A new variable on ``level``: named (``name``, unique in the formula) or, with
        ``""``, an unnamed one (a gate)."""
        v = self.pool.id(name) if name else self.pool.id()
        if v != len(self.levels):  # the pool knew the name: it returned the old number
            raise ValueError(f"variable name {name!r} is given twice")
        self.levels.append(level)
        self.names.append(name)
        return v

    def adopt(self, level: int, prefix: str) -> None:
        """Place on ``level`` the variables a library drew from :attr:`pool` since the last
        one this formula made (CardEnc's auxiliaries), named ``prefix`` + number."""
        while len(self.levels) <= self.pool.top:
            self.levels.append(level)
            self.names.append(f"{prefix}{len(self.levels) - 1}")

    def keep(self, lit, both: bool = True) -> None:
        """Keep the definition of a gate even where no clause uses it (a fact that the
        encoding grounds for its own sake): both directions, or with ``both=False`` only
        the one that ``lit`` as a positive use needs."""
        if not isinstance(lit, bool):
            self._kept += [lit, -lit] if both else [lit]

    def label(self, lit, name: str) -> None:
        """Name a gate by its role (the first name given sticks)."""
        if not isinstance(lit, bool) and not self.names[abs(lit)]:
            self.names[abs(lit)] = name if lit > 0 else f"not_{name}"

    @property
    def num_vars(self) -> int:
        return len(self.levels) - 1

    def level(self, lit) -> int:
        return 0 if isinstance(lit, bool) else self.levels[abs(lit)]

    # -- gates ---------------------------------------------------------------------------
    def and_(self, lits, tag: str = "") -> "int | bool":
        """A literal equal to the conjunction of ``lits`` (folded, hashed). Gates of
        different ``tag`` are never shared (a circuit that is used in one polarity only
        keeps its own gates, so that their definitions stay one-directional)."""
        self._work += 1  # inlined: this runs for every gate asked for
        if self._work >= CHECK_EVERY:
            self._checkpoint()
        seen: set[int] = set()
        add = seen.add
        for lit in lits:
            if lit is True:
                continue
            if lit is False or -lit in seen:
                return False
            add(lit)
        if len(seen) < 2:
            return next(iter(seen)) if seen else True
        key = (tag, frozenset(seen)) if tag else frozenset(seen)
        g = self._gates.get(key)
        if g is None:
            levels = self.levels
            level = max([levels[x if x > 0 else -x] for x in seen])
            level += level & 1  # gates are existential: the next level up if universal
            g = self.var("", level)
            clauses = self.clauses
            self._defs[g] = (len(clauses), len(seen))
            # a guarded definition holds only while the guard does (see ``guard``)
            if self.guard is True:
                clauses += [[-g, x] for x in seen]
                clauses.append([g] + [-x for x in seen])
            else:
                off = neg(self.guard)
                clauses += [[-g, x, off] for x in seen]
                clauses.append([g] + [-x for x in seen] + [off])
            self._gates[key] = g
        return g

    def or_(self, lits, tag: str = "") -> "int | bool":
        return neg(self.and_((neg(x) for x in lits), tag))

    def ite(self, cond, then, other) -> "int | bool":
        return self.or_([self.and_([cond, then]), self.and_([neg(cond), other])])

    # -- clauses -------------------------------------------------------------------------
    def add_clause(self, lits) -> None:
        """Add a clause; ``True`` literals satisfy it, ``False`` ones drop out."""
        self._work += 1
        if self._work >= CHECK_EVERY:
            self._checkpoint()
        out: list[int] = []
        for lit in lits:
            if lit is True:
                return
            if lit is False:
                continue
            if -lit in out:
                return
            if lit not in out:
                out.append(lit)
        self.clauses.append(out)  # may be empty: the writer turns that into a false formula

    def assert_(self, lit) -> None:
        self.add_clause([lit])

    # -- output --------------------------------------------------------------------------
    def prefix_and_matrix(self):
        """Renumbered (prefix, clauses, old_of_new): only variables that occur, blocks merged.

        The prefix is a list of (quantifier, [vars]) with alternating quantifiers and no
        empty block. An empty clause makes the whole formula false, written as x and -x.
        Inside :func:`tsumeqbf.limits.limits` the budget is checked as the clauses are
        gone through.
        """
        clauses = self._needed_clauses() if self.polarity else self.clauses
        occurring: set[int] = set()
        for chunk in chunks(clauses):
            if not all(chunk):  # an empty clause
                return [("e", [1])], [[1], [-1]], [0, 0]
            occurring.update(abs(x) for c in chunk for x in c)
        used = sorted(occurring, key=lambda v: (self.levels[v], v))
        del occurring
        new_of = {v: i + 1 for i, v in enumerate(used)}
        prefix = self.blocks(used, new_of)
        clauses = self.renumbered(new_of, clauses)
        # innermost universals quantify nothing below them: drop them (universal reduction)
        if prefix and prefix[-1][0] == "a":
            dropped = set(prefix.pop()[1])
            clauses = [[x for x in c if abs(x) not in dropped]
                       for chunk in chunks(clauses) for c in chunk]
        return self._finish(prefix, clauses, used)

    def blocks(self, order: list[int], new_of: dict, words=("e", "a")) -> list:
        """The prefix of the variables ``order`` (sorted by level), renumbered by
        ``new_of``: (quantifier, [vars]) blocks, same quantifiers merged; ``words`` names
        the existential and universal quantifier."""
        prefix: list[tuple[str, list[int]]] = []
        for v in order:
            q = words[self.levels[v] & 1]
            if prefix and prefix[-1][0] == q:
                prefix[-1][1].append(new_of[v])
            else:
                prefix.append((q, [new_of[v]]))
        return prefix

    def renumbered(self, new_of, clauses=None) -> list[list[int]]:
        return [[new_of[x] if x > 0 else -new_of[-x] for x in c]
                for chunk in chunks(self.clauses if clauses is None else clauses) for c in chunk]

    def _needed_clauses(self) -> list[list[int]]:
        """The clauses that are not gate definitions, and of each definition the
        directions in which the gate is used (its polarity, followed through the
        definitions that are kept)."""
        in_def = bytearray(len(self.clauses))
        for start, k in self._defs.values():
            in_def[start:start + k + 1] = b"\1" * (k + 1)
        needed: set[int] = set()  # literals: +g keeps g -> inputs, -g keeps inputs -> g
        stack = [x for c, d in zip(self.clauses, in_def) if not d for x in c]
        stack += self._kept
        out = [c for c, d in zip(self.clauses, in_def) if not d]
        while stack:
            lit = stack.pop()
            g = abs(lit)
            if lit in needed or g not in self._defs:
                continue
            needed.add(lit)
            start, k = self._defs[g]
            kept = self.clauses[start:start + k] if lit > 0 else [self.clauses[start + k]]
            out += kept
            stack += [x for c in kept for x in c if abs(x) != g]
        return out

    @staticmethod
    def _finish(prefix, clauses, used):
        if not clauses:  # a true formula: one satisfiable unit clause on a fresh variable
            return [("e", [1])], [[1]], [0, 0]
        if any(not c for c in clauses):
            return [("e", [1])], [[1], [-1]], [0, 0]
        return prefix, clauses, [0] + used

    def release(self) -> None:
        """Drop the clauses and the gate table (once written out), so that a solver run
        beside this process does not have them held here too."""
        self.clauses = []
        self._gates = {}
        self._defs = {}

    def to_qdimacs(self) -> str:
        prefix, clauses, _ = self.prefix_and_matrix()
        return write_qdimacs(prefix, clauses, self.comments)


def neg(lit):
    return (not lit) if isinstance(lit, bool) else -lit


def chunks(items: list, size: int = CHECK_EVERY * 16):
    """Slices of ``items``, the budget checked before each (a pass over millions of
    clauses takes seconds and, when it builds a copy, memory)."""
    for i in range(0, len(items), size):
        check_budget()
        yield items[i:i + size]


def qdimacs_pieces(prefix, clauses, comments=()):
    """QDIMACS 1.1 text in pieces (the head, then runs of clauses), to be written to a
    file as they come rather than joined into one string the size of the file."""
    num_vars = max((v for _, vs in prefix for v in vs), default=0)
    lines = [f"c {line}" for text in comments for line in text.splitlines()]
    lines.append(f"p cnf {num_vars} {len(clauses)}")
    lines += [f"{q} {' '.join(map(str, vs))} 0" for q, vs in prefix]
    yield "\n".join(lines) + "\n"
    for chunk in chunks(clauses):
        yield "".join(" ".join(map(str, c)) + " 0\n" for c in chunk)


def write_qdimacs(prefix, clauses, comments=()) -> str:
    """QDIMACS 1.1 text: comment lines, the problem line, the prefix, then the clauses."""
    return "".join(qdimacs_pieces(prefix, clauses, comments))


class QdimacsError(ValueError):
    pass


def _number(no: int, token: str) -> int:
    """A QDIMACS token read as an integer; QdimacsError naming the line when it is not one."""
    try:
        return int(token)
    except ValueError:
        raise QdimacsError(f"line {no}: {token!r} is not an integer") from None


def read_qdimacs(text: str):
    """Parse and validate QDIMACS 1.1: returns (num_vars, prefix, clauses, comments)."""
    comments, prefix, clauses = [], [], []
    header = None
    current: list[int] = []
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("c"):
            if header is not None:
                raise QdimacsError(f"line {no}: comment after the problem line")
            comments.append(line[2:])
            continue
        if line.startswith("p"):
            parts = line.split()
            if header is not None or len(parts) != 4 or parts[1] != "cnf":
                raise QdimacsError(f"line {no}: bad problem line {line!r}")
            header = (_number(no, parts[2]), _number(no, parts[3]))
            continue
        if header is None:
            raise QdimacsError(f"line {no}: data before the problem line")
        if line[0] in "ae":
            if clauses or current:
                raise QdimacsError(f"line {no}: quantifier block after clauses")
            nums = [_number(no, x) for x in line[1:].split()]
            if not nums or nums[-1] != 0 or len(nums) < 2:
                raise QdimacsError(f"line {no}: empty or unterminated block")
            if prefix and prefix[-1][0] == line[0]:
                raise QdimacsError(f"line {no}: blocks do not alternate")
            prefix.append((line[0], nums[:-1]))
            continue
        for x in (_number(no, t) for t in line.split()):
            if x == 0:
                if not current:
                    raise QdimacsError(f"line {no}: empty clause")
                clauses.append(current)
                current = []
            else:
                current.append(x)
    if header is None:
        raise QdimacsError("no problem line")
    if current:
        raise QdimacsError("last clause is not terminated by 0")
    num_vars, num_clauses = header
    if len(clauses) != num_clauses:
        raise QdimacsError(f"problem line says {num_clauses} clauses, found {len(clauses)}")
    quantified = [v for _, vs in prefix for v in vs]
    if len(set(quantified)) != len(quantified):
        raise QdimacsError("a variable is quantified twice")
    if any(not 1 <= v <= num_vars for v in quantified):
        raise QdimacsError("a quantified variable is out of range")
    qset = set(quantified)
    for c in clauses:
        for x in c:
            if not 1 <= abs(x) <= num_vars:
                raise QdimacsError(f"literal {x} out of range 1..{num_vars}")
            if abs(x) not in qset:
                raise QdimacsError(f"variable {abs(x)} is not quantified")
    return num_vars, prefix, clauses, comments
