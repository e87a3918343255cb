"""The strength ladder: who plays (aliases resolved, each spec once), which duels (both orders
at a table of more than two, once at two), the ratings fed from every game, the page."""

import numpy as np
import pytest

import taas.agents
from taas.arena.evaluate import duplicate_deals
from taas.benchmarks import ladder


def test_the_default_ladder_names_each_player_once_with_its_aliases():
    specs = ladder.default_ladder("continental_v1")
    assert specs == ["random", "heuristic", "ismcts:25", "ismcts:100", "oracle:100",
                     "ppo:continental"]  # learned and best are both the afterstate model
    nepali = ladder.default_ladder("marriage_nepali_v0", (10, 40))
    assert nepali == ["random", "heuristic", "ismcts:10", "ismcts:40", "oracle:40",
                      "ppo:marriage_nepali", "ismcts:0.2s"]  # best is the search in time


def test_more_than_two_seats_play_both_orders_and_the_games_rate_the_players(tmp_path):
    out = tmp_path / "continental.md"
    result = ladder.main(["continental_v1", "--agents", "random,greedy", "--players", "3",
                          "--deals", "2", "--seed", "5", "--out", str(out)])
    assert sorted(result.duels) == [(0, 1), (1, 0)]
    one_vs_two, _ = result.duels[1, 0]  # greedy alone against two random players
    direct = duplicate_deals("continental_v1", "greedy", "random", deals=2, seed=5,
                             num_players=3)
    assert np.array_equal(one_vs_two.diffs, direct.diffs)
    assert np.array_equal(result.diffs(1, 0), direct.diffs)
    assert len(result.games()) == 2 * 2 * 3  # two duels, two deals, three seats
    greedy, rand = result.ratings()[1], result.ratings()[0]
    assert greedy["mu"] > rand["mu"]  # greedy wins almost every one of those games
    text = out.read_text()
    assert "both orders are played" in text and "(3 seats, `num_players=3`)" in text


def test_two_seats_play_a_pair_once_and_negate_its_mirror():
    result = ladder.run("mariage_v1", ["heuristic", "random", "learned"], deals=2, seed=1)
    assert result.agents == ["heuristic", "random", "ppo:mariage"]
    assert result.aliases["ppo:mariage"] == ["learned"]
    assert sorted(result.duels) == [(0, 1), (0, 2), (1, 2)]
    assert np.array_equal(result.diffs(1, 0), -result.diffs(0, 1))
    page = ladder.page(result, result.ratings(), "cmd", None)
    assert "| `ppo:mariage` (learned) |" in page and "its mirror negated" in page


def test_a_duel_stops_early_when_the_sequential_test_decides():
    # the rule-based player beats random by about 4 game points a deal (docs/agents.md)
    result = ladder.run("mariage_v1", ["random", "heuristic"], deals=60, seed=0,
                        sprt_delta=1.0, batch=4)
    ev, decision = result.duels[0, 1]
    assert decision == "worse" and len(ev.diffs) < 60
    page = ladder.page(result, result.ratings(), "cmd", None)
    assert "fewer than the cap where the sequential test stopped" in page
    assert f"({len(ev.diffs)}) |" in page


def test_bad_ladders_fail_in_one_line(capsys):
    with pytest.raises(ValueError, match="two different players or more"):
        ladder.run("mariage_v1", ["random", "random"], deals=1)
    for argv, message in ((["mariage_v1", "--players", "3"], "fixed table"),
                          (["mariage_v1", "--budgets", "5"], "two simulation counts"),
                          (["mariage_v1", "--deals", "0"], "one deal or more"),
                          (["mariage_v1", "--agents", "random,nope"], "unknown agent spec")):
        with pytest.raises(SystemExit):
            ladder.main(argv)
        assert message in capsys.readouterr().err
    assert "best" in taas.agents.available("mariage_v1")


def test_a_default_ladder_leaves_out_a_model_made_for_other_tables_and_says_why():
    specs = ladder.default_ladder("romme_v1")
    assert "ppo:romme" in specs  # the shipped model is trained at 4 seats only
    kept, left_out = ladder.fitting("romme_v1", specs, {"num_players": 3})
    assert kept == [s for s in specs if s != "ppo:romme"]
    assert list(left_out) == ["ppo:romme"] and "num_players=3" in left_out["ppo:romme"]
    assert ladder.fitting("romme_v1", specs, {"num_players": 4}) == (specs, {})
    result = ladder.run("romme_v1", ["random", "heuristic"], deals=1, num_players=3)
    result.left_out = left_out
    text = ladder.page(result, result.ratings(), "cmd", None)
    assert "Left out of this table: `ppo:romme`: model 'romme' was trained" in text
