"""The taas command line, run in-process through its entry point."""

import json

import pytest
from taas.agents.cli import main


def test_envs_lists_ids_and_flags(capsys):
    assert main(["envs"]) == 0
    out = capsys.readouterr().out
    assert "continental_v1" in out and "allow_buying = False" in out


def test_play_prints_rounds_and_the_series_table(capsys):
    argv = ["play", "continental_v1", "--agents", "greedy,random,random", "--rounds", "3"]
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


def test_score_marriage_json(capsys):
    # spec M4 (wild rank 8): every card melds, but the only run holds 8H, so there is no life;
    # a loser is charged the whole hand: aces 3x10, 2s 6, 4s 12, 6s 18, 10s 30, Qs 30,
    # 7H + 9H 16, the wild 8H 20 = 162
    hand = "7H 8H 9H AS AD AC 2C 2D 2S 4C 4H 4S 6C 6D 6S 10C 10D 10S QS QD QC"
    assert main(["score", "marriage", "--indicator", "7D", "--hand", hand, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["wild_rank"], out["can_show"], out["penalty"], out["melds"]) == (
        "8",
        False,
        162,
        [],
    )
    argv = ["score", "marriage", "--indicator", "7D", "--hand", hand, "--json"]
    assert main([*argv, "--rule", "wild_in_natural_place_is_pure=true"]) == 0
    assert json.loads(capsys.readouterr().out)["can_show"] is True
    assert main([*argv, "--ace-penalty", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["penalty"] == 162 - 27


def test_score_marriage_with_wraparound(capsys):
    # K-A-2 of spades is the only life: a run only under allow_wraparound
    hand = "KS AS 2S KD KD KD 6C 6D 8H 2C JK 4C QH QH QS 9C 9D 9H 5D 5H 5C"
    argv = ["score", "marriage", "--indicator", "7D", "--hand", hand, "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["can_show"] is False
    assert main([*argv, "--rule", "allow_wraparound=True"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["can_show"] is True and out["penalty"] == 0
    assert [m["cards"] for m in out["melds"] if m["life"]] == [["KS", "AS", "2S"]]


def test_score_romme_json(capsys):
    # spec R6: never opened, 36 in hand: 36 + 25 = 61, capped at half the target (100 / 2)
    argv = ["score", "romme", "--hand", "KS QD 9C 7H", "--json"]
    assert main([*argv, "--never-opened"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["hand_value"], out["charge"], out["opening_value"]) == (36, 50, 0)
    # three 4-card groups of tens, jacks and kings, 10 points a card: an opening of 120
    hand = "10S 10H 10D 10C JS JH JD JC KS KH KD KC"
    assert main(["score", "romme", "--hand", hand, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["opening_value"] == 120


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "continental", "--hand", "7C 7X"], "bad card '7X'"),
        (["play", "continental_v1", "--agents", "greedy,bogus,random"], "unknown agent spec"),
        (
            ["play", "continental_v1", "--agents", "random,random,random", "--rule", "jokers=3"],
            "jokers=3",
        ),
        (["play", "nope_v0", "--agents", "random"], "unknown env"),
    ],
)
def test_bad_input_is_a_clear_error(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err
