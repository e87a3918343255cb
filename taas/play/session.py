"""One game at the table, with people and agents in the seats, for the terminal and the web.

A session is rebuilt from what reproduces it — env id, rules, seed, the spec in each seat
(``"human"`` for a person) and the moves so far — so a server can store that and nothing else.
Agents are reseeded from (their seed, the move number) before each decision, so an agent's
next move is the same whether the session was played straight through or rebuilt halfway.

:meth:`Session.view` is what one seat may see: its own hand (sorted, with the engine's meld
arrangement where the game has one), the public facts, the legal actions and every move so
far as :class:`~taas.arena.moves.MoveRenderer` describes it. Other hands appear only in the
end-of-round reports, where the rules reveal them. What a game shows beyond that (trump, wild
rank, the tiplu to a seat that has seen it, score sheets, round reports) comes from the game's
:class:`~taas.envs.core.view.TableView`, named by its spec.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

import taas.agents
import taas.envs
from taas.arena import replay as replays
from taas.arena.loop import GameResult
from taas.arena.moves import MoveRenderer
from taas.envs.core.cards import from_counts, parse_card

HUMAN = "human"


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (as ``taas play`` seeds its agents)."""
    return seed * 1000 + seat


def card_of_action(name: str) -> int | None:
    """The card kind an action is about when its name is ``verb CARD`` (``discard 7H``,
    ``play 10S``); None for the others (``draw``, ``marry S``, melds of several cards)."""
    parts = name.split()
    if len(parts) != 2:
        return None
    try:
        return parse_card(parts[1])
    except ValueError:
        return None


class Session:
    """A game in progress; see the module docstring. ``agents[i]`` is ``"human"`` or an agent
    spec; ``resolve`` maps a spec to the one built (a server's model names to its files), the
    given specs being what the views and records show. ``ValueError`` for an unknown env, bad
    rules, a bad seed or an unknown agent."""

    def __init__(
        self,
        env_id: str,
        rules: dict,
        seed: int,
        agents: list[str],
        moves: list[tuple[int, int]] = (),
        resolve: Callable[[str], str] | None = None,
    ):
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed {seed!r}: expected a whole number, 0 or more")
        rules = dict(rules)
        fields = {f.name for f in dataclasses.fields(taas.envs.env_module(env_id).Config)}
        if "num_players" in fields:
            rules.setdefault("num_players", len(agents))
        self.env = taas.envs.make(env_id, wrapped=False, **rules)
        seats = len(self.env.possible_agents)
        if len(agents) != seats:
            raise ValueError(f"{len(agents)} seats given for {env_id}'s {seats}: one spec a seat")
        self.env_id, self.rules, self.seed, self.agents = env_id, rules, seed, list(agents)
        self.game = self.env.game
        self.table_view = taas.envs.spec_for(env_id).table_view()
        self._bots = {
            i: taas.agents.make(resolve(spec) if resolve else spec, env_id,
                                seed=agent_seed(seed, i), config=rules)
            for i, spec in enumerate(agents)
            if spec != HUMAN
        }
        self.env.reset(seed=seed)
        self._renderer = MoveRenderer(self.env)
        self.moves: list[tuple[int, int]] = []
        self.log: list[str] = []
        for seat, action in moves:
            self.play(seat, action)

    # -- moving --------------------------------------------------------------------------
    @property
    def state(self):
        return self.env.state

    @property
    def current(self) -> int:
        """The seat to move, -1 once the game is over."""
        return self.game.current_player(self.state)

    @property
    def over(self) -> bool:
        return self.game.is_terminal(self.state)

    def humans(self) -> list[int]:
        return [i for i, spec in enumerate(self.agents) if spec == HUMAN]

    def play(self, seat: int, action: int) -> str:
        """Apply ``seat``'s ``action``; ``ValueError`` (state unchanged) if the game is over,
        it is another seat's turn or the action is not legal. The move's log line."""
        if self.over:
            raise ValueError("the game is over")
        if seat != self.current:
            raise ValueError(f"it is player_{self.current}'s turn, not player_{seat}'s")
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"action {action!r}: expected an action id")
        action = int(action)
        if not (0 <= action < self.game.num_actions and self.game.legal_mask(self.state)[action]):
            raise ValueError(f"action {action} is not legal now; legal: {self._legal_names()}")
        self.env.step(action)
        self.moves.append((seat, action))
        line = self._renderer.move(seat, action, self.env.rewards)
        self.log.append(line)
        return line

    def agent_move(self) -> str:
        """Let the agent in the seat to move play; ``ValueError`` if a person is to move."""
        return self.play(self.current, self.agent_choice())

    def agent_choice(self) -> int:
        """The action the agent in the seat to move plays now, the game unchanged (a server
        lets the agent think without holding the game); ``ValueError`` if a person is to move."""
        seat = self.current
        if seat not in self._bots:
            raise ValueError("no agent is to move" if seat < 0 else f"player_{seat} is a person")
        bot = self._bots[seat]
        bot.rng = np.random.default_rng([agent_seed(self.seed, seat), len(self.moves)])
        if bot.uses_state:
            action = bot.act_state(self.game, self.state, seat)
        else:
            obs = self.env.observe(self.env.possible_agents[seat])
            action = bot.act(obs["observation"], obs["action_mask"])
        return int(action)

    def legal_actions(self) -> list[dict]:
        """The mover's legal actions: id, name and the card the action is about (if one)."""
        if self.over:
            return []
        out = []
        for a in np.flatnonzero(self.game.legal_mask(self.state)).tolist():
            name = self.game.action_to_str(a)
            out.append({"id": a, "name": name, "card": card_of_action(name)})
        return out

    def _legal_names(self) -> str:
        return ", ".join(a["name"] for a in self.legal_actions())

    # -- what a seat sees ----------------------------------------------------------------
    def hand(self, seat: int) -> list[int]:
        """``seat``'s cards, sorted as the game's table shows them (suit, then rank)."""
        counts = self.game.zones(self.state)[f"hand_{seat}"]
        return sorted(from_counts(counts), key=self.table_view.sort_key)

    def melds(self, seat: int) -> dict | None:
        """The engine's own arrangement of ``seat``'s hand (Marriage: least deadwood with the
        lives required), or None where the engine offers none."""
        return None if self.over else self.table_view.melds(self.game, self.state, seat)

    def facts(self) -> list[dict]:
        """The public table: labels with a text and/or cards (kinds)."""
        return self.table_view.facts(self.game, self.state)

    def seat_notes(self, seat: int) -> list[dict]:
        """What the table knows about ``seat``: cards held and what the game shows of a seat
        (in the rummies, the cards it took from the discard pile this round)."""
        notes = [{"label": "cards", "text": str(len(self.hand(seat)))}]
        return notes + self.table_view.seat_notes(self.game, self.state, seat)

    def view(self, seat: int | None = None) -> dict:
        """JSON-ready: everything ``seat`` may see (``None``: a spectator, no hand)."""
        out = {
            "env_id": self.env_id,
            "rules": self.rules,
            "seat": seat,
            "current": self.current,
            "over": self.over,
            "truncated": bool(self.game.is_truncated(self.state)),
            "seats": [
                {"seat": i, "agent": spec, "notes": self.seat_notes(i)}
                for i, spec in enumerate(self.agents)
            ],
            "facts": self.facts(),
            "log": self.log,
            "moves": len(self.moves),
            "returns": [float(r) + 0.0 for r in self.game.returns(self.state)],  # no -0
            "sheet": self.score_sheet(),
            "rounds": self.round_reports(),
        }
        if seat is not None:
            out["hand"] = self.hand(seat)
            out["melds"] = self.melds(seat)
            out["actions"] = self.legal_actions() if seat == self.current else []
            out["facts"] += self.table_view.private_facts(self.game, self.state, seat)
            out.update(self.table_view.private(self.game, self.state, seat))
        return _plain(out)

    def open_table(self) -> dict:
        """JSON-ready, for replays of finished games only: the public facts, every hand and
        the score sheet."""
        hands = [self.hand(p) for p in range(len(self.agents))]
        return _plain({"facts": self.facts(), "hands": hands, "sheet": self.score_sheet()})

    # -- rounds and scores ------------------------------------------------------------------
    def score_sheet(self) -> dict:
        """Per finished round (deal) what each seat scored, and the totals."""
        return self.table_view.score_sheet(self.game, self.state)

    def round_reports(self) -> list[dict]:
        """Each finished round explained: a headline and every hand's arrangement (melds,
        deadwood, penalty) as the engine scored it."""
        return self.table_view.round_reports(self.game, self.state)

    def record(self) -> dict:
        """The game as a replay file (:mod:`taas.arena.replay`); people's seats are
        ``"human"`` with no seed."""
        result = GameResult(
            returns=[float(r) for r in self.game.returns(self.state)],
            steps=len(self.moves),
            truncated=bool(self.game.is_truncated(self.state)),
            infos=dict(self.env.infos),
            moves=list(self.moves),
        )
        seeds = [None if spec == HUMAN else agent_seed(self.seed, i)
                 for i, spec in enumerate(self.agents)]
        return replays.make_record(self.env, result, self.seed, self.agents, seeds)


def _plain(value):
    """NumPy scalars to Python ones, tuples to lists, int keys kept (JSON-ready)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value
