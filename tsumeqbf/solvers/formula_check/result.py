"""What the strategy check says: proven (:class:`CheckResult`), not proven
(:class:`CheckFailed`, with the line of play to investigate) or undecided (:class:`CheckUnknown`)."""

from __future__ import annotations

from dataclasses import dataclass

from ...rules import TsumeError


class CheckFailed(TsumeError):
    """The formula is not proven by the strategy: a line of play to investigate."""

    def __init__(self, message: str, line: list[str]):
        self.message, self.line = message, list(line)
        super().__init__(f"{message}; line {' '.join(line) or '(the root)'}")


class CheckUnknown(TsumeError):
    """No strategy to check with (the search ran out of nodes or time), or too large."""


@dataclass
class CheckResult:
    truth: bool
    fmt: str
    encoding: str
    sfen: str
    n: int
    strategy: str
    lines: int = 0
    nodes: int = 0
    clauses: int = 0
    seconds: float = 0.0
    certificate: object = None

    def line(self) -> str:
        return (f"proven {'true' if self.truth else 'false'}: {self.encoding}, {self.sfen} "
                f"n={self.n} ({self.fmt.upper() if self.fmt == 'qcir' else 'QDIMACS'}, "
                f"strategy by {self.strategy})")
