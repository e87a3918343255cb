"""The worked examples X1-X10 of docs/rules/mariage.md, hand-checked."""

from __future__ import annotations

import pytest
from mariage_helpers import game, legal_cards, play, position

from taas.envs.mariage.actions import CLAIM, CLOSE, EXCHANGE, MARRY, POINTS, parse
from taas.envs.mariage.rules import OVER, TRICKS, MariageGame


def card(text: str) -> int:
    return parse(text)[0]


def test_pack_totals_120_and_x1_card_points_of_won_tricks():
    assert sum(POINTS) == 120
    g = game()
    s = position(g, "AS KH QC 9D 7C 8C", "10S 7H JC 8D 9C 9H", indicator="8S")
    play(g, s, "AS 10S KH 7H QC JC 9D 8D")
    assert s.trick_points == [30, 0] and s.tricks == [4, 0]
    assert MariageGame.score(s, 0) == 30


@pytest.mark.parametrize("lead, follow, follower_wins", [
    ("10H", "AH", True), ("10H", "7S", True), ("10H", "AD", False),
    ("KS", "AS", True), ("7S", "AH", False),
])
def test_x2_trick_winner_with_spades_trump(lead, follow, follower_wins):
    assert TRICKS.follower_wins(card(lead), card(follow), trump=0) is follower_wins


def claim_position(claimant_points, marriage, opp_points, opp_tricks, **rules):
    g = game(**rules)
    s = position(g, "AS KH QC 9D 7C 8C", "10S 7H JC 8D 9C 9H", indicator="8S")
    s.trick_points, s.tricks = [claimant_points, opp_points], [3, opp_tricks]
    s.marriage_points = [marriage, 0]
    return g, s


@pytest.mark.parametrize("opp_points, opp_tricks, expected", [
    (41, 2, 1), (33, 2, 1), (32, 2, 2), (0, 0, 3), (70, 4, 1),
])
def test_x3_valid_claim_scores_by_opponents_points(opp_points, opp_tricks, expected):
    g, s = claim_position(48, 20, opp_points, opp_tricks)
    g.apply_action(s, CLAIM)
    assert s.phase == OVER
    assert (s.result["winner"], s.result["game_points"]) == (0, expected)
    assert s.returns == [expected, -expected]


def test_x3_claim_at_65_is_false_and_gives_the_opponent_2():
    g, s = claim_position(45, 20, 41, 2)
    g.apply_action(s, CLAIM)
    assert (s.result["winner"], s.result["game_points"]) == (1, 2)
    assert "falsely with 65" in s.result["reason"]


def x4_after_trump_marriage_lost():
    g = game()
    s = position(g, "KH QH 7C 8C 9S 8S", "AH 10H AC JD 9D 7D", indicator="8H")
    play(g, s, "marryH KH AH")  # trick 1 to the dealer
    return g, s


def test_x4_pending_marriage_never_counts_without_a_trick():
    g, s = x4_after_trump_marriage_lost()
    assert s.marriage_points[0] == 40 and MariageGame.score(s, 0) == 0
    s.trick_points[1] = 70
    play(g, s, "claim")
    assert (s.result["winner"], s.result["game_points"]) == (1, 3)


def test_x4_pending_marriage_counts_once_the_declarer_wins_a_trick():
    g, s = x4_after_trump_marriage_lost()
    s.hands[1] |= 1 << card("7S")
    play(g, s, "7S 9S")
    assert s.tricks[0] == 1 and MariageGame.score(s, 0) == 40


@pytest.mark.parametrize("false_claims", [True, False])
def test_x5_marriage_reaching_66_is_claimed_before_leading(false_claims):
    g = game(allow_false_claims=false_claims)
    s = position(g, "KC QC 7H 8H 9S 8S", "AH 10H AC JD 9D 7D", indicator="8C")
    s.trick_points, s.tricks = [31, 20], [2, 1]
    assert bool(g.legal_mask(s)[CLAIM]) is false_claims
    play(g, s, "marryC")
    assert MariageGame.score(s, 0) == 71 and g.legal_mask(s)[CLAIM]
    assert legal_cards(g, s) == {card("KC"), card("QC")}
    play(g, s, "claim")
    assert (s.result["winner"], s.result["game_points"]) == (0, 2)


def test_x6_trump_seven_exchange_and_the_loser_of_trick_10_draws_it():
    g = game()
    s = position(g, "7D AS 10S KS QS JS", "AH 10H KH QH JH 9H", indicator="JD")
    assert g.legal_mask(s)[EXCHANGE]
    play(g, s, "exchange")
    assert card("JD") in legal_cards(g, s) and card("7D") not in legal_cards(g, s)
    assert s.talon[0] == card("7D") and not g.legal_mask(s)[EXCHANGE]
    for _ in range(10):  # lowest card each, no specials
        for _ in range(2):
            g.apply_action(s, min(legal_cards(g, s), key=lambda c: (POINTS[c], -c)))
    assert not s.talon
    loser = 1 - s.to_move
    assert s.hands[loser] >> card("7D") & 1 and s.known[loser] >> card("7D") & 1


def test_x6_no_exchange_with_seven_as_indicator_or_after_a_close():
    g = game()
    s = position(g, "JD AS 10S KS QS JS", "AH 10H KH QH JH 9H", indicator="7D")
    assert not g.legal_mask(s)[EXCHANGE]
    s = position(g, "7D AS 10S KS QS JS", "AH 10H KH QH JH 9H", indicator="JD")
    play(g, s, "close")
    assert not g.legal_mask(s)[EXCHANGE] and not g.legal_mask(s)[CLOSE]


@pytest.mark.parametrize("follower, allowed", [
    ("KC 7C AH 8D", "KC 7C"), ("AH 9H 8D", "AH 9H"), ("8D QS", "8D QS"),
])
def test_x7_closed_phase_follow_suit_else_trump(follower, allowed):
    g = game()
    s = position(g, "10C 7S", follower, indicator="JH")
    play(g, s, "close 10C")
    assert legal_cards(g, s) == set(parse(allowed))


def test_x7_open_phase_has_no_duty_to_follow():
    g = game()
    s = position(g, "10C 7S", "KC 7C AH 8D", indicator="JH")
    play(g, s, "10C")
    assert legal_cards(g, s) == set(parse("KC 7C AH 8D"))


@pytest.mark.parametrize("head, allowed", [(True, "KC"), (False, "KC 7C")])
def test_x7_must_head_trick(head, allowed):
    g = game(must_head_trick=head)
    s = position(g, "QC 7S", "KC 7C AH", indicator="JH")
    play(g, s, "close QC")
    assert legal_cards(g, s) == set(parse(allowed))


def closing_position(b_tricks, **rules):
    """A (player 0) has 58 after two tricks and a marriage; one card each is left."""
    g = game(**rules)
    s = position(g, "7S", "8H", indicator="9C", top="AD KD 10D", full=False)
    s.trick_points, s.tricks, s.marriage_points = [38, 4 * b_tricks], [2, b_tricks], [20, 0]
    return g, s


@pytest.mark.parametrize("b_tricks, expected", [(0, 3), (1, 2)])
def test_x8_closer_below_66_gives_the_opponent_the_penalty(b_tricks, expected):
    g, s = closing_position(b_tricks)
    play(g, s, "close 7S 8H")
    assert MariageGame.score(s, 0) == 58
    assert (s.result["winner"], s.result["game_points"]) == (1, expected)
    assert "closed the talon" in s.result["reason"]


def test_x8_closer_claiming_68_scores_by_the_table():
    g, s = closing_position(1)
    s.trick_points = [48, 30]
    play(g, s, "close claim")
    assert (s.result["winner"], s.result["game_points"]) == (0, 2)


@pytest.mark.parametrize("b_tricks, expected", [(0, 3), (1, 2)])
def test_x8_opponent_claiming_first_after_a_close(b_tricks, expected):
    g = game()
    s = position(g, "7S 8S", "AS 9D", indicator="9C", top="AD KD", full=False)
    s.tricks, s.trick_points, s.marriage_points = [2, b_tricks], [30, 2 * b_tricks], [0, 60]
    play(g, s, "close 7S AS claim")
    assert (s.result["winner"], s.result["game_points"]) == (1, expected)


def played_out(p0_points, p1_points, dealer=1, **rules):
    g = game(**rules)
    s = position(g, "7S", "8S", full=False, dealer=dealer, trump="C")
    s.trick_points, s.tricks = [p0_points, p1_points], [5, 5]
    play(g, s, "7S 8S" if dealer == 1 else "8S 7S")  # player 1 takes the 0-point last trick
    return s.result


@pytest.mark.parametrize("points, dealer, winner, gp", [
    ((62, 58), 1, 0, 1), ((60, 60), 1, 0, 1), ((60, 60), 0, 1, 1), ((70, 50), 1, 0, 1),
    ((90, 30), 1, 0, 2), ((30, 90), 1, 1, 2),
])
def test_x9_played_out_higher_score_wins_tie_to_non_dealer(points, dealer, winner, gp):
    result = played_out(*points, dealer=dealer)
    assert (result["winner"], result["game_points"]) == (winner, gp)


def test_x10_match_ends_when_a_deal_reaches_7():
    g = game(episode="match")
    s = position(g, "AS", "7H", indicator="8S")
    s.game_points = [6, 5]
    s.trick_points, s.tricks = [70, 20], [4, 1]
    play(g, s, "claim")
    assert s.game_points == [8, 5] and s.phase == OVER and s.match_winner == 0
    assert g.current_player(s) == -1


def test_marriage_only_when_leading_in_open_phase_and_one_per_lead():
    g = game()
    s = position(g, "KH QH KS QS 7C 8C", "AH 10H AC JD 9D 7D", indicator="8D")
    mask = g.legal_mask(s)
    assert mask[MARRY + 1] and mask[MARRY + 0] and not mask[MARRY + 2]
    play(g, s, "marryH")
    assert not g.legal_mask(s)[MARRY:MARRY + 4].any()
    assert s.marriage_points[0] == 20
    play(g, s, "QH")
    assert not g.legal_mask(s)[MARRY:MARRY + 4].any()  # follower may not declare
    assert s.known[0] >> card("KH") & 1
