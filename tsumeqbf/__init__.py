"""tsumeqbf: mate within n plies in generalized tsume-shogi, answered by QBF solvers, df-pn and brute force."""

__version__ = "0.1.0"
