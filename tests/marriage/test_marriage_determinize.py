"""Marriage determinizer on hand-built tables: the indicator, the pile, set-aside dublees and
hands revealed by an invalid show count as seen; a card taken from the pile stays with its
taker."""

import numpy as np

from taas.envs.core.cards import NUM_KINDS, parse_card, parse_cards, shuffled, to_counts
from taas.envs.marriage.config import Config
from taas.envs.marriage.determinize import determinize
from taas.envs.marriage.rules import DRAW, MarriageGame
from taas.envs.marriage.scoring import wild_cards

HAND_0 = "AS AS AS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 3D 4D 5D 6D 9D 9D"
HAND_1 = "KH KH 2S 3S 4S 5S 6S 7S 8S 10S JS QS 3H 4H 5H 6H JH QH 10D JD QD"


def table(pile: str = "2H 2H 2H 9H", current: int = 1, **flags):
    """Three seats, three decks; seats 0 and 1 hold the hands above, seat 2 and the stock
    the rest; indicator 7D (sevens wild); ``current`` to draw."""
    game = MarriageGame(Config(num_players=3, **flags))
    s = game.new_state(np.random.default_rng(0))
    s.hands[:] = 0
    s.hands[0], s.hands[1] = to_counts(parse_cards(HAND_0)), to_counts(parse_cards(HAND_1))
    s.indicator = parse_card("7D")
    s.wild, s.wild_rank = wild_cards(game.config, s.indicator)
    pool = game.shoe(s) - s.hands[0] - s.hands[1] - to_counts(parse_cards(pile))
    pool[s.indicator] -= 1
    rest = shuffled(pool.astype(np.int64), np.random.default_rng(1))
    s.hands[2] = to_counts(rest[:21])
    s.table.start(rest[21:], parse_cards(pile))
    s.current, s.phase, s.mask = current, DRAW, None
    assert (sum(game.zones(s).values()) == game.shoe(s)).all()
    return game, s


def act(game, s, *names: str) -> None:
    ids = {game.action_to_str(a): a for a in range(game.num_actions)}
    for name in names:
        game.apply_action(s, ids[name])


def hidden(d, observer: int, seats=(0, 1, 2)) -> np.ndarray:
    out = np.bincount(d.table.stock, minlength=NUM_KINDS)
    for q in seats:
        if q != observer:
            out = out + d.hands[q]
    return out


def test_the_indicator_the_pile_and_the_own_hand_are_never_dealt():
    game, s = table(current=0)
    rng = np.random.default_rng(2)
    for _ in range(20):
        d = determinize(game, s, 0, rng)
        h = hidden(d, 0)
        assert h[parse_card("AS")] == 0 and h[parse_card("2H")] == 0
        assert h[parse_card("7D")] == 3 - 1 - s.hands[0, parse_card("7D")]
        assert (h == hidden(s, 0)).all()


def test_a_taken_card_stays_with_its_taker_and_a_swapped_dublee_is_seen():
    game, s = table()
    act(game, s, "take", "dublee_swap KH")  # seat 1 takes the 9H, sets aside KH KH
    assert s.set_aside[1, parse_card("KH")] == 2 and game.current_player(s) == 2
    rng = np.random.default_rng(3)
    for _ in range(30):
        d = determinize(game, s, 2, rng)
        assert d.hands[1, parse_card("9H")] >= 1
        assert (hidden(d, 2) == hidden(s, 2)).all()
        assert hidden(d, 2)[parse_card("KH")] == 3 - 2 - s.hands[2, parse_card("KH")]


def test_a_hand_revealed_by_an_invalid_show_stays_as_revealed():
    game, s = table(invalid_show="penalize")
    act(game, s, "draw", "show QD")  # not a valid show: seat 1 is out, its hand face up
    assert 1 in s.dead and (s.revealed[1] == s.hands[1]).all()
    rng = np.random.default_rng(4)
    for _ in range(10):
        d = determinize(game, s, 2, rng)
        assert (d.hands[1] == s.hands[1]).all()
        assert (hidden(d, 2, seats=(0, 2)) == hidden(s, 2, seats=(0, 2))).all()
