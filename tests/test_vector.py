"""Batched tables (:mod:`taas.envs.core.vector`) against independent AEC envs.

The exactness property: ``VectorTables(env_id, B, seed=s)`` steps, table for table, as ``B``
raw AEC envs reset with seeds ``s + i`` and reset again (no seed) after every finished
episode, given the same actions: the same mover, bit-identical observation and mask, the same
rewards, ends and returns. Each case runs a few hundred batch steps through several
auto-reset episodes; random play ends rummy rounds by the ``max_turns`` cut, so the heuristic
cases play rounds to a real, scored end.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import taas.agents
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
