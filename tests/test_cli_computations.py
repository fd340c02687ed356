"""The DSL's computation statements run the library's functions."""
import io
import json

from sage_attention.app.cli import run_spec
from sage_attention.dsl import parse_spec, validate
from sage_attention.invariants import FAMILIES
from sage_attention.dsl.spec import INVARIANT_FAMILIES


def test_spec_knows_every_family():
    assert set(INVARIANT_FAMILIES) - {"all"} == set(FAMILIES)


def test_invariants_and_check_statements():
    spec = parse_spec("""
    model m { input = 3; tokens = 2; layer attention(rank = 1, out = 1); weights = A V }
    compute m { invariants rank_one; check invariants }
    """)
    validate(spec)
    out = io.StringIO()
    (result,) = run_spec(spec, as_json=True, out=out)
    data = json.loads(out.getvalue())
    inv, chk = data["computations"]
    assert inv["computation"] == "invariants" and chk["computation"] == "check"
    (fam,) = inv["families"]
    # rank one: linear relations, 2x2 minors of F and pencil cubics (doc/mathematics.rst, §3.7)
    assert fam["degrees"] == [1, 2, 3]
    assert chk["all_vanish"] is True
