"""
Every Jupyter kernel that an install registers in a virtual environment starts and answers
kernel_info, or the install page names it as a kernel not to use (the modular passagemath
distributions register a "passagemath" kernel, ``sagemath``, that needs the whole of Sage).

Usage: VENV/bin/python tests/kernels_check.py VENV doc/install.rst   (VENV has jupyter_client and
ipykernel)
"""
import os
import subprocess
import sys

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager


def main(venv, install_page):
    page = open(install_page, encoding="utf-8").read()
    # as in a session of the activated environment: `python` is the environment's
    os.environ["PATH"] = os.path.join(venv, "bin") + os.pathsep + os.environ.get("PATH", "")
    ksm = KernelSpecManager(kernel_dirs=[os.path.join(venv, "share", "jupyter", "kernels")])
    ksm.ensure_native_kernel = False
    bad, working = [], []
    for name, spec in sorted(ksm.get_all_specs().items()):
        display = spec["spec"]["display_name"]
        try:
            km = KernelManager(kernel_name=name, kernel_spec_manager=ksm)
            km.start_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            kc = km.client()
            kc.start_channels()
            try:
                kc.wait_for_ready(timeout=60)
                reply = kc.kernel_info(reply=True, timeout=60)
                assert reply["content"]["status"] == "ok"
                print(f"   kernel {name} ({display}): answers kernel_info")
                working.append(name)
            finally:
                kc.stop_channels()
                km.shutdown_kernel(now=True)
        except Exception as e:
            named = f"``{name}``" in page
            print(f"   kernel {name} ({display}): does not start ({type(e).__name__}); "
                  + (f"named in {os.path.basename(install_page)} as not to use" if named
                     else "NOT NAMED in the install page"))
            if not named:
                bad.append(name)
    if bad:
        raise SystemExit(f"FAIL: kernels {bad} do not start and the install page does not name them")
    if "python3" not in working:
        raise SystemExit("FAIL: the Python 3 kernel, the one the docs recommend, does not start")


if __name__ == "__main__":
    main(*sys.argv[1:])
