"""Faithful copies: ``copy.deepcopy``, ``pickle`` and ``clone()`` of every env (wrapped and raw)
and of every engine state, at any point of a game, continue exactly as the original does and
independently of it (the two are stepped with the same actions: any shared part would be
stepped twice and diverge)."""

import copy
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import taas.envs

ENVS = ["continental_v1", "mariage_v1", "marriage_v1", "marriage_nepali_v0", "romme_v1"]
COPIES = {
    "deepcopy": copy.deepcopy,
    "pickle": lambda x: pickle.loads(pickle.dumps(x)),
}
SETTINGS = settings(max_examples=6, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def random_moves(env, rng, count):
    """Play up to ``count`` random legal moves; False if the episode ended first."""
    for _ in range(count):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            return False
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return True


def seen(env) -> tuple:
    """Everything an env shows: each agent's observation and mask, rewards, ends, infos."""
    obs = [env.observe(a) for a in env.possible_agents]
    return (env.agent_selection, [o["observation"].tobytes() for o in obs],
            [o["action_mask"].tobytes() for o in obs], dict(env.rewards),
            dict(env.terminations), dict(env.truncations), repr(env.infos))


@pytest.mark.parametrize("kind", list(COPIES))
@pytest.mark.parametrize("wrapped", [True, False], ids=["env", "raw_env"])
@pytest.mark.parametrize("env_id", ENVS)
@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), at=st.integers(0, 60))
def test_a_copied_env_continues_as_the_original(env_id, wrapped, kind, seed, at):
    env = taas.envs.make(env_id, wrapped=wrapped)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    random_moves(env, rng, at)
    twin = COPIES[kind](env)
    assert seen(twin) == seen(env)
    for _ in range(300):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        mask = env.observe(env.agent_selection)["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
        twin.step(action)
        assert seen(twin) == seen(env)


@pytest.mark.parametrize("kind", [*COPIES, "clone"])
@pytest.mark.parametrize("env_id", ENVS)
@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), at=st.integers(0, 60))
def test_a_copied_state_continues_as_the_original(env_id, kind, seed, at):
    env = taas.envs.make(env_id, wrapped=False)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    random_moves(env, rng, at)
    game, state, observer = env.game, env.state, env.observer
    twin = state.clone() if kind == "clone" else COPIES[kind](state)
    players = range(game.num_players)
    for _ in range(300):
        assert [observer.encode(twin, p).tobytes() for p in players] == [
            observer.encode(state, p).tobytes() for p in players]
        assert game.returns(twin).tolist() == game.returns(state).tolist()
        if game.is_terminal(state):
            assert game.is_terminal(twin)
            break
        mask = game.legal_mask(state)
        assert game.legal_mask(twin).tolist() == mask.tolist()
        action = int(rng.choice(np.flatnonzero(mask)))
        game.apply_action(state, action)
        game.apply_action(twin, action)
