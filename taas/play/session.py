"""One game at the table, with people and agents in the seats, for the terminal and the web.

A session is rebuilt from what reproduces it — env id, rules, seed, the spec in each seat
(``"human"`` for a person) and the moves so far — so a server can store that and nothing else.
Agents are reseeded from (their seed, the move number) before each decision, so an agent's
next move is the same whether the session was played straight through or rebuilt halfway.

:meth:`Session.view` is what one seat may see: its own hand (sorted, with the engine's meld
arrangement where the game has one), the public facts, the legal actions and every move so
far as :class:`~taas.agents.replay.MoveRenderer` describes it. Other hands appear only in the
end-of-round reports, where the rules reveal them.
"""

from __future__ import annotations

import dataclasses

import numpy as np

import taas.agents
import taas.envs
from taas.agents import replay as replays
from taas.agents.base import GameResult
from taas.envs.core.cards import JOKER, RANKS, SUITS, from_counts, parse_card

HUMAN = "human"
_MARIAGE_ORDER = {0: 0, 9: 1, 12: 2, 11: 3, 10: 4, 8: 5, 7: 6, 6: 7}  # A 10 K Q J 9 8 7


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
    spec; ``ValueError`` for an unknown env, bad rules, a bad seed or an unknown agent."""

    def __init__(
        self,
        env_id: str,
        rules: dict,
        seed: int,
        agents: list[str],
        moves: list[tuple[int, int]] = (),
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
        self._bots = {
            i: taas.agents.make(spec, env_id, seed=agent_seed(seed, i), config=rules)
            for i, spec in enumerate(agents)
            if spec != HUMAN
        }
        self.env.reset(seed=seed)
        self._renderer = replays.MoveRenderer(self.env)
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
        """``seat``'s cards, sorted by suit and rank (Mariage: A 10 K Q J 9 8 7)."""
        counts = self.game.zones(self.state)[f"hand_{seat}"]
        return sorted(from_counts(counts), key=self._sort_key)

    def _sort_key(self, kind: int) -> tuple[int, int]:
        if kind == JOKER:
            return (len(SUITS), 0)
        rank = kind % len(RANKS)
        if self.env_id.startswith("mariage"):
            rank = _MARIAGE_ORDER[rank]
        return (kind // len(RANKS), rank)

    def melds(self, seat: int) -> dict | None:
        """The engine's own arrangement of ``seat``'s hand (Marriage: least deadwood with the
        lives required), or None where the engine offers none."""
        if not self.env_id.startswith("marriage") or self.over:
            return None
        report = self.game.scorer(self.state).report(self.state.hands[seat])
        return {
            "melds": [{"cards": _kinds(m["cards"]), "life": m["life"]} for m in report["melds"]],
            "deadwood": _kinds(report["deadwood"]),
            "penalty": report["penalty"],
        }

    def facts(self) -> list[dict]:
        """The public table: labels with a text and/or cards (kinds)."""
        s, family = self.state, self.env_id.rpartition("_v")[0]
        if family == "mariage":
            return _mariage_facts(s)
        facts = [{"label": "round", "text": str(s.rounds_played + (not s.over))}]
        if family == "marriage":
            facts.append({"label": "indicator", "cards": [int(s.indicator)]})
            wild = "printed jokers only" if s.wild_rank < 0 else RANKS[s.wild_rank]
            facts.append({"label": "wild rank", "text": wild})
        table = s.table
        facts.append({"label": "stock", "text": f"{len(table.stock)} cards"})
        facts.append({"label": "top discard", "cards": [int(c) for c in table.discard[-1:]]})
        if family == "romme":
            for m in s.melds:
                facts.append({"label": f"meld of player_{m.owner}", "cards": list(m.cards())})
        return facts

    def seat_notes(self, seat: int) -> list[dict]:
        """What the table knows about ``seat``: cards held and, in the rummies, the cards it
        took from the discard pile this round (and Marriage's dublees set aside)."""
        s = self.state
        notes = [{"label": "cards", "text": str(len(self.hand(seat)))}]
        if hasattr(s, "table"):
            notes.append({"label": "took", "cards": from_counts(s.table.taken_by[seat])})
        if self.env_id.startswith("marriage") and s.set_aside[seat].any():
            notes.append({"label": "set aside", "cards": from_counts(s.set_aside[seat])})
        if self.env_id.startswith("mariage"):
            notes.append({"label": "score", "text": str(self.game.score(s, seat))})
            notes.append({"label": "tricks", "text": str(s.tricks[seat])})
        return notes

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
            if self.env_id.startswith("marriage"):
                out["wild"] = [int(k) for k in np.flatnonzero(self.state.wild)]
        return _plain(out)

    def open_table(self) -> dict:
        """JSON-ready, for replays of finished games only: the public facts, every hand and
        the score sheet."""
        hands = [self.hand(p) for p in range(len(self.agents))]
        return _plain({"facts": self.facts(), "hands": hands, "sheet": self.score_sheet()})

    # -- rounds and scores ------------------------------------------------------------------
    def score_sheet(self) -> dict:
        """Per finished round (deal) what each seat scored, and the totals."""
        if self.env_id.startswith("mariage"):
            rows = [
                [r["game_points"] if r["winner"] == p else 0 for p in range(2)]
                for r in self.state.results
            ]
            return {"unit": "game points (highest wins)", "rows": rows,
                    "totals": list(self.state.game_points)}
        rows = [_round_charges(h) for h in self.state.history]
        return {"unit": "penalty points (lowest wins)", "rows": rows,
                "totals": [int(t) for t in self.state.totals]}

    def round_reports(self) -> list[dict]:
        """Each finished round explained: a headline and every hand's arrangement (melds,
        deadwood, penalty) as the engine scored it."""
        family = self.env_id.rpartition("_v")[0]
        if family == "mariage":
            return [{"title": f"deal {r['deal'] + 1}: {r['reason']}",
                     "lines": [f"scores {r['scores'][0]} - {r['scores'][1]}"], "hands": []}
                    for r in self.state.results]
        return [_REPORTS[family](h) for h in self.state.history]

    def record(self) -> dict:
        """The game as a replay file (:mod:`taas.agents.replay`); people's seats are
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


def _kinds(names) -> list[int]:
    return [parse_card(n) for n in names]


def _plain(value):
    """NumPy scalars to Python ones, tuples to lists, int keys kept (JSON-ready)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def _mariage_facts(s) -> list[dict]:
    from taas.envs.mariage.actions import KIND

    trump = "♠♥♦♣"[s.trump]
    open_ = s.closed_by < 0 and bool(s.talon)
    talon = (f"closed by player_{s.closed_by}" if s.closed_by >= 0
             else f"{len(s.talon)} cards" if s.talon else "exhausted")
    facts = [{"label": "deal", "text": str(s.deal_no + 1)},
             {"label": "trump", "text": trump},
             {"label": "talon", "text": talon}]
    if open_:
        facts.append({"label": "trump card", "cards": [KIND[s.talon[0]]]})
    facts.append({"label": "trick", "cards": [KIND[s.lead]] if s.lead >= 0 else []})
    return facts


def _round_charges(h: dict) -> list[int]:
    if "penalties" in h:
        return [int(p) for p in h["penalties"]]
    return [int(p["charge"]) for p in h["players"]]  # Rommé


def _marriage_report(h: dict) -> dict:
    if h["void"]:
        title = f"round {h['round']}: void, nothing left to draw"
    else:
        title = f"round {h['round']}: player_{h['winner']} showed"
    hands = []
    for q, p in sorted(h["players"].items()):
        if "melds" not in p:
            note = "invalid show: out of the round" if p.get("invalid_show") else "void round"
            hands.append({"seat": q, "melds": [], "deadwood": _kinds(p["hand"]),
                          "penalty": p["penalty"], "note": note})
            continue
        hands.append({
            "seat": q,
            "melds": [{"cards": _kinds(m["cards"]), "life": m["life"]} for m in p["melds"]],
            "deadwood": _kinds(p["deadwood"]),
            "penalty": p["penalty"],
            "note": "showed" if q == h["winner"] else "",
        })
    lines = [f"indicator {h['indicator']}, wild rank {h['wild_rank'] or 'none (printed jokers)'}"]
    return {"title": title, "lines": lines, "hands": hands}


def _continental_report(h: dict) -> dict:
    w = h["went_out"]
    hands = []
    for q, charge in enumerate(h["penalties"]):
        if q == w:
            melds = [{"cards": _kinds(g.split()), "life": False} for g in h["groups"]]
            hands.append({"seat": q, "melds": melds, "deadwood": [], "penalty": charge,
                          "note": "went out"})
        elif q in h["hands"]:  # seats sitting out a tie-break have no hand
            hands.append({"seat": q, "melds": [], "deadwood": _kinds(h["hands"][q].split()),
                          "penalty": charge, "note": ""})
    return {"title": f"round {h['round']}: player_{w} went out", "lines": [], "hands": hands}


def _romme_report(h: dict) -> dict:
    title = (f"round {h['round']}: player_{h['went_out']} went out" if h["went_out"] >= 0
             else f"round {h['round']}: blocked")
    lines = [f"table: {m['cards']} (player_{m['owner']})" for m in h["melds"]]
    hands = [{"seat": q, "melds": [], "deadwood": _kinds(p["hand"].split()),
              "penalty": p["charge"], "note": p["reason"]}
             for q, p in enumerate(h["players"])]
    return {"title": title, "lines": lines, "hands": hands}


_REPORTS = {"marriage": _marriage_report, "continental": _continental_report,
            "romme": _romme_report}
