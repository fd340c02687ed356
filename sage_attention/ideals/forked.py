r"""
Computations in a forked process, under a time limit

Singular cannot be interrupted safely in the middle of a Gröbner basis:
the interpreter can be left unusable. Computations that may run long (a
resolution, a primality proof) therefore run in a forked child that is
killed at the time limit; the parent keeps every result the child sent
before. A fork of a large Sage process costs tens of milliseconds, so
several steps share one child.

EXAMPLES::

    sage: from sage_attention.ideals.forked import in_child, steps_in_child
    sage: in_child(lambda n: n + 1, 41, 30, "addition")
    42
    sage: def steps(n, send):
    ....:     send(n)
    ....:     send(n + 1)
    ....:     import time; time.sleep(60)
    ....:     send(n + 2)
    sage: steps_in_child(steps, 0, 3, 2)
    [0, 1]
"""
import multiprocessing
import time


def _run_steps(conn, fn, arg):
    try:
        fn(arg, conn.send)
    except BaseException as e:  # reported to the parent
        conn.send(("error", repr(e)))
    conn.close()


def steps_in_child(fn, arg, timeout, count, what="computation"):
    r"""
    Return the results that ``fn(arg, send)`` sent from a forked process within ``timeout`` seconds.

    INPUT:

    - ``fn`` -- a function of ``arg`` and ``send``; it calls ``send(result)``
      after each step (picklable results)
    - ``arg`` -- its argument
    - ``timeout`` -- seconds for all steps together, or ``None``: no limit
      and no child (``fn`` runs in this process)
    - ``count`` -- the number of results expected at most (the parent stops
      waiting after that many)
    - ``what`` -- a name for the messages

    OUTPUT: the list of the results received (fewer than ``count`` when the
    time ran out or ``fn`` returned early). The child is killed when the
    parent stops waiting (also on Ctrl-C, which propagates). An exception in
    the child is raised here as a :class:`RuntimeError`.

    EXAMPLES::

        sage: from sage_attention.ideals.forked import steps_in_child
        sage: steps_in_child(lambda n, send: [send(n), send(2 * n)], 3, None, 2)
        [3, 6]
        sage: steps_in_child(lambda n, send: 1 / 0, 3, 30, 1, "division")
        Traceback (most recent call last):
        ...
        RuntimeError: the division failed: ZeroDivisionError(...)
    """
    if timeout is None:
        out = []
        fn(arg, out.append)
        return out[:count]
    t0 = time.time()
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_run_steps, args=(send, fn, arg), daemon=True)
    proc.start()
    send.close()
    results = []
    try:
        while len(results) < count:
            if not recv.poll(max(timeout - (time.time() - t0), 0.01)):
                break
            try:
                res = recv.recv()
            except EOFError:
                if proc.is_alive():
                    proc.join(1)
                if proc.exitcode not in (0, None):
                    raise RuntimeError(f"the process of the {what} died (exit code {proc.exitcode})")
                break
            if isinstance(res, tuple) and len(res) == 2 and isinstance(res[0], str) and res[0] == "error":
                raise RuntimeError(f"the {what} failed: {res[1]}")
            results.append(res)
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()
    return results


def in_child(fn, arg, timeout, what="computation"):
    r"""
    Return ``fn(arg)`` computed in a forked process, or ``None`` after ``timeout`` seconds.

    With ``timeout=None`` it is computed in this process.

    EXAMPLES::

        sage: from sage_attention.ideals.forked import in_child
        sage: in_child(len, [1, 2], None), in_child(len, [1, 2], 30)
        (2, 2)
        sage: import time
        sage: in_child(time.sleep, 60, 1) is None
        True
    """
    if timeout is None:
        return fn(arg)
    out = steps_in_child(lambda a, send: send(fn(a)), arg, timeout, 1, what)
    return out[0] if out else None
