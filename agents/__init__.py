"""Agents and their spec strings.

``make("random", env_id="continental_v1", seed=1)`` builds an agent; a spec is ``name`` or
``name:arg`` (``ismcts:200``, ``ppo:path.zip``). ``available(env_id)`` lists the specs that
fit an env. Builders are imported on first use.
"""

from __future__ import annotations

import importlib

from taas.agents.base import Agent, GameResult, RandomAgent, play_game

__all__ = [
    "Agent",
    "GameResult",
    "RandomAgent",
    "available",
    "make",
    "play_game",
    "single_agent_env",
]

# envs with a determinizer (taas.envs.<game>.determinize), which the search agents need
_SEARCHABLE = (
    "continental_v1", "mariage_v1", "marriage_nepali_v0", "marriage_v1", "romme_v1"
)

# spec name -> env id ("*" for any env) -> "module:AgentClass", built by AgentClass.build.
_BUILDERS: dict[str, dict[str, str]] = {
    "random": {"*": "taas.agents.base:RandomAgent"},
    "greedy": {"continental_v1": "taas.agents.continental_greedy:GreedyAgent"},
    "heuristic": {
        "continental_v1": "taas.agents.continental_heuristic:ContinentalHeuristicAgent",
        "mariage_v1": "taas.agents.mariage_heuristic:MariageHeuristicAgent",
        "marriage_v1": "taas.agents.marriage_heuristic:MarriageHeuristicAgent",
        "marriage_nepali_v0": "taas.agents.marriage_nepali_heuristic:NepaliHeuristicAgent",
        "romme_v1": "taas.agents.romme_heuristic:RommeHeuristicAgent",
    },
    "ismcts": {env: "taas.agents.search:SearchAgent" for env in _SEARCHABLE},
    "oracle": {env: "taas.agents.search:OracleAgent" for env in _SEARCHABLE},
    "ppo": {"*": "taas.agents.learned:PPOAgent"},
}


def available(env_id: str) -> list[str]:
    """Spec names that can play ``env_id``."""
    return sorted(n for n, per_env in _BUILDERS.items() if "*" in per_env or env_id in per_env)


def make(spec: str, env_id: str, seed: int | None = None, config: dict | None = None) -> Agent:
    """Build the agent named by ``spec`` for ``env_id`` (with the env's rule ``config``)."""
    name, _, arg = spec.partition(":")
    per_env = _BUILDERS.get(name, {})
    target = per_env.get(env_id) or per_env.get("*")
    if target is None:
        raise ValueError(
            f"unknown agent spec {spec!r} for {env_id}; known: {', '.join(available(env_id))}"
        )
    module, _, attr = target.partition(":")
    try:
        cls = getattr(importlib.import_module(module), attr)
    except ModuleNotFoundError as err:  # an optional extra (torch for ppo) not installed
        raise ValueError(f"agent {spec!r}: {err}") from None
    return cls.build(arg or None, env_id=env_id, seed=seed, config=config or {})


def single_agent_env(
    env_id: str,
    opponents: str | list = "random",
    seat: int | None = 0,
    seed: int | None = None,
    render_mode: str | None = None,
    illegal_action: str = "raise",
    illegal_reward: float = -1.0,
    max_redeals: int = 100,
    **rules,
):
    """A single-agent Gymnasium view of ``env_id`` for training (SB3 ``MaskablePPO``): the
    learner sits at ``seat`` (``None``: a random seat each episode) and ``opponents`` play the
    other seats inside ``step`` — one spec for all of them, a list of specs, or built agents.

    ``seed`` seeds the first ``reset()``; ``reset(seed=s)`` reseeds the deals and the opponents.
    ``illegal_action="penalize"`` ends the episode with ``illegal_reward`` instead of raising;
    ``max_redeals`` bounds the deals in a row that end before the learner moves (see
    :mod:`taas.envs.core.single_agent`). ``rules`` are the game's ``Config`` fields.
    """
    import taas.envs
    from taas.envs.core.single_agent import SingleAgentEnv

    raw = taas.envs.make(env_id, wrapped=False, **rules)
    n = raw.game.num_players
    if isinstance(opponents, str):
        opponents = [opponents] * (n - 1)
    built = [make(o, env_id, config=rules) if isinstance(o, str) else o for o in opponents]
    return SingleAgentEnv(
        raw.game,
        raw.observer,
        built,
        seat=seat,
        seed=seed,
        render_mode=render_mode,
        illegal_action=illegal_action,
        illegal_reward=illegal_reward,
        max_redeals=max_redeals,
    )
