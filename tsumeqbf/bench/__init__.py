"""Benchmarks that print figures (never timed tests): ``python -m tsumeqbf.bench NAME``."""
