"""Continental determinizer on hand-built tables: seen cards stay out of the hidden deal, a
card taken from the pile stays with its taker until discarded, rollouts go out at once."""

import numpy as np
from continental_helpers import arrange

from taas.envs.continental import actions as A
from taas.envs.continental.config import Config
from taas.envs.continental.determinize import determinize, distance, rollout
from taas.envs.continental.rules import DRAW, ContinentalGame
from taas.envs.core.cards import parse_card, parse_cards, to_counts

HAND_1 = "KS KD 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 2D"


def table():
    """Three seats (two decks, four jokers); seat 0 holds both aces of spades, both 2H lie in
    the pile under a 7H; seat 1 to draw."""
    game = ContinentalGame(Config(num_players=3))
    s = game.new_state(np.random.default_rng(0))
    arrange(game, s, {0: "AS AS 3H 4H 5H 6H 7D 8D 9D 10D JD QD KH KH QH", 1: HAND_1},
            discard="2H 2H 7H")
    s.current, s.phase, s.table.drawn_discard = 1, DRAW, -1
    return game, s


def test_seen_cards_are_never_dealt_to_hidden_places():
    game, s = table()
    game.apply_action(s, A.DRAW_STOCK)
    game.apply_action(s, A.DISCARD + parse_card("KS"))
    assert game.current_player(s) == 2
    rng = np.random.default_rng(1)
    for _ in range(30):
        d = determinize(game, s, 2, rng)
        assert (d.hands[2] == s.hands[2]).all()
        hidden = d.hands[0] + d.hands[1] + to_counts(d.table.stock)
        seen_by_2 = s.hands[2] + s.table.pile
        shoe = game.shoe(s)
        assert (hidden + seen_by_2 == shoe).all()
    # seat 0 sees its own two AS and the two 2H in the pile: none of them is hidden anywhere
    for _ in range(30):
        d = determinize(game, s, 0, rng)
        for q in (1, 2):
            assert d.hands[q, parse_card("AS")] == 0 and d.hands[q, parse_card("2H")] == 0
        assert parse_card("AS") not in d.table.stock and parse_card("2H") not in d.table.stock


def test_a_taken_card_stays_with_its_taker_until_discarded():
    game, s = table()
    game.apply_action(s, A.DRAW_DISCARD)  # seat 1 takes the 7H
    game.apply_action(s, A.DISCARD + parse_card("KS"))
    rng = np.random.default_rng(2)
    seven = parse_card("7H")
    dealt = [determinize(game, s, 2, rng).hands[1, seven] for _ in range(30)]
    assert min(dealt) >= 1
    # seat 2 draws and discards; seat 0 likewise; seat 1 then throws the 7H back
    for _ in range(2):
        game.apply_action(s, A.DRAW_STOCK)
        hand = s.hands[s.current]
        game.apply_action(s, A.DISCARD + int(np.flatnonzero(hand)[0]))
    game.apply_action(s, A.DRAW_STOCK)
    game.apply_action(s, A.DISCARD + seven)
    game.apply_action(s, A.DRAW_STOCK)  # seat 2 to discard: the 7H is no longer pinned
    dealt = [determinize(game, s, 2, rng).hands[1, seven] for _ in range(60)]
    assert min(dealt) == 0


def test_distance_counts_cards_still_to_draw():
    def distance_of(cards: str) -> int:
        return distance(to_counts(parse_cards(cards)), 15)

    assert distance_of("AS AH AD 5C 5D 5S 9C 9D 9H 9S KC KD KH QS QD") == 1  # a queen
    assert distance_of("AS AH JK 5C 5D 5S 9C 9D 9H 9S KC KD KH QS QD") == 1  # the joker fills one
    # keep the kings, the joker and four singles: 8 cards short, and 8 cards fill those groups
    assert distance_of("AS 2H 3D 4C 5D 6S 7C 8D 9H 10S JC QD KH KS JK") == 8
    assert distance_of("AS AH AD 5C 5D 5S 9C 9D 9H KC KD KH QS QD QH") == 0


def test_rollout_goes_out_when_it_can(monkeypatch):
    monkeypatch.setattr("taas.envs.continental.determinize.RANDOM_MOVES", 0.0)
    game, s = table()
    s.current = 0
    s.hands[0] = to_counts(parse_cards("AS AH AD 5C 5D 5S 9C 9D 9H KC KD KH QS QD QH KS"))
    s.phase, s.mask = 1, None
    kings = {A.GO_OUT + parse_card(k) for k in ("KS", "KH", "KD", "KC")}
    assert rollout(game, s, np.random.default_rng(0)) in kings
