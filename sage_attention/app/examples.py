r"""
The examples shipped with the package: ``sage-attention examples [DIR]``

The spec files and the notebook of the source checkout's ``examples/``
folder are package data (``sage_attention.examples``), so a plain
``pip install`` has them too. :func:`write_examples` copies them into a
folder (``examples`` by default), after which the commands of the README and
the docs run as written::

    sage-attention examples
    sage-attention run examples/slice.att

A file that exists with other content is not overwritten unless asked
(``--force``); one with the same content is left as it is.

EXAMPLES::

    sage: from sage_attention.app.examples import example_files, write_examples
    sage: names = [name for name, _ in example_files()]
    sage: "slice.att" in names and "slice.ipynb" in names and "errors/unclosed.att" in names
    True
    sage: import tempfile, os
    sage: d = os.path.join(tempfile.mkdtemp(), "ex")
    sage: written, kept = write_examples(d)
    sage: sorted(written) == sorted(names), kept
    (True, [])
    sage: write_examples(d)[1] == sorted(names)      # a second time: every file is already there
    True
"""
import os

#: the files copied: spec files, the notebook, and the specs with errors of the DSL page
SUFFIXES = (".att", ".ipynb")


def example_files():
    r"""
    Return the shipped examples as pairs ``(relative name, bytes)``, sorted by name.

    EXAMPLES::

        sage: from sage_attention.app.examples import example_files
        sage: dict(example_files())["slice.att"].startswith(b"//")
        True
    """
    from importlib.resources import files
    root = files("sage_attention.examples")
    out = []

    def walk(node, prefix):
        for entry in node.iterdir():
            name = prefix + entry.name
            if entry.is_dir():
                if not entry.name.startswith(("_", ".")):
                    walk(entry, name + "/")
            elif entry.name.endswith(SUFFIXES):
                out.append((name, entry.read_bytes()))
    walk(root, "")
    return sorted(out)


def write_examples(directory="examples", force=False):
    r"""
    Write the shipped examples into ``directory`` (created when missing).

    INPUT:

    - ``directory`` -- (default: ``'examples'``) a folder name
    - ``force`` -- boolean (default: ``False``); overwrite a file that exists with other content

    OUTPUT: a pair ``(written, kept)`` of lists of relative names: the files
    written, and those already there with the same content

    A file that exists with other content raises ``FileExistsError`` naming
    it and the way out, before anything is written.

    EXAMPLES::

        sage: import tempfile, os
        sage: from sage_attention.app.examples import write_examples
        sage: d = tempfile.mkdtemp()
        sage: _ = open(os.path.join(d, "slice.att"), "w").write("my own spec\n")
        sage: write_examples(d)
        Traceback (most recent call last):
        ...
        FileExistsError: .../slice.att exists with other content: write the examples into another folder, or pass force=True (--force) to overwrite it
        sage: "slice.att" in write_examples(d, force=True)[0]
        True
    """
    files = example_files()
    directory = os.fspath(directory)
    if os.path.exists(directory) and not os.path.isdir(directory):
        raise NotADirectoryError(f"{directory} exists and is not a folder: name another folder")
    plan, kept = [], []
    for name, data in files:
        path = os.path.join(directory, *name.split("/"))
        if os.path.exists(path):
            with open(path, "rb") as fh:
                if fh.read() == data:
                    kept.append(name)
                    continue
            if not force:
                raise FileExistsError(f"{path} exists with other content: write the examples into another "
                                      "folder, or pass force=True (--force) to overwrite it")
        plan.append((name, path, data))
    for name, path, data in plan:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(data)
    return [name for name, _, _ in plan], kept


def examples_command(args, out, err):
    r"""
    Run ``sage-attention examples [DIR] [--force]``: write the examples, then say what to run.

    EXAMPLES::

        sage: import tempfile, os
        sage: from sage_attention.app.cli import main
        sage: d = os.path.join(tempfile.mkdtemp(), "ex")
        sage: main(["examples", d])
        wrote ... example files into .../ex; try: sage-attention run .../ex/slice.att
        0

    A file with other content is kept, and the message says how to replace it::

        sage: _ = open(os.path.join(d, "deep.att"), "w").write("mine")
        sage: import sys; sys.stderr = sys.stdout
        sage: main(["examples", d])
        error: .../deep.att exists with other content: write the examples into another folder, or pass --force to overwrite it
        2
        sage: main(["examples", d, "--force"])
        wrote 1 example files into .../ex (... already there); try: sage-attention run .../ex/slice.att
        0
        sage: sys.stderr = sys.__stderr__
    """
    from sage_attention.app.sweeps import UsageError
    try:
        written, kept = write_examples(args.directory, force=args.force)
    except (FileExistsError, NotADirectoryError) as e:
        raise UsageError(str(e).replace("pass force=True (--force)", "pass --force")) from None
    what = f"wrote {len(written)} example files into {args.directory}"
    if kept:
        what += f" ({len(kept)} already there)"
    print(f"{what}; try: sage-attention run {os.path.join(args.directory, 'slice.att')}", file=out)
    return 0


def add_examples_parser(sub, epilog):
    r"""
    Add the subcommand ``examples`` to the subparsers ``sub``.

    EXAMPLES::

        sage: import argparse
        sage: from sage_attention.app.examples import add_examples_parser
        sage: p = argparse.ArgumentParser(); add_examples_parser(p.add_subparsers(dest="command"), "")
        sage: p.parse_args(["examples"]).directory
        'examples'
    """
    import argparse
    ex = sub.add_parser("examples", help="write the example specs and notebook into a folder "
                        "(default: examples)", epilog=epilog,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    ex.add_argument("directory", nargs="?", default="examples", help="the folder (default: examples)")
    ex.add_argument("--force", action="store_true", help="overwrite files that exist with other content")
