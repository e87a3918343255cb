"""The engine contract every game shares (``envs/core/game.py``, ``aec.py``, ``config.py``):
cheap independent clones, a read-only cached mask, bad input rejected with a clear error, and
infos that are current at every step. Each test runs over every registered env."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field, fields
from types import SimpleNamespace

import numpy as np
import pytest

import taas.envs
import taas.envs.core.game as game_module
from taas.envs.core.game import State

ENVS = taas.envs.available_envs()


def _raw(env_id: str, **rules):
    return taas.envs.make(env_id, wrapped=False, **rules)


def _mid_round(env_id: str, steps: int = 12, seed: int = 3):
    """A raw env a few random steps into its first round (avoiding steps that end it, such as
    Mariage's false claims)."""
    env = _raw(env_id)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    game = env.game
    for _ in range(steps):
        for action in rng.permutation(np.flatnonzero(game.legal_mask(env.state))):
            trial = env.state.clone()
            game.apply_action(trial, int(action))
            if not game.is_terminal(trial):
                env.step(int(action))
                break
    return env


# ---- clone ---------------------------------------------------------------------------------
@dataclass
class _Toy(State):
    counts: np.ndarray
    rng: np.random.Generator
    stock: list = field(default_factory=list)
    melds: list = field(default_factory=list)
    scores: dict = field(default_factory=dict)
    turn: int = 0


def test_base_clone_copies_every_mutable_field_without_deepcopy(monkeypatch):
    toy = _Toy(np.arange(4), np.random.default_rng(1), [1, 2], [[3, 4], [5]], {0: [1]}, 7)
    toy.mask = np.ones(3, np.int8)

    def no_deepcopy(*args, **kwargs):
        raise AssertionError("State.clone used deepcopy")

    monkeypatch.setattr(game_module, "copy", SimpleNamespace(deepcopy=no_deepcopy))
    twin = toy.clone()
    assert type(twin) is _Toy and twin.turn == 7 and twin.mask is toy.mask
    twin.counts[0] = 9
    twin.stock.append(3)
    twin.melds[0].append(6)
    twin.scores[0].append(2)
    assert toy.counts[0] == 0 and toy.stock == [1, 2] and toy.melds == [[3, 4], [5]]
    assert toy.scores == {0: [1]}
    assert twin.rng.integers(10**9) == toy.rng.integers(10**9)  # same stream, own position
    assert twin.rng is not toy.rng


@pytest.mark.parametrize("env_id", ENVS)
def test_search_applies_on_a_clone_without_touching_the_original(env_id):
    env = _mid_round(env_id)
    game, state = env.game, env.state
    legal = np.flatnonzero(game.legal_mask(state))
    before = pickle.dumps(state)
    for action in legal[:5]:
        trial = state.clone()
        game.apply_action(trial, int(action))
        # play the clone on: reshuffles, round ends and cache rebuilds all stay on the clone
        rng = np.random.default_rng(int(action))
        for _ in range(30):
            if game.is_terminal(trial):
                break
            game.apply_action(trial, int(rng.choice(np.flatnonzero(game.legal_mask(trial)))))
        assert pickle.dumps(state) == before
    env.step(int(legal[0]))  # the original still plays


@pytest.mark.parametrize("env_id", ENVS)
def test_a_clone_plays_on_exactly_like_its_original(env_id):
    """Same actions, same future: the clone's generator continues the original's stream
    (reshuffles), and nothing the two share changes under either."""
    env = _mid_round(env_id)
    game, observer, state = env.game, env.observer, env.state
    twin = state.clone()
    rng = np.random.default_rng(0)
    for _ in range(300):
        if game.is_terminal(state):
            break
        mask = game.legal_mask(state)
        assert np.array_equal(mask, game.legal_mask(twin))
        for p in range(game.num_players):
            assert np.array_equal(observer.encode(state, p), observer.encode(twin, p))
        action = int(rng.choice(np.flatnonzero(mask)))
        game.apply_action(state, action)
        game.apply_action(twin, action)
    assert game.is_terminal(twin) == game.is_terminal(state)
    assert np.array_equal(game.returns(state), game.returns(twin))


@pytest.mark.parametrize("env_id", ENVS)
def test_the_cached_mask_is_read_only(env_id):
    env = _mid_round(env_id)
    game, state = env.game, env.state
    mask = game.legal_mask(state)
    before = mask.copy()
    with pytest.raises(ValueError, match="read-only"):
        mask[:] = 1
    handed_out = env.observe(env.agent_selection)["action_mask"]
    handed_out[:] = 1  # the env hands out a copy: the agent may edit it
    assert np.array_equal(game.legal_mask(state), before)


# ---- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENVS)
@pytest.mark.parametrize("wrapped", [False, True])
@pytest.mark.parametrize("bad", [True, False, np.True_, 0.0, 1.0, np.float64(2.0), "1", [1]])
def test_bool_float_and_other_non_integers_are_not_actions(env_id, wrapped, bad):
    env = taas.envs.make(env_id, wrapped=wrapped)
    env.reset(seed=1)
    before = pickle.dumps(env.state)
    with pytest.raises(ValueError, match=r"is not an action id 0\.\."):
        env.step(bad)
    assert pickle.dumps(env.state) == before
    assert not any(env.terminations.values())


@pytest.mark.parametrize("env_id", ENVS)
def test_numpy_integer_actions_are_accepted(env_id):
    env = _raw(env_id)
    env.reset(seed=1)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    env.step(legal[0])  # np.int64
    env.step(np.array(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))


@pytest.mark.parametrize("env_id", ENVS)
@pytest.mark.parametrize("seed", [-1, 1.5, "a", True, [1, 2]])
def test_bad_seeds_raise(env_id, seed):
    env = _raw(env_id)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=seed)


@pytest.mark.parametrize("env_id", ENVS)
def test_numpy_seeds_are_seeds(env_id):
    a, b = _raw(env_id), _raw(env_id)
    a.reset(seed=np.int64(5))
    b.reset(seed=5)
    assert pickle.dumps(a.state) == pickle.dumps(b.state)


def _int_fields(env_id: str):
    cfg = _raw(env_id).game.config
    return [f.name for f in fields(cfg) if type(getattr(cfg, f.name)) is int]


@pytest.mark.parametrize("env_id", ENVS)
def test_config_ints_accept_numpy_integers_but_not_bools(env_id):
    names = _int_fields(env_id)
    default = _raw(env_id).game.config
    for name in names:
        value = getattr(default, name)
        config = _raw(env_id, **{name: np.int64(value)}).game.config
        assert type(getattr(config, name)) is int and config == default
        with pytest.raises(ValueError, match=name):
            _raw(env_id, **{name: True})


def test_mariage_config_takes_numpy_integers_directly():
    from taas.envs.mariage.config import Config

    config = Config(false_claim_points=np.int64(3), last_trick_bonus=np.True_)
    assert config == Config(false_claim_points=3, last_trick_bonus=True)
    assert type(config.false_claim_points) is int and type(config.last_trick_bonus) is bool


@pytest.mark.parametrize("game", ["continental", "marriage", "romme", "marriage_nepali"])
def test_every_config_built_directly_takes_numpy_integers(game):
    import importlib

    Config = importlib.import_module(f"taas.envs.{game}.config").Config
    config = Config(num_players=np.int64(3))
    assert config == Config(num_players=3) and type(config.num_players) is int


@pytest.mark.parametrize("env_id", ENVS)
def test_using_the_env_before_reset_is_a_clear_error(env_id):
    env = _raw(env_id)
    with pytest.raises(RuntimeError, match="reset"):
        env.last()
    with pytest.raises(RuntimeError, match="reset"):
        env.observe("player_0")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("env_id", ENVS)
def test_a_step_for_an_agent_that_is_not_the_movers_raises(env_id):
    env = _raw(env_id)
    env.reset(seed=2)
    mover = env.agent_selection
    legal = int(np.flatnonzero(env.observe(mover)["action_mask"])[0])
    before = pickle.dumps(env.state)
    env.agent_selection = next(a for a in env.agents if a != mover)
    with pytest.raises(ValueError, match="turn"):
        env.step(legal)
    assert pickle.dumps(env.state) == before


# ---- info ----------------------------------------------------------------------------------
@pytest.mark.parametrize("env_id", ENVS)
def test_infos_are_current_at_every_step(env_id):
    env = _raw(env_id)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for agent in env.agent_iter(max_iter=400):
        _, _, term, trunc, info = env.last()
        assert info == env.game.info(env.state, env._index[agent])
        if term or trunc:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


def test_clone_benchmark_runs_on_every_engine(tmp_path):
    from taas.benchmarks.clone import main

    out = tmp_path / "clone.json"
    result = main(["--states", "1", "--moves", "4", "--reps", "1", "--slice", "0.01",
                   "--out", str(out)])
    assert [r["env"] for r in result["rows"]] == ENVS
    assert all(r["clone_us"] > 0 and r["step_us"] > 0 for r in result["rows"])
    assert out.exists()


@pytest.mark.parametrize("old", ["continental_v0", "mariage_v0", "marriage_v0", "romme_v0"])
def test_a_retired_id_names_its_successor(old):
    new = old.replace("_v0", "_v1")
    with pytest.raises(ValueError, match=f"{old} is retired: use {new}"):
        taas.envs.make(old)
    assert new in taas.envs.available_envs() and old not in taas.envs.available_envs()
