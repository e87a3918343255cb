"""How fast does each agent decide? Decisions per second of every agent of every game, and
simulations per second for the search agents.

Each agent plays seeded games in every seat against itself; only the time inside its own
decisions counts (the engine's steps between them do not).

    python -m taas.benchmarks.agents [--games 4] [--search-budget 100] [--out results/agents.json]
        [--envs continental_v1] [--agents ppo,heuristic]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time

from tqdm import tqdm

import taas.agents
import taas.arena
import taas.envs
from taas.agents.search.ismcts import SearchAgent


class _Timed:
    """Wraps an agent and adds up the time spent in its decisions."""

    def __init__(self, agent):
        self.agent = agent
        self.uses_state = agent.uses_state
        self.seconds = 0.0
        self.decisions = 0
        self.simulations = 0

    def _timed(self, call, *args) -> int:
        t = time.perf_counter()
        action = call(*args)
        self.seconds += time.perf_counter() - t
        self.decisions += 1
        if isinstance(self.agent, SearchAgent):
            self.simulations += self.agent.search.simulations
        return action

    def act(self, observation, action_mask) -> int:
        return self._timed(self.agent.act, observation, action_mask)

    def act_state(self, game, state, player) -> int:
        return self._timed(self.agent.act_state, game, state, player)


def measure(env_id: str, spec: str, games: int, rules: dict) -> dict:
    """Decisions (and simulations) per second of ``spec`` playing every seat of ``games``."""
    env = taas.envs.make(env_id, wrapped=False, **rules)
    n = len(env.possible_agents)
    seats = [_Timed(taas.agents.make(spec, env_id, seed=i, config=rules)) for i in range(n)]
    for g in range(games):
        taas.arena.play_game(env, seats, seed=g)
    seconds = sum(s.seconds for s in seats)
    decisions = sum(s.decisions for s in seats)
    out = {"env_id": env_id, "agent": spec, "rules": rules, "decisions": decisions,
           "decisions_per_s": decisions / seconds}
    if isinstance(seats[0].agent, SearchAgent):
        sims = sum(s.simulations for s in seats)
        out["simulations_per_s"] = sims / seconds
    return out


def table_rules(env_id: str) -> dict:
    """4 players where the game allows a choice, else its defaults."""
    fields = {f.name for f in dataclasses.fields(taas.envs.env_module(env_id).Config)}
    return {"num_players": 4} if "num_players" in fields else {}


def spec_for(env_id: str, name: str, search_budget: str) -> str | None:
    """What to measure for the agent ``name``: search agents at ``search_budget``, ``ppo`` as
    the model shipped for the game (None: no model ships for it, so there is nothing to time;
    an alias, ``learned`` or ``best``, is timed as the spec it stands for)."""
    if name in taas.agents.ALIASES:
        return None
    if name in ("ismcts", "oracle"):
        return f"{name}:{search_budget}"
    if name == "ppo":
        model = taas.envs.spec_for(env_id).model
        return None if model is None else f"ppo:{model}"
    return name


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="seeded games per agent")
    parser.add_argument("--search-budget", default="100", help="simulations for search agents")
    parser.add_argument("--out", help="write the rows as JSON here")
    parser.add_argument("--envs", help="comma-separated env ids (default: all)")
    parser.add_argument("--agents", help="comma-separated agent names (default: all)")
    args = parser.parse_args(argv)
    envs = args.envs.split(",") if args.envs else taas.envs.available_envs()
    unknown = set(envs) - set(taas.envs.available_envs())
    if unknown:
        parser.error(f"unknown env ids: {', '.join(sorted(unknown))}")
    rows = []
    cases = [(e, spec) for e in envs for a in taas.agents.available(e)
             if (not args.agents or a in args.agents.split(","))
             and (spec := spec_for(e, a, args.search_budget))]
    for env_id, spec in tqdm(cases, unit="agent"):
        rows.append(measure(env_id, spec, args.games, table_rules(env_id)))
    print(f"{'env':16} {'agent':14} {'decisions/s':>12} {'simulations/s':>14}")
    for r in rows:
        sims = f"{r['simulations_per_s']:14,.0f}" if "simulations_per_s" in r else f"{'':>14}"
        print(f"{r['env_id']:16} {r['agent']:14} {r['decisions_per_s']:12,.1f} {sims}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f, indent=1)
    return rows


if __name__ == "__main__":
    main()
