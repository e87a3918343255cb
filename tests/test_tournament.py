"""Tournaments: the duplicate schedule, crash-safe storage and resume, identical results for any
number of workers or Ray, forfeits, replays of recorded games, and the command's outputs."""

import contextlib
import json
import math
import signal
import subprocess
import sys
import time
from collections import Counter

import numpy as np
import pytest

import taas.agents
from taas import tournament
from taas.agents.base import Agent
from taas.arena import replay as replays
from taas.cli import main
from taas.envs.core.spec import AgentEntry
from taas.tournament.runner import record_path
from taas.tournament.stats import results, standings

pytest.importorskip("openskill", reason="the tournament extra is not installed")


def registered(monkeypatch, name: str, target: str) -> None:
    """Offer a test agent for every env while one test runs (forked workers inherit it)."""
    monkeypatch.setattr(taas.agents, "_REGISTERED", dict(taas.agents._REGISTERED))
    taas.agents.register(name, AgentEntry(target, "a test agent"))


def without_duration(games: list[dict]) -> list[dict]:
    """Stored games minus the one column a rerun changes (wall-clock seconds)."""
    return [{k: v for k, v in g.items() if k != "duration"} for g in games]


# ---- the duplicate schedule -------------------------------------------------------------------


def test_tables_are_every_combination_or_every_multiset_holding_everyone():
    from taas.tournament.roundrobin import tables

    assert tables(4, 2) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert tables(3, 3) == [(0, 1, 2)]
    # two agents at four seats: 3+1, 2+2, 1+3; all-one-agent tables teach nothing, so none
    assert tables(2, 4) == [(0, 0, 0, 1), (0, 0, 1, 1), (0, 1, 1, 1)]
    assert tables(3, 4) == [(0, 0, 1, 2), (0, 1, 1, 2), (0, 1, 2, 2)]


@pytest.mark.parametrize(("agents", "players"), [(3, 2), (5, 4), (2, 4), (3, 4)])
def test_every_agent_plays_every_seat_of_every_deal_once_per_rotation(agents, players):
    definition = tournament.Definition(
        "romme_v1", tuple(f"a{i}" for i in range(agents)), players, deals=3, seed=11
    )
    games = tournament.schedule(definition)
    assert [g.index for g in games] == list(range(len(games)))
    by_deal_table: dict[tuple[int, int], list] = {}
    for g in games:
        by_deal_table.setdefault((g.deal, g.table), []).append(g)
    for (deal, _), rotation_games in by_deal_table.items():
        assert len(rotation_games) == players  # one game per rotation
        assert len({g.deal_seed for g in games if g.deal == deal}) == 1  # same cards everywhere
        lineup = Counter(rotation_games[0].entrants)
        for seat in range(players):  # over the rotations each seat holds the whole lineup
            assert Counter(g.entrants[seat] for g in rotation_games) == lineup
        for g in rotation_games:
            assert Counter(g.entrants) == lineup
    # over a deal, every agent sits in every seat equally often
    for deal in range(3):
        seats = Counter((e, s) for g in games if g.deal == deal for s, e in enumerate(g.entrants))
        for seat in range(players):
            counts = {seats[(e, seat)] for e in range(agents)}
            assert len(counts) == 1 if agents >= players else min(counts) >= 1
    assert len({g.deal_seed for g in games}) == 3  # deals differ
    seeds = [s for g in games for s in g.agent_seeds]
    assert len(set(seeds)) == len(seeds)  # no two seats share an agent seed
    assert tournament.schedule(definition) == games  # deterministic


def test_define_rejects_bad_tournaments_in_one_line():
    for kwargs, message in [
        ({"env_id": "nope_v1", "agents": ["random", "random2"]}, "unknown env"),
        ({"env_id": "romme_v1", "agents": ["random"]}, "two agents or more"),
        ({"env_id": "romme_v1", "agents": ["random", "bogus"]}, "unknown agent spec"),
        ({"env_id": "mariage_v1", "agents": ["random", "heuristic"], "players": 4}, "--players 2"),
    ]:
        with pytest.raises(ValueError, match=message):
            tournament.define(**kwargs)


# ---- storage, resume, workers ------------------------------------------------------------------


def small(**kwargs) -> tournament.Definition:
    """Rommé at two seats, random against the heuristic: a game takes a few milliseconds."""
    args = {"env_id": "romme_v1", "agents": ["random", "heuristic"], "players": 2, "deals": 4,
            "seed": 5, **kwargs}
    return tournament.define(**args)


def test_an_agent_can_play_a_copy_of_itself():
    definition = tournament.define("romme_v1", ["random", "random"], players=2, deals=1)
    assert definition.names == ["random", "random#2"]
    assert len(tournament.schedule(definition)) == 2


def test_a_rerun_plays_nothing_twice_and_another_definition_is_refused(tmp_path):
    definition = small()
    assert tournament.run(definition, tmp_path, progress=False) == (8, 0)
    first = tournament.read_games(tmp_path)
    assert len(first) == 8 and all(g["status"] == "ok" for g in first)
    assert tournament.run(definition, tmp_path, progress=False) == (0, 8)
    assert tournament.read_games(tmp_path) == first
    with pytest.raises(ValueError, match="holds another tournament"):
        tournament.run(small(seed=6), tmp_path, progress=False)


def test_two_tournaments_in_one_folder_the_second_is_refused_in_one_line(tmp_path):
    from taas.tournament.store import Store

    first = Store(tmp_path, small())
    try:
        for definition in (small(), small(seed=6)):
            with pytest.raises(ValueError, match="another tournament is writing"):
                tournament.run(definition, tmp_path, progress=False)
    finally:
        first.close()
    assert tournament.run(small(), tmp_path, progress=False) == (8, 0)  # free once closed


def test_one_two_workers_and_the_order_of_arrival_do_not_change_results(tmp_path):
    definition = small(deals=6)
    tournament.run(definition, tmp_path / "w1", workers=1, progress=False)
    tournament.run(definition, tmp_path / "w2", workers=2, progress=False)
    one, two = (tournament.read_games(tmp_path / w) for w in ("w1", "w2"))
    assert without_duration(one) == without_duration(two)
    assert standings(definition, one) == standings(definition, two)


def test_ray_gives_the_same_games_and_leaderboard_as_local_workers(tmp_path):
    pytest.importorskip("ray", reason="Ray is optional: from a checkout, pip install -e '.[ray]'")
    definition = small()
    tournament.run(definition, tmp_path / "local", workers=1, progress=False)
    tournament.run(definition, tmp_path / "ray", workers=2, backend="ray", progress=False)
    local, ray = (tournament.read_games(tmp_path / w) for w in ("local", "ray"))
    assert without_duration(local) == without_duration(ray)
    assert standings(definition, local) == standings(definition, ray)


# Runs the command in a process that SIGKILLs itself (workers and all) right after its fifth
# game is committed: a crash at a known point, however loaded the machine is.
KILLED_AFTER_FIVE = """
import os, signal, sys
from taas.cli import main
from taas.tournament.store import Store

write = Store.write
def write_then_die(self, game, outcome):
    write(self, game, outcome)
    if len(self.finished()) == 5:
        os.killpg(0, signal.SIGKILL)
Store.write = write_then_die
sys.exit(main(sys.argv[1:]))
"""


def test_sigkill_then_resume_equals_an_uninterrupted_run(tmp_path):
    argv = ["tournament", "romme_v1", "--agents", "random,heuristic", "--players", "2",
            "--deals", "20", "--seed", "3", "--workers", "2", "--quiet"]
    killed = tmp_path / "killed"
    proc = subprocess.run(
        [sys.executable, "-c", KILLED_AFTER_FIVE, *argv, "--out", str(killed)],
        capture_output=True, text=True, start_new_session=True, timeout=300,
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    partial = tournament.read_games(killed)
    assert len(partial) == 5  # killed mid-way, the five committed games kept
    assert main([*argv, "--out", str(killed)]) == 0  # rerunning the command resumes
    definition = tournament.read_definition(killed)
    tournament.run(definition, tmp_path / "whole", workers=2, progress=False)
    resumed, whole = (tournament.read_games(tmp_path / w) for w in ("killed", "whole"))
    assert len(whole) == 40
    assert without_duration(resumed) == without_duration(whole)
    # the games stored before the kill were kept as they were, not played again
    duration = {g["game"]: g["duration"] for g in resumed}
    assert all(duration[g["game"]] == g["duration"] for g in partial)


# ---- forfeits ----------------------------------------------------------------------------------


class RaisesOnThird(Agent):
    """Plays randomly, then fails on its third decision."""

    name = "raises"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.decisions = 0

    def act(self, observation, action_mask):
        self.decisions += 1
        if self.decisions == 3:
            raise RuntimeError("lost the plot")
        return int(self.rng.choice(np.flatnonzero(action_mask)))


class Illegal(Agent):
    """Always picks an action its mask forbids."""

    name = "illegal"

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask == 0)[0])


@pytest.fixture
def bad_agents(monkeypatch):
    registered(monkeypatch, "raises", f"{__name__}:RaisesOnThird")
    registered(monkeypatch, "illegal", f"{__name__}:Illegal")


def test_a_failing_agent_forfeits_its_games_and_the_rest_complete(tmp_path, bad_agents):
    definition = tournament.define("romme_v1", ["random", "heuristic", "raises", "illegal"],
                                   players=2, deals=3, seed=1)
    tournament.run(definition, tmp_path, progress=False)
    games = tournament.read_games(tmp_path)
    assert len(games) == 6 * 2 * 3  # six pairs, two rotations, three deals: nothing lost
    for g in games:
        bad = [s for s, a in enumerate(g["agents"]) if a in ("raises", "illegal")]
        if not bad:
            assert g["status"] == "ok" and len(g["scores"]) == 2 and g["error"] is None
            continue
        assert g["status"] == "forfeit" and g["scores"] is None
        # raises vs illegal: whoever moves first with its fault forfeits; else the bad seat
        assert g["forfeit_seat"] in bad
        culprit = g["agents"][g["forfeit_seat"]]
        if culprit == "raises":
            assert g["error"] == "decision 3: RuntimeError: lost the plot"
            assert g["steps"] >= 2  # its own two moves at least were made
        else:
            assert g["error"].startswith("decision 1: illegal action ")
    board = {r["agent"]: r for r in standings(definition, games)["leaderboard"]}
    for name in ("random", "heuristic"):
        assert board[name]["forfeits"] == 0
    assert board["raises"]["forfeits"] + board["illegal"]["forfeits"] == 2 * 3 * 5
    assert board["raises"]["points_per_game"] is None  # it finished no game
    # a forfeit is a loss: against the sound agents the faulty ones never win
    cross = standings(definition, games)["crossplay"]["score"]  # rows, columns: agents in order
    assert [cross[bad][good] for bad in (2, 3) for good in (0, 1)] == [0.0] * 4
    assert {r["agent"] for r in standings(definition, games)["leaderboard"][:2]} == {
        "random", "heuristic"}


def test_forfeit_scoring_on_hand_built_games():
    # four seats, agents 0 and 1 twice each; seat 2 (agent 1) forfeits
    forfeit = {"entrants": [0, 0, 1, 1], "status": "forfeit", "forfeit_seat": 2,
               "scores": None, "deal": 0}
    assert results(forfeit) == {0: 0.0, 1: -math.inf}
    # an entrant's result is the mean of its seats: agent 0 (-10 + -30)/2 = -20 beats -25
    ok = {"entrants": [0, 1, 0, 1], "status": "ok", "forfeit_seat": None,
          "scores": [-10.0, 0.0, -30.0, -50.0], "deal": 1}
    assert results(ok) == {0: -20.0, 1: -25.0}
    definition = tournament.Definition("romme_v1", ("a", "b"), 4, deals=2, seed=0)
    table = standings(definition, [forfeit, ok])
    board = {r["agent"]: r for r in table["leaderboard"]}
    assert board["a"]["win_rate"] == 1.0 and board["b"]["win_rate"] == 0.0
    assert board["b"]["forfeits"] == 1 and board["a"]["forfeits"] == 0
    assert board["a"]["points_per_game"] == -20.0  # the forfeited game adds no points
    assert table["crossplay"]["score"] == [[None, 1.0], [0.0, None]]
    assert table["leaderboard"][0]["agent"] == "a"


# ---- records and the command -------------------------------------------------------------------


def test_recorded_games_replay_to_their_stored_scores(tmp_path):
    definition = small(deals=2)
    tournament.run(definition, tmp_path, record=True, progress=False)
    games = {g.index: g for g in tournament.schedule(definition)}
    for row in tournament.read_games(tmp_path):
        record = replays.load(record_path(tmp_path, games[row["game"]]))
        assert record["seed"] == row["deal_seed"]
        assert [a["spec"] for a in record["agents"]] == row["agents"]
        assert replays.replay(record, render=False).returns == row["scores"]


def test_the_command_writes_the_leaderboard_csv_report_and_plots(tmp_path, capsys):
    out = tmp_path / "t"
    argv = ["tournament", "mariage_v1", "--agents", "random,heuristic,ismcts:5", "--deals", "3",
            "--seed", "2", "--workers", "2", "--out", str(out), "--quiet"]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "mariage_v1: 18 of 18 games" in printed and "Bradley–Terry" in printed
    board = json.loads((out / "leaderboard.json").read_text())
    assert board["games"] == 18 and len(board["leaderboard"]) == 3
    assert sum(r["games"] for r in board["leaderboard"]) == 2 * 18
    assert (out / "games.csv").read_text().count("\n") == 1 + 18
    assert "## What the duplicate deals bought" in (out / "report.md").read_text()
    for png in ("ratings.png", "crossplay.png"):
        assert (out / png).read_bytes()[:4] == b"\x89PNG"
    assert main(["tournament", "--resume", "--out", str(out), "--quiet"]) == 0
    assert "18 games were already stored, 0 played now" in capsys.readouterr().out
    assert main(["tournament", "--resume", "--out", str(tmp_path / "none")]) == 2
    assert "no tournament in" in capsys.readouterr().err
    assert main(["tournament", "--out", str(out)]) == 2
    assert "give ENV_ID and --agents" in capsys.readouterr().err


def test_duplicate_deals_cancel_the_luck_of_the_seat():
    # seat 0 is worth +10 on every deal; A is 1 (deal 0) or 2 (deal 1) points better than B
    def game(deal, rotation, scores):
        entrants = [0, 1] if rotation == 0 else [1, 0]
        return {"entrants": entrants, "status": "ok", "forfeit_seat": None, "scores": scores,
                "deal": deal}

    games = [game(0, 0, [11.0, -11.0]), game(0, 1, [9.0, -9.0]),
             game(1, 0, [12.0, -12.0]), game(1, 1, [8.0, -8.0])]
    definition = tournament.Definition("mariage_v1", ("a", "b"), 2, deals=2, seed=0)
    a = next(r for r in standings(definition, games)["leaderboard"] if r["agent"] == "a")
    dup = a["duplicate"]
    # margins per game 22, -18, 24, -16; per deal 2 and 4
    assert dup["margin"] == 3.0
    assert dup["ci95_width_duplicate"] <= 2.0
    assert dup["ci95_width_independent"] > 10 * dup["ci95_width_duplicate"]
    assert dup["games_factor"] > 100


def test_a_missing_extra_is_named_before_any_game_is_played(tmp_path, capsys, monkeypatch):
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "choix" else find_spec(name, *a))
    argv = ["tournament", "romme_v1", "--agents", "random,heuristic", "--out", str(tmp_path)]
    assert main(argv) == 2
    assert "needs choix: from a checkout, pip install -e '.[tournament]'" in capsys.readouterr().err
    assert not (tmp_path / "tournament.sqlite").exists()


class Hangs(Agent):
    """Never answers its first decision."""

    name = "hangs"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.decisions = 0

    def act(self, observation, action_mask):
        self.decisions += 1
        while self.decisions == 1:
            with contextlib.suppress(Exception):  # cannot swallow the timeout either
                time.sleep(0.01)
        return int(self.rng.choice(np.flatnonzero(action_mask)))


@pytest.mark.parametrize("workers", [1, 2])
def test_an_agent_that_hangs_forfeits_after_the_move_timeout(tmp_path, monkeypatch, workers):
    registered(monkeypatch, "hangs", f"{__name__}:Hangs")
    definition = tournament.define("mariage_v1", ["random", "hangs"], deals=2, seed=3,
                                   move_timeout=0.2)
    tournament.run(definition, tmp_path, workers=workers, progress=False)
    games = tournament.read_games(tmp_path)
    assert len(games) == 2 * 2
    for g in games:
        assert g["status"] == "forfeit" and g["agents"][g["forfeit_seat"]] == "hangs"
        assert g["error"] == "decision 1: took longer than 0.2 s"
    assert tournament.read_definition(tmp_path).move_timeout == 0.2


def test_a_tournament_without_a_move_timeout_keeps_its_stored_id():
    definition = tournament.define("mariage_v1", ["random", "heuristic"], deals=2, seed=3)
    assert "move_timeout" not in definition.to_json()
    assert tournament.Definition.from_json(definition.to_json()) == definition
    with pytest.raises(ValueError, match="move_timeout"):
        tournament.define("mariage_v1", ["random", "heuristic"], move_timeout=0)
