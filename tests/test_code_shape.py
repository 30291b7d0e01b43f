"""The shape issue #44 asked for, kept by reading the code with ``ast``: no function over
MAX_LINES lines in the engines and encoders, no private name (a leading underscore)
imported from another module, and the command line's sub-commands reached through
functions a reader can follow, not module names in strings. Each rule's
checker is first shown to catch what it forbids, so a test cannot pass by checking nothing."""

import ast
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tsumeqbf"


#: the engines and encoders: what answers a question
ENGINES = ("dfpn", "encoder", "solvers", "native", "rules/reference.py", "engines.py")
MAX_LINES = 80


def long_functions(source: str, limit: int = MAX_LINES) -> list[tuple[str, int]]:
    """(name, lines) of each function or method in ``source`` longer than ``limit`` lines,
    from its ``def`` line to its last, docstring included."""
    return [(node.name, node.end_lineno - node.lineno + 1)
            for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.end_lineno - node.lineno + 1 > limit]


def engine_files() -> list[Path]:
    out = []
    for name in ENGINES:
        path = PACKAGE / name
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def test_the_length_checker_catches_a_long_function():
    def function(lines: int) -> str:  # a def line and lines - 1 statements
        return "def f():\n" + "".join(f"    x{i} = {i}\n" for i in range(lines - 1))

    assert long_functions(function(81)) == [("f", 81)]
    assert long_functions(function(80)) == []
    assert long_functions("class C:\n" + textwrap.indent(function(90), "    ")) == [("f", 90)]


def test_no_function_in_the_engines_and_encoders_is_over_80_lines():
    files = engine_files()
    assert len(files) > 40 and PACKAGE / "dfpn" / "solve.py" in files
    found = [f"{path.relative_to(ROOT)}: {name} ({lines} lines)"
             for path in files for name, lines in long_functions(path.read_text())]
    assert found == []


def private_imports(source: str, path: Path) -> list[str]:
    """``from M import _name`` in ``source`` (the file at ``path``) where M is another
    module; a package may import its own private submodule (native's compiled ``_core``)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        for alias in node.names:
            name = alias.name
            if not name.startswith("_") or name.startswith("__"):
                continue
            own_submodule = (node.level == 1 and node.module is None
                             and any((path.parent / f"{name}{suffix}").exists()
                                     for suffix in (".py", ".cpp")))
            if not own_submodule:
                out.append(f"{path.relative_to(ROOT)}:{node.lineno}: "
                           f"from {'.' * node.level}{node.module or ''} import {name}")
    return out


def test_the_private_import_checker_catches_one():
    assert private_imports("from .game import _can_move\n", PACKAGE / "encoder" / "x.py") == [
        "tsumeqbf/encoder/x.py:1: from .game import _can_move"]
    assert private_imports("def f():\n    from ..rules.notation import _DIGITS\n",
                           PACKAGE / "dfpn" / "x.py") == [
        "tsumeqbf/dfpn/x.py:2: from ..rules.notation import _DIGITS"]
    assert private_imports("from . import _core\n", PACKAGE / "native" / "__init__.py") == []
    assert private_imports("from . import _helper\n", PACKAGE / "dfpn" / "x.py") == [
        "tsumeqbf/dfpn/x.py:1: from . import _helper"]


def test_no_private_name_is_imported_across_modules():
    found = [line for path in sorted(PACKAGE.rglob("*.py"))
             for line in private_imports(path.read_text(), path)]
    assert found == []


def string_imports(source: str) -> list[int]:
    """Lines of ``source`` that import a module named by a string (importlib)."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if (isinstance(node, (ast.Import, ast.ImportFrom))
                and any(a.name.split(".")[0] == "importlib" or a.name == "import_module"
                        for a in node.names))
            or (isinstance(node, ast.ImportFrom) and node.module == "importlib")
            or (isinstance(node, ast.Name) and node.id == "__import__")]


def test_the_command_line_loads_its_commands_by_reference():
    assert string_imports("import importlib\nimportlib.import_module('x')\n") == [1]
    assert string_imports("from importlib import import_module\n") == [1]
    assert string_imports((PACKAGE / "cli.py").read_text()) == []
    from tsumeqbf.cli import COMMANDS, build_parser

    # each entry imports one package's command module inside its body, by name
    tree = ast.parse((PACKAGE / "cli.py").read_text())
    bodies = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    for add in COMMANDS:
        imported = [n.module for n in ast.walk(bodies[add.__name__])
                    if isinstance(n, ast.ImportFrom)]
        assert len(imported) == 1 and imported[0].endswith("command"), add.__name__
    commands = build_parser()._subparsers._group_actions[0].choices
    assert {"encode", "solve", "experiment", "usi", "family"} <= set(commands)
