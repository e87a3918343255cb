"""The afterstate-value trainer (training/afterstate_value.py) with a tiny budget: it collects
games, fits, saves a ``policy="afterstate"`` checkpoint that ``ppo:`` plays, evaluates it and
draws the curve; a rerun resumes after the last iteration saved with the same numbers; a
checkpoint whose features do not match the code is a one-line error."""

import csv

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training extra not installed")

import taas.agents  # noqa: E402
import taas.arena  # noqa: E402
import taas.envs  # noqa: E402
from taas.agents.learned.continental_value import NUM_FEATURES, ContinentalValueAgent  # noqa: E402
from taas.agents.learned.ppo import CheckpointError, load_checkpoint  # noqa: E402
from taas.training import afterstate_value  # noqa: E402

ENV = "continental_v1"
# An untrained network rarely goes out: the turn limit keeps its games short (truncated
# rounds score nothing).
TINY = ["--games", "8", "--chunk-games", "4", "--hidden", "8", "--epochs", "1",
        "--eval-deals", "2", "--jobs", "1", "--rules", '{"max_turns_per_round": 40}']
RULES = {"num_players": 4, "max_turns_per_round": 40}


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """One iteration on heuristic's games, not evaluated: its folder."""
    run = tmp_path_factory.mktemp("tiny")
    afterstate_value.main([*TINY, "--iterations", "1", "--eval-deals", "0", "--run-dir", str(run)])
    return run


def curve(run) -> list[dict]:
    with open(run / "curve.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_it_trains_saves_plays_and_resumes(tmp_path):
    run = tmp_path / "run"
    model = afterstate_value.main([*TINY, "--iterations", "1", "--run-dir", str(run)])
    assert (run / "curve.png").exists() and len(list((run / "data").glob("iter0_*.npz"))) == 2
    assert list((run / "tb").glob("events.out.tfevents.*"))  # the curve for TensorBoard too
    ckpt = load_checkpoint(model)
    assert ckpt["policy"] == "afterstate" and ckpt["features"] == NUM_FEATURES
    assert ckpt["script"] == "afterstate_value" and ckpt["args"]["games"] == 8
    agent = taas.agents.make(f"ppo:{model}", ENV, seed=0, config=RULES)
    assert isinstance(agent, ContinentalValueAgent)
    env = taas.envs.make(ENV, **RULES)
    agents = [agent] + [taas.agents.make("heuristic", ENV, seed=i) for i in range(1, 4)]
    assert taas.arena.play_game(env, agents, seed=0).steps > 0  # the env rejects illegal moves

    first = curve(run)
    afterstate_value.main([*TINY, "--iterations", "2", "--run-dir", str(run)])
    rows = curve(run)
    assert [r["update"] for r in rows] == ["1", "2"] and rows[0] == first[0]
    data = np.load(run / "data" / "iter1_0.npz")
    assert data["features"].shape[1] == NUM_FEATURES and len(data["targets"]) > 0

    again = tmp_path / "again"
    afterstate_value.main([*TINY, "--iterations", "2", "--run-dir", str(again)])
    assert curve(again) == rows  # the same arguments give the same run


def test_targets_are_each_seats_score_difference(tiny_run):
    """Every row carries its seat's return minus the others' mean at the end of the game: one
    value per seat, and over the four seats these differences sum to zero."""
    parts = [np.load(p) for p in sorted(tiny_run.glob("data/*.npz"))]
    data = {k: np.concatenate([p[k] for p in parts]) for k in ("targets", "games", "seats")}
    checked = 0
    for g in np.unique(data["games"]):
        per_seat = {}
        for s in range(4):
            values = np.unique(data["targets"][(data["games"] == g) & (data["seats"] == s)])
            assert len(values) <= 1
            per_seat.update({s: values[0]} if len(values) else {})
        if len(per_seat) == 4:
            assert sum(per_seat.values()) == pytest.approx(0, abs=1e-3)
            assert max(per_seat.values()) > 0
            checked += 1
    assert checked >= 4


def test_an_afterstate_model_plays_any_series_but_not_other_round_rules(tiny_run):
    """It reads one round's hand, never the totals: a match of two rounds is fine; a table
    without jokers is not the game it learned."""
    spec = f"ppo:{tiny_run / 'model.pt'}"
    taas.agents.make(spec, ENV, seed=0, config={**RULES, "episode": "match", "num_rounds": 2})
    with pytest.raises(CheckpointError, match="jokers=0"):
        taas.agents.make(spec, ENV, seed=0, config={**RULES, "jokers": 0})


def test_a_checkpoint_with_other_features_is_refused(tiny_run, tmp_path):
    ckpt = torch.load(tiny_run / "model.pt", weights_only=True)
    torch.save({**ckpt, "features": NUM_FEATURES + 1}, tmp_path / "other.pt")
    with pytest.raises(CheckpointError, match="afterstate features"):
        taas.agents.make(f"ppo:{tmp_path / 'other.pt'}", ENV, seed=0, config=RULES)
    torch.save({**ckpt, "policy": "tree"}, tmp_path / "tree.pt")
    with pytest.raises(CheckpointError, match="unknown policy kind 'tree'"):
        taas.agents.make(f"ppo:{tmp_path / 'tree.pt'}", ENV, seed=0, config=RULES)


def test_a_match_episode_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="episode must be 'round'"):
        afterstate_value.main(["--rules", '{"episode": "match"}', "--run-dir", str(tmp_path)])
