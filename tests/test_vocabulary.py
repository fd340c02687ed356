"""
One vocabulary, two spellings: the spec language writes `input`, `tokens`, `rank`, `mask = causal`,
`activation = power(r)`; Python writes d, t, a, causal=True, r= / activation_degree=. A word of one
written in the other gets the right word, and the fix offered is accepted when applied.
"""
import re

import pytest

from sage_attention import LightningAttention, Network, PolynomialNetwork, attention, dense
from sage_attention.app import cli

SPECS = [
    # (a spec with a Python name, the Python word)
    ("model m {\n  d = 3; tokens = 2\n  layer attention(rank = 1, out = 1)\n}\n", "d"),
    ("model m {\n  input = 3; t = 2\n  layer attention(rank = 1, out = 1)\n}\n", "t"),
    ("model m {\n  input = 3; tokens = 2; base_ring = QQ\n  layer attention(rank = 1, out = 1)\n}\n", "base_ring"),
    ("model m {\n  input = 3; tokens = 2\n  layer attention(a = 1, out = 1)\n}\n", "a"),
    ("model m {\n  input = 3; tokens = 2\n  layer attention(rank = 1, out = 1, causal = true)\n}\n", "causal"),
    ("model m {\n  input = 3\n  layer dense(out = 2, r = 2)\n  layer dense(out = 1)\n}\n", "r"),
    ("model m {\n  input = 3; tokens = 2; d = 3\n  layer attention(rank = 1, out = 1)\n}\n", "d"),
]


def apply_fix(spec, word, fix):
    """Apply a `fix:` line to the spec: `write X` replaces `word = value`, `remove Y` deletes Y."""
    m = re.match(r"write `(.+?)`$", fix)
    if m:
        return re.sub(rf"\b{word}\s*=\s*[^;,)\n]+", m.group(1), spec, count=1)
    m = re.search(r"remove `(.+?)`", fix)
    assert m, fix
    return spec.replace(m.group(1), "", 1).replace("; \n", "\n").replace(", )", ")")


@pytest.mark.parametrize("spec,word", SPECS)
def test_a_python_name_in_a_spec_gets_the_spec_word_and_a_fix_that_checks(spec, word, tmp_path, capsys):
    f = tmp_path / "m.att"
    f.write_text(spec)
    assert cli.main(["check", str(f)]) == 2
    err = capsys.readouterr().err
    assert f"Unknown keyword: `{word}` (the Python name; the spec writes" in err
    (fix,) = re.findall(r"^fix: (.*)$", err, re.M)
    f.write_text(apply_fix(spec, word, fix))
    status = cli.main(["check", str(f)])
    assert status == 0, (fix, f.read_text(), capsys.readouterr().err)


@pytest.mark.parametrize("call,python", [
    (lambda: attention(rank=1, out=2), "a="),
    (lambda: dense(out=2, activation=2), "r="),
    (lambda: PolynomialNetwork([2, 3, 1], power=2), "activation_degree="),
    (lambda: Network([dense(out=1)], input=2), "d="),
    (lambda: LightningAttention(d=2, tokens=2, a=1), "t="),
    (lambda: LightningAttention(d=2, t=2, a=1, mask="causal"), "causal=True"),
])
def test_a_spec_word_in_python_gets_the_python_name(call, python):
    with pytest.raises(TypeError, match=re.escape(f"write {python}")):
        call()
