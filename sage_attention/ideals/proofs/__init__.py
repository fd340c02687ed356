r"""
Proofs that generators give the whole vanishing ideal: techniques behind one protocol

The engine (:mod:`sage_attention.ideals.engine`) finds the generators of the
vanishing ideal degree by degree and proves every finished degree complete.
Whether they generate the **whole** ideal is a separate question, answered
here by a proof, or by a sentence saying why not.

The map of the folder:

- the frame, which knows no technique:

  - :mod:`~sage_attention.ideals.proofs.problem` -- the problem record: the
    generators, their ring, the model or its map, the prime, the seed, the
    budget, and the structures computed on first use;
  - :mod:`~sage_attention.ideals.proofs.protocol` -- the certificate
    protocol (``proved``, ``reason``, ``technique``, ``verify()``,
    ``to_dict()``, ``rows()``, ``repr``), the attempts, and the acceptance
    of a claimed proof;
  - :mod:`~sage_attention.ideals.proofs.registry` -- the table of
    techniques by question: name, test, prover, placement;
  - :mod:`~sage_attention.ideals.proofs.strategy` -- tries them in order
    within the time budget and records every attempt; the recursive proofs
    of smaller varieties go through it too;
  - :mod:`~sage_attention.ideals.proofs.certificate` -- the completeness
    certificate: the proof that succeeded and the attempts;
  - :mod:`~sage_attention.ideals.proofs.kernels` -- the ideal of a smaller
    variety, computed and proved (the recursion);

- the techniques (one module each, and one registry entry):

  - :mod:`~sage_attention.ideals.proofs.completeness` -- ``'localization'``:
    `J_p` prime of the dimension of the variety (with the primary
    decomposition after it, and the zero ideal), on
    :mod:`~sage_attention.ideals.proofs.localization`,
    :mod:`~sage_attention.ideals.proofs.localization_checks`,
    :mod:`~sage_attention.ideals.proofs.shape_basis` and
    :mod:`~sage_attention.ideals.proofs.factor_orbits`;
  - :mod:`~sage_attention.ideals.proofs.segre` -- ``'segre'``: a Segre
    product, from the ideal of its factor (the factorization:
    :mod:`~sage_attention.ideals.proofs.segre_factor`);
  - :mod:`~sage_attention.ideals.proofs.subspace` -- ``'subspace'``: forms
    in fewer linear forms than features, from the variety of fewer features
    (:mod:`~sage_attention.ideals.proofs.fewer_features`,
    :mod:`~sage_attention.ideals.proofs.form_coordinates`,
    :mod:`~sage_attention.ideals.proofs.partial_minors`);
  - :mod:`~sage_attention.ideals.proofs.inheritance` -- ``'inheritance'``: a
    matrix product `F(p) \cdot C`, from the minors and a few columns (the
    factorization: :mod:`~sage_attention.ideals.proofs.matrix_product`;
    what the two proofs by inheritance share:
    :mod:`~sage_attention.ideals.proofs.inherited`);
  - :mod:`~sage_attention.ideals.proofs.birational` -- ``'birational'``:
    quadrics with a common linear factor, by an explicit birational inverse
    (:mod:`~sage_attention.ideals.proofs.birational_inverse`; their degree:
    :mod:`~sage_attention.ideals.proofs.common_factor`);
  - :mod:`~sage_attention.ideals.proofs.catalecticant` --
    ``'catalecticant'``: sums of `k` powers of binary linear forms (or
    powers of linear forms), from the minors of a catalecticant.

Each technique module states its theorem and proves it in its docstring.

EXAMPLES:

A proof, the technique that made it and every technique considered::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.implicitization import implicitize
    sage: R = implicitize(LightningAttention(d=3, t=1, a=1), 4, seed=0)
    sage: C = R.certificate; C.technique, C.verify()
    ('localization', True)
    sage: [(A.technique, A.outcome) for A in C.attempts]
    [('segre', 'not applicable'), ('subspace', 'not applicable'), ('inheritance', 'not applicable'),
     ('birational', 'not applicable'), ('catalecticant', 'not applicable'), ('localization', 'proved')]

How to add a technique. A technique is **one new module plus one registry
entry**; nothing else changes.

1. Write ``sage_attention/ideals/proofs/NAME.py``. Its docstring states the
   theorem and proves it, as the others do. It defines:

   - a certificate class: a dataclass subclassing
     :class:`~sage_attention.ideals.proofs.protocol.ProofCertificate`, with
     the fields ``proved`` and ``reason``, the class attributes
     ``technique = 'NAME'`` and ``label`` (``'by ...'``), and the methods
     ``verify()`` (re-check from the stored data), ``to_dict()``, ``rows()``
     and ``__repr__``; set ``rests_on_dimension = True`` when the proof uses
     the lower bound of the dimension (``problem.dimension()``), and
     ``reduction_prime = True`` when it proves the reduction modulo `p`
     prime;
   - ``applies(problem)``: ``None`` when the technique applies to the
     :class:`~sage_attention.ideals.proofs.problem.ProofProblem`, else a
     sentence saying why not (an
     :class:`~sage_attention.ideals.proofs.protocol.OverLimit` when only a
     size limit stops it);
   - ``prove(problem, timeout)``: the certificate (read the generators, the
     ring, ``problem.dimension()``, ``problem.parametrization_map()``, the
     seed, ... from the problem; a smaller variety goes through
     :func:`~sage_attention.ideals.proofs.strategy.prove_in_order`).

2. Add one line to :data:`~sage_attention.ideals.proofs.registry.TECHNIQUES`::

       Technique("NAME", WHOLE_IDEAL, _P + "NAME.applies", _P + "NAME.prove", "by ...", _P + "NAME", doc="..."),

   Its place in the table is its place in the order of the structure
   techniques; ``placement='first'`` (the default) tries it before the
   primality proof. Leave ``recheck=True`` (the default): the strategy then
   runs the certificate's ``verify()`` before it accepts a claimed proof, so
   a wrong claim is recorded as ``'rejected'`` and never proves anything.

3. Doctest the module (``sage -t``) and add a test under ``tests/``.

A new question (say, the ED degree of a variety) is a new key: entries with
``question='ED degree'``, the same protocol, and a strategy function that
reads ``techniques('ED degree')``.
"""
