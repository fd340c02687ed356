#!/usr/bin/env bash
# The install routes, as a user takes them (`make installtest`, part of `make test`).
#
# Build a wheel of this checkout and install it into fresh virtual environments,
# from another folder, with an empty temporary directory and an empty user cache:
#   1. plain Python, the README's command `pip install "sage_attention[passagemath]"`
#      (the wheel in place of the name on PyPI; no test extra, so no interegular,
#      pytest, ...): --version, `sage-attention examples`, check and run of every
#      example spec (the spec also read from standard input), a Python session,
#      and every Jupyter kernel the install registers answers kernel_info or is
#      named in doc/install.rst as one not to use;
#   2. without Sage (the wheel alone): `check` works, `run` and the package's names
#      say which command installs Sage;
#   3. into an environment that already has Sage (the passagemath distributions),
#      as `sage -pip install sage_attention`: nothing of Sage is installed again.
# Nothing outside a temporary folder is changed (pip's own cache makes it a few
# minutes). Usage: tests/plain_install.sh [PYTHON]   (default python3.11)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${1:-python3.11}"
# the README's plain-Python install: the wheel with the `passagemath` extra
EXTRAS="${PLAIN_INSTALL_EXTRAS-[passagemath]}"
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
cd "$WORK/elsewhere"
export TMPDIR="$WORK/tmp" XDG_CACHE_HOME="$WORK/cache"
unset PYTHONPATH
BIN="$WORK/venv/bin"

step "sage-attention examples (the specs and the notebook ship in the wheel)"
"$BIN/sage-attention" examples
cp examples/slice.att slice.att

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

step "sage-attention run on every example spec"
for spec in examples/*.att; do
    "$BIN/sage-attention" run -q "$spec" > /dev/null || { echo "FAIL: sage-attention run $spec" >&2; exit 1; }
    echo "   $spec: ok"
done
for spec in examples/errors/*.att; do
    status=0; "$BIN/sage-attention" check "$spec" 2> /dev/null || status=$?
    [ "$status" = 2 ] || { echo "FAIL: check $spec exited $status, not 2" >&2; exit 1; }
done
echo "   the specs with errors are refused (exit status 2)"

step "the Jupyter kernels the install registers"
"$BIN/python" -m pip install -q jupyter_client ipykernel
"$BIN/python" "$ROOT/tests/kernels_check.py" "$WORK/venv" "$ROOT/doc/install.rst"

step "without Sage: the wheel alone"
"$PYTHON" -m venv "$WORK/nosage"
"$WORK/nosage/bin/python" -m pip install -q "$WHEEL"
"$WORK/nosage/bin/sage-attention" check slice.att
status=0; "$WORK/nosage/bin/sage-attention" run slice.att 2> nosage.err || status=$?
if [ "$status" != 1 ] || ! grep -q 'pip install "sage_attention\[passagemath\]"' nosage.err; then
    echo "FAIL: run without Sage (exit $status) does not name the install command" >&2; cat nosage.err >&2; exit 1
fi
"$WORK/nosage/bin/python" - <<'EOF'
import sage_attention
try:
    sage_attention.LightningAttention
except ImportError as e:
    assert 'pip install "sage_attention[passagemath]"' in str(e), e
    print("   the package's names say:", str(e)[:60], "...")
else:
    raise SystemExit("FAIL: LightningAttention without Sage did not say how to install Sage")
EOF

step "into an environment that has Sage already (sage -pip install sage_attention)"
"$PYTHON" -m venv "$WORK/sage-env"
SAGE_DISTS="$("$WORK/build-env/bin/python" -c 'import sys, tomllib; print(" ".join(tomllib.load(open(sys.argv[1], "rb"))["project"]["optional-dependencies"]["passagemath"]))' "$ROOT/pyproject.toml")"
# shellcheck disable=SC2086
"$WORK/sage-env/bin/python" -m pip install -q $(echo "$SAGE_DISTS" | sed 's/ ~= /~=/g')
"$WORK/sage-env/bin/python" -m pip freeze --all | grep -i '^passagemath' | sort > sage-before.txt
"$WORK/sage-env/bin/python" -m pip install -q "$WHEEL"
"$WORK/sage-env/bin/python" -m pip freeze --all | grep -i '^passagemath' | sort > sage-after.txt
diff sage-before.txt sage-after.txt || { echo "FAIL: installing into Sage changed its passagemath" >&2; exit 1; }
[ -s sage-after.txt ] || { echo "FAIL: no passagemath in the Sage environment" >&2; exit 1; }
"$WORK/sage-env/bin/sage-attention" run -q slice.att > /dev/null
echo "   $(wc -l < sage-after.txt) passagemath distributions, unchanged; run slice.att: ok"

step "the install routes work"
