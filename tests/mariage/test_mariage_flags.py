"""One test per Config flag, flipping it and checking the rule changes (and only then)."""

from __future__ import annotations

import numpy as np
import pytest
from mariage_helpers import game, legal_cards, play, position

from taas.envs.mariage.actions import CLAIM, EXCHANGE, MARRY, parse
from taas.envs.mariage.config import Config
from taas.envs.mariage.env import raw_env
from taas.envs.mariage.rules import OVER, MariageGame

HANDS = ("7D AS 10S KS QS JS", "AH 10H KH QH JH 9H")


@pytest.mark.parametrize("requires, tricks, legal", [
    (False, 0, True), (True, 0, False), (True, 1, True),
])
def test_exchange_requires_trick(requires, tricks, legal):
    g = game(exchange_requires_trick=requires)
    s = position(g, *HANDS, indicator="JD")
    s.tricks[0] = tricks
    assert bool(g.legal_mask(s)[EXCHANGE]) is legal


@pytest.mark.parametrize("minimum, top, legal", [
    (1, "9C", True), (2, "9C", False), (2, "9C 8C 7C", True),
])
def test_exchange_min_facedown(minimum, top, legal):
    g = game(exchange_min_facedown=minimum)
    s = position(g, *HANDS, indicator="JD", top=top, full=False)
    assert bool(g.legal_mask(s)[EXCHANGE]) is legal


@pytest.mark.parametrize("flag", [False, True])
def test_marriages_in_closed_phase(flag):
    g = game(marriages_in_closed_phase=flag)
    s = position(g, *HANDS, indicator="JD")
    play(g, s, "close")
    assert bool(g.legal_mask(s)[MARRY + 0]) is flag


@pytest.mark.parametrize("head, allowed", [(False, "KH QH 9H 8H"), (True, "KH QH")])
def test_must_head_trick(head, allowed):
    g = game(must_head_trick=head)
    s = position(g, "JH 8S", "KH QH 9H 8H AS", indicator="7C", top="8C 9C", full=False)
    play(g, s, "close JH")
    assert legal_cards(g, s) == set(parse(allowed))


def test_must_head_trick_void_follower_must_still_trump():
    g = game(must_head_trick=True)
    s = position(g, "JS 8H", "AC 7C AS", indicator="10C", top="8C 9C", full=False)
    play(g, s, "close 8H")
    assert legal_cards(g, s) == set(parse("AC 7C"))


@pytest.mark.parametrize("allow, points, legal", [
    (True, 0, True), (False, 0, False), (False, 65, False), (False, 66, True),
])
def test_allow_false_claims(allow, points, legal):
    g = game(allow_false_claims=allow)
    s = position(g, *HANDS, indicator="JD")
    s.trick_points[0], s.tricks[0] = points, 1
    assert bool(g.legal_mask(s)[CLAIM]) is legal


@pytest.mark.parametrize("points", [1, 2, 3])
def test_false_claim_points(points):
    g = game(false_claim_points=points)
    s = position(g, *HANDS, indicator="JD")
    play(g, s, "claim")
    assert (s.result["winner"], s.result["game_points"]) == (1, points)


@pytest.mark.parametrize("penalty, no_trick, b_tricks, expected", [
    (2, 3, 0, 3), (2, 3, 1, 2), (1, 3, 1, 1), (2, 2, 0, 2),
])
def test_closing_penalties(penalty, no_trick, b_tricks, expected):
    g = game(closing_penalty=penalty, closing_penalty_no_trick=no_trick)
    s = position(g, "7S", "8H", indicator="9C", top="AD KD 10D", full=False)
    s.trick_points, s.tricks = [40, 0], [2, b_tricks]
    play(g, s, "close 7S 8H")
    assert (s.result["winner"], s.result["game_points"]) == (1, expected)


@pytest.mark.parametrize("bonus, closed, winner, p1_score", [
    (False, False, 0, 58), (True, False, 1, 68), (True, True, 0, 58),
])
def test_last_trick_bonus_only_when_the_talon_ran_out(bonus, closed, winner, p1_score):
    g = game(last_trick_bonus=bonus)
    if closed:  # player 1 closed and fails either way: the bonus must not apply
        s = position(g, "7S", "8S", indicator="9C", top="AD", full=False)
        s.trick_points, s.tricks = [62, 58], [5, 5]
        s.closed_by, s.no_trick_at_close = 1, False
    else:
        s = position(g, "7S", "8S", full=False, trump="C")
        s.trick_points, s.tricks = [62, 58], [5, 5]
    play(g, s, "7S 8S")
    assert s.result["winner"] == winner and MariageGame.score(s, 1) == p1_score


def finish_deal(g, s, winner_points=70, loser_points=20):
    """Make player ``s.to_move`` claim validly (loser below 33: 2 game points)."""
    p = s.to_move
    s.trick_points[p], s.tricks[p] = winner_points, 4
    s.trick_points[1 - p], s.tricks[1 - p] = loser_points, 1
    g.apply_action(s, CLAIM)
    return p


def test_episode_deal_vs_match():
    g = game()
    s = g.new_state(np.random.default_rng(0))
    finish_deal(g, s)
    assert s.phase == OVER and g.current_player(s) == -1
    g = game(episode="match")
    s = g.new_state(np.random.default_rng(0))
    dealer = s.dealer
    w = finish_deal(g, s)
    assert s.phase != OVER and s.deal_no == 1 and s.dealer == 1 - dealer
    assert s.game_points[w] == 2 and s.returns[w] == 2
    assert [bin(h).count("1") for h in s.hands] == [6, 6] and len(s.talon) == 20
    assert s.trick_points == [0, 0] and s.to_move == 1 - s.dealer


@pytest.mark.parametrize("target, deals", [(None, 4), (3, 2)])
def test_match_target_game_points(target, deals):
    g = game(episode="match", match_target=target)
    s = g.new_state(np.random.default_rng(1))
    for _ in range(deals):
        s.to_move = 0
        finish_deal(g, s)
    assert s.phase == OVER and s.match_winner == 0 and s.game_points[0] == 2 * deals


@pytest.mark.parametrize("raw, expected_winner", [([90, 20], 0), ([20, 20], -1), ([25, 95], 1)])
def test_match_mode_raw_points(raw, expected_winner):
    g = game(episode="match", match_mode="raw_points", match_target=100)
    s = g.new_state(np.random.default_rng(2))
    s.raw_points = list(raw)
    s.to_move = 0
    finish_deal(g, s, 70, 10)  # raw totals become raw + [70, 10]
    assert s.match_winner == expected_winner and (s.phase == OVER) is (expected_winner >= 0)


def test_match_mode_raw_points_exact_tie_plays_on():
    g = game(episode="match", match_mode="raw_points", match_target=100)
    s = g.new_state(np.random.default_rng(2))
    s.raw_points, s.to_move = [40, 100], 0
    finish_deal(g, s, 70, 10)
    assert s.raw_points == [110, 110] and s.match_winner == -1 and s.phase != OVER


def test_match_mode_three_in_a_row():
    g = game(episode="match", match_mode="three_in_a_row")
    s = g.new_state(np.random.default_rng(3))
    for winner in (0, 0, 1, 0, 0):
        s.to_move = winner
        finish_deal(g, s)
        assert s.phase != OVER
    s.to_move = 0
    finish_deal(g, s)
    assert s.match_winner == 0 and s.streak == [3, 0] and s.game_points == [10, 2]


@pytest.mark.parametrize("episode, reward, after_first, final", [
    ("deal", "points", None, [2, -2]), ("deal", "win", None, [1, -1]),
    ("match", "points", [2, -2], [4, -4]), ("match", "win", [0, 0], [1, -1]),
])
def test_reward(episode, reward, after_first, final):
    g = game(episode=episode, reward=reward, match_target=4)
    s = g.new_state(np.random.default_rng(4))
    s.to_move = 0
    finish_deal(g, s)
    if after_first is not None:
        assert list(g.returns(s)) == after_first
        s.to_move = 0
        finish_deal(g, s)
    assert s.phase == OVER and list(g.returns(s)) == final


def test_max_turns_truncates():
    g = game(episode="match", max_turns=3)
    s = g.new_state(np.random.default_rng(5))
    for _ in range(3):
        g.apply_action(s, int(np.flatnonzero(g.legal_mask(s)[:32])[0]))
    assert g.is_terminal(s) and g.is_truncated(s) and g.current_player(s) == -1


@pytest.mark.parametrize("rules, field", [
    ({"must_head_trick": 1}, "must_head_trick"),
    ({"exchange_min_facedown": 3}, "exchange_min_facedown"),
    ({"match_mode": "1001"}, "match_mode"), ({"match_target": 0}, "match_target"),
    ({"episode": "round"}, "episode"), ({"reward": "zero_sum"}, "reward"),
    ({"false_claim_points": 0}, "false_claim_points"), ({"max_turns": 0}, "max_turns"),
])
def test_invalid_config_values_name_the_field(rules, field):
    with pytest.raises(ValueError, match=field):
        Config(**rules)


def test_unknown_rule_lists_the_known_ones():
    with pytest.raises(ValueError, match="must_head_trick"):
        raw_env(must_head=True)
    assert raw_env().game.config.target == 7
    assert Config(match_mode="raw_points").target == 1000
