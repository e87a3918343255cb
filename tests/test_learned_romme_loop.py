"""A finding of the learned-player work, for the Rommé engine's owner: a player who melds part
of an opening and takes it back (``abandon``) can repeat that pair without end in one turn, and
``max_turns_per_round`` does not bound it (it counts turns). An untrained policy that always
took its most probable move did exactly that, forever; the ``ppo`` agent samples, so it gets
out. Strict xfail: it turns into a failure once the engine bounds the loop."""

import numpy as np
import pytest

import taas.envs
from taas.envs.romme import actions as A


@pytest.mark.xfail(strict=True, raises=AssertionError,
                   reason="romme_v1: meld + abandon repeats forever in one turn")
def test_meld_and_abandon_cannot_repeat_forever():
    raw = taas.envs.make("romme_v1", wrapped=False, num_players=2, max_turns_per_round=50)
    game = raw.game
    rng = np.random.default_rng(0)
    for _ in range(200):  # a deal where the player to move can start an opening and abandon it
        state = game.new_state(rng)
        game.apply_action(state, A.DRAW_STOCK)
        melds = [a for a in np.flatnonzero(game.legal_mask(state))
                 if game.action_to_str(a).startswith("meld")]
        if melds:
            break
    else:
        pytest.skip("no opening meld in 200 deals")
    for _ in range(500):  # ten times the turn limit
        if game.is_terminal(state):
            return
        meld = next(a for a in np.flatnonzero(game.legal_mask(state))
                    if game.action_to_str(a) == game.action_to_str(melds[0]))
        game.apply_action(state, meld)
        game.apply_action(state, A.ABANDON)
    assert game.is_terminal(state), "500 meld/abandon pairs in one turn and the round goes on"
