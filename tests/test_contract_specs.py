"""The reliability contract of ``sage-attention`` on spec files.

Each case runs ``python -m sage_attention.app.cli check|run ...`` in a child
process with a time limit and a memory limit (``RLIMIT_AS``) and asserts:

- the documented exit status (0 ran, 1 a computation failed, 2 an error in
  the spec or nothing to run, 130 interrupted);
- no Python traceback;
- for an error, a message with the location (``file:line:col:`` when the
  error is inside the file, the path otherwise) and a fix;
- for an answer, the right answer;
- ``check`` imports no Sage module (``-X importtime`` lists every import).

Each case is one test, in its own temporary folder: the cases run in parallel under
pytest-xdist (``make pytest``), one worker per core.
"""
import json
import os
import re
import resource
import subprocess
import sys
from collections import namedtuple

import pytest

from sage_attention.dsl import errors as E

from helpers import ROOT, cli_env

#: limits of one child process
CHECK_SECONDS, RUN_SECONDS = 60, 300
CHECK_MEMORY, RUN_MEMORY = 1 << 30, 6 << 30

#: ``content``: str or bytes (written to ``case.att``), or a callable ``(tmpdir) -> path``;
#: ``expect``: substrings of the output; ``where``: ``"line"`` (``file:line:col:``),
#: ``"path"`` (the path only) or ``None`` (no error); ``check``: a callable on
#: ``(stdout, stderr)`` for answers
Case = namedtuple("Case", "id command content status expect where check extra",
                  defaults=((), None, None, ()))

TINY = "model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
LINE = "model line { input = 1; tokens = 2; layer attention(rank = 1, out = 1) }\n"
SLICE = ("model slice { input = 3; tokens = 2; layer attention(rank = 2, out = 1)\n"
         "  weights = A V; coordinates = scaled; entries = (1, 1) }\n")
DEEP = ("model deep {\n  input = 3; tokens = 3\n  layer attention(rank = 2, out = 3)\n"
        "  layer attention(rank = 2, out = 3)\n}\n")
SOFT = ("model soft { input = 2; tokens = 2\n"
        "  layer attention(rank = 1, out = 1, normalization = softmax) }\n")
GPT = ("model gpt { input = 2; tokens = 2\n"
       "  layer attention(rank = 1, out = 2, heads = 2, mask = causal, residual = true) }\n")
HEADS = "model h { input = 2; tokens = 2; layer attention(rank = 1, out = 1, heads = 2) }\n"

#: words that show a message says how to fix the error
FIX_WORDS = ("fix:", "did you mean", "must be", "needs", "use ", "write", "keep", "try",
             "rename", "drop", "list ", "add ", "known:", "its options", "give", "split",
             "re-save", "at most", "pass --force", "save the spec", "the models are", "check the")


def ok(models, computations):
    text = (f"ok: {models} model{'s' * (models != 1)}, "
            f"{computations} computation{'s' * (computations != 1)}")
    return Case(f"valid-{models}-{computations}", "check", None, 0, (text,))


def valid(id, text, models=1, computations=1, extra_expect=()):
    n, c = models, computations
    return Case(id, "check", text, 0,
                (f"ok: {n} model{'s' * (n != 1)}, {c} computation{'s' * (c != 1)}",)
                + tuple(extra_expect))


def spec_error(id, text, *expect, command="check"):
    return Case(id, command, text, 2, expect, "line")


def json_models(out):
    return {d["model"]: d for d in map(json.loads, out.splitlines())}


def _fifo(tmp):
    path = os.path.join(tmp, "fifo.att")
    os.mkfifo(path)
    return path


def _directory(tmp):
    path = os.path.join(tmp, "adir.att")
    os.mkdir(path)
    return path


def _padded(size, body):
    """A spec of ``size`` bytes: ``body`` then comment lines."""
    line = "// " + "x" * 76 + "\n"
    pad = size - len(body)
    text = body + line * (pad // len(line))
    return text + "#" * (size - len(text) - 1) + "\n" if size > len(text) else text


CASES = [
    # ---------------------------------------------------------- every grammar rule, valid
    valid("minimal", TINY + "compute m { dimension }"),
    valid("field-qq", TINY.replace("{ ", "{ field = QQ; ") + "compute m { dimension }"),
    valid("field-gf", TINY.replace("{ ", "{ field = GF(65537); ") + "compute m { dimension }"),
    valid("field-gf-mersenne61", TINY.replace("{ ", "{ field = GF(2305843009213693951); ")
          + "compute m { dimension }"),
    valid("weights-av", TINY.replace("}", "; weights = A V }") + "compute m { fibers }"),
    valid("weights-qkv", TINY.replace("}", "; weights = Q K V }") + "compute m { fibers }"),
    valid("coordinates-raw", TINY.replace("}", "; coordinates = raw }") + "compute m { dimension }"),
    valid("coordinates-scaled", TINY.replace("}", "; coordinates = scaled }")
          + "compute m { dimension }"),
    valid("entries-all", TINY.replace("}", "; entries = all }") + "compute m { dimension }"),
    valid("entries-list", TINY.replace("}", "; entries = (1, 1), (1, 2) }")
          + "compute m { dimension }"),
    valid("deep", DEEP + "compute deep { dimension seed = 1 }"),
    valid("softmax", SOFT + "compute soft { dimension; fibers }", computations=2),
    valid("normalization-lightning",
          TINY.replace("out = 1)", "out = 1, normalization = lightning)")
          + "compute m { dimension }"),
    valid("layer-heads-mask-residual", GPT + "compute gpt { dimension; fibers }", computations=2),
    valid("layer-defaults-written", TINY.replace("out = 1)", "out = 1, heads = 1, mask = none, "
                                                 "residual = false)") + "compute m { invariants }"),
    valid("deep-residual-causal", "model r { input = 2; tokens = 3\n"
          "  layer attention(rank = 1, out = 2, heads = 3, residual = true, mask = causal)\n"
          "  layer attention(rank = 2, out = 2, residual = true, mask = causal) }\n"
          "compute r { dimension }"),
    valid("mask-name-is-a-model-name", "model mask { input = 2; tokens = 2; layer attention("
          "rank = 1, out = 1, mask = none) }\ncompute mask { dimension }"),
    spec_error("size-guard-counts-heads", "model m { input = 2; tokens = 2; layer attention("
               "rank = 1, out = 2, heads = 100000) }\ncompute m { dimension }", "pass --force"),
    valid("comments", "// a comment\n# another\n" + TINY + "compute m { dimension } // end"),
    valid("separators", "\n\n;\n" + TINY + ";;\ncompute m {\n\n dimension;\n; fibers\n}\n\n",
          computations=2),
    valid("crlf", (TINY + "compute m {\n  dimension\n  fibers\n}\n").replace("\n", "\r\n"),
          computations=2),
    valid("bom", "\ufeff" + TINY + "compute m { dimension }"),
    valid("tabs", TINY.replace(" ", "\t") + "compute\tm\t{\tdimension\t}"),
    valid("numbers", LINE + "compute line { certify point [+1, -1/2, 0.25,\n  3] }"),
    valid("invariants-families", SLICE + "compute slice {\n  invariants pencil, veronese(r = 2), "
          "sylvester(lines = coordinate, seed = 2), low_rank(limit = 3) seed = 1\n}"),
    valid("invariants-all", SLICE + "compute slice { invariants all; check invariants }",
          computations=2),
    valid("vanishing-ideal-degree", TINY + "compute m { vanishing_ideal up to degree 2 }"),
    valid("vanishing-ideal-algorithm", TINY + "compute m { vanishing_ideal algorithm = elimination }"),
    valid("vanishing-ideal-deep", DEEP.replace("input = 3; tokens = 3", "input = 2; tokens = 2")
          .replace("out = 3", "out = 2").replace("rank = 2", "rank = 1")
          + "compute deep { vanishing_ideal up to degree 2 }"),
    valid("certify", LINE + "compute line { certify point [1, 1, 1, 1] seed = 3 }"),
    valid("rank-note", TINY.replace("rank = 1", "rank = 5") + "compute m { dimension }",
          extra_expect=("note: rank 5 exceeds input width 2",)),
    valid("no-compute", TINY, computations=0, extra_expect=("no `compute` block",)),
    valid("ten-thousand-models",
          "".join(f"model m{i} {{ input = 2; tokens = 2; layer attention(rank = 1, out = 1) }}\n"
                  for i in range(10000)) + "compute m0 { dimension }", models=10000),
    valid("one-megabyte", _padded(1 << 20, TINY + "compute m { dimension }\n")),
    valid("big-widths-guarded-ok", "model m { input = 1000000; tokens = 1000000\n"
          "  layer attention(rank = 1000000, out = 1000000) }", computations=0),
    # ---------------------------------------------------------- files that are not specs
    Case("missing-file", "check", lambda tmp: os.path.join(tmp, "nope.att"), 2,
         ("No such file or directory",), "path"),
    Case("directory", "check", _directory, 2, ("is a directory",), "path"),
    Case("dev-zero", "check", lambda tmp: "/dev/zero", 2, ("character device",), "path"),
    Case("dev-null", "check", lambda tmp: "/dev/null", 2, ("character device",), "path"),
    Case("fifo", "check", _fifo, 2, ("a FIFO",), "path"),
    Case("over-one-megabyte", "check", _padded((1 << 20) + 1, TINY), 2,
         ("more than the limit of 1 MB",), "path"),
    Case("empty", "check", "", 2, ("the spec is empty",), "path"),
    Case("only-comments", "check", "// nothing\n# here\n\n", 2, ("the spec is empty",), "path"),
    Case("only-separators", "check", ";\n;;\n", 2, ("the spec is empty",), "path"),
    # ---------------------------------------------------------- bytes and characters
    spec_error("invalid-utf8", b"model m {\n  input = 3\xff\n}", "invalid UTF-8 (byte ff)",
               ":2:12:"),
    spec_error("invalid-utf8-first-byte", b"\xc3(model", "invalid UTF-8", ":1:1:"),
    spec_error("binary-garbage", bytes(range(256)) * 4, "invalid UTF-8"),
    spec_error("nul-byte", "model m { input = 3\x00 }", "\\x00", "NUL byte"),
    spec_error("control-characters", "model m {\x07 input = 3 }", "\\x07"),
    spec_error("tab-caret", "model m {\n\tinput = x\n}", ":2:10:",
               "\n            input = x\n                    ^\n"),
    spec_error("deep-nesting", "model m { input = " + "[" * 100000 + " }", ":1:19:",
               "Missing value"),
    spec_error("deep-nesting-brackets", "compute m { certify point " + "[" * 100000, ":1:"),
    spec_error("long-line", "model m { input = 3; " + "tokens = 2; " * 20000 + "oops }",
               "Unknown keyword", "..."),
    spec_error("huge-number", "model m { input = " + "9" * 100000 + " }",
               "the number has 100000 digits"),
    spec_error("number-over-4300-digits", TINY + "compute m { dimension seed = "
               + "1" * 4301 + " }", "the number has 4301 digits"),
    spec_error("number-1000-digits-width", "model m { input = " + "9" * 1000
               + "; tokens = 2; layer attention(rank = 1, out = 1) }", "must be at most 1000000"),
    spec_error("width-over-limit", "model m { input = 1000001; tokens = 2\n"
               "  layer attention(rank = 1, out = 1) }", "input (=1000001) must be at most"),
    spec_error("quotes", 'model m { input = "3" }', "without quotes"),
    # ---------------------------------------------------------- semantic checks
    spec_error("input-zero", "model m { input = 0; tokens = 2; layer attention(rank = 1, out = 1) }",
               "input (=0) must be a positive integer"),
    spec_error("input-fraction", "model m { input = 3/2; tokens = 2; layer attention(rank = 1, "
               "out = 1) }", "must be a positive integer"),
    spec_error("tokens-negative", "model m { input = 2; tokens = -1; layer attention(rank = 1, "
               "out = 1) }", "tokens (=-1)"),
    spec_error("rank-zero", "model m { input = 2; tokens = 2; layer attention(rank = 0, "
               "out = 1) }", "rank (=0)"),
    spec_error("gf-not-prime", TINY.replace("{ ", "{ field = GF(9); "), "GF(p) needs p prime"),
    spec_error("gf-mersenne-plus-2", TINY.replace("{ ", "{ field = GF(2305843009213693953); "),
               "GF(p) needs p prime"),
    spec_error("gf-over-2-64", TINY.replace("{ ", "{ field = GF(18446744073709551629); "),
               "p below 2^64"),
    spec_error("gf-huge", TINY.replace("{ ", "{ field = GF(" + "7" * 900 + "); "),
               "a number of 900 digits"),
    spec_error("gf3-scaled", TINY.replace("{ ", "{ field = GF(3); coordinates = scaled; "),
               "`coordinates = scaled` divides by 2, 3 and 6"),
    spec_error("gf-softmax", SOFT.replace("{ ", "{ field = GF(7); "), "softmax normalization "
               "needs `field = QQ`"),
    spec_error("entry-row", TINY.replace("}", "; entries = (2, 1) }"), "row 2 exceeds"),
    spec_error("entry-token", TINY.replace("}", "; entries = (1, 3) }"), "token 3 exceeds"),
    spec_error("entry-twice", TINY.replace("}", "; entries = (1, 1), (1, 1) }"), "listed twice"),
    spec_error("entry-zero", TINY.replace("}", "; entries = (0, 1) }"), "entry row (=0)"),
    spec_error("duplicate-model", TINY + TINY, "duplicate model name `m`"),
    spec_error("duplicate-item", "model m { input = 2; input = 3; tokens = 2\n"
               "  layer attention(rank = 1, out = 1) }", "duplicate `input`"),
    spec_error("duplicate-layer-arg", "model m { input = 2; tokens = 2\n"
               "  layer attention(rank = 1, rank = 2, out = 1) }", "duplicate `rank`"),
    spec_error("missing-input", "model m { tokens = 2; layer attention(rank = 1, out = 1) }",
               "needs `input = ...`"),
    spec_error("missing-tokens", "model m { input = 2; layer attention(rank = 1, out = 1) }",
               "needs `tokens = ...`"),
    spec_error("missing-layer", "model m { input = 2; tokens = 2 }", "at least one `layer"),
    spec_error("missing-rank", "model m { input = 2; tokens = 2; layer attention(out = 1) }",
               "needs `rank = ...`"),
    spec_error("unknown-model", TINY + "compute n { dimension }", "names an unknown model"),
    spec_error("unknown-computation", TINY + "compute m { dimenson }",
               "did you mean `dimension`?"),
    spec_error("unknown-option", TINY + "compute m { dimension sed = 1 }",
               "did you mean `seed`?"),
    spec_error("option-twice", TINY + "compute m { dimension seed = 1 seed = 2 }", "given twice"),
    spec_error("unknown-family", SLICE + "compute slice { invariants pencl }",
               "unknown invariant family `pencl`"),
    spec_error("seed-negative", TINY + "compute m { dimension seed = -1 }", "`seed` (=-1)"),
    spec_error("seed-too-large", TINY + "compute m { dimension seed = 18446744073709551616 }",
               "must be at most 2^64 - 1"),
    spec_error("seed-fraction", TINY + "compute m { fibers seed = 1/2 }", "`seed` (=1/2)"),
    spec_error("veronese-foo", SLICE + "compute slice { invariants veronese(foo = 1) }",
               "family `veronese` has no option `foo`"),
    spec_error("veronese-r5", SLICE + "compute slice { invariants veronese(r = 5) }",
               "`r` (=5) must be at most 2"),
    spec_error("algorithm-groebner", TINY + "compute m { vanishing_ideal algorithm = groebner }",
               "must be one of elimination, interpolation"),
    spec_error("algorithm-linear-algebra",
               TINY + "compute m { vanishing_ideal algorithm = linear_algebra }",
               "must be one of elimination, interpolation"),
    spec_error("check-families", TINY + "compute m { check families }", "`check families`"),
    spec_error("heads-zero", HEADS.replace("heads = 2", "heads = 0") + "compute h { dimension }",
               "heads (=0) must be a positive integer"),
    spec_error("heads-fraction", HEADS.replace("heads = 2", "heads = 3/2"), "heads (=3/2) must be"),
    spec_error("mask-misspelled", GPT.replace("causal", "casual"),
               "unknown mask `casual` in layer 1 of model `gpt` (did you mean `causal`?)"),
    spec_error("mask-unknown", GPT.replace("causal", "sliding"),
               "unknown mask `sliding`", "use one of: none, causal"),
    spec_error("residual-misspelled", GPT.replace("= true", "= ture"),
               "`residual` (=ture) in layer 1 of model `gpt` must be true or false "
               "(did you mean `true`?)"),
    spec_error("residual-width", GPT.replace("out = 2", "out = 3"),
               "layer 1 of model `gpt` has `residual = true`", "`out` (=3) must equal its input "
               "width (=2)", "fix: write `out = 2` or drop `residual`"),
    spec_error("residual-width-deep", "model r { input = 2; tokens = 2\n"
               "  layer attention(rank = 1, out = 2, residual = true)\n"
               "  layer attention(rank = 1, out = 1, residual = true) }",
               "layer 2 of model `r`", "`out` (=1) must equal its input width (=2)"),
    # layers with different masks are a stack of layers, each with its own mask
    valid("mixed-masks", "model r { input = 2; tokens = 2\n"
          "  layer attention(rank = 1, out = 2, mask = causal)\n"
          "  layer attention(rank = 1, out = 2) }\ncompute r { dimension }"),
    spec_error("linear-output-after-attention", TINY.replace("}", "\n  linear_output = false }"),
               "case.att:2:3:", "only concerns a dense last layer",
               "fix: drop `linear_output = false`"),
    spec_error("heads-softmax", HEADS.replace("heads = 2", "heads = 2, normalization = softmax"),
               "`heads` in layer 1 of model `h` needs a lightning layer"),
    spec_error("heads-weights-av", HEADS.replace("}", "; weights = A V }"),
               "which needs `weights = Q K V`"),
    spec_error("heads-entries", HEADS.replace("}", "; entries = (1, 1) }"),
               "which needs no `entries`"),
    spec_error("invariants-heads", HEADS + "compute h { invariants }",
               "`invariants` needs a model with one head, no mask and no residual; `h` has "
               "several heads", "fix: on such models use dimension or fibers"),
    spec_error("vanishing-ideal-causal", GPT + "compute gpt { vanishing_ideal }",
               "`gpt` has several heads and a mask and residual connections"),
    spec_error("certify-residual", GPT.replace("heads = 2, mask = causal, ", "")
               + "compute gpt { certify point [1] }", "`gpt` has residual connections"),
    spec_error("heads-duplicate", HEADS.replace("heads = 2", "heads = 2, heads = 3"),
               "duplicate `heads` in layer 1"),
    spec_error("invariants-deep", DEEP + "compute deep { invariants }", "needs a model with one"),
    spec_error("certify-deep", DEEP + "compute deep { certify point [1] }",
               "needs a model with one"),
    spec_error("vanishing-ideal-softmax", SOFT + "compute soft { vanishing_ideal }",
               "has softmax normalization"),
    spec_error("invariants-softmax", SOFT + "compute soft { invariants }",
               "has softmax normalization"),
    spec_error("invariants-degree", SLICE + "compute slice { invariants pencil degree = 3 }",
               "`invariants` has no option `degree`"),
    spec_error("check-degree", SLICE + "compute slice { check invariants degree = 2 }",
               "`check` has no option `degree`"),
    spec_error("dimension-method", TINY + "compute m { dimension method = foo }",
               "`dimension` has no option `method`"),
    spec_error("dimension-proof", TINY + "compute m { dimension proof = true }",
               "`dimension` has no option `proof`"),
    spec_error("degree-zero", TINY + "compute m { vanishing_ideal up to degree 0 }",
               "`up to degree 0`: the degree must be an integer >= 1"),
    spec_error("degree-and-elimination", TINY + "compute m { vanishing_ideal up to degree 3 "
               "algorithm = elimination }", "drop one of them"),
    spec_error("certify-length", SLICE + "compute slice { certify point [3, -1/2, 0, 1] }",
               "the point has 4 values; model `slice` has 28 coordinates"),
    spec_error("certify-gf-denominator", LINE.replace("{ ", "{ field = GF(7); ")
               + "compute line { certify point [1, 1/14, 1, 1] }",
               "the value 1/14 is not defined over GF(7)"),
    Case("run-certify-gf", "run", LINE.replace("{ ", "{ field = GF(7); ")
         + "compute line { certify point [1, 1/2, 1, 1] }", 0, (), None,
         lambda out, err: json_models(out)["line"]["computations"][0]["status"]
         in ("realizable", "not realizable"), ("--json",)),
    # ---------------------------------------------------------- base fields: check refuses
    # exactly what run cannot do, naming the reason
    # a small prime field: the Jacobian rank at points of an extension GF(p^k), p^k >= 2^16 (the
    # dimension over QQ, 4, by [HMK2024]; tests/test_small_prime_fields.py proves such answers)
    Case("run-gf2-dimension", "run", TINY.replace("{ ", "{ field = GF(2); ") + "compute m { dimension }",
         0, (), None, lambda out, err: json_models(out)["m"]["computations"][0]["dimension"] == 4,
         ("--json",)),
    Case("run-gf32003-fibers", "run", TINY.replace("{ ", "{ field = GF(32003); ") + "compute m { fibers }",
         0, (), None, lambda out, err: json_models(out)["m"]["computations"][0]["fiber_dimension"] == 2,
         ("--json",)),
    spec_error("gf2-low-rank", TINY.replace("{ ", "{ field = GF(2); ")
               + "compute m { invariants low_rank }", "divide by 2 and 3"),
    spec_error("gf3-certify", LINE.replace("{ ", "{ field = GF(3); ")
               + "compute line { certify point [1, 1, 1, 1] }", "characteristic 0 or > 3"),
    spec_error("gf5-brill", "%s" % ("model m { field = GF(5); input = 3; tokens = 1; "
               "layer attention(rank = 1, out = 1) }\ncompute m { invariants brill }"), "p >= 7"),
    spec_error("gf2-interpolation", TINY.replace("{ ", "{ field = GF(2); ")
               + "compute m { vanishing_ideal up to degree 2 }", "too few points"),
    spec_error("gf-above-2-31-elimination", TINY.replace("{ ", "{ field = GF(2147483659); ")
               + "compute m { vanishing_ideal }", "p < 2^29"),
    spec_error("gf-above-2-63-elimination", TINY.replace("{ ", "{ field = GF(9223372036854775837); ")
               + "compute m { vanishing_ideal algorithm = elimination }", "p < 2^29"),
    valid("gf65537-dimension", TINY.replace("{ ", "{ field = GF(65537); ")
          + "compute m { dimension; vanishing_ideal up to degree 2 }", computations=2),
    Case("run-gf2-elimination-vanishes", "run", "model m { field = GF(2); input = 2; tokens = 1; "
         "layer attention(rank = 1, out = 1) }\ncompute m { vanishing_ideal }", 0, (), None,
         lambda out, err: json_models(out)["m"]["computations"][0]["generators"] in ([], ["0"]),
         ("--json",)),
    Case("run-gf101-brill-35", "run", "model m { field = GF(101); input = 3; tokens = 1; "
         "layer attention(rank = 1, out = 1) }\ncompute m { invariants brill }", 0, (), None,
         lambda out, err: json_models(out)["m"]["computations"][0]["families"][0]["size"] == 35,
         ("--json",)),
    Case("run-gf-mersenne61-brill-35", "run", "model m { field = GF(2305843009213693951); "
         "input = 3; tokens = 1; layer attention(rank = 1, out = 1) }\n"
         "compute m { invariants brill }", 0, (), None,
         lambda out, err: json_models(out)["m"]["computations"][0]["families"][0]["size"] == 35,
         ("--json",)),
    Case("run-gf101-certify-extension", "run", "model m { field = GF(101); input = 2; tokens = 1; "
         "layer attention(rank = 1, out = 1) }\ncompute m { certify point [1, 0, 1, 1] }", 0, (),
         None, lambda out, err: json_models(out)["m"]["computations"][0]["status"] == "realizable",
         ("--json",)),
    Case("run-gf65537-interpolation", "run", "model m { field = GF(65537); input = 2; tokens = 2; "
         "layer attention(rank = 1, out = 1); entries = (1, 1) }\n"
         "compute m { vanishing_ideal up to degree 2 }", 0, (), None,
         lambda out, err: json_models(out)["m"]["computations"][0]["generators_by_degree"]
         == {"1": 4, "2": 3}, ("--json",)),
    spec_error("certify-empty", LINE + "compute line { certify point [] }", "`certify point []`"),
    Case("size-guard", "check", "model m { input = 4; tokens = 3; layer attention(rank = 2, "
         "out = 4) }\ncompute m { vanishing_ideal }", 2, ("pass --force",), "line"),
    Case("size-guard-force", "check", "model m { input = 4; tokens = 3; layer attention(rank = 2, "
         "out = 4) }\ncompute m { vanishing_ideal }", 0, ("ok: 1 model",), None, None,
         ("--force",)),
    # ---------------------------------------------------------- run: answers
    Case("run-dimension", "run", TINY + "compute m { dimension seed = 0 }", 0,
         ("dimension computed 4, expected 4 (agrees)",)),
    Case("run-json", "run", TINY + DEEP + "compute m { dimension }\ncompute deep { dimension }",
         0, (), None, lambda out, err: (
             json_models(out)["m"]["dimension"] == 4 and json_models(out)["deep"]["dimension"]
             == 23 == json_models(out)["deep"]["expected_dimension"]), ("--json", "--seed", "1")),
    Case("run-heads-json", "run", HEADS + GPT + "compute h { dimension seed = 0 }\n"
         "compute gpt { fibers seed = 1 }", 0, (), None, lambda out, err: (
             json_models(out)["h"]["dimension"] == 6 and json_models(out)["h"]["heads"] == [2]
             and json_models(out)["gpt"]["mask"] == ["causal"]
             and json_models(out)["gpt"]["residual"] == [True]
             and json_models(out)["h"]["architecture"]
             == "LightningAttention(d=2, out=1, t=2, a=1, heads=2) over Rational Field"),
         ("--json",)),
    Case("run-softmax", "run", SOFT + "compute soft { dimension seed = 0 }", 0, (), None,
         lambda out, err: json_models(out)["soft"]["dimension"] == 5
         == json_models(out)["soft"]["expected_dimension"], ("--json",)),
    Case("run-up-to-degree", "run", "model m { input = 2; tokens = 2; layer attention(rank = 1, "
         "out = 1); entries = (1, 1) }\ncompute m { vanishing_ideal up to degree 3 }", 0, (), None,
         lambda out, err: (json_models(out)["m"]["computations"][0]["algorithm"]
                           == "interpolation"
                           and json_models(out)["m"]["computations"][0]["generators_by_degree"]
                           == {"1": 4, "2": 3}), ("--json",)),
    Case("run-certify", "run", LINE + "compute line { certify point [1, 1, 1, 1]\n"
         "certify point [1, 2, 1, 1] }", 0, (), None,
         lambda out, err: [c["status"] for c in json_models(out)["line"]["computations"]]
         == ["realizable", "not realizable"], ("--json",)),
    Case("run-check-invariants", "run", "model m { input = 3; tokens = 2; layer attention("
         "rank = 1, out = 1); weights = A V }\ncompute m { invariants pencil, low_rank\n"
         "check invariants }", 0, ("pencil: 10 invariants of degree 3",
                                   "low_rank: all 45 members vanish")),
    Case("run-empty", "run", "// nothing\n", 2, ("the spec is empty",), "path"),
    Case("run-no-compute", "run", TINY, 2, ("nothing to run",), "path"),
    Case("run-size-guard", "run", "model m { input = 4; tokens = 3; layer attention(rank = 2, "
         "out = 4) }\ncompute m { vanishing_ideal }", 2, ("pass --force",), "line"),
    Case("run-spec-error", "run", TINY + "compute m { vanishing_ideal algorithm = groebner }", 2,
         ("must be one of",), "line"),
    # the memory guard of the invariant families, before Sage is loaded
    Case("invariants-guard", "check", "model m { input = 6; tokens = 2; layer attention(rank = 6, "
         "out = 1) }\ncompute m { invariants syzygies }", 2,
         ("the family syzygies", "pass --force"), "line"),
    Case("run-invariants-guard", "run", "model m { input = 4; tokens = 2; layer attention("
         "rank = 4, out = 1) }\ncompute m { invariants veronese(r = 4) }", 2,
         ("the family veronese", "pass --force"), "line"),
    Case("check-invariants-guard", "run", "model m { input = 6; tokens = 2; layer attention("
         "rank = 6, out = 1) }\ncompute m { invariants syzygies\ncheck invariants }", 2,
         ("the family syzygies", "pass --force"), "line"),
    # ---------------------------------------------------------- guards: check as run
    # the forward-mode Jacobian estimate (sizes.jacobian_entries) in check as in run
    Case("check-dimension-1000-tokens", "check", "model m { input = 30; tokens = 1000; "
         "layer attention(rank = 1, out = 30) }\ncompute m { dimension }", 2,
         ("forward-mode Jacobian", "pass --force"), "line"),
    Case("run-dimension-1000-tokens", "run", "model m { input = 30; tokens = 1000; "
         "layer attention(rank = 1, out = 30) }\ncompute m { dimension }", 2,
         ("forward-mode Jacobian", "pass --force"), "line"),
    Case("check-dimension-width-1000", "check", "model m { input = 1000; tokens = 2; "
         "layer attention(rank = 1, out = 1) }\ncompute m { dimension }", 2,
         ("forward-mode Jacobian", "pass --force"), "line"),
    Case("check-fibers-width-1000", "check", "model m { input = 1000; tokens = 2; "
         "layer attention(rank = 1, out = 1) }\ncompute m { fibers }", 2,
         ("forward-mode Jacobian", "pass --force"), "line"),
    # the rank stops at the span of 6 dimensions: an answer, not 70 s of silence
    Case("run-1000-heads", "run", "model h { input = 2; tokens = 2; layer attention(rank = 1, "
         "out = 1, heads = 1000) }\ncompute h { dimension seed = 0 }", 0, (), None,
         lambda out, err: json_models(out)["h"]["dimension"] == 6, ("--json",)),
    # the interpolation table (sizes.monomial_table) in check as in run, with a fix it has
    Case("check-interpolation-degree-4-width-6", "check", "model s { input = 6; tokens = 2; "
         "layer attention(rank = 1, out = 1); entries = (1, 1) }\n"
         "compute s { vanishing_ideal up to degree 4 }", 2,
         ("monomials of degree 4", "`up to degree 3`", "pass --force"), "line"),
    Case("run-interpolation-degree-4-width-6", "run", "model s { input = 6; tokens = 2; "
         "layer attention(rank = 1, out = 1); entries = (1, 1) }\n"
         "compute s { vanishing_ideal up to degree 4 }", 2,
         ("monomials of degree 4", "`up to degree 3`"), "line"),
    Case("check-interpolation-default-degree", "check", "model m { input = 4; tokens = 3; "
         "layer attention(rank = 2, out = 4) }\ncompute m { vanishing_ideal algorithm = "
         "interpolation }", 2, ("through degree 4", "`up to degree 2`"), "line"),
    # (it suggested degree 3, which the same 1 GiB limit refuses: the next case is the one accepted)
    Case("check-interpolation-degree-2-ok", "check", "model m { input = 4; tokens = 3; "
         "layer attention(rank = 2, out = 4) }\ncompute m { vanishing_ideal up to degree 2 }",
         0, ("ok: 1 model, 1 computation",)),
    # models without coordinates: refused at check, before Sage
    Case("check-certify-heads", "check", HEADS + "compute h { certify point [1, 2, 3] }", 2,
         ("`certify` needs a model with one head", "dimension or fibers"), "line"),
    Case("check-vanishing-ideal-residual", "check", GPT + "compute gpt { vanishing_ideal }", 2,
         ("needs a model with one head", "dimension or fibers"), "line"),
    Case("run-fibers-residual", "run", GPT + "compute gpt { fibers seed = 0 }", 0, (), None,
         lambda out, err: json_models(out)["gpt"]["computations"][0].get("fiber_dimension")
         is not None or "fiber" in out, ("--json",)),
]

# every malformed snippet of every syntax-error label
for _label, _snippets in E.EXAMPLES.items():
    for _i, _snippet in enumerate(_snippets):
        CASES.append(Case(f"syntax-{_label.__name__}-{_i}", "check", _snippet, 2,
                          (f": {_label.label}: ", "fix: "), "line"))


def _limits(memory):
    def set_limits():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    return set_limits


def run_case(case, root, tmp):
    """Run ``case`` with the package at ``root``; return ``(status, out, err, path)``."""
    os.makedirs(tmp, exist_ok=True)
    if callable(case.content):
        path = case.content(tmp)
    else:
        path = os.path.join(tmp, "case.att")
        data = case.content.encode("utf-8") if isinstance(case.content, str) else case.content
        with open(path, "wb") as f:
            f.write(data)
    check = case.command == "check"
    argv = [sys.executable] + (["-X", "importtime"] if check else []) + \
        ["-m", "sage_attention.app.cli", case.command, path, *case.extra]
    env = cli_env() if root == ROOT else dict(os.environ, PYTHONPATH=str(root))
    try:
        r = subprocess.run(argv, capture_output=True, cwd=tmp, env=env,
                           timeout=CHECK_SECONDS if check else RUN_SECONDS,
                           preexec_fn=_limits(CHECK_MEMORY if check else RUN_MEMORY))
    except subprocess.TimeoutExpired:
        return None, "", "timeout", path
    out = r.stdout.decode("utf-8", "replace")
    err = r.stderr.decode("utf-8", "replace")
    return r.returncode, out, err, path


def problems(case, result):
    """The ways ``result`` breaks the contract (empty when it keeps it)."""
    status, out, err, path = result
    found = []
    if status is None:
        return ["timed out"]
    imports = [line for line in err.splitlines() if line.startswith("import time:")]
    err = "\n".join(line for line in err.splitlines() if not line.startswith("import time:"))
    sage = [line.rsplit("|", 1)[-1].strip() for line in imports
            if re.search(r"\|\s*sage(\.|$)", line)]
    if sage:
        found.append(f"check imported Sage: {sage[:3]}")
    if status != case.status:
        found.append(f"exit status {status}, expected {case.status}")
    text = out + err
    if "Traceback" in text:
        found.append("a traceback")
    for piece in case.expect:
        if piece not in text:
            found.append(f"missing {piece!r}")
    if case.where == "line":
        if not re.search(rf"^{re.escape(path)}:\d+:\d+: ", err, re.M):
            found.append("no file:line:col location")
        if not any(line.strip() == "^" for line in err.splitlines()):
            found.append("no caret")
    elif case.where == "path":
        if path not in err:
            found.append("the message does not name the path")
    if case.where is not None and not any(w in err for w in FIX_WORDS):
        found.append("no fix in the message")
    if case.where is not None and len(err) > 20000:
        found.append(f"a message of {len(err)} characters")
    if case.check is not None:
        try:
            good = case.check(out, err)
        except Exception as e:  # a malformed answer
            good = False
            found.append(f"answer check raised {type(e).__name__}: {e}")
        if not good:
            found.append("wrong answer")
    return found


def test_corpus_size():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert len(CASES) >= 100


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_contract(case, tmp_path):
    assert problems(case, run_case(case, ROOT, str(tmp_path / "case"))) == []
