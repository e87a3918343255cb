"""Who holds what, judged from how the opponent has played: a particle filter for Mariage's PIMC.

Uniform worlds (:func:`taas.envs.mariage.determinize.determinize`) treat every unseen card
alike, but the opponent's moves say something about its hand: a player who leads low keeps its
trumps, one who ducks a ten holds nothing cheap above it. The filter keeps ``PARTICLES``
guesses of the deal's hidden history — the opponent's dealt hand and every card it drew from
the talon — each consistent with the cards it played, the marriages it declared and the
exchange it made, and each weighted by how likely its moves are under a model of the opponent:
the rule-of-thumb player (:func:`taas.envs.mariage.rollout_player._choose`, the heuristic's
rules), whose move it plays with probability ``1 - EPS`` and any other move with ``EPS``.

- A guess that lacks a card the opponent plays (or a marriage partner, or the trump 7 it
  exchanges) is repaired: one of its free cards is swapped for the missing one, and the deal
  is replayed on the repaired guess to score it again.
- When the weights degenerate (effective sample size below half), the guesses are resampled
  and every copy after the first gets ``REJUVENATE`` Metropolis moves (a card of the dealt hand
  swapped for an unplaced unseen card), so copies spread out again.
- A world is dealt from a guess drawn by weight: its opponent hand, the talon from the rest at
  random. A guess that contradicts the table falls back to a uniform world.

``EPS`` keeps a hand from being ruled out when the opponent plays otherwise than the model (a
person, a learned player): the filter then weighs it less, never to zero. Every guess is built
from what the seat saw (its own dealt hand and draws, the public moves and the indicator), so
the worlds never use a card the seat could not know. Measured in ``docs/agents.md``.
"""

from __future__ import annotations

import math

import numpy as np

from taas.envs.mariage.actions import EXCHANGE, MARRY, NUM_CARDS
from taas.envs.mariage.determinize import determinize as uniform
from taas.envs.mariage.determinize import unseen
from taas.envs.mariage.rollout_player import _cards, _choose
from taas.envs.mariage.rules import _BIT, _PAIR, _SEVEN, FOLLOW, TRICKS, MariageGame, MariageState

PARTICLES = 300
EPS = 0.02
REJUVENATE = 1
REPAIRS = 4  # swaps tried on one guess before it is dropped (8 times as many on a restart)
_OK, _MISS = math.log(1 - EPS), math.log(EPS)
_ALL = (1 << NUM_CARDS) - 1


class _Guess:
    """One hidden history: the opponent's dealt hand and hidden draws, the deal replayed on it
    as far as the filter has read (``world``), and its log-likelihood (``ll``; ``ref`` is its
    value at the last resampling, so the weight is ``exp(ll - ref)``)."""

    __slots__ = ("dealt", "draws", "ll", "mine", "ref", "theirs", "world")

    def __init__(self, dealt: list[int], draws: list[int]):
        self.dealt, self.draws = dealt, draws
        self.ll = self.ref = 0.0
        self.world: MariageState | None = None
        self.mine = self.theirs = 0  # draws consumed so far: the seat's, the guess's

    def placed(self) -> int:
        m = 0
        for c in self.dealt:
            m |= _BIT[c]
        for c in self.draws:
            m |= _BIT[c]
        return m


class Inference:
    """A seat's filter over one deal at a time (PIMC builds one per agent): :meth:`sampler`
    reads the moves made since its last call and returns the determinizer for this decision."""

    def __init__(self, particles: int = PARTICLES):
        self.particles = particles
        self.key = None

    def sampler(self, game: MariageGame, state: MariageState, player: int,
                rng: np.random.Generator):
        """A ``determinize(game, state, player, rng)`` drawing worlds from the updated filter."""
        key = (state.seed, state.deal_no, player, state.dealt[player])
        if key != self.key or state.moves[:len(self.read)] != self.read:
            self._start(state, player, rng)
            self.key = key
        self._update(game, state, rng)
        if not self.guesses:
            return uniform
        weights = np.exp(np.array([g.ll - g.ref for g in self.guesses]))
        return Posterior([g.world.hands[1 - player] for g in self.guesses],
                         np.cumsum(weights / weights.sum()))

    # ---- the filter ------------------------------------------------------------------------
    def _start(self, state: MariageState, me: int, rng: np.random.Generator) -> None:
        self.me, self.read = me, []
        self.seen = state.dealt[me] | _BIT[state.indicator]  # grows with the seat's draws
        for c in state.drawn[me]:
            self.seen |= _BIT[c]
        pool = _cards(_ALL & ~self.seen)
        self.guesses = []
        for _ in range(self.particles):
            g = _Guess([pool[i] for i in rng.choice(len(pool), 6, replace=False)], [])
            g.world = self._fresh(state, g)
            self.guesses.append(g)

    def _fresh(self, state: MariageState, g: _Guess) -> MariageState:
        """The deal as dealt under guess ``g``: the talon holds the indicator and placeholders
        (the replay sets each drawn card as it is drawn)."""
        w = state.clone()
        hands = [0, 0]
        hands[self.me] = state.dealt[self.me]
        hands[1 - self.me] = sum(_BIT[c] for c in g.dealt)
        MariageGame._setup(w, hands, [state.indicator] + [-1] * (NUM_CARDS - 13), state.trump)
        g.mine = g.theirs = 0
        g.ll = 0.0
        return w

    def _update(self, game: MariageGame, state: MariageState, rng: np.random.Generator,
                restart: bool = False) -> None:
        for c in state.drawn[self.me]:
            self.seen |= _BIT[c]
        if len(self.read) == len(state.moves):
            return
        self.mine_draws = state.drawn[self.me]
        kept = []
        for g in self.guesses:
            if self._advance(game, state, g, rng, REPAIRS * 8 if restart else REPAIRS):
                kept.append(g)
        self.read = list(state.moves)
        if not kept and not restart:  # nothing explains the moves: start again from here
            self._start(state, self.me, rng)
            self._update(game, state, rng, restart=True)
            return
        if not kept:  # still nothing (a suit shown void in every guess): uniform worlds
            self.guesses = []
            return
        self.guesses = kept
        self._resample(game, state, rng)

    def _advance(self, game, state, g: _Guess, rng, repairs: int) -> bool:
        """Replay ``g`` up to the present, repairing it when it lacks a card it must hold or
        holds one the seat has since drawn."""
        clash = g.placed() & self.seen
        if clash:
            free = _cards(_ALL & ~self.seen & ~g.placed())
            swap = dict(zip(_cards(clash), (free[i] for i in rng.permutation(len(free))),
                            strict=False))
            g.dealt = [swap.get(c, c) for c in g.dealt]
            g.draws = [swap.get(c, c) for c in g.draws]
            g.world = self._fresh(state, g)
        for _ in range(repairs + 1):
            missing = self._replay(game, state, g, rng)
            if missing is None:
                return True
            if missing[0] < 0 or not self._swap_in(g, *missing, rng):
                return False
            g.world = self._fresh(state, g)
        return False

    def _replay(self, game, state, g: _Guess, rng) -> tuple[int, int] | None:
        """Apply the moves ``g.world`` has not seen. None when all fit; else the card the
        opponent needed and lacked with every card that move needs (a mask), or (-1, 0) for a
        move the guess makes illegal (a suit it showed void in)."""
        w, o, cfg = g.world, 1 - self.me, game.config
        for a in state.moves[len(w.moves):]:
            if w.to_move == o:
                needs = _needs(w, a)
                for c in needs:
                    if not w.hands[o] >> c & 1:
                        return c, sum(_BIT[x] for x in needs)
                if not game._legal_mask(w)[a]:
                    return -1, 0
                g.ll += _OK if _choose(cfg, w) == a else _MISS
            if w.phase == FOLLOW and w.closed_by < 0 and w.talon:
                self._set_draws(w, a, g, rng)
            game._apply(w, a)
            w.mask = None
        return None

    def _set_draws(self, w: MariageState, follow: int, g: _Guess, rng) -> None:
        """Put the two cards this trick's players draw on top of ``w``'s talon: the seat's
        own (it saw them), and the guess's (extended at random from the unplaced cards)."""
        winner = w.to_move if TRICKS.follower_wins(w.lead, follow, w.trump) else 1 - w.to_move
        order = (winner, 1 - winner) if len(w.talon) > 2 else (winner,)  # then the indicator
        for k, p in enumerate(order):
            if p == self.me:
                c = self.mine_draws[g.mine]
                g.mine += 1
            else:
                if g.theirs == len(g.draws):
                    free = _cards(_ALL & ~self.seen & ~g.placed())
                    g.draws.append(free[int(rng.integers(len(free)))])
                c = g.draws[g.theirs]
                g.theirs += 1
            w.talon[-1 - k] = c
        if len(w.talon) == 2 and order[0] != self.me:
            g.mine += 1  # the seat takes the face-up indicator last

    def _swap_in(self, g: _Guess, card: int, needed: int, rng) -> bool:
        """Give the opponent ``card`` in place of a free card of its hand at that point (not
        one it has shown, nor another card the same move needs)."""
        w = g.world
        o = 1 - self.me
        if g.placed() >> card & 1 or self.seen >> card & 1:
            return False
        free = _cards(w.hands[o] & ~w.known[o] & g.placed() & ~needed)
        if not free:
            return False
        y = free[int(rng.integers(len(free)))]
        g.dealt = [card if c == y else c for c in g.dealt]
        g.draws = [card if c == y else c for c in g.draws]
        return True

    def _resample(self, game, state, rng) -> None:
        ll = np.array([g.ll - g.ref for g in self.guesses])
        w = np.exp(ll - ll.max())
        w /= w.sum()
        if 1 / (w ** 2).sum() >= self.particles / 2 and len(self.guesses) == self.particles:
            return
        picks = rng.choice(len(self.guesses), self.particles, p=w)
        out, taken = [], set()
        for i in picks:
            src = self.guesses[i]
            g = _Guess(list(src.dealt), list(src.draws))
            g.ll, g.world, g.mine, g.theirs = src.ll, src.world.clone(), src.mine, src.theirs
            if i in taken:
                self._rejuvenate(game, state, g, rng)
            taken.add(i)
            g.ref = g.ll
            out.append(g)
        self.guesses = out

    def _rejuvenate(self, game, state, g: _Guess, rng) -> None:
        for _ in range(REJUVENATE):
            free = _cards(_ALL & ~self.seen & ~g.placed())
            if not free:
                return
            trial = _Guess(list(g.dealt), list(g.draws))
            trial.dealt[int(rng.integers(6))] = free[int(rng.integers(len(free)))]
            trial.world = self._fresh(state, trial)
            if self._replay(game, state, trial, rng) is None and \
                    math.log(rng.random() + 1e-300) < trial.ll - g.ll:
                g.dealt, g.draws, g.world, g.ll = trial.dealt, trial.draws, trial.world, trial.ll
                g.mine, g.theirs = trial.mine, trial.theirs


class Posterior:
    """The filter's worlds for one decision, a determinizer: the opponent holds ``hands[i]``
    with the weight ``cum[i] - cum[i - 1]`` (the compiled world loop reads both)."""

    def __init__(self, hands: list[int], cum: np.ndarray):
        self.hands, self.cum = hands, cum

    def __call__(self, game: MariageGame, state: MariageState, player: int,
                 rng: np.random.Generator) -> MariageState:
        hand = self.hands[int(np.searchsorted(self.cum, rng.random()))]
        return _world(game, state, player, hand, rng)


def _needs(w: MariageState, action: int) -> list[int]:
    """The cards a move shows its player held."""
    if action < MARRY:
        return [action]
    if action < EXCHANGE:
        return _cards(_PAIR[action - MARRY])
    if action == EXCHANGE:
        return [_SEVEN[w.trump]]
    return []


def fits(state: MariageState, player: int, hand: int, pool: int) -> bool:
    """Whether ``player``'s opponent may hold ``hand`` as far as the seat knows: as many cards
    as it holds, its known cards, none of a suit it showed void in, nothing else outside
    ``pool`` (the seat's :func:`unseen` cards)."""
    o = 1 - player
    known = state.known[o]
    return (hand.bit_count() == state.hands[o].bit_count() and not known & ~hand
            and not state.voids[o] & hand and not hand & ~(pool | known))


def _world(game: MariageGame, state: MariageState, player: int, hand: int,
           rng: np.random.Generator) -> MariageState:
    """``state`` with the opponent holding ``hand`` and the talon dealt from the rest, or a
    uniform world if ``hand`` contradicts what the seat knows."""
    o = 1 - player
    pool = unseen(state, player)
    if not fits(state, player, hand, pool):
        return uniform(game, state, player, rng)
    s = state.clone()
    s.hands[o] = hand
    if state.talon:
        rest = _cards(pool & ~hand)
        s.talon = [state.talon[0]] + [rest[i] for i in rng.permutation(len(rest))]
    s.mask = None
    return s
