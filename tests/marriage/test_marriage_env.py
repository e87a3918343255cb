"""marriage_v1 through PettingZoo: API and seed tests, engine conformance, information leaks,
the end-of-round report."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from taas.envs.core.cards import NUM_KINDS, parse_card, parse_cards, shuffled, to_counts
from taas.envs.core.conformance import check_game
from taas.envs.marriage import actions as A
from taas.envs.marriage.config import Config
from taas.envs.marriage.env import env, raw_env
from taas.envs.marriage.observation import LAYOUT, SIZE, MarriageObserver
from taas.envs.marriage.rules import DISCARD, MarriageGame
from taas.envs.marriage.scoring import wild_cards

CONFIGS = [
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 6},
    {"decks": 2},
    {"dublee_swap": False},
    {"invalid_show": "penalize"},
]
M3 = "3H 4H 5H 6H  9S 10S JS QS KS  KD KD KD  6C 6D 8H  2C JK 4C  QH QH QS"
M5 = "3H 4H 5H JC JD JS 9C 9D 9S KD KD KD 8S AC 2D 4S 6C 7H 10S QD 5D"


@pytest.mark.parametrize("flags", CONFIGS, ids=str)
def test_pettingzoo_api_and_seed(flags):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(**flags), num_cycles=300)
        seed_test(lambda: env(**flags), num_cycles=300)


EVERY_FLAG_FLIPPED = {
    "decks": 2, "hand_size": 16, "num_players": 3, "printed_jokers": 0,
    "printed_joker_indicator": "printed_only",
    "wild_in_natural_place_is_pure": True, "tunnela_counts_as_life": True,
    "allow_all_wild_melds": True, "lives_required": 2,
    "show_requires_discard": False, "invalid_show": "penalize", "invalid_show_penalty": 50,
    "ace_penalty": 1, "joker_penalty": 15, "tunnela_bonus": 5, "num_rounds": 3,
    "target_score": 400, "tiebreak_players": "tied_only", "settle_each_round": True,
    "forbid_rediscard_of_drawn_discard": False, "episode": "match", "reward": "zero_sum",
    "max_turns_per_round": 80,
}


@pytest.mark.parametrize(
    "flags",
    [*CONFIGS, {"episode": "match", "num_rounds": 2, "max_turns_per_round": 60},
     EVERY_FLAG_FLIPPED],
    ids=str,
)
def test_conformance(flags):
    config = Config(**flags)
    check_game(MarriageGame(config), MarriageObserver(config), seeds=range(2))


def test_conformance_with_wraparound():
    """K-A-2 runs (solver cases round the corner) in every mask and score of seeded games."""
    config = Config(allow_wraparound=True, max_turns_per_round=120)
    check_game(MarriageGame(config), MarriageObserver(config), seeds=range(3))


def hidden_redeal(s, seat: int, rng: np.random.Generator):
    """A clone that differs only in what ``seat`` cannot see: the other live hands and the stock
    are dealt anew (same sizes) from their union."""
    t = s.clone()
    others = [p for p in t.active if p != seat and p not in t.dead]
    pool = np.bincount(t.table.stock, minlength=NUM_KINDS) + sum(t.hands[p] for p in others)
    cards = shuffled(pool, rng)
    for p in others:
        size = int(t.hands[p].sum())
        t.hands[p] = np.bincount(cards[:size], minlength=NUM_KINDS)
        cards = cards[size:]
    t.table.stock = cards
    return t


@pytest.mark.parametrize("flags", [{}, {"invalid_show": "penalize", "num_players": 5}], ids=str)
def test_no_information_leak_in_any_phase(flags):
    config = Config(**flags)
    game, observer = MarriageGame(config), MarriageObserver(config)
    rng = np.random.default_rng(7)
    seen = set()
    for seed in range(3):
        s = game.new_state(np.random.default_rng(seed))
        for _ in range(400):
            for seat in range(game.num_players):
                t = hidden_redeal(s, seat, rng)
                assert np.array_equal(observer.encode(s, seat), observer.encode(t, seat))
            if game.is_terminal(s):
                break
            seen.add((s.phase, bool(s.set_aside.any()), bool(s.dead)))
            game.apply_action(s, int(rng.choice(np.flatnonzero(game.legal_mask(s)))))
    assert {(0, True, False), (1, True, False)} <= seen  # both phases, also after a swap
    if flags:
        assert any(dead for _, _, dead in seen)  # an invalid show happened


def test_dublee_swap_hides_the_card_received():
    game = MarriageGame(Config())
    observer = MarriageObserver(game.config)
    s = game.new_state(np.random.default_rng(3))
    s.hands[0] = to_counts(parse_cards("9C 9C 2S 3S 4S 5H 6H 7D 10D JC QC KC AH 2D 3C 4C 5C 6C"
                                       " 7C 10C JS JH"))
    s.table.stock.append(parse_card("JK"))
    s.current, s.phase, s.mask = 0, DISCARD, None
    before = [observer.encode(s, p) for p in range(4)]
    game.apply_action(s, A.DUBLEE_SWAP + parse_card("9C"))
    for seat in (1, 2, 3):
        obs = observer.encode(s, seat)
        t = hidden_redeal(s, seat, np.random.default_rng(seat))
        assert not np.array_equal(t.hands[0], s.hands[0])
        assert np.array_equal(obs, observer.encode(t, seat))
        row = (0 - seat) % 4  # seat 0 in this observer's ego order
        aside = obs[LAYOUT["set_aside"]].reshape(6, NUM_KINDS)[row]
        assert aside[parse_card("9C")] == pytest.approx(2 / 3) and aside.sum() == aside.max()
        assert not np.array_equal(obs, before[seat])
    own = observer.encode(s, 0)[LAYOUT["hand"]]
    assert own[parse_card("JK")] >= 1 / 3 and own[parse_card("9C")] == 0


def test_observation_layout_and_own_view():
    game = MarriageGame(Config())
    observer = MarriageObserver(game.config)
    s = game.new_state(np.random.default_rng(0))
    obs = observer.encode(s, 1)
    assert obs.shape == (SIZE,) and LAYOUT["tiebreak"].stop == SIZE
    assert np.allclose(obs[LAYOUT["hand"]], s.hands[1] / 3)
    assert obs[LAYOUT["indicator"].start + s.indicator] == 1
    assert obs[LAYOUT["wild_rank"].start + s.wild_rank] == 1
    assert obs[LAYOUT["wild"]].sum() == 5
    assert obs[LAYOUT["top_discard"].start + s.table.discard[-1]] == 1
    assert obs[LAYOUT["first_up"].start + s.table.discard[-1]] == 1
    assert obs[LAYOUT["stock_size"]][0] == pytest.approx(len(s.table.stock) / 159)
    assert obs[LAYOUT["hand_sizes"]] == pytest.approx([21 / 22] * 4 + [0, 0])
    assert obs[LAYOUT["active"]].tolist() == [1] * 4 + [0, 0]
    assert obs[LAYOUT["phase"]].tolist() == [1, 0]


def test_round_end_info_through_the_env():
    e = raw_env(num_players=3, reward="zero_sum")
    e.reset(seed=5)
    s, game = e.state, e.game
    me = game.current_player(s)
    others = [p for p in range(3) if p != me]
    s.hands[me] = to_counts(parse_cards(M3 + " 7C"))
    s.hands[others[0]] = to_counts(parse_cards(M5))
    s.indicator = parse_card("7D")
    s.wild, s.wild_rank = wild_cards(game.config, s.indicator)
    s.phase, s.mask = DISCARD, None
    e.step(A.SHOW + parse_card("7C"))
    assert all(e.terminations.values()) and not any(e.truncations.values())
    result = e.infos["player_0"]["rounds"][-1]
    assert result["winner"] == me and result["wild_rank"] == "8"
    loser = result["players"][others[0]]
    assert loser["penalty"] == 53 and result["penalties"][others[0]] == 53
    pen = np.array(result["penalties"], float)
    assert [e._cumulative_rewards[a] for a in e.agents] == pytest.approx(pen.mean() - pen)
    assert "showed" in game.render(s)


def test_raw_env_rejects_illegal_actions():
    e = raw_env()
    e.reset(seed=1)
    with pytest.raises(ValueError, match=r"illegal action .* for player"):
        e.step(A.DISCARD)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb")
