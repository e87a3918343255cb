"""Smoke test: sb3-contrib ``MaskablePPO`` trains on the single-agent view of every env.

One vectorized env per game holds a table of every size from 2 to 6 players the game allows
(at least four tables), the learner at a random seat each episode, so one tiny network sees
every table size (observations are padded to the largest table for that). The default
``illegal_action="raise"`` turns an illegal action from the policy, or a finished episode
handed back by ``reset``, into an error here. A few thousand steps take seconds.
"""

import dataclasses

import pytest

import taas.agents
import taas.arena
import taas.envs

sb3_contrib = pytest.importorskip(
    "sb3_contrib", reason="training extra not installed: pip install -e '.[train]'"
)
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor  # noqa: E402

STEPS = 2048


def table_sizes(env_id: str) -> list[dict]:
    """Rules for each table size of 2..6 players the game accepts (its default if fixed)."""
    fields = {f.name for f in dataclasses.fields(taas.envs.env_module(env_id).Config)}
    if "num_players" not in fields:
        return [{}]
    sizes = []
    for n in range(2, 7):
        try:
            taas.envs.make(env_id, wrapped=False, num_players=n)
        except ValueError:
            continue
        sizes.append({"num_players": n})
    return sizes


@pytest.fixture
def one_torch_thread():
    """Two test workers on two cores: torch's own thread pool would only oversubscribe them."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.usefixtures("one_torch_thread")
@pytest.mark.parametrize("env_id", taas.envs.available_envs())
def test_maskable_ppo_trains(env_id):
    tables = table_sizes(env_id)
    # at least 4 envs: the policy runs once per vectorized step, so more envs cost less time
    tables = tables * -(-4 // len(tables))
    envs = [
        taas.arena.single_agent_env(env_id, seat=None, seed=i, **rules)
        for i, rules in enumerate(tables)
    ]
    # one network for every table size: same shapes (bounds such as rounds left may differ)
    assert len({(e.observation_space.shape, e.action_space.n) for e in envs}) == 1
    vec = VecMonitor(DummyVecEnv([lambda e=e: e for e in envs]))
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy",
        vec,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        policy_kwargs={"net_arch": [32]},
        device="cpu",
        seed=0,
    )
    model.learn(STEPS)
    assert model.num_timesteps >= STEPS
    assert model.ep_info_buffer, "no episode finished"
