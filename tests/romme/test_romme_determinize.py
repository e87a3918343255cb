"""Rommé determinizer on hand-built tables: table melds and the pile count as seen, a card
taken from the pile stays with its taker until it is melded or discarded."""

import numpy as np
from romme_helpers import DRAW, play, setup

import taas.envs
from taas.envs.core.cards import parse_card, to_counts
from taas.envs.romme.determinize import (
    ROLLOUT_DEPTH,
    determinize,
    evaluate,
    greedy,
    rollout,
    table_cards,
)

HANDS = {
    0: "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    1: "9H 9D 2S 3S 4S 5S 6S 7S 8S 10H JH QH KH",
    2: "AS AH AD 4D 5D 6D 7D 8D 9D 10D JD QD KD",
}


def table():
    """Seats 1 and 2 have opened (seat 2 laid 5H-7H); seat 1 to draw, 9S on the pile."""
    return setup(HANDS, melds=((2, "5H 6H 7H"),), opened=(1, 2), current=1, phase=DRAW,
                 discard="3D 9S", num_players=3)


def hidden(d, observer):
    others = [q for q in range(3) if q != observer]
    return d.hands[others].sum(axis=0) + to_counts(d.table.stock)


def test_table_melds_and_the_pile_are_never_dealt():
    game, s = table()
    rng = np.random.default_rng(0)
    seen = s.hands[0] + s.table.pile + table_cards(s)
    for _ in range(30):
        d = determinize(game, s, 0, rng)
        assert (d.hands[0] == s.hands[0]).all()
        assert (hidden(d, 0) + seen == game.shoe(s)).all()
        assert [m.cards() for m in d.melds] == [m.cards() for m in s.melds]
        assert d.sizes == s.sizes and (d.opened == s.opened).all()


def test_a_taken_card_is_pinned_until_it_is_melded():
    game, s = table()
    nine = parse_card("9S")
    play(game, s, "take", "discard 2S")  # seat 1 keeps the 9S
    rng = np.random.default_rng(1)
    assert min(determinize(game, s, 0, rng).hands[1, nine] for _ in range(30)) >= 1
    game, s = table()
    play(game, s, "take", "meld 9SHD", "discard 2S")  # seat 1 lays it at once
    counts = [determinize(game, s, 0, rng).hands[1, nine] for _ in range(60)]
    assert min(counts) == 0 and max(counts) >= 1, "the other 9S should move freely"


def test_evaluation_favours_the_seat_closer_to_going_out():
    game, s = table()
    s.hands[2] = 0
    s.hands[2, parse_card("AS")] = 1
    game.refresh_public(s)
    value = evaluate(game, s)
    assert value[2] > value[1] and value[2] > value[0]
    assert value[0] < 0 and value[1] < 0


def test_rollouts_play_on_as_the_expert_does():
    """No random moves: rollouts with different generators play the same moves, the greedy
    expert's, so paired samples differ only in the dealt cards."""
    game = taas.envs.make("romme_v1", wrapped=False, num_players=3).game
    for seed in range(4):
        start = game.new_state(np.random.default_rng(seed))
        runs = []
        for stream in (1, 2):
            s, rng, moves = start.clone(), np.random.default_rng(stream), []
            while len(moves) < ROLLOUT_DEPTH and not game.is_terminal(s):
                mask = game.legal_mask(s)
                moves.append(rollout(game, s, rng))
                assert moves[-1] == greedy(game, s, mask, np.flatnonzero(mask))
                game.apply_action(s, moves[-1])
            runs.append(moves)
        assert runs[0] == runs[1] and len(runs[0]) > 10
