"""Combination validity, showing and finishing, from the spec's text and worked examples
(E1-E4, 2N.14) with tiplu 7♥ unless stated."""

from __future__ import annotations

import pytest

from taas.envs.core.cards import parse_card, parse_cards, to_counts
from taas.envs.marriage_nepali import combos, wilds

R7H = wilds.roles(parse_card("7H"))


def valid(cards: str, tiplu: str = "7H", ace_high: bool = True, max_size: int = 3,
          jokers: int = 0) -> bool:
    wild = wilds.roles(parse_card(tiplu), jokers).wild
    return combos.is_combination(parse_cards(cards), wild, ace_high, max_size)


def test_roles_of_tiplu_7h_and_wraps():
    assert R7H.poplu == parse_card("8H") and R7H.jhiplu == parse_card("6H")
    assert R7H.alter == parse_card("7D")
    assert set(R7H.ordinary_jokers) == set(parse_cards("7S 7C"))
    assert R7H.wild == frozenset(parse_cards("7S 7H 7D 7C 8H 6H"))
    ks, ac, d2 = (wilds.roles(parse_card(c)) for c in ("KS", "AC", "2D"))
    assert (ks.poplu, ks.jhiplu, ks.alter) == tuple(parse_cards("AS QS KC"))
    assert (ac.poplu, ac.jhiplu) == tuple(parse_cards("2C KC"))
    assert d2.jhiplu == parse_card("AD") and d2.alter == parse_card("2H")
    assert parse_card("JK") in wilds.roles(parse_card("7H"), 3).wild
    with pytest.raises(ValueError, match="tiplu"):
        wilds.roles(parse_card("JK"))


@pytest.mark.parametrize(
    ("cards", "ok"),
    [  # E3's table, verbatim
        ("4C 5C 8H", True),
        ("9S JS 6H", True),
        ("KD AD 7S", True),
        ("AD 2D 7C", True),
        ("QC KC 8H", True),
        ("KS 2S 8H", False),
        ("10C 10H 7D", True),
        ("10C 10C 7D", False),
        ("2S 8H 6H", True),
        ("7S 7C 7D", True),
        ("6H 7H 8H", True),
    ],
)
def test_e3_wild_use(cards, ok):
    assert valid(cards) is ok


@pytest.mark.parametrize(
    ("cards", "tiplu", "ok"),
    [
        ("KS AS 2S", "KS", True),  # 2N.14 item 3: two wilds (A♠ poplu, K♠ tiplu-rank)
        ("KS AS 2S", "7H", False),  # no wrap without wilds
        ("8H 8H 2S", "7H", True),  # two identical wilds + any card
        ("KC AC 2C", "AC", True),  # 2N.14 item 4: the K-A-2 marriage for a seen player
        ("9D 9D 9D", "7H", True),  # tunnela
        ("9D 9D 9C", "7H", False),
        ("9S 10S QS", "7H", False),  # a gap with no wild
        ("9S 10H JS", "7H", False),  # two suits
        ("QH KH AH", "7H", True),  # ace high
        ("AH 2H 3H", "7H", True),  # ace low
        ("5S 5H 5D", "7H", True),  # natural trial
    ],
)
def test_clarifications(cards, tiplu, ok):
    assert valid(cards, tiplu) is ok


def test_ace_sequence_low_only_removes_q_k_a_even_dirty():
    assert valid("QH KH AH") and not valid("QH KH AH", ace_high=False)
    assert valid("KD AD 7S") and not valid("KD AD 7S", ace_high=False)  # 2N.14 item 15
    assert valid("AD 2D 7C", ace_high=False)
    assert combos.is_pure(parse_cards("QS KS AS"))
    assert not combos.is_pure(parse_cards("QS KS AS"), ace_high=False)


def test_max_meld_size_four_allows_four_card_combinations():
    assert not valid("3H 4H 5H 6H")
    assert valid("3H 4H 5H 6H", max_size=4)
    assert valid("9S 9H 9D 9C", max_size=4)
    assert valid("3C 4C 7S 6C", max_size=4)  # dirty four
    assert not valid("9S 9S 9H 9D", max_size=4)


def test_printed_jokers_are_wild_only_when_seen_and_jk_tunnela_is_pure():
    assert valid("3C 4C JK", jokers=3)
    assert not valid("3C 4C JK")  # an unseen player's wild set is empty of jokers
    assert not combos.is_combination(parse_cards("3C 4C JK"), frozenset())
    assert combos.is_pure(parse_cards("JK JK JK"))  # 2N.14 item 12
    assert valid("JK 7S 2D", jokers=3)  # JK counts toward two wilds


@pytest.mark.parametrize(
    ("cards", "pure"),
    [  # E1's shown combinations and E2's invalid sees (judged at face value)
        ("2C 3C 4C", True),
        ("9S 10S JS", True),
        ("QD QD QD", True),
        ("5C 5D 5S", False),  # E2(a): a trial is not primary
        ("KS AS 2S", False),  # E2(b)
        ("3H 4H 5H 6H", False),  # E2(c)
        ("9D 9D 9C", False),  # E2(d)
        ("6H 7H 8H", True),  # counter-example: a marriage shown unseen is a natural sequence
        ("7D 8D 9D", True),  # 2N.14 item 1
    ],
)
def test_show_combinations_are_judged_at_face_value(cards, pure):
    assert combos.is_pure(parse_cards(cards)) is pure


E1_CONCEALED = "KH KS KC 4H 5H 8H 10D JD AC AD 7C 3S 6C"
E4_CONCEALED = "KH KS KC 4H 5H 8H 10D JD AC AD 7C 3S 7H"


def splitter(tiplu="7H", **kw):
    return combos.Splitter(wilds.roles(parse_card(tiplu)).wild, **kw)


def test_e1_first_shower_cannot_finish_on_the_show_turn():
    s = splitter()
    assert s.closing_discards(to_counts(parse_cards(E1_CONCEALED))) == []


def test_e4_finish_closing_discard_is_only_3s():
    s = splitter()
    counts = to_counts(parse_cards(E4_CONCEALED))
    assert s.closing_discards(counts) == [parse_card("3S")]
    counts[parse_card("3S")] -= 1
    arrangement = s.split(counts)
    assert len(arrangement) == 4 and all(combos.is_combination(c, s.wild) for c in arrangement)
    assert sorted(c for combo in arrangement for c in combo) == sorted(
        parse_cards(E4_CONCEALED.replace(" 3S", ""))
    )


def test_an_unseen_player_has_no_wilds_to_finish_with():
    unseen = combos.Splitter(frozenset())
    assert unseen.closing_discards(to_counts(parse_cards(E4_CONCEALED))) == []


def test_split_counts_must_be_whole_combinations():
    s = splitter()
    assert s.can_split(to_counts([]))
    assert not s.can_split(to_counts(parse_cards("2C 3C 4C 9S")))
    assert s.can_split(to_counts(parse_cards("2C 3C 4C 9S 9H 9D")))  # 2N.14 item 10: any 3k


def test_dublee_closing_discard_keeps_a_pair():
    # E5: C holds 10♣ 10♣ 4♠ Q♠ 8♦ 2♦ A♥ 10♥ after taking the 10♣
    c = to_counts(parse_cards("10C 10C 4S QS 8D 2D AH 10H"))
    assert combos.dublee_discards(c) == sorted(parse_cards("4S QS 8D 2D AH 10H"))
    # 2N.14 item 11: the third copy of a triple may go, a card of the only pair may not
    triple = to_counts(parse_cards("10C 10C 10C 4S"))
    assert combos.dublee_discards(triple) == sorted(parse_cards("10C 4S"))
    assert combos.dublee_discards(to_counts(parse_cards("JK JK 4S"))) == []
