"""What a game declares about itself (``taas.envs.core.spec``): one :class:`GameSpec` per game.

A game's package (``envs/<game>/__init__.py``) holds its ``SPEC``; everything above the games
(``taas.make``, the agent registry, the search, the CLI, the terminal and web tables,
tournaments, training) reads the spec instead of keeping a list of games or branching on a
game's name, so adding a game is adding one folder. The spec names its parts by import path
(``"module:attr"`` or a module) rather than importing them, so reading every game's spec (to
list the envs) stays cheap and importing one game never imports another.

Where the games are found (:mod:`taas.envs` does the looking):

* the packages under ``taas.envs`` that define ``SPEC`` (the built-in games);
* games registered at run time with :func:`taas.envs.register` (a game kept elsewhere, such
  as the toy game of the test suite);
* installed plugins: an entry point in the group ``taas.games`` whose value is
  ``"package:SPEC"``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any


def load(ref: str) -> Any:
    """The object an import path names: ``"pkg.module:attr"``, or a module for ``"pkg.module"``."""
    module, _, attr = ref.partition(":")
    obj = importlib.import_module(module)
    return getattr(obj, attr) if attr else obj


ALIASES = ("learned", "best")  # agent specs every game answers, each standing for one of its own


@dataclass(frozen=True)
class AgentEntry:
    """An agent spec a game offers: the class (``"module:Class"``, built by its ``build``) and a
    one-line description for ``taas agents ENV`` and the tables' agent lists."""

    target: str
    about: str


@dataclass(frozen=True)
class GameSpec:
    """Everything the layers above a game need to know about it.

    ``envs`` maps each env id (``<name>_vN``) to the module that defines it (``env()``,
    ``raw_env()``, ``Config``, its docstring the env's doc page); ``retired`` maps an id that
    is no longer built to the id that replaced it. ``config``, ``game`` and ``observer`` name
    the engine's classes. ``determinizer`` names the module whose ``determinize`` deals what a
    seat cannot see (and that may tune the search: ``WIDTH``, ``rollout``, ``evaluate``, ...);
    without one the search agents do not play the game. ``agents`` are the game's own agent
    specs (``heuristic``, ``greedy``, ...), beside the ones every game gets (``random``,
    ``ismcts``/``oracle`` with a determinizer, ``ppo``). ``default_opponent`` is the strongest
    cheap baseline (what training plays against by default), ``eval_opponent`` what a trained
    model is measured against (default: the same). ``model`` is the
    name of the shipped learned model (``ppo:<model>``), ``afterstate`` the class that plays an
    afterstate-value checkpoint of this game. ``learned`` and ``best`` are the agent specs the
    aliases of those names stand for: the shipped learned player (None where none ships) and the
    strongest player the game ships that decides within 0.2 s a move, search included, so a
    table or a tournament can ask for "the best" without knowing what it is today. ``cli``
    names the module with the game's scorekeeping commands (see :mod:`taas.cli.score`),
    ``view`` the class that says what the human table shows
    (:class:`taas.envs.core.view.TableView`).
    """

    name: str
    title: str
    players: str
    envs: Mapping[str, str]
    config: str
    game: str
    observer: str
    retired: Mapping[str, str] = field(default_factory=dict)
    determinizer: str | None = None
    agents: Mapping[str, AgentEntry] = field(default_factory=dict)
    default_opponent: str = "random"
    eval_opponent: str | None = None
    model: str | None = None
    learned: str | None = None
    best: str | None = None
    afterstate: str | None = None
    cli: str | None = None
    view: str = "taas.envs.core.view:TableView"

    def __post_init__(self):
        for attr in ("envs", "retired", "agents"):  # frozen all the way down
            object.__setattr__(self, attr, MappingProxyType(dict(getattr(self, attr))))
        if not self.envs:
            raise ValueError(f"game {self.name!r} declares no env ids")
        clash = set(self.envs) & set(self.retired)
        if clash:
            raise ValueError(f"game {self.name!r}: {sorted(clash)} both current and retired")
        for role in ("default_opponent", "eval_opponent"):
            name = getattr(self, role)
            known = {"random", "ismcts", *self.agents}
            if name is not None and name.partition(":")[0] not in known:
                raise ValueError(
                    f"game {self.name!r}: {role} {name!r} is not one of its agents "
                    f"({', '.join(sorted(known))})"
                )
        reserved = sorted(set(self.agents) & set(ALIASES))
        if reserved:
            raise ValueError(f"game {self.name!r}: agent names {reserved} are reserved aliases")
        playable = {"random", *self.agents}
        playable |= {"ismcts", "oracle"} if self.determinizer is not None else set()
        playable |= {"ppo"} if self.model is not None else set()
        for alias in ALIASES:
            name = getattr(self, alias)
            if name is not None and name.partition(":")[0] not in playable:
                raise ValueError(
                    f"game {self.name!r}: {alias} {name!r} is not one of its agents "
                    f"({', '.join(sorted(playable))})"
                )

    def evaluation_opponent(self) -> str:
        """The agent spec a trained model of this game is evaluated against."""
        return self.eval_opponent or self.default_opponent

    def env_module(self, env_id: str) -> ModuleType:
        """The module defining ``env_id`` (one of :attr:`envs`)."""
        return importlib.import_module(self.envs[env_id])

    def determinize_module(self) -> ModuleType | None:
        return None if self.determinizer is None else load(self.determinizer)

    def table_view(self):
        """A fresh instance of the human table's view of this game."""
        return load(self.view)()
