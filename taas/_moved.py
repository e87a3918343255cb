"""The modules that moved in taas 0.2, importable from their old names (with a
``DeprecationWarning``) until taas 0.3; then this file goes.

An old name is a stand-in module whose attributes are the new module's (the same objects), so
``from taas.agents.replay import load`` keeps working while new code imports the new home.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings

MOVED = {
    **{f"taas.envs.core.{m}": f"taas.envs.rummy.{m}"
       for m in ("melds", "melds_kernel", "opening", "table", "determinize", "series")},
    "taas.envs.core.tricks": "taas.envs.mariage.tricks",
    **{f"taas.agents.{g}_heuristic": f"taas.agents.heuristic.{g}"
       for g in ("continental", "mariage", "marriage", "marriage_nepali", "romme")},
    "taas.agents.continental_greedy": "taas.agents.heuristic.continental_greedy",
    "taas.agents.continental_value": "taas.agents.learned.continental_value",
    "taas.agents.replay": "taas.arena.replay",
    "taas.agents.evaluate": "taas.arena.evaluate",
}
"""Old module -> new module (``taas.agents.search`` and ``taas.agents.learned`` became
packages of the same name; their ``__getattr__`` forwards the old attributes)."""


def warn_moved(old: str, new: str, stacklevel: int = 3) -> None:
    warnings.warn(f"{old} moved to {new}; the old name goes in taas 0.3", DeprecationWarning,
                  stacklevel=stacklevel)


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path=None, target=None):
        if MOVED.get(name) is None:
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        new = MOVED[spec.name]
        warn_moved(spec.name, new)
        target = importlib.import_module(new)
        stand_in = types.ModuleType(spec.name, f"Moved to {new}.")
        stand_in.__getattr__ = lambda attr: getattr(target, attr)
        stand_in.__all__ = getattr(target, "__all__", [n for n in vars(target) if n[0] != "_"])
        return stand_in

    def exec_module(self, module):
        pass


def install() -> None:
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())


def forward(package: str, module: str, attr: str):
    """A module's ``__getattr__`` for a name that moved to ``module``: warn (pointing at the
    caller's line), then hand over the very object; ``AttributeError`` for any other name."""
    target = importlib.import_module(module)
    if not hasattr(target, attr):
        raise AttributeError(f"module {package!r} has no attribute {attr!r}")
    warn_moved(f"{package}.{attr}", f"{module}.{attr}", stacklevel=4)
    return getattr(target, attr)
