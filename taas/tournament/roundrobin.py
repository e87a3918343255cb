"""What a tournament is and which games it plays: a duplicate round robin.

Every table is a lineup of entrants (every combination of ``players`` distinct entrants, or,
with fewer entrants than seats, every multiset of ``players`` seats holding each entrant at least
once). Each table plays every deal once per cyclic rotation of its lineup, so over the
``players`` rotations every entrant sits in every seat of every deal exactly once (an entrant
that fills several seats of a table does so once per copy) and meets the same cards its rivals
got. The deal seed depends only on (tournament seed, deal); each agent's seed on (tournament
seed, deal, table, rotation, seat), so a game's result does not depend on which worker plays it
or when.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
from dataclasses import dataclass

import numpy as np

import taas.agents
import taas.envs

FORMATS = ("deal", "match")


@dataclass(frozen=True)
class Definition:
    """Everything that decides a tournament's games; stored beside them and hashed to its id."""

    env_id: str
    agents: tuple[str, ...]
    players: int
    deals: int
    seed: int
    format: str = "deal"
    rules: tuple[tuple[str, object], ...] = ()  # the env's rule flags, sorted by name
    move_timeout: float | None = None  # seconds of wall time an agent may take for one move

    @property
    def names(self) -> list[str]:
        """The entrants' names: their specs, a repeated spec numbered (``random``,
        ``random#2``), so an agent can play a copy of itself as a sanity check."""
        seen: dict[str, int] = {}
        names = []
        for spec in self.agents:
            seen[spec] = seen.get(spec, 0) + 1
            names.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
        return names

    @property
    def id(self) -> str:
        return hashlib.sha1(self.to_json().encode()).hexdigest()[:12]

    @property
    def env_rules(self) -> dict:
        """The rule flags the env is built with: the user's, the table size where the game has
        one, and ``episode="match"`` for ``format="match"``."""
        rules = dict(self.rules)
        fields = {f.name for f in dataclasses.fields(taas.envs.env_module(self.env_id).Config)}
        if "num_players" in fields:
            rules.setdefault("num_players", self.players)
        if self.format == "match":
            rules["episode"] = "match"
        return rules

    def to_json(self) -> str:
        data = dataclasses.asdict(self)
        if data["move_timeout"] is None:  # absent, so tournaments stored before it keep their id
            del data["move_timeout"]
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Definition:
        data = json.loads(text)
        return cls(**{**data, "agents": tuple(data["agents"]),
                      "rules": tuple(tuple(r) for r in data["rules"])})


def define(
    env_id: str,
    agents: list[str],
    players: int | None = None,
    deals: int = 100,
    seed: int = 0,
    format: str = "deal",
    rules: dict | None = None,
    move_timeout: float | None = None,
) -> Definition:
    """A checked :class:`Definition`: ``players`` defaults to the env's table size; the env and
    every agent spec are built once here so a bad one fails before any game is played."""
    if env_id not in taas.envs.available_envs():
        raise ValueError(f"unknown env {env_id!r}; known: {', '.join(taas.envs.available_envs())}")
    if format not in FORMATS:
        raise ValueError(f"format {format!r}: expected one of {', '.join(FORMATS)}")
    if len(agents) < 2:
        raise ValueError(f"a tournament needs two agents or more (got {len(agents)})")
    if deals < 1:
        raise ValueError(f"deals={deals}: play one deal or more")
    if seed < 0:
        raise ValueError(f"seed={seed}: expected a non-negative integer")
    if move_timeout is not None and not move_timeout > 0:
        raise ValueError(f"move_timeout={move_timeout}: expected a positive number of seconds")
    if players is None:
        players = len(taas.envs.make(env_id, wrapped=False, **(rules or {})).possible_agents)
    if players < 2:
        raise ValueError(f"players={players}: a table seats two players or more")
    definition = Definition(env_id, tuple(agents), players, deals, seed, format,
                            tuple(sorted((rules or {}).items())), move_timeout)
    env_rules = definition.env_rules
    seats = len(taas.envs.make(env_id, wrapped=False, **env_rules).possible_agents)
    if seats != players:
        raise ValueError(f"{env_id} seats {seats} players, not {players}: use --players {seats}")
    for spec in agents:
        taas.agents.make(spec, env_id, seed=0, config=env_rules)
    return definition


@dataclass(frozen=True)
class Game:
    """One scheduled game: ``index`` is its place in the schedule (the games table's key)."""

    index: int
    deal: int
    table: int
    rotation: int
    deal_seed: int
    entrants: tuple[int, ...]  # index into Definition.agents, one per seat
    agent_seeds: tuple[int, ...]


def tables(entrants: int, players: int) -> list[tuple[int, ...]]:
    """The lineups (sorted entrant indices): every ``players``-combination of distinct
    entrants, or, with fewer entrants than seats, every multiset holding each one at least once."""
    if entrants >= players:
        return list(itertools.combinations(range(entrants), players))
    return [
        lineup
        for lineup in itertools.combinations_with_replacement(range(entrants), players)
        if len(set(lineup)) == entrants
    ]


def derive_seed(*key: int) -> int:
    """A 32-bit seed from integer coordinates, decorrelated by NumPy's SeedSequence hashing."""
    return int(np.random.SeedSequence(list(key)).generate_state(1)[0])


def schedule(definition: Definition) -> list[Game]:
    """Every game, deal by deal (a stopped tournament has whole deals done), then table, then
    rotation; rotation ``r`` seats lineup member ``i`` at seat ``(i + r) % players``."""
    lineups = tables(len(definition.agents), definition.players)
    p, s = definition.players, definition.seed
    games = []
    for deal in range(definition.deals):
        deal_seed = derive_seed(s, deal)
        for t, lineup in enumerate(lineups):
            for r in range(p):
                seats = tuple(lineup[(seat - r) % p] for seat in range(p))
                agent_seeds = tuple(derive_seed(s, deal, t, r, seat) for seat in range(p))
                games.append(Game(len(games), deal, t, r, deal_seed, seats, agent_seeds))
    return games
