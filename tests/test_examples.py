"""
The examples ship with the package: `sage-attention examples [DIR]` writes the spec files and the
notebook of the checkout's examples/ folder, byte for byte, and what it writes checks as in the
checkout (the good specs pass `check`, the specs with errors fail it).
"""
import os

from sage_attention.app import cli
from sage_attention.app.examples import example_files, write_examples

from helpers import ROOT


def checkout_examples():
    out = {}
    base = os.path.join(ROOT, "examples")
    for dirpath, _, files in os.walk(base):
        for f in files:
            if f.endswith((".att", ".ipynb")):
                path = os.path.join(dirpath, f)
                out[os.path.relpath(path, base).replace(os.sep, "/")] = open(path, "rb").read()
    return out


def test_the_shipped_examples_are_the_checkouts():
    assert dict(example_files()) == checkout_examples()


def test_the_command_writes_them_and_they_check(tmp_path, capsys):
    d = tmp_path / "ex"
    assert cli.main(["examples", str(d)]) == 0
    assert "try: sage-attention run" in capsys.readouterr().out
    for name in checkout_examples():
        if not name.endswith(".att"):
            continue
        status = cli.main(["check", str(d / name)])
        capsys.readouterr()
        assert status == (2 if name.startswith("errors/") else 0), name


def test_other_content_is_not_overwritten_unless_forced(tmp_path, capsys):
    (tmp_path / "slice.att").write_text("mine\n")
    assert cli.main(["examples", str(tmp_path)]) == 2            # reported with its way out, not raised
    err = capsys.readouterr().err
    assert "exists with other content" in err and "--force" in err
    assert (tmp_path / "slice.att").read_text() == "mine\n"
    written, kept = write_examples(tmp_path, force=True)
    assert "slice.att" in written and (tmp_path / "slice.att").read_bytes() == dict(example_files())["slice.att"]
