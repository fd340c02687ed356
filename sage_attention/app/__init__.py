r"""
The applications: the command line, sweeps, experiments and figures

The top floor below the facade: everything here reads the spec language
(:mod:`sage_attention.dsl`) and the catalog, and runs the library.

- :mod:`~sage_attention.app.cli` -- ``sage-attention`` and its
  subcommands (``run``, ``check``, ``sweep``, ``defectivity``,
  ``filling``, ``figures``, ``script``);
- :mod:`~sage_attention.app.runners` -- one runner per computation
  statement, named in the catalog
  (:mod:`sage_attention.catalog.computations`), those of
  ``vanishing_ideal`` in :mod:`~sage_attention.app.ideal_runners`;
- :mod:`~sage_attention.app.reporting` -- the report of a run, text or
  JSON; :mod:`~sage_attention.app.jsonout` -- the JSON Lines convention;
  :mod:`~sage_attention.app.messages` -- the library's refusals in the
  words of the command line;
- :mod:`~sage_attention.app.sweeps` -- the batch subcommands;
  :mod:`~sage_attention.app.experiments` -- dimension sweeps and the
  experiment of [HMK2024]_; :mod:`~sage_attention.app.filling` -- filling
  widths of polynomial networks; :mod:`~sage_attention.app.figures` -- the
  figures;
- :mod:`~sage_attention.app.plots` -- the pictures of a sweep, the
  defectivity table and the filling frontier (``--plot FILE``, checked
  first by :mod:`~sage_attention.app.plot_files`);
- :mod:`~sage_attention.app.sage_script` -- Sage scripts run with the
  package's names (``sage-attention script``, ``make shell``);
- :mod:`~sage_attention.app.examples` -- the example specs and notebook
  shipped with the package (``sage-attention examples``).

EXAMPLES:

A spec checked, then run with JSON output::

    sage: import os, tempfile
    sage: from sage_attention.app.cli import main
    sage: f = os.path.join(tempfile.mkdtemp(), "m.att")
    sage: _ = open(f, "w").write("model m { input = 2; tokens = 2; layer attention(rank = 1, out = 1) }\n"
    ....:                        "compute m { dimension seed = 0 }")
    sage: main(["check", f])
    ...: ok: 1 model, 1 computation
    0
    sage: main(["run", f, "--json"])
    {"format": 1, "record": "model", "model": "m", ..., "dimension": 4, "expected_dimension": 4, ...}
    0

The softmax sweep of [HMK2024]_: every dimension equals the formula::

    sage: from sage_attention.app.experiments import hmk_experiment
    sage: rows = hmk_experiment(deltas=[3, 4], seed=0)
    sage: all(r['dimension'] == r['expected'] for r in rows)
    True
"""
