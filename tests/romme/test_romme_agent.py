"""The rule-based Rommé agent against random play, and the score helper."""

import numpy as np
import pytest

from taas.arena.evaluate import duplicate_deals
from taas.envs.core.cards import parse_cards
from taas.envs.romme.scoring import score_hand


def test_heuristic_beats_random_in_two_player_rounds():
    tally = duplicate_deals("romme_v1", "heuristic", deals=40, seed=1000, num_players=2)
    assert tally.win_interval[0] >= 0.85, tally  # 0.99 measured over 800 rounds


def test_heuristic_plays_every_table_size_and_variant():
    from taas.agents.base import RandomAgent
    from taas.agents.heuristic.romme import RommeHeuristicAgent
    from taas.arena import play_game
    from taas.envs.romme.config import Config
    from taas.envs.romme.env import env as make_env

    for rules in (
        {"num_players": 6},
        {
            "allow_wraparound": True,
            "joker_limit": "one_per_meld",
            "discard_draw_requires_opening": True,
            "num_players": 3,
        },
    ):
        n = rules["num_players"]
        agents = [RommeHeuristicAgent(i, Config(**rules)) for i in range(n - 1)] + [RandomAgent(9)]
        result = play_game(make_env(**rules), agents, seed=5)
        assert not result.truncated and result.steps > 0


@pytest.mark.parametrize(
    "hand,never_opened,players,expected",
    [
        ("AS JK 5D", False, 2, {"hand_value": 36, "charge": 36}),  # R5
        ("KS QD 9C 7H", True, 2, {"hand_value": 36, "charge": 50}),  # R6
        ("3C 4D 6S", True, 2, {"hand_value": 13, "charge": 38}),
        ("AS 2S", False, 4, {"hand_value": 13, "charge": 13}),  # R14
    ],
)
def test_score_hand_charges(hand, never_opened, players, expected):
    out = score_hand(parse_cards(hand), never_opened=never_opened, players=players)
    assert {k: out[k] for k in expected} == expected


def test_score_hand_opening():
    out = score_hand(parse_cards("QH KH AH 7S 7D 7C 2C"))
    assert out["opening_value"] == 52 and sorted(out["opening_melds"]) == ["7S 7D 7C", "QH KH AH"]
    out = score_hand(parse_cards("JK 2C 3C"))
    assert out["opening_melds"] == ["2C 3C JK"] and out["opening_value"] == 9
    assert score_hand(parse_cards("JK JK 5H"), joker_limit="any")["opening_value"] == 18
    with pytest.raises(ValueError, match="unknown romme rule"):
        score_hand([], jokerz=1)
    with pytest.raises(ValueError, match="copies"):
        score_hand(parse_cards("AS AS AS"))
    assert np.isscalar(score_hand([])["charge"])
