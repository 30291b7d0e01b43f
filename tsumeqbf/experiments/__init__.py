"""Experiments: configured grids of mate questions x engine configurations, run and reported.

* ``config``: experiment TOML files loaded and validated (schema in its docstring); the
  named ones ship in ``configs/``
* ``runner``: ``tsumeqbf experiment run``: cells in worker processes or on dask, each
  finished cell stored at once in ``results/NAME.sqlite``, resumable, exported to CSV
* ``report``: ``tsumeqbf experiment report``: ``results/NAME.csv`` -> Markdown and plots
* ``analysis``, ``shrink``: agreement between engines; disagreements shrunk to minimal ones
* ``paper``: the founding paper's questions and published numbers

Nothing in rules, encoder, solvers or dfpn imports this package.
"""
