"""``tsumeqbf usi``: a USI tsume engine (``go mate``) on stdin/stdout.

``engine.py`` speaks the protocol, ``search.py`` runs each search in a child process (so
that ``stop`` ends it at once, QBF solver included), ``command.py`` adds the command.
USI is a 9x9 protocol: positions of other sizes are refused with an ``info string``.
"""
