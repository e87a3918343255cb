"""The single-agent Gymnasium view used for training."""

import warnings

import numpy as np
import pytest

import taas.agents
import taas.arena
import taas.envs
from taas.agents.base import RandomAgent
from taas.envs.core.single_agent import SingleAgentEnv
from taas.envs.mariage.actions import CLAIM, NUM_CARDS
from taas.envs.mariage.config import Config as MariageConfig
from taas.envs.mariage.observation import MariageObserver
from taas.envs.mariage.rules import MariageGame


class Claimer(RandomAgent):
    """Claims 66 whenever it may (a false claim ends the deal too), else plays at random."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.claims = 0

    def act(self, observation, action_mask):
        if action_mask[CLAIM]:
            self.claims += 1
            return CLAIM
        return super().act(observation, action_mask)


class Recorder(RandomAgent):
    """A random opponent that logs every move it makes into a shared list."""

    def __init__(self, log, seed=None):
        super().__init__(seed)
        self.log = log

    def act(self, observation, action_mask):
        self.log.append(super().act(observation, action_mask))
        return self.log[-1]


class Player0Deals(MariageGame):
    """Mariage where player_0 always deals, so player_1 always leads the first trick."""

    def new_state(self, rng):
        order = rng.permutation(NUM_CARDS).tolist()
        return self.deal_from_cards([order[:6], order[6:12]], order[12:], dealer=0)


def test_observations_stay_in_the_declared_space():
    env = taas.arena.single_agent_env("continental_v1", seed=0)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info == {"seat": 0, "redeals": 0}
    for _ in range(200):
        obs, reward, *_ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
        assert env.observation_space.contains(obs) and isinstance(reward, float)


@pytest.mark.parametrize("seat", [0, 2, None])
def test_learner_sees_only_its_turns_and_gets_its_rewards(seat):
    env = taas.arena.single_agent_env("continental_v1", opponents="greedy", seat=seat, seed=1)
    rng = np.random.default_rng(0)
    for episode in range(3):
        _, info = env.reset(seed=episode)
        assert info["seat"] == env.seat and (seat is None or env.seat == seat)
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


def test_deals_that_end_before_the_learner_moves_are_dealt_again():
    # The learner deals when the engine says so; then a claiming opponent leads and ends the
    # deal at once (a false claim ends it too). Such deals are no episode for the learner.
    claimer = Claimer()
    env = taas.arena.single_agent_env("mariage_v1", opponents=[claimer], seat=0)
    total_redeals = 0
    for seed in range(20):
        claimer.claims = 0
        _, info = env.reset(seed=seed)
        assert env.action_masks().any() and env.game.current_player(env.state) == 0
        assert info["redeals"] == claimer.claims
        total_redeals += info["redeals"]
    assert total_redeals > 0


def test_in_a_match_a_round_the_opponent_ends_early_is_scored_not_redealt():
    # a false claim ends the deal, not the match: the learner's first reward carries its points
    claimer = Claimer()
    env = taas.arena.single_agent_env("mariage_v1", opponents=[claimer], episode="match")
    rng = np.random.default_rng(0)
    claimed_first = 0
    for seed in range(6):
        claimer.claims = 0
        _, info = env.reset(seed=seed)
        assert info["redeals"] == 0 and env.action_masks().any()
        claimed_first += claimer.claims
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            total, done = total + reward, terminated or truncated
        assert total == env.game.returns(env.state)[0]
    assert claimed_first > 0


def test_redeals_are_bounded_with_a_clear_error():
    game, observer = Player0Deals(MariageConfig()), MariageObserver(MariageConfig())
    env = SingleAgentEnv(game, observer, [Claimer()], seat=0, max_redeals=3)
    with pytest.raises(RuntimeError, match="4 deals in a row ended before the learner"):
        env.reset(seed=0)
    env = SingleAgentEnv(game, observer, [Claimer()], seat=1, max_redeals=0)
    assert env.reset(seed=0)[1]["redeals"] == 0  # the learner leads: nothing to redeal
    with pytest.raises(ValueError, match="max_redeals"):
        SingleAgentEnv(game, observer, [Claimer()], max_redeals=-1)


@pytest.mark.parametrize("seat", [1, None])
def test_a_seed_replays_the_episode_opponents_included(seat):
    # the same env object, reset twice with one seed after other play: the opponents' own
    # random streams must be reseeded too, or their moves differ the second time
    log = []
    env = taas.arena.single_agent_env(
        "continental_v1", opponents=[Recorder(log) for _ in range(3)], seat=seat
    )

    def rollout(seed):
        log.clear()
        obs, info = env.reset(seed=seed)
        trace = [info, obs.tobytes()]
        for i in range(60):
            legal = np.flatnonzero(env.action_masks())
            obs, reward, terminated, truncated, _ = env.step(int(legal[i % len(legal)]))
            trace += [obs.tobytes(), reward, terminated, truncated]
            if terminated or truncated:
                break
        return trace, list(log)

    first = rollout(9)
    rollout(10)
    second = rollout(9)
    assert first == second and first[1]
    assert rollout(11) != first


def test_the_factory_seed_seeds_the_first_reset():
    def first_deal(seed):
        env = taas.arena.single_agent_env("romme_v1", seat=None, seed=seed)
        obs, info = env.reset()
        return obs.tobytes(), info

    assert first_deal(5) == first_deal(5) != first_deal(6)


def test_penalize_ends_the_episode_on_an_illegal_action():
    env = taas.arena.single_agent_env(
        "continental_v1", illegal_action="penalize", illegal_reward=-5, seed=0
    )
    for bad in (108, 10**6, -1, 1.5, "x"):
        obs, _ = env.reset(seed=0)
        assert not env.action_masks()[108]
        obs2, reward, terminated, truncated, info = env.step(bad)
        assert (reward, terminated, truncated) == (-5.0, True, False)
        assert info["illegal_action"] == bad and "error" in info
        assert np.array_equal(obs, obs2) and not env.action_masks().any()
        with pytest.raises(RuntimeError, match="reset"):
            env.step(int(np.flatnonzero(env.action_masks())[0]) if env.action_masks().any() else 0)


@pytest.mark.parametrize("env_id", taas.envs.available_envs())
def test_check_env_passes_with_penalize(env_id):
    from gymnasium.utils.env_checker import check_env

    env = taas.arena.single_agent_env(env_id, illegal_action="penalize", seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice on unbounded/unnormalised boxes, no spec
        check_env(env, skip_render_check=True)
        sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
        sb3_checker.check_env(env)


def test_bad_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="2 opponents for a 4-player game"):
        taas.arena.single_agent_env("continental_v1", opponents=["random", "random"])
    with pytest.raises(ValueError, match="seat 7"):
        taas.arena.single_agent_env("continental_v1", seat=7)
    with pytest.raises(ValueError, match="illegal_action 'ignore'"):
        taas.arena.single_agent_env("continental_v1", illegal_action="ignore")
    env = taas.arena.single_agent_env("continental_v1", seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match="seed=-1: expected None or a non-negative int"):
        env.reset(seed=-1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action"):
        env.step(108)


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True, [1, 2]])
def test_bad_seed_is_a_clear_error(seed):
    with pytest.raises(ValueError, match="expected None or a non-negative int"):
        taas.arena.single_agent_env("mariage_v1", seed=seed)
    env = taas.arena.single_agent_env("mariage_v1")
    with pytest.raises(ValueError, match="expected None or a non-negative int"):
        env.reset(seed=seed)


class Observing(RandomAgent):
    """A random player that does read its observation (as every rule player does)."""

    reads_observation = True

    def __init__(self, seen, seed=None):
        super().__init__(seed)
        self.seen = seen

    def act(self, observation, action_mask):
        self.seen.append(observation.shape)
        return super().act(observation, action_mask)


def test_opponents_that_ignore_their_observation_are_not_handed_one():
    """Encoding is most of an opponent's move; a random opponent does not read it, so the view
    skips it, while an opponent that reads one still gets its own seat's."""
    seen = []
    quiet = SingleAgentEnv(MariageGame(MariageConfig()), MariageObserver(MariageConfig()),
                           [RandomAgent(0)], seat=0, seed=3)
    reading = SingleAgentEnv(MariageGame(MariageConfig()), MariageObserver(MariageConfig()),
                             [Observing(seen, 0)], seat=0, seed=3)
    calls = []
    encode = quiet.observer.encode
    quiet.observer.encode = lambda state, player: calls.append(player) or encode(state, player)
    for env in (quiet, reading):
        env.reset(seed=3)
        for _ in range(10):
            if env.step(int(np.flatnonzero(env.action_masks())[0]))[2]:
                env.reset()
    assert set(calls) == {0}  # the learner's observations only
    assert seen and set(seen) == {quiet.observation_space.shape}
