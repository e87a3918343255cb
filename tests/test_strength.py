"""The duplicate-deal evaluation: its intervals and its seat bookkeeping."""

import numpy as np
import pytest

from taas.arena.evaluate import duplicate_deals, mean_interval, wilson
from taas.benchmarks.strength import main, parallel_deals


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
