"""Mariage search's inference: the deal's record, the rebuilt past, and worlds weighed by the
opponent's moves (docs: :mod:`taas.envs.mariage.belief`)."""

from __future__ import annotations

import numpy as np
from mariage_helpers import game, play, position

from taas.envs.mariage.actions import KING, MARRY, NUM_CARDS, QUEEN, card, parse
from taas.envs.mariage.belief import _Past, belief
from taas.envs.mariage.determinize import determinize
from taas.envs.mariage.rollout_player import _choose
from taas.envs.mariage.rules import OVER, MariageGame

_PAIRS = [1 << card(KING, s) | 1 << card(QUEEN, s) for s in range(4)]


def noisy_positions(count: int, seed: int):
    """Positions with the talon still there, reached by the rule-of-thumb player with one move
    in ten random (exchanges, marriages and closes included)."""
    g = MariageGame()
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = g.new_state(rng)
        for _ in range(int(rng.integers(1, 26))):
            if s.phase == OVER or not s.talon:
                break
            g.apply_action(s, _choose(g.config, s, rng))
        if s.phase != OVER and s.talon:
            out.append((g, s))
    return out


def test_the_deal_records_its_moves_and_draws():
    g = game()
    s = position(g, "AS KH QC 9D 7C 8C", "10S 7H JC 8D 9C 9H", indicator="8S", top="KD QD")
    assert s.indicator == parse("8S")[0] and s.log == [] and s.draws == []
    play(g, s, "AS 10S")
    assert s.log == parse("AS 10S")
    assert s.draws == parse("KD QD"), "the winner draws the top card, then the loser"
    assert s.hands[0] >> parse("KD")[0] & 1 and s.hands[1] >> parse("QD")[0] & 1


def test_a_rebuilt_deal_replays_to_the_position():
    """Whatever past is drawn for the opponent's hidden draws, the deal it rebuilds replays
    the log to exactly the position seen (hands, talon, points, cards played)."""
    rng = np.random.default_rng(0)
    for g, s in noisy_positions(150, seed=1):
        p = g.current_player(s)
        past = _Past(g, s, p, rng, determinize)
        for _ in range(3):
            r = past._rebuilt(g, s.clone(), rng)
            for a in s.log:
                g.apply_action(r, a)
            assert (r.hands, r.talon, r.trick_points, r.played) == (
                s.hands, s.talon, s.trick_points, s.played)


def test_the_true_world_always_keeps_weight():
    rng = np.random.default_rng(2)
    for g, s in noisy_positions(150, seed=3):
        past = _Past(g, s, g.current_player(s), rng, determinize)
        assert past.weight(g, s) > 0


def test_a_lead_without_a_marriage_shows_the_leader_holds_no_pair():
    """The rule-of-thumb player declares a marriage whenever it may: once it has led a plain
    card, worlds giving it a K-Q pair keep only the EPSILON share of a move it would not make."""
    g = game()
    s = position(g, "AS KH QC 9D 7C 8C", "10S 7H JC 8D 9C 9H", indicator="8S", dealer=0)
    lead = _choose(g.config, s)
    assert lead < MARRY
    g.apply_action(s, lead)  # player 1 led; player 0 is to follow
    rng = np.random.default_rng(4)

    def pair_share(sample) -> float:
        worlds = [sample(g, s, 0, rng) for _ in range(1000)]
        return np.mean([any(w.hands[1] & m == m for m in _PAIRS) for w in worlds])

    assert pair_share(determinize) > 0.04  # about 6.5 % of the hands dealt
    assert pair_share(belief(g, s, 0, rng, determinize)) < 0.01


def test_belief_reads_nothing_the_seat_cannot_see():
    """Two positions that differ only where the seat cannot look (the opponent's unknown
    cards, the talon's order, the cards the opponent drew) give the same worlds."""
    rng = np.random.default_rng(6)
    for g, s in noisy_positions(40, seed=7):
        p = g.current_player(s)
        other = determinize(g, s, p, rng)
        past = _Past(g, s, p, rng, determinize)
        for event in past.events:
            if past._hidden(event):
                other.draws[event[2][0]] = NUM_CARDS + 5  # no card at all
        worlds = []
        for state in (s, other):
            r = np.random.default_rng(8)
            draw = belief(g, state, p, r, determinize)
            worlds.append([(w.hands, w.talon) for w in (draw(g, state, p, r) for _ in range(10))])
        assert worlds[0] == worlds[1]
