"""Every notebook runs top to bottom (its own asserts included) and is stored with its outputs;
the documentation's relative links resolve and point nowhere outside the repository."""

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
DOCS = [ROOT / "README.md", ROOT / "training" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path):
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    errors = [
        o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"
    ]
    assert not errors


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_with_its_outputs(path):
    code = [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]
    assert code and all(c.outputs for c in code), "execute the notebook and save its outputs"


def test_there_is_a_quickstart_notebook():
    assert any(p.name == "01_quickstart.ipynb" for p in NOTEBOOKS)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_doc_links_resolve_inside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    assert "shared/" not in text and "notes/" not in text, "a reference outside the repository"
    for target in LINK.findall(text):
        if "://" in target:
            continue
        assert (path.parent / target).resolve().is_relative_to(ROOT), target
        assert (path.parent / target).exists(), f"{path.name} links to missing {target}"
