"""Property tests over random play: the 120 card points are always all accounted for, hands
stay at six while the talon is open, and every deal ends with a scored result."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from taas.envs.mariage.actions import POINTS, cards_of
from taas.envs.mariage.config import Config
from taas.envs.mariage.rules import LEAD, OVER, MariageGame

RULES = st.fixed_dictionaries({
    "must_head_trick": st.booleans(), "allow_false_claims": st.booleans(),
    "last_trick_bonus": st.booleans(), "marriages_in_closed_phase": st.booleans(),
    "exchange_requires_trick": st.booleans(), "exchange_min_facedown": st.sampled_from([1, 2]),
})


def points(mask: int) -> int:
    return sum(POINTS[c] for c in cards_of(mask))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=RULES, close_bias=st.floats(0, 1))
def test_card_points_total_120_and_hands_hold_six(seed, rules, close_bias):
    g = MariageGame(Config(**rules))
    s = g.new_state(np.random.default_rng(seed))
    rng = np.random.default_rng(seed)
    while s.phase != OVER:
        talon = sum(1 << c for c in s.talon)  # out of play once closed
        trick = 1 << s.lead if s.lead >= 0 else 0
        total = (points(s.won[0]) + points(s.won[1]) + points(s.hands[0] | s.hands[1])
                 + points(talon) + points(trick))
        assert total == 120
        assert sum(bin(m).count("1") for m in (*s.won, *s.hands, talon, trick)) == 32
        if s.phase == LEAD and MariageGame.is_open(s):
            assert [bin(h).count("1") for h in s.hands] == [6, 6]
        legal = np.flatnonzero(g.legal_mask(s))
        if rng.random() < 0.9 and len(legal) > 1:  # claims would end most deals at once
            legal = legal[legal != 38]
        g.apply_action(s, int(rng.choice(legal)))
    r = s.result
    assert r["game_points"] in (1, 2, 3) and s.returns[r["winner"]] == r["game_points"]
    assert s.tricks[0] + s.tricks[1] <= 16
