"""musim's modules import without a cycle, and the layers below the games import none of them.

No chain of imports (function-level ones included) among musim's modules leads back to where it
began, and each engine module imports alone in a fresh interpreter.  A module's import of its
own package (a submodule reading the package's constants) is left out: Python runs a package's
__init__ before any of its modules whatever they import.  The engine, and what it
builds on, name no game: an engine module imports of musim.games only the registry (the package
itself, whose point is to find a game by name) and nothing of musim.play, the CLI or io; the
play layer and below import nothing of musim.games at all (a game's Option, the --play text:
engine/option.py, engine/seats.py)."""

import ast
import pathlib
import subprocess
import sys

import pytest

import musim

ROOT = pathlib.Path(musim.__file__).parent


def _name(path):
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


FILES = {_name(p): p for p in sorted(ROOT.rglob("*.py"))}
ENGINE = sorted(m for m in FILES if m.startswith("musim.engine."))


def _imports(module):
    """The musim modules that `module`'s source imports, at any depth of its code, but its own
    packages."""
    tree = ast.parse(FILES[module].read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
    return {n for n in names & set(FILES) if n != module and not module.startswith(n + ".")}


def _under(module, packages):
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_no_import_cycle_among_musims_modules():
    graph = {m: _imports(m) for m in FILES}
    done, path = set(), []

    def visit(m):
        assert m not in path, f"import cycle: {' -> '.join(path[path.index(m) :] + [m])}"
        if m in done:
            return
        path.append(m)
        for n in sorted(graph[m]):
            visit(n)
        path.pop()
        done.add(m)

    for m in FILES:
        visit(m)


@pytest.mark.parametrize("module", ENGINE)
def test_the_engine_names_no_game(module):
    upward = {m for m in _imports(module) if _under(m, ("musim.games", "musim.play", "musim.cli", "musim.io"))}
    assert upward <= {"musim.games"}, f"{module} imports {sorted(upward - {'musim.games'})}"


@pytest.mark.parametrize("package", ["musim.core", "musim.compile", "musim.solver", "musim.play"])
def test_the_layers_below_the_games_import_none(package):
    upward = {f"{m} -> {n}" for m in FILES if _under(m, (package,)) for n in _imports(m) if _under(n, ("musim.games",))}
    assert not upward, sorted(upward)


@pytest.mark.parametrize("module", ENGINE)
def test_each_engine_module_imports_alone(module):
    subprocess.run([sys.executable, "-c", f"import {module}"], check=True, capture_output=True)
