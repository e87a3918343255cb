"""Taas: reinforcement-learning environments for rummy- and Mariage-family card games.

``taas.make(env_id, **rules)`` builds an environment and ``taas.available_envs()`` lists the ids;
the subpackages are ``taas.envs`` (engines and PettingZoo envs), ``taas.agents`` (agents, the
play loop, game records), ``taas.training`` and ``taas.benchmarks``; ``taas.cli`` is the
``taas`` command. In the repository these are the
top-level folders ``envs/``, ``agents/``, ``training/`` and ``benchmarks/``; installed, they live
under this one package.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from taas.envs import available_envs, make

try:
    __version__ = version("taas-rl")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__", "available_envs", "make"]
