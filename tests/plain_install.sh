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
# the README's plain install: the package with the passagemath extra
EXTRAS="${PLAIN_INSTALL_EXTRAS-[passagemath]}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/sage_attention-install.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
step() { printf '== %s (%ss)\n' "$1" "$SECONDS"; }

step "building the wheel"
"$PYTHON" -m venv "$WORK/build-env"
"$WORK/build-env/bin/python" -m pip install -q build
(cd "$ROOT" && "$WORK/build-env/bin/python" -m build -q --wheel --outdir "$WORK/dist" . >/dev/null)
WHEEL="$(ls "$WORK"/dist/sage_attention-*.whl)"
echo "   $(basename "$WHEEL")"

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

step "sage-attention check slice.att"
"$BIN/sage-attention" check slice.att

step "sage-attention run slice.att"
"$BIN/sage-attention" run slice.att > run.txt
cat run.txt
grep -q "dimension computed 10, expected 10 (agrees)" run.txt \
    || { echo "FAIL: the run of slice.att does not report dimension 10 (agrees)" >&2; exit 1; }

step "a Python session"
"$BIN/python" - <<'EOF'
from sage_attention import LightningAttention
M = LightningAttention(d=3, t=2, a=2, out=1)
d = M.dimension(seed=0)
print("   LightningAttention(d=3, t=2, a=2, out=1).dimension(seed=0) =", d)
assert d == M.expected_dimension() == 10, (d, M.expected_dimension())
EOF

step "the plain install works"
