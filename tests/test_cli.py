"""The taas command line, run in-process through its entry point."""

import json
import subprocess
import sys

import pytest

import taas
from taas.cli import main


def env_id(game: str) -> str:
    """The installed id of ``game`` (ids move to _v1, _v2 as rules change)."""
    return next(e for e in taas.available_envs() if e.rpartition("_v")[0] == game)


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"taas {taas.__version__}\n"


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
    # after the deal (15 cards): ace 1, 2-9 face value, 10/J/Q/K 10, joker 15 (continental rules):
    # 1 + 2 + ... + 9 = 45, four tens and courts 40, JK 15, 2S 2 = 102
    hand = "AS 2D 3C 4H 5S 6D 7C 8H 9S 10D JC QH KS JK 2S"
    assert main(["score", "continental", "--hand", hand, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"penalty": 102, "go_out_discards": None}


def test_score_marriage_json(capsys):
    # docs/rules/marriage.md M4 (wild rank 8): every card melds, but the only run holds 8H, so
    # there is no life;
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
    # docs/rules/romme.md R6: never opened, 36 in hand: 36 + 25 = 61, capped at half the target
    # (100 / 2)
    argv = ["score", "romme", "--hand", "KS QD 9C 7H", "--json"]
    assert main([*argv, "--never-opened"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["hand_value"], out["charge"], out["opening_value"]) == (36, 50, 0)
    # three 4-card groups of tens, jacks and kings, 10 points a card: an opening of 120
    hand = "10S 10H 10D 10C JS JH JD JC KS KH KD KC"
    assert main(["score", "romme", "--hand", hand, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["opening_value"] == 120


SIXTEEN = "7C 7C 7H 7D 9D 9D 9S 9H 9C 4H 4C 4S KS KD JK 2H"
MARRIAGE = "7H 8H 9H AS AD AC 2C 2D 2S 4C 4H 4S 6C 6D 6S 10C 10D 10S QS QD QC"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "continental", "--hand", "7C 7X"], "bad card '7X'"),
        (["score", "continental", "--hand", "1C " + SIXTEEN[3:]], "bad card '1C'"),
        (["score", "continental", "--hand", "AS 2D"], "holds 15 or 16 cards, not 2"),
        (["score", "continental", "--hand", ""], "holds 15 or 16 cards, not 0"),
        (
            ["score", "continental", "--hand", "KS " * 7 + "2C 3C 4C 5C 6C 7C 8C 9C 10C"],
            "7 copies of KS",
        ),
        (
            ["score", "continental", "--hand", SIXTEEN, "--rule", "allow_buying=true"],
            None,
        ),
        (
            ["score", "continental", "--hand", "AS", "--rule", "allow_buying=true"],
            "holds 15 to 108 cards, not 1",
        ),
        (["score", "continental", "--hand", SIXTEEN, "--hand-size", "13"], "13 or 14 cards"),
        (["score", "marriage", "--indicator", "7D", "--hand", "AS 2S 3S"], "21 or 22 cards"),
        (
            ["score", "marriage", "--indicator", "KS", "--hand", MARRIAGE[:-5] + "KS KS KS"],
            "3 copies of KS, but the marriage shoe holds 2",  # the third is the indicator
        ),
        (
            ["score", "marriage", "--indicator", "JK", "--rule", "printed_jokers=0",
             "--hand", MARRIAGE],
            "indicator JK",
        ),
        (["score", "romme", "--hand", ""], "holds 1 to 14 cards, not 0"),
        (["score", "romme", "--hand", "AS " * 15], "holds 1 to 14 cards, not 15"),
        (["score", "romme", "--hand", "AS AS AS"], "3 copies of AS"),
        (["play", env_id("mariage"), "--agents", "random"], "gives 1 agent for"),
        (["play", env_id("mariage"), "--agents", "random,,random"], "an empty agent spec"),
        (["play", "continental_v1", "--agents", "greedy,bogus,random"], "unknown agent spec"),
        (
            ["play", "continental_v1", "--agents", "random,random,random", "--rule", "jokers=3"],
            "jokers=3",
        ),
        (["play", "nope_v0", "--agents", "random"], "unknown env"),
    ],
)
def test_bad_input_is_a_clear_error(capsys, argv, message):
    if message is None:  # the valid neighbour of a rejected input
        assert main(argv) == 0
        return
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_agent_specs_may_have_spaces(capsys):
    assert main(["play", env_id("mariage"), "--agents", "random, random", "--seed", "2"]) == 0
    assert "player_1  random" in capsys.readouterr().out


@pytest.mark.parametrize("rounds", ["0", "-1", "two"])
def test_rounds_must_be_positive(capsys, rounds):
    with pytest.raises(SystemExit) as exit_:
        main(["play", env_id("mariage"), "--agents", "random,random", "--rounds", rounds])
    assert exit_.value.code == 2
    assert f"expected a whole number, 1 or more (got '{rounds}')" in capsys.readouterr().err


def test_score_command_skips_loading_numba():
    """One hand is scored faster in plain Python than numba loads its kernels, so the command
    (a process of its own) never imports numba; in-process callers keep theirs."""
    code = (
        "import sys; from taas.cli import main; sys.argv = ['taas', 'score', 'romme', "
        "'--hand', 'KS QD 9C 7H']; main(); assert 'numba' not in sys.modules"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "hand_value: 36" in out.stdout


@pytest.mark.parametrize("argv", [
    ["play", "mariage_v1", "--agents", "random,random", "--seed", "-5"],
    ["tournament", "mariage_v1", "--agents", "random,heuristic", "--seed", "-5", "--out", "x"],
])
def test_a_negative_seed_is_refused_by_name_before_anything_runs(capsys, argv):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--seed: invalid seed_arg value" not in err and "0 or more (got '-5')" in err


@pytest.mark.parametrize("argv, message", [
    (["serve", "--port", "99999"], "port 99999: expected 1..65535"),
    (["serve", "--max-think", "forever"], "expected seconds"),
    (["serve", "--db", "/proc/no/such/dir/games.sqlite"], "games.sqlite"),
])
def test_serve_refuses_a_bad_setting_in_one_line(capsys, argv, message):
    pytest.importorskip("fastapi", reason="the web extra")
    assert main(argv) == 2
    out = capsys.readouterr()
    assert message in out.err and len(out.err.strip().splitlines()) == 1
    assert "taas web table on" not in out.out  # refused before the banner


def test_replay_step_prompts_and_runs_to_the_end_when_input_ends(monkeypatch, capsys, tmp_path):
    import io

    record = tmp_path / "g.json"
    assert main(["play", "mariage_v1", "--agents", "random,random", "--seed", "3",
                 "--record", str(record)]) == 0
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("\n\n"))  # two moves, then the input ends
    assert main(["replay", str(record), "--step"]) == 0
    out = capsys.readouterr().out
    assert out.count("Enter: next move> ") == 3 and "(as recorded)" in out


def test_a_person_at_the_terminal_learns_the_drawn_seed_only_at_the_end(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert main(["play", "mariage_v1", "--human", "0", "--agents", "random"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "seed: hidden until the game ends"
    seed = int(lines[-1].split()[1])
    assert lines[-1] == f"seed {seed} (taas play ... --seed {seed} deals these games again)"
