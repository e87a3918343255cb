"""Inference for Mariage search: determinizations weighed by what the opponent's moves showed.

A determinization deals the unseen cards uniformly, as if the opponent's play had shown nothing
but its voids. It shows more: a player who leads a low card rather than declaring holds no
marriage pair, one who lets a ten go by holds no card to take it cheaply. :func:`belief` deals a
pool of worlds, rebuilds each one's deal back to its first card and replays the deal's log in
it, and weighs the world by how likely the opponent's recorded moves are there under a model of
its play: the rule-of-thumb player (:mod:`.rollout_player`) makes its own move with probability
``1 - EPSILON`` and any legal move with ``EPSILON`` (so a world survives a move the model would
not make, as another opponent's, at a cost). Search then draws its worlds from the pool by
weight (sampling importance resampling).

Rebuilding a world's past: the opponent's draws are the unknown part. Going back from the
present, each of its face-down draws takes a card from its hand at that moment, uniformly among
those not proven held before it (a marriage card declared earlier, the card taken by an earlier
exchange); the rest is its first hand. A past built that way has probability the product of
``1 / choices``, so each world's weight is multiplied by the product of the choices: every
consistent past then counts once, as a uniform deal would have it. Its own draws the seat saw
(``state.draws``); every action is public (``state.log``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from taas.envs.mariage.actions import CLOSE, EXCHANGE, MARRY
from taas.envs.mariage.rollout_player import _choose
from taas.envs.mariage.rules import _PAIR, _SEVEN, TRICKS, MariageGame, MariageState

EPSILON = 0.1  # the chance the model gives any legal move, beside its own (see the docstring)
POOL = 200  # worlds dealt and weighed per decision; search resamples its worlds from them
WINDOW = 1  # hidden draws summed over: the moves judged are those since the one before them

Determinizer = Callable[[MariageGame, MariageState, int, np.random.Generator], MariageState]


def belief(game: MariageGame, state: MariageState, player: int, rng: np.random.Generator,
           sample: Determinizer) -> Determinizer:
    """A determinizer drawing from ``POOL`` worlds of ``sample``, each with its weight (see the
    module docstring); ``sample`` itself where the opponent has made no move yet or nothing but
    its hand is hidden (the talon gone)."""
    if not state.talon:
        return sample
    past = _Past(game, state, player, rng, sample)
    if not past.opponent_moved:
        return sample
    worlds = [sample(game, state, player, rng) for _ in range(POOL)]
    weights = np.array([past.weight(game, w) for w in worlds])
    total = weights.sum()
    if not total > 0:  # no world explains the moves, even with EPSILON: fall back to all
        return sample
    cumulative = np.cumsum(weights / total)

    def draw(game: MariageGame, state: MariageState, player: int,
             rng: np.random.Generator) -> MariageState:
        i = min(int(np.searchsorted(cumulative, rng.random(), side="right")), POOL - 1)
        return worlds[i].clone()

    return draw


class _Past:
    """The deal's public history read once per decision: each logged move with who made it,
    which trick ends drew cards for whom, what ``player`` knows of its own draws, and the
    position before each of the opponent's recent moves (for the model to judge)."""

    def __init__(self, game: MariageGame, state: MariageState, player: int,
                 rng: np.random.Generator, sample: Determinizer):
        self.state, self.player, self.opp = state, player, 1 - player
        self.cfg = game.config
        # ("play"|"marry"|"exchange"|"close"|"draw", who, data, log index), in order
        self.events: list[tuple] = []
        to_move, lead, closed = 1 - state.dealer, -1, False
        indicator, talon = state.indicator, len(state.talon) + len(state.draws)
        drawn = 0
        for i, a in enumerate(state.log):
            p = to_move
            if a < MARRY:
                self.events.append(("play", p, a, i))
                if lead < 0:
                    lead, to_move = a, 1 - p
                    continue
                w = p if TRICKS.follower_wins(lead, a, state.trump) else 1 - p
                lead, to_move = -1, w
                if not closed and talon:
                    talon -= 2
                    face_up = indicator if not talon else None  # the loser takes it last
                    self.events.append(("draw", w, (drawn, None), i))
                    self.events.append(("draw", 1 - w, (drawn + 1, face_up), i))
                    drawn += 2
            elif a < EXCHANGE:
                self.events.append(("marry", p, a - MARRY, i))
            elif a == EXCHANGE:
                self.events.append(("exchange", p, indicator, i))
                indicator = _SEVEN[state.trump]
            elif a == CLOSE:
                closed = True
                self.events.append(("close", p, None, i))
            else:  # a claim ends the deal: a running deal's log holds none
                raise ValueError("a claim in the log of a running deal")
        self.opponent_moved = any(e[1] == self.opp and e[0] != "draw" for e in self.events)
        self.protected = self._protected()
        self.positions = self._positions(game, rng, sample) if self.opponent_moved else {}

    def _hidden(self, event: tuple) -> bool:
        """Whether ``event`` is a draw of the opponent's that the seat did not see."""
        return event[0] == "draw" and event[1] == self.opp and event[2][1] is None

    def _protected(self) -> list[int]:
        """For each event, the opponent's cards proven held before it (declared marriage
        cards, the card an exchange took): none of them can be a later draw."""
        out, proven = [], 0
        for kind, who, data, _ in self.events:
            out.append(proven)
            if who == self.opp and kind == "marry":
                proven |= _PAIR[data]
            elif who == self.opp and kind == "exchange":
                proven |= 1 << data
        return out

    def _positions(self, game: MariageGame, rng: np.random.Generator,
                   sample: Determinizer) -> dict[int, MariageState]:
        """The position before each opponent move inside the window (after its hidden draw
        ``WINDOW + 1`` from the end), by log index: replayed from any world's rebuilt deal,
        for the public part of it is the same in every world (the hand is set per world)."""
        hidden = [i for i, e in enumerate(self.events) if self._hidden(e)]
        first = self.events[hidden[-WINDOW - 1]][3] if len(hidden) > WINDOW else -1
        wanted = {e[3] for e in self.events
                  if e[1] == self.opp and e[0] != "draw" and e[3] > first}
        s = self._rebuilt(game, sample(game, self.state, self.player, rng), rng)
        out = {}
        for i, a in enumerate(self.state.log):
            if i in wanted:
                out[i] = s.clone()
            game._apply(s, a)
        return out

    def weight(self, game: MariageGame, world: MariageState) -> float:
        """The model's probability of the opponent's moves in the window, ``world`` given:
        summed over every way its hidden draws in the window could have gone."""
        return self._back(game, len(self.events) - 1, world.hands[self.opp], WINDOW)

    def _back(self, game: MariageGame, i: int, hand: int, draws_left: int) -> float:
        """The probability of the opponent's moves at events ``i`` and before (within the
        window), its hand just after event ``i`` being ``hand``."""
        p = 1.0
        opp = self.opp
        while i >= 0:
            kind, who, data, at = self.events[i]
            if who == opp and kind != "draw":
                if kind == "play":
                    hand |= 1 << data
                elif kind == "exchange":
                    hand = hand & ~(1 << data) | 1 << _SEVEN[self.state.trump]
                p *= self._model(game, at, hand)
            elif kind == "draw" and who == opp:
                face_up = data[1]
                if face_up is not None:
                    hand &= ~(1 << face_up)
                else:
                    if not draws_left:
                        return p
                    free = hand & ~self.protected[i]
                    n = free.bit_count()
                    total = 0.0
                    while free:
                        low = free & -free
                        total += self._back(game, i - 1, hand & ~low, draws_left - 1)
                        free ^= low
                    return p * total / n if n else 0.0
            i -= 1
        return p

    def _model(self, game: MariageGame, at: int, hand: int) -> float:
        """The model's probability of the logged move at log index ``at`` with ``hand``."""
        s = self.positions[at]
        s.hands[self.opp] = hand
        s.mask = None
        legal = game._legal_mask(s)
        a = self.state.log[at]
        if not legal[a]:
            return 0.0
        own = (1 - EPSILON) if _choose(self.cfg, s) == a else 0.0
        return own + EPSILON / int(legal.sum())

    def _rebuilt(self, game: MariageGame, world: MariageState,
                 rng: np.random.Generator) -> MariageState:
        """``world``'s deal as first dealt, with one past drawn at random for the opponent's
        hidden draws (each from the cards it held then and is not proven to have held
        before): the talon is the indicator, the cards still face down, then the drawn ones
        (the first drawn on top)."""
        me, opp = self.player, self.opp
        hands = [0, 0]
        hands[me], hands[opp] = world.hands[me], world.hands[opp]
        draws = list(self.state.draws)  # the opponent's hidden entries are replaced below
        for i in range(len(self.events) - 1, -1, -1):
            kind, who, data, _ = self.events[i]
            if kind == "play":
                hands[who] |= 1 << data
            elif kind == "exchange":
                hands[who] = hands[who] & ~(1 << data) | 1 << _SEVEN[self.state.trump]
            elif kind == "draw":
                k, face_up = data
                if self._hidden(self.events[i]):
                    free = hands[opp] & ~self.protected[i]
                    draws[k] = _nth_bit(free, int(rng.integers(free.bit_count())))
                elif face_up is not None:
                    draws[k] = face_up
                hands[who] &= ~(1 << draws[k])
        face_down_draws = draws[:-1] if not self.state.talon and draws else draws
        talon = [self.state.indicator, *world.talon[1:], *reversed(face_down_draws)]
        s = game.deal_from_cards([[], []], talon, self.state.dealer, trump=self.state.trump)
        s.hands = hands
        return s


def _nth_bit(mask: int, n: int) -> int:
    """The id of ``mask``'s ``n``-th set bit, counting from the lowest."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1
