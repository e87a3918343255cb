"""Game records: taas play --record writes them, taas replay shows them and reproduces the
recorded scores exactly, and a record that does not fit this taas is a clear error."""

import json

import pytest

import taas
from taas.agents import RandomAgent
from taas.arena import play_game
from taas.arena import replay as replays
from taas.cli import main


def env_id(game: str) -> str:
    return next(e for e in taas.available_envs() if e.rpartition("_v")[0] == game)


# a game per env, short enough for the suite: the strongest baseline in seat 0
PLAYS = {
    "continental": ["--agents", "greedy,greedy,greedy", "--rounds", "2"],
    "mariage": ["--agents", "heuristic,random", "--rounds", "2"],
    "marriage": ["--agents", "random,random,random", "--rule", "decks=2"],
    "romme": ["--agents", "heuristic,heuristic"],
}


@pytest.mark.parametrize("game", sorted(PLAYS))
def test_record_then_replay_reproduces_the_scores(tmp_path, capsys, game):
    path = tmp_path / "game.json"
    argv = ["play", env_id(game), *PLAYS[game], "--seed", "4", "--record", str(path)]
    assert main(argv) == 0
    paths = sorted(tmp_path.iterdir())
    record = json.loads(paths[0].read_text())
    assert record["env_id"] == env_id(game) and record["seed"] == 4
    assert record["taas_version"] == taas.__version__
    assert [a["spec"] for a in record["agents"]] == PLAYS[game][1].split(",")
    move = record["moves"][0]
    assert set(move) == {"actor", "action", "name"} and move["actor"].startswith("player_")
    capsys.readouterr()
    for p in paths:
        assert main(["replay", str(p)]) == 0
        out = capsys.readouterr().out
        rec = replays.load(p)
        assert replays.replay(rec, render=False).returns == rec["returns"]
        assert f"returns {' '.join(f'{r:g}' for r in rec['returns'])} (as recorded)" in out
        moves = [line for line in out.splitlines() if line.startswith("player_")]
        assert moves[0].startswith(f"{rec['moves'][0]['actor']:<9} {rec['moves'][0]['name']}")
        assert len(moves) >= len(rec["moves"])


def test_several_games_are_numbered_one_match_is_one_file(tmp_path):
    three = ["play", env_id("mariage"), "--agents", "random,random", "--rounds", "3"]
    assert main([*three, "--seed", "1", "--record", str(tmp_path / "m" / "deal.json")]) == 0
    names = sorted(p.name for p in (tmp_path / "m").iterdir())
    assert names == ["deal-001.json", "deal-002.json", "deal-003.json"]
    seeds = [json.loads((tmp_path / "m" / n).read_text())["seed"] for n in names]
    assert seeds == [1, 2, 3]
    # a Continental series is one episode (episode="match"): one file
    series = ["play", env_id("continental"), "--agents", "greedy,greedy,greedy", "--rounds", "2"]
    assert main([*series, "--seed", "1", "--record", str(tmp_path / "c" / "series.json")]) == 0
    assert [p.name for p in (tmp_path / "c").iterdir()] == ["series.json"]


def test_render_shows_every_move_with_what_became_public(capsys, tmp_path):
    path = tmp_path / "g.json"
    argv = ["play", env_id("continental"), "--agents", "greedy,random,random", "--seed", "1"]
    assert main([*argv, "--render", "--record", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    record = json.loads(path.read_text())
    shown = iter(line for line in out if line.startswith("player_"))
    for move in record["moves"]:  # one line per move, in order: who, then the action's name
        assert next(shown).startswith(f"{move['actor']:<9} {move['name']}")
    discards = [line for line in out if " discard " in line and line.startswith("player_")]
    assert discards and all("[discard +" in line for line in discards)


def test_render_heads_each_of_several_games(capsys):
    argv = ["play", env_id("mariage"), "--agents", "random,random", "--rounds", "2"]
    assert main([*argv, "--seed", "3", "--render"]) == 0
    heads = [line for line in capsys.readouterr().out.splitlines() if line.startswith("---")]
    assert heads == ["--- game 1 of 2 (seed 3)", "--- game 2 of 2 (seed 4)"]


def test_step_waits_for_enter_after_each_move(tmp_path, capsys, monkeypatch):
    path = tmp_path / "g.json"
    assert main(["play", env_id("mariage"), "--agents", "random,random", "--seed", "3",
                 "--record", str(path)]) == 0
    presses = []
    monkeypatch.setattr("builtins.input", lambda *a: presses.append(1) or "")
    assert main(["replay", str(path), "--step"]) == 0
    # one Enter per move, and one after the final table
    assert len(presses) == len(json.loads(path.read_text())["moves"]) + 1


@pytest.fixture
def recorded(tmp_path) -> tuple:
    path = tmp_path / "g.json"
    argv = ["play", env_id("mariage"), "--agents", "heuristic,random", "--seed", "5"]
    assert main([*argv, "--record", str(path)]) == 0
    return path, json.loads(path.read_text())


DROP = object()


def _rewrite(path, record, **changes):
    """Write ``record`` with ``changes`` (a field set to ``DROP`` is left out)."""
    changed = {**record, **changes}
    path.write_text(json.dumps({k: v for k, v in changed.items() if v is not DROP}))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: {"env_id": env_id("mariage").rpartition("_v")[0] + "_v99"}, "but this taas"),
        (lambda r: {"env_id": "nope_v0"}, "which this taas does not have"),
        (lambda r: {"format": "other"}, "not a taas replay file"),
        (lambda r: {"format_version": 2}, "replay format version 2"),
        (lambda r: {"seed": DROP}, "missing seed"),
        (lambda r: {"moves": [{"action": 0}]}, "moves need actor, action, name"),
        (lambda r: {"final_info": {**r["final_info"], "deal": -1}}, "(deal differ)"),
        (lambda r: {"returns": [r["returns"][0] + 1, r["returns"][1]]}, "the replay scored"),
        (lambda r: {"moves": r["moves"][:-1]}, "the record ends after"),
        (lambda r: {"moves": [*r["moves"], r["moves"][-1]]}, "the game ended after"),
        (lambda r: {"moves": [{**r["moves"][0], "actor": "player_9"}, *r["moves"][1:]]},
         "but it is player_"),
        (lambda r: {"moves": [{**r["moves"][0], "name": "x"}, *r["moves"][1:]]}, "'x': action"),
        (lambda r: {"seed": r["seed"] + 1}, ""),  # another deal: any of the errors above
    ],
)
def test_a_record_that_does_not_fit_is_a_clear_error(recorded, capsys, change, message):
    path, record = recorded
    _rewrite(path, record, **change(record))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("taas: error:") and message in err


def test_a_newer_env_version_names_both(recorded):
    path, record = recorded
    game = env_id("mariage").rpartition("_v")[0]
    _rewrite(path, record, env_id=game + "_v99", taas_version="9.9")
    with pytest.raises(replays.ReplayError) as err:
        replays.load(path)
    text = str(err.value)
    assert f"{game}_v99 (taas 9.9)" in text and env_id("mariage") in text
    assert "differ between versions" in text


def test_record_paths():
    assert replays.record_paths("a/g.json", 1) == [replays.Path("a/g.json")]
    assert [p.name for p in replays.record_paths("a/g.json", 2)] == ["g-001.json", "g-002.json"]


def test_unseeded_play_prints_the_seed_that_replays_it(tmp_path, capsys):
    path = tmp_path / "g.json"
    argv = ["play", env_id("mariage"), "--agents", "random,random", "--record", str(path)]
    assert main(argv) == 0
    seed = int(capsys.readouterr().out.splitlines()[0].removeprefix("seed "))
    assert json.loads(path.read_text())["seed"] == seed
    assert main(["replay", str(path)]) == 0


def test_an_unwritable_record_path_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    argv = ["play", env_id("mariage"), "--agents", "random,random", "--seed", "1"]
    assert main([*argv, "--record", str(tmp_path / "file" / "g.json")]) == 2
    assert "cannot write the replay file" in capsys.readouterr().err


def test_play_game_seat_count_reads_as_a_sentence():
    env = taas.make(env_id("mariage"))
    with pytest.raises(ValueError, match=r"^1 agent for 2 seats: give one agent per seat$"):
        play_game(env, [RandomAgent(0)], seed=0)
