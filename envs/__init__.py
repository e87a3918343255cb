"""Taas environments: ``make(env_id, **rules)`` and ``available_envs()``.

Each id maps to a module ``envs.<game>.env`` with ``env(**kwargs)`` (PettingZoo-wrapped),
``raw_env(**kwargs)`` and the game's ``Config``. Modules are imported on first use so that
importing one game never pays for another.
"""

from __future__ import annotations

import importlib
from types import ModuleType

_MODULES = {
    "continental_v1": "taas.envs.continental.env",
    "mariage_v1": "taas.envs.mariage.env",
    "marriage_v1": "taas.envs.marriage.env",
    "marriage_nepali_v0": "taas.envs.marriage_nepali.env",
    "romme_v1": "taas.envs.romme.env",
}
# Ids whose rules, observation or actions changed; each game's Version History says what.
_RETIRED = {
    "continental_v0": "continental_v1",
    "mariage_v0": "mariage_v1",
    "marriage_v0": "marriage_v1",
    "romme_v0": "romme_v1",
}


def env_module(env_id: str) -> ModuleType:
    """The module that defines ``env_id``; ``ValueError`` listing the known ids otherwise."""
    if env_id in _RETIRED:
        raise ValueError(
            f"{env_id} is retired: use {_RETIRED[env_id]} (its docstring's Version History "
            "lists what changed)"
        )
    if env_id not in _MODULES:
        raise ValueError(f"unknown env {env_id!r}; available: {', '.join(available_envs())}")
    return importlib.import_module(_MODULES[env_id])


def available_envs() -> list[str]:
    """Ids of all registered environments."""
    return sorted(_MODULES)


def make(env_id: str, *, wrapped: bool = True, render_mode: str | None = None, **rules):
    """Build an environment; ``rules`` are fields of the game's ``Config`` (unknown or invalid
    ones raise ``ValueError``). ``wrapped=False`` gives the raw env, which raises on illegal
    actions instead of ending the episode."""
    module = env_module(env_id)
    factory = module.env if wrapped else module.raw_env
    return factory(render_mode=render_mode, **rules)
