"""The search agents for the rummies: :mod:`taas.agents.search` with the exploration constant
their determinize modules choose (``EXPLORATION``).

The generic search explores with c = 0.7 on values scaled to the spread seen so far. A rummy
round's values spread over whole hands of penalty points (100 and more) while one discard
moves a seat's estimate by a few, so at 0.7 the visits, and the move chosen from them, hardly
follow the estimates. Once :class:`~taas.agents.search.SearchAgent` reads ``EXPLORATION`` from
the game module itself, these two classes go.
"""

from __future__ import annotations

from taas.agents.base import Agent
from taas.agents.search import SearchAgent, game_module


class RummySearchAgent(SearchAgent):
    """``ismcts:N`` for Continental, Rommé and Marriage (see the module docstring)."""

    @classmethod
    def build(cls, arg: str | None, env_id: str, seed: int | None, config: dict) -> Agent:
        agent = super().build(arg, env_id, seed, config)
        module = game_module(env_id, "determinize")
        agent.search.exploration = getattr(module, "EXPLORATION", agent.search.exploration)
        return agent


class RummyOracleAgent(RummySearchAgent):
    """``oracle:N``: the same search handed the true state (it cheats, by design)."""

    name = "oracle"
    cheats = True
