"""The spades-ace rule, ``man_tiplu`` (spec 2N.5: "if a Man is drawn as tiplu, DEFAULT redraw
[PY skips Man]; ALT spades-ace rule"): a Man drawn as the tiplu stays the tiplu card and the ace
of spades takes the tiplu's role, on hand-built positions (built as in test_nepali_engine.py),
with the two ASSUMPTIONS of the config docstring (three tiplus, a tunnela of three A♠) and a
flip test of the settlement."""

from __future__ import annotations

import json

import numpy as np
import pytest

from taas.cli import main
from taas.envs.core.cards import JOKER, parse_card, parse_cards, to_counts
from taas.envs.marriage_nepali import maal, wilds
from taas.envs.marriage_nepali.config import Config
from taas.envs.marriage_nepali.determinize import determinize
from taas.envs.marriage_nepali.observation import LAYOUT, NepaliObserver
from taas.envs.marriage_nepali.view import NepaliView
from tests.marriage_nepali.test_nepali_engine import E1, position, show

JOKERS = {"printed_jokers": 3}
SPADES_ACE = {**JOKERS, "man_tiplu": "spades_ace"}
E1_SHOW = ("show_run 2C-3C-4C", "show_run 9S-10S-JS", "show_tunnela QD")


def counts(cards: str) -> np.ndarray:
    return to_counts(parse_cards(cards)).astype(np.int8)


def shown_e1(flags: dict, seed: int = 0, stock: str = "JK 5C"):
    """E1's show (seat 0, first shower) with ``stock`` left to draw the tiplu from."""
    game, s = position(E1, flags, seed=seed)
    s.table.stock = parse_cards(stock)
    show(game, s, *E1_SHOW)
    return game, s


def test_the_flag_is_validated():
    assert Config().man_tiplu == "redraw"
    with pytest.raises(ValueError, match="man_tiplu='paplu' is not a valid marriage_nepali rule"):
        Config(man_tiplu="paplu")


def test_spades_ace_roles_are_the_role_table_for_tiplu_as():
    # 2N.5's table for tiplu (r, s) = A♠: poplu (r+1) 2♠, jhiplu (r-1, cyclic) K♠, alter the
    # other black suit A♣, ordinary jokers the red aces; printed jokers stay wild
    r = wilds.roles(JOKER, 3, "spades_ace")
    assert (r.tiplu, r.card, r.poplu, r.jhiplu, r.alter) == tuple(parse_cards("AS JK 2S KS AC"))
    assert set(r.ordinary_jokers) == set(parse_cards("AH AD"))
    assert r.wild == set(parse_cards("AS AH AD AC 2S KS JK"))
    assert r.as_json()["tiplu"] == "AS" and r.as_json()["tiplu_card"] == "JK"
    assert "tiplu_card" not in wilds.roles(parse_card("7H"), 3, "spades_ace").as_json()
    for args in ((3,), (0, "spades_ace")):  # the default redraws; no Man without printed jokers
        with pytest.raises(ValueError, match="tiplu JK"):
            wilds.roles(JOKER, *args)


def test_a_man_drawn_as_tiplu_is_redrawn_by_default_and_kept_with_the_flag():
    drawn = {name: {shown_e1(flags, seed)[1].tiplu for seed in range(24)}
             for name, flags in (("redraw", JOKERS), ("spades_ace", SPADES_ACE))}
    assert drawn["redraw"] == {parse_card("5C")}  # the Man is skipped every time
    assert drawn["spades_ace"] == {JOKER, parse_card("5C")}  # a uniform draw, Man included
    game, s = shown_e1(SPADES_ACE, stock="JK")
    assert s.tiplu == JOKER and s.table.stock == []  # the Man is the tiplu card, out of play
    assert game.roles(s).tiplu == parse_card("AS")
    assert game.splitter(s).wild == wilds.roles(JOKER, 3, "spades_ace").wild


def test_a_seen_player_uses_the_aces_and_2s_ks_as_wilds():
    # concealed after E1's show, with 2♠ for 3♠: K♥ K♠ K♣ 4♥ 5♥ 8♥ 10♦ J♦ A♣ A♦ 7♣ 2♠ 6♣;
    # with A♠'s roles A♣ A♦ 2♠ (and K♠) are wild: K♥ K♠ K♣, 4♥ 5♥ 2♠(=6♥ or 3♥),
    # 10♦ J♦ A♦(=Q♦), 7♣ 6♣ A♣(=8♣ or 5♣) leave 8♥ to close (same-turn finish)
    game, s = shown_e1(SPADES_ACE, stock="JK")
    s.hands[0] += counts("2S") - counts("3S")
    s.mask = None
    assert "finish 8H" in {game.action_to_str(a) for a in np.flatnonzero(game.legal_mask(s))}


def test_three_tiplus_both_tables():
    # ASSUMPTION: past the table's last step each more adds 10: common 3/8/18, pagat 3/7/17
    r = wilds.roles(JOKER, 3, "spades_ace")
    for table, two, three in (("common", 8, 18), ("pagat", 7, 17)):
        config = Config(**SPADES_ACE, maal_table=table)
        assert maal.count_maal(counts("AS AS"), r, config)["maal"] == two
        assert maal.count_maal(counts("AS AS AS"), r, config)["maal"] == three
        # three marriages: 10/30/40 beats 17 or 18 + 10 + 10 (none) and 30 + 3 + 2 + 2 (two)
        full = maal.count_maal(counts("AS AS AS 2S 2S 2S KS KS KS"), r, config)
        assert full["maal"] == 40 and full["items"] == [
            {"item": "marriage", "count": 3, "points": 40}]


def test_a_starting_tunnela_of_three_aces_of_spades_counts_as_three_tiplus():
    # ASSUMPTION: no tunnela bonus; its cards stay in the tiplu and marriage count
    game, s = shown_e1(SPADES_ACE, stock="JK")
    s.exposed[1] = counts("AS AS AS")
    s.hands[1] = counts("2S 2S 2S KS KS KS 4D")
    s.exposed[2] = counts("AC AC AC")  # the alter tunnela keeps its bonus (35)
    s.hands[2] = counts("KS")
    counted = game.maal_counts(s)
    assert counted[1]["maal"] == 40  # three marriages (a poplu/jhiplu tunnela: 15 + 10 + 10)
    assert counted[2]["maal"] == 35 + 2
    s.hands[1] = counts("4D")
    assert game.maal_counts(s)[1]["maal"] == 18
    for scope in ("shown", "hand"):  # every scope treats it alike
        g, t = shown_e1({**SPADES_ACE, "tunnela_bonus_scope": scope}, stock="JK")
        t.exposed[1], t.hands[1] = counts("AS AS AS"), counts("4D")
        assert g.maal_counts(t)[1]["maal"] == 18


def finish_with_maal(flags: dict, seed: int):
    """E1's show, then a finish closing with 3♠ from natural combinations; seat 1 holds
    A♠ A♠ A♠ 2♠ K♠, seat 2 A♣ A♥, seat 3 5♠ 6♣ (all unseen, counted: unseen_maal=count)."""
    game, s = shown_e1({**flags, "unseen_maal": "count"}, seed)
    s.hands[0] = counts("KH KS KC 4H 5H 6H 9H 10H JH 8S 8H 8D 3S")
    s.hands[1], s.hands[2], s.hands[3] = (counts(c) for c in ("AS AS AS 2S KS", "AC AH",
                                                              "5S 6C"))
    s.mask = None
    show(game, s, "finish 3S")
    return game, s


def test_flip_the_flag_changes_the_tiplu_and_the_settlement():
    seed = next(seed for seed in range(24) if shown_e1(SPADES_ACE, seed)[1].tiplu == JOKER)
    # redraw: the tiplu is 5♣ (jhiplu 4♣, poplu 6♣, alter 5♠): S = 4♣ 2, 0, 0, 5♠ 5 + 6♣ 2
    _, s = finish_with_maal(JOKERS, seed)
    assert s.result["tiplu"] == "5C" and "tiplu_card" not in s.result
    assert [p["maal"] for p in s.result["players"]] == [2, 0, 0, 7]
    # n = 4, T = 9, three unseen losers pay 10: Net_0 = 8 - 9 + 30, Net_3 = 28 - 9 - 10
    assert s.result["net"] == [29, -19, -19, 9]
    # spades ace: the Man is the tiplu card, A♠ plays as tiplu: S = K♠ 2, three tiplus 18 +
    # 2♠ 2 + K♠ 2 (no marriage: 10 + 8 = 18 < 22), A♣ alter 5, 0
    game, s = finish_with_maal(SPADES_ACE, seed)
    assert (s.result["tiplu"], s.result["tiplu_card"]) == ("AS", "JK")
    assert [p["maal"] for p in s.result["players"]] == [2, 22, 5, 0]
    assert s.result["net"] == [8 - 29 + 30, 88 - 29 - 10, 20 - 29 - 10, 0 - 29 - 10]
    # the table, once the round is over: the Man as the tiplu card, A♠ playing as tiplu
    view = NepaliView()
    assert view.facts(game, s)[-2:] == [{"label": "tiplu card", "cards": [JOKER]},
                                        {"label": "plays as tiplu", "cards": [parse_card("AS")]}]
    assert view.round_reports(game, s)[0]["lines"][0].startswith(
        "tiplu AS (tiplu card JK), poplu 2S, jhiplu KS;")


def test_observation_view_and_determinizer_keep_the_man_as_the_tiplu_card():
    game, s = shown_e1(SPADES_ACE, stock="JK")
    obs = NepaliObserver(game.config)
    seen, unseen = obs.encode(s, 0), obs.encode(s, 1)
    assert np.flatnonzero(seen[LAYOUT["tiplu"]]).tolist() == [JOKER]
    assert set(np.flatnonzero(seen[LAYOUT["wild"]])) == set(parse_cards("AS AH AD AC 2S KS JK"))
    assert not unseen[LAYOUT["tiplu"]].any() and not unseen[LAYOUT["wild"]].any()
    view = NepaliView()
    assert view.private_facts(game, s, 0)[:2] == [
        {"label": "tiplu", "cards": [JOKER]},
        {"label": "plays as tiplu", "cards": [parse_card("AS")]}]
    assert view.private_facts(game, s, 1) == []
    # an unseen seat's determinization draws its tiplu as the first shower did: the Man can
    # be the tiplu card with the flag (pool: the hidden tiplu JK, the stock JK 5C, no other
    # hidden hand), never without
    s.hands[[0, 2, 3]] = 0
    s.table.stock = parse_cards("JK 5C")
    drawn = {determinize(game, s, 1, np.random.default_rng(i)).tiplu for i in range(24)}
    assert drawn == {JOKER, parse_card("5C")}
    game, s = shown_e1(JOKERS, stock="5C")
    s.hands[[0, 2, 3]] = 0
    s.table.stock = parse_cards("JK JK")
    assert {determinize(game, s, 1, np.random.default_rng(i)).tiplu
            for i in range(8)} == {parse_card("5C")}


def run(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_score_helper_takes_a_man_tiplu_card(capsys):
    argv = ["score", "marriage_nepali", "--tiplu", "JK", "--hand", "AS AS AS 2S KS AC",
            "--seen", "--rule", "printed_jokers=3", "--json"]
    out = run(capsys, [*argv, "--rule", "man_tiplu=spades_ace"])
    assert (out["tiplu"], out["tiplu_card"], out["poplu"], out["jhiplu"]) == (
        "AS", "JK", "2S", "KS")
    assert out["maal"] == 18 + 2 + 2 + 5
    assert main(argv) == 2  # the default redraws a Man: it is never the tiplu
    err = capsys.readouterr().err
    assert "man_tiplu='spades_ace'" in err and err.count("\n") == 1
    # the tiplu card is one of the three Man cards: two are left for a hand
    bad = ["score", "marriage_nepali", "--tiplu", "JK", "--hand", "JK JK JK", "--rule",
           "printed_jokers=3", "--rule", "man_tiplu=spades_ace"]
    assert main(bad) == 2 and "3 copies of JK" in capsys.readouterr().err
