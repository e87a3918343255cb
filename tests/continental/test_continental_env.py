"""continental_v1 as a PettingZoo env: API, seeding, conformance, hidden information, bad input."""

import pickle
import warnings

import numpy as np
import pytest
from continental_helpers import arrange, discard_phase
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

import taas.envs
from taas.agents.heuristic.continental_greedy import GreedyAgent
from taas.envs.continental import actions as A
from taas.envs.continental.config import Config
from taas.envs.continental.observation import LAYOUT, ContinentalObserver
from taas.envs.continental.rules import BUY, DISCARD, DRAW, SEAT, ContinentalGame
from taas.envs.core.cards import parse_card, to_counts
from taas.envs.core.conformance import check_game, scramble_hidden

CONFIGS = [
    {"num_players": 3},
    {"num_players": 5},
    {"num_players": 8},
    {"num_players": 8, "large_table": "deal_13"},
    {"allow_buying": True},
    {"jokers": 0},
    {"episode": "match", "num_players": 3, "hand_size": 12},
    {"must_discard_to_go_out": False, "min_naturals_per_group": 2, "reward": "zero_sum"},
]


@pytest.mark.parametrize("rules", CONFIGS[:6])
def test_pettingzoo_api_and_seed(rules):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on Dict observation spaces
        api_test(taas.envs.make("continental_v1", **rules), num_cycles=300)
    seed_test(lambda: taas.envs.make("continental_v1", **rules), num_cycles=300)


@pytest.mark.parametrize("rules", CONFIGS)
def test_conformance(rules):
    config = Config(**rules, max_turns_per_round=150)
    check_game(ContinentalGame(config), ContinentalObserver(config), seeds=range(2))


def test_incremental_records_match_the_cards():
    """The engine keeps pile counts and per-seat records incrementally for observations;
    they must always agree with the cards themselves."""
    config = Config(num_players=4, allow_buying=True, max_turns_per_round=400)
    game = ContinentalGame(config)
    rng = np.random.default_rng(0)
    for seed in range(3):
        state = game.new_state(np.random.default_rng(seed))
        discarded = np.zeros((4, 53))
        while not state.over:
            player, before = game.current_player(state), state.clone()
            action = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
            game.apply_action(state, action)
            if A.DISCARD <= action < A.GO_OUT_NO_DISCARD and state.rounds_played == 0:
                discarded[player, state.table.discard[-1]] += 1
            assert np.array_equal(state.table.pile, np.bincount(state.table.discard, minlength=53))
            # nobody ever faces an empty stock that the pile could refill (rules §5.5)
            assert state.table.stock or len(state.table.discard) <= 1
            sizes = state.public[:, SEAT["hand_size"]].ravel()
            assert np.array_equal(sizes, state.hands.sum(axis=1))
            if state.rounds_played == before.rounds_played and not state.over:
                assert np.array_equal(state.table.discarded_by, discarded)


def test_reset_seed_reproduces_and_reset_continues_the_stream():
    env = taas.envs.make("continental_v1")
    env.reset(seed=11)
    first = env.observe("player_1")["observation"].copy()
    env.reset()
    second = env.observe("player_1")["observation"].copy()
    env.reset(seed=11)
    assert np.array_equal(env.observe("player_1")["observation"], first)
    assert not np.array_equal(first, second)


@pytest.mark.parametrize("phase", [DRAW, DISCARD, BUY])
def test_no_hidden_information_in_observations(phase):
    config = Config(num_players=4, allow_buying=True)
    game, obs = ContinentalGame(config), ContinentalObserver(config)
    rng = np.random.default_rng(3)
    state = game.new_state(np.random.default_rng(8))
    seen = 0
    while not state.over and seen < 25:
        if state.phase == phase:
            for observer in range(4):
                other = state.clone()
                scramble_hidden(other.hands, other.table.stock, observer, rng, other.active)
                assert (
                    any(
                        not np.array_equal(state.hands[p], other.hands[p])
                        for p in range(4)
                        if p != observer
                    )
                    or state.table.stock != other.table.stock
                )
                assert np.array_equal(obs.encode(state, observer), obs.encode(other, observer))
            seen += 1
        game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert seen


def test_observation_is_ego_centric_and_scaled():
    config = Config(num_players=4)
    game, obs = ContinentalGame(config), ContinentalObserver(config)
    state = game.new_state(np.random.default_rng(1))
    state.totals[:] = [100, 200, 300, 400]
    state.public[:, SEAT["total"]] = np.tanh(state.totals / 500)[:, None]  # as the engine does
    for p in range(4):
        seats = obs.encode(state, p)[LAYOUT["seats"]].reshape(8, -1)
        totals = seats[:, SEAT["total"]].ravel()
        expected = [np.tanh(100 * ((p + k) % 4 + 1) / 500) for k in range(4)]
        assert np.allclose(totals[:4], expected)
        assert not seats[4:].any() and seats[:4, SEAT["active"]].all()
        # hand size / the largest hand (15 dealt + 1 drawn without buying)
        assert seats[:4, SEAT["hand_size"]].ravel().tolist() == [15 / 16] * 4
        assert seats[:, SEAT["dealer"]].ravel().tolist() == [
            (state.dealer - p) % 4 == k for k in range(8)
        ]
        hand = obs.encode(state, p)[LAYOUT["hand"]]
        assert np.allclose(hand[:52], state.hands[p, :52] / 2)  # two decks
        assert np.isclose(hand[52], state.hands[p, 52] / 4)  # four jokers


def test_only_the_player_to_move_has_a_mask():
    env = taas.envs.make("continental_v1")
    env.reset(seed=0)
    masks = {a: env.observe(a)["action_mask"] for a in env.agents}
    assert sum(m.any() for m in masks.values()) == 1 and masks[env.agent_selection].any()


def test_raw_env_illegal_action_is_a_clear_error_and_changes_nothing():
    env = taas.envs.make("continental_v1", wrapped=False)
    env.reset(seed=0)
    before = env.observe(env.agent_selection)
    with pytest.raises(ValueError, match=r"illegal action 40 \(discard .*legal: draw, take"):
        env.step(40)
    after = env.observe(env.agent_selection)
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])
    for bad in (999, -1, 1.5, None, "draw"):
        with pytest.raises(ValueError, match=r"not an action id 0\.\.110"):
            env.step(bad)


def test_wrapped_env_follows_pettingzoo_illegal_move_convention():
    env = taas.envs.make("continental_v1")
    env.reset(seed=0)
    offender = env.agent_selection
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        env.step(A.BUY)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1
    assert all(v == 0 for a, v in env._cumulative_rewards.items() if a != offender)


def test_wrong_player_is_a_clear_error():
    game, state = discard_phase("7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H")
    with pytest.raises(ValueError, match=r"player 2 tried.*player 0's turn"):
        game.apply_action(state, A.DISCARD + parse_card("2H"), player=2)
    game.apply_action(state, A.DISCARD + parse_card("2H"), player=0)


def test_step_before_reset_and_unknown_rules_are_clear_errors():
    env = taas.envs.make("continental_v1")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(ValueError, match="unknown continental rule"):
        taas.envs.make("continental_v1", players=4)
    with pytest.raises(ValueError, match="unknown env"):
        taas.envs.make("continental_v9")
    with pytest.raises(ValueError, match="render_mode"):
        taas.envs.make("continental_v1", render_mode="rgb_array")


def test_render_modes(capsys):
    env = taas.envs.make("continental_v1", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert ("Continental Rummy" in text and "player_3" in text and "♠" in text) or "♥" in text
    env = taas.envs.make("continental_v1", render_mode="human")
    env.reset(seed=2)
    assert env.render() is None and "Continental Rummy" in capsys.readouterr().out


def test_episode_end_reveals_the_result():
    env = taas.envs.make("continental_v1", num_players=3)
    env.reset(seed=4)
    game, state = env.unwrapped.game, env.unwrapped.state
    rng = np.random.default_rng(0)
    while not game.is_terminal(state):
        mask = game.legal_mask(state)
        go = np.flatnonzero(mask[A.GO_OUT : A.GO_OUT_NO_DISCARD])
        env.step(A.GO_OUT + int(go[0]) if go.size else int(rng.choice(np.flatnonzero(mask))))
    info = env.infos["player_0"]
    assert set(info) >= {"totals", "winner", "rounds", "truncated"}
    if not info["truncated"]:
        assert info["rounds"][0]["penalties"][info["winner"]] == 0


def test_clone_is_independent_and_replays_the_same_future():
    config = Config(num_players=4, allow_buying=True)
    game = ContinentalGame(config)
    state = game.new_state(np.random.default_rng(9))
    rng = np.random.default_rng(1)
    for _ in range(200):  # well into the stock, reshuffles included
        game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    frozen = pickle.dumps(state)
    twin = state.clone()
    actions = []
    while not twin.over and len(actions) < 400:
        actions.append(int(rng.choice(np.flatnonzero(game.legal_mask(twin)))))
        game.apply_action(twin, actions[-1])
    assert pickle.dumps(state) == frozen, "playing the clone changed the original"
    for a in actions:
        game.apply_action(state, a)
    assert pickle.dumps(state) == pickle.dumps(twin), "the clone's future differs"


@settings(max_examples=25, deadline=None)
@given(
    rules=st.sampled_from(
        [
            {"num_players": 3, "allow_buying": True, "episode": "match", "hand_size": 12},
            {"num_players": 6, "allow_buying": True},
            {"num_players": 8, "large_table": "deal_13", "allow_buying": True},
            {"num_players": 4, "jokers": 0, "episode": "match", "num_rounds": 2},
        ]
    ),
    seed=st.integers(0, 2**16),
)
def test_observations_stay_within_their_declared_bounds(rules, seed):
    config = Config(**rules, max_turns_per_round=300)
    game, observer = ContinentalGame(config), ContinentalObserver(config)
    assert (observer.low == 0).all() and (observer.high == 1).all()
    state = game.new_state(np.random.default_rng(seed))
    agents = [GreedyAgent(seed + p, rules) for p in range(config.num_players)]
    while not state.over:
        p = game.current_player(state)
        obs = observer.encode(state, p)
        assert ((obs >= 0) & (obs <= 1)).all(), [
            name for name, part in LAYOUT.items() if ((obs[part] < 0) | (obs[part] > 1)).any()
        ]
        game.apply_action(state, agents[p].act(obs, game.legal_mask(state)))


def test_first_up_card_stays_in_the_observation_after_a_reshuffle():
    game, state = discard_phase("7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK")
    obs = ContinentalObserver(game.config)
    arrange(game, state, {0: "7C 7C 7H"}, discard="4D JS 9C 2H", stock_top="QH")
    state.hands[1] += to_counts(state.table.stock[:-1]).astype(np.int8)  # park the rest
    state.table.stock = state.table.stock[-1:]
    state.phase, state.current = DRAW, 0
    game.apply_action(state, A.DRAW_STOCK)  # the pile but 2H becomes the stock
    first = obs.encode(state, 2)[LAYOUT["first_up"]]
    assert np.flatnonzero(first).tolist() == [parse_card("4D")]


def test_action_names():
    assert [A.action_to_str(a) for a in (0, 1, 2 + parse_card("7H"))] == [
        "draw",
        "take",
        "discard 7H",
    ]
    assert A.action_to_str(A.GO_OUT + parse_card("JK")) == "go_out JK"
    assert [A.action_to_str(a) for a in (108, 109, 110)] == ["go_out", "buy", "pass"]
    with pytest.raises(ValueError, match=r"outside 0\.\.110"):
        A.action_to_str(111)


def test_info_carries_the_round_and_totals_at_every_step():
    config = Config(num_players=3, episode="match", num_rounds=2)
    game = ContinentalGame(config)
    state = game.new_state(np.random.default_rng(2))
    state.totals[:] = [5, 0, 7]
    info = game.info(state, 1)
    assert info == {"round": 1, "dealer": state.dealer, "totals": [5, 0, 7]}


def test_compiled_encoder_matches_its_python_source():
    from taas.envs.continental import observation

    compiled = observation._encode
    if not hasattr(compiled, "py_func"):
        pytest.skip("numba not in use")
    config = Config(num_players=5, allow_buying=True)
    game, obs = ContinentalGame(config), ContinentalObserver(config)
    state = game.new_state(np.random.default_rng(4))
    rng = np.random.default_rng(0)
    try:
        for step in range(300):
            if step % 30 == 0:
                observation._encode = compiled
                fast = obs.encode(state, step % 5)
                observation._encode = compiled.py_func
                assert np.array_equal(fast, obs.encode(state, step % 5))
            game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    finally:
        observation._encode = compiled
