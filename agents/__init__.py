"""Players and their spec strings (``taas.agents``).

``make("random", env_id="continental_v1", seed=1)`` builds an agent; a spec is ``name`` or
``name:arg`` (``ismcts:200``, ``ppo:path.pt``). Every game gets ``random``, ``ismcts`` and
``oracle`` when its spec names a determinizer, and ``ppo`` (a shipped model where one ships,
any checkpoint by path); the game's own specs (``heuristic``, ``greedy``, ...) come from its
:class:`~taas.envs.core.spec.GameSpec`, and so do the aliases ``learned`` (its shipped learned
player) and ``best`` (its strongest within 0.2 s a move), which stand for one of those specs
(``resolve``). ``offered(env_id)`` lists them with a description.
Builders are imported on first use. The families live in ``agents/heuristic/``,
``agents/search/`` and ``agents/learned/``; the game loop is :func:`taas.arena.play_game`.
"""

from __future__ import annotations

from taas.agents.base import Agent, RandomAgent
from taas.envs.core.spec import ALIASES, AgentEntry, load

__all__ = ["ALIASES", "Agent", "AgentEntry", "RandomAgent", "available", "make", "offered",
           "register", "resolve"]

_RANDOM = AgentEntry("taas.agents.base:RandomAgent", "uniform over the legal actions")
_SEARCH = {
    "ismcts": AgentEntry(
        "taas.agents.search.ismcts:SearchAgent",
        "determinized search over the engine: ismcts:N simulations or ismcts:0.2s a move"),
    "oracle": AgentEntry(
        "taas.agents.search.ismcts:OracleAgent",
        "the same search shown every hidden card (cheats, to measure what hiding is worth)"),
}
_REGISTERED: dict[str, AgentEntry] = {}  # agents added at run time, offered for every env
_PPO = AgentEntry("taas.agents.learned.ppo:PPOAgent", "a learned player: ppo:<model> or ppo:PATH")
_ALIAS_ABOUT = {
    "learned": "the game's shipped learned player",
    "best": "the strongest player it ships that decides within 0.2 s a move",
}


def offered(env_id: str) -> dict[str, AgentEntry]:
    """The agent specs ``env_id`` offers, by name: ``ppo`` only where a model ships (a
    checkpoint path, ``ppo:PATH``, plays any env all the same)."""
    import taas.envs

    spec = taas.envs.spec_for(env_id)
    entries = {"random": _RANDOM, **_REGISTERED, **spec.agents}
    if spec.determinizer is not None:
        entries.update(_SEARCH)
    if spec.model is not None:
        entries["ppo"] = AgentEntry(_PPO.target, f"the shipped learned player: ppo:{spec.model}")
    for alias in ALIASES:
        target = getattr(spec, alias)
        if target is not None:
            entry = entries[target.partition(":")[0]]
            entries[alias] = AgentEntry(entry.target, f"= {target}: {_ALIAS_ABOUT[alias]}")
    return dict(sorted(entries.items()))


def resolve(spec: str, env_id: str) -> str:
    """The agent spec ``spec`` stands for at ``env_id``: an alias (``learned``, ``best``) is
    replaced by what the game's spec declares; any other spec is returned as it is."""
    import taas.envs

    name, colon, _ = spec.partition(":")
    if name not in ALIASES:
        return spec
    if colon:
        raise ValueError(f"agent spec {spec!r}: the alias {name!r} takes no argument")
    target = getattr(taas.envs.spec_for(env_id), name)
    if target is None:
        what = "learned player ships" if name == "learned" else "best player is declared"
        raise ValueError(f"no {what} for {env_id}")
    return target


def register(name: str, entry: AgentEntry | None) -> None:
    """Offer an agent of your own for every env as spec ``name`` (its class's ``build`` makes
    it, as for the built-in ones), e.g. to enter it in a tournament; ``None`` removes it. A
    game's own agent of the same name takes precedence for that game."""
    if entry is None:
        _REGISTERED.pop(name, None)
    elif not isinstance(entry, AgentEntry) or not name.isidentifier():
        raise ValueError(f"register({name!r}, ...): expected an identifier and an AgentEntry")
    elif name in ALIASES:
        raise ValueError(f"register({name!r}, ...): {name!r} is an alias every game answers")
    else:
        _REGISTERED[name] = entry


def available(env_id: str) -> list[str]:
    """Spec names that can play ``env_id``."""
    return list(offered(env_id))


def make(spec: str, env_id: str, seed: int | None = None, config: dict | None = None) -> Agent:
    """Build the agent named by ``spec`` for ``env_id`` (with the env's rule ``config``)."""
    name, _, arg = resolve(spec, env_id).partition(":")
    entries = offered(env_id)
    entry = entries.get(name) or (_PPO if name == "ppo" and arg else None)
    if entry is None:
        raise ValueError(
            f"unknown agent spec {spec!r} for {env_id}; known: {', '.join(entries)}"
        )
    try:
        cls = load(entry.target)
    except ModuleNotFoundError as err:  # an optional extra (torch for ppo) not installed
        raise ValueError(f"agent {spec!r}: {err}") from None
    return cls.build(arg or None, env_id=env_id, seed=seed, config=config or {})


def __getattr__(name: str):
    """``play_game``, ``GameResult`` and ``single_agent_env`` moved to :mod:`taas.arena`
    (importable here, with a warning, until taas 0.3)."""
    if name not in ("play_game", "GameResult", "single_agent_env"):
        raise AttributeError(f"module 'taas.agents' has no attribute {name!r}")
    from taas._moved import forward

    return forward(__name__, "taas.arena", name)
