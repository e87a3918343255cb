"""``search_afterstate``: a paired search's choices among the heuristic's first moves, learned
as afterstate values; the player it ships re-ranks only those moves, by the chosen margin."""

import csv

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training extra not installed: pip install -e '.[train]'")
import torch

import taas.agents
import taas.envs
from taas.agents.learned.marriage_value import MarriageValueAgent
from taas.agents.learned.ppo import load_checkpoint
from taas.training import label_states, search_afterstate

ENV, RULES = "marriage_v1", {"num_players": 4}


@pytest.fixture(scope="module")
def labels(tmp_path_factory):
    return label_states.main(label_states.Args(
        env_id=ENV, num_players=4, teacher="ismcts:12", learner="heuristic", deals=6,
        chunk_deals=2, out_dir=str(tmp_path_factory.mktemp("labels")), progress=False))


def fit(run_dir, samples, **kw):
    argv = ["--env-id", ENV, "--samples", str(samples), "--run-dir", str(run_dir),
            "--epochs", "2", "--hidden", "8", "--eval-deals", "1", "--jobs", "1",
            "--no-progress"]
    for k, v in kw.items():
        argv += [f"--{k.replace('_', '-')}", str(v)]
    return search_afterstate.main(argv)


def first_discard_state():
    """A 4-player Marriage position after a draw where the heuristic ranks 3+ discards."""
    raw = taas.envs.make(ENV, wrapped=False, **RULES)
    game, heuristic = raw.game, taas.agents.make("heuristic", ENV, seed=0, config=RULES)
    state = game.new_state(np.random.default_rng(3))
    while True:
        p = game.current_player(state)
        obs, mask = raw.observer.encode(state, p), game.legal_mask(state)
        ranked = heuristic.ranking(obs, mask)
        if len(ranked) >= 3 and all(MarriageValueAgent.is_choice(a) for a in ranked[:3]):
            return obs, mask, ranked
        game.apply_action(state, ranked[0])


def test_the_player_re_ranks_only_the_heuristics_first_width_moves():
    obs, mask, ranked = first_discard_state()
    rising = lambda rows: np.arange(len(rows), dtype=np.float32)  # noqa: E731  (last is best)
    choices = [a for a in ranked if MarriageValueAgent.is_choice(a)]
    assert MarriageValueAgent(rising, 0, RULES, width=2).act(obs, mask) == ranked[1]
    assert MarriageValueAgent(rising, 0, RULES).act(obs, mask) == choices[-1]
    assert MarriageValueAgent(rising, 0, RULES, width=2, margin=1.0).act(obs, mask) == ranked[0]
    reordered = MarriageValueAgent(rising, 0, RULES, width=2).ranking(obs, mask)
    assert sorted(reordered) == sorted(ranked)  # the moves past the width keep their places
    assert reordered[:2] == [ranked[1], ranked[0]] and reordered[2:] == ranked[2:]


def test_agreement_and_the_margin_are_counted_against_the_search():
    inf = float("inf")
    values = torch.tensor([[0.0, 1.0, -inf], [0.0, -1.0, -inf], [0.0, 3.0, 2.0]])
    label = torch.tensor([1, 0, 2])
    got = search_afterstate.agreement(values, label, 0.0)  # plays 1, 0, 1
    assert got == {"held_accuracy": pytest.approx(2 / 3), "held_changes": 0.5,
                   "held_false_changes": 0.0}
    assert search_afterstate.agreement(values, label, 1.0)["held_accuracy"] == pytest.approx(1 / 3)
    assert search_afterstate.margin_for(values, label) == 0.0
    # a network unsure of its first change: a margin above that gap agrees more
    assert search_afterstate.margin_for(torch.tensor([[0.0, 0.5], [0.0, 2.0]]),
                                           torch.tensor([0, 1])) == 0.5


def test_the_groups_are_the_heuristics_first_moves_labelled_with_the_search_choice(labels):
    path = sorted(labels.glob("chunk_*.npz"))[0]
    with np.load(path) as c:
        part = tuple(c[k] for k in ("obs", "mask", "act", "ret", "reference"))
    x, valid, label, stale = search_afterstate.part_groups((ENV, RULES, 3, part))
    assert stale == 0 and len(x) == len(valid) == len(label) > 0
    heuristic = taas.agents.make("heuristic", ENV, seed=0, config=RULES)
    expected = []  # (state index, candidates, the search's candidate)
    for i, (o, m, a) in enumerate(zip(part[0], part[1], part[2], strict=True)):
        ranked = heuristic.ranking(o, m)
        top = [c for c in ranked[:3] if MarriageValueAgent.is_choice(c)]
        if MarriageValueAgent.is_choice(ranked[0]) and len(top) >= 2 and a in top:
            expected.append((i, top, top.index(a)))
    assert [int(k) for k in label] == [k for *_, k in expected]
    assert [int(v.sum()) for v in valid] == [len(t) for _, t, _ in expected]
    assert any(k for *_, k in expected)  # the search changed a move here
    i, top, _ = expected[0]
    rows = MarriageValueAgent.features(heuristic, part[0][i], np.array(top))
    assert np.array_equal(x[0][: len(top)], rows) and not x[0][len(top):].any()


def test_search_afterstate_ships_a_player_with_its_margin_and_width(tmp_path, labels,
                                                                   monkeypatch):
    build = search_afterstate.build_groups
    model = fit(tmp_path / "run", labels, width=3)
    ckpt = load_checkpoint(model)
    with open(tmp_path / "run" / "curve.csv", newline="") as f:
        log = list(csv.DictReader(f))
    assert [int(r["epoch"]) for r in log] == [1, 2] and (tmp_path / "run" / "tb").is_dir()
    assert ckpt["policy"] == "afterstate" and ckpt["width"] == 3
    assert ckpt["margin"] == pytest.approx(float(log[-1]["margin"]))
    assert log[-1]["eval_diff"] and 0 <= float(log[-1]["held_accuracy"]) <= 1
    player = taas.agents.make(f"ppo:{model}", ENV, seed=0, config=RULES)
    assert isinstance(player, MarriageValueAgent) and player.width == 3
    assert player.margin == ckpt["margin"]
    # a rerun on the same samples reads its groups back instead of recomputing them
    monkeypatch.setattr(search_afterstate, "build_groups", lambda *a: pytest.fail("recomputed"))
    again = load_checkpoint(fit(tmp_path / "run", labels, width=3))
    assert all(torch.equal(again["actor"][k], ckpt["actor"][k]) for k in ckpt["actor"])
    # but not after the afterstate player's feature code changed
    built = []
    monkeypatch.setattr(search_afterstate, "build_groups",
                        lambda *a: built.append(a) or build(*a))
    monkeypatch.setattr(search_afterstate.inspect, "getsource", lambda module: "other rows")
    fit(tmp_path / "run", labels, width=3)
    assert len(built) == 2  # the training and the held-out groups
    # a margin given is the one the player keeps
    fixed = fit(tmp_path / "run", labels, width=3, play_margin=0.7)
    assert load_checkpoint(fixed)["margin"] == pytest.approx(0.7)
    assert taas.agents.make(f"ppo:{fixed}", ENV, seed=0, config=RULES).margin == 0.7


def test_search_afterstate_refuses_what_it_cannot_learn_from(tmp_path, labels):
    with pytest.raises(SystemExit, match=r"choose one of .*marriage_v1"):
        search_afterstate.main(["--env-id", "continental_v1", "--samples", str(labels)])
    with pytest.raises(SystemExit, match="--width: at least 2"):
        fit(tmp_path / "w", labels, width=1)
    stale = tmp_path / "stale"
    stale.mkdir()
    for path in sorted(labels.glob("chunk_*.npz")):
        with np.load(path) as c:
            chunk = {k: c[k] for k in c.files}
        chunk["reference"] = np.where(chunk["mask"].argmax(1) == chunk["reference"],
                                      chunk["reference"], chunk["mask"].argmax(1))
        np.savez(stale / path.name, **chunk)
    with pytest.raises(SystemExit, match="reference moves are not heuristic's first move"):
        fit(tmp_path / "s", stale)
