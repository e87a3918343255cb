"""MkDocs hooks of the docs site (``mkdocs.yml`` names this file; it is not a page).

- The API pages: the repository's folders install under one namespace (``pyproject.toml``'s
  ``package-dir``: ``envs/`` is ``taas.envs``, ...), which griffe, reading the sources without
  importing them, cannot follow. ``on_config`` lays that namespace out as symlinks in a
  temporary folder and points mkdocstrings there, so the pages follow the packaging config.
- ``<!-- taas-help -->`` in a page becomes the ``--help`` of ``taas`` and of every subcommand,
  from the installed command's entry point, so the CLI reference cannot drift from the parser.
- The strength ladders: every page ``python -m taas.benchmarks.ladder`` wrote into
  ``docs/strength/`` joins the nav under its index page, and ``<!-- taas-ladders -->`` in that
  page becomes the list of them, so a new ladder needs no edit of ``mkdocs.yml``.
- ``RstRoles``, a griffe extension: the code's docstrings cite with Sphinx roles
  (``:func:`parse_card```), which Markdown would print literally; they become code spans.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import tempfile
from importlib.metadata import entry_points
from pathlib import Path

import griffe
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

if sys.version_info >= (3, 11):
    import tomllib
else:  # the docs extra installs tomli there
    import tomli as tomllib

HELP_MARKER = "<!-- taas-help -->"
LADDERS_MARKER = "<!-- taas-ladders -->"
LADDERS_INDEX = "strength/index.md"
# a subparsers group in an argparse usage line: "{envs,play,...} ..."
SUBCOMMANDS = re.compile(r"\{([\w,-]+)\} \.\.\.")
ROLE = re.compile(r":(?:py:)?(?:mod|func|class|meth|attr|data|obj|exc|const):`(~?)([^`]+)`")

_tree: tempfile.TemporaryDirectory | None = None


def _materialize(folder: Path) -> None:
    """Make ``folder`` a real directory holding links to what its symlink pointed at, so that
    a package mapped inside it can be linked in beside its siblings."""
    if folder.is_symlink():
        target = folder.resolve()
        folder.unlink()
        folder.mkdir()
        for child in target.iterdir():
            (folder / child.name).symlink_to(child)
    elif not folder.exists():
        folder.mkdir(parents=True)


def namespace_tree(root: Path, tree: Path) -> None:
    """Lay ``pyproject.toml``'s ``[tool.setuptools.package-dir]`` out under ``tree`` as the
    installed import tree: ``tree/taas/envs`` links to ``root/envs``, and so on."""
    setuptools = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]
    mapping = setuptools.get("package-dir", {})
    if not mapping:
        raise PluginError("pyproject.toml has no [tool.setuptools.package-dir] to document")
    for name in sorted(mapping, key=lambda n: n.count(".")):
        *parents, leaf = name.split(".")
        at = tree
        for part in parents:
            at = at / part
            _materialize(at)
        link = at / leaf
        if link.is_symlink():
            link.unlink()
        link.symlink_to((root / mapping[name]).resolve(), target_is_directory=True)


@event_priority(100)  # before mkdocstrings reads its handler's paths
def on_config(config):
    global _tree
    if _tree is None:
        _tree = tempfile.TemporaryDirectory(prefix="taas-docs-")
        namespace_tree(Path(config.config_file_path).parent, Path(_tree.name))
    python = config.plugins["mkdocstrings"].config.handlers.setdefault("python", {})
    python["paths"] = [_tree.name]
    _add_ladders(config["nav"], ladder_pages(Path(config["docs_dir"])))
    return config


def ladder_pages(docs: Path) -> list[str]:
    """The ladder pages under ``docs/strength/`` (docs-relative paths), sorted."""
    folder = docs / Path(LADDERS_INDEX).parent
    return sorted(f"{folder.name}/{p.name}" for p in folder.glob("*.md")
                  if p.name != Path(LADDERS_INDEX).name)


def _add_ladders(nav: list, pages: list[str]) -> bool:
    """Append ``pages`` to the nav section that holds the ladders' index page."""
    for item in nav:
        for section in item.values() if isinstance(item, dict) else ():
            if not isinstance(section, list):
                continue
            if LADDERS_INDEX in section:
                section.extend(p for p in pages if p not in section)
                return True
            if _add_ladders(section, pages):
                return True
    return False


def on_shutdown():
    global _tree
    if _tree is not None:
        _tree.cleanup()
        _tree = None


def _taas():
    """The ``taas`` command's entry point as installed (``[project.scripts]``), called in this
    process: a dozen ``--help`` runs cost milliseconds instead of a process start each."""
    found = entry_points(group="console_scripts", name="taas")
    if not found:
        raise PluginError("the CLI page needs the taas command: from a checkout, "
                          "pip install -e '.[docs]'")
    return next(iter(found)).load()


def _help(taas, words: list[str]) -> str:
    out, argv, columns = io.StringIO(), sys.argv, os.environ.get("COLUMNS")
    sys.argv, os.environ["COLUMNS"] = ["taas", *words, "--help"], "80"
    try:
        with contextlib.redirect_stdout(out):
            taas()
    except SystemExit as done:
        if done.code not in (0, None):
            raise PluginError(f"`taas {' '.join(words)} --help` failed ({done.code})") from None
    finally:
        sys.argv = argv
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    return out.getvalue().rstrip()


def cli_reference() -> str:
    """``taas --help``, then each subcommand's (depth first), each under its own heading."""
    taas = _taas()
    parts = []

    def visit(words: list[str]) -> None:
        text = _help(taas, words)
        if words:
            parts.append(f"{'#' * (len(words) + 1)} `taas {' '.join(words)}`\n")
        parts.append(f"```text\n{text}\n```\n")
        found = SUBCOMMANDS.search(text)
        for sub in found[1].split(",") if found else []:
            visit([*words, sub])

    visit([])
    return "\n".join(parts)


def on_page_markdown(markdown, page, config, files):
    if HELP_MARKER in markdown:
        markdown = markdown.replace(HELP_MARKER, cli_reference())
    if LADDERS_MARKER in markdown:
        pages = ladder_pages(Path(config["docs_dir"]))
        links = [f"- [`{Path(p).stem}`]({Path(p).name})" for p in pages]
        markdown = markdown.replace(LADDERS_MARKER, "\n".join(links) or
                                    "No ladder has been written yet: run the command above.")
    return markdown


def _code(match: re.Match) -> str:
    name = match[2]
    return f"`{name.rsplit('.', 1)[-1] if match[1] else name}`"


class RstRoles(griffe.Extension):
    """Sphinx cross-reference roles in docstrings as Markdown code spans (``~`` keeps the last
    name, as Sphinx does)."""

    def on_instance(self, *, obj, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = ROLE.sub(_code, obj.docstring.value)
