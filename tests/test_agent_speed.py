"""The agent-speed benchmark counts every decision of every seat and the search's simulations."""

from taas.benchmarks.agents import measure


def test_every_decision_of_every_seat_is_timed():
    row = measure("mariage_v1", "ismcts:8", games=2, rules={"allow_false_claims": False})
    # nobody reaches 66 before two tricks (a trump marriage's 40 + at most 21 a trick), so a
    # deal takes at least 4 decisions
    assert row["decisions"] >= 8 and row["decisions_per_s"] > 0
    assert row["simulations_per_s"] > 0
    row = measure("continental_v1", "random", games=1, rules={"num_players": 3})
    assert "simulations_per_s" not in row and row["decisions"] > 0
