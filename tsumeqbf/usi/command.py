"""``tsumeqbf usi`` (and the ``tsumeqbf-usi`` script for GUIs, which start an engine
without arguments): the USI engine on stdin/stdout."""

from __future__ import annotations

import io
import sys


def register(sub) -> None:
    p = sub.add_parser("usi", help="run as a USI tsume engine (go mate) on stdin/stdout")
    p.set_defaults(func=cmd_usi)


def cmd_usi(args=None) -> int:
    return serve(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"),
                 sys.stdout)


def serve(stdin, stdout) -> int:
    """Read commands until ``quit`` or the end of input; every answer line is flushed
    at once (a GUI waits on it)."""
    from .engine import UsiEngine

    def write(line: str) -> None:
        try:
            stdout.write(line + "\n")
            stdout.flush()
        except (BrokenPipeError, ValueError):  # the GUI went away (or closed our output)
            pass

    engine = UsiEngine(write)
    try:
        while True:
            line = stdin.readline()
            if not line or not engine.handle(line.strip()):
                break
    finally:
        engine.cmd_stop([])
    return 0


def main() -> int:
    """The ``tsumeqbf-usi`` entry point: ``tsumeqbf usi`` itself, so that a GUI's engine
    file stops as the command does (a SIGTERM or SIGHUP stops its search before it exits)
    and says what went wrong in the same words."""
    from ..cli import main as cli_main

    return cli_main(["usi"])
