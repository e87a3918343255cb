"""Taas environments (``taas.envs``): ``make(env_id, **rules)``, ``available_envs()`` and the
registry of games.

Every game declares itself in a :class:`~taas.envs.core.spec.GameSpec` (its package's
``SPEC``); this module finds the specs (see :mod:`taas.envs.core.spec` for where it looks)
and keeps no list of games of its own. An env id ``<name>_vN`` is looked up in the package
``taas.envs.<name>`` first, so building one env reads one game's spec and imports no other
game; listing every env reads every spec, which imports only the games' small ``__init__``.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points
from types import ModuleType

from taas.envs.core.spec import GameSpec, load

__all__ = [
    "GameSpec", "available_envs", "env_module", "games", "load", "make", "register", "spec_for",
    "unregister",
]

_FOUND: dict[str, GameSpec] = {}  # game name -> spec, in the order found
_SCANNED = False
_NOT_GAMES = {"core", "rummy"}  # the shared toolkits beside the games


def register(spec: GameSpec) -> GameSpec:
    """Add a game kept outside ``taas.envs``; the registered spec (an equal spec again is a
    no-op).
    ``ValueError`` if another game already holds its name or one of its env ids."""
    if not isinstance(spec, GameSpec):
        raise TypeError(f"register() takes a GameSpec, not {type(spec).__name__}")
    known = _FOUND.get(spec.name)
    if known is not None:
        if known == spec:
            return known
        raise ValueError(f"a game named {spec.name!r} is already registered")
    for other in _FOUND.values():
        taken = (set(spec.envs) | set(spec.retired)) & (set(other.envs) | set(other.retired))
        if taken:
            raise ValueError(f"{spec.name}: env ids {sorted(taken)} belong to {other.name}")
    _FOUND[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove the game ``name`` added by :func:`register` (a test's game, say); built-in games
    and plugins are found again by the next lookup."""
    global _SCANNED
    _FOUND.pop(name, None)
    _SCANNED = False


def _package_spec(name: str) -> GameSpec | None:
    """The spec of the built-in package ``taas.envs.<name>``, None if there is no such game."""
    if name in _NOT_GAMES or not name.isidentifier():
        return None
    try:
        package = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as err:
        if err.name == f"{__name__}.{name}":
            return None
        raise
    spec = getattr(package, "SPEC", None)
    if spec is not None:
        register(spec)
    return spec


def _scan() -> None:
    """Read every game's spec once: the built-in packages, then installed plugins."""
    global _SCANNED
    if _SCANNED:
        return
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            _package_spec(info.name)
    for point in entry_points(group="taas.games"):
        register(point.load())
    _SCANNED = True


def games() -> list[GameSpec]:
    """Every game's spec, sorted by name."""
    _scan()
    return sorted(_FOUND.values(), key=lambda s: s.name)


def _find(env_id: str) -> GameSpec | None:
    for spec in _FOUND.values():
        if env_id in spec.envs or env_id in spec.retired:
            return spec
    return None


def spec_for(env_id: str) -> GameSpec:
    """The spec of the game that defines ``env_id``; ``ValueError`` for a retired id (naming
    its successor) or an unknown one (listing the known ids)."""
    if not isinstance(env_id, str):
        raise ValueError(f"env id {env_id!r}: expected a string such as {available_envs()[0]!r}")
    spec = _find(env_id)
    if spec is None:
        _package_spec(env_id.rpartition("_v")[0])  # the fast path: <name>_vN in taas.envs.<name>
        spec = _find(env_id)
    if spec is None:
        _scan()
        spec = _find(env_id)
    if spec is None:
        raise ValueError(f"unknown env {env_id!r}; available: {', '.join(available_envs())}")
    if env_id in spec.retired:
        raise ValueError(
            f"{env_id} is retired: use {spec.retired[env_id]} (its docstring's Version History "
            "lists what changed)"
        )
    return spec


def env_module(env_id: str) -> ModuleType:
    """The module that defines ``env_id``; ``ValueError`` listing the known ids otherwise."""
    return spec_for(env_id).env_module(env_id)


def available_envs() -> list[str]:
    """Ids of all registered environments."""
    return sorted(env_id for spec in games() for env_id in spec.envs)


def make(env_id: str, *, wrapped: bool = True, render_mode: str | None = None, **rules):
    """Build an environment; ``rules`` are fields of the game's ``Config`` (unknown or invalid
    ones raise ``ValueError``). ``wrapped=False`` gives the raw env, which raises on illegal
    actions instead of ending the episode."""
    module = env_module(env_id)
    factory = module.env if wrapped else module.raw_env
    return factory(render_mode=render_mode, **rules)

