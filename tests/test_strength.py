"""The duplicate-deal evaluation: its intervals, its seat bookkeeping and its sequential test."""

import json

import numpy as np
import pytest

from taas.arena.evaluate import Evaluation, duplicate_deals, mean_interval, wilson
from taas.benchmarks.strength import BETTER, LEVEL, WORSE, main, parallel_deals, sequential, sprt


def test_wilson_interval_matches_published_values():
    # textbook values (Wilson 1927; e.g. Newcombe 1998, table I): 5/10 -> 0.2366-0.7634,
    # 0/10 -> 0-0.2775
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_bootstrap_interval_covers_the_mean_like_the_normal_one():
    """For 400 normal samples the bootstrap interval is close to mean +- 1.96 sd/sqrt(n)."""
    x = np.random.default_rng(1).normal(3.0, 2.0, 400)
    half = 1.96 * x.std(ddof=1) / np.sqrt(len(x))
    low, high = mean_interval(x)
    assert low == pytest.approx(x.mean() - half, abs=0.03)
    assert high == pytest.approx(x.mean() + half, abs=0.03)
    assert mean_interval(np.array([1.0])) == (-np.inf, np.inf)


def test_every_deal_is_played_in_every_seat_and_greedy_wins():
    ev = duplicate_deals("continental_v1", "random", deals=3, num_players=3)
    assert ev.games == 9 and len(ev.diffs) == 3
    ev = duplicate_deals("continental_v1", "greedy", deals=3, num_players=3)
    assert ev.wins >= 8 and ev.mean_return > -20
    assert ev.diff_interval[0] > 0  # far fewer penalty points than random, on every deal


def test_a_mirror_match_differs_by_nothing_on_average():
    """The same deterministic agent on both sides: each seat rotation repeats the same deal,
    so the per-deal differences of a two-player mirror match are exactly zero."""
    ev = duplicate_deals("mariage_v1", "heuristic", "heuristic", deals=4,
                         allow_false_claims=False)
    assert np.all(ev.diffs == 0)


def test_command_line(capsys):
    main(["mariage_v1", "--deals", "5", "--rule", "allow_false_claims=false", "--json"])
    assert '"games": 10' in capsys.readouterr().out


def test_deals_split_over_processes_are_the_same_deals():
    """--jobs only spreads the seeds over processes: same per-deal differences, same totals."""
    rules = {"allow_false_claims": False}
    one = duplicate_deals("mariage_v1", "heuristic", "random", deals=6, seed=3, **rules)
    split = parallel_deals("mariage_v1", "heuristic", "random", 6, 3, jobs=2, **rules)
    assert np.array_equal(split.diffs, one.diffs)
    assert (split.wins, split.games) == (one.wins, one.games)
    assert split.mean_return == pytest.approx(one.mean_return)


def synthetic(mean: float, sd: float, seed: int):
    """A ``play`` for :func:`sequential` whose deals are normal differences drawn per seed."""
    def play(first: int, count: int) -> Evaluation:
        diffs = np.array([np.random.default_rng([seed, d]).normal(mean, sd)
                          for d in range(first, first + count)])
        return Evaluation("toy", "a", "b", {}, diffs, 0, 2 * count, 0.0, np.zeros((count, 2, 2)))
    return play


def test_a_clear_effect_stops_early_either_way():
    for mean, decision in ((1.0, BETTER), (-1.0, WORSE)):
        ev, got = sequential(synthetic(mean, 3.0, seed=1), deals=2000, seed=0, delta=0.5,
                             batch=10)
        assert got == decision
        assert len(ev.diffs) < 300 and len(ev.diffs) % 10 == 0


def test_no_effect_runs_to_the_cap_or_is_called_level():
    # delta small against the noise: far more than 200 deals are needed to tell, so none is told
    ev, got = sequential(synthetic(0.0, 3.0, seed=2), deals=200, seed=0, delta=0.1, batch=20)
    assert got is None and len(ev.diffs) == 200
    # a wide delta: level, early
    ev, got = sequential(synthetic(0.0, 1.0, seed=2), deals=2000, seed=0, delta=1.0, batch=20)
    assert got == LEVEL and len(ev.diffs) < 200


def test_equal_players_are_rarely_called_better_or_worse():
    """Error rate: about 2 * alpha of duels between equal players end better or worse."""
    calls = [sequential(synthetic(0.0, 1.0, seed=s), deals=1000, seed=0, delta=0.3,
                        alpha=0.05, batch=10)[1] for s in range(200)]
    wrong = sum(c in (BETTER, WORSE) for c in calls) / len(calls)
    assert wrong < 0.15 and calls.count(LEVEL) > 150


def test_a_constant_sample_decides_at_once_and_bad_settings_are_refused():
    assert sprt(np.zeros(5), delta=1.0) == LEVEL
    assert sprt(np.ones(5), delta=1.0) == BETTER
    assert sprt(np.ones(1), delta=1.0) is None
    with pytest.raises(ValueError, match="delta=0"):
        sprt(np.ones(5), delta=0)
    with pytest.raises(ValueError, match=r"alpha=0\.7"):
        sprt(np.ones(5), delta=1.0, alpha=0.7)
    with pytest.raises(ValueError, match="batch=1"):
        sequential(synthetic(0, 1, 0), deals=10, seed=0, delta=1.0, batch=1)


def test_command_line_stops_a_mirror_duel_at_its_first_look(capsys):
    """The same deterministic agent on both sides: every deal's difference is 0, level at once."""
    main(["mariage_v1", "--agent", "heuristic", "--opponent", "heuristic", "--deals", "40",
          "--sprt", "0.5", "--batch", "4", "--rule", "allow_false_claims=false", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["deals"] == 4 and out["sprt"]["decision"] == LEVEL
