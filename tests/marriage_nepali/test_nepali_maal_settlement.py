"""Maal counting and the settlement: worked examples E4-E8 with every variant figure, each
scoring flag flipped, and the zero-sum property."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taas.envs.core.cards import parse_card, parse_cards, to_counts
from taas.envs.marriage_nepali import maal, wilds
from taas.envs.marriage_nepali.config import Config
from taas.envs.marriage_nepali.settlement import settle

R7H = wilds.roles(parse_card("7H"))
DEFAULT = Config()


def count(cards: str, tunnelas: str = "", config: Config = DEFAULT, seen: bool = True,
          tiplu: str = "7H", shown_marriages: int = 0) -> int:
    roles = wilds.roles(parse_card(tiplu), config.printed_jokers)
    return maal.count_maal(to_counts(parse_cards(cards)), roles, config,
                           parse_cards(tunnelas), seen, shown_marriages)["maal"]


PAGAT = Config(maal_table="pagat")
FILLER = "2C 3C 4C 9S 10S JS QD"  # no maal


def test_e4_winner_maal():
    assert count("2C 3C 4C 9S 10S JS QD QD QD KH KS KC 4H 5H 8H 10D JD AC AD 7C 7H") == 5


def test_e5_dublee_winner_maal():
    assert count("2S 2S 5C 5C 9D 9D JH JH KC KC 3D 3D 6H 6H 10C 10C 4S QS 8D AH 10H") == 5


def test_e6a_marriage_alter_and_starting_tunnela_both_tables():
    holding = f"6H 7H 8H 7D 4D 4D 4D {FILLER}"
    assert count(holding, "4D") == 20
    assert count(holding, "4D", PAGAT) == 15


def test_e6b_the_best_marriage_count_is_not_the_most():
    assert count("7H 8H 8H 8H 6H 6H 6H") == 23


def test_e6c_two_marriages():
    assert count("7H 7H 8H 8H 6H 6H") == 30


def test_e6d_ordinary_jokers():
    assert count("7S 7C") == 0
    assert count("7S 7S 7S", "7S") == 10
    assert count("7S 7S 7S", "7S", tiplu="9H") == 5


def test_e6e_unseen_maal_is_counted_raw_and_zeroed_by_the_settlement():
    assert count("8H 7D", seen=False) == 7  # raw; murder happens in settle()


@pytest.mark.parametrize(
    ("tunnelas", "common", "pagat"),
    [  # 2N.14 item 5, tiplu 7♥
        ("4D", 5, 5),
        ("4D 5D", 15, 10),
        ("4D 5D 6D", 25, 15),
        ("4D 5D 6D 9C", 35, 20),  # +10 past the table's last step
        ("7S", 10, 10),
        ("7S 7C", 20, 20),
        ("8H", 15, 20),
        ("8H 6H", 35, 40),  # poplu and jhiplu are one category
        ("7D", 35, 10),  # alter tunnela
    ],
)
def test_starting_tunnela_categories(tunnelas, common, pagat):
    cards = " ".join(" ".join([t] * 3) for t in tunnelas.split())
    assert count(cards, tunnelas) == common
    assert count(cards, tunnelas, PAGAT) == pagat


def test_scored_tunnela_cards_are_removed_before_counting():
    assert count("8H 8H 8H 7H 6H", "8H") == 15 + 3 + 2  # 2N.14 item 6: no marriage


def test_printed_joker_values():
    jk = Config(printed_jokers=3)
    assert count("JK", config=jk) == 5 and count("JK JK", config=jk) == 15
    assert count("JK JK JK", "JK", config=jk) == 45
    assert count("JK JK JK", "JK", config=dataclasses.replace(jk, maal_table="pagat")) == 0


def test_tunnela_bonus_scope():
    holding = to_counts(parse_cards(f"4D 4D 4D 9C 9C 9C {FILLER}"))
    exposed, shown = [parse_card("4D")], [parse_cards("9C 9C 9C"), parse_cards("2C 3C 4C")]
    scope = {s: maal.scoped_tunnelas(Config(tunnela_bonus_scope=s), holding, exposed, shown)
             for s in ("initial", "shown", "hand", "off")}
    assert scope["initial"] == exposed
    assert sorted(scope["shown"]) == sorted(parse_cards("4D 9C"))
    assert sorted(scope["hand"]) == sorted(parse_cards("4D 9C"))
    assert scope["off"] == []


def test_tunnel_pachaunu_zeroes_only_an_unseen_count_mode_bonus():
    count_mode = Config(unseen_maal="count", tunnel_pachaunu=True)
    assert count("4D 4D 4D 8H", "4D", count_mode, seen=False) == 2  # 2N.14 item 13
    assert count("4D 4D 4D 8H", "4D", count_mode, seen=True) == 7
    assert count("4D 4D 4D 8H", "4D", Config(unseen_maal="count"), seen=False) == 7


def test_shown_marriage_values_flag():
    flag = Config(shown_marriage_values=(15, 35))
    assert count("6H 7H 8H", config=flag, shown_marriages=1) == 15
    assert count("6H 7H 8H", config=DEFAULT, shown_marriages=1) == 10  # off: a marriage
    assert Config(shown_marriage_values="15,35").shown_marriage_values == (15, 35)
    with pytest.raises(ValueError, match="shown_marriage_values"):
        Config(shown_marriage_values="15")


# E7: winner A (seat 0), B seen, C seen on the dublee route, D unseen (raw maal 7).
E7 = dict(maal=[5, 20, 5, 7], seen=[True, True, True, False], winner=0, dublee=[2])


@pytest.mark.parametrize(
    ("flags", "net"),
    [
        ({}, [3, 47, -10, -40]),
        ({"unseen_maal": "kidnap"}, [24, 40, -17, -47]),
        ({"unseen_maal": "count"}, [-4, 40, -17, -19]),
        ({"dublee_seen_loser_payment": 3}, [6, 47, -13, -40]),
    ],
)
def test_e7_settlement_and_variants(flags, net):
    assert settle(E7["maal"], E7["seen"], E7["winner"], Config(**flags),
                  dublee=E7["dublee"]) == net


def test_e7_murder_is_the_same_with_raw_or_zeroed_unseen_maal():
    assert settle([5, 20, 5, 0], E7["seen"], 0, DEFAULT, dublee=[2]) == [3, 47, -10, -40]


def test_e8_dublee_winner_settlement():
    net = settle([5, 20, 5, 0], E7["seen"], 2, DEFAULT, winner_route="dublee")
    assert net == [-18, 42, 21, -45]


def test_payment_flags():
    seen, base = [True, True, False], settle([0, 0, 0], [True, True, False], 0, DEFAULT)
    assert base == [13, -3, -10]
    assert settle([0, 0, 0], seen, 0, Config(seen_payment=2, unseen_payment=7)) == [9, -2, -7]
    assert settle([0, 0, 0], seen, 0, DEFAULT, winner_route="dublee") == [23, -8, -15]
    assert settle([0, 0, 0], seen, 0, Config(dublee_win_extra=7),
                  winner_route="dublee") == [27, -10, -17]
    # 2N.14 item 9: a seen dublee loser when the winner finished by dublees pays 0 + 5
    assert settle([0, 0, 0], seen, 0, DEFAULT, winner_route="dublee", dublee=[1]) == [20, -5, -15]
    assert settle([0, 0, 0], seen, 0, Config(foul_points=15), fouls=[1, 1, 0]) == [28, -18, -10]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([1, 2], [True, False], 1), "unseen"),
        (([1, 2], [True, False], 2), "winner 2"),
        (([1], [True], 0), "2-6 players"),
        (([1, 2], [True, True, True], 0), "2-6 players"),
    ],
)
def test_bad_settlements_raise(args, message):
    with pytest.raises(ValueError, match=message):
        settle(*args, DEFAULT)


@given(
    st.lists(st.tuples(st.integers(0, 120), st.booleans(), st.booleans()), min_size=2,
             max_size=6),
    st.data(),
    st.sampled_from(["murder", "kidnap", "count"]),
    st.sampled_from(["sequence", "dublee"]),
    st.integers(0, 5),
    st.integers(0, 7),
)
def test_settlement_is_zero_sum(players, data, unseen, route, loser_payment, extra):
    n = len(players)
    winner = data.draw(st.integers(0, n - 1))
    maal_values = [m for m, _, _ in players]
    seen = [s or i == winner for i, (_, s, _) in enumerate(players)]
    dublee = [i for i, (_, s, d) in enumerate(players) if d and seen[i] and i != winner]
    config = Config(num_players=n, max_players=6, unseen_maal=unseen, foul_points=15,
                    dublee_seen_loser_payment=loser_payment, dublee_win_extra=extra)
    fouls = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    net = settle(maal_values, seen, winner, config, route, dublee, fouls)
    assert sum(net) == 0
    # pairwise view (spec 2N.9.5): every loser's net is its maal difference to each other
    # player minus its own game payment, so a richer loser never nets less than a poorer one
    # with the same payment
    for i in range(n):
        for j in range(n):
            if winner not in (i, j) and seen[i] == seen[j] and (i in dublee) == (j in dublee) \
                    and fouls[i] == fouls[j] and seen[i]:
                assert (net[i] - net[j]) == n * (maal_values[i] - maal_values[j])
