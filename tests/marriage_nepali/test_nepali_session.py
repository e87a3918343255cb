"""Nepali Marriage sessions (``episode="match"``): the deal passing one seat in ``direction``
(2N.1.4), the running settlement (each deal zero-sum, Net × stake, 2N.9.5), the end by deal
count or points target, and the session customs the spec lists (W's "Better" stake × 2 for a
cycle, Dhoos paid to the next winner); cards conserved and masks exact over whole sessions."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taas.envs.core.cards import parse_cards, to_counts
from taas.envs.core.conformance import check_game, play_states
from taas.envs.marriage_nepali.config import Config
from taas.envs.marriage_nepali.observation import NepaliObserver
from taas.envs.marriage_nepali.rules import DISCARD, DRAW, EXPOSE, NepaliGame
from tests.marriage_nepali.test_nepali_engine import E1, eager, position, set_tiplu, show

SESSION = {"episode": "match"}


def finish_e4(game, s):
    """Seat 0 finishes as in E4 (S_A = 5) with the other holdings empty: +45 to seat 0,
    -15 to each unseen loser (4 players)."""
    show(game, s, "show_run 2C-3C-4C", "show_run 9S-10S-JS", "show_tunnela QD")
    set_tiplu(s, "7H")
    s.hands[1:] = 0
    show(game, s, "finish 3S")


def session_position(flags=None):
    """A session's first deal with seat 0 holding E1 + 7H (it can finish after showing)."""
    return position(E1.replace("6C", "7H"), {**SESSION, **(flags or {})})


def play_session(flags, seed=0):
    game = NepaliGame(Config(**{**SESSION, **flags}))
    states = list(play_states(game, seed, eager(seed)))
    return game, states[-1]


@pytest.mark.parametrize("direction", ["anticlockwise", "clockwise"])
def test_the_deal_passes_one_seat_in_direction(direction):
    """2N.1.4: "afterwards the deal passes one seat in `direction`"; 2N.1.6: the player next
    to the dealer in `direction` plays first."""
    game, s = play_session({"direction": direction, "num_rounds": 5})
    dealers = [r["dealer"] for r in s.history]
    assert len(dealers) == 5
    for before, after in itertools.pairwise(dealers):
        assert after == game.next_seat(before)
    assert game.next_seat(0) == (3 if direction == "anticlockwise" else 1)


def test_a_new_deal_starts_after_the_dealer_with_fresh_hands():
    game, s = session_position()
    dealer = s.dealer
    finish_e4(game, s)
    assert not s.over and s.rounds_played == 1
    assert s.dealer == game.next_seat(dealer)
    assert (s.hands + s.exposed).sum(axis=1).tolist() == [21] * 4
    assert s.tiplu < 0 and not any(s.seen) and s.turns == 0
    assert s.phase in (DRAW, EXPOSE)
    assert s.phase == EXPOSE or s.current == game.next_seat(s.dealer)
    assert len(s.table.stock) == 71 and len(s.table.discard) == 1


def test_running_settlement_pays_each_deal_and_sums_to_the_totals():
    """Every deal settles zero-sum as it ends (Net × stake); the running totals are the sums
    of the deals' payments and equal the episode's returns."""
    game, s = session_position({"stake": 2})
    finish_e4(game, s)
    assert s.history[0]["money"] == [90, -30, -30, -30]
    assert s.totals.tolist() == [90, -30, -30, -30]
    assert game.returns(s).tolist() == [90.0, -30.0, -30.0, -30.0]
    game, s = play_session({"num_rounds": 4})
    assert s.over and not s.truncated and s.rounds_played == 4
    money = np.array([r["money"] for r in s.history])
    assert (money.sum(axis=1) == 0).all()
    assert s.totals.tolist() == money.sum(axis=0).tolist() == game.returns(s).tolist()
    assert [r["penalties"] for r in s.history] == (-money).tolist()  # the rummy series table


def test_session_length_by_deals_default_one_cycle():
    assert Config(episode="match").rounds == 4  # one deal per player
    assert Config(episode="match", num_rounds=7).rounds == 7
    assert Config(episode="match", target_score=100).rounds is None  # until the target
    _, s = play_session({"num_players": 3})
    assert s.over and s.rounds_played == 3


@pytest.mark.parametrize(("target", "ends"), [(45, True), (46, False)])
def test_the_session_ends_after_the_deal_in_which_a_total_reaches_the_target(target, ends):
    game, s = session_position({"target_score": target, "num_rounds": 9})
    finish_e4(game, s)
    assert s.over is ends
    if ends:
        assert s.winner == 0 and game.info(s, 0)["winner"] == 0
        assert game.info(s, 0)["rounds"][0]["winner"] == 0
    else:
        assert s.rounds_played == 1 and s.winner == -1


@pytest.mark.parametrize("better", [False, True])
def test_better_doubles_the_stake_in_every_second_cycle(better):
    """W's "Better" (spec 2N.9.5: stake × 2 for a cycle): deals n+1..2n of a session pay
    double; deals 1..n and 2n+1..3n do not."""
    game, s = session_position({"better": better, "num_rounds": 12})
    stakes = []
    for played in range(12):
        s.rounds_played = played
        stakes.append(game.deal_stake(s))
    assert stakes == [1] * 4 + [2 if better else 1] * 4 + [1] * 4
    s.rounds_played = 4  # the first deal of the second cycle
    finish_e4(game, s)
    assert s.history[-1]["money"] == ([90, -30, -30, -30] if better else [45, -15, -15, -15])


def foul_by_seat_1(game, s):
    """Seat 1, seen, discards the poplu 8H to seen seat 0 (its next seat anticlockwise)."""
    s.current, s.phase, s.mask = 1, DISCARD, None
    s.hands[1] = to_counts(parse_cards("8H 2S 3S"))
    s.seen[0] = s.seen[1] = s.seen[2] = True  # seats 1 and 2 will pay alike but for the foul
    set_tiplu(s, "7H")
    show(game, s, "discard 8H")
    assert s.fouls[1] == 1


def finish_seat_0(game, s):
    s.hands[0] = to_counts(parse_cards("KH KS KC 4H 5H 8H 10D JD AC AD 7C 7H 3S"))
    s.hands[1:] = 0
    s.current, s.phase, s.mask, s.showed_now = 0, DISCARD, None, False
    s.seen[0], s.route[0] = True, 1
    set_tiplu(s, "7H")
    show(game, s, "finish 3S")


@pytest.mark.parametrize("payee", ["winner", "next_winner"])
def test_dhoos_is_paid_to_the_winner_or_to_the_next_winner(payee):
    """W's Dhoos: "award 15 points to the winner of the next game. If the player who cheated
    wins the next game, the penalty is cancelled." ``"winner"``: paid in the deal itself."""
    game, s = position(E1, {**SESSION, "foul_points": 15, "foul_payee": payee})
    foul_by_seat_1(game, s)
    finish_seat_0(game, s)  # seat 0 wins deal 1
    first = s.history[0]
    plain = 15 if payee == "winner" else 0
    assert first["net"][1] - first["net"][2] == -plain  # seats 1 and 2 hold the same
    if payee == "next_winner":
        assert s.owed == [0, 15, 0, 0]
        finish_seat_0(game, s)  # seat 0 wins deal 2: seat 1 pays the 15 now
        assert s.history[1]["dhoos"] == [0, 15, 0, 0]
        assert s.history[1]["net"][1] - s.history[1]["net"][2] == -15
        assert s.owed == [0, 0, 0, 0]


def test_dhoos_is_cancelled_when_the_offender_wins_the_next_deal():
    game, s = position(E1, {**SESSION, "foul_points": 15, "foul_payee": "next_winner"})
    foul_by_seat_1(game, s)
    finish_seat_0(game, s)
    s.hands[1] = to_counts(parse_cards("KH KS KC 4H 5H 8H 10D JD AC AD 7C 7H 3S"))
    s.hands[[0, 2, 3]] = 0
    s.current, s.phase, s.mask, s.showed_now = 1, DISCARD, None, False
    s.seen[1], s.route[1] = True, 1
    set_tiplu(s, "7H")
    show(game, s, "finish 3S")
    assert s.history[1]["dhoos"] == [0, 0, 0, 0] and s.owed == [0, 0, 0, 0]


def test_session_rules_need_a_match_episode():
    for flags in ({"better": True}, {"foul_payee": "next_winner"}):
        with pytest.raises(ValueError, match="episode='match'"):
            Config(**flags)
    with pytest.raises(ValueError, match="num_rounds"):
        Config(episode="match", num_rounds=0)


def test_round_episodes_report_no_session():
    game, s = position(E1.replace("6C", "7H"))
    finish_e4(game, s)
    assert s.over and s.history == [] and "rounds" not in game.info(s, 0)
    assert game.returns(s).tolist() == [45.0, -15.0, -15.0, -15.0]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), players=st.sampled_from([2, 4, 5]),
       flags=st.sampled_from([{}, {"better": True, "foul_points": 15,
                                   "foul_payee": "next_winner", "direction": "clockwise"},
                              {"stock_exhausted": "void", "target_score": 60}]))
def test_sessions_conserve_cards_and_keep_masks_exact(seed, players, flags):
    """The conformance checker over whole sessions: every card in one zone at every step,
    the mask exactly what ``apply_action`` accepts, replays identical."""
    config = Config(episode="match", num_rounds=3, num_players=players, **flags)
    summary = check_game(NepaliGame(config), NepaliObserver(config), seeds=[seed],
                         policy=eager, exhaustive_every=25)
    assert summary.episodes == 1
