"""Test helper: a greedy Marriage policy that reaches scored rounds, and a conformance run
driven by it (random play rarely shows, so it rarely checks scoring).

The policy shows whenever a valid show is legal, takes the top discard when that lowers its
deadwood, and otherwise discards the card that leaves the least deadwood; with probability
``explore`` it plays a random legal action instead (dublee swaps, invalid shows). The checks are
the engine contract's: cards conserved, the mask exactly what ``apply_action`` accepts (a
rejected action leaves the state unchanged), observations inside their declared bounds, an end
within ``max_steps``, and the same seed replaying the same trajectory.
"""

from __future__ import annotations

import pickle

import numpy as np

from taas.envs.marriage import actions as A
from taas.envs.marriage.observation import MarriageObserver
from taas.envs.marriage.rules import DRAW, MarriageGame, MarriageState
from taas.envs.rummy import melds


def greedy_action(game: MarriageGame, s: MarriageState, rng: np.random.Generator,
                  explore: float = 0.1) -> int:
    mask = game.legal_mask(s)
    legal = np.flatnonzero(mask)
    if rng.random() < explore:
        return int(rng.choice(legal))
    scorer = game.scorer(s)
    hand = s.hands[s.current]
    if s.phase == DRAW:
        if not mask[A.DRAW_DISCARD] or not mask[A.DRAW_STOCK]:
            return int(legal[0])
        taken = hand.copy()
        taken[s.table.discard[-1]] += 1
        best_with = min(_deadwood_after(scorer, taken, k) for k in np.flatnonzero(taken)
                        if k != s.table.discard[-1])
        return A.DRAW_DISCARD if best_with < melds.deadwood(hand, scorer.rules) else A.DRAW_STOCK
    valid = scorer.show_discards(hand) if game.config.show_requires_discard else None
    for a in legal:
        if A.SHOW <= a < A.SHOW_ALL and valid[a - A.SHOW]:
            return int(a)
        if a == A.SHOW_ALL and scorer.can_show(hand):
            return int(a)
    discards = [a for a in legal if A.DISCARD <= a < A.SHOW]
    return int(min(discards, key=lambda a: _deadwood_after(scorer, hand, a - A.DISCARD)))


def _deadwood_after(scorer, hand: np.ndarray, k: int) -> int:
    rest = hand.copy()
    rest[k] -= 1
    return melds.deadwood(rest, scorer.rules)


def play_checked(game: MarriageGame, observer: MarriageObserver, seed: int,
                 max_steps: int = 20_000, exhaustive_every: int = 7) -> list:
    """One episode under :func:`greedy_action` with the checks above; returns the trace
    (and compares it with a replay of the same seed)."""
    trace = _play(game, observer, seed, max_steps, exhaustive_every)
    assert trace == _play(game, observer, seed, max_steps, 0), f"seed {seed}: replay differs"
    return trace


def _play(game, observer, seed, max_steps, every) -> list:
    rng = np.random.default_rng(seed)
    s = game.new_state(np.random.default_rng(seed))
    trace = []
    for step in range(max_steps + 1):
        zones = game.zones(s)
        assert all((z >= 0).all() for z in zones.values()), f"step {step}: negative zone"
        assert np.array_equal(sum(zones.values()), game.shoe(s)), f"step {step}: cards lost"
        if game.is_terminal(s):
            assert not game.legal_mask(s).any()
            trace.append(("end", game.returns(s).tolist(), game.is_truncated(s),
                          [r["penalties"] for r in s.history]))
            return trace
        assert step < max_steps, f"seed {seed}: no end after {max_steps} steps"
        mask = game.legal_mask(s).copy()
        obs = [observer.encode(s, p) for p in range(game.num_players)]
        for o in obs:
            assert ((o >= observer.low) & (o <= observer.high)).all(), f"step {step}: bounds"
        if every and step % every == 0:
            _check_mask_exact(game, s, mask)
        action = greedy_action(game, s, rng)
        trace.append((s.current, action, mask.tobytes(), b"".join(o.tobytes() for o in obs)))
        game.apply_action(s, action)
    raise AssertionError("unreachable")


def _check_mask_exact(game, s, mask) -> None:
    before = pickle.dumps(s)
    for action in range(game.num_actions):
        trial = s.clone()
        if mask[action]:
            game.apply_action(trial, action)
            continue
        try:
            game.apply_action(trial, action)
        except ValueError:
            assert pickle.dumps(trial) == before, f"rejected {action} changed the state"
        else:
            raise AssertionError(f"masked-out {game.action_to_str(action)} was accepted")
    assert pickle.dumps(s) == before, "the checks changed the state"
