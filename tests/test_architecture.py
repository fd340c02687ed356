"""
The architecture of the package, read from its import statements (ast).

The layers, bottom to top; a module imports only modules of its own room or
of a lower floor, at module level and inside functions alike
(``doc/contributing.rst`` draws the house):

0. plumbing -- ``sage_attention.version``, ``sage_attention.settings``,
   ``sage_attention.misc``;
1. the catalog of computations -- ``sage_attention.catalog``;
2. the models -- ``sage_attention.models``;
3. two rooms side by side, neither importing the other: the invariant
   families (``sage_attention.invariants``) and the ideals
   (``sage_attention.ideals``), whose own rooms are ordered: the engine
   (``ideals.engine``), then the ideal algorithms beside it (Hilbert data,
   membership, minimal generators, elimination), then the proofs
   (``ideals.proofs``), then ``ideals.implicitization`` (engine + proof);
4. the variety -- ``sage_attention.variety``;
5. the front ends -- ``sage_attention.dsl``, then ``sage_attention.app``;
6. the facade -- ``sage_attention`` (its names are loaded on first use).

One documented exception: ``model.neurovariety()`` returns a variety, so
:mod:`sage_attention.models.base` names
:class:`~sage_attention.variety.neurovariety.Neurovariety` through Sage's
``lazy_import`` (as Sage's ``algebraic_scheme.py`` does). A ``lazy_import``
of a package module counts as an import, so any other one is an arrow
against the order and fails here.

Also: no module imports a private name (``_name``) from another
sage_attention module; importing the DSL loads no Sage (checked in a fresh
interpreter), and neither does ``sage-attention check`` on the examples.
"""
import ast
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "sage_attention")

#: (room, module prefixes), bottom to top; rooms with the same floor number stand side by side
ROOMS = [
    (0, "plumbing", ("sage_attention.version", "sage_attention.settings", "sage_attention.misc")),
    (1, "catalog", ("sage_attention.catalog",)),
    (2, "models", ("sage_attention.models",)),
    (3, "invariants", ("sage_attention.invariants",)),
    (3.0, "ideals.engine", ("sage_attention.ideals.engine",)),
    (3.1, "ideals", ("sage_attention.ideals.hilbert", "sage_attention.ideals.ideal_checks",
                     "sage_attention.ideals.minimal_generators", "sage_attention.ideals.elimination",
                     "sage_attention.ideals.stack_elimination")),
    (3.2, "ideals.proofs", ("sage_attention.ideals.proofs",)),
    (3.25, "ideals.metric", ("sage_attention.ideals.metric",)),
    (3.3, "ideals.implicitization", ("sage_attention.ideals.implicitization", "sage_attention.ideals")),
    (4, "variety", ("sage_attention.variety",)),
    (5, "dsl", ("sage_attention.dsl",)),
    (6, "app", ("sage_attention.app",)),
    (7, "facade", ("sage_attention",)),
]
#: the one documented arrow up the layers: (importer, imported)
LAZY_EXCEPTION = ("sage_attention.models.base", "sage_attention.variety.neurovariety")


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


def room(module):
    r"""Return ``(floor, room name)`` of a module: the room with the longest matching prefix."""
    best = None
    for floor, name, prefixes in ROOMS:
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and (best is None or len(p) > best[0]):
                best = (len(p), floor, name)
    assert best is not None, f"{module} is in no room of ROOMS"
    return best[1], best[2]


def allowed(source, target):
    r"""Return whether ``source`` may import ``target``: the same room, or a lower floor."""
    (fs, rs), (ft, rt) = room(source), room(target)
    if rs == rt:
        return True
    if int(fs) == int(ft) == 3 and "invariants" in (rs, rt):
        return False                    # invariants and ideals stand side by side
    return ft < fs


def lazy_imports(path):
    r"""Yield the modules that ``lazy_import("sage_attention....", ...)`` calls of a file name."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "lazy_import"
                and node.args and isinstance(node.args[0], ast.Constant)
                and str(node.args[0].value).startswith("sage_attention")):
            yield node.args[0].value


def edges():
    r"""Return ``{source: {target: how}}``: every import of a package module, ``how`` saying where."""
    out = {m: {} for m in MODULES}
    for source, path in MODULES.items():
        for target, _, inside in imports(source, path):
            if target in MODULES and target != source:
                out[source].setdefault(target, "inside a function" if inside else "at module level")
        for target in lazy_imports(path):
            if (source, target) != LAZY_EXCEPTION:
                out[source].setdefault(target, "by lazy_import")
    return out


def test_every_module_has_a_room():
    for m in MODULES:
        room(m)


def test_the_rooms_order():
    assert allowed("sage_attention.variety.neurovariety", "sage_attention.models.base")
    assert not allowed("sage_attention.models.base", "sage_attention.variety.neurovariety")
    assert not allowed("sage_attention.invariants.base", "sage_attention.ideals.hilbert")
    assert not allowed("sage_attention.ideals.hilbert", "sage_attention.invariants.base")
    assert allowed("sage_attention.ideals.proofs.segre", "sage_attention.ideals.engine.grading")
    assert not allowed("sage_attention.ideals.engine.grading", "sage_attention.ideals.proofs.segre")
    assert allowed("sage_attention.app.cli", "sage_attention.dsl.parser")
    assert not allowed("sage_attention.dsl.parser", "sage_attention.app.cli")


def test_no_arrow_against_the_layers():
    bad = [f"{s} imports {t} {how}" for s, targets in edges().items() for t, how in targets.items()
           if not allowed(s, t)]
    assert not bad, "\n".join(sorted(bad))


def test_the_one_lazy_exception_is_there():
    # the exception is documented where it is used; if it goes, remove LAZY_EXCEPTION too
    assert LAZY_EXCEPTION[1] in set(lazy_imports(MODULES[LAZY_EXCEPTION[0]]))


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
    # every import counts, inside functions too (the lazy exception is not an import edge)
    cycle = find_cycle({s: set(t) for s, t in edges().items()})
    assert cycle is None, " -> ".join(cycle)


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


@pytest.mark.parametrize("module", ["sage_attention.ideals.proofs.localization",
                                    "sage_attention.ideals.engine.graded_kernel",
                                    "sage_attention.invariants.brill", "sage_attention.variety.points"])
def test_a_module_imports_alone_in_a_fresh_interpreter(module):
    # a module whose first Sage import is `sage.rings...` failed with a circular import inside Sage
    # when imported first; each subpackage that uses Sage initializes it in its __init__
    out = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=ROOT), timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
