"""The layering of docs/layout.md, read from its table and checked against every import
of every module (parsed with ``ast``, so imports inside functions count too): a layer
imports only the layers its row names, never one above it. df-pn never imports the
encoder, so the cross-check between them stays independent."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tsumeqbf"


def layers() -> dict[str, tuple[set, set]]:
    """layer -> (its modules, the layers it may import), from docs/layout.md."""
    text = (ROOT / "docs" / "layout.md").read_text()
    table = text[text.index("| layer | modules | may import |"):].split("\n\n")[0]
    out = {}
    for row in table.splitlines()[2:]:
        layer, modules, allowed = (cell.strip() for cell in row.strip("|").split("|"))
        out[layer] = (set(re.findall(r"`([\w.]+)`", modules)),
                      set(re.findall(r"\w+", allowed)) - {"nothing"})
    return out


def unit(dotted: str) -> str:
    """The top-level module of ``tsumeqbf`` that a dotted name is in (the package's own
    ``__init__`` is ``tsumeqbf``)."""
    parts = dotted.split(".")
    if len(parts) > 1 and ((PACKAGE / parts[1]).is_dir() or (PACKAGE / f"{parts[1]}.py").exists()):
        return parts[1]
    return "tsumeqbf"  # the package itself, or a name it holds (`from .. import __version__`)


def imports(path: Path, package: Path = PACKAGE) -> set[str]:
    """The modules of ``tsumeqbf`` that the file at ``path`` (in ``package``) imports,
    anywhere in it."""
    dotted = ".".join(("tsumeqbf",) + path.relative_to(package).with_suffix("").parts)
    here = (dotted.removesuffix(".__init__") if path.name == "__init__.py"
            else dotted.rsplit(".", 1)[0])
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[:len(here.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            # `from . import x` names modules; `from .m import x` names what m holds
            out |= ({f"{target}.{a.name}" for a in node.names} if not node.module
                    else {target})
    return {name for name in out if name == "tsumeqbf" or name.startswith("tsumeqbf.")}


def layer_of(module: str, table) -> str:
    for layer, (modules, _) in table.items():
        if module in modules:
            return layer
    raise AssertionError(f"tsumeqbf.{module} is in no layer of docs/layout.md")


def test_every_module_is_in_one_layer():
    table = layers()
    assert {"base", "rules", "encoder", "dfpn", "solvers", "engines", "front"} <= set(table)
    named = [m for modules, _ in table.values() for m in modules]
    assert len(named) == len(set(named))
    for path in PACKAGE.iterdir():
        if path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists()):
            layer_of(path.stem if path.name != "__init__.py" else "tsumeqbf", table)


@pytest.mark.parametrize("layer", list(layers()))
def test_a_layer_imports_only_the_layers_below_it_that_it_names(layer):
    table = layers()
    modules, allowed = table[layer]
    wrong = []
    for module in sorted(modules):
        path = PACKAGE / f"{module}.py"
        files = ([path] if path.exists() else sorted((PACKAGE / module).rglob("*.py"))
                 if module != "tsumeqbf" else [PACKAGE / "__init__.py"])
        assert files, module
        for file in files:
            for name in imports(file):
                other = layer_of(unit(name), table)
                if other != layer and other not in allowed:
                    wrong.append(f"{file.relative_to(ROOT)} imports {name} ({other})")
    assert not wrong, wrong


def test_dfpn_never_imports_the_encoder():
    # stated on its own in docs/layout.md: the rule that keeps the cross-check honest
    table = layers()
    assert "encoder" not in table["dfpn"][1] and "dfpn" not in table["encoder"][1]
    found = [(f, name) for f in (PACKAGE / "dfpn").rglob("*.py") for name in imports(f)
             if unit(name) in ("encoder", "solvers")]
    assert not found


def test_the_import_parser_sees_imports_inside_functions(tmp_path):
    # the check is only as good as its parser: a lazy import and a relative one count
    pkg = tmp_path / "tsumeqbf"
    (pkg / "dfpn").mkdir(parents=True)
    f = pkg / "dfpn" / "x.py"
    f.write_text("def g():\n    from ..encoder.registry import encode\n"
                 "from . import core\nimport tsumeqbf.rules\n")
    assert imports(f, pkg) == {"tsumeqbf.encoder.registry", "tsumeqbf.dfpn.core", "tsumeqbf.rules"}


NATIVE = PACKAGE / "native"


def core_parts() -> list[str]:
    """The native core's headers in the order ``_core.cpp``'s opening comment states them:
    a part may include only the parts before it."""
    head = (NATIVE / "_core.cpp").read_text().split("\n\n")[0]
    return list(dict.fromkeys(re.findall(r"\b(\w+\.h)\b", head)))


def test_the_core_states_every_part_it_has():
    parts = core_parts()
    assert parts[:2] == ["board.h", "position.h"] and len(parts) >= 8
    assert sorted(parts) == sorted(p.name for p in NATIVE.glob("*.h"))


@pytest.mark.parametrize("part", core_parts())
def test_a_core_part_includes_only_the_parts_before_it(part):
    parts = core_parts()
    included = re.findall(r'#include "([^"]+)"', (NATIVE / part).read_text())
    assert [h for h in included if h not in parts[:parts.index(part)]] == []


def test_the_core_searches_hold_no_python_but_the_tick():
    # the move generation and both searches are plain C++: only search.h's tick and
    # Ctrl-C touch the Python API, the py_ parts are the doors
    code = {p: re.sub(r"//.*", "", (NATIVE / p).read_text()) for p in core_parts()
            if not p.startswith("py_")}
    assert set(code) >= {"position.h", "tsume.h", "bounded.h"}
    assert [p for p, text in code.items() if p != "search.h" and re.search(r"\bPy\w*", text)] == []
