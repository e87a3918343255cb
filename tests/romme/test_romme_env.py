"""romme_v1 as a PettingZoo env: API, seeding, conformance, hidden information, bad input."""

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test
from romme_helpers import play, setup

from taas.envs.core.cards import JOKER, NUM_KINDS, parse_cards
from taas.envs.core.conformance import check_game, scramble_hidden
from taas.envs.romme.actions import DISCARD, DRAW_DISCARD, LAY_OFF
from taas.envs.romme.config import Config
from taas.envs.romme.env import env as make_env
from taas.envs.romme.env import raw_env
from taas.envs.romme.observation import LAYOUT, ROW_LAYOUT, ROW_SIZE, SIZE, RommeObserver
from taas.envs.romme.rules import DRAW, MAX_HAND, PLAY, SEAT, SEAT_SIZE, RommeGame

CONFIGS = [
    {"num_players": 2},
    {"num_players": 4},
    {"num_players": 6},
    {"on_stock_empty": "reshuffle"},
    {"hand_rummy_scoring": "double"},
    {"jokers": 4},
]


@pytest.mark.parametrize("rules", CONFIGS)
def test_pettingzoo_api_and_seed(rules):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test's advice on Dict observation spaces
        api_test(make_env(**rules), num_cycles=200)
    seed_test(lambda: make_env(**rules), num_cycles=200)


@pytest.mark.parametrize(
    "rules",
    [
        *CONFIGS[:4],
        {"num_players": 3, "episode": "match", "reward": "zero_sum", "max_turns_per_round": 40},
        {"allow_wraparound": True, "joker_limit": "any", "jokers_may_touch": False},
        {
            "discard_draw_requires_opening": True,
            "exchange_before_opening": True,
            "must_discard_to_go_out": True,
            "jokers": 0,
            "hand_size": 11,
        },
        {
            "first_player_extra_card": True,
            "may_discard_joker": False,
            "opening_min": 30,
            "lay_off_on_opening_turn": False,
            "exchanged_joker_must_be_used": False,
            "hand_rummy_ignores_opening_min": True,
            "hand_size": 14,
            "reward": "win",
        },
    ],
)
def test_conformance(rules):
    config = Config(**{"max_turns_per_round": 120, **rules})
    check_game(RommeGame(config), RommeObserver(config), seeds=range(2), exhaustive_every=25)


def test_reset_seed_reproduces_and_reset_continues_the_stream():
    env = make_env()
    env.reset(seed=11)
    first = env.observe("player_1")["observation"].copy()
    env.reset()
    second = env.observe("player_1")["observation"].copy()
    env.reset(seed=11)
    assert np.array_equal(env.observe("player_1")["observation"], first)
    assert not np.array_equal(first, second)


@pytest.mark.parametrize(
    "rules",
    [
        {"num_players": 4},
        {"num_players": 3, "episode": "match"},  # new deals
        {"num_players": 6, "on_stock_empty": "reshuffle", "max_turns_per_round": 300},
    ],
)
def test_incremental_records_match_the_cards(rules):
    """The engine keeps pile counts and per-seat records incrementally for observations;
    they must always agree with the cards and fields they summarise."""
    game = RommeGame(Config(**rules))
    n = game.num_players
    rng = np.random.default_rng(0)
    for seed in range(3):
        state = game.new_state(np.random.default_rng(seed))
        discarded, taken = np.zeros((n, NUM_KINDS)), np.zeros((n, NUM_KINDS))
        rounds = 0
        while not state.over:
            player = game.current_player(state)
            action = int(rng.choice(np.flatnonzero(game.legal_mask(state))))
            game.apply_action(state, action)
            if DISCARD <= action < LAY_OFF:
                discarded[player, action - DISCARD] += 1
            elif action == DRAW_DISCARD:
                taken[player, state.table.drawn_discard] += 1
            if state.rounds_played != rounds and not state.over:  # a new deal starts afresh
                rounds = state.rounds_played
                discarded[:], taken[:] = 0, 0
            public = state.public
            table = state.table
            assert np.array_equal(table.pile, np.bincount(table.discard, minlength=NUM_KINDS))
            sizes = public[:, SEAT["hand_size"]].ravel() * MAX_HAND
            assert np.allclose(sizes, state.hands.sum(axis=1), atol=1e-4)
            assert np.array_equal(public[:, SEAT["opened"]].ravel(), state.opened)
            assert np.allclose(public[:, SEAT["total"]].ravel(), np.tanh(state.totals / 500))
            assert np.flatnonzero(public[:, SEAT["dealer"]].ravel()).tolist() == [state.dealer]
            for record, counts in ((SEAT["discarded"], discarded), (SEAT["taken"], taken)):
                assert np.array_equal(public[:, record], counts)


@pytest.mark.parametrize("phase", [DRAW, PLAY])
def test_no_hidden_information_in_observations(phase):
    config = Config(num_players=4)
    game, obs = RommeGame(config), RommeObserver(config)
    rng = np.random.default_rng(3)
    state = game.new_state(np.random.default_rng(8))
    seen = 0
    while not state.over and seen < 30:
        if state.phase == phase:
            for observer in range(4):
                other = state.clone()
                scramble_hidden(other.hands, other.table.stock, observer, rng)
                assert not np.array_equal(other.hands, state.hands) or not state.table.stock
                assert np.array_equal(obs.encode(state, observer), obs.encode(other, observer))
            seen += 1
        game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert seen


def test_observation_scales_the_seat_records():
    """The engine counts each seat's discards and takes raw (the table's records); the
    observation shows them per copy in the shoe (2, jokers 6), saturating at 1 once a
    reshuffle lets a kind come round again."""
    game, state = setup({0: "5S 7D"}, opened=(0,), num_players=3)
    discarded, taken = state.public[1, SEAT["discarded"]], state.public[2, SEAT["taken"]]
    discarded[parse_cards("4S")[0]] = 3
    discarded[JOKER] = 2
    taken[parse_cards("QC")[0]] = 1
    seats = RommeObserver(game.config).encode(state, 0)[LAYOUT["seats"]].reshape(-1, SEAT_SIZE)
    shown = seats[1, SEAT["discarded"]][parse_cards("4S 5S Jk")]
    assert shown.tolist() == pytest.approx([1, 0, 1 / 3])
    assert seats[2, SEAT["taken"]][parse_cards("QC")].tolist() == [0.5]


def test_observation_encodes_the_table():
    game, state = setup(
        {0: "6C 9H 9S 2D 4D"}, melds=((1, "5C JK 7C"), (2, "8S 8H JK")), opened=(0, 1)
    )
    vec = RommeObserver(game.config).encode(state, 0)
    table = vec[LAYOUT["table"]].reshape(-1, ROW_SIZE)
    run, group = table[0], table[1]
    assert run[ROW_LAYOUT["is_run"]][0] == 1 and run[ROW_LAYOUT["suits"]].tolist() == [0, 0, 0, 1]
    assert np.flatnonzero(run[ROW_LAYOUT["naturals"]]).tolist() == [4, 6]
    assert np.flatnonzero(run[ROW_LAYOUT["jokers"]]).tolist() == [5]  # the joker is the 6C
    assert group[ROW_LAYOUT["jokers"]][7] == pytest.approx(1 / 3)  # a set's jokers / 3
    assert group[ROW_LAYOUT["suits"]].tolist() == [1, 1, 0, 0]
    owners = table[:, ROW_LAYOUT["owner"]]
    assert owners[0].tolist() == [0, 1, 0, 0, 0, 0] and owners[1].tolist() == [0, 0, 1, 0, 0, 0]
    seats = vec[LAYOUT["seats"]].reshape(-1, SEAT_SIZE)
    assert seats[:, SEAT["opened"]].ravel().tolist() == [1, 1, 0, 0, 0, 0]
    assert len(vec) == SIZE
    play(game, state, "exchange @0 6")
    vec = RommeObserver(game.config).encode(state, 1)
    assert vec[LAYOUT["owed_jokers"]][0] == pytest.approx(1 / 6)
    table = vec[LAYOUT["table"]].reshape(-1, ROW_SIZE)
    assert table[0, ROW_LAYOUT["owner"]].tolist() == [1, 0, 0, 0, 0, 0]


def test_pending_opening_is_public():
    game, state = setup({0: "QH KH AH 7S 7D 7C 2S 5H 9D 9C 4S 8H JS JD"})
    play(game, state, "meld QH-AH")
    vec = RommeObserver(game.config).encode(state, 2)
    assert vec[LAYOUT["pending_value"]][0] == pytest.approx(31 / 40)
    assert vec[LAYOUT["table"]][ROW_LAYOUT["provisional"]][0] == 1


def test_info_at_the_end_shows_charges_and_why():
    env = raw_env(num_players=2)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _info = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rounds = env.infos["player_0"]["rounds"]
    assert rounds and {"hand", "hand_value", "opened", "charge", "reason"} <= set(
        rounds[0]["players"][0]
    )


def test_bad_input():
    with pytest.raises(ValueError, match="unknown romme rule"):
        make_env(jokerz=4)
    with pytest.raises(ValueError, match="hand_size"):
        make_env(hand_size=12)
    env = raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action"):
        env.step(2)  # abandon: nothing to abandon at the draw
    wrapped = make_env()
    wrapped.reset(seed=0)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(2)
    assert wrapped.rewards[agent] == -1 and all(wrapped.terminations.values())


def test_up_card_stays_public_after_a_reshuffle():
    """The card turned up at the deal is no seat's discard; once the pile is reshuffled into
    the stock only its own block still shows it."""
    config = Config(num_players=2, on_stock_empty="reshuffle")
    game, observer = RommeGame(config), RommeObserver(config)
    state = game.new_state(np.random.default_rng(6))  # a deal that reaches the reshuffle
    up, shuffles = state.table.discard[0], state.table.shuffles
    rng = np.random.default_rng(0)
    while state.table.shuffles == shuffles and not state.over:
        game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert not state.over
    for player in range(2):
        assert np.flatnonzero(observer.encode(state, player)[LAYOUT["up_card"]]).tolist() == [up]


def test_clone_is_independent():
    game, state = setup({0: "8H 9H 2C"}, melds=((1, "5H 6H 7H"),), opened=(0, 1))
    before = pickle.dumps(state)
    other = state.clone()
    assert pickle.dumps(other) == before
    play(game, other, "lay_off @0 high")
    other.hands[1, 0] += 1
    other.table.stock.pop()
    other.table.discard.append(0)
    other.table.pile[0] += 1
    other.melds.append(other.melds[0])
    other.public[:] = 0.5
    other.totals[0] = 7
    assert pickle.dumps(state) == before and str(state.melds[0]) == "5♥ 6♥ 7♥"
    play(game, state, "lay_off @0 high")  # the original still plays on its own
    assert len(state.melds) == 1 and state.hands[0].sum() == 2


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=st.sampled_from(
        [
            {"num_players": 2, "on_stock_empty": "reshuffle"},
            {"num_players": 6, "hand_size": 14, "first_player_extra_card": True},
            {"num_players": 3, "episode": "match", "max_turns_per_round": 30},
        ]
    ),
)
def test_observations_stay_within_declared_bounds(seed, rules):
    config = Config(**{"max_turns_per_round": 150, **rules})
    game, observer = RommeGame(config), RommeObserver(config)
    assert (observer.low == 0).all() and (observer.high == 1).all()
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    while not state.over:
        for player in range(game.num_players):
            obs = observer.encode(state, player)
            assert (obs >= 0).all() and (obs <= 1).all(), seed
        game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
