"""Every number a bench takes is refused in one line with exit status 2 when it is not a
number, not a whole one where a count is asked, negative, or 0 where 0 means nothing: the
walk below reads each bench's own parser, so an option added later is checked too."""

from __future__ import annotations

import argparse
import importlib

import pytest

from tsumeqbf import arguments
from tsumeqbf.bench.__main__ import BENCHMARKS


class _Parsed(Exception):
    pass


def _module_and_parser(name: str):
    """The bench's module and the parser its main() builds (stopped at parse_args)."""
    module = importlib.import_module(f"tsumeqbf.bench.{name.replace('-', '_')}")
    built = []

    def parse_args(self, args=None, namespace=None):
        built.append(self)
        raise _Parsed

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(argparse.ArgumentParser, "parse_args", parse_args)
        with pytest.raises(_Parsed):
            module.main([])
    return module, built[0]


def _numeric(action) -> str | None:
    """'int' or 'float' for an option that takes a number, else None."""
    kind = getattr(action.type, "__name__", None)
    return kind if kind in ("int", "float") and action.option_strings else None


def _refused(action) -> list[str]:
    """What the option must refuse: 0 too unless 0 is one of its meanings."""
    bad = ["abc", "-1"] + (["1.5"] if _numeric(action) == "int" else [])
    zero_means_something = (action.type is arguments.non_negative_int
                            or (action.choices is not None and 0 in action.choices))
    return bad if zero_means_something else bad + ["0"]


CASES = []
for _name in BENCHMARKS:
    _module, _parser = _module_and_parser(_name)
    for _action in _parser._actions:
        if _numeric(_action):
            CASES.append(pytest.param(_name, _action, id=f"{_name} {_action.option_strings[-1]}"))


def test_the_walk_finds_the_options_of_the_brief():
    found = {(name, action.option_strings[-1]) for name, action in (c.values for c in CASES)}
    assert {("dfpn", "--repeat"), ("usi-mate", "--repeat"), ("usi-mate", "--seconds"),
            ("dfpn", "--cpu-limit"), ("along", "--tt-entries")} <= found
    assert len(found) >= 30


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_bench_parser_refuses_in_one_line(name):
    assert isinstance(_module_and_parser(name)[1], arguments.BenchParser)


#: plain ints checked where they are used, as the command line's (solve's range for the
#: table, from 2 to TABLE_ENTRIES_MAX)
CHECKED_WHERE_USED = {("dfpn", "--tt-entries")}


@pytest.mark.parametrize("name, action", CASES)
def test_a_bad_number_is_one_line_and_status_2(name, action, capsys):
    option = next(o for o in action.option_strings if o.startswith("--"))
    # a plain int or float type takes -1 (and 0) without a word: each has a bound
    assert action.type not in (int, float) or action.choices is not None \
        or (name, option) in CHECKED_WHERE_USED
    module = importlib.import_module(f"tsumeqbf.bench.{name.replace('-', '_')}")
    for text in _refused(action):
        with pytest.raises(SystemExit) as exc:
            module.main([option, text])
        err = capsys.readouterr().err
        assert exc.value.code == 2, (option, text, err)
        assert err.count("\n") == 1 and err.startswith(f"tsumeqbf.bench {name}: error: ")
        assert option in err, (option, text, err)
