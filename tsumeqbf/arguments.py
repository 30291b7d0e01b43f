"""What every command's arguments share: limits that must be above 0, and ``-`` for
standard output wherever a file is written.

A limit of 0 or less is refused rather than read as "no limit" (omit the option for
that); argparse turns the refusal into the command's one error line.

>>> positive_float("2.5"), positive_int("3"), non_negative_int("0")
(2.5, 3, 0)
>>> positive_float("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: must be above 0 (leave the option out for no limit), got 0
>>> positive_int("-3")
Traceback (most recent call last):
argparse.ArgumentTypeError: must be above 0 (leave the option out for no limit), got -3
>>> positive_int_or_default("0")
Traceback (most recent call last):
argparse.ArgumentTypeError: must be above 0 (leave the option out for its default), got 0
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import stat
import sys

#: the file name that means standard output
STDOUT = "-"


def _number(kind: type, zero_allowed: bool, omitted: str = "no limit"):
    """An argparse type: ``kind`` read from the text, finite, above 0 (or 0 or more);
    ``omitted`` says what leaving the option out means."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"not {'an integer' if kind is int else 'a number'}: {text!r}") from None
        if zero_allowed and (value < 0 or not math.isfinite(value)):
            raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
        if not zero_allowed and (value <= 0 or not math.isfinite(value)):
            raise argparse.ArgumentTypeError(
                f"must be above 0 (leave the option out for {omitted}), got {text}")
        return value
    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


#: seconds, nodes, MB, jobs: above 0
positive_float = _number(float, zero_allowed=False)
positive_int = _number(int, zero_allowed=False)
#: the same where leaving the option out means a default, not no limit (``--certify-nodes``)
positive_int_or_default = _number(int, zero_allowed=False, omitted="its default")
positive_float_or_default = _number(float, zero_allowed=False, omitted="its default")
#: a count where 0 means "none" (``solve --shorten-nodes 0``)
non_negative_int = _number(int, zero_allowed=True)


def int_at_least(low: int):
    """An argparse type: an integer of at least ``low`` (a table of at least 2 entries).

    >>> int_at_least(2)("2")
    2
    >>> int_at_least(2)("1")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be at least 2 (leave the option out for its default), got 1
    """
    def parse(text: str) -> int:
        value = positive_int_or_default(text)
        if value < low:
            raise argparse.ArgumentTypeError(
                f"must be at least {low} (leave the option out for its default), got {text}")
        return value
    parse.__name__ = "int"
    return parse


class BenchParser(argparse.ArgumentParser):
    """A bench's argparse: a refusal is one line on stderr, ``tsumeqbf.bench NAME: error:
    ...`` as :mod:`tsumeqbf.bench`'s own errors, and exit status 2, rather than argparse's
    usage text before it. ``prog`` is the command as typed (``python -m tsumeqbf.bench
    NAME``)."""

    def error(self, message: str):
        name = self.prog.removeprefix("python -m ")
        print(f"{name}: error: {message}", file=sys.stderr)
        raise SystemExit(2)


def table_csv(path: str) -> str:
    """An argparse type for a bench's ``--csv``: any file but ``-``, since the bench's own
    table takes standard output (a file named ``-`` would surprise).

    >>> table_csv("rows.csv")
    'rows.csv'
    >>> table_csv("-")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: '-' is not offered here: the bench prints its table on standard output; name a file
    """
    if path == STDOUT:
        raise argparse.ArgumentTypeError(
            "'-' is not offered here: the bench prints its table on standard output; name a file")
    return path


@contextlib.contextmanager
def output(path: str, encoding: str = "utf-8", newline: str | None = None):
    """The file ``path`` open for writing, or standard output for ``-`` (flushed, not
    closed)."""
    if path == STDOUT:
        yield sys.stdout
        sys.stdout.flush()
    else:
        with open(path, "w", encoding=encoding, newline=newline) as fh:
            yield fh


def output_file(path: str) -> str:
    """An argparse type for a file a command writes: ``-``, or a path that is no folder,
    in a folder that exists, refused before any work is done rather than after it.

    >>> output_file("-"), output_file("answer.kif")
    ('-', 'answer.kif')
    >>> output_file(os.path.dirname(__file__))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    argparse.ArgumentTypeError: .../tsumeqbf is a folder: name a file in it
    >>> output_file("/no/such/folder/answer.kif")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: no folder /no/such/folder to write answer.kif in
    """
    if path == STDOUT:
        return path
    if os.path.isdir(path):
        raise argparse.ArgumentTypeError(f"{path} is a folder: name a file in it")
    folder, name = os.path.split(path)
    if folder and not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"no folder {folder} to write {name} in")
    return path


def is_stream(path: str) -> bool:
    """Whether ``path`` names an existing file that is neither a regular file nor a
    folder: a device (``/dev/null``, ``/dev/stdout``) or a FIFO. Such a file is written
    through as standard output is: never read back for a resume, never removed after a
    failed write, and no sidecar is written beside it.

    >>> is_stream("/dev/null"), is_stream(__file__), is_stream(os.path.dirname(__file__))
    (True, False, False)
    >>> is_stream("/no/such/file")
    False
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def failure_text(exc: Exception) -> str:
    """A failure as one line: an OSError as its file and the system's words, any other
    exception as its message.

    >>> failure_text(IsADirectoryError(21, "Is a directory", "out"))
    'out: Is a directory'
    >>> failure_text(ValueError("n must be odd"))
    'n must be odd'
    """
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc}"
    return str(exc)


def to_stdout(*paths: str | None) -> bool:
    """Whether one of ``paths`` is ``-``: then the command's own report of what it did goes
    to stderr, so that standard output holds the file alone."""
    return STDOUT in paths


def read_toml(path, what: str) -> dict:
    """The TOML document in ``path`` (a SPEC, an experiment); a missing file, a folder, an
    unreadable file or bad TOML is one TsumeError naming the file and ``what`` it should be."""
    from .rules import TsumeError

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise TsumeError(f"{path}: no such {what} file") from None
    except IsADirectoryError:
        raise TsumeError(f"{path}: a folder, not a {what} file") from None
    except OSError as exc:
        raise TsumeError(f"{path}: cannot read the {what} file ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise TsumeError(f"{path}: not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        raise TsumeError(f"{path}: not UTF-8 text, as TOML must be") from None
