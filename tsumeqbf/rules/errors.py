"""Errors raised for bad input. Each message is one line meant for the user."""


class TsumeError(ValueError):
    """Base class: bad input the user can fix (the command line exits with status 2)."""


class SfenError(TsumeError):
    """Malformed SFEN text."""


class InvalidQuestion(TsumeError):
    """A well-formed position that is not a valid mate question under RULES.md."""


class MoveError(TsumeError):
    """A move that cannot be parsed or is not legal in the position."""
