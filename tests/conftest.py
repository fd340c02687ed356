"""Configuration of the test suite.

``make pytest`` runs the tests in parallel workers (pytest-xdist, ``-n auto --dist loadgroup
--no-loadscope-reorder``): each test goes to the next free worker, except the tests of a module
that share work done once per process -- a module-scoped fixture, or a cache the module fills
(listed in :data:`SHARED_MODULES`) -- which stay together on one worker, so that the work is done
once. The slowest tests (:data:`SLOW_FIRST`) are started first, so that the workers finish
together.
Without xdist (``pytest tests/test_X.py``) the grouping changes nothing.

The helpers shared by the test files are in ``tests/helpers.py`` (``from helpers import ...``).
Every test writes into its own temporary folder (``tmp_path``), so that parallel workers never
share a file.
"""
import pytest

#: modules whose tests share a cache filled in the process, not a fixture (the unique
#: ``Neurovariety`` of a model keeps the ideals computed, ``functools.lru_cache``)
SHARED_MODULES = {"test_default_path.py", "test_completeness.py"}


def pytest_configure(config):
    # the mark of pytest-xdist, declared here too so that a run without xdist does not warn
    config.addinivalue_line("markers", "xdist_group(name): run these tests on one xdist worker")


def _shares_module_work(item):
    """Whether ``item`` uses a fixture of its own module computed once per module (or per
    session), or its module is one of :data:`SHARED_MODULES`."""
    module = item.nodeid.split("::")[0]
    if module.rsplit("/", 1)[-1] in SHARED_MODULES:
        return True
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info else ()):
        for fixturedef in defs:
            if fixturedef.scope in ("module", "package", "session") and fixturedef.baseid == module:
                return True
    return False


#: the tests that take longest (measured with ``--durations``), started first so that the
#: workers finish together; only the order changes. The first, on 5544 coordinates, runs 7 s in
#: a fresh process and up to 30 times longer after the invariant grid (libsingular's state).
SLOW_FIRST = (
    "tests/test_certificates.py::test_large_model_guard_and_fast_realizable_points",
    "tests/test_partial_minors.py::test_the_triples_of_quinary_quadrics_need_no_quintics",
    "tests/test_completeness.py::test_wrong_ideals_never_proved",
    "tests/test_inheritance.py::test_theorem_against_the_localization_proof",
    "tests/test_subspace.py::test_the_columns_of_a_slice_by_inheritance_from_fewer_features",
    "tests/test_subspace.py::test_the_token_of_width_five_is_proved_through_degree_four",
    "tests/test_subspace.py::test_the_token_of_width_four_is_proved_and_degree_five",
    "tests/test_default_path.py",
    "tests/test_invariants.py::test_every_family_vanishes_on_the_parametrization",
    "tests/test_guards.py::test_interpolation_degree_4_on_160_coordinates_is_refused",
    "tests/test_fields.py::test_implicitize_over_gf_p_is_the_kernel_over_gf_p",
    "tests/test_hilbert.py::test_betti_numbers_of_slice_d3_rank1_agree_with_rational",
    "tests/test_defectivity.py::test_fibers_are_the_symmetry_orbits_below_saturation",
)


def _slow_rank(item):
    for rank, prefix in enumerate(SLOW_FIRST):
        if item.nodeid.startswith(prefix):
            return rank
    return len(SLOW_FIRST)


def pytest_collection_modifyitems(config, items):
    items.sort(key=_slow_rank)          # stable: the other tests keep their order
    for item in items:
        if _shares_module_work(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
