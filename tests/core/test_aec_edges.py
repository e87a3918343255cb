"""Edges of the AEC adapter: NumPy seeds of any integer form, and a step after the episode."""

import numpy as np
import pytest

import taas.agents
import taas.arena
import taas.envs


def first_observation(env, seed):
    env.reset(seed=seed)
    return env.observe(env.agent_selection)["observation"]


@pytest.mark.parametrize("seed", [np.array(5), np.int64(5), np.uint8(5)])
def test_a_numpy_integer_seed_deals_as_the_int_does(seed):
    env = taas.envs.make("mariage_v1")
    assert np.array_equal(first_observation(env, seed), first_observation(env, 5))
    single = taas.arena.single_agent_env("mariage_v1", seed=seed)
    assert np.array_equal(single.reset()[0],
                          taas.arena.single_agent_env("mariage_v1", seed=5).reset()[0])


@pytest.mark.parametrize("seed", [np.array(True), np.array([5]), np.array(-1), np.array(1.5)])
def test_other_arrays_are_no_seed(seed):
    with pytest.raises(ValueError, match="expected None or a non-negative int"):
        taas.envs.make("mariage_v1").reset(seed=seed)


def test_a_step_after_the_episode_warns_and_changes_nothing(caplog):
    env = taas.envs.make("mariage_v1")
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    while env.agents:
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rewards = dict(env.rewards)
    env.step(0)  # PettingZoo's convention: a warning, no change (it was a KeyError)
    assert env.agents == [] and env.rewards == rewards
    assert "terminated or truncated" in caplog.text
