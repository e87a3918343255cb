"""Taas: reinforcement-learning environments for rummy- and Mariage-family card games.

``taas.make(env_id, **rules)`` builds an environment and ``taas.available_envs()`` lists the ids;
the subpackages are ``taas.envs`` (the games, each registered by its own spec), ``taas.agents``
(players), ``taas.arena`` (the game loop, records, evaluation), ``taas.training``,
``taas.benchmarks``, and what people run: ``taas.cli`` (the ``taas`` command), ``taas.play``,
``taas.web`` and ``taas.tournament``. In the repository ``envs/``, ``agents/``, ``training/`` and
``benchmarks/`` are top-level folders; installed, they live under this one package.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from taas import _moved
from taas.envs import available_envs, make

try:
    __version__ = version("taas-rl")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

_moved.install()

__all__ = ["__version__", "available_envs", "make"]
