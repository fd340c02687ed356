r"""
Filling widths of polynomial networks: the frontier search

A polynomial network of widths `(d_0, d_1, \dots, d_L)` and activation `x^r`
(:func:`~sage_attention.models.stack.PolynomialNetwork`) is **filling** when its
neurovariety is its whole ambient space (every `d_L`-tuple of forms of degree
`r^{L-1}`, or of degree `\le r^{L-1}` with biases), and **defective** when its
dimension is below the count `\min(P - \sum_{i<L} d_i, \text{ambient})` of
[KTB2019]_ (parameters minus the rescalings of hidden neurons).

Filling is monotone in the hidden widths (a neuron with zero outgoing
weights adds nothing, so a wider network's neurovariety contains the
narrower one's). So for fixed `d_0, d_L, L, r` the filling width vectors form
an up-set; its minimal elements are the **minimal filling widths**.
:func:`filling_frontier` finds all of them inside a box of hidden widths
without computing the whole box: it visits the box in lexicographic order
and computes a Jacobian rank
(:meth:`~sage_attention.models.jacobian.JacobianDimension.dimension_report`)
only for an architecture that is neither above a filling one found before
nor certified not filling by :func:`dimension_bound` (the count of
parameters less rescalings, the ambient dimension, and the bound of a split
at a hidden layer, recursively).

**Completeness.** Every architecture of the box gets a definite status, by
induction along the lexicographic order: either its rank is computed, or it
is above a computed filling architecture (so it fills), or
:func:`dimension_bound` is below the ambient dimension (so it does not
fill). A computed architecture that fills is minimal: each
`w - e_i` comes earlier in the order, so it has a status, and had it filled,
`w` would have been above it and not computed. Conversely a minimal filling
`w` is above no other filling architecture and fills, so it is computed.
Hence the minimal filling widths returned are exactly those of the box.
What is random: a rank is never too large, so a row that fills certainly
fills; a row that does not fill is right except with its failure
probability, and the list is complete except with at most the sum of these
(``failure_probability`` of the result).

The search computes the minimal filling architectures and the ones that
do not fill although the bound allows it (the defective ones the search
meets); ``exhaustive=True`` computes instead, for every choice of the
hidden widths but the last, every architecture up to the first filling
one, and so finds every defective architecture below the frontier.

EXAMPLES:

Shallow networks with one output are the secant varieties of the Veronese
variety; `(d, r) = (3, 4)` is an Alexander--Hirschowitz exception: five
quartic powers do not suffice although `5 \cdot 3 = 15 = \binom{6}{4}`::

    sage: from sage_attention.app.filling import filling_frontier
    sage: F = filling_frontier(3, 1, 2, 4, max_width=7, seed=0)
    sage: F["minimal_filling"], [(r["widths"], r["defect"]) for r in F["defective"]]
    ([(3, 6, 1)], [((3, 5, 1), 1)])
"""
import time
from functools import lru_cache
from itertools import product
from math import comb

from sage_attention.app.sweeps import UsageError, seed_argument
from sage_attention.settings import moved_to_settings, settings

# The most ranks one search computes is settings.MAX_FILLING_ROWS, the largest box the frontier
# search visits settings.MAX_FILLING_BOX; the old name reads the setting.
__getattr__ = moved_to_settings(__name__, {"MAX_FILLING_ROWS": "MAX_FILLING_ROWS"})


def _row(d_in, hidden, d_out, r, bias, seed):
    from sage_attention.models import PolynomialNetwork
    widths = (d_in,) + tuple(hidden) + (d_out,)
    M = PolynomialNetwork(list(widths), r, bias=bias)
    start = time.perf_counter()
    D = M.dimension_report(seed=seed)
    return {"widths": widths, "r": r, "bias": bias, "dimension": int(D.dimension),
            "expected": None if D.expected is None else int(D.expected),
            "ambient": int(M.ambient_dimension()), "parameters": int(M.nparameters()),
            "defect": None if D.defect is None else int(D.defect),
            "filling": int(D.dimension) == int(M.ambient_dimension()),
            "failure_probability": float(D.failure_probability),
            "seconds": round(time.perf_counter() - start, 3)}


def _ambient(t, r, bias):
    r"""The ambient dimension of the network of widths ``t``: `d_L` forms of degree `r^{L-1}` (at most, with biases)."""
    D = r ** (len(t) - 2)
    return t[-1] * (comb(t[0] + D, D) if bias else comb(t[0] + D - 1, D))


def _count(t, bias):
    r"""The parameters of the network of widths ``t`` less the rescalings of its hidden neurons."""
    return sum((t[i] + (1 if bias else 0)) * t[i + 1] for i in range(len(t) - 1)) - sum(t[1:-1])


def dimension_bound(widths, r, bias=False):
    r"""
    Return an upper bound of the dimension of the polynomial network of widths ``widths``.

    The least of: the ambient dimension; the count `P - \sum_{0<i<L} d_i`
    of [KTB2019]_ (the fibers contain the orbits of the rescalings of the
    hidden neurons, a torus of that dimension acting with finite
    stabilizers at generic weights); and, for every hidden layer `k`, the
    bound of the split there: the network is `x \mapsto g(\sigma(z(x)))`
    with `z` in the neurovariety `V_1` of widths `(d_0, \dots, d_k)`
    (linear last layer), `g` in the neurovariety `V_2` of widths
    `(d_k, \dots, d_L)`, and `\sigma(y) = y^r`; the torus
    `(z, g) \mapsto (\Lambda z, g \circ \Lambda^{-r})` of dimension `d_k`
    keeps the composition, so its dimension is at most
    `\dim V_1 + \dim V_2 - d_k`, each bounded in the same way. (With
    biases the same holds: `\Lambda` scales a neuron's bias with its
    weights.)

    INPUT:

    - ``widths`` -- the widths `(d_0, \dots, d_L)`
    - ``r`` -- the activation degree
    - ``bias`` -- boolean (default: ``False``)

    OUTPUT: an integer

    EXAMPLES:

    A hidden layer of width one in front of the output: the network is
    `c\, g^2` for one binary form `g` of degree `16`, so its dimension is at
    most `17`, below the `33` binary forms of degree `32`, although its
    count is `38`; its rank agrees::

        sage: from sage_attention.app.filling import dimension_bound
        sage: from sage_attention import PolynomialNetwork
        sage: w = (2, 3, 3, 4, 4, 1, 1)
        sage: M = PolynomialNetwork(list(w), 2)
        sage: dimension_bound(w, 2), M.ambient_dimension(), M.dimension(seed=0)
        (17, 33, 17)
    """
    return _bound(tuple(int(x) for x in widths), int(r), bool(bias))


@lru_cache(maxsize=None)
def _bound(t, r, bias):
    best = min(_ambient(t, r, bias), _count(t, bias))
    for k in range(1, len(t) - 1):
        best = min(best, _bound(t[:k + 1], r, bias) + _bound(t[k:], r, bias) - t[k])
    return best


def filling_frontier(d_in, d_out, depth, r, max_width, bias=False, seed=0, progress=None,
                     exhaustive=False):
    r"""
    Return the minimal filling widths and the defective architectures of a family of PNNs.

    INPUT:

    - ``d_in``, ``d_out`` -- positive integers; the input and output widths
    - ``depth`` -- integer `L \ge 2`; the number of layers (`L - 1` hidden)
    - ``r`` -- integer `\ge 2`; the activation degree
    - ``max_width`` -- positive integer; the box of hidden widths searched
    - ``bias`` -- boolean (default: ``False``)
    - ``seed`` -- integer (default: `0`); the seed of every Jacobian rank
    - ``progress`` -- (default: ``None``) a function called with each computed row
    - ``exhaustive`` -- boolean (default: ``False``); compute every
      architecture below the frontier (every defective one in the box), not
      only the frontier (see the module documentation)

    OUTPUT: a dictionary with

    - ``rows`` -- every architecture whose rank was computed, each a
      dictionary (``widths``, ``dimension``, ``expected``, ``ambient``,
      ``defect``, ``filling``, ``seconds``, ...);
    - ``minimal_filling`` -- the minimal filling width vectors in the box
      (all of them: see the module documentation);
    - ``defective`` -- the computed rows with a positive defect;
    - ``not_filling_by_bound`` -- (frontier search) the architectures whose
      count reaches the ambient dimension but whose :func:`dimension_bound`
      does not: defective, certified without a rank, each with its bound;
    - ``bounded`` -- (frontier search) how many architectures of the box
      :func:`dimension_bound` certifies not filling;
    - ``not_filling_in_box`` -- the choices of the other hidden widths for
      which the last one up to ``max_width`` does not fill;
    - ``failure_probability`` -- at most the probability that a row found
      not filling fills (the sum over those rows): the list of minimal
      filling widths is complete except with this probability;
    - ``seconds`` -- the total time.

    Every rank is a lower bound, exact with the failure probability of its
    row (below `10^{-4}` each).

    Ctrl-C raises :class:`~sage_attention.misc.interrupts.ComputationInterrupted`
    (phase ``'filling'``) whose ``partial`` holds the rows computed.

    EXAMPLES:

    Two hidden layers, quadratic activation, two inputs and one output (quartics in
    two variables, ambient dimension 5)::

        sage: from sage_attention.app.filling import filling_frontier
        sage: F = filling_frontier(2, 1, 3, 2, max_width=3)
        sage: F["minimal_filling"]
        [(2, 2, 2, 1)]

    The same search, exhaustively, computes more ranks for the same frontier::

        sage: E = filling_frontier(2, 1, 3, 2, max_width=3, exhaustive=True)
        sage: E["minimal_filling"], len(E["rows"]) > len(F["rows"])
        ([(2, 2, 2, 1)], True)

    Depth `6`, two inputs, one output, quadratic activation, hidden widths
    up to `5` (`3125` architectures): the one minimal filling architecture,
    with few ranks::

        sage: F = filling_frontier(2, 1, 6, 2, max_width=5, seed=0)     # long time
        sage: F["minimal_filling"], len(F["rows"]) < 100                # long time
        ([(2, 3, 3, 4, 4, 2, 1)], True)

    TESTS::

        sage: filling_frontier(2, 1, 1, 2, max_width=3)
        Traceback (most recent call last):
        ...
        UsageError: depth (=1) must be at least 2 (a hidden layer)
        sage: filling_frontier(9, 1, 5, 2, max_width=9, exhaustive=True)
        Traceback (most recent call last):
        ...
        UsageError: the box of hidden widths has up to 6561 architectures, more than 5000; lower max_width or depth
    """
    if depth < 2:
        raise UsageError(f"depth (={depth}) must be at least 2 (a hidden layer)")
    if max_width < 1:
        raise UsageError(f"max_width (={max_width}) must be at least 1")
    if r < 2:
        raise UsageError(f"r (={r}) must be at least 2 (r = 1 is linear)")
    n = max_width ** (depth - 1)
    limit = settings.MAX_FILLING_ROWS if exhaustive else settings.MAX_FILLING_BOX
    if n > limit:
        raise UsageError(f"the box of hidden widths has up to {n} architectures, more than "
                         f"{limit}; lower max_width or depth")
    computed = []

    def step(row):
        computed.append(row)
        if progress is not None:
            progress(row)
    try:
        return _frontier(d_in, d_out, depth, r, max_width, bias, seed, step, exhaustive)
    except KeyboardInterrupt as e:
        from sage_attention.misc.interrupts import raise_interrupted
        raise_interrupted(e, "filling", {"d_in": d_in, "d_out": d_out, "depth": depth, "r": r, "bias": bias,
                                         "rows": list(computed)},
                          f"{len(computed)} ranks computed (their rows; the frontier is not known yet)",
                          "the same call computes them again")


def _frontier(d_in, d_out, depth, r, max_width, bias, seed, progress, exhaustive):
    r"""
    Return the search of :func:`filling_frontier` (its arguments checked).
    """
    from sage_attention.app.plots import FillingFrontier   # a dictionary with .plot()
    if exhaustive:
        return FillingFrontier(_exhaustive(d_in, d_out, depth, r, max_width, bias, seed, progress))
    start = time.perf_counter()
    rows, fillers, by_bound, bounded = [], [], [], 0
    for hidden in product(range(1, max_width + 1), repeat=depth - 1):
        if any(all(a <= b for a, b in zip(f, hidden)) for f in fillers):
            continue                  # above a filling architecture: it fills
        t = (d_in,) + hidden + (d_out,)
        ambient = _ambient(t, r, bias)
        bound = _bound(t, r, bias)
        if bound < ambient:
            bounded += 1
            if _count(t, bias) >= ambient:
                by_bound.append({"widths": t, "bound": bound, "ambient": ambient})
            continue
        if len(rows) >= settings.MAX_FILLING_ROWS:
            raise UsageError(f"the search computed {len(rows)} ranks (settings.MAX_FILLING_ROWS) before "
                             "it finished; lower max_width or depth, or raise the setting")
        row = _row(d_in, hidden, d_out, r, bias, seed)
        rows.append(row)
        if progress is not None:
            progress(row)
        if row["filling"]:
            fillers.append(hidden)
    missing = [(d_in,) + p for p in product(range(1, max_width + 1), repeat=depth - 2)
               if not any(all(a <= b for a, b in zip(f, p + (max_width,))) for f in fillers)]
    return FillingFrontier({"d_in": d_in, "d_out": d_out, "depth": depth, "r": r, "bias": bias,
            "max_width": max_width, "rows": rows,
            "minimal_filling": sorted((d_in,) + f + (d_out,) for f in fillers),
            "defective": [row for row in rows if row["defect"]],
            "not_filling_by_bound": by_bound, "bounded": bounded,
            "not_filling_in_box": missing,
            "failure_probability": min(1.0, sum(row["failure_probability"] for row in rows
                                                if not row["filling"])),
            "seconds": round(time.perf_counter() - start, 2)})


def _exhaustive(d_in, d_out, depth, r, max_width, bias, seed, progress):
    r"""
    The exhaustive search of :func:`filling_frontier`: for every choice of the hidden widths but
    the last, every architecture up to the first filling one.
    """
    start = time.perf_counter()
    rows, first_filling, missing = [], {}, []
    for prefix in product(range(1, max_width + 1), repeat=depth - 2):
        for last in range(1, max_width + 1):
            row = _row(d_in, prefix + (last,), d_out, r, bias, seed)
            rows.append(row)
            if progress is not None:
                progress(row)
            if row["filling"]:
                first_filling[prefix] = last
                break
        else:
            missing.append(prefix)

    def fills(hidden):
        f = first_filling.get(tuple(hidden[:-1]))
        return f is not None and hidden[-1] >= f

    minimal = []
    for prefix, last in sorted(first_filling.items()):
        hidden = prefix + (last,)
        lower = [hidden[:i] + (hidden[i] - 1,) + hidden[i + 1:]
                 for i in range(len(hidden)) if hidden[i] > 1]
        if not any(fills(h) for h in lower):
            minimal.append((d_in,) + hidden + (d_out,))
    return {"d_in": d_in, "d_out": d_out, "depth": depth, "r": r, "bias": bias,
            "max_width": max_width, "rows": rows, "minimal_filling": minimal,
            "defective": [row for row in rows if row["defect"]],
            "not_filling_in_box": [(d_in,) + p for p in missing],
            "failure_probability": min(1.0, sum(row["failure_probability"] for row in rows
                                                if not row["filling"])),
            "seconds": round(time.perf_counter() - start, 2)}


def _widths(w):
    return "(" + ", ".join(map(str, w)) + ")"


def format_frontier(results, fmt="markdown"):
    r"""
    Return the table of frontier searches: one line per `(d_0, d_L, L, r)`.

    INPUT:

    - ``results`` -- a list of dictionaries from :func:`filling_frontier`
    - ``fmt`` -- ``'markdown'`` (default), ``'rst'`` or ``'csv'``

    EXAMPLES::

        sage: from sage_attention.app.filling import filling_frontier, format_frontier
        sage: print(format_frontier([filling_frontier(2, 1, 2, 3, max_width=3)]))
        | d_0 | d_L | L | r | bias | minimal filling widths | defective, hidden widths >= 2 (defect) | defective, a hidden width 1 | computed | seconds |
        |---|---|---|---|---|---|---|---|---|---|
        | 2 | 1 | 2 | 3 | no | (2, 2, 1) | none | 0 | 1 | ... |
    """
    head = ["d_0", "d_L", "L", "r", "bias", "minimal filling widths",
            "defective, hidden widths >= 2 (defect)", "defective, a hidden width 1",
            "computed", "seconds"]
    lines = []
    for F in results:
        minimal = ", ".join(_widths(w) for w in F["minimal_filling"]) or \
            f"none with hidden widths <= {F['max_width']}"
        wide = [row for row in F["defective"] if min(row["widths"][1:-1]) >= 2]
        narrow = len(F["defective"]) - len(wide)
        defective = ", ".join(f"{_widths(row['widths'])} ({row['defect']})"
                              for row in wide) or "none"
        lines.append([str(F["d_in"]), str(F["d_out"]), str(F["depth"]), str(F["r"]),
                      "yes" if F["bias"] else "no", minimal, defective, str(narrow),
                      str(len(F["rows"])), f"{F['seconds']:.1f}"])
    if fmt == "csv":
        return "\n".join(";".join(x) for x in [head] + lines)
    if fmt == "rst":
        out = [".. list-table::", "   :header-rows: 1", ""]
        for line in [head] + lines:
            out.append("   * - " + line[0])
            out += [f"     - {x}" for x in line[1:]]
        return "\n".join(out)
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(line) + " |" for line in lines]
    return "\n".join(out)


def filling_command(args, out, err):
    r"""
    Run ``sage-attention filling``: :func:`filling_frontier` over a grid of `(d_0, d_L, L, r)`.

    Ctrl-C prints the searches that finished.

    EXAMPLES::

        sage: from sage_attention.app.cli import main
        sage: main(["filling", "--input", "2", "--output", "1", "--depth", "2", "--degree", "2..3", "--max-width", "3", "-q"])
        | d_0 | d_L | L | r | bias | minimal filling widths | defective, hidden widths >= 2 (defect) | defective, a hidden width 1 | computed | seconds |
        |---|---|---|---|---|---|---|---|---|---|
        | 2 | 1 | 2 | 2 | no | (2, 2, 1) | none | 0 | 1 | ... |
        | 2 | 1 | 2 | 3 | no | (2, 2, 1) | none | 0 | 1 | ... |
        0

    The options are named as the command line writes them::

        sage: import sys; sys.stderr = sys.stdout
        sage: main(["filling", "--max-width", "0"])
        error: --max-width (=0) must be at least 1
        2
        sage: main(["filling", "--depth", "5", "--max-width", "9", "--exhaustive"])
        error: the box of hidden widths has up to 6561 architectures (--max-width 9 for each of the 4 hidden layers of --depth 5), more than 5000 for --exhaustive; lower --max-width or --depth
        2
        sage: main(["filling", "--depth", "8", "--max-width", "9"])
        error: the box of hidden widths has up to 4782969 architectures (--max-width 9 for each of the 7 hidden layers of --depth 8), more than 1000000; lower --max-width or --depth
        2
        sage: sys.stderr = sys.__stderr__
    """
    from sage_attention.app.jsonout import emit, record
    from sage_attention.app.plots import plot_filling, write_plot
    from sage_attention.app.sweeps import int_list as _int_list
    if args.max_width < 1:
        raise UsageError(f"--max-width (={args.max_width}) must be at least 1")
    grid = list(dict.fromkeys(product(   # a value listed twice is one search
        _int_list(args.input, "--input"), _int_list(args.output, "--output"),
        _int_list(args.depth, "--depth", minimum=2), _int_list(args.degree, "--degree", minimum=2))))
    depth = max(g[2] for g in grid)
    limit = settings.MAX_FILLING_ROWS if args.exhaustive else settings.MAX_FILLING_BOX
    if args.max_width ** (depth - 1) > limit:
        # filling_frontier's own refusal names its Python arguments; this one, the options
        raise UsageError(f"the box of hidden widths has up to {args.max_width ** (depth - 1)} "
                         f"architectures (--max-width {args.max_width} for each of the {depth - 1} "
                         f"hidden layers of --depth {depth}), more than {limit}"
                         f"{' for --exhaustive' if args.exhaustive else ''}; lower --max-width or --depth")
    done = []

    def show(results):
        if not args.json:   # under --json each search's record was printed when it finished
            print(format_frontier(results, "csv" if args.csv else
                                  ("rst" if args.rst else "markdown")), file=out)
        out.flush()

    def progress(row):
        if not args.quiet:
            print(f"  {_widths(row['widths'])} r={row['r']}: dimension {row['dimension']} of "
                  f"{row['ambient']}, defect {row['defect']} ({row['seconds']} s)", file=err,
                  flush=True)

    try:
        for d_in, d_out, depth, r in grid:
            done.append(filling_frontier(d_in, d_out, depth, r, args.max_width, args.bias,
                                         args.seed, progress, exhaustive=args.exhaustive))
            if args.json:   # JSON Lines: one "row" record per search, as it finishes
                emit(out, record("row", {"command": "filling", **_json_values(done[-1])}))
    except KeyboardInterrupt as e:
        from sage_attention.misc.interrupts import show_finished_and_raise
        show_finished_and_raise(e, "filling", done, f"{len(done)} searches finished", "run the other searches",
                                show, err)
    show(done)
    if getattr(args, "plot", None):
        write_plot(plot_filling(done), args.plot, args, out, err, "filling")
    return 0


def _json_values(value):
    """``value`` with tuples as lists and Sage integers as ints (for :func:`json.dumps`)."""
    if isinstance(value, dict):
        return {str(k): _json_values(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_values(v) for v in value]
    if value is None or isinstance(value, (bool, str, int, float)):
        return value
    try:
        return int(value)
    except (TypeError, ValueError):
        return str(value)


def add_filling_parser(sub, epilog):
    r"""
    Add the subcommand ``filling`` to the subparsers ``sub``.

    EXAMPLES::

        sage: import argparse
        sage: from sage_attention.app.filling import add_filling_parser
        sage: p = argparse.ArgumentParser(); add_filling_parser(p.add_subparsers(dest="command"), "")
        sage: p.parse_args(["filling", "--degree", "3"]).degree
        '3'
    """
    import argparse
    fl = sub.add_parser("filling", help="minimal filling widths and defective architectures of "
                        "polynomial networks (activation x^r)", epilog=epilog,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    fl.add_argument("--input", default="2..3", help="input widths d_0 (default: 2..3)")
    fl.add_argument("--output", default="1", help="output widths d_L (default: 1)")
    fl.add_argument("--depth", default="2..3", help="numbers of layers L >= 2 (default: 2..3)")
    fl.add_argument("--degree", default="2..3", help="activation degrees r >= 2 (default: 2..3)")
    fl.add_argument("--max-width", type=int, default=6,
                    help="the largest hidden width searched (default: 6)")
    fl.add_argument("--bias", action="store_true", help="biases in every layer")
    fl.add_argument("--exhaustive", action="store_true",
                    help="compute every architecture below the frontier, so every defective one "
                    "(default: only the frontier and the defective ones it meets)")
    fl.add_argument("--seed", type=seed_argument, default=0)
    fl.add_argument("--json", action="store_true",
                    help="print JSON Lines: one record per search (doc/json.rst)")
    fl.add_argument("--csv", action="store_true", help="print the table as CSV")
    fl.add_argument("--rst", action="store_true", help="print the table as reStructuredText")
    fl.add_argument("--plot", metavar="FILE", default=None,
                    help="also draw the minimal filling widths into FILE (.png, .pdf or .svg)")
    fl.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr")
