r"""
The records of the generation report: one row per family, and the report

:func:`~sage_attention.variety.generation.generation_report` answers "do the
invariant families generate the vanishing ideal?" with a
:class:`GenerationReport`: one :class:`GenerationRow` per family and a last
row for their union, printed as a sentence, a text table (:meth:`GenerationReport.table`),
an HTML table (Jupyter) and a JSON-ready dictionary.

EXAMPLES::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.variety.generation import generation_report
    sage: G = generation_report(LightningAttention(d=1, t=2, a=1), ['linear']); G
    Generation report for LightningAttention(d=1, out=1, t=2, a=1) over Rational Field:
    the families generate the vanishing ideal (minimal generators by degree {1: 3}).
    sage: [r.family for r in G.rows]
    ['linear', 'all']
"""
from dataclasses import dataclass

#: The note every report carries: what "generates" means.
SATURATION_NOTE = ("ideal equality by Gröbner bases in the essential coordinates, "
                   "with the linear relations added; no saturation is assumed")


@dataclass(frozen=True)
class GenerationRow:
    r"""
    One row of a :class:`GenerationReport`: one family (or their union ``'all'``).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.generation import generation_report
        sage: r = generation_report(LightningAttention(d=2, t=2, a=2, entries=[(1, 1)]), ['linear']).rows[0]
        sage: r.family, r.generates, r.missing
        ('linear', False, {4: 1})
    """
    family: str
    members: int
    degrees: tuple
    contained: bool
    generators_by_degree: dict
    generates: bool
    missing: dict
    seconds: float
    note: str = ""

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.generation import generation_report
            sage: generation_report(LightningAttention(d=1, t=2, a=1), ['linear']).rows[0].to_dict()['generates']
            True
        """
        return {"family": self.family, "members": self.members, "degrees": list(self.degrees),
                "contained": self.contained,
                "generators_by_degree": {str(k): v for k, v in self.generators_by_degree.items()},
                "generates": self.generates,
                "missing": {str(k): v for k, v in self.missing.items()},
                "seconds": self.seconds, "note": self.note}


@dataclass(frozen=True)
class GenerationReport:
    r"""
    Whether the invariant families generate the vanishing ideal of a model.

    Attributes: ``model``, ``rows`` (:class:`GenerationRow`, the last one is
    the union ``'all'``), ``generators_by_degree`` (of the vanishing ideal),
    ``families_generate`` (``None`` when the union was not compared),
    ``algorithm`` (how the vanishing ideal was computed), ``complete``
    (whether that ideal is complete), ``seconds`` (computing it), ``note``,
    ``interrupted`` (Ctrl-C stopped the report: ``rows`` holds the rows
    finished before).

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.variety.generation import generation_report
        sage: G = generation_report(LightningAttention(d=1, t=2, a=1), ['linear'])
        sage: G.families_generate, G.complete
        (True, True)
    """
    model: str
    rows: tuple
    generators_by_degree: dict
    families_generate: bool
    algorithm: str
    complete: bool
    seconds: float
    note: str = SATURATION_NOTE
    interrupted: bool = False

    def __repr__(self):
        if self.families_generate is None:
            s = (f"Generation report for {self.model}:\nINTERRUPTED after {len(self.rows)} "
                 f"row(s), the union of the families was not compared with the vanishing ideal "
                 f"(minimal generators by degree {self.generators_by_degree})")
        else:
            verb = "generate" if self.families_generate else "do not generate"
            s = (f"Generation report for {self.model}:\nthe families {verb} the vanishing ideal "
                 f"(minimal generators by degree {self.generators_by_degree})")
            if self.interrupted:
                s += "; INTERRUPTED"
        if not self.complete:
            s += "; WARNING: the vanishing ideal is only known up to the degree computed"
        return s + "."

    def plot(self, **options):
        r"""
        Return the bar chart of the generators of `I(X)` that each family accounts for, by degree.

        INPUT: ``options`` -- passed to :func:`~sage_attention.variety.plots.plot_generation`

        OUTPUT: a Sage ``Graphics`` object (a matplotlib figure without Sage's plotting)

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.generation import generation_report
            sage: from sage.plot.graphics import Graphics
            sage: G = generation_report(LightningAttention(d=1, t=2, a=1), ['linear']).plot()
            sage: isinstance(G, Graphics)
            True
            sage: G.save(tmp_filename(ext='.png'))
        """
        from sage_attention.variety.plots import plot_generation
        return plot_generation(self, **options)

    def table(self):
        r"""
        Return the report as a text table.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.generation import generation_report
            sage: print(generation_report(LightningAttention(d=1, t=2, a=1), ['linear']).table())
            family | members | in I(X) | minimal generators | generates | missing | seconds
            -------+---------+---------+--------------------+-----------+---------+--------
            linear | 3       | yes     | {1: 3}             | yes       | {}      | ...
            all    | 3       | yes     | {1: 3}             | yes       | {}      | ...
        """
        head = ["family", "members", "in I(X)", "minimal generators", "generates", "missing",
                "seconds"]
        body = [[r.family, str(r.members), "yes" if r.contained else "NO",
                 str(r.generators_by_degree), "yes" if r.generates else "no", str(r.missing),
                 f"{r.seconds:.2f}"] for r in self.rows]
        widths = [max(len(x) for x in col) for col in zip(head, *body)]
        fmt = lambda row: " | ".join(x.ljust(w) for x, w in zip(row, widths)).rstrip()
        lines = [fmt(head), "-+-".join("-" * w for w in widths)]
        lines += [fmt(r) for r in body]
        if self.interrupted:
            lines.append("(interrupted: the rows above are the finished ones)")
        return "\n".join(lines)

    def _repr_html_(self):
        r"""
        Return the table of the report in HTML (Jupyter's rich display).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.generation import generation_report
            sage: h = generation_report(LightningAttention(d=1, t=2, a=1), ['linear'])._repr_html_()
            sage: '<tr><td>linear</td><td>3</td><td>yes</td><td>{1: 3}</td>' in h
            True
        """
        from sage_attention.misc.html import html_table
        body = [(r.family, r.members, "yes" if r.contained else "NO", r.generators_by_degree,
                 "yes" if r.generates else "no", r.missing, f"{r.seconds:.2f}") for r in self.rows]
        return html_table(body, header=["family", "members", "in I(X)", "minimal generators",
                                        "generates", "missing", "seconds"], caption=repr(self))

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.variety.generation import generation_report
            sage: sorted(generation_report(LightningAttention(d=1, t=2, a=1), ['linear']).to_dict())
            ['algorithm', 'complete', 'families_generate', 'generators_by_degree', 'interrupted', 'model', 'note', 'rows', 'seconds']
        """
        return {"model": self.model, "rows": [r.to_dict() for r in self.rows],
                "generators_by_degree": {str(k): v for k, v in self.generators_by_degree.items()},
                "families_generate": self.families_generate, "algorithm": self.algorithm,
                "complete": self.complete, "seconds": self.seconds, "note": self.note,
                "interrupted": self.interrupted}

