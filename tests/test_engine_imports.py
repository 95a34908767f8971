"""The engine's modules import without a cycle: each alone in a fresh interpreter, and no chain
of imports (function-level ones included) among them leads back to where it began."""

import ast
import pathlib
import subprocess
import sys

import pytest

import musim.engine

ENGINE = pathlib.Path(musim.engine.__file__).parent
MODULES = sorted(f"musim.engine.{p.stem}" for p in ENGINE.glob("*.py") if p.stem != "__init__")


def _engine_imports(module):
    """The musim.engine modules that `module`'s source imports, at any depth of its code."""
    tree = ast.parse((ENGINE / f"{module.rsplit('.', 1)[1]}.py").read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
    return names & set(MODULES)


def test_no_import_cycle_among_the_engine_modules():
    graph = {m: _engine_imports(m) for m in MODULES}
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

    for m in MODULES:
        visit(m)


@pytest.mark.parametrize("module", MODULES)
def test_each_engine_module_imports_alone(module):
    subprocess.run([sys.executable, "-c", f"import {module}"], check=True, capture_output=True)
