"""The one game loop (``taas.arena.loop``) that tests, benchmarks, tournaments, the CLI and
the tables share: seat agents at a PettingZoo AEC env and play one episode."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from taas.agents.base import Agent


@dataclass
class GameResult:
    """What one episode produced: each seat's total reward, the steps taken, the final infos
    and every move as ``(seat, action)``, so that (seed, moves) replays it."""

    returns: list[float]
    steps: int
    truncated: bool
    infos: dict[str, dict] = field(default_factory=dict)
    moves: list[tuple[int, int]] = field(default_factory=list)



def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def play_game(
    env,
    agents: list[Agent],
    seed: int | None = None,
    render: bool = False,
    show: Callable[[str], None] = print,
) -> GameResult:
    """Play one episode of a PettingZoo AEC ``env`` with ``agents[i]`` in seat ``player_i``.

    With ``render`` every move is passed to ``show`` as it happens (who moved, the action's
    name, what became public: see :class:`taas.arena.moves.MoveRenderer`), then the table.
    """
    env.reset(seed=seed)
    seats = {a: i for i, a in enumerate(env.possible_agents)}
    if len(agents) != len(seats):
        raise ValueError(
            f"{_count(len(agents), 'agent')} for {_count(len(seats), 'seat')}: "
            "give one agent per seat"
        )
    if render:
        from taas.arena.moves import MoveRenderer

        renderer = MoveRenderer(env.unwrapped)
    returns = [0.0] * len(seats)
    moves: list[tuple[int, int]] = []
    truncated = False
    infos: dict[str, dict] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, trunc, info = env.last()
        returns[seats[agent]] += reward
        if terminated or trunc:
            truncated |= trunc
            infos[agent] = info
            env.step(None)
            continue
        player = agents[seats[agent]]
        if player.uses_state:  # search agents read the engine through their determinizer
            action = player.act_state(env.unwrapped.game, env.unwrapped.state, seats[agent])
        else:
            action = player.act(obs["observation"], obs["action_mask"])
        env.step(action)
        moves.append((seats[agent], int(action)))
        if render:
            show(renderer.move(seats[agent], int(action), env.rewards))
    if render:
        show(env.unwrapped.game.render(env.unwrapped.state))
    return GameResult(returns, len(moves), truncated, infos, moves)
