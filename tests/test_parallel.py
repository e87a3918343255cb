"""The padded Parallel view (:mod:`taas.envs.core.parallel`): PettingZoo's parallel API test for
every env, the same episodes as the AEC env seat for seat, and the multi-agent libraries that
drive it (TorchRL's ``PettingZooWrapper``, SuperSuit's vectorization) where they are installed."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

import taas.envs
from taas.envs.core.parallel import padded_parallel_env

CASES = [
    ("mariage_v1", {}),
    ("mariage_v1", {"episode": "match"}),
    ("continental_v1", {"num_players": 5, "max_turns_per_round": 10}),
    ("marriage_v1", {"num_players": 3, "max_turns_per_round": 10}),
    ("marriage_nepali_v0", {"num_players": 4, "max_turns_per_round": 10}),
    ("romme_v1", {"num_players": 2, "max_turns_per_round": 10}),
]


@pytest.mark.parametrize(("env_id", "rules"), CASES)
def test_parallel_api_test_passes(env_id, rules):
    parallel_api_test(padded_parallel_env(env_id, **rules), num_cycles=200)


def test_a_numpy_integer_seed_deals_as_the_int_does():
    """As the AEC env (tests/core/test_aec_edges.py): NumPy alone rejects a 0-d array seed."""
    plain = padded_parallel_env("mariage_v1").reset(seed=5)[0]
    for seed in (np.int64(5), np.array(5)):
        obs = padded_parallel_env("mariage_v1").reset(seed=seed)[0]
        for agent, o in plain.items():
            np.testing.assert_array_equal(obs[agent]["observation"], o["observation"])


@pytest.mark.parametrize(("env_id", "rules"), CASES)
def test_every_seat_sees_what_the_aec_env_shows_it(env_id, rules):
    par, aec = padded_parallel_env(env_id, **rules), taas.envs.make(env_id, **rules)
    obs, _ = par.reset(seed=3)
    aec.reset(seed=3)
    rng, episodes = np.random.default_rng(0), 0
    for _ in range(150):
        mover = aec.agent_selection
        for agent in aec.possible_agents:
            shown = aec.observe(agent)
            np.testing.assert_array_equal(obs[agent]["observation"], shown["observation"],
                                          strict=True)
            np.testing.assert_array_equal(obs[agent]["action_mask"], shown["action_mask"],
                                          strict=True)
            assert obs[agent]["is_acting"].tolist() == [agent == mover]
        action = int(rng.choice(np.flatnonzero(obs[mover]["action_mask"])))
        # the idle seats' actions are ignored, whatever they are
        actions = {a: (action if a == mover else 10**6) for a in par.possible_agents}
        obs, rewards, terminations, truncations, _ = par.step(actions)
        aec.step(action)
        assert rewards == aec.rewards
        assert terminations == aec.terminations and truncations == aec.truncations
        if any(terminations.values()) or any(truncations.values()):
            assert par.agents == [] and all(not o["is_acting"][0] for o in obs.values())
            assert all(not o["action_mask"].any() for o in obs.values())
            episodes += 1
            obs, _ = par.reset()
            aec.reset()
    assert episodes >= 1


def test_bad_steps_are_one_line_errors():
    env = padded_parallel_env("mariage_v1")
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})
    obs, _ = env.reset(seed=0)
    mover = next(a for a, o in obs.items() if o["is_acting"][0])
    with pytest.raises(ValueError, match=f"{mover} is to act, but actions has no entry"):
        env.step({a: 0 for a in env.agents if a != mover})
    illegal = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        env.step({mover: illegal})
    with pytest.raises(ValueError, match="render_mode"):
        padded_parallel_env("mariage_v1", render_mode="human")


@pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL is tested using version")
def test_torchrl_drives_it():
    pytest.importorskip("torchrl", reason="torchrl not installed: pip install torchrl")
    import torch
    from tensordict.nn import TensorDictModule
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper

    env = PettingZooWrapper(padded_parallel_env("mariage_v1"), categorical_actions=True, seed=0)
    assert env.group_map == {"player": ["player_0", "player_1"]}

    def act(mask: torch.Tensor, is_acting: torch.Tensor) -> torch.Tensor:
        """A uniform legal move for the mover; an idle seat may send any action."""
        allowed = mask | ~is_acting.bool()
        return torch.distributions.Categorical(
            logits=torch.where(allowed, 0.0, -torch.inf)).sample()

    policy = TensorDictModule(act, in_keys=[("player", "action_mask"),
                                            ("player", "observation", "is_acting")],
                              out_keys=[("player", "action")])
    torch.manual_seed(0)
    td = env.rollout(120, policy=policy, break_when_any_done=False)
    assert td["player", "observation", "observation"].shape == (120, 2, 260)
    assert (td["player", "observation", "is_acting"].sum(1) == 1).all()  # one mover a step
    rewards = td["next", "player", "reward"]
    assert td["next", "done"].sum() >= 3 and rewards.abs().sum() > 0
    assert (rewards.sum(1) == 0).all()  # Mariage's game points are zero-sum


def test_supersuit_vectorizes_it():
    ss = pytest.importorskip("supersuit", reason="supersuit not installed: pip install supersuit")
    tables = 3
    vec = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(padded_parallel_env(
        "romme_v1", num_players=2, max_turns_per_round=10)), tables, num_cpus=0,
        base_class="gymnasium")
    obs, _ = vec.reset(seed=0)
    rng, ends = np.random.default_rng(0), 0
    for _ in range(100):
        assert obs["observation"].shape == (2 * tables, vec.observation_space[
            "observation"].shape[0])
        acting = obs["is_acting"][:, 0].reshape(tables, 2)
        assert (acting.sum(1) == 1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0
                            for m in obs["action_mask"]])
        obs, _, terminated, truncated, _ = vec.step(actions)
        ends += int((terminated | truncated).sum())
    assert ends >= 2 * tables  # every seat of a table ends together
