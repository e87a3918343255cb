"""The single-agent training view (``taas.arena.single_agent``): one learner seat, the other
seats played by agents inside ``step``."""

from __future__ import annotations

import taas.agents
import taas.envs
from taas.envs.core.single_agent import SingleAgentEnv


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
    raw = taas.envs.make(env_id, wrapped=False, **rules)
    n = raw.game.num_players
    if isinstance(opponents, str):
        opponents = [opponents] * (n - 1)
    built = [taas.agents.make(o, env_id, config=rules) if isinstance(o, str) else o
             for o in opponents]
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
