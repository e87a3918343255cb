import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from taas.envs.core.cards import (
    JOKER,
    card_str,
    cards_str,
    check_hand,
    from_counts,
    kind,
    parse_card,
    parse_cards,
    shoe,
    shuffled,
    to_counts,
)


def test_parse_accepts_the_documented_spellings():
    assert parse_cards("7C 10h Ts JK") == [kind(6, 3), kind(9, 1), kind(9, 0), JOKER]
    assert parse_cards("as, kd") == [kind(0, 0), kind(12, 2)]
    assert parse_card("Jk") == JOKER
    assert parse_card("Q♥") == kind(11, 1)


@pytest.mark.parametrize("token", ["1X", "11H", "ZZ", "J", "JKS", "1C", "1s"])
def test_parse_names_the_bad_token(token):
    with pytest.raises(ValueError, match=repr(token)):
        parse_cards(f"7C {token} 8D")


def test_print_uses_parseable_spelling_and_symbols_for_people():
    assert cards_str(parse_cards("10h as jk")) == "10H AS JK"
    assert card_str(kind(9, 1), symbols=True) == "10♥"
    with pytest.raises(ValueError):
        card_str(53)


@given(st.lists(st.integers(0, JOKER), max_size=30))
def test_print_parse_round_trip(cards):
    assert parse_cards(cards_str(cards)) == cards
    assert parse_cards(cards_str(cards, symbols=True)) == cards
    assert from_counts(to_counts(cards)) == sorted(cards)


def test_shoe_and_shuffle_conserve_cards():
    counts = shoe(2, 4)
    assert counts.sum() == 108 and counts[JOKER] == 4 and counts[kind(0, 0)] == 2
    deck = shuffled(counts, np.random.default_rng(5))
    assert np.array_equal(to_counts(deck), counts)
    assert deck == shuffled(counts, np.random.default_rng(5))
    assert deck != shuffled(counts, np.random.default_rng(6))


def test_check_hand_names_the_size_and_the_card_over_the_shoe():
    two_decks = shoe(2, 4)
    check_hand(parse_cards("KS KS JK JK JK JK AS"), two_decks, range(1, 8), "test")
    with pytest.raises(ValueError, match="a test hand holds 15 or 16 cards, not 2"):
        check_hand(parse_cards("AS 2S"), two_decks, (15, 16), "test")
    with pytest.raises(ValueError, match="holds 1 to 14 cards, not 0"):
        check_hand([], two_decks, range(1, 15), "test")
    with pytest.raises(ValueError, match="3 copies of KS, but the test shoe holds 2"):
        check_hand(parse_cards("KS KS KS"), two_decks, (3,), "test")
    with pytest.raises(ValueError, match="5 copies of JK, but the test shoe holds 4"):
        check_hand(parse_cards("JK " * 5), two_decks, (5,), "test")


def test_from_counts_reads_whole_float_counts_and_rejects_others():
    counts = to_counts(parse_cards("AS AS JK")).astype(np.float32)
    assert from_counts(counts) == parse_cards("AS AS JK")
    for bad in (0.5, -1):
        counts[3] = bad
        with pytest.raises(ValueError, match="whole numbers 0 or more"):
            from_counts(counts)
