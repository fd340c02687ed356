r"""
Old module names, kept working for one version with a deprecation warning.

Version 0.1 had a flat package (``sage_attention.network``,
``sage_attention.implicitization``, ...). Version 0.2 groups the modules
into layers (:mod:`sage_attention.dsl`, :mod:`sage_attention.models`,
:mod:`sage_attention.invariants`, :mod:`sage_attention.ideals`,
:mod:`sage_attention.variety`, :mod:`sage_attention.app`). Importing an old
name gives the new module and a :class:`DeprecationWarning`::

    sage: import warnings
    sage: with warnings.catch_warnings(record=True) as w:
    ....:     warnings.simplefilter("always")
    ....:     from sage_attention.implicitization import implicitize
    sage: implicitize.__module__
    'sage_attention.ideals.implicitization'
    sage: print(w[0].message)
    sage_attention.implicitization is deprecated; import from
    sage_attention.ideals.implicitization instead

This module imports no Sage.
"""
import importlib
import importlib.abc
import importlib.util
import os
import sys
import warnings

# the package root (this module lives in sage_attention/misc/)
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def caller_stacklevel():
    r"""
    Return the ``stacklevel`` that makes a warning point at the user's line.

    For :func:`warnings.warn` called in the function that calls this one:
    the first frame outside the package, not counting the frames of the
    import machinery (which :mod:`warnings` does not count either). So the
    warning names the user's file and line, and Python's default filter,
    which shows a :class:`DeprecationWarning` raised by code in
    ``__main__``, shows it to a plain script (a fixed ``stacklevel`` pointed
    past the script, at ``sys:1``, when the package's call chain was
    shorter than assumed).

    OUTPUT: an integer at least `2`

    EXAMPLES::

        sage: from sage_attention.misc.deprecation import caller_stacklevel
        sage: def f():
        ....:     return caller_stacklevel()
        sage: f()
        2
    """
    frame, level = sys._getframe(2), 2
    while frame is not None:
        name = frame.f_code.co_filename
        if "importlib" in name and "_bootstrap" in name:
            frame = frame.f_back
            continue
        if not os.path.abspath(name).startswith(_PACKAGE):
            return level
        frame, level = frame.f_back, level + 1
    return level


#: old module name -> new module name
MOVED_MODULES = {
    "sage_attention.spec": "sage_attention.dsl.spec",
    "sage_attention.network": "sage_attention.models",
    "sage_attention.models.network": "sage_attention.models",
    "sage_attention.softmax": "sage_attention.models.softmax",
    "sage_attention.reports": "sage_attention.models.reports",
    "sage_attention.neurovariety": "sage_attention.variety.neurovariety",
    "sage_attention.membership": "sage_attention.variety.membership",
    "sage_attention.certificates": "sage_attention.variety.certificates",
    "sage_attention.singular": "sage_attention.variety.singular_points",
    "sage_attention.generation": "sage_attention.variety.generation",
    "sage_attention.export": "sage_attention.variety.export",
    "sage_attention.elimination": "sage_attention.ideals.elimination",
    "sage_attention.grading": "sage_attention.ideals.engine.grading",
    "sage_attention.symmetry": "sage_attention.ideals.engine.symmetry",
    "sage_attention.linalg_modp": "sage_attention.ideals.engine.linalg_modp",
    "sage_attention.implicitization": "sage_attention.ideals.implicitization",
    "sage_attention.cli": "sage_attention.app.cli",
    "sage_attention.experiments": "sage_attention.app.experiments",
    "sage_attention.figures": "sage_attention.app.figures",
    # version 0.3: the rooms of the redesign (misc, catalog, ideals.engine, ideals.proofs)
    "sage_attention._deprecated": "sage_attention.misc.deprecation",
    "sage_attention.html": "sage_attention.misc.html",
    "sage_attention.progress": "sage_attention.misc.progress",
    "sage_attention.keywords": "sage_attention.misc.keywords",
    "sage_attention.errors": "sage_attention.misc.errors",
    "sage_attention.randomness": "sage_attention.misc.randomness",
    "sage_attention.ideals.memory": "sage_attention.misc.memory",
    "sage_attention.ideals.forked": "sage_attention.misc.forked",
    "sage_attention.ideals.polynomial_text": "sage_attention.misc.polynomial_text",
    "sage_attention.dsl.text": "sage_attention.misc.text",
    "sage_attention.dsl.computations": "sage_attention.catalog.computations",
    "sage_attention.sizes": "sage_attention.catalog.costs",
    "sage_attention.fields": "sage_attention.catalog.fields",
    "sage_attention.ideals._checks": "sage_attention.models.checks",
    "sage_attention.ideals.grading": "sage_attention.ideals.engine.grading",
    "sage_attention.ideals.symmetry": "sage_attention.ideals.engine.symmetry",
    "sage_attention.ideals.evaluation": "sage_attention.ideals.engine.evaluation",
    "sage_attention.ideals.pieces": "sage_attention.ideals.engine.pieces",
    "sage_attention.ideals.product_span": "sage_attention.ideals.engine.product_span",
    "sage_attention.ideals.graded_kernel": "sage_attention.ideals.engine.graded_kernel",
    "sage_attention.ideals.linalg_modp": "sage_attention.ideals.engine.linalg_modp",
    "sage_attention.ideals.implicitization_cache": "sage_attention.ideals.engine.cache",
    "sage_attention.ideals.implicitization_report": "sage_attention.ideals.engine.report",
    "sage_attention.ideals.completeness": "sage_attention.ideals.proofs.completeness",
    "sage_attention.ideals.localization": "sage_attention.ideals.proofs.localization",
    "sage_attention.ideals.shape_basis": "sage_attention.ideals.proofs.shape_basis",
    "sage_attention.ideals.segre": "sage_attention.ideals.proofs.segre",
    "sage_attention.ideals.inheritance": "sage_attention.ideals.proofs.inheritance",
    "sage_attention.ideals.subspace": "sage_attention.ideals.proofs.subspace",
    "sage_attention.ideals.partial_minors": "sage_attention.ideals.proofs.partial_minors",
    "sage_attention.ideals.birational": "sage_attention.ideals.proofs.birational",
    "sage_attention.ideals.form_coordinates": "sage_attention.ideals.proofs.form_coordinates",
    "sage_attention.ideals.common_factor": "sage_attention.ideals.proofs.common_factor",
    "sage_attention.ideals.factor_orbits": "sage_attention.ideals.proofs.factor_orbits",
}


class _MovedModuleLoader(importlib.abc.Loader):
    def __init__(self, new):
        self.new = new

    def create_module(self, spec):
        warnings.warn(f"{spec.name} is deprecated; import from {self.new} instead",
                      DeprecationWarning, stacklevel=caller_stacklevel())
        return importlib.import_module(self.new)

    def exec_module(self, module):
        pass


class _MovedModuleFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        new = MOVED_MODULES.get(fullname)
        if new is None:
            return None
        return importlib.util.spec_from_loader(fullname, _MovedModuleLoader(new))


def install():
    r"""
    Put the finder of old module names on ``sys.meta_path`` (once).

    EXAMPLES::

        sage: from sage_attention.misc.deprecation import install, _MovedModuleFinder
        sage: install(); install()
        sage: sum(isinstance(f, _MovedModuleFinder) for f in sys.meta_path)
        1
    """
    if not any(isinstance(f, _MovedModuleFinder) for f in sys.meta_path):
        sys.meta_path.append(_MovedModuleFinder())


def renamed_names(module_name, renamed):
    r"""
    Return a module-level ``__getattr__`` that serves the old names of ``renamed``.

    INPUT:

    - ``module_name`` -- the module's ``__name__``
    - ``renamed`` -- dictionary from old names to the names that replace them

    OUTPUT: a function to assign to the module's ``__getattr__``: an old name
    returns the new object with a :class:`DeprecationWarning`; any other
    missing name raises ``AttributeError``

    EXAMPLES::

        sage: from sage_attention.ideals.implicitization import ImplicitizationResult
        doctest:warning...
        DeprecationWarning: ImplicitizationResult is deprecated; use ImplicitizationReport instead
        sage: from sage_attention.ideals.elimination import EliminationResult
        doctest:warning...
        DeprecationWarning: EliminationResult is deprecated; use EliminationReport instead
        sage: import sage_attention.ideals.elimination as E
        sage: E.NoSuchName
        Traceback (most recent call last):
        ...
        AttributeError: module 'sage_attention.ideals.elimination' has no attribute 'NoSuchName'
    """
    def __getattr__(name):
        new = renamed.get(name)
        if new is None:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        warnings.warn(f"{name} is deprecated; use {new} instead", DeprecationWarning,
                      stacklevel=caller_stacklevel())
        return getattr(sys.modules[module_name], new)
    return __getattr__
