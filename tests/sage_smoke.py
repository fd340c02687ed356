"""
The smoke test of ``make sagetest``: sage_attention inside a full Sage.

Usage: ``python tests/sage_smoke.py BEFORE AFTER``, where BEFORE and AFTER
are ``pip freeze --all`` of the Sage environment before and after installing
the wheel of sage_attention. Fails when the install downgraded or removed a
package, or when the session below does not work.
"""
import re
import sys


def versions(path):
    out = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"([A-Za-z0-9_.-]+)==(\S+)", line.strip())
        if m:
            out[m.group(1).lower().replace("_", "-")] = m.group(2)
    return out


def changes(before, after):
    """The packages the install added, upgraded, downgraded or removed."""
    from packaging.version import Version
    out = {"added": [], "upgraded": [], "downgraded": [], "removed": []}
    for name in sorted(set(before) | set(after)):
        b, a = before.get(name), after.get(name)
        if b == a:
            continue
        kind = ("added" if b is None else "removed" if a is None else
                "upgraded" if Version(a) > Version(b) else "downgraded")
        out[kind].append(f"{name} {b or '-'} -> {a or '-'}")
    return out


def main(before_file, after_file):
    diff = changes(versions(before_file), versions(after_file))
    for kind, items in diff.items():
        print(f"{kind}: {', '.join(items) if items else 'none'}")
    from sage.all import QQ, PolynomialRing, matrix, set_random_seed  # noqa: F401  (a full Sage)
    import sage.all  # noqa: F401
    from sage_attention import LightningAttention, parse_spec
    M = LightningAttention(d=3, t=2, a=2, out=1)
    d = M.dimension(seed=0)
    assert d == M.expected_dimension() == 10, (d, M.expected_dimension())
    spec = parse_spec("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
                      "compute m { dimension seed = 0 }")
    assert spec.models[0].build().dimension(seed=0) == 4
    print(f"from sage.all import *: ok; dimension {d} as published; the DSL builds its model")
    bad = diff["downgraded"] + diff["removed"]
    if bad:
        sys.exit(f"FAIL: installing sage_attention into the full Sage changed: {', '.join(bad)}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
