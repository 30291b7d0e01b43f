"""An engine's options as one frozen dataclass whose fields say all there is to say about
them: its name, default, type and, in the field's metadata (:func:`setting`), its help
text, its command-line flag and its USI option. :class:`Settings` builds such a class
from each place options come from, one function each: the command line
(:meth:`~Settings.add_flags` generates the flags, :meth:`~Settings.from_args` reads
them back), an experiment configuration or a ``batch`` options dict
(:meth:`~Settings.from_config`) and the USI engine's ``setoption``
(:meth:`~Settings.with_usi`); :meth:`~Settings.row` copies it whole into an answer.
Adding an option is adding a field (and its test).

>>> import argparse
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Example(Settings):
...     budget: int = setting(10, "nodes to spend", usi="Budget", usi_min=1, usi_max=99)
...     fast: bool = setting(True, "no slow checks")
...     seeds: tuple = setting((), "a seed file; repeatable", flag="--seed")
>>> parser = argparse.ArgumentParser()
>>> Example.add_flags(parser)
>>> Example.from_args(parser.parse_args(["--budget", "3", "--no-fast", "--seed", "a"]))
Example(budget=3, fast=False, seeds=('a',))
>>> Example.from_config({"fast": False, "engine_wide": 1}, budget=0)
Example(budget=0, fast=False, seeds=())
>>> Example().with_usi("Budget", "7").row()
{'budget': 7, 'fast': True, 'seeds': []}
>>> Example.usi_options()
{'Budget': 'type spin default 10 min 1 max 99'}

This module is in the bottom layer: it imports nothing of tsumeqbf.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from dataclasses import field, fields, replace
from typing import Any, Mapping

#: df-pn's table: the unsolved positions it keeps (``solve --tt-entries``, the USI
#: engine's TableEntries, the native core's), about 330 bytes each with the proofs
TABLE_ENTRIES = 1_000_000
#: the most it may be asked to keep (330 GB: past any machine, within what the core counts)
TABLE_ENTRIES_MAX = 1_000_000_000
#: a spin option's value as USI writes it: ASCII digits, a minus sign before them at most
#: (int() also takes full-width digits, '+5', ' 5' and '1_000')
USI_NUMBER = re.compile(r"-?[0-9]+")


def setting(default, help: str | None = None, *, flag: str | None = None, type=None,
            choices=None, metavar: str | None = None, usi: str | None = None,
            usi_min: int | None = None, usi_max: int | None = None, usi_none=None,
            usi_choices=None):
    """A field of a :class:`Settings` class. ``help`` is its flag's help (None: no flag),
    ``flag`` the flag when it is not ``--`` and the name with dashes (``--no-NAME`` for
    a switch that is on by default); ``type``, ``choices`` and ``metavar`` as argparse
    takes them (``type`` by default that of the default value). ``usi`` names its USI
    option, ``usi_min`` and ``usi_max`` the numbers it takes, ``usi_none`` the number
    that means None and ``usi_choices`` its values when they are fewer than
    ``choices``."""
    return field(default=default, metadata=dict(
        help=help, flag=flag, type=type, choices=choices, metavar=metavar, usi=usi,
        usi_min=usi_min, usi_max=usi_max, usi_none=usi_none, usi_choices=usi_choices))


class Settings:
    """What every engine's options class has (a frozen dataclass of :func:`setting`
    fields)."""

    @classmethod
    def add_flags(cls, parser, names=None, given_only: bool = False) -> None:
        """Add a flag for every field with help text (of ``names`` only, when given, in
        that order). ``given_only``: a flag not given leaves no attribute (argparse's
        SUPPRESS), so that :meth:`given` tells what the command line set (``mate``'s
        flags, where each engine takes some). A flag the parser has already (a field of
        two classes, the certification's of the QBF engine and the portfolio) is kept."""
        chosen = fields(cls) if names is None else [f for name in names for f in fields(cls)
                                                    if f.name == name]
        for f in chosen:
            meta = f.metadata
            if meta.get("help") is None:
                continue
            flag = meta["flag"] or "--" + ("no-" if f.default is True else "") + f.name.replace("_", "-")
            kwargs: dict[str, Any] = dict(dest=f.name, help=meta["help"])
            if isinstance(f.default, bool):
                kwargs.update(action="store_false" if f.default else "store_true")
            elif isinstance(f.default, tuple):
                kwargs.update(action="append", default=[], type=meta["type"] or str)
            else:
                kwargs.update(default=f.default, type=meta["type"] or type(f.default))
            for key in ("choices", "metavar"):
                if meta[key] is not None:
                    kwargs[key] = meta[key]
            if meta["flag"] and "metavar" not in kwargs and "type" in kwargs:
                kwargs["metavar"] = meta["flag"].lstrip("-").replace("-", "_").upper()  # as argparse names it
            if given_only:
                kwargs["default"] = argparse.SUPPRESS
            try:
                parser.add_argument(flag, **kwargs)
            except argparse.ArgumentError:  # another class's already (one field of both)
                continue

    @classmethod
    def given(cls, args) -> dict:
        """The flags of these options that the command line set (added with
        ``given_only``), by field name."""
        return _typed(cls, {f.name: getattr(args, f.name) for f in fields(cls)
                            if f.metadata.get("help") is not None and hasattr(args, f.name)})

    @classmethod
    def from_args(cls, args):
        """The options the command line gave (argparse's namespace)."""
        return cls(**_typed(cls, {f.name: getattr(args, f.name) for f in fields(cls)
                                  if hasattr(args, f.name)}))

    @classmethod
    def from_config(cls, options: Mapping, **defaults):
        """The options of an experiment configuration's or a batch's options dict: the
        keys that are fields (the others are not this engine's: limits, the engine's
        name...), over ``defaults`` (the engine's own, where they are not the class's)."""
        names = {f.name for f in fields(cls)}
        return cls(**_typed(cls, {**defaults, **{k: v for k, v in options.items() if k in names}}))

    def with_usi(self, name: str, text: str):
        """These options with USI option ``name`` set to ``text`` (``setoption``);
        ValueError with the line to say when ``text`` is not a value of it."""
        f = next(f for f in fields(self) if f.metadata.get("usi") == name)
        return replace(self, **{f.name: _usi_value(f, name, text)})

    @classmethod
    def usi_options(cls) -> dict[str, str]:
        """Each USI option of these fields with its declaration (what follows ``option
        name NAME`` in the engine's answer to ``usi``)."""
        return {f.metadata["usi"]: _usi_declaration(f) for f in fields(cls)
                if f.metadata.get("usi")}

    def row(self) -> dict:
        """Every field, as JSON holds it (a tuple as a list)."""
        return {f.name: list(v) if isinstance(v := getattr(self, f.name), tuple) else v
                for f in fields(self)}


def usi_number(name: str, text: str) -> int:
    """``text`` as the number of the spin option ``name``; ValueError with the line to
    say when it is not one (:data:`USI_NUMBER`).

    >>> usi_number("Budget", "-1")
    -1
    >>> usi_number("Budget", "１２")
    Traceback (most recent call last):
    ValueError: Budget must be a whole number, not '１２'
    """
    if not USI_NUMBER.fullmatch(text):
        raise ValueError(f"{name} must be a whole number, not {text!r}")
    return int(text)


def _typed(cls, values: dict) -> dict:
    """``values`` with lists made tuples where the field is a tuple (argparse's append,
    JSON's arrays)."""
    tuples = {f.name for f in fields(cls) if isinstance(f.default, tuple)}
    return {k: tuple(v) if k in tuples and isinstance(v, list) else v for k, v in values.items()}


def _usi_declaration(f: dataclasses.Field) -> str:
    meta = f.metadata
    if isinstance(f.default, bool):
        return f"type check default {'true' if f.default else 'false'}"
    if isinstance(f.default, str):
        choices = meta["usi_choices"] or meta["choices"]
        if choices:
            return f"type combo default {f.default} " + " ".join(f"var {c}" for c in choices)
        return f"type string default {f.default or '<empty>'}"
    default = meta["usi_none"] if f.default is None else f.default
    return f"type spin default {default} min {meta['usi_min']} max {meta['usi_max']}"


def _usi_value(f: dataclasses.Field, name: str, text: str):
    meta = f.metadata
    if isinstance(f.default, bool):
        if text not in ("true", "false"):
            raise ValueError(f"{name} must be true or false, not {text!r}")
        return text == "true"
    if isinstance(f.default, str):
        value = "" if text == "<empty>" else text
        choices = meta["usi_choices"] or meta["choices"]
        if choices is not None and value not in choices:
            raise ValueError(f"{name} must be {' or '.join(choices)}, not {text!r}")
        return value
    number = usi_number(name, text)
    if meta["usi_min"] is not None and number < meta["usi_min"]:
        raise ValueError(f"{name} must be at least {meta['usi_min']}")
    return None if number == meta["usi_none"] else number
