"""marriage_nepali_v0's engine on hand-built positions (spec 2N.1-2N.8, E1, E4, E5), one test
per engine flag flipped, and the information-leak tests (the tiplu, other hands, the stock)."""

from __future__ import annotations

import numpy as np
import pytest

from taas.envs.core.cards import NUM_KINDS, parse_card, parse_cards, shuffled, to_counts
from taas.envs.marriage_nepali import actions as A
from taas.envs.marriage_nepali.config import Config
from taas.envs.marriage_nepali.observation import LAYOUT, NepaliObserver
from taas.envs.marriage_nepali.rules import DISCARD, DRAW, DUBLEE, EXPOSE, SEQUENCE, NepaliGame

E1 = "2C 3C 4C 9S 10S JS QD QD QD KH KS KC 4H 5H 8H 10D JD AC AD 7C 3S 6C"
E5 = "2S 2S 5C 5C 9D 9D JH JH KC KC 3D 3D 6H 6H 4S 10C QS 8D 2D AH 10H 9C"


def position(hand: str, flags=None, phase=DISCARD, seat=0, seed=0):
    """A dealt round moved to ``seat``'s turn with ``hand`` concealed (other seats as dealt)."""
    game = NepaliGame(Config(**(flags or {})))
    s = game.new_state(np.random.default_rng(seed))
    s.hands[seat] = to_counts(parse_cards(hand))
    s.exposed[:] = 0
    s.phase, s.current, s.turns, s.mask = phase, seat, 1, None
    s.asked = [True] * game.num_players
    return game, s


def legal(game, s, first=0, last=A.NUM_ACTIONS) -> set[str]:
    mask = game.legal_mask(s)
    return {game.action_to_str(a) for a in range(first, last) if mask[a]}


def show(game, s, *names: str) -> None:
    for name in names:
        game.apply_action(s, next(a for a in range(A.NUM_ACTIONS)
                                  if game.action_to_str(a) == name))


def set_tiplu(s, card: str) -> None:
    s.tiplu, s.mask = parse_card(card), None


def test_e1_show_offers_only_pure_combinations_then_draws_the_tiplu():
    game, s = position(E1)
    assert legal(game, s, A.SHOW_TUNNELA, A.ABANDON_SHOW) == {
        "show_run 2C-3C-4C", "show_run AC-2C-3C", "show_run 9S-10S-JS", "show_tunnela QD",
        "show_run 10D-JD-QD"}
    stock = len(s.table.stock)
    show(game, s, "show_run 2C-3C-4C", "show_run 9S-10S-JS")
    assert s.tiplu < 0 and not s.seen[0]
    assert "show_run AC-2C-3C" not in legal(game, s)  # its 2C 3C are laid
    show(game, s, "show_tunnela QD")
    assert s.seen[0] and s.route[0] == SEQUENCE and s.tiplu >= 0
    assert len(s.table.stock) == stock - 1  # the tiplu leaves the stock
    assert s.hands[0].sum() == 13 and s.shown[0].sum() == 9
    set_tiplu(s, "7H")
    assert not legal(game, s, A.FINISH, A.EXPOSE)  # E1: no finish on the show turn
    show(game, s, "discard 6C")
    assert s.current == game.next_seat(0) and s.phase in (DRAW, EXPOSE)


def test_e4_finish_closes_with_3s_and_settles():
    game, s = position(E1)
    show(game, s, "show_run 2C-3C-4C", "show_run 9S-10S-JS", "show_tunnela QD")
    set_tiplu(s, "7H")
    s.hands[0] -= to_counts(parse_cards("6C"))
    s.hands[0] += to_counts(parse_cards("7H"))
    s.showed_now = False
    assert legal(game, s, A.FINISH, A.EXPOSE) == {"finish 3S"}
    s.hands[1:] = 0  # losers hold nothing: every maal is A's
    show(game, s, "finish 3S")
    assert s.over and s.winner == 0 and s.result["players"][0]["maal"] == 5
    # n=4, S_A=5, T=5, three unseen losers pay 10: Net_A = 20 - 5 + 30
    assert s.result["net"] == [45, -15, -15, -15]
    assert game.returns(s).tolist() == [45.0, -15.0, -15.0, -15.0]


def test_invalid_shows_are_never_offered():
    # E2(a)/(d): trials and a pair + a third are not pure; two pure sequences are not enough
    game, s = position("5S 7S 8S 9S AS 2H 3H 4H KH JH 5D 9D 9D KD JD 5C 9C QC 2C 10C 6C AD")
    assert legal(game, s, A.SHOW_TUNNELA, A.ABANDON_SHOW) == set()


def test_abandon_returns_the_cards_and_closes_showing_for_the_turn():
    game, s = position(E1)
    before = s.hands[0].copy()
    show(game, s, "show_tunnela QD", "abandon_show")
    assert np.array_equal(s.hands[0], before) and not s.shown[0].any()
    assert not legal(game, s, A.SHOW_TUNNELA, A.ABANDON_SHOW)
    assert "discard 6C" in legal(game, s)


def test_e5_dublee_show_and_winning_only_pickup():
    game, s = position(E5)
    assert "show_dublee 2S" in legal(game, s)
    show(game, s, *(f"show_dublee {c}" for c in ["2S", "5C", "9D", "JH", "KC", "3D", "6H"]))
    assert s.seen[0] and s.route[0] == DUBLEE and s.hands[0].sum() == 8
    set_tiplu(s, "7H")
    show(game, s, "discard 9C")
    s.current, s.phase, s.mask = 0, DRAW, None
    s.table.discard.append(parse_card("10C"))
    assert "take" in legal(game, s)
    s.table.discard[-1], s.mask = parse_card("5S"), None
    assert "take" not in legal(game, s)  # 5♠ makes no pair
    s.table.discard[-1], s.mask = parse_card("10C"), None
    s.table.pile[parse_card("10C")] += 1
    show(game, s, "take")
    assert s.must_finish
    assert legal(game, s) == {f"finish {c}" for c in ["4S", "QS", "8D", "2D", "AH", "10H"]}
    show(game, s, "finish 2D")
    assert s.result["route"] == "dublee" and s.result["players"][0]["maal"] == 5  # 6H ×2


def test_dublee_route_needs_four_players_and_the_flags():
    assert "show_dublee 2S" in legal(*position(E5))
    assert "show_dublee 2S" not in legal(*position(E5, {"num_players": 3}))
    assert "show_dublee 2S" in legal(*position(E5, {"num_players": 3, "dublee_min_players": 3}))
    assert "show_dublee 2S" not in legal(*position(E5, {"dublee_route": False}))


def test_dublee_flags_pickup_any_never_and_no_closing_discard():
    for rule, offered in (("any", True), ("never", False), ("winning_only", False)):
        game, s = position("2S 2S 4S", {"dublee_discard_pickup": rule}, phase=DRAW)
        s.seen[0], s.route[0], s.tiplu = True, DUBLEE, parse_card("7H")
        s.table.discard.append(parse_card("5S"))
        assert ("take" in legal(game, s)) is offered, rule
    game, s = position("2S 2S 4S 9D", {"dublee_finish_discard": False})
    s.seen[0], s.route[0], s.tiplu = True, DUBLEE, parse_card("7H")
    assert legal(game, s, A.FINISH, A.EXPOSE) == {"finish"}


@pytest.mark.parametrize("on", [False, True])
def test_joker_dublee_lets_two_printed_jokers_pair(on):
    """Spec 2N.6 ALT (W): two Man cards count as a dublee, only with ``joker_dublee``; without
    it they never pair (wilds cannot make a dublee), so a seen dublee player may not take a
    printed joker to "pair" one either."""
    flags = {"printed_jokers": 3, "joker_dublee": on}
    # six natural pairs and JK JK: a dublee show only when JK JK is the seventh
    game, s = position("2S 2S 5C 5C 9D 9D JH JH KC KC 3D 3D JK JK 4S 10C QS 8D 2D AH 10H 9C",
                       flags)
    assert ("show_dublee JK" in legal(game, s)) is on
    assert ("show_dublee 2S" in legal(game, s)) is on
    # a seen dublee player with no pair, holding a JK, the top discard a JK
    game, s = position("JK 2S 4S 5H 9D 10C KC", flags, phase=DRAW)
    s.seen[0], s.route[0], s.tiplu = True, DUBLEE, parse_card("7H")
    s.table.discard.append(parse_card("JK"))
    s.table.pile[parse_card("JK")] += 1
    assert ("take" in legal(game, s)) is on
    if on:
        show(game, s, "take")
        assert legal(game, s) == {f"finish {c}" for c in ["2S", "4S", "5H", "9D", "10C", "KC"]}
        show(game, s, "finish 2S")
        assert s.over and s.result["route"] == "dublee"
    game, s = position("JK JK 4S", {**flags, "dublee_finish_discard": False})
    s.seen[0], s.route[0], s.tiplu = True, DUBLEE, parse_card("7H")
    assert legal(game, s, A.FINISH, A.EXPOSE) == ({"finish"} if on else set())


@pytest.mark.parametrize(("rule", "top", "offered"), [
    ("any", "JS", True), ("never", "JS", False),
    ("complete_pure", "JS", True),  # 9S 10S + JS makes the third pure combination
    ("complete_pure", "5H", False),
])
def test_unseen_discard_pickup(rule, top, offered):
    game, s = position("2C 3C 4C QD QD QD 9S 10S KH KS AD 7C 3S 6C 5D 8D 10C JC 2H 4H 6S",
                       {"unseen_discard_pickup": rule}, phase=DRAW)
    s.table.discard.append(parse_card(top))
    assert ("take" in legal(game, s)) is offered


def test_complete_pure_pickup_binds_the_turn_to_a_show_using_the_card():
    game, s = position("2C 3C 4C QD QD QD 9S 10S KH KS AD 7C 3S 6C 5D 8D 10C JC 2H 4H 6S",
                       {"unseen_discard_pickup": "complete_pure"}, phase=DRAW)
    s.table.discard.append(parse_card("JS"))
    s.table.pile[parse_card("JS")] += 1
    show(game, s, "take")
    assert not legal(game, s, A.DISCARD, A.FINISH)
    assert "abandon_show" not in legal(game, s)
    assert legal(game, s, A.SHOW_TUNNELA, A.ABANDON_SHOW) == {
        "show_run 2C-3C-4C", "show_tunnela QD", "show_run 9S-10S-JS"}


def test_seen_wild_pickup_flag():
    for flag in (True, False):
        game, s = position("2S 3S 4S", {"seen_wild_pickup": flag}, phase=DRAW)
        s.seen[0], s.route[0], s.tiplu = True, SEQUENCE, parse_card("7H")
        s.table.discard.append(parse_card("8H"))  # the poplu
        assert ("take" in legal(game, s)) is flag


def test_rediscard_ban_covers_discards_and_finishes():
    for flag in (True, False):
        game, s = position("KH KS KC 4H 5H 8H 10D JD AC AD 7C 7H", {
            "forbid_rediscard_of_drawn_discard": flag}, phase=DRAW)
        s.seen[0], s.route[0], s.tiplu = True, SEQUENCE, parse_card("7H")
        s.table.discard.append(parse_card("3S"))
        s.table.pile[parse_card("3S")] += 1
        show(game, s, "take")
        assert ("finish 3S" in legal(game, s)) is not flag  # 2N.14 item 14
        assert ("discard 3S" in legal(game, s)) is not flag


def test_finish_on_show_turn_flag():
    hand = E1.replace("6C", "7H")
    for flag in (True, False):
        game, s = position(hand, {"finish_on_show_turn": flag})
        show(game, s, "show_run 2C-3C-4C", "show_run 9S-10S-JS", "show_tunnela QD")
        set_tiplu(s, "7H")
        assert ("finish 3S" in legal(game, s)) is flag


def test_starting_tunnelas_window_and_three_tunnelas_flag():
    game = NepaliGame(Config())
    s = game.new_state(np.random.default_rng(0))
    first = game.next_seat(s.dealer)
    s.hands[:] = 0
    s.hands[first] = to_counts(parse_cards("4D 4D 4D 5C 5C 5C 6S 6S 6S 2H 3H 4H 7C 8C 9C "
                                           "JD QD KD 2S 9H KC"))
    s.asked = [False] * game.num_players
    game._open_window(s)
    assert s.phase == EXPOSE and s.current == first
    assert legal(game, s) == {"expose 4D", "expose 5C", "expose 6S", "expose_done"}
    show(game, s, "expose 4D", "expose 5C", "expose 6S")
    assert s.phase == DRAW and s.exposed[first].sum() == 9  # nothing more to expose
    show(game, s, "draw")
    assert "show_exposed" in legal(game, s)  # three exposed tunnelas meet the requirement
    show(game, s, "show_exposed")
    assert s.seen[first] and s.tiplu >= 0
    # "win": the third exposed tunnela ends the round at once
    game = NepaliGame(Config(three_initial_tunnelas="win"))
    s2 = game.new_state(np.random.default_rng(0))
    s2.hands[:] = s.hands + s.exposed
    s2.exposed[:] = 0
    s2.asked = [False] * game.num_players
    game._open_window(s2)
    show(game, s2, "expose 4D", "expose 5C", "expose 6S")
    assert s2.over and s2.winner == first and s2.result["route"] == "sequence"


def test_initial_tunnela_window_own_first_turn():
    game = NepaliGame(Config(initial_tunnela_window="own_first_turn"))
    s = game.new_state(np.random.default_rng(0))
    first = game.next_seat(s.dealer)
    second = game.next_seat(first)
    s.hands[second] = to_counts(parse_cards("4D 4D 4D 5C 6C 7C 2H 3H 4H 7S 8S 9S JD QD KD "
                                            "2S 9H KC 10S 10H AS"))
    s.hands[first] = to_counts(parse_cards("AD 2D 3D 5S 6S 7S 2C 3C 4C 7H 8H 9H JC QC KC "
                                           "2H 9C KH 10D 10C AH"))
    s.asked = [False] * game.num_players
    s.phase = DRAW
    game._open_window(s)
    assert s.current == first and s.phase == DRAW  # no tunnela: straight to the draw
    show(game, s, "draw", "discard AH")
    assert s.current == second and s.phase == EXPOSE


def test_direction_flag():
    anti, clock = NepaliGame(Config()), NepaliGame(Config(direction="clockwise"))
    assert [anti.next_seat(p) for p in range(4)] == [3, 0, 1, 2]
    assert [clock.next_seat(p) for p in range(4)] == [1, 2, 3, 0]
    s = anti.new_state(np.random.default_rng(3))
    assert anti.current_player(s) == anti.next_seat(s.dealer) or s.phase == EXPOSE


def test_deal_sizes_and_six_players():
    for n, stock in ((2, 113), (3, 92), (4, 71), (5, 50)):
        game = NepaliGame(Config(num_players=n))
        s = game.new_state(np.random.default_rng(n))
        assert (s.hands.sum(axis=1) == 21).all() and len(s.table.stock) == stock
        assert len(s.table.discard) == 1  # the offered card
    with pytest.raises(ValueError, match="num_players"):
        Config(num_players=6)
    s = NepaliGame(Config(num_players=6, max_players=6)).new_state(np.random.default_rng(0))
    assert len(s.table.stock) == 29


def test_reshuffle_when_a_draw_from_an_empty_stock_is_needed():
    """2N.8: "when a draw from an empty stock is needed, shuffle all discards except the top
    one into a new stock". The card on top when the last stock card goes is recycled too,
    once it is buried; taking the top discard instead recycles nothing."""
    game, s = position("2S 3S 4S 9D", phase=DRAW)
    s.table.stock, s.table.discard = parse_cards("KC"), parse_cards("5C 6C")
    s.table.pile[:] = to_counts(parse_cards("5C 6C"))
    show(game, s, "draw")  # the last stock card: nothing is rebuilt yet
    assert s.table.stock == [] and s.table.discard == parse_cards("5C 6C")
    show(game, s, "discard 9D")
    nxt = s.current
    assert not s.over and legal(game, s) == {"draw", "take"}
    before = s.hands[nxt].copy()
    show(game, s, "draw")  # the draw needs the stock: 5C 6C (not 9D, the top) are shuffled in
    drawn = s.hands[nxt] - before
    assert s.table.discard == parse_cards("9D") and s.table.pile.sum() == 1
    assert sorted([*s.table.stock, *np.flatnonzero(drawn)]) == parse_cards("5C 6C")
    # the same position, but the next player takes the 9D: the pile stays as it was
    game, s = position("2S 3S 4S 9D", phase=DRAW)
    s.table.stock, s.table.discard = parse_cards("KC"), parse_cards("5C 6C")
    show(game, s, "draw", "discard 9D", "take")
    assert s.table.stock == [] and s.table.discard == parse_cards("5C 6C")


def test_the_first_shower_recycles_an_empty_stock_for_the_tiplu():
    """2N.5: "If the stock is empty, recycle first (2N.8)" — the top discard stays."""
    game, s = position(E1, phase=DISCARD)
    s.table.stock, s.table.discard = [], parse_cards("5C 6C KD")
    show(game, s, "show_run 2C-3C-4C", "show_run 9S-10S-JS", "show_tunnela QD")
    assert s.tiplu in parse_cards("5C 6C")
    assert s.table.stock == [c for c in parse_cards("5C 6C") if c != s.tiplu]
    assert s.table.discard == parse_cards("KD")


def test_stock_exhausted_flag():
    """"void": the round is cancelled, no payments, once the stock is out; with both the
    stock and the recyclable discards empty even "reshuffle" is void (2N.8)."""
    for rule, void in (("reshuffle", False), ("void", True)):
        game, s = position("2S 3S 4S 9D", {"stock_exhausted": rule})
        s.table.stock, s.table.discard = [], parse_cards("5C 6C")
        show(game, s, "discard 9D")  # the next player finds the stock empty
        assert s.over is void
        if void:
            assert s.result == {"void": True, "winner": -1}
            assert game.returns(s).tolist() == [0.0] * 4
        else:  # the tiplu never returns; the pile waits for the draw that needs it
            assert "draw" in legal(game, s)
    game, s = position("2S 3S 4S 9D")
    s.table.stock, s.table.discard = [], []
    show(game, s, "discard 9D")  # only the 9D left, and it is the top card
    assert s.over and s.result["void"]


def test_foul_points_flag():
    game, s = position("8H 2S 3S", {"foul_points": 15})
    nxt = game.next_seat(0)
    s.seen[0] = s.seen[nxt] = True
    set_tiplu(s, "7H")
    show(game, s, "discard 8H")  # the poplu to a seen player
    assert s.fouls[0] == 1
    game, s = position("8H 2S 3S")
    s.seen[0] = s.seen[nxt] = True
    set_tiplu(s, "7H")
    show(game, s, "discard 8H")
    assert s.fouls[0] == 0  # off by default


def test_stake_scales_the_reward():
    for stake in (1, 3):
        game, s = position(E1.replace("6C", "7H"), {"stake": stake})
        show(game, s, "show_run 2C-3C-4C", "show_run 9S-10S-JS", "show_tunnela QD")
        set_tiplu(s, "7H")
        s.hands[1:] = 0
        show(game, s, "finish 3S")
        assert game.returns(s).tolist() == [45.0 * stake, *[-15.0 * stake] * 3]


def hidden_redeal(s, seat, rng):
    """A clone differing only in what ``seat`` cannot see: the other concealed hands and the
    stock dealt anew (same sizes) from their union."""
    t = s.clone()
    others = [p for p in range(len(t.hands)) if p != seat]
    pool = np.bincount(t.table.stock, minlength=NUM_KINDS) + sum(t.hands[p] for p in others)
    cards = shuffled(pool, rng)
    for p in others:
        size = int(t.hands[p].sum())
        t.hands[p] = np.bincount(cards[:size], minlength=NUM_KINDS)
        cards = cards[size:]
    t.table.stock = cards
    return t


def other_tiplu(s, rng):
    """A clone whose tiplu is swapped with a stock card of another face."""
    t = s.clone()
    i = next(i for i in rng.permutation(len(t.table.stock)) if t.table.stock[i] != t.tiplu)
    t.table.stock[i], t.tiplu = t.tiplu, t.table.stock[i]
    return t


@pytest.mark.parametrize("flags", [{}, {"open_maal": True}], ids=str)
def test_the_tiplu_reaches_only_seen_players(flags):
    game, s = position(E1, flags)
    observer = NepaliObserver(game.config)
    show(game, s, "show_run 2C-3C-4C", "show_run 9S-10S-JS", "show_tunnela QD")
    rng = np.random.default_rng(0)
    for _ in range(5):
        t = other_tiplu(s, rng)
        assert not np.array_equal(observer.encode(s, 0), observer.encode(t, 0))
        for seat in (1, 2, 3):
            same = np.array_equal(observer.encode(s, seat), observer.encode(t, seat))
            assert same is not game.config.open_maal
    obs = observer.encode(s, 1)
    # seat 1's view in play order 1, 0, 3, 2 (anticlockwise: seat 0 plays right after 1)
    assert obs[LAYOUT["tiplu_drawn"]][0] == 1 and obs[LAYOUT["seen"]].tolist()[:4] == [
        0, 1, 0, 0]


def eager(seed):
    """Finish when possible, else lay show steps, else draw, else a random legal action."""
    rng = np.random.default_rng(seed)

    def policy(state, player, obs, mask):
        for first, last in ((A.FINISH, A.EXPOSE), (A.SHOW_TUNNELA, A.ABANDON_SHOW),
                            (A.EXPOSE, A.EXPOSE_DONE), (A.DRAW_STOCK, A.DRAW_DISCARD)):
            options = np.flatnonzero(mask[first:last])
            if options.size:
                return first + int(rng.choice(options))
        return int(rng.choice(np.flatnonzero(mask)))

    return policy


def test_no_information_leak_along_played_rounds():
    from taas.envs.core.conformance import play_states

    config = Config()
    game, observer = NepaliGame(config), NepaliObserver(config)
    rng = np.random.default_rng(7)
    phases = set()
    for seed in range(2):
        for s in play_states(game, seed, eager(seed)):
            phases.add(s.phase)
            for seat in range(game.num_players):
                t = hidden_redeal(s, seat, rng)
                assert np.array_equal(observer.encode(s, seat), observer.encode(t, seat))
                if s.tiplu >= 0 and not s.seen[seat] and s.table.stock:
                    t = other_tiplu(s, rng)
                    assert np.array_equal(observer.encode(s, seat), observer.encode(t, seat))
    assert {DRAW, DISCARD} <= phases
