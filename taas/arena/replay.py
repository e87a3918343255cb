"""Game records: write a played game as JSON, show its moves, and replay it exactly.

A record holds what reproduces the game — env id, rule config, the episode seed and every
move (seat, action id) — plus what explains it: the action names, the agents' specs and seeds,
each seat's return and the final info. Replaying re-deals from the seed, applies the recorded
moves one by one (each checked against the engine: same mover, legal action, same name) and
then requires the same returns and final info, so a record doubles as a bug report and as a
regression test of the engine that made it.

An env id names a version of the rules (``continental_v1``); a record is only replayed by the
same id, since a new version may deal, score or number actions differently.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

import taas
import taas.envs
from taas.agents.base import Agent
from taas.arena.loop import GameResult, play_game

FORMAT = "taas-replay"
FORMAT_VERSION = 1
_FIELDS = ("env_id", "config", "seed", "agents", "moves", "returns", "truncated", "final_info")


class ReplayError(ValueError):
    """A record that cannot be replayed here, or whose replay differs from the recording."""


def record_paths(path: str | Path, count: int) -> list[Path]:
    """Where ``count`` games recorded under ``path`` go: ``path`` itself for one game,
    ``stem-001.json``, ``stem-002.json``, ... beside it for several (in play order)."""
    path = Path(path)
    if count == 1:
        return [path]
    return [path.with_name(f"{path.stem}-{i:03d}{path.suffix}") for i in range(1, count + 1)]


def _jsonable(value):
    """``value`` as JSON will read it back (NumPy scalars and arrays, tuples, integer keys)."""

    def default(o):
        if isinstance(o, np.generic):
            return o.item()
        if isinstance(o, np.ndarray):
            return o.tolist()
        raise TypeError(f"{type(o).__name__} is not JSON serialisable")

    return json.loads(json.dumps(value, default=default))


def make_record(
    env, result: GameResult, seed: int, specs: list[str], agent_seeds: list[int | None]
) -> dict:
    """The JSON-ready record of a game ``play_game(env, ..., seed=seed)`` returned as
    ``result``, its seats played by the agents built from ``specs`` and ``agent_seeds``."""
    if seed is None:
        raise ValueError("only a seeded game can be recorded: the seed is what re-deals it")
    game = env.unwrapped.game
    seats = env.possible_agents
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "env_id": game.env_id,
        "taas_version": taas.__version__,
        "config": _jsonable(dataclasses.asdict(game.config)),
        "seed": seed,
        "agents": [
            {"seat": s, "spec": spec, "seed": aseed}
            for s, spec, aseed in zip(seats, specs, agent_seeds, strict=True)
        ],
        "moves": [
            {"actor": seats[p], "action": a, "name": game.action_to_str(a)}
            for p, a in result.moves
        ],
        "returns": result.returns,
        "truncated": result.truncated,
        "final_info": _jsonable(result.infos.get(seats[0], {})),
    }


def save(record: dict, path: str | Path) -> None:
    """Write ``record`` to ``path`` (its folder is created if missing), one move a line."""
    fields = []
    for key, value in record.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            value = "[\n  " + ",\n  ".join(json.dumps(v) for v in value) + "\n ]"
        else:
            value = json.dumps(value)
        fields.append(f" {json.dumps(key)}: {value}")
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{\n" + ",\n".join(fields) + "\n}\n")
    except OSError as err:
        raise ValueError(f"cannot write the replay file {path}: {err}") from err


def load(path: str | Path) -> dict:
    """Read a record; ``ReplayError`` if it is not one or its env version is not here."""
    try:
        record = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise ReplayError(f"{path}: not a readable replay file ({err})") from err
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ReplayError(f"{path}: not a taas replay file")
    if record.get("format_version") != FORMAT_VERSION:
        raise ReplayError(
            f"{path}: replay format version {record.get('format_version')!r}; "
            f"this taas reads version {FORMAT_VERSION}"
        )
    missing = [k for k in _FIELDS if k not in record]
    moves = record.get("moves")
    if missing or not isinstance(moves, list) or not all(
        isinstance(m, dict) and {"actor", "action", "name"} <= set(m) for m in moves
    ):
        raise ReplayError(
            f"{path}: a damaged replay file "
            f"({'missing ' + ', '.join(missing) if missing else 'moves need actor, action, name'})"
        )
    env_id = record["env_id"]
    if env_id not in taas.envs.available_envs():
        game = env_id.rpartition("_v")[0]
        here = [e for e in taas.envs.available_envs() if e.rpartition("_v")[0] == game]
        if not here:
            raise ReplayError(f"{path}: recorded on env {env_id!r}, which this taas does not have")
        raise ReplayError(
            f"{path}: recorded on {env_id} (taas {record.get('taas_version')}), but this taas "
            f"({taas.__version__}) has {', '.join(here)}; the rules, rewards or action layout "
            "differ between versions (see the env's Version History), so replay it with the "
            "taas that recorded it"
        )
    return record


class _Recorded(Agent):
    """Plays one seat's recorded moves, checking each against the engine."""

    def __init__(self, seat: int, record: dict, cursor: list[int], game):
        super().__init__(None)
        self.seat, self.name_of = f"player_{seat}", game.action_to_str
        self.moves, self.cursor = record["moves"], cursor

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        i = self.cursor[0]
        if i >= len(self.moves):
            raise ReplayError(f"the record ends after {i} moves, but the game goes on")
        move = self.moves[i]
        action = move["action"]
        where = f"move {i + 1}: {move['actor']} {move['name']!r}"
        if move["actor"] != self.seat:
            raise ReplayError(f"{where}, but it is {self.seat}'s turn here")
        if not (0 <= action < len(action_mask)) or not action_mask[action]:
            raise ReplayError(f"{where} (action {action}) is not legal here")
        if self.name_of(action) != move["name"]:
            raise ReplayError(f"{where}: action {action} is {self.name_of(action)!r} here")
        self.cursor[0] = i + 1
        return action


def replay(
    record: dict, render: bool = True, show: Callable[[str], None] = print
) -> GameResult:
    """Re-play ``record`` move by move (shown through ``show`` with ``render``) and check that
    it ends as recorded: same number of moves, returns and final info; ``ReplayError`` if not."""
    env = taas.envs.make(record["env_id"], **record["config"])
    seats = len(env.possible_agents)
    cursor = [0]
    agents = [_Recorded(p, record, cursor, env.unwrapped.game) for p in range(seats)]
    result = play_game(env, agents, seed=record["seed"], render=render, show=show)
    if cursor[0] != len(record["moves"]):
        raise ReplayError(
            f"the game ended after {cursor[0]} moves, but the record has {len(record['moves'])}"
        )
    if result.returns != record["returns"]:
        raise ReplayError(f"the replay scored {result.returns}, the record {record['returns']}")
    info = _jsonable(result.infos.get(env.possible_agents[0], {}))
    if info != record["final_info"]:
        keys = sorted(k for k in info.keys() | record["final_info"].keys()
                      if info.get(k) != record["final_info"].get(k))
        raise ReplayError(f"the replay ends with another final info ({', '.join(keys)} differ)")
    return result
