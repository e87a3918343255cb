"""Batched tables (:mod:`taas.envs.core.vector`) against independent AEC envs.

The exactness property: ``VectorTables(env_id, B, seed=s)`` steps, table for table, as ``B``
raw AEC envs reset with seeds ``s + i`` and reset again (no seed) after every finished
episode, given the same actions: the same mover, bit-identical observation and mask, the same
rewards, ends and returns. Each case runs a few hundred batch steps through several
auto-reset episodes; random play ends rummy rounds by the ``max_turns`` cut, so the heuristic
cases play rounds to a real, scored end.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import taas.agents
import taas.arena
import taas.envs
from taas.envs.core.vector import VectorTables


def _sizes(num_players) -> list:
    return num_players if isinstance(num_players, list) else [num_players]


def _aec_envs(env_id: str, rules: dict, num_players, b: int, seed: int) -> list:
    sizes = _sizes(num_players)
    envs = []
    for i in range(b):
        n = sizes[i % len(sizes)]
        env = taas.envs.make(env_id, wrapped=False, **rules, **({} if n is None else
                                                              {"num_players": n}))
        env.reset(seed=seed + i)
        envs.append(env)
    return envs


def _policy(env_id: str, rules: dict, num_players, b: int, kind: str):
    """``act(i, obs, mask)`` for table ``i``: a seeded random legal move, or the game's
    heuristic (one agent per table; its choice depends only on the observation it is shown,
    which the test asserts equal in both)."""
    if kind == "random":
        rngs = [np.random.default_rng(100 + i) for i in range(b)]
        return lambda i, obs, mask: int(rngs[i].choice(np.flatnonzero(mask)))
    sizes = _sizes(num_players)
    agents = [taas.agents.make(kind, env_id, seed=i, config={
        **rules, **({} if sizes[i % len(sizes)] is None else
                    {"num_players": sizes[i % len(sizes)]})}) for i in range(b)]
    return lambda i, obs, mask: int(agents[i].act(obs.copy(), mask.copy()))


def assert_matches_aec(env_id, rules, num_players, b, steps, kind, seed=11):
    """Step both sides ``steps`` times; return (finished episodes, episodes with nonzero
    returns)."""
    vec = VectorTables(env_id, b, seed=seed, num_players=num_players, **rules)
    vec.reset()
    envs = _aec_envs(env_id, rules, num_players, b, seed)
    act = _policy(env_id, rules, num_players, b, kind)
    episodes = scored = 0
    for _ in range(steps):
        actions = np.zeros(b, np.int64)
        for i, env in enumerate(envs):
            agent = env.agent_selection
            assert vec.player[i] == env.possible_agents.index(agent)
            seen = env.observe(agent)
            np.testing.assert_array_equal(vec.obs[i], seen["observation"], strict=True)
            np.testing.assert_array_equal(vec.mask[i], seen["action_mask"], strict=True)
            actions[i] = act(i, vec.obs[i], vec.mask[i])
        vec.step(actions)
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
            n = env.num_agents
            assert vec.rewards[i, :n].tolist() == [env.rewards[a] for a in env.possible_agents]
            assert not vec.rewards[i, n:].any() and not vec.returns[i, n:].any()
            ended = all(env.terminations.values()) or all(env.truncations.values())
            assert vec.done[i] == ended
            if ended:
                assert vec.truncated[i] == all(env.truncations.values())
                final = env.game.returns(env.state).tolist()
                assert vec.final_returns[i, :n].tolist() == final
                assert vec.final_states[i] is not vec.states[i]
                episodes += 1
                scored += any(final)
                env.reset()
            assert vec.returns[i, :n].tolist() == env.game.returns(env.state).tolist()
    return episodes, scored


# (env id, rules, num_players, tables, batch steps, policy, at least these episodes end)
CASES = [
    ("mariage_v1", {}, None, 5, 200, "random", 30),
    ("mariage_v1", {"episode": "match", "allow_false_claims": False}, None, 2, 300,
     "heuristic", 1),
    ("continental_v1", {"max_turns_per_round": 15}, [3, 5], 4, 200, "random", 12),
    ("continental_v1", {"allow_buying": True}, 4, 2, 150, "greedy", 1),
    ("continental_v1", {"episode": "match", "num_rounds": 2, "max_turns_per_round": 30}, 3, 3,
     150, "random", 2),
    ("marriage_v1", {"max_turns_per_round": 15, "allow_two_players": True}, [2, 4], 4, 200,
     "random", 12),
    ("marriage_v1", {"episode": "match", "num_rounds": 2, "max_turns_per_round": 50}, 3, 2,
     200, "heuristic", 1),
    ("marriage_nepali_v0", {"max_turns_per_round": 15, "max_players": 6}, [2, 6, 4], 3, 200,
     "random", 9),
    ("marriage_nepali_v0", {}, 4, 2, 150, "heuristic", 1),
    ("romme_v1", {"max_turns_per_round": 15}, [2, 3], 4, 200, "random", 12),
    ("romme_v1", {"on_stock_empty": "reshuffle", "episode": "match"}, 2, 2, 200,
     "heuristic", 1),
]


@pytest.mark.parametrize(
    ("env_id", "rules", "num_players", "b", "steps", "kind", "min_episodes"),
    [pytest.param(*c, id=f"{c[0]}-{c[1]}-{c[2]}-{c[5]}") for c in CASES],
)
def test_the_batch_reproduces_independent_aec_envs(env_id, rules, num_players, b, steps,
                                                    kind, min_episodes):
    episodes, scored = assert_matches_aec(env_id, rules, num_players, b, steps, kind)
    assert episodes >= min_episodes
    if kind != "random" or env_id == "mariage_v1":
        assert scored >= 1, "no episode reached a scored end"


@settings(max_examples=15, deadline=None)
@given(b=st.integers(1, 6), seed=st.integers(0, 2**31), steps=st.integers(1, 60))
def test_any_batch_size_and_seed_reproduces_aec_envs(b, seed, steps):
    assert_matches_aec("mariage_v1", {}, None, b, steps, "random", seed=seed)


def test_seeds_a_list_per_table_the_constructor_seed_and_continuing_streams():
    one = VectorTables("mariage_v1", 3, seed=5)
    one.reset()
    two = VectorTables("mariage_v1", 3)
    two.reset(seed=[5, 6, 7])
    np.testing.assert_array_equal(one.obs, two.obs)
    two.reset(seed=np.array([5, 6, 7]))
    np.testing.assert_array_equal(one.obs, two.obs)
    three = VectorTables("mariage_v1", 3)
    three.reset(seed=5)
    np.testing.assert_array_equal(one.obs, three.obs)
    # reset() without a seed deals every table its next episode, as AEC reset() does
    envs = _aec_envs("mariage_v1", {}, None, 3, 5)
    for _ in range(2):
        one.reset()
        for i, env in enumerate(envs):
            env.reset()
            np.testing.assert_array_equal(one.obs[i], env.observe(env.agent_selection)[
                "observation"])
    assert not (one.done.any() or one.rewards.any() or one.final_returns.any())


def test_arrays_are_preallocated_and_sized_for_the_largest_table():
    vec = VectorTables("romme_v1", 4, seed=0, num_players=[2, 4])
    arrays = [vec.obs, vec.mask, vec.player, vec.rewards, vec.done]
    vec.reset()
    vec.step(np.array([np.flatnonzero(m)[0] for m in vec.mask]))
    assert [a is b for a, b in zip(arrays, [vec.obs, vec.mask, vec.player, vec.rewards,
                                            vec.done], strict=True)] == [True] * 5
    assert vec.num_players.tolist() == [2, 4, 2, 4] and vec.rewards.shape == (4, 4)
    assert vec.obs.dtype == np.float32 and vec.mask.dtype == np.int8
    assert vec.obs.shape == (4, vec.observers[0].size)


@pytest.mark.parametrize("env_id", taas.envs.available_envs())
def test_restored_records_continue_as_the_original_does(env_id):
    """A training checkpoint keeps its tables mid-episode as plain values (each deal's
    generator state and the moves since): fresh tables restored from them step on exactly as
    the original tables do, through later deals too."""
    vec = VectorTables(env_id, 3, seed=2)
    vec.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.mask]))
    records = vec.records()
    assert all(isinstance(r["moves"], list) for r in records)
    copy = VectorTables(env_id, 3, seed=99)
    copy.restore(pickle.loads(pickle.dumps(records)))
    ended, steps = 0, 0
    while steps < 50 or not ended:  # on past a later deal (random play ends them all)
        steps += 1
        for name in ("obs", "mask", "player", "returns"):
            np.testing.assert_array_equal(getattr(copy, name), getattr(vec, name))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vec.mask])
        vec.step(actions)
        copy.step(actions)
        np.testing.assert_array_equal(copy.done, vec.done)
        ended += int(vec.done.sum())  # the restored generators deal the same next episodes
    with pytest.raises(ValueError, match="2 table records for 3 tables"):
        copy.restore(records[:2])


def test_bad_actions_are_one_line_errors_and_change_no_table():
    vec = VectorTables("mariage_v1", 3, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(np.zeros(3, np.int64))
    vec.reset()
    before = vec.obs.copy()
    legal = np.array([np.flatnonzero(m)[0] for m in vec.mask])
    illegal = legal.copy()
    illegal[2] = np.flatnonzero(vec.mask[2] == 0)[0]
    for bad, message in [
        (legal[:2], "expected 3 integer action ids"),
        (legal.astype(bool), "expected 3 integer action ids"),
        (legal.astype(float), "expected 3 integer action ids"),
        (np.array([legal[0], legal[1], -1]), r"table 2: action -1 .*not an action id"),
        (illegal, r"table 2: illegal action .* for player .*; legal: "),
    ]:
        with pytest.raises(ValueError, match=message):
            vec.step(bad)
    np.testing.assert_array_equal(vec.obs, before)
    vec.step(legal)  # still in step with the AEC envs
    envs = _aec_envs("mariage_v1", {}, None, 3, 1)
    for i, env in enumerate(envs):
        env.step(int(legal[i]))
        np.testing.assert_array_equal(vec.obs[i], env.observe(env.agent_selection)[
            "observation"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"num_tables": 0}, "num_tables 0"), ({"num_tables": 2, "num_players": []}, "empty"),
     ({"num_tables": 2, "seed": -1}, "seed=-1"), ({"num_tables": 2, "seed": [1]}, "1 seeds"),
     ({"num_tables": 2, "num_players": [9]}, "num_players=9")],
)
def test_bad_construction_is_a_one_line_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        VectorTables("romme_v1", **kwargs)


# ---- the Gymnasium vector view of the single-agent env --------------------------------------


def _single_envs(env_id: str, b: int, **kw) -> list:
    return [taas.arena.single_agent_env(env_id, opponents="random", seat=None, seed=50 + i, **kw)
            for i in range(b)]


def _same_infos(ours: dict, theirs: dict) -> None:
    assert set(ours) - {"action_mask", "_action_mask"} == set(theirs)
    for key, value in theirs.items():
        if key == "final_obs":
            assert [o is None for o in ours[key]] == [o is None for o in value]
            for a, b in zip(ours[key], value, strict=True):
                if b is not None:
                    np.testing.assert_array_equal(a, b, strict=True)
        elif key == "final_info":
            _same_infos(ours[key], value)
        else:
            np.testing.assert_equal(ours[key], value)


@pytest.mark.parametrize(
    ("env_id", "rules"),
    [("mariage_v1", {}), ("continental_v1", {"num_players": 3, "max_turns_per_round": 8}),
     ("romme_v1", {"num_players": 2, "max_turns_per_round": 8}),
     ("marriage_v1", {"num_players": 3, "max_turns_per_round": 8}),
     ("marriage_nepali_v0", {"num_players": 2, "max_turns_per_round": 8})],
)
def test_the_gym_vector_view_returns_what_sync_vector_env_returns(env_id, rules):
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    from taas.envs.core.vector import SingleAgentVectorEnv

    b = 3
    ours = SingleAgentVectorEnv(_single_envs(env_id, b, **rules))
    theirs = SyncVectorEnv([lambda e=e: e for e in _single_envs(env_id, b, **rules)],
                           autoreset_mode=AutoresetMode.SAME_STEP)
    assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"]
    assert (ours.observation_space, ours.action_space) == (theirs.observation_space,
                                                          theirs.action_space)
    obs, info = ours.reset(seed=4)
    their_obs, their_info = theirs.reset(seed=4)
    rng, ended = np.random.default_rng(0), 0
    for _ in range(150):
        np.testing.assert_array_equal(obs, their_obs, strict=True)
        _same_infos(info, their_info)
        masks = ours.action_masks()
        np.testing.assert_array_equal(masks, np.stack(theirs.call("action_masks")), strict=True)
        np.testing.assert_array_equal(info["action_mask"], masks)
        assert ours.observation_space.contains(obs)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, reward, term, trunc, info = ours.step(actions)
        their_obs, their_reward, their_term, their_trunc, their_info = theirs.step(actions)
        np.testing.assert_array_equal(reward, their_reward, strict=True)
        np.testing.assert_array_equal(term, their_term, strict=True)
        np.testing.assert_array_equal(trunc, their_trunc, strict=True)
        ended += int((term | trunc).sum())
    assert ended >= 3


def test_the_gym_vector_view_copies_by_default_and_checks_actions_first():
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    from taas.envs.core.vector import SingleAgentVectorEnv

    venv = SingleAgentVectorEnv(_single_envs("mariage_v1", 2))
    obs, _ = venv.reset(seed=0)
    masks = venv.action_masks()
    legal = np.array([np.flatnonzero(m)[0] for m in masks])
    illegal = legal.copy()
    illegal[1] = np.flatnonzero(~masks[1])[0]
    with pytest.raises(ValueError, match=r"env 1: illegal action"):
        venv.step(illegal)
    with pytest.raises(ValueError, match="expected 2 integer action ids"):
        venv.step(legal.astype(float))
    np.testing.assert_array_equal(venv.action_masks(), masks)  # env 0 did not move either
    nxt, *_ = venv.step(legal)
    assert not np.array_equal(obs, nxt)  # the first batch was a copy, not the buffer
    shared = SingleAgentVectorEnv(_single_envs("mariage_v1", 2), copy=False)
    first, _ = shared.reset(seed=0)
    assert shared.step(legal)[0] is first
    # Gymnasium's own vector wrappers run over it
    stats = RecordEpisodeStatistics(SingleAgentVectorEnv(_single_envs("mariage_v1", 2)))
    stats.reset(seed=1)
    rng, done = np.random.default_rng(1), None
    while done is None or not done.any():
        masks = stats.unwrapped.action_masks()
        _, _, term, trunc, info = stats.step(
            np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        done = term | trunc
    assert info["_episode"].tolist() == done.tolist()


def test_sb3_sees_the_vector_view_as_dummy_vec_env_of_the_same_envs():
    pytest.importorskip("sb3_contrib", reason="training extra not installed")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
    from stable_baselines3.common.vec_env import DummyVecEnv

    from taas.envs.core.vector import SingleAgentVectorEnv
    from taas.training.sb3_maskable_ppo import VectorViewVecEnv

    rules = {"num_players": 3, "max_turns_per_round": 6}
    ours = VectorViewVecEnv(SingleAgentVectorEnv(_single_envs("romme_v1", 3, **rules)))
    theirs = DummyVecEnv([lambda e=e: e for e in _single_envs("romme_v1", 3, **rules)])
    assert is_masking_supported(ours) and ours.get_attr("fixed_seat", indices=[1]) == [None]
    ours.seed(8)
    theirs.seed(8)
    obs, their_obs = ours.reset(), theirs.reset()
    rng, ended = np.random.default_rng(2), 0
    for _ in range(80):
        np.testing.assert_array_equal(obs, their_obs, strict=True)
        np.testing.assert_equal(ours.reset_infos, theirs.reset_infos)
        masks = get_action_masks(ours)
        np.testing.assert_array_equal(masks, get_action_masks(theirs), strict=True)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, reward, done, info = ours.step(actions)
        their_obs, their_reward, their_done, their_info = theirs.step(actions)
        np.testing.assert_array_equal(reward, their_reward, strict=True)
        np.testing.assert_array_equal(done, their_done, strict=True)
        np.testing.assert_equal(info, their_info)
        ended += int(done.sum())
    assert ended >= 3


def test_maskable_ppo_learns_the_same_weights_on_the_vector_view():
    pytest.importorskip("sb3_contrib", reason="training extra not installed")
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

    from taas.envs.core.vector import SingleAgentVectorEnv
    from taas.training.sb3_maskable_ppo import VectorViewVecEnv

    def learn(vec) -> dict:
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        model = MaskablePPO("MlpPolicy", VecMonitor(vec), n_steps=16, batch_size=32, n_epochs=1,
                            seed=3, device="cpu", policy_kwargs={"net_arch": [16]})
        model.learn(64)
        torch.set_num_threads(threads)
        return model.policy.state_dict()

    ours = learn(VectorViewVecEnv(SingleAgentVectorEnv(_single_envs("mariage_v1", 2))))
    theirs = learn(DummyVecEnv([lambda e=e: e for e in _single_envs("mariage_v1", 2)]))
    assert all(torch.equal(ours[k], theirs[k]) for k in theirs)


def test_the_throughput_benchmark_measures_every_runner():
    from taas.benchmarks import vector

    report = vector.main(["--envs", "mariage_v1", "--tables", "4", "--slice", "0.05",
                          "--reps", "1", "--single-agent"])
    rows = report["results"]
    assert list(rows) == ["mariage_v1 AEC 4", "mariage_v1 vector 4", "mariage_v1 engine 4",
                          "mariage_v1 single-agent SyncVectorEnv 4",
                          "mariage_v1 single-agent SingleAgentVectorEnv 4"]
    assert all(r["steps_per_s"] > 0 and r["ratio"] > 0 for r in rows.values())
