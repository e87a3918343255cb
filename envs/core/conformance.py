"""Engine conformance checker reusable by every game's tests.

Random legal play from several seeds, asserting at every step that
- cards are conserved (the engine's zones always sum to its shoe),
- the legal mask is exact: every masked-in action is accepted, and every masked-out action is
  rejected with ``ValueError`` leaving the state unchanged,
- the observer returns a finite vector of the declared size inside the declared bounds,
- the episode terminates within ``max_steps``,
- the same seed and actions replay the same trajectory (observations, masks, returns).
"""

from __future__ import annotations

import pickle

import numpy as np
from taas.envs.core.game import Game, Observer


def check_game(
    game: Game,
    observer: Observer,
    seeds: range | list[int] = range(3),
    max_steps: int = 20_000,
    exhaustive_every: int = 7,
) -> None:
    """Run the checks above; ``exhaustive_every`` tries every illegal action on every n-th step
    (each try clones the state, so checking all of them every step would be slow)."""
    for seed in seeds:
        trace = _play(game, observer, seed, max_steps, exhaustive_every)
        assert trace == _play(game, observer, seed, max_steps, 0), (
            f"seed {seed}: same seed and actions gave a different trajectory"
        )


def _play(game: Game, observer: Observer, seed: int, max_steps: int, every: int) -> list:
    rng = np.random.default_rng(seed)
    state = game.new_state(np.random.default_rng(seed))
    trace = []
    for step in range(max_steps + 1):
        _check_cards(game, state, step)
        returns = game.returns(state)
        if game.is_terminal(state):
            assert game.current_player(state) == -1
            assert not game.legal_mask(state).any(), "terminal state with legal actions"
            trace.append(("end", returns.tolist(), game.is_truncated(state)))
            return trace
        assert step < max_steps, f"seed {seed}: no end after {max_steps} steps"
        player = game.current_player(state)
        mask = game.legal_mask(state).copy()
        assert mask.shape == (game.num_actions,) and mask.dtype == np.int8
        assert mask.any(), f"seed {seed} step {step}: no legal action for player {player}"
        obs = [observer.encode(state, p) for p in range(game.num_players)]
        for o in obs:
            assert o.shape == (observer.size,) and o.dtype == np.float32
            assert np.isfinite(o).all()
            assert (o >= observer.low).all() and (o <= observer.high).all(), (
                f"observation outside its bounds at {_where(observer, o)}"
            )
        if every and step % every == 0:
            _check_mask_exact(game, state, mask)
        action = int(rng.choice(np.flatnonzero(mask)))
        trace.append(
            (player, action, mask.tobytes(), b"".join(o.tobytes() for o in obs), returns.tolist())
        )
        game.apply_action(state, action)
    raise AssertionError("unreachable")


def _check_cards(game: Game, state, step: int) -> None:
    zones = game.zones(state)
    total = sum(zones.values())
    for name, z in zones.items():
        assert (z >= 0).all(), f"step {step}: negative count in zone {name}"
    assert np.array_equal(total, game.shoe(state)), f"step {step}: cards not conserved"


def _check_mask_exact(game: Game, state, mask: np.ndarray) -> None:
    before = pickle.dumps(state)
    for action in range(game.num_actions):
        trial = state.clone()
        if mask[action]:
            game.apply_action(trial, action)
            continue
        # a clone's own bytes (a copied generator pickles its seed differently)
        ref = pickle.dumps(trial)
        try:
            game.apply_action(trial, action)
        except ValueError:
            assert pickle.dumps(trial) == ref, (
                f"rejected {game.action_to_str(action)} changed the state"
            )
        else:
            raise AssertionError(f"masked-out {game.action_to_str(action)} was accepted")
    assert pickle.dumps(state) == before, "the checks changed the original state"


def _where(observer: Observer, obs: np.ndarray) -> list[str]:
    bad = np.flatnonzero((obs < observer.low) | (obs > observer.high))
    return [n for n, s in observer.layout.items() if any(s.start <= i < s.stop for i in bad)]


def scramble_hidden(hands: np.ndarray, stock: list[int], observer: int, rng, seats=None) -> None:
    """For information-leak tests: exchange up to five cards between each other seat's hand
    (count vectors, in place) and the stock, then shuffle the stock. Everything the observer
    cannot see changes; everything public (hand sizes included) stays."""
    for p in range(len(hands)) if seats is None else seats:
        if p == observer:
            continue
        held = np.repeat(np.arange(len(hands[p])), hands[p]).tolist()
        for i in rng.choice(len(held), size=min(5, len(held), len(stock)), replace=False):
            j = int(rng.integers(len(stock)))
            hands[p, held[i]] -= 1
            hands[p, stock[j]] += 1
            held[i], stock[j] = stock[j], held[i]
    rng.shuffle(stock)
