"""marriage_nepali_v0 through PettingZoo (api_test, seed_test) and the engine conformance
checker, at 2, 4 and 5 players, with the issue's flag configs and with every flag flipped."""

from __future__ import annotations

import warnings

import pytest
from pettingzoo.test import api_test, seed_test

from taas.envs.core.conformance import check_game
from taas.envs.marriage_nepali.config import Config
from taas.envs.marriage_nepali.env import env
from taas.envs.marriage_nepali.observation import NepaliObserver
from taas.envs.marriage_nepali.rules import NepaliGame
from tests.marriage_nepali.test_nepali_engine import eager

CONFIGS = [
    {"num_players": 2},
    {"num_players": 4},
    {"num_players": 5},
    {"printed_jokers": 3},
    {"unseen_maal": "kidnap"},
    {"dublee_route": False},
    {"episode": "match", "num_rounds": 2, "better": True},
]
EVERY_FLAG_FLIPPED = {
    "num_players": 6, "max_players": 6, "printed_jokers": 3, "direction": "clockwise",
    "unseen_discard_pickup": "complete_pure", "seen_wild_pickup": False,
    "dublee_discard_pickup": "any", "forbid_rediscard_of_drawn_discard": False,
    "tunnela_bonus_scope": "hand", "initial_tunnela_window": "own_first_turn",
    "three_initial_tunnelas": "win", "dublee_min_players": 2, "open_maal": True,
    "ace_sequence": "low_only", "max_meld_size": 4, "finish_on_show_turn": False,
    "dublee_finish_discard": False, "joker_dublee": True, "stock_exhausted": "void",
    "unseen_maal": "count", "tunnel_pachaunu": True, "maal_table": "pagat",
    "shown_marriage_values": (15, 35), "seen_payment": 2, "unseen_payment": 8,
    "dublee_seen_loser_payment": 3, "dublee_win_extra": 7, "foul_points": 15, "stake": 2,
    "episode": "match", "num_rounds": 2, "target_score": 40, "better": True,
    "foul_payee": "next_winner", "max_turns_per_round": 300,
}


@pytest.mark.parametrize("flags", CONFIGS, ids=str)
def test_pettingzoo_api_and_seed(flags):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(**flags), num_cycles=100)
        seed_test(lambda: env(**flags), num_cycles=100)


@pytest.mark.parametrize(
    "flags",
    [*CONFIGS, EVERY_FLAG_FLIPPED, {"unseen_discard_pickup": "never", "dublee_min_players": 2,
                                    "num_players": 2}],
    ids=str,
)
def test_conformance_to_the_end_of_rounds(flags):
    config = Config(**flags)
    summary = check_game(NepaliGame(config), NepaliObserver(config), seeds=range(2),
                         policy=eager)
    assert summary.episodes == 2 and summary.truncated == 0


def test_rounds_end_zero_sum_with_a_winner():
    config = Config()
    game = NepaliGame(config)
    from taas.envs.core.conformance import play_states

    for seed in range(4):
        states = list(play_states(game, seed, eager(seed)))
        s = states[-1]
        assert game.is_terminal(s) and sum(game.returns(s)) == 0
        assert s.result["void"] or s.seen[s.winner]
