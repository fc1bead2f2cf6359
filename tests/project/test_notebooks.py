"""Every notebook in notebooks/ runs top to bottom without an error (nbclient), and matches the
cells of notebooks/build.py (the notebooks are generated, not hand-edited)."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.support.paths import ROOT

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

NOTEBOOKS = ROOT / "notebooks"
NAMES = ["wagons", "cactus", "outlaws"]


def _build_module():
    spec = importlib.util.spec_from_file_location("notebooks_build", NOTEBOOKS / "build.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def kernel_name() -> str:
    """The venv's own python3 kernel; install its spec into the venv if it is missing."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        import subprocess

        subprocess.run([sys.executable, "-m", "ipykernel", "install", "--sys-prefix"], check=True,
                       capture_output=True)
    return "python3"


@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_generated_by_build_script(name):
    built = _build_module().build(_build_module().NOTEBOOKS[name])
    saved = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    assert [c.source for c in saved.cells] == [c.source for c in built.cells], \
        f"notebooks/{name}.ipynb is stale: run `python notebooks/build.py`"


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs(name, kernel_name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    client = nbclient.NotebookClient(nb, timeout=180, kernel_name=kernel_name,
                                     resources={"metadata": {"path": str(ROOT)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    # at least one Altair chart was rendered
    assert any(any("vegalite" in k for k in o.get("data", {})) or "vega" in str(o.get("data", {}).get("text/html", ""))
               for o in outputs)
