"""Perfect-information Monte Carlo (``pimc:N``, ``pimc:0.2s``): judge every move in dealt worlds.

For each decision the search deals N determinizations of what its seat cannot see (the game's
determinizer, which its spec names), scores every legal move in every one of them and plays the
move with the best mean value. All moves meet the same worlds, and in a world the same random
numbers (the generator is rewound between moves): common random numbers, so the moves'
differences are measured with far less noise than their values. ``pimc:0.2s`` deals worlds
until 0.2 s have passed.

A move is scored in a world by playing the episode out after it with the determinizer
module's ``playout`` (Mariage: its rule-of-thumb player to the end of the deal, scored by the
deal's game points), else as ``ismcts`` plays on: the ``rollout`` policy (random moves by
default) for ``ROLLOUT_DEPTH`` moves, scored by ``evaluate``. A game may also answer a position
outright (its module's ``pimc_exact``, else its ``exact`` as for ``ismcts``; Mariage's
``pimc_exact`` is None: its worlds judge the closed phase and the end too). Equal means go to
the highest action id (in Mariage a claim, which never does worse than playing on). PIMC is
known to be strong in trick-taking games (Long et al., 2010; Wisser, 2015, for Schnapsen); its
flaw is that in each world both sides play as if they saw the cards (strategy fusion), which a
playout player that reads only its own seat's view (Mariage's) avoids after the first move.

A game's determinizer module may also offer ``worlds``, the same loop over worlds compiled
(Mariage: :mod:`taas.envs.mariage.playout_kernel`, some sixty times the worlds a second); it
answers None where it does not apply, and the Python loop runs. It may also offer
``Inference`` (Mariage: a particle filter over the opponent's hidden cards, weighed by how its
moves fit a model of the opponent), a per-agent object whose ``sampler`` deals each decision's
worlds in place of ``determinize``.

Like ``ismcts`` it reads the engine state, and the true state only through the determinizer.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from taas.agents.search.ismcts import (
    Budget,
    Determinizer,
    Evaluator,
    Exact,
    Playout,
    Policy,
    SearchAgent,
    _Simulations,
    determinizer,
    parse_budget,
    random_policy,
)
from taas.envs.core.game import Game, State

DEFAULT_WORLDS = 100


class PIMC(_Simulations):
    """The search itself, independent of any agent protocol (tests and notebooks call it).
    ``simulations`` counts worlds."""

    def __init__(self, determinize: Determinizer, evaluate: Evaluator | None = None,
                 rollout: Policy = random_policy, rollout_depth: int = 20,
                 exact: Exact | None = None, playout: Playout | None = None,
                 inference=None, worlds=None):
        super().__init__(determinize, evaluate, rollout, rollout_depth)
        self.exact = exact
        self.playout = playout
        self.inference = inference
        self.worlds = worlds

    def search(self, game: Game, state: State, player: int, rng: np.random.Generator,
               simulations: int | None = None, seconds: float | None = None) -> int:
        """The action for ``player`` (who must be to move in ``state``)."""
        self._check_mover(game, state, player)
        moves = np.flatnonzero(game.legal_mask(state)).tolist()
        self.simulations = 0
        if len(moves) == 1:
            return moves[0]
        within = Budget(simulations, seconds)  # the inference's time counts against it
        deal = (self.determinize if self.inference is None
                else self.inference.sampler(game, state, player, rng))
        if self.exact is not None:
            move = self.exact(game, state, player, rng, deal)
            if move is not None:
                return int(move)
        compiled = self.worlds and self.worlds(game, state, player, moves, deal, within, rng)
        if compiled:
            totals, n = compiled
        else:
            totals = np.zeros(len(moves))
            n = 0
            while within(n):
                world = deal(game, state, player, rng)
                totals += self.move_values(game, world, player, moves, rng)
                n += 1
        self.simulations = n
        best = totals.max()
        return max(m for m, t in zip(moves, totals, strict=True) if t == best)

    def move_values(self, game: Game, world: State, player: int, moves: Sequence[int],
                    rng: np.random.Generator) -> list[float]:
        """``player``'s return after each of ``moves`` in ``world`` and the episode played out
        from there, each with the same random numbers."""
        start = rng.bit_generator.state
        out = []
        for move in moves:
            rng.bit_generator.state = start
            s = world.clone()
            game.apply_action(s, move)
            if self.playout is not None:
                self.playout(game, s, rng)
            else:
                self._roll_out(game, s, rng)
            out.append(float(self._values(game, s)[player]))
        return out


class PIMCAgent(SearchAgent):
    """``pimc:N`` / ``pimc:0.2s``: perfect-information Monte Carlo over N worlds a decision
    (or as many as fit in the time), scored by the game's hooks (see the module docstring).
    ``pimc:N:infer`` deals the worlds with the game's ``Inference`` (Mariage) instead of
    uniformly."""

    name = "pimc"

    @classmethod
    def build(cls, arg: str | None, env_id: str, seed: int | None, config: dict) -> PIMCAgent:
        budget, _, option = (arg or "").partition(":")
        if option not in ("", "infer"):
            raise ValueError(f"pimc option {option!r}: the only one is 'infer' "
                             "(worlds from the game's inference, not uniform)")
        simulations, seconds = parse_budget(budget or None, default=DEFAULT_WORLDS)
        module = determinizer(env_id)
        inference = getattr(module, "Inference", None) if option else None
        if option and inference is None:
            raise ValueError(f"{env_id} has no inference for pimc:{arg}")
        search = PIMC(module.determinize, getattr(module, "evaluate", None),
                      getattr(module, "rollout", random_policy),
                      getattr(module, "ROLLOUT_DEPTH", 20),
                      getattr(module, "pimc_exact", getattr(module, "exact", None)),
                      getattr(module, "playout", None),
                      inference and inference(), getattr(module, "worlds", None))
        return cls(search, simulations, seconds, seed)
