"""Agents on marriage_nepali_v0: the heuristic beats random on duplicate deals; the
determinizer deals only what a seat cannot see and never assumes an unseen seat's tiplu; the
search agents play through it."""

from __future__ import annotations

import numpy as np

import taas.agents
import taas.arena
import taas.envs
from taas.arena.evaluate import duplicate_deals
from taas.envs.core.cards import parse_card
from taas.envs.marriage_nepali.config import Config
from taas.envs.marriage_nepali.determinize import determinize
from taas.envs.marriage_nepali.observation import NepaliObserver
from taas.envs.marriage_nepali.rules import SEQUENCE, NepaliGame
from tests.marriage_nepali.test_nepali_combinations import E4_CONCEALED
from tests.marriage_nepali.test_nepali_engine import E1, position, show


def test_heuristic_beats_random_on_duplicate_deals_at_four_players():
    ev = duplicate_deals("marriage_nepali_v0", "heuristic", deals=3, seed=100, num_players=4)
    low, _ = ev.diff_interval
    assert low > 0, ev.summary()


def total(game, s):
    return sum(z.astype(np.int64) for z in game.zones(s).values())


def test_determinizer_keeps_what_the_seat_knows_and_redraws_an_unknown_tiplu():
    game, s = position(E1)
    show(game, s, "show_run 2C-3C-4C", "show_run 9S-10S-JS", "show_tunnela QD")
    taken = parse_card("5D")
    s.hands[2, taken] += 1  # seat 2 took the 5♦ from the pile earlier
    s.hands[2, np.flatnonzero(s.hands[2])[0]] -= 1
    s.records[1, 2, taken] += 1
    observer = NepaliObserver(game.config)
    rng = np.random.default_rng(0)
    tiplus = set()
    for _ in range(30):
        d = determinize(game, s, 1, rng)  # seat 1 has not seen
        assert np.array_equal(total(game, d), total(game, s))  # cards conserved
        assert np.array_equal(observer.encode(d, 1), observer.encode(s, 1))
        assert d.hands[2, taken] >= 1  # the remembered pick-up stays put
        assert np.array_equal(d.hands[1], s.hands[1])
        tiplus.add(d.tiplu)
        seen_view = determinize(game, s, 0, rng)  # seat 0 has seen: the tiplu is known
        assert seen_view.tiplu == s.tiplu
    assert len(tiplus) > 5  # the unseen seat's determinizations do not assume the tiplu


def test_search_agents_play_a_round_legally():
    env = taas.envs.make("marriage_nepali_v0", num_players=2, max_turns_per_round=40)
    agents = [taas.agents.make("ismcts:4", "marriage_nepali_v0", seed=1),
              taas.agents.make("heuristic", "marriage_nepali_v0", seed=2)]
    result = taas.arena.play_game(env, agents, seed=3)
    assert result.steps > 0 and sum(result.returns) == 0


def test_heuristic_exposes_shows_and_finishes_when_offered():
    agent = taas.agents.make("heuristic", "marriage_nepali_v0", seed=0)
    observer = NepaliObserver(Config())
    game, s = position(E1.replace("6C", "7H"))
    while not s.seen[0]:
        a = agent.act(observer.encode(s, 0), game.legal_mask(s))
        assert game.action_to_str(a).startswith("show")
        game.apply_action(s, a)
    assert s.shown[0].sum() == 9
    game, s = position(E4_CONCEALED)  # E4: seen, tiplu 7♥, the 3♠ closes
    s.seen[0], s.route[0], s.tiplu = True, SEQUENCE, parse_card("7H")
    a = agent.act(observer.encode(s, 0), game.legal_mask(s))
    assert game.action_to_str(a) == "finish 3S"


def test_determinizer_keeps_seen_status_shown_combinations_and_redraws_the_future():
    game, s = position(E1)
    show(game, s, "show_run 2C-3C-4C", "show_run 9S-10S-JS", "show_tunnela QD")
    rng = np.random.default_rng(3)
    for seat in range(4):
        d = determinize(game, s, seat, rng)
        assert d.seen == s.seen and d.route == s.route and d.shown_combos == s.shown_combos
        assert np.array_equal(d.shown, s.shown) and np.array_equal(d.exposed, s.exposed)
        assert len(d.table.stock) == len(s.table.stock) and d.table.discard == s.table.discard
        assert d.table.seed != s.table.seed  # no reshuffle in the true future order
        if seat == 0:  # the seen seat knows the tiplu (the unseen ones: the test above)
            assert d.tiplu == s.tiplu


def play_heuristic_states(seeds):
    from taas.envs.core.conformance import play_states

    game = NepaliGame(Config())
    heuristic = taas.agents.make("heuristic", "marriage_nepali_v0", seed=0)
    observer = NepaliObserver(game.config)
    for seed in seeds:
        yield from ((game, s, heuristic, observer) for s in play_states(
            game, seed, lambda st, p, obs, mask: heuristic.act(obs, mask), observer))


def test_rollouts_play_the_heuristic_from_the_movers_knowledge_only():
    """The search's rollout move is the heuristic's move read off the mover's observation,
    and for a mover who has not seen it does not change with the tiplu."""
    from taas.envs.marriage_nepali import determinize as D
    from tests.marriage_nepali.test_nepali_engine import other_tiplu

    rng = np.random.default_rng(0)
    checked = hidden = 0
    for game, s, heuristic, observer in play_heuristic_states(range(3)):
        p = s.current
        move = D.rollout(game, s, rng)
        assert move == heuristic.act(observer.encode(s, p), game.legal_mask(s))
        checked += 1
        if s.tiplu >= 0 and not s.seen[p] and s.table.stock:
            assert D.rollout(game, other_tiplu(s, rng), rng) == move
            hidden += 1
    assert checked > 100 and hidden > 5


def test_evaluate_is_the_settlement_when_one_seat_has_seen():
    """A cut-short round with A (E4's holding, S_A = 5) the only seen seat and the others
    holding no maal is worth what A's finish would pay: 4·5 − 5 + 3·10 = +45, −15 each."""
    from taas.envs.marriage_nepali import determinize as D

    game, s = position(E4_CONCEALED)
    assert D.evaluate(game, s).tolist() == [0.0] * 4  # nobody has seen: nothing owed yet
    s.seen[0], s.route[0], s.tiplu = True, SEQUENCE, parse_card("7H")
    s.hands[1:] = 0
    assert D.evaluate(game, s).tolist() == [45.0, -15.0, -15.0, -15.0]


def test_search_keeps_the_maal_the_heuristic_would_close_with():
    """Tiplu A♠ makes 2♠ a poplu (maal 2). The heuristic closes with the lowest kind, the
    2♠; the search compares the closings on the same deals and keeps it (4·2 − 2 = +6)."""
    hand = "2S 3H 4H 5H 6D 7D 8D 9C 10C JC QH QD QC"
    game, s = position(hand)
    s.seen[0], s.route[0], s.tiplu = True, SEQUENCE, parse_card("AS")
    observer = NepaliObserver(game.config)
    heuristic = taas.agents.make("heuristic", "marriage_nepali_v0", seed=0)
    assert game.action_to_str(heuristic.act(observer.encode(s, 0), game.legal_mask(s))) == \
        "finish 2S"
    search = taas.agents.make("ismcts:30", "marriage_nepali_v0", seed=0)
    move = game.action_to_str(search.act_state(game, s, 0))
    assert move.startswith("finish") and move != "finish 2S"
