"""The strength harness: its confidence interval and its duplicate-deal bookkeeping."""

import pytest
from taas.benchmarks.strength import duplicate_games, main, wilson


def test_wilson_interval_matches_published_values():
    # textbook values (Wilson 1927; e.g. Newcombe 1998, table I): 5/10 -> 0.2366-0.7634,
    # 0/10 -> 0-0.2775
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_every_deal_is_played_in_every_seat_and_greedy_wins():
    tally = duplicate_games("continental_v0", "random", deals=3, num_players=3)
    assert tally.games == 9
    tally = duplicate_games("continental_v0", "greedy", deals=3, num_players=3)
    assert tally.wins >= 8 and tally.mean_return > -20


def test_command_line(capsys):
    main(["mariage_v1", "--deals", "5", "--rule", "allow_false_claims=false", "--json"])
    assert '"games": 10' in capsys.readouterr().out
