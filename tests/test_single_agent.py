"""The single-agent Gymnasium view used for training."""

import numpy as np
import pytest
import taas.agents


def test_observations_stay_in_the_declared_space():
    # gymnasium's check_env steps unmasked random actions, which a masked env rejects by design
    env = taas.agents.single_agent_env("continental_v1", seed=0)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info == {}
    for _ in range(200):
        obs, reward, *_ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
        assert env.observation_space.contains(obs) and isinstance(reward, float)


@pytest.mark.parametrize("seat", [0, 2, None])
def test_learner_sees_only_its_turns_and_gets_its_rewards(seat):
    env = taas.agents.single_agent_env("continental_v1", opponents="greedy", seat=seat, seed=1)
    rng = np.random.default_rng(0)
    for episode in range(3):
        env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            assert mask.any() and env.game.current_player(env.state) == env.seat
            _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            total += reward
            done = terminated or truncated
        assert total == env.game.returns(env.state)[env.seat]
        assert not env.action_masks().any()
        assert "totals" in info
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_same_seed_same_episode():
    def rollout():
        env = taas.agents.single_agent_env("continental_v1", opponents="random", seat=None, seed=3)
        obs, _ = env.reset(seed=9)
        trace = [env.seat, obs.tobytes()]
        for _ in range(30):
            obs, *_ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            trace.append(obs.tobytes())
        return trace

    assert rollout() == rollout()


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="2 opponents for a 4-player game"):
        taas.agents.single_agent_env("continental_v1", opponents=["random", "random"])
    with pytest.raises(ValueError, match="seat 7"):
        taas.agents.single_agent_env("continental_v1", seat=7)
    env = taas.agents.single_agent_env("continental_v1", seed=0)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action"):
        env.step(108)
