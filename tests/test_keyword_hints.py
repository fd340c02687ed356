"""
A misspelled keyword gets the keyword meant (sage_attention.misc.keywords), on every public call that takes keywords.

The calls a user makes with keywords -- the constructors, ``implicitize``,
``certify``, and the public methods of the models and of ``Neurovariety`` --
are called here with each of their keywords misspelled (a letter dropped):
the error must name the keyword meant, before any computation. Their
signatures, as ``inspect`` and Sage's introspection read them, must be those
of the functions themselves.
"""
import inspect

import pytest

from sage.misc.sageinspect import sage_getargspec

import sage_attention
from sage_attention import LightningAttention, SoftmaxAttention, Network, PolynomialNetwork, dense, attention
from sage_attention.misc.keywords import accepted_keywords


def misspelled(name):
    """Drop the second letter of ``name`` (``progress`` -> ``pogress``)."""
    return name[0] + name[2:] if len(name) > 3 else name + "x"


def objects():
    M = LightningAttention(d=2, t=2, a=1, out=1)
    return [("LightningAttention(d=2, t=2, a=1, out=1)", M),
            ("LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2)",
             LightningAttention(widths=[2, 2, 1], ranks=[1, 1], t=2)),
            ("LightningAttention(d=2, t=2, a=1, heads=2)", LightningAttention(d=2, t=2, a=1, heads=2)),
            ("SoftmaxAttention(d=2, t=2, a=1)", SoftmaxAttention(d=2, t=2, a=1)),
            ("PolynomialNetwork([2, 2, 1], 2)", PolynomialNetwork([2, 2, 1], 2)),
            ("its neurovariety", M.neurovariety())]


def keyword_methods(obj):
    """Yield ``(name, bound method, keywords)`` for the public methods of ``obj`` with keywords besides self."""
    for name in dir(type(obj)):
        if name.startswith("_"):
            continue
        member = inspect.getattr_static(type(obj), name)
        if not inspect.isfunction(member):
            continue
        keys = accepted_keywords(member)
        if keys and len(keys) > 1:
            yield name, getattr(obj, name), [k for k in keys if k != "self"]


@pytest.mark.parametrize("label,obj", objects(), ids=lambda x: x if isinstance(x, str) else "")
def test_methods_name_the_keyword_meant(label, obj):
    found = 0
    for name, method, keys in keyword_methods(obj):
        for key in keys:
            wrong = misspelled(key)
            if wrong in keys:
                continue
            with pytest.raises(TypeError, match=f"unexpected keyword argument '{wrong}'") as info:
                method(**{wrong: None})
            assert f"`{key}`" in str(info.value) or len(key) <= 3, (label, name, str(info.value))
            assert "its keywords: " in str(info.value)
            found += 1
    assert found, f"no method with keywords on {label}"


@pytest.mark.parametrize("function", [sage_attention.implicitize, sage_attention.certify, LightningAttention,
                                      SoftmaxAttention, Network, PolynomialNetwork, dense, attention],
                         ids=lambda f: f.__name__)
def test_functions_name_the_keyword_meant(function):
    keys = accepted_keywords(function)
    for key in keys:
        wrong = misspelled(key)
        if wrong in keys or wrong in ("field", "mask", "tokens", "rank", "input"):
            continue
        with pytest.raises(TypeError, match=f"unexpected keyword argument '{wrong}'") as info:
            function(**{wrong: None})
        if len(key) > 3:
            assert f"(did you mean `{key}`?)" in str(info.value), str(info.value)


@pytest.mark.parametrize("function", [sage_attention.implicitize, LightningAttention, Network,
                                      type(LightningAttention(d=2, t=2, a=1).neurovariety()).vanishing_ideal],
                         ids=lambda f: f.__name__)
def test_signatures_are_the_functions_own(function):
    inner = inspect.unwrap(function)
    assert inner is not function
    assert inspect.signature(function) == inspect.signature(inner)
    assert sage_getargspec(function) == inspect.getfullargspec(inner)


def test_correct_keywords_still_compute():
    M = LightningAttention(d=2, t=2, a=1, out=1)
    assert M.dimension(seed=0) == M.expected_dimension()
    R = sage_attention.implicitize(M, 2, seed=0, progress=False)
    phi = M.essential_parametrization()
    assert R.essential_generators and all(phi(g) == 0 for g in R.essential_generators)
