"""The shared rummy table: draw, take, discard, reshuffle, records, up-card, copies."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taas.envs.core.actions import ActionTable
from taas.envs.core.cards import NUM_KINDS, parse_card, parse_cards, to_counts
from taas.envs.rummy.table import Table


def table(stock: str, discard: str, players: int = 3, reshuffle: bool = True) -> Table:
    """A table over a (players, 2 x kinds) public array, stock and pile bottom to top."""
    public = np.zeros((players, 2 * NUM_KINDS + 1), np.float32)
    t = Table(public[:, :NUM_KINDS], public[:, NUM_KINDS:-1], seed=7, reshuffle=reshuffle)
    t.start(parse_cards(stock), parse_cards(discard))
    return t


def test_draw_takes_the_top_of_the_stock():
    t = table("2S 3S 4S", "9H")
    assert t.draw() == parse_card("4S") and t.stock == parse_cards("2S 3S")
    assert t.drawn_discard == -1 and t.discard == parse_cards("9H")


def test_take_records_the_card_and_the_taker():
    t = table("2S 3S", "9H KD")
    assert t.take(1) == parse_card("KD")
    assert t.drawn_discard == parse_card("KD") and t.top == parse_card("9H")
    assert t.taken_by[1, parse_card("KD")] == 1 and t.taken_by.sum() == 1
    assert np.array_equal(t.pile, to_counts(parse_cards("9H")))
    t.draw()
    assert t.drawn_discard == -1  # the ban is about a take in this turn only


def test_discard_records_the_card_and_the_discarder():
    t = table("2S 3S", "9H")
    t.discard_card(2, parse_card("5C"))
    assert t.discard == parse_cards("9H 5C") and t.top == parse_card("5C")
    assert t.discarded_by[2, parse_card("5C")] == 1 and t.discarded_by.sum() == 1
    assert np.array_equal(t.pile, to_counts(parse_cards("9H 5C")))


def test_records_are_views_into_the_games_public_array():
    public = np.zeros((2, 3 * NUM_KINDS), np.float32)
    t = Table(public[:, NUM_KINDS : 2 * NUM_KINDS], public[:, 2 * NUM_KINDS :], seed=0)
    t.start(parse_cards("2S 3S"), parse_cards("9H"))
    t.discard_card(0, parse_card("AS"))
    t.take(1)
    assert public[0, NUM_KINDS + parse_card("AS")] == 1
    assert public[1, 2 * NUM_KINDS + parse_card("AS")] == 1
    with pytest.raises(ValueError, match="players"):
        Table(public[:, :5], public[:, :5], seed=0)


def test_reshuffle_keeps_the_top_card_the_moment_the_stock_empties():
    t = table("QH", "4D JS 9C 2H")  # rules C9
    assert t.draw() == parse_card("QH")
    assert t.discard == parse_cards("2H") and sorted(t.stock) == sorted(parse_cards("4D JS 9C"))
    assert np.array_equal(t.pile, to_counts(parse_cards("2H")))


def test_an_empty_stock_is_rebuilt_after_the_next_discard():
    """A one-card pile cannot refill the stock; the next discard makes it possible."""
    t = table("2S", "9H")
    t.draw()
    assert t.stock == [] and t.discard == parse_cards("9H")
    t.discard_card(0, parse_card("2S"))
    assert t.stock == parse_cards("9H") and t.discard == parse_cards("2S")


def test_block_policy_never_rebuilds_the_stock():
    t = table("QH", "4D JS 9C 2H", reshuffle=False)
    t.draw()
    t.discard_card(0, parse_card("QH"))
    assert t.stock == [] and t.discard == parse_cards("4D JS 9C 2H QH")


def test_first_up_card_survives_the_reshuffle():
    t = table("QH", "4D JS")
    assert t.first_up == parse_card("4D")
    t.draw()
    assert t.first_up == parse_card("4D") and t.discard == parse_cards("JS")
    t.start(parse_cards("2S 3S"), [])  # a deal with no up-card (Rommé's extra card)
    assert t.first_up == -1 and t.top == -1 and not t.pile.any()


def test_draw_first_takes_the_wanted_card_nearest_the_top():
    wild = np.zeros(NUM_KINDS, bool)
    wild[parse_card("8S")] = wild[parse_card("JK")] = True
    t = table("8S 2C JK 5D", "9H")
    assert t.draw_first(wild) == parse_card("JK") and t.stock == parse_cards("8S 2C 5D")
    wild[:] = False
    assert t.draw_first(wild) == parse_card("5D")  # none wanted: the top card


def test_start_clears_the_records():
    t = table("2S 3S", "9H")
    t.discard_card(0, parse_card("AS"))
    t.take(1)
    t.start(parse_cards("4S"), parse_cards("5S"))
    assert not t.discarded_by.any() and not t.taken_by.any() and t.drawn_discard == -1


def test_shuffles_replay_from_the_seed():
    a, b = table("", ""), table("", "")
    shoe = np.full(NUM_KINDS, 2, np.int8)
    assert a.shuffled(shoe) == b.shuffled(shoe)
    assert a.shuffled(shoe) != a.shuffled(shoe)  # each shuffle draws anew
    assert sorted(a.shuffled(shoe)) == sorted(np.repeat(np.arange(NUM_KINDS), 2).tolist())


def test_copy_is_independent():
    public = np.zeros((3, 2 * NUM_KINDS), np.float32)
    t = Table(public[:, :NUM_KINDS], public[:, NUM_KINDS:], seed=3)
    t.start(parse_cards("2S 3S 4S"), parse_cards("9H KD"))
    twin_public = public.copy()
    c = t.copy(twin_public[:, :NUM_KINDS], twin_public[:, NUM_KINDS:])
    c.take(0)
    c.draw()
    c.discard_card(1, parse_card("AS"))
    assert t.stock == parse_cards("2S 3S 4S") and t.discard == parse_cards("9H KD")
    assert np.array_equal(t.pile, to_counts(parse_cards("9H KD"))) and not public.any()
    assert c.shuffles == t.shuffles and c.seed == t.seed
    # the same events give the same shuffles in the original and its copy
    c2 = t.copy(public.copy()[:, :NUM_KINDS], public.copy()[:, NUM_KINDS:])
    shoe = np.ones(NUM_KINDS, np.int8)
    assert t.shuffled(shoe) == c2.shuffled(shoe)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["draw", "take", "discard"]), max_size=80), st.integers(0, 9))
def test_cards_are_conserved_and_the_stock_never_starves(moves, seed):
    """Random table operations: the cards never change, and the stock is never empty while the
    pile holds more than its top card."""
    public = np.zeros((2, 2 * NUM_KINDS), np.float32)
    t = Table(public[:, :NUM_KINDS], public[:, NUM_KINDS:], seed=seed)
    cards = t.shuffled(np.ones(NUM_KINDS, np.int8))
    hand: list[int] = cards[:10]
    t.start(cards[10:-1], cards[-1:])
    for move in moves:
        if move == "draw" and t.stock:
            hand.append(t.draw())
        elif move == "take" and t.discard:
            hand.append(t.take(0))
        elif move == "discard" and hand:
            t.discard_card(1, hand.pop(0))
        assert sorted(hand + t.stock + t.discard) == list(range(NUM_KINDS))
        assert np.array_equal(t.pile, np.bincount(t.discard, minlength=NUM_KINDS))
        assert t.stock or len(t.discard) <= 1


# -- the action table ------------------------------------------------------------------------

LAYOUT = ActionTable(
    [("draw", 0, 1), ("discard", 1, NUM_KINDS), ("marry", 54, 2, lambda i: "SH"[i])]
)


def test_action_table_names_every_id():
    assert LAYOUT.size == 56
    assert LAYOUT.to_str(0) == "draw"
    assert LAYOUT.to_str(1 + parse_card("7H")) == "discard 7H"
    assert LAYOUT.to_str(1 + parse_card("JK")) == "discard JK"
    assert LAYOUT.to_str(55) == "marry H"
    assert LAYOUT.lookup(1 + parse_card("7H")) == ("discard", parse_card("7H"))
    for bad in (-1, 56):
        with pytest.raises(ValueError, match=r"outside 0\.\.55"):
            LAYOUT.to_str(bad)


@pytest.mark.parametrize(
    "ranges", [[("draw", 0, 1), ("take", 2, 1)], [("draw", 1, 1)], [("draw", 0, 0)]]
)
def test_action_table_ranges_must_tile_the_ids(ranges):
    with pytest.raises(ValueError, match="tile"):
        ActionTable(ranges)
