"""A benchmark's refusal as ``python -m tsumeqbf.bench NAME ...`` shows it: run through the
dispatcher (:func:`tsumeqbf.bench.__main__.main`), exit status 2 and one line on stderr,
``tsumeqbf.bench NAME: error: MESSAGE``."""

from tsumeqbf.bench.__main__ import main


def refusal(capsys, name: str, argv: list[str], out: str | None = None) -> str:
    """The MESSAGE of the one error line ``tsumeqbf.bench NAME`` ends ``argv`` with, once
    its exit status is 2 and stderr holds that line alone; ``out``: what stdout must hold
    (unchecked when None)."""
    capsys.readouterr()
    status = main([name, *argv])
    seen = capsys.readouterr()
    prefix = f"tsumeqbf.bench {name}: error: "
    assert status == 2, (status, seen.err)
    assert seen.err.count("\n") == 1 and seen.err.endswith("\n"), seen.err
    assert seen.err.startswith(prefix), seen.err
    if out is not None:
        assert seen.out == out
    return seen.err[len(prefix):-1]
