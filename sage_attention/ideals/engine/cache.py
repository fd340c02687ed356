r"""
The cache of the implicitization engine: one checksummed file per graded piece

Finished pieces of :func:`~sage_attention.ideals.implicitization.implicitize`
are stored in ``cache_dir`` (one JSON file per piece, with a SHA-256 checksum
of its content, the model and the format version) and reused by a later
call: a modified, truncated or foreign file is recomputed, never trusted.
"""
import hashlib
import json
import logging
import os

logger = logging.getLogger("sage_attention")


#: Version of the cache file format; files of another version are recomputed.
CACHE_FORMAT = 2


def cache_key(model, seed):
    r"""
    Return the string identifying the computation a cache entry belongs to.

    INPUT:

    - ``model`` -- a model
    - ``seed`` -- the seed as given to ``implicitize``

    OUTPUT: a string

    EXAMPLES::

        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.cache import cache_key
        sage: cache_key(LightningAttention(d=2, t=1, a=1), 3)
        'LightningAttention(d=2, out=1, t=1, a=1) over Rational Field|QKV|raw|3'
    """
    return (f"{model!r}|{getattr(model, 'weight_space', 'QKV')}|"
            f"{getattr(model, 'coordinate_scaling', 'raw')}|{seed}")


def cache_path(cache_dir, model, seed):
    r"""
    Return (and create) the subdirectory of ``cache_dir`` of the computation.

    INPUT: ``cache_dir``, ``model``, ``seed`` -- a directory, a model, the seed

    OUTPUT: the path, named by a hash of :func:`cache_key`

    EXAMPLES::

        sage: import os, tempfile
        sage: from sage_attention import LightningAttention
        sage: from sage_attention.ideals.engine.cache import cache_path
        sage: d = tempfile.mkdtemp(); M = LightningAttention(d=2, t=1, a=1)
        sage: p = cache_path(d, M, 0); os.path.isdir(p), p == cache_path(d, M, 0), p == cache_path(d, M, 1)
        (True, True, False)
    """
    key = hashlib.sha1(cache_key(model, seed).encode()).hexdigest()[:16]
    path = os.path.join(cache_dir, key)
    os.makedirs(path, exist_ok=True)
    return path


def _piece_file(path, k, delta):
    return os.path.join(path, f"d{k}_" + "_".join(str(c) for c in delta) + ".json")


def _checksum(key, k, delta, res):
    r"""
    Return the SHA-256 of a cached piece: its canonical JSON, the model key and the format version.
    """
    body = json.dumps({"format": CACHE_FORMAT, "key": key, "degree": int(k),
                       "multidegree": [int(c) for c in delta], "piece": res},
                      sort_keys=True, separators=(",", ":"), default=int)
    return hashlib.sha256(body.encode()).hexdigest()


def store_piece(cache, k, delta, res, key=""):
    r"""
    Write the result ``res`` of a piece to the cache, with its checksum.

    The file is written to a unique temporary file in the same directory and
    moved into place (``os.replace``, atomic), so several processes can
    share one cache directory: a reader sees the old file or the new one,
    never a partial one.

    INPUT:

    - ``cache`` -- a directory (nothing is written if it is ``None`` or empty)
    - ``k``, ``delta`` -- the degree and multidegree of the piece
    - ``res`` -- the result (JSON-ready dict)
    - ``key`` -- the :func:`cache_key` of the computation

    EXAMPLES::

        sage: import tempfile
        sage: from sage_attention.ideals.engine.cache import store_piece, load_piece
        sage: d = tempfile.mkdtemp()
        sage: res = {"kernel_dimension": 1, "generators": [[[[1, 0]], ["-1"]]]}
        sage: store_piece(d, 2, (1, 1), res, "m"); load_piece(d, 2, (1, 1), "m") == res
        True
        sage: load_piece(d, 2, (1, 1), "another model") is None
        implicitization cache: ... fails its checksum (modified or from another computation); recomputing the piece
        True
    """
    if not cache:
        return
    import tempfile
    fn = _piece_file(cache, k, delta)
    entry = {"format": CACHE_FORMAT, "key": key, "degree": int(k), "multidegree": [int(c) for c in delta],
             "sha256": _checksum(key, k, delta, res), "piece": res}
    fd, tmp = tempfile.mkstemp(dir=cache, prefix=os.path.basename(fn) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(entry, fh, default=int)
        os.replace(tmp, fn)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load_piece(cache, k, delta, key=""):
    r"""
    Return the cached result of a piece, or ``None`` (then it is recomputed).

    A file that cannot be read, is not JSON, has another format version or
    model key, or whose checksum does not match its content (a changed
    coefficient, an emptied list of generators) is never trusted: a warning
    is logged and ``None`` returned.

    INPUT: as :func:`store_piece`, without ``res``

    OUTPUT: a dict or ``None``

    EXAMPLES::

        sage: import os, tempfile
        sage: from sage_attention.ideals.engine.cache import store_piece, load_piece, _piece_file
        sage: d = tempfile.mkdtemp()
        sage: store_piece(d, 2, (1, 1), {"kernel_dimension": 1, "generators": [[[[2, 0]], ["-1"]]]}, "m")
        sage: fn = _piece_file(d, 2, (1, 1))
        sage: text = open(fn).read()
        sage: _ = open(fn, "w").write(text.replace('"-1"', '"-2"'))
        sage: load_piece(d, 2, (1, 1), "m") is None
        implicitization cache: ... fails its checksum (modified or from another computation); recomputing the piece
        True
        sage: _ = open(fn, "w").write('{"format": 2, "pie')
        sage: load_piece(d, 2, (1, 1), "m") is None
        implicitization cache: ... is unreadable or not JSON (JSONDecodeError); recomputing the piece
        True
    """
    fn = _piece_file(cache, k, delta)
    if not os.path.exists(fn):
        return None
    try:
        with open(fn, encoding="utf-8") as fh:
            entry = json.load(fh)
    except (OSError, ValueError) as exc:       # JSONDecodeError and UnicodeDecodeError are ValueErrors
        logger.warning("implicitization cache: %s is unreadable or not JSON (%s); recomputing the "
                       "piece", fn, type(exc).__name__)
        return None
    if (not isinstance(entry, dict) or entry.get("format") != CACHE_FORMAT
            or not isinstance(entry.get("piece"), dict)):
        logger.warning("implicitization cache: %s is not a cache entry of format %s; recomputing "
                       "the piece", fn, CACHE_FORMAT)
        return None
    res = entry["piece"]
    if (entry.get("key") != key or entry.get("degree") != int(k)
            or entry.get("multidegree") != [int(c) for c in delta]
            or entry.get("sha256") != _checksum(key, k, delta, res)):
        logger.warning("implicitization cache: %s fails its checksum (modified or from another "
                       "computation); recomputing the piece", fn)
        return None
    if not isinstance(res.get("generators"), list) or not isinstance(res.get("kernel_dimension"), int):
        logger.warning("implicitization cache: %s is incomplete; recomputing the piece", fn)
        return None
    return res
