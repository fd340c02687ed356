r"""
The registry of proof techniques

One table, :data:`TECHNIQUES`, lists every technique, as the invariant
families' table lists the families
(:data:`~sage_attention.catalog.computations.FAMILIES`). An entry names:

- the technique (``name``, also the ``technique`` of its certificates) and
  the **question** it answers (``'whole ideal'`` today: do the generators
  found generate the whole vanishing ideal? A new question, such as the
  ED degree of a variety, is a new key, with its own entries);
- a **test** of whether it applies to a problem, by dotted name: a function
  ``applies(problem)`` returning ``None`` when it applies, else the reason
  (a sentence; an :class:`~sage_attention.ideals.proofs.protocol.OverLimit`
  when only a size limit stops it);
- a **prover**, by dotted name: ``prove(problem, timeout)`` returning a
  certificate of the protocol (:mod:`sage_attention.ideals.proofs.protocol`);
- its ``role`` and ``placement``, which the strategy reads
  (:mod:`sage_attention.ideals.proofs.strategy`): a ``'structure'``
  technique needs no Gröbner basis of the generators and is tried before
  the ``'primality'`` proof (``placement='first'``), or before it only when
  the generators are beyond the terms limit and after it otherwise
  (``'first when large'``), or as that but after it only when ``prove`` is
  given (``'first when large, after when asked'``);
- ``recheck``: whether the strategy runs the certificate's ``verify()``
  before it accepts a claimed proof (the default; the built-in techniques
  make the same exact checks while they prove, and ``verify()`` on demand);
- a one-line ``doc``.

The functions are looked up by name when used, so the table imports no
technique and a technique may use the strategy (recursive proofs).

EXAMPLES:

The techniques that answer the question of the whole ideal, in the order
the strategy considers them::

    sage: from sage_attention.ideals.proofs.registry import techniques, technique, QUESTIONS
    sage: QUESTIONS
    ('whole ideal', 'ED degree')
    sage: names = [T.name for T in techniques('whole ideal')]
    sage: names[:4], names[-1]
    (['segre', 'subspace', 'inheritance', 'birational'], 'localization')
    sage: technique('segre').label
    'by a Segre product'
    sage: technique('segre').prover_function().__name__
    'prove'
    sage: names[4], technique('catalecticant').placement
    ('catalecticant', 'first')

An unknown name or question says what there is::

    sage: technique('magic')
    Traceback (most recent call last):
    ...
    ValueError: no technique 'magic' for the question 'whole ideal'; there are: segre, subspace, ...
    sage: techniques('volume')
    Traceback (most recent call last):
    ...
    ValueError: no question 'volume' in the registry; there are: 'whole ideal', 'ED degree'

The question of the ED degree of a variety has its own technique, with
its own certificate (:mod:`sage_attention.ideals.metric.certificate`)::

    sage: [(T.name, T.role) for T in techniques('ED degree')]
    [('critical ideal', 'count'), ('parametrization chart', 'count')]
"""
import importlib
from dataclasses import dataclass

from sage_attention.ideals.proofs.problem import WHOLE_IDEAL

#: where a structure technique goes relative to the primality proof
PLACEMENTS = ("first", "first when large", "first when large, after when asked", "primality")


@dataclass(frozen=True)
class Technique:
    r"""
    One proof technique: its name, its question, its test, its prover and where the strategy tries it.

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.registry import TECHNIQUES
        sage: T = TECHNIQUES[0]; T.name, T.question, T.role, T.placement, T.recheck
        ('segre', 'whole ideal', 'structure', 'first', False)
    """
    name: str
    question: str
    applies: str
    prover: str
    label: str
    module: str
    role: str = "structure"
    placement: str = "first"
    recheck: bool = True
    doc: str = ""

    def applies_function(self):
        r"""
        Return the test ``applies(problem)`` (``None`` when it applies, else the reason).

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.registry import technique
            sage: technique('birational').applies_function().__module__
            'sage_attention.ideals.proofs.birational'
        """
        return _function(self.applies)

    def prover_function(self):
        r"""
        Return the prover ``prove(problem, timeout)``.

        EXAMPLES::

            sage: from sage_attention.ideals.proofs.registry import technique
            sage: technique('localization').prover_function().__module__
            'sage_attention.ideals.proofs.completeness'
        """
        return _function(self.prover)


def _function(dotted):
    module, name = dotted.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


_P = "sage_attention.ideals.proofs."

#: Every technique, by question, in the order the strategy considers them.
TECHNIQUES = (
    Technique("segre", WHOLE_IDEAL, _P + "segre.applies", _P + "segre.prove", "by a Segre product",
              _P + "segre", placement="first", recheck=False,
              doc="a Segre product: from the ideal of its factor and the degrees found"),
    Technique("subspace", WHOLE_IDEAL, _P + "subspace.applies", _P + "subspace.prove",
              "by inheritance from fewer features", _P + "subspace", placement="first", recheck=False,
              doc="forms in fewer linear forms than features: from the variety of fewer features"),
    Technique("inheritance", WHOLE_IDEAL, _P + "inheritance.applies", _P + "inheritance.prove", "by inheritance",
              _P + "inheritance", placement="first when large", recheck=False,
              doc="a matrix product F(p) * C: from the minors and the ideal of a few columns"),
    Technique("birational", WHOLE_IDEAL, _P + "birational.applies", _P + "birational.prove",
              "by a birational inverse", _P + "birational", placement="first when large, after when asked",
              recheck=False, doc="quadrics with a common linear factor: an explicit birational inverse"),
    Technique("catalecticant", WHOLE_IDEAL, _P + "catalecticant.applies", _P + "catalecticant.prove",
              "by the minors of a catalecticant", _P + "catalecticant", placement="first",
              doc="sums of k powers of binary forms (or powers of forms): the minors of a catalecticant"),
    Technique("localization", WHOLE_IDEAL, _P + "completeness.applies", _P + "completeness.prove",
              "by localization", _P + "completeness", role="primality", placement="primality", recheck=False,
              doc="J_p prime of the dimension of the variety: one localization (then a primary decomposition)"),
    Technique("critical ideal", "ED degree", "sage_attention.ideals.metric.certificate.applies",
              "sage_attention.ideals.metric.certificate.prove", "by the critical ideal modulo two primes",
              "sage_attention.ideals.metric.certificate", role="count", placement="first", recheck=False,
              doc="the critical ideal of the squared distance, localized off the singular locus, counted "
                  "over GF(p) at two primes and independent random data"),
    Technique("parametrization chart", "ED degree", "sage_attention.ideals.metric.certificate.applies_chart",
              "sage_attention.ideals.metric.certificate.prove_chart", "by a parametrization chart modulo two primes",
              "sage_attention.ideals.metric.certificate", role="count", placement="first", recheck=False,
              doc="pure critical points of the loss in a chart transverse to the fibers, over the fiber size"),
)


def questions():
    r"""
    Return the questions the registry answers, in the order of their first technique.

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.registry import questions
        sage: questions()
        ('whole ideal', 'ED degree')
    """
    return tuple(dict.fromkeys(T.question for T in TECHNIQUES))


QUESTIONS = questions()


def techniques(question=WHOLE_IDEAL):
    r"""
    Return the techniques that answer ``question``, in order.

    INPUT:

    - ``question`` -- (default: ``'whole ideal'``) a key of the registry

    OUTPUT: a tuple of :class:`Technique`

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.registry import techniques
        sage: [T.name for T in techniques() if T.role == 'structure'][:4]
        ['segre', 'subspace', 'inheritance', 'birational']
    """
    found = tuple(T for T in TECHNIQUES if T.question == question)
    if not found:
        raise ValueError(f"no question {question!r} in the registry; there are: "
                         + ", ".join(repr(q) for q in questions()))
    return found


def technique(name, question=WHOLE_IDEAL):
    r"""
    Return the technique ``name`` of ``question``.

    INPUT:

    - ``name`` -- string
    - ``question`` -- (default: ``'whole ideal'``)

    OUTPUT: a :class:`Technique`

    EXAMPLES::

        sage: from sage_attention.ideals.proofs.registry import technique
        sage: technique('inheritance').placement
        'first when large'
    """
    for T in techniques(question):
        if T.name == name:
            return T
    raise ValueError(f"no technique {name!r} for the question {question!r}; there are: "
                     + ", ".join(T.name for T in techniques(question)))
