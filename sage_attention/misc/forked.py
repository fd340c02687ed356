r"""
Computations in a forked process, under a time limit

Singular cannot be interrupted safely in the middle of a Gröbner basis:
the interpreter can be left unusable. Computations that may run long (a
resolution, a primality proof) therefore run in a forked child that is
killed at the time limit; the parent keeps every result the child sent
before. A fork of a large Sage process costs tens of milliseconds, so
several steps share one child.

EXAMPLES::

    sage: from sage_attention.misc.forked import in_child, steps_in_child
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
import os
import pickle
import signal
import sys
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

        sage: from sage_attention.misc.forked import steps_in_child
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

        sage: from sage_attention.misc.forked import in_child
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


def _die_with_parent():
    # Linux: the kernel kills this process when its parent dies (a killed proof
    # leaves no orphan computing on); elsewhere the kill in the ``finally`` of
    # map_in_children is the only guard
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def _in_forked_child(fn, parent, fd):
    # in the forked child: compute, write the pickled result, exit without
    # running the parent's exit handlers
    status = 0
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's to handle
        _die_with_parent()
        if os.getppid() != parent:      # the parent died before the guard was set
            os._exit(1)
        try:
            data = pickle.dumps(("ok", fn()))
        except BaseException as e:  # reported to the parent
            data = pickle.dumps(("error", repr(e)))
        with os.fdopen(fd, "wb") as out:
            out.write(data)
    except BaseException:
        status = 1
    finally:
        os._exit(status)


def available_cores():
    r"""
    Return the number of cores this process may run on (at least `1`).

    EXAMPLES::

        sage: from sage_attention.misc.forked import available_cores
        sage: available_cores() >= 1
        True
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def map_in_children(fn, items, processes):
    r"""
    Return ``[fn(x) for x in items]``, the items shared among ``processes`` processes (this one and forked children).

    The children inherit this process's memory (``fn`` and the items are
    not pickled; the results are). This process computes the first share,
    each child one of the others. A child that fails raises here; children
    still running when this process stops waiting (an error, Ctrl-C) are
    killed, and on Linux a child also dies with its parent.

    INPUT:

    - ``fn`` -- a function of one item, with a picklable result
    - ``items`` -- a list
    - ``processes`` -- integer; `1` (or a platform without ``fork``) computes
      everything here

    OUTPUT: the list of the results, in the order of ``items``

    EXAMPLES::

        sage: from sage_attention.misc.forked import map_in_children
        sage: map_in_children(lambda n: n^2, [1, 2, 3, 4, 5], 2)
        [1, 4, 9, 16, 25]
        sage: map_in_children(lambda n: 1 / n, [1, 0], 2)
        Traceback (most recent call last):
        ...
        RuntimeError: a forked share failed: ZeroDivisionError(...)
    """
    items = list(items)
    k = min(int(processes), len(items))
    if k <= 1 or not hasattr(os, "fork"):
        return [fn(x) for x in items]
    shares = [items[i::k] for i in range(k)]
    children = []           # (pid, read end)
    results = []
    parent = os.getpid()     # taken before the fork: a child compares it with its parent's
    try:
        for share in shares[1:]:
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                _in_forked_child(lambda share=share: [fn(x) for x in share], parent, w)
            os.close(w)
            children.append((pid, r))
        results.append([fn(x) for x in shares[0]])
        for pid, r in children:
            with os.fdopen(r, "rb", closefd=False) as inp:
                data = inp.read()
            if not data:
                raise RuntimeError("a forked share died")
            status, res = pickle.loads(data)
            if status == "error":
                raise RuntimeError(f"a forked share failed: {res}")
            results.append(res)
    finally:
        for pid, r in children:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            os.close(r)
    out = [None] * len(items)
    for i, res in enumerate(results):
        out[i::k] = res
    return out
