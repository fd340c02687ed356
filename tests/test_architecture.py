"""
The architecture of the package, read from its import statements (ast).

- No module imports a private name (``_name``) from another sage_attention
  module: modules talk through public, documented names (dunder names such
  as ``__version__`` are public).
- The modules import one way down the layers: there is no import cycle among
  sage_attention modules, counting imports inside functions too. The one
  exception: a model's method may import a higher layer inside its body
  (``model.neurovariety()`` returns a variety), so imports inside functions
  of ``sage_attention/models/`` that target ``variety``, ``ideals``,
  ``invariants`` or ``app`` are not edges of the graph.
- Importing the DSL loads no Sage module (checked in a fresh interpreter), and
  neither does ``sage-attention check`` on the examples (it is instant: the
  README says so).
"""
import ast
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "sage_attention")
HIGHER_THAN_MODELS = ("sage_attention.variety", "sage_attention.ideals",
                      "sage_attention.invariants", "sage_attention.app")


def module_files():
    out = {}
    for dirpath, _, files in os.walk(PACKAGE):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, ROOT)[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out[".".join(rel)] = path
    return out


MODULES = module_files()


def is_package(name):
    return os.path.exists(os.path.join(ROOT, *name.split("."), "__init__.py"))


def resolve(source, node):
    """Yield ``(target module, imported name or None)`` for an import node."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.startswith("sage_attention"):
                yield alias.name, None
        return
    base = node.module or ""
    if node.level:
        parts = source.split(".")
        if not is_package(source):
            parts = parts[:-1]
        parts = parts[:len(parts) - node.level + 1]
        base = ".".join(parts + ([node.module] if node.module else []))
    if not base.startswith("sage_attention"):
        return
    for alias in node.names:
        full = f"{base}.{alias.name}"
        if full in MODULES:
            yield full, None                   # a submodule
        else:
            yield base, alias.name


def imports(source, path):
    """Yield ``(target, name, inside_function)`` for every import of a module."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)

    def walk(node, inside):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for target, name in resolve(source, child):
                    yield target, name, inside
            inner = inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                 ast.Lambda))
            yield from walk(child, inner)
    yield from walk(tree, False)


def test_the_walk_sees_the_package():
    assert "sage_attention.models.base" in MODULES
    edges = {t for t, _, _ in imports("sage_attention.models.lightning",
                                       MODULES["sage_attention.models.lightning"])}
    assert "sage_attention.models.polynomial" in edges


def test_no_private_names_across_modules():
    bad = []
    for source, path in MODULES.items():
        for target, name, _ in imports(source, path):
            if name and name.startswith("_") and not name.endswith("__") and target != source:
                bad.append(f"{source} imports {name} from {target}")
    assert not bad, "\n".join(bad)


def graph():
    edges = {m: set() for m in MODULES}
    for source, path in MODULES.items():
        for target, _, inside in imports(source, path):
            if target not in MODULES or target == source:
                continue
            if (inside and source.startswith("sage_attention.models")
                    and target.startswith(HIGHER_THAN_MODELS)):
                continue                         # the documented exception
            edges[source].add(target)
    return edges


def find_cycle(edges):
    color, stack = {}, []

    def visit(u):
        color[u] = 1
        stack.append(u)
        for v in sorted(edges[u]):
            if color.get(v) == 1:
                return stack[stack.index(v):] + [v]
            if v not in color:
                c = visit(v)
                if c:
                    return c
        stack.pop()
        color[u] = 2
        return None

    for u in sorted(edges):
        if u not in color:
            c = visit(u)
            if c:
                return c
    return None


def test_find_cycle_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle():
    cycle = find_cycle(graph())
    assert cycle is None, " -> ".join(cycle)


def test_models_import_no_higher_layer_at_module_level():
    bad = []
    for source, path in MODULES.items():
        if not source.startswith("sage_attention.models"):
            continue
        for target, _, inside in imports(source, path):
            if target.startswith(HIGHER_THAN_MODELS) and not inside:
                bad.append(f"{source} imports {target}")
    assert not bad, "\n".join(bad)


def test_dsl_loads_no_sage():
    code = ("import sys, sage_attention.dsl; "
            "print(sorted(m for m in sys.modules if m == 'sage' or m.startswith('sage.'))[:5])")
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("spec", ["slice.att", "transformer_block.att"])
def test_check_loads_no_sage(spec):
    # a module that `check` imports must import Sage inside its functions (a runner that
    # wrote generators through a Sage-importing helper at the top once broke this)
    code = ("import contextlib, io, sys\n"
            "from sage_attention.app.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    status = main(['check', {os.path.join(ROOT, 'examples', spec)!r}])\n"
            "print(status, sorted(m for m in sys.modules if m == 'sage' or m.startswith('sage.'))[:5])")
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() in ("0 []", "None []"), out.stdout
