"""A rule-based Marriage player: what good players do, read from its own observation.

It reads only the observation (through :data:`taas.envs.marriage.observation.LAYOUT`) and asks
the engine's meld solver (:class:`taas.envs.marriage.scoring.Scorer`) about its own hand, so it
is fair by construction. Strategy: show the moment the hand allows; judge every card by the
least deadwood the hand can reach with the required lives (a hand with no life yet pays a
large penalty, so a card that completes a pure sequence is worth a lot); never throw a wild
card; keep drafts (pairs, near sequences) while live copies remain, counting every copy seen
across the decks; trade a dead dublee for a wild card; avoid feeding the next player what it
picks up; late in the round shed high deadwood rather than hope.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from taas.agents.base import Agent, either_first
from taas.envs.core.cards import JOKER, NUM_KINDS, NUM_RANKS
from taas.envs.core.config import build_config
from taas.envs.marriage import actions as A
from taas.envs.marriage.config import GAME, MAX_PLAYERS, Config
from taas.envs.marriage.observation import LAYOUT
from taas.envs.marriage.scoring import Scorer
from taas.envs.rummy import melds

NO_LIFE = 60
"""Points charged per missing life: a hand without its pure sequence pays for every card, so
a life is worth about this much deadwood to a player still far from showing."""
OUT_WEIGHT = 1.5
"""Points per live card that would turn a card into a meld, early in the round; it decays to
nothing by ``LATE_TURNS`` so the agent sheds high cards when a show is near."""
LATE_TURNS = 12
"""Own turns after which drafts no longer count and only deadwood matters."""
FEED = 4.0
"""Points held against a discard the next player has been collecting (same rank, or same suit
within two)."""

_RANK = np.arange(JOKER) % NUM_RANKS
_SUIT = np.arange(JOKER) // NUM_RANKS


def _seat_block(obs: np.ndarray, name: str, seat: int) -> np.ndarray:
    """One seat's 53 counts of a per-seat ``FACE_UP`` block (seat 0 = me, then clockwise)."""
    start = LAYOUT[name].start + seat * NUM_KINDS
    return obs[start : start + NUM_KINDS]


class MarriageHeuristicAgent(Agent):
    """Show at once; draw and discard by the reachable deadwood with lives plus live draws."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, rules: dict | None = None):
        super().__init__(seed)
        self.config = build_config(Config, GAME, rules or {})
        self._copies = np.full(NUM_KINDS, self.config.decks, np.int64)
        self._copies[JOKER] = self.config.jokers
        self._rules: dict[bytes, list[melds.MeldRules]] = {}

    @classmethod
    def build(
        cls, arg: str | None, env_id: str, seed: int | None, config: dict
    ) -> MarriageHeuristicAgent:
        if arg:
            raise ValueError(f"agent {cls.name!r} takes no argument (got {arg!r})")
        return cls(seed, config)

    # -- reading the observation ---------------------------------------------------------
    def _read(self, obs: np.ndarray) -> None:
        d = self.config.decks
        self.hand = np.rint(obs[LAYOUT["hand"]] * d).astype(np.int64)
        self.wild = obs[LAYOUT["wild"]] > 0.5
        key = self.wild.tobytes()
        if key not in self._rules:
            base = Scorer(self.config, self.wild).rules
            self._rules[key] = [
                dataclasses.replace(base, lives_required=n)
                for n in range(base.lives_required + 1)
            ]
        self.rules = self._rules[key]
        seen = np.rint(obs[LAYOUT["discard_pile"]] * d)
        seen += np.rint(obs[LAYOUT["indicator"]])
        held_by_others = np.zeros(NUM_KINDS)
        for seat in range(MAX_PLAYERS):
            seen += np.rint(_seat_block(obs, "set_aside", seat) * d)
            seen += np.rint(_seat_block(obs, "revealed", seat) * d)
            if seat:
                held_by_others += np.maximum(0, self._count(obs, "taken_by", seat)
                                             - self._count(obs, "discarded_by", seat))
        self.live = np.maximum(0, self._copies - self.hand - seen - held_by_others)
        turns = float(obs[LAYOUT["turn"]][0]) * self.config.max_turns_per_round
        self.own_turns = turns / max(1, int((obs[LAYOUT["active"]] > 0.5).sum()))
        self.top = np.flatnonzero(obs[LAYOUT["top_discard"]])
        nxt = self._count(obs, "taken_by", 1)
        self.wanted = np.zeros(NUM_KINDS)
        for k in np.flatnonzero(nxt[:JOKER]):
            near_run = (_SUIT[k] == _SUIT) & (np.abs(_RANK - _RANK[k]) <= 2)
            self.wanted[:JOKER] += (_RANK[k] == _RANK) | near_run

    def _count(self, obs: np.ndarray, name: str, seat: int) -> np.ndarray:
        """Undo the ``tanh(count / decks)`` squashing of the discard and pick-up records."""
        v = np.minimum(_seat_block(obs, name, seat), 0.999)
        return np.rint(np.arctanh(v) * self.config.decks)

    # -- judging hands ---------------------------------------------------------------------
    def judge(self, hand: np.ndarray) -> tuple[int, int]:
        """(least deadwood, lives missing): the most lives of those required that an
        arrangement of ``hand`` holds, and its least deadwood with them."""
        need = len(self.rules) - 1
        for lives in range(need, 0, -1):
            rules = self.rules[lives]
            dead = melds.deadwood(hand, rules)
            if dead < melds.hand_value(hand, rules):  # an arrangement with these lives exists
                return dead, need - lives
        return melds.deadwood(hand, self.rules[0]), need

    def value(self, hand: np.ndarray) -> float:
        """Least deadwood reachable with the required lives, ``NO_LIFE`` per missing life."""
        dead, missing = self.judge(hand)
        return dead + NO_LIFE * missing

    def _outs(self, hand: np.ndarray, k: int) -> float:
        """Live cards that would make a meld of ``k`` with a card already held (group or run
        draft); 0 for a wild card, which needs no draw."""
        if self.wild[k] or k == JOKER:
            return 0.0
        others = hand.copy()
        others[k] -= 1
        others[self.wild] = 0
        held = others[:JOKER] > 0
        outs = 0.0
        if (held & (_RANK[k] == _RANK)).any():
            outs += self.live[:JOKER][_RANK[k] == _RANK].sum()
        for step in (-2, -1, 1, 2):
            r = _RANK[k] + step
            if 0 <= r < NUM_RANKS and held[_SUIT[k] * NUM_RANKS + r]:
                lo, hi = min(r, _RANK[k]), max(r, _RANK[k])
                fill = [lo - 1, hi + 1] if hi - lo == 1 else [lo + 1]
                fill = [x for x in fill if 0 <= x < NUM_RANKS]
                outs += sum(self.live[_SUIT[k] * NUM_RANKS + x] for x in fill)
        return outs

    def _discard_cost(self, hand: np.ndarray, k: int) -> float:
        """What the hand is worth after throwing ``k``: lower is better."""
        rest = hand.copy()
        rest[k] -= 1
        weight = OUT_WEIGHT * max(0.0, 1 - self.own_turns / LATE_TURNS)
        return self.value(rest) + weight * self._outs(hand, k) + FEED * self.wanted[k]

    # -- acting ------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return self.ranking(observation, action_mask)[0]

    def ranking(self, observation: np.ndarray, action_mask: np.ndarray) -> list[int]:
        """The legal moves this player would consider, best first (``act`` plays the first):
        both draws in its order of preference, its discards and swaps from cheapest to
        dearest, or only the move it never questions (a show)."""
        self._read(observation)
        if action_mask[A.DRAW_STOCK] or action_mask[A.DRAW_DISCARD]:
            first = self._draw(action_mask)
            return either_first(first, A.DRAW_STOCK + A.DRAW_DISCARD - first, action_mask)
        shows = np.flatnonzero(action_mask[A.SHOW : A.SHOW_ALL])
        if shows.size:
            return [A.SHOW + int(shows[0])]
        if action_mask[A.SHOW_ALL]:
            return [A.SHOW_ALL]
        choices = [
            (self._discard_cost(self.hand, int(k)), A.DISCARD + int(k))
            for k in np.flatnonzero(action_mask[A.DISCARD : A.SHOW])
            if not self.wild[k]
        ]
        choices += self._swaps(action_mask)
        if not choices:  # only wild cards may go, and every one costs the same
            kinds = np.flatnonzero(action_mask[A.DISCARD : A.SHOW])
            return [A.DISCARD + int(kinds[0])]
        return [a for _, a in sorted(choices)]

    def _draw(self, mask: np.ndarray) -> int:
        """Take the discard when it is wild or lowers the reachable deadwood by being used."""
        if not mask[A.DRAW_DISCARD]:
            return A.DRAW_STOCK
        if not mask[A.DRAW_STOCK] or not self.top.size:
            return A.DRAW_DISCARD
        t = int(self.top[0])
        if self.wild[t]:
            return A.DRAW_DISCARD
        with_it = self.hand.copy()
        with_it[t] += 1
        before = self.value(self.hand)
        # kept unused, the card would add its own value: anything below that means it melds
        gain = before + self.rules[0].card_value(t) - self.value(with_it)
        return A.DRAW_DISCARD if gain > 0 else A.DRAW_STOCK

    def _swaps(self, mask: np.ndarray) -> list[tuple[float, int]]:
        """Dublee swaps as (cost, action): the pair goes, a wild card (usually) comes."""
        kinds = np.flatnonzero(mask[A.DUBLEE_SWAP : A.DUBLEE_SWAP + NUM_KINDS])
        wild_kinds = [w for w in np.flatnonzero(self.wild) if self.hand[w] < 3]
        if not kinds.size or not wild_kinds or self.live[self.wild].sum() == 0:
            return []
        out = []
        for k in kinds:
            rest = self.hand.copy()
            rest[k] -= 2
            rest[wild_kinds[0]] += 1
            out.append((self.value(rest), A.DUBLEE_SWAP + int(k)))
        return out
