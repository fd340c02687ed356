r"""
The interpolation engine: the vanishing ideal degree by degree, with no whole-ideal proof

:func:`interpolate` runs the engine that
:func:`~sage_attention.ideals.implicitization.implicitize` reports on: the
multigrading and the symmetries of the map, then for each degree its graded
pieces (one per orbit of the symmetries), their kernels over `\GF{p}`, the
new generators lifted to `\QQ` and verified by exact composition
(:mod:`sage_attention.ideals.engine.pieces`). Every degree that finishes is
complete (the theorem is in :mod:`sage_attention.ideals.implicitization`).
Whether the generators found are the **whole** ideal is a separate question,
answered by :mod:`sage_attention.ideals.proofs`; the engine never asks it,
so a proof may call it (the probe of the next degree,
:func:`~sage_attention.ideals.proofs.strategy.next_degree_generators`)
without a cycle.

EXAMPLES:

The one-entry slice of width `2` and rank `1` through degree `3`: three
quadrics, no cubic::

    sage: from sage_attention import LightningAttention
    sage: from sage_attention.ideals.engine.interpolation import interpolate
    sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
    sage: I = interpolate(M, 3, seed=0)
    sage: {k: len(v) for k, v in I.generators_by_degree.items()}, I.complete_through, I.interrupted
    ({2: 3}, 3, False)
    sage: phi = M.essential_parametrization()
    sage: all(phi(g) == 0 for g in I.essential_generators)
    True
"""
import logging
import time
from concurrent.futures import Future, as_completed
from contextlib import nullcontext
from dataclasses import dataclass, field
from math import comb

import numpy as np

from sage.all__sagemath_singular import QQ
from sage_attention.misc.memory import check_memory, memory_limit
from sage_attention.misc.interrupts import deferred_interrupts, raise_interrupted
from sage_attention.misc.randomness import resolve_seed
from sage_attention.catalog.costs import largest_fitting_degree
from sage_attention.ideals.engine.grading import multigrading
from sage_attention.ideals.engine.symmetry import coordinate_symmetries, CoordinateSymmetries
from sage_attention.ideals.engine.evaluation import EvaluationContext, envelope_images
from sage_attention.ideals.engine.cache import cache_key, cache_path, load_piece, store_piece
from sage_attention.ideals.engine.pieces import (PieceProgress, batches, default_executor, graded_pieces,
                                                 lower_multiples, stop_executor, monomial_table_bytes,
                                                 piece_lower_bytes, piece_orbits, piece_sizes_through, run_batch,
                                                 run_piece as engine_run_piece)
from sage_attention.ideals.engine.product_span import residues
from sage_attention.settings import settings

logger = logging.getLogger("sage_attention")


@dataclass
class Interpolation:
    r"""
    What the engine found: the generators degree by degree, with no claim about the whole ideal.

    Made by :func:`interpolate`. Attributes:

    - ``ring`` -- the essential ring `E` of the model
    - ``generators_by_degree`` -- ``{degree: tuple of new minimal generators}``
    - ``essential_generators`` -- all of them, by degree
    - ``dimensions`` -- ``{degree: dim I_degree}``
    - ``complete_through`` -- the last degree that finished (every degree
      through it is complete)
    - ``grading`` -- the :class:`~sage_attention.ideals.engine.grading.Multigrading`
    - ``symmetry`` -- the :class:`~sage_attention.ideals.engine.symmetry.CoordinateSymmetries` used
    - ``pieces``, ``solved_pieces`` -- ``{degree: number of graded pieces}``, and of pieces solved
    - ``timings`` -- seconds by step (``'grading'``, ``'symmetry'``, ``'degree k'``)
    - ``interrupted`` -- whether Ctrl-C cut the run short (``True`` only on
      the ``partial`` of the :class:`~sage_attention.misc.interrupts.ComputationInterrupted`
      that :func:`interpolate` raises)
    - ``seed`` -- the seed used (resolved)

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.interpolation import interpolate
        sage: I = interpolate(LightningAttention(d=2, t=1, a=1), 2, seed=1)
        sage: I.generators_by_degree, I.dimensions, I.engine_seconds() >= 0
        ({}, {1: 0, 2: 0}, True)
    """
    ring: object
    generators_by_degree: dict
    essential_generators: tuple
    dimensions: dict
    complete_through: int
    grading: object
    symmetry: object
    pieces: dict
    solved_pieces: dict
    timings: dict = field(default_factory=dict)
    interrupted: bool = False
    seed: object = None

    def engine_seconds(self):
        r"""
        Return the seconds the degrees took (grading and symmetry excluded).

        EXAMPLES::

            sage: from sage_attention import LightningAttention
            sage: from sage_attention.ideals.engine.interpolation import interpolate
            sage: interpolate(LightningAttention(d=2, t=1, a=1), 1, seed=1).engine_seconds() < 60
            True
        """
        return sum(v for key, v in self.timings.items() if key.startswith("degree "))


def qkv_twin(model):
    r"""
    Return a model with the same coordinates whose parametrization has a polynomial weight space.

    With ``weight_space='AV'`` and ``a < d`` the weight space is the rank variety,
    so the kernel of the polynomial map is not the vanishing ideal; the
    ``(Q, K, V)`` form of the same network parametrizes the same variety.

    INPUT:

    - ``model`` -- a lightning model

    OUTPUT: ``model`` itself, or its ``(Q, K, V)`` form

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.interpolation import qkv_twin
        sage: M = LightningAttention(d=2, t=1, a=1)
        sage: qkv_twin(M) is M
        True
    """
    if getattr(model, "weight_space", "QKV") != "AV":
        return model
    if all(a >= d for a, d in zip(model.ranks, model.widths)):
        return model
    twin = model.with_weight_space("QKV")
    if [str(x) for x in twin.essential_ring().gens()] != [str(x) for x in model.essential_ring().gens()]:
        raise ValueError("the (Q, K, V) form of this model has other essential coordinates")
    return twin


def interpolate(model, degree, seed=None, executor=None, cache_dir=None, progress=False, max_attempts=4,
                symmetry=True, force=False, run_piece=None, table_bytes=None, lower_bytes=None):
    r"""
    Return the minimal generators of the vanishing ideal of ``model`` degree by degree through ``degree``.

    The engine of :func:`~sage_attention.ideals.implicitization.implicitize`,
    which checks the arguments (this function does not) and adds the
    whole-ideal proof and the report.

    INPUT:

    - ``model``, ``degree``, ``seed``, ``executor``, ``cache_dir``,
      ``progress``, ``max_attempts``, ``symmetry``, ``force`` -- as in
      :func:`~sage_attention.ideals.implicitization.implicitize` (checked there)
    - ``run_piece``, ``table_bytes``, ``lower_bytes`` -- (default: ``None``,
      the engine's :func:`~sage_attention.ideals.engine.pieces.run_piece`,
      :func:`~sage_attention.ideals.engine.pieces.monomial_table_bytes` and
      :func:`~sage_attention.ideals.engine.pieces.piece_lower_bytes`)
      substitutes, for tests

    OUTPUT: an :class:`Interpolation`

    Ctrl-C raises :class:`~sage_attention.misc.interrupts.ComputationInterrupted`
    (phase ``'interpolation'``) at once; its ``partial`` is an
    :class:`Interpolation` of the degrees that finished, with ``interrupted``
    set (made when first read). The finished degrees, and the pieces of the
    unfinished one that finished, are kept in memory
    (:func:`resume_state`): the same call resumes from them.

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.interpolation import interpolate
        sage: M = LightningAttention(d=2, t=2, a=1, out=1, entries=[(1, 1)])
        sage: I = interpolate(M, 2, seed=0, symmetry=False)
        sage: I.dimensions, I.seed
        ({1: 0, 2: 3}, 0)
    """
    run_piece = run_piece or engine_run_piece
    table_bytes = table_bytes or monomial_table_bytes
    lower_bytes = lower_bytes or piece_lower_bytes
    timings = {}
    qkv = qkv_twin(model)
    E = model.essential_ring()
    phi = qkv.essential_parametrization()
    images = [phi(x) for x in qkv.essential_ring().gens()]
    t0 = time.time()
    G = multigrading(phi)
    timings["grading"] = time.time() - t0
    t0 = time.time()
    sym = (coordinate_symmetries(qkv, grading=G) if symmetry
           else CoordinateSymmetries((), (), E.ngens()))
    timings["symmetry"] = time.time() - t0
    cache_seed = seed          # the cache is keyed by the seed as given
    # an interrupted run of the same call: its finished degrees and pieces (resume_state)
    rkey = (cache_key(model, cache_seed), bool(symmetry))
    state = _RESUME.pop(rkey, None)
    if state is not None and state["complete"] > degree:
        state = None
    seed = resolve_seed(seed) if state is None else state["seed"]
    # over GF(p) the kernel is computed and verified modulo p itself (never
    # lifted to QQ: the ideal over GF(p) need not be a reduction of one over QQ)
    char = int(model.base_ring().characteristic())
    # generators are verified on the map with generic attention matrices first, when the
    # model factors through it (checked exactly: envelope_images); evaluation uses phi
    ctx = EvaluationContext(images, E, seed, characteristic=char, envelope=envelope_images(qkv, images, E))
    ctx.force = bool(force)
    degs = np.array(G.degrees, dtype=np.int64).reshape(E.ngens(), -1)
    # the grading's rank is counted as the number of parameters (an upper bound), as
    # ``sage-attention check`` counts it without Sage (sizes.monomial_table)
    nparams = images[0].parent().ngens()
    table = table_bytes(E.ngens(), degree, nparams)
    # the degree to suggest is one this estimate accepts (looked for only when it refuses)
    fits = (largest_fitting_degree(E.ngens(), nparams, degree, memory_limit())
            if not force and table > memory_limit() else None)
    check_memory(table, f"the table of the {comb(E.ngens() + degree - 1, degree)} monomials of degree {degree} "
                 f"in {E.ngens()} essential coordinates", force,
                 lower_degree=True, degree=fits)
    # every degree's largest graded piece, counted (not listed) before any degree is solved
    for k, sizes in enumerate(piece_sizes_through(degs, degree)):
        if k < 2:
            continue
        N = max(sizes.values())
        check_memory(lower_bytes(N), f"the largest graded piece of degree {k} ({N} monomials; "
                     f"its evaluation matrix or its kernel has at least {-(-N // 2)} rows of "
                     f"{-(-N // 2)} or more residues)", force, lower_degree=True)
    cache = cache_path(cache_dir, model, cache_seed) if cache_dir else None
    ckey = cache_key(model, cache_seed)
    prog = PieceProgress(progress)

    gens_by_degree = {}
    groups = {}           # (degree, multidegree) -> [(exps array, residues)]
    group_index = {}      # degree -> its multidegrees in groups
    new = []              # the generators of the degree being computed
    all_pieces = {}       # degree -> {multidegree: monomials}
    dims = {}
    pieces_count = {}
    solved_count = {}
    complete = 0
    interrupted = False
    own_executor = None
    pcs = reps = todo = results = orbits = None     # the last degree's, dropped below
    done_pieces = {}
    if state is not None:
        gens_by_degree, groups, group_index = dict(state["gens"]), dict(state["groups"]), dict(state["index"])
        all_pieces, dims = dict(state["pieces"]), dict(state["dims"])
        pieces_count, solved_count = dict(state["count"]), dict(state["solved"])
        complete, done_pieces = state["complete"], dict(state["done"])
        timings.update({key: v for key, v in state["timings"].items() if key.startswith("degree ")})
        logger.info("resuming %s from degree %s (degrees 1..%s finished before Ctrl-C)", model,
                    complete + 1, complete)
    try:
        try:
            for k in range(complete + 1, degree + 1):
                t0 = time.time()
                pcs = graded_pieces(E.ngens(), k, degs)
                all_pieces[k] = pcs
                pieces_count[k] = len(pcs)
                orbits = piece_orbits(dict(sorted(pcs.items(), key=lambda kv: -len(kv[1]))), degs,
                                       sym.generators)
                reps = {delta: mons for delta, mons in pcs.items() if orbits[delta][0] == delta}
                solved_count[k] = len(reps)
                prog.start(k, len(reps))
                results = {}
                todo = []
                for delta, mons in sorted(reps.items(), key=lambda kv: -len(kv[1])):
                    if done_pieces.get(k, {}).get(delta) is not None:
                        results[delta] = done_pieces[k][delta]
                        prog.step()
                        continue
                    if cache:
                        res = load_piece(cache, k, delta, ckey)
                        if res is not None:
                            results[delta] = res
                            prog.step()
                            continue
                    blocks = (lower_multiples(groups, all_pieces, k, delta, group_index)
                              if len(mons) > 1 else [])
                    todo.append((delta, (ctx, k, delta, mons, blocks, seed, max_attempts)))
                ex = executor
                work = sum(len(args[3]) ** 2 for _, args in todo)
                if ex is None and len(todo) >= 64 and work >= 2 * 10 ** 6:
                    if own_executor is None:
                        own_executor = default_executor(len(todo))
                    ex = own_executor
                if ex is None or ex is False:
                    for delta, args in todo:
                        results[delta] = run_piece(args)
                        store_piece(cache, k, delta, results[delta], ckey)
                        prog.step()
                else:
                    futs = {}
                    for batch in batches(todo, work):
                        futs[ex.submit(run_batch, ctx, [(delta, args[1:]) for delta, args in batch])] = batch
                    try:
                        it = as_completed(futs) if all(isinstance(f, Future) for f in futs) else list(futs)
                        for f in it:
                            for delta, res in f.result():
                                results[delta] = res
                                store_piece(cache, k, delta, res, ckey)
                                prog.step()
                    except BaseException:
                        for f in futs:
                            f.cancel()
                        raise
                dims[k] = sum(results[orbits[delta][0]]["kernel_dimension"] for delta in pcs)
                new = []
                converted = {}    # representative -> its generators as (int16 exponents, QQ, residues)
                for delta in sorted(pcs):
                    # the image of a piece is made when it is read, and its generators kept as one
                    # int16 array each, shared by the multiples and the result (the peak memory of
                    # wide models: most pieces are images); an image has the coefficients of its
                    # representative: they are converted to QQ and reduced once, and shared. The
                    # generators of the last degree are multiples of nothing: their images get no
                    # exponent arrays (their polynomials are the representative's, permuted), which
                    # is most of the memory of a wide model (332325 quartics in 126 coordinates)
                    rep, h = orbits[delta]
                    if rep not in converted:
                        converted[rep] = []
                        for exps, coeffs in results[rep]["generators"]:
                            cq = [QQ(c) for c in coeffs]
                            converted[rep].append((np.asarray(exps, dtype=np.int16), cq,
                                                   residues(cq, char or settings.LINALG_PRIMES[0])))
                    for i, (e16, cq, res) in enumerate(converted[rep]):
                        if rep != delta and k == degree:
                            new.append((None, cq, (rep, i), h))
                            continue
                        if rep != delta:
                            img = np.zeros_like(e16)
                            img[:, h] = e16
                            e16 = img
                        if k < degree:
                            groups.setdefault((k, delta), []).append((e16, res))
                        new.append((e16, cq, (rep, i), None if rep == delta else h))
                del converted
                group_index[k] = [gd for j, gd in groups if j == k]
                if new:
                    gens_by_degree[k] = tuple(new)
                complete = k
                results = None        # the next degree's, when it has started
                timings[f"degree {k}"] = time.time() - t0
                logger.info("degree %s: %s new generators, dim I_%s = %s (%.2f s)", k, len(new), k, dims[k],
                            timings[f"degree {k}"])
        except KeyboardInterrupt as exc:
            interrupted = exc
            # kept for the same call (resume_state): the finished degrees, and the finished pieces
            # of the next one (the groups of the last degree asked for are not kept: k < degree)
            _remember(rkey, {"gens": {j: g for j, g in gens_by_degree.items() if j <= complete},
                             "groups": {key: g for key, g in groups.items() if key[0] <= complete},
                             "index": {j: g for j, g in group_index.items() if j <= complete},
                             "pieces": {j: p for j, p in all_pieces.items() if j <= complete},
                             "dims": {j: v for j, v in dims.items() if j <= complete},
                             "count": {j: c for j, c in pieces_count.items() if j <= complete},
                             "solved": {j: c for j, c in solved_count.items() if j <= complete},
                             "complete": complete, "seed": seed, "timings": dict(timings),
                             "done": {complete + 1: dict(results or {})} if complete < degree else {}})
            logger.info("interrupted: degrees 1..%s finished", complete)
            counts = {kk: len(v) for kk, v in sorted(gens_by_degree.items()) if kk <= complete}
            finished = (f"degrees 1..{complete} finished, {sum(counts.values())} minimal generators "
                        f"{counts} (each degree complete)" if complete else "no degree finished")
            frozen = {kk: v for kk, v in gens_by_degree.items() if kk <= complete}
            done = ({kk: v for kk, v in dims.items() if kk <= complete},
                    {kk: v for kk, v in pieces_count.items() if kk <= complete},
                    {kk: v for kk, v in solved_count.items() if kk <= complete}, dict(timings))
            # the last degree's tables are not kept by the exception's traceback
            all_pieces = groups = new = pcs = reps = todo = results = orbits = None

            def made():
                return _interpolation(E, frozen, done[0], complete, G, sym, done[1], done[2], done[3], True,
                                      seed)
            # raised here, so that a second Ctrl-C during the clean-up below has it as its context
            # (sage_attention.misc.interrupts.interrupt_of)
            raise_interrupted(exc, "interpolation", made, finished,
                              f"the same call resumes from degree {complete + 1}",
                              summary={"complete_through_degree": complete, "generators_by_degree": counts,
                                       "degree": degree})
    finally:
        # after Ctrl-C a second one does not cut this short: the workers end
        with deferred_interrupts() if interrupted else nullcontext():
            prog.close()
            if own_executor is not None:
                stop_executor(own_executor, bool(interrupted))
    # the monomial tables, the residues of the multiples and the last degree's list are not
    # needed for the polynomials; nor are the last degree's table, pieces to solve (which hold
    # the multiples) and results (exponents as lists of Python integers): gigabytes for a
    # wide model, kept until the end of the call before
    del all_pieces, groups, new, pcs, reps, todo, results, orbits
    return _interpolation(E, gens_by_degree, dims, complete, G, sym, pieces_count, solved_count, timings,
                          False, seed)


def _interpolation(E, gens_by_degree, dims, complete, G, sym, pieces_count, solved_count, timings,
                   interrupted, seed):
    r"""
    Return the :class:`Interpolation` of the engine's raw generators (``{degree: entries}``; not modified).
    """
    gens_by_degree = dict(gens_by_degree)

    def poly(exps, cq):
        return E(dict(zip(map(tuple, np.asarray(exps, dtype=np.int64).tolist()), cq)))

    # each generator's arrays are dropped as its polynomial is made (the ideal in the model's
    # coordinate ring is made when the report's ``ideal`` is first read); the generators of a
    # representative piece are made from their terms, those of its images by permuting the
    # variables of the representative's (about three times faster than from the terms)
    Egens = E.gens()
    for kk in sorted(gens_by_degree):
        raw = list(gens_by_degree.pop(kk))
        made = {}
        for i, (exps, cq, key, h) in enumerate(raw):
            if h is None:
                raw[i] = made[key] = poly(exps, cq)
        for i, entry in enumerate(raw):
            if isinstance(entry, tuple):
                _, _, key, h = entry
                raw[i] = made[key](*[Egens[int(c)] for c in h])
        del made
        gens_by_degree[kk] = tuple(raw)
        del raw
    egens = tuple(g for kk in sorted(gens_by_degree) for g in gens_by_degree[kk])
    return Interpolation(ring=E, generators_by_degree=gens_by_degree, essential_generators=egens, dimensions=dims,
                         complete_through=complete, grading=G, symmetry=sym, pieces=pieces_count,
                         solved_pieces=solved_count, timings=timings, interrupted=interrupted, seed=seed)


#: the finished part of interrupted runs, by (cache key, symmetry): see :func:`resume_state`
_RESUME = {}


def _remember(key, state):
    _RESUME.pop(key, None)
    _RESUME[key] = state
    while len(_RESUME) > max(0, int(settings.RESUME_RUNS)):
        _RESUME.pop(next(iter(_RESUME)))


def resume_state(model=None, seed=None, symmetry=True):
    r"""
    Return what an interrupted run of the engine on ``model`` kept for the same call to resume from.

    On Ctrl-C, :func:`interpolate` keeps in memory its finished degrees
    (their generators and the multiples the next degree needs) and the
    finished pieces of the degree it was solving, for the same model, seed
    (as given) and ``symmetry``; the next call with these arguments starts
    from them, and then forgets them. The last ``settings.RESUME_RUNS``
    interrupted runs are kept. With ``cache_dir`` the finished pieces are
    also on disk, for another session.

    INPUT:

    - ``model`` -- (default: ``None``) a model; ``None`` forgets every kept run
    - ``seed``, ``symmetry`` -- as given to :func:`interpolate`

    OUTPUT: ``(complete, finished pieces of the next degree)``, or ``None``
    when nothing is kept (and always ``None`` for ``model=None``)

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.interpolation import resume_state
        sage: resume_state(LightningAttention(d=2, t=1, a=1)) is None
        True
        sage: resume_state() is None
        True
    """
    if model is None:
        _RESUME.clear()
        return None
    state = _RESUME.get((cache_key(model, seed), bool(symmetry)))
    if state is None:
        return None
    return state["complete"], sum(len(v) for v in state["done"].values())
