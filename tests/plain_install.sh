#!/usr/bin/env bash
# The plain install, as a user does it (`make installtest`, part of `make test`).
#
# Build a wheel of this checkout, install it into a fresh virtual environment
# with exactly the README's plain install command (the wheel in place of the
# name on PyPI; no test extra, so no interegular, pytest, ...), then, from
# another folder and with an empty temporary directory and an empty user cache:
#   - sage-attention --version, check and run on a copy of examples/slice.att,
#     the spec also read from standard input (`-`);
#   - a short Python session: a dimension against the published formula.
# Nothing outside a temporary folder is changed (pip's own cache makes it
# about a minute). Usage: tests/plain_install.sh [PYTHON]   (default python3.11)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${1:-python3.11}"
# the README's plain install: the wheel alone, no extra
EXTRAS="${PLAIN_INSTALL_EXTRAS-}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/sage_attention-install.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
step() { printf '== %s (%ss)\n' "$1" "$SECONDS"; }

step "building the sdist and the wheel (from the sdist)"
"$PYTHON" -m venv "$WORK/build-env"
"$WORK/build-env/bin/python" -m pip install -q build twine
(cd "$ROOT" && "$WORK/build-env/bin/python" -m build -q --outdir "$WORK/dist" . >/dev/null)
WHEEL="$(ls "$WORK"/dist/sage_attention-*.whl)"
SDIST="$(ls "$WORK"/dist/sage_attention-*.tar.gz)"
echo "   $(basename "$SDIST") $(basename "$WHEEL")"
"$WORK/build-env/bin/python" -m twine check --strict "$WORK"/dist/*
# the sdist ships what the tests read and what a source checkout is used with
"$WORK/build-env/bin/python" - "$SDIST" <<'EOF'
import sys, tarfile
names = {n.split("/", 1)[1] for n in tarfile.open(sys.argv[1]).getnames() if "/" in n}
need = ["examples/slice.att", "examples/errors/unclosed.att", "examples/slice.ipynb",
        "doc/index.rst", "doc/conf.py", "grammar/attention.lark", "tests/test_cli.py",
        "tests/plain_install.sh", "benchmarks/run.py", "LICENSE", "CHANGELOG.md",
        "CITATION.cff", "Makefile", "pyproject.toml", "setup.py",
        "sage_attention/version.py"]
missing = [n for n in need if n not in names]
assert not missing, f"the sdist lacks {missing}"
print(f"   the sdist has {len(names)} files, among them {len(need)} checked")
EOF

step "pip install \"$(basename "$WHEEL")$EXTRAS\" into a fresh venv"
"$PYTHON" -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install -q "$WHEEL$EXTRAS"
if "$WORK/venv/bin/python" -c "import interegular" 2>/dev/null; then
    echo "FAIL: interegular is installed: the plain install must not need it" >&2
    exit 1
fi

mkdir -p "$WORK/elsewhere" "$WORK/tmp" "$WORK/cache"
cp "$ROOT/examples/slice.att" "$WORK/elsewhere/slice.att"
cd "$WORK/elsewhere"
export TMPDIR="$WORK/tmp" XDG_CACHE_HOME="$WORK/cache"
unset PYTHONPATH
BIN="$WORK/venv/bin"

step "sage-attention --version"
"$BIN/sage-attention" --version
expected="$(sed -n 's/^__version__ = "\(.*\)"/\1/p' "$ROOT/sage_attention/version.py")"
[ "$("$BIN/sage-attention" --version)" = "sage-attention $expected" ] \
    || { echo "FAIL: --version does not say $expected" >&2; exit 1; }

step "sage-attention check slice.att"
"$BIN/sage-attention" check slice.att

step "sage-attention run slice.att"
"$BIN/sage-attention" run slice.att > run.txt
cat run.txt
grep -q "dimension computed 10, expected 10 (agrees)" run.txt \
    || { echo "FAIL: the run of slice.att does not report dimension 10 (agrees)" >&2; exit 1; }

step "sage-attention run --json - < slice.att"
"$BIN/sage-attention" run --json --quiet - < slice.att > run.jsonl
"$BIN/python" - <<'EOF'
import json
records = [json.loads(line) for line in open("run.jsonl")]
assert [(r["format"], r["record"], r["model"]) for r in records] == \
    [(1, "model", "slice"), (1, "model", "single_token"), (1, "model", "qkv")], records
assert all(r["dimension"] == r["expected_dimension"] for r in records), records
print("   3 JSON records, every dimension as published")
EOF

step "a Python session"
"$BIN/python" - <<'EOF'
from sage_attention import LightningAttention
M = LightningAttention(d=3, t=2, a=2, out=1)
d = M.dimension(seed=0)
print("   LightningAttention(d=3, t=2, a=2, out=1).dimension(seed=0) =", d)
assert d == M.expected_dimension() == 10, (d, M.expected_dimension())
EOF

step "the plain install works"
