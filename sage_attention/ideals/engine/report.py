r"""
The report of the implicitization engine

:class:`ImplicitizationReport` is what
:func:`~sage_attention.ideals.implicitization.implicitize` returns.
"""
from dataclasses import dataclass, field
from functools import cached_property

from sage_attention.misc.memory import check_memory
from sage_attention.misc.polynomial_text import polynomial_text
from sage_attention.settings import settings


@dataclass(frozen=True)
class ImplicitizationReport:
    r"""
    The vanishing ideal of a model, computed degree by degree.

    Attributes:

    - ``model`` -- string, the model
    - ``degree`` -- the degree bound asked for
    - ``ideal`` -- the ideal found, in ``model.coordinate_ring()`` (linear
      relations and the essential generators); made when first read (a
      second copy of every generator, in a ring of more variables, is more
      than the memory of a wide model holds: the slice of width `6` through
      degree `4`)
    - ``essential_generators`` -- tuple of the minimal generators found, in
      ``model.essential_ring()``
    - ``generators_by_degree`` -- dict ``{degree: tuple of generators}``
    - ``linear_relations`` -- tuple, in the coordinate ring
    - ``ideal_dimensions`` -- dict ``{degree: dim of the degree part}`` in the
      essential ring
    - ``complete_through_degree`` -- every generator of degree at most this
      is found (proved, see the module documentation)
    - ``proved_complete`` -- whether the whole ideal is proved to be found
    - ``proof`` -- sentence saying what is proved and how
    - ``certificate`` -- the
      :class:`~sage_attention.ideals.proofs.completeness.CompletenessCertificate`
      of the whole-ideal proof (``None`` when it was not tried)
    - ``grading`` -- the :class:`~sage_attention.ideals.engine.grading.Multigrading`
    - ``pieces`` -- dict ``{degree: number of graded pieces}``
    - ``solved_pieces`` -- dict ``{degree: number of pieces solved}``: one
      per orbit of ``symmetry``, the others are images
    - ``symmetry`` -- the
      :class:`~sage_attention.ideals.engine.symmetry.CoordinateSymmetries` used
    - ``timings`` -- dict of seconds
    - ``interrupted`` -- whether the run was cut short (Ctrl-C)
    - ``seed``, ``prime``

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.implicitization import implicitize
        sage: R = implicitize(LightningAttention(d=2, t=1, a=1), 3, seed=1)
        sage: R.generators_by_degree
        {}
        sage: R.to_dict()['complete_through_degree']
        3
    """
    model: str
    degree: int
    essential_generators: tuple
    generators_by_degree: dict
    linear_relations: tuple
    ideal_dimensions: dict
    complete_through_degree: int
    proved_complete: bool
    proof: str
    grading: object
    pieces: dict
    timings: dict
    interrupted: bool = False
    seed: object = None
    prime: int = field(default_factory=lambda: settings.LINALG_PRIMES[0])
    symmetry: object = None
    solved_pieces: dict = field(default_factory=dict)
    certificate: object = None
    #: the model's coordinate ring and its essential coordinates (in that ring), for ``ideal``
    coordinate_ring: object = field(default=None, repr=False)
    essential_coordinates: tuple = field(default=(), repr=False)

    @cached_property
    def ideal(self):
        r"""
        Return the ideal found in ``model.coordinate_ring()``: the linear relations and the essential generators.

        Made when first read, under the memory guard: see
        :meth:`coordinate_ideal`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
            sage: R = implicitize(M, 2, seed=0)
            sage: R.ideal.ring() is M.coordinate_ring(), R.ideal.ngens() == len(R.linear_relations) + 3
            (True, True)
        """
        return self.coordinate_ideal()

    def coordinate_ideal(self, force=False):
        r"""
        Return the ideal found in the model's coordinate ring (the same as :attr:`ideal`).

        It is a second copy of every generator, in a ring of more variables
        than the essential ring; its size is estimated first (the terms of
        the generators, each about `2n + 200` bytes in Singular's
        representation in `n` variables: 439 bytes measured for `n = 126`,
        rational coefficients) and compared with the
        memory guard (:func:`~sage_attention.misc.memory.check_memory`).
        The generators themselves are ``essential_generators``.

        INPUT:

        - ``force`` -- boolean (default: ``False``); build it beyond the
          memory guard

        OUTPUT: an ideal of the model's coordinate ring

        EXAMPLES:

        With a guard of 1 KB the ideal of a small slice is refused, and
        built when asked with ``force=True``::

            sage: import os
            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
            sage: R = implicitize(M, 2, seed=0)
            sage: os.environ["SAGE_ATTENTION_MEMORY_LIMIT"] = "1K"
            sage: R.ideal
            Traceback (most recent call last):
            ...
            ComputationTooLarge: the ideal found in the model's coordinate ring (... terms in ... variables) needs about ... of memory (limit 1.0 KiB set by SAGE_ATTENTION_MEMORY_LIMIT); its generators are the report's essential_generators (in the essential ring), and coordinate_ideal(force=True) builds it; pass force=True to run it anyway
            sage: I = R.coordinate_ideal(force=True)
            sage: del os.environ["SAGE_ATTENTION_MEMORY_LIMIT"]
            sage: I == R.ideal == M.parametrization().kernel()
            True
        """
        if "ideal" in self.__dict__:
            return self.__dict__["ideal"]
        C = self.coordinate_ring
        nterms = sum(g.number_of_terms() for g in self.essential_generators)
        check_memory(nterms * (2 * C.ngens() + 200),
                     f"the ideal found in the model's coordinate ring ({nterms} terms in {C.ngens()} variables)",
                     force=force, hint="its generators are the report's essential_generators (in the essential "
                                       "ring), and coordinate_ideal(force=True) builds it")
        gens = list(self.linear_relations)
        if self.essential_generators:
            E = self.essential_generators[0].parent()
            to_c = E.hom([C(x) for x in self.essential_coordinates], C)
            gens += [to_c(g) for g in self.essential_generators]
        I = C.ideal(gens) if gens else C.ideal([C.zero()])
        self.__dict__["ideal"] = I
        return I

    def __repr__(self):
        counts = {k: len(v) for k, v in sorted(self.generators_by_degree.items())}
        s = (f"Implicitization of {self.model}:\nminimal generators by degree {counts} "
             f"(+ {len(self.linear_relations)} linear relations); ")
        s += f"complete through degree {self.complete_through_degree};\n"
        if self.interrupted:
            s += "interrupted; "
        return s + self.status() + self.proof

    def status(self):
        r"""
        Return what is proved and what is not, the words before the proof sentence :attr:`proof`.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: implicitize(LightningAttention(d=2, t=2, a=1, entries=[(1, 1)]), 2, seed=0).status()
            'the whole ideal is proved: '
            sage: implicitize(LightningAttention(d=3, t=2, a=2, out=1, entries=[(1, 1)]), 3, seed=0,
            ....:             prove=False).status()
            'proved: the minimal generators through degree 3 (found and verified); not proved: that they generate the whole ideal. Details: '
        """
        if self.proved_complete:
            return "the whole ideal is proved: "
        k = self.complete_through_degree
        return (f"proved: the minimal generators through degree {k} (found and verified); "
                "not proved: that they generate the whole ideal. Details: ")

    def _caption(self):
        # the short caption of the HTML table: the model, the degree, proved or not
        done = ("whole ideal proved" if self.proved_complete else
                f"generators through degree {self.complete_through_degree} proved, "
                "whole ideal not proved")
        return (f"Implicitization of {self.model} through degree {self.degree}: {done}"
                f"{' (interrupted)' if self.interrupted else ''}")

    def _repr_html_(self):
        r"""
        Return an HTML table of the report (Jupyter's rich display): one row per degree.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: R = implicitize(LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)]), 2, seed=0)
            sage: '<tr><td>2</td><td>3</td><td>3</td>' in R._repr_html_()
            True

        The caption is short (the model, the degree, proved or not); the
        proof and the linear relations are rows of a second table::

            sage: R._caption()
            'Implicitization of LightningAttention(d=2, out=1, t=2, a=1, entries=((1, 1),)) over Rational Field through degree 2: whole ideal proved'
            sage: '<tr><th>linear relations</th><td>' in R._repr_html_()
            True
        """
        from sage_attention.misc.html import html_table
        body = [(k, len(self.generators_by_degree.get(k, ())), self.ideal_dimensions.get(k, ""),
                 self.pieces.get(k, ""), self.solved_pieces.get(k, ""),
                 f"{self.timings.get(f'degree {k}', 0):.2f}")
                for k in range(1, self.complete_through_degree + 1)]
        details = [("linear relations", len(self.linear_relations)),
                   ("complete through degree", self.complete_through_degree),
                   ("whole ideal proved", "yes" if self.proved_complete else "no"),
                   ("interrupted", "yes" if self.interrupted else "no"),
                   ("proof", self.proof)]
        return (html_table(body, header=["degree", "minimal generators", "dim I_k", "pieces",
                                         "pieces solved", "seconds"], caption=self._caption())
                + "\n" + html_table(details))

    def plot(self, **options):
        r"""
        Return the bar chart of the minimal generators and of `\dim I_k` in each degree.

        INPUT: ``options`` -- passed to
        :func:`~sage_attention.ideals.engine.plots.plot_implicitization`

        OUTPUT: a Sage ``Graphics`` object (a matplotlib figure without Sage's plotting)

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: R = implicitize(LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)]), 2, seed=0)
            sage: from sage.plot.graphics import Graphics
            sage: G = R.plot(); isinstance(G, Graphics)
            True
            sage: G.save(tmp_filename(ext='.png'))
        """
        from sage_attention.ideals.engine.plots import plot_implicitization
        return plot_implicitization(self, **options)

    def is_well_defined(self):
        r"""
        Check the internal consistency of the report.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: implicitize(LightningAttention(d=2, t=1, a=1), 2, seed=1).is_well_defined()
            True
        """
        gens = tuple(g for k in sorted(self.generators_by_degree) for g in self.generators_by_degree[k])
        return (gens == self.essential_generators
                and self.complete_through_degree <= self.degree
                and all(g.degree() == k for k, v in self.generators_by_degree.items() for g in v)
                and (not self.proved_complete or self.complete_through_degree >= 1))

    def to_dict(self):
        r"""
        Return a JSON-ready dictionary.

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.implicitization import implicitize
            sage: d = implicitize(LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)]), 2, seed=0).to_dict()
            sage: d['number_of_generators_by_degree'], d['proved_complete']
            ({'2': 3}, True)
        """
        return {
            "model": self.model,
            "degree": self.degree,
            "generators_by_degree": {str(k): [polynomial_text(g) for g in v]
                                     for k, v in sorted(self.generators_by_degree.items())},
            "number_of_generators_by_degree": {str(k): len(v) for k, v in sorted(self.generators_by_degree.items())},
            "linear_relations": [polynomial_text(f) for f in self.linear_relations],
            "ideal_dimensions": {str(k): v for k, v in sorted(self.ideal_dimensions.items())},
            "complete_through_degree": self.complete_through_degree,
            "proved_complete": self.proved_complete,
            "proof": self.proof,
            "certificate": None if self.certificate is None else self.certificate.to_dict(),
            "grading": self.grading.to_dict(),
            "pieces": {str(k): v for k, v in sorted(self.pieces.items())},
            "solved_pieces": {str(k): v for k, v in sorted(self.solved_pieces.items())},
            "symmetries": list(self.symmetry.names) if self.symmetry is not None else [],
            "timings": dict(self.timings),
            "interrupted": self.interrupted,
            "seed": self.seed,
            "prime": self.prime,
        }
