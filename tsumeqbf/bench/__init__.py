"""Benchmarks that print figures (never timed tests): ``python -m tsumeqbf.bench NAME``."""


class BenchError(ValueError):
    """Input a benchmark refuses: an option or a combination of options, a file it cannot
    read or resume. Its message is the line :func:`tsumeqbf.bench.__main__.main` prints as
    ``tsumeqbf.bench NAME: error: MESSAGE`` before exit status 2 (the bench's name is added
    there, not in the message)."""
