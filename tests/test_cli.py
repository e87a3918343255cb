"""The taas command line, run in-process through its entry point."""

import json

import pytest

from agents.cli import main


def test_envs_lists_ids_and_flags(capsys):
    assert main(["envs"]) == 0
    out = capsys.readouterr().out
    assert "continental_v0" in out and "allow_buying = False" in out


def test_play_prints_rounds_and_the_series_table(capsys):
    argv = ["play", "continental_v0", "--agents", "greedy,random,random", "--rounds", "3"]
    assert main([*argv, "--seed", "1", "--render"]) == 0
    out = capsys.readouterr().out
    assert "Round 1" in out and "Round 3" in out and "winner: player_" in out
    table = out[out.index("penalty points per round") :].splitlines()
    rows = [line.split() for line in table[2:5]]
    assert [r[1] for r in rows] == ["greedy", "random", "random"]
    for r in rows:  # the total column is the sum of the round columns
        assert float(r[-1]) == sum(float(x) for x in r[2:-1])
    assert main([*argv, "--seed", "1", "--render"]) == 0
    assert capsys.readouterr().out == out  # seeded: the same series again


def test_score_continental_json(capsys):
    hand = "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H"
    assert main(["score", "continental", "--hand", hand, "--json"]) == 0
    # hand-checked: 7*4 + 9*5 + 4*3 + 10 + 10 + 15 + 2 = 122; only 2H leaves all grouped
    assert json.loads(capsys.readouterr().out) == {"penalty": 122, "go_out_discards": ["2H"]}
    assert main(["score", "continental", "--hand", "AS 2D 3C", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"penalty": 6, "go_out_discards": None}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "continental", "--hand", "7C 7X"], "bad card '7X'"),
        (["play", "continental_v0", "--agents", "greedy,bogus,random"], "unknown agent spec"),
        (
            ["play", "continental_v0", "--agents", "random,random,random", "--rule", "jokers=3"],
            "jokers=3",
        ),
        (["play", "nope_v0", "--agents", "random"], "unknown env"),
    ],
)
def test_bad_input_is_a_clear_error(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err
