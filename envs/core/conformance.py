"""Engine conformance checker reusable by every game's tests.

Plays episodes through the one AEC adapter (render mode ``"ansi"``) with a policy per seed:
uniform random by default, or agents that act on the observation, or a function of the engine
state, so that the checker reaches what random play rarely does (scoring, dealer rotation,
tie-breaks, the end of a match). At every step it asserts that
- cards are conserved (the engine's zones always sum to its shoe),
- the legal mask is exact: every masked-in action is accepted, and every masked-out action is
  rejected with ``ValueError`` leaving the state unchanged (every ``exhaustive_every``-th step),
- every agent's observation is a finite vector of the declared size inside the declared
  bounds, which themselves lie within [-1, 1]; the mover's mask is the engine's, the others'
  are zeros,
- ``infos`` are the engine's ``info`` for the current state, and every render (the env's
  ``"ansi"`` text, the engine's with and without suit symbols) is non-empty text,
- the episode terminates within ``max_steps``, and the rewards handed out sum to the returns,
- the same seed and actions replay the same trajectory (observations, masks, returns).
"""

from __future__ import annotations

import contextlib
import pickle
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from taas.envs.core.aec import CardGameEnv
from taas.envs.core.game import Game, Observer, State

Policy = Callable[[State, int, np.ndarray, np.ndarray], int]
"""``(state, player, observation, mask) -> action``. An agent reads only the observation and the
mask; a state policy (for a game with no agent yet) may read the engine state."""

PolicyFactory = Callable[[int], Policy]
"""A fresh policy for an episode seed (agents seeded by it), so every episode replays."""


def random_policy(seed: int) -> Policy:
    """Uniform over the legal actions, from its own generator."""
    rng = np.random.default_rng(seed)
    return lambda state, player, obs, mask: int(rng.choice(np.flatnonzero(mask)))


def agent_policy(agents: Sequence) -> Policy:
    """Seat ``p`` played by ``agents[p]`` (anything with ``act(observation, action_mask)``)."""
    return lambda state, player, obs, mask: int(agents[player].act(obs, mask))


@dataclass
class Summary:
    """What the checked episodes reached: how many ended by the rules, how many were cut by the
    ``max_turns`` limit, and the steps taken."""

    episodes: int = 0
    truncated: int = 0
    steps: int = 0


def check_game(
    game: Game,
    observer: Observer,
    seeds: range | list[int] = range(3),
    max_steps: int = 20_000,
    exhaustive_every: int = 7,
    policy: PolicyFactory = random_policy,
) -> Summary:
    """Run the checks above for each seed, ``policy(seed)`` choosing the actions, and return
    what the episodes reached. ``exhaustive_every``: try every action id on every n-th step
    (the legal ones on clones), as a full sweep each step would dominate the run."""
    _check_bounds(observer)
    summary = Summary()
    for seed in seeds:
        trace, actions = _play(game, observer, seed, max_steps, exhaustive_every, policy(seed))
        assert trace == _replay(game, observer, seed, actions), (
            f"seed {seed}: same seed and actions gave a different trajectory"
        )
        summary.episodes += 1
        summary.truncated += trace[-1][-1]
        summary.steps += len(actions)
    return summary


def play_states(
    game: Game, seed: int, policy: Policy, observer: Observer | None = None,
    max_steps: int = 20_000,
) -> Iterator[State]:
    """The live state before each move of one episode played by ``policy`` (for
    information-leak tests: clone it to scramble the hidden cards; do not change it). The
    policy sees ``observer``'s encoding, or an empty vector for a state policy."""
    state = game.new_state(np.random.default_rng(seed))
    none = np.zeros(0, np.float32)
    for _ in range(max_steps):
        if game.is_terminal(state):
            return
        yield state
        player = game.current_player(state)
        obs = none if observer is None else observer.encode(state, player)
        game.apply_action(state, policy(state, player, obs, game.legal_mask(state)))


def _check_bounds(observer: Observer) -> None:
    low, high = observer.low, observer.high
    assert low.shape == high.shape == (observer.size,) and (low <= high).all()
    assert (low >= -1).all() and (high <= 1).all(), (
        f"declared observation bounds outside [-1, 1] at "
        f"{_where(observer, (low < -1) | (high > 1))}"
    )


def _play(game, observer, seed, max_steps, every, policy) -> tuple[list, list[int]]:
    env = CardGameEnv(game, observer, render_mode="ansi")
    env.reset(seed=seed)
    trace, actions = [], []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    start = game.returns(env.state)
    for step in range(max_steps + 1):
        state = env.state
        _check_cards(game, state, step)
        for name, text in (
            ("ansi", env.render()),
            ("symbols", game.render(state, symbols=True)),
            ("plain", game.render(state, symbols=False)),
        ):
            assert isinstance(text, str) and text, f"step {step}: empty {name} render"
        obs = _observe_all(env, step)
        for agent, i in env._index.items():
            assert env.infos[agent] == game.info(state, i), f"step {step}: stale info of {agent}"
            totals[agent] += env.rewards[agent]
        returns = game.returns(state)
        if game.is_terminal(state):
            assert game.current_player(state) == -1
            assert not game.legal_mask(state).any(), "terminal state with legal actions"
            assert np.allclose(list(totals.values()), returns - start), (
                "the rewards handed out do not sum to the returns"
            )
            trace.append(("end", returns.tolist(), game.is_truncated(state)))
            return trace, actions
        assert step < max_steps, f"seed {seed}: no end after {max_steps} steps"
        player = game.current_player(state)
        mask = game.legal_mask(state)
        assert mask.any(), f"seed {seed} step {step}: no legal action for player {player}"
        if every and step % every == 0:
            _check_mask_exact(game, state, mask)
        action = policy(state, player, obs[player][0], obs[player][1])
        assert mask[action], f"the policy chose illegal {game.action_to_str(action)}"
        trace.append((player, action, mask.tobytes(), *(o.tobytes() for o, _ in obs),
                      returns.tolist()))
        actions.append(action)
        env.step(action)
    raise AssertionError("unreachable")


def _replay(game, observer, seed, actions) -> list:
    """The trace of ``_play`` from the engine alone, fed the recorded actions."""
    state = game.new_state(np.random.default_rng(seed))
    trace = []
    for action in actions:
        mask = game.legal_mask(state)
        obs = [observer.encode(state, p) for p in range(game.num_players)]
        trace.append((game.current_player(state), action, mask.tobytes(),
                      *(o.tobytes() for o in obs), game.returns(state).tolist()))
        game.apply_action(state, action)
    assert game.is_terminal(state), "the recorded actions did not end the episode"
    trace.append(("end", game.returns(state).tolist(), game.is_truncated(state)))
    return trace


def _observe_all(env: CardGameEnv, step: int) -> list[tuple[np.ndarray, np.ndarray]]:
    game, observer, state = env.game, env.observer, env.state
    mover = game.current_player(state)
    out = []
    for agent, p in env._index.items():
        o = env.observe(agent)
        x, m = o["observation"], o["action_mask"]
        assert x.shape == (observer.size,) and x.dtype == np.float32
        assert m.shape == (game.num_actions,) and m.dtype == np.int8
        assert np.isfinite(x).all(), f"step {step}: non-finite observation of {agent}"
        bad = (x < observer.low) | (x > observer.high)
        assert not bad.any(), f"step {step}: observation out of bounds: {_where(observer, bad)}"
        if p == mover:
            assert np.array_equal(m, game.legal_mask(state))
        else:
            assert not m.any(), f"step {step}: {agent} is not to move but has a mask"
        out.append((x, m))
    return out


def _check_cards(game: Game, state, step: int) -> None:
    zones = game.zones(state)
    total = sum(zones.values())
    for name, z in zones.items():
        assert (z >= 0).all(), f"step {step}: negative count in zone {name}"
    assert np.array_equal(total, game.shoe(state)), f"step {step}: cards not conserved"


def _check_mask_exact(game: Game, state, mask: np.ndarray) -> None:
    """Masked-in actions are applied to clones; masked-out ones are tried on the state itself
    (hundreds of clones per step otherwise) and one comparison afterwards shows that none
    changed it; only then are they retried on clones to name the culprit."""
    before = pickle.dumps(state)
    for action in np.flatnonzero(mask).tolist():
        game.apply_action(state.clone(), action)
    for action in np.flatnonzero(mask == 0).tolist():
        try:
            game.apply_action(state, action)
        except ValueError:
            continue
        raise AssertionError(f"masked-out {game.action_to_str(action)} was accepted")
    if pickle.dumps(state) == before:
        return
    original = pickle.loads(before)
    for action in np.flatnonzero(mask == 0).tolist():
        trial = original.clone()
        ref = pickle.dumps(trial)  # a clone's own bytes (a copied generator pickles differently)
        with contextlib.suppress(ValueError):
            game.apply_action(trial, action)
        name = game.action_to_str(action)
        assert pickle.dumps(trial) == ref, f"rejected {name} changed the state"
    raise AssertionError("the mask checks changed the state")


def _where(observer: Observer, bad: np.ndarray) -> list[str]:
    idx = np.flatnonzero(bad)
    return [n for n, s in observer.layout.items() if any(s.start <= i < s.stop for i in idx)]


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
