"""Distilling a search: ``label_states`` writes a search's labels in chunks that a rerun
skips and reproduces, and ``behaviour_clone`` fine-tunes a saved model on them (``--samples``,
``--init-from``, ``--deviation-weight``, ``--eval-players``), reporting its accuracy on the
held-out search labels and on the states where the search left the expert's move."""

import csv
import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training extra not installed: pip install -e '.[train]'")
import torch

import taas.agents
import taas.envs
from taas.agents.learned.ppo import PolicyNet, load_checkpoint
from taas.training import behaviour_clone, label_states


def label(out_dir, **kw) -> label_states.Args:
    tiny = dict(env_id="mariage_v1", teacher="ismcts:3", learner="random", deals=3,
                chunk_deals=1, out_dir=str(out_dir), progress=False)
    return label_states.Args(**{**tiny, **kw})


def clone(run_dir, **kw) -> behaviour_clone.Args:
    tiny = dict(run_dir=str(run_dir), deals=6, hidden=16, epochs=2, eval_deals=1,
                progress=False)
    return behaviour_clone.Args(**{**tiny, **kw})


def rows(run_dir) -> list[dict]:
    with open(run_dir / "curve.csv", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def chunks(tmp_path_factory):
    return label_states.main(label(tmp_path_factory.mktemp("labels")))


def test_record_hands_the_state_to_a_search_teacher():
    """A search refuses ``act``; ``record`` asks it through ``act_state``, as play_game does."""
    raw = taas.envs.make("mariage_v1", wrapped=False)
    search = taas.agents.make("ismcts:3", "mariage_v1", seed=0)
    with pytest.raises(TypeError):
        search.act(np.zeros(raw.observer.low.shape), raw.game.legal_mask(
            raw.game.new_state(np.random.default_rng(0))))
    _, masks, acts, _ = behaviour_clone.record(raw, search, 2, np.random.default_rng(0), 0.99, 1.0)
    assert len(acts) > 0 and all(m[a] for m, a in zip(masks, acts, strict=True))


def test_label_states_writes_chunks_that_a_rerun_skips_and_reproduces(chunks):
    paths = sorted(chunks.glob("chunk_*.npz"))
    assert [p.name for p in paths] == ["chunk_00000.npz", "chunk_00001.npz", "chunk_00002.npz"]
    heuristic = taas.agents.make("heuristic", "mariage_v1", seed=0)
    with np.load(paths[1]) as c:
        first = {k: c[k] for k in c.files}
    assert str(first["env_id"]) == "mariage_v1" and json.loads(str(first["rules"])) == {}
    assert all(first["mask"][i, a] for i, a in enumerate(first["act"]))
    assert list(first["reference"]) == [heuristic.act(o, m) for o, m in
                                        zip(first["obs"], first["mask"], strict=True)]
    assert 0 < first["mine"].sum() < len(first["act"])  # the learner's seat and the teacher's
    # a rerun skips what is written and rewrites a lost chunk identically
    stamps = [p.stat().st_mtime_ns for p in paths]
    paths[1].unlink()
    label_states.main(label(chunks))
    assert [p.stat().st_mtime_ns for p in (paths[0], paths[2])] == [stamps[0], stamps[2]]
    with np.load(paths[1]) as again:
        for key in ("obs", "mask", "act", "reference", "ret", "mine"):
            assert np.array_equal(again[key], first[key])


def test_label_states_refuses_a_reference_that_needs_the_state(tmp_path):
    with pytest.raises(SystemExit, match="--reference ismcts:3: give an agent that reads"):
        label_states.main(label(tmp_path, reference="ismcts:3", deals=1))


def test_behaviour_clone_fine_tunes_a_model_on_search_labels(tmp_path, chunks):
    base = behaviour_clone.train(clone(tmp_path / "base"))
    # --init-from loads actor and critic: with a zero learning rate the weights stay the base's
    still = behaviour_clone.train(clone(tmp_path / "still", samples=str(chunks), deals=0,
                                        init_from=str(base / "model.pt"), learning_rate=0.0))
    before, after = load_checkpoint(base / "model.pt"), load_checkpoint(still / "model.pt")
    for part in ("actor", "critic"):
        assert all(torch.equal(after[part][k], before[part][k]) for k in before[part])
    log = rows(still)
    # three chunks: the first held out, so the accuracies are on states never trained on
    assert int(log[0]["samples"]) == sum(
        len(np.load(p)["act"]) for p in sorted(chunks.glob("chunk_*.npz"))[1:])
    with np.load(sorted(chunks.glob("chunk_*.npz"))[0]) as held:
        net = PolicyNet(before["obs_size"], before["num_actions"], 16)
        net.actor.load_state_dict(before["actor"])
        with torch.no_grad():
            hits = (net.logits(torch.as_tensor(held["obs"]), torch.as_tensor(held["mask"]))
                    .argmax(-1).numpy() == held["act"])
        deviates = held["act"] != held["reference"]
    assert deviates.any() and not deviates.all()
    assert float(log[-1]["samples_accuracy"]) == pytest.approx(hits.mean(), abs=1e-5)
    assert float(log[-1]["deviation_accuracy"]) == pytest.approx(hits[deviates].mean(), abs=1e-5)
    assert not log[-1]["heldout_accuracy"] and log[-1]["eval_diff"]
    # deviations weigh --deviation-weight in the actor's loss
    heavy = behaviour_clone.train(clone(tmp_path / "heavy", samples=str(chunks),
                                        init_from=str(base / "model.pt"), deviation_weight=5.0))
    plain = behaviour_clone.train(clone(tmp_path / "plain", samples=str(chunks),
                                        init_from=str(base / "model.pt")))
    assert rows(heavy)[0]["policy_loss"] != rows(plain)[0]["policy_loss"]
    assert rows(heavy)[0]["samples"] == rows(plain)[0]["samples"]


def test_the_samples_tables_join_the_models_and_the_evaluation_picks_one(tmp_path):
    """Labels of 3-player tables fine-tune a model of 4-player tables: it plays both, and
    ``--eval-players`` says which one the curve's evaluations use."""
    labels = label_states.main(label(tmp_path / "labels", env_id="continental_v1",
                                     teacher="ismcts:30", learner="", num_players=3, deals=1,
                                     reward_scale=0.01))
    run = behaviour_clone.train(clone(tmp_path / "bc", env_id="continental_v1", num_players="4",
                                      deals=2, epochs=1, samples=str(labels), eval_players=3))
    sizes = [c["num_players"] for c in load_checkpoint(run / "model.pt")["configs"]]
    assert sizes == [4, 3]
    for n in (3, 4):
        taas.agents.make(f"ppo:{run / 'model.pt'}", "continental_v1", seed=0,
                         config={"num_players": n})
    with pytest.raises(SystemExit, match="--eval-players 5: the model plays no such table"):
        behaviour_clone.train(clone(tmp_path / "bad", env_id="continental_v1", num_players="4",
                                    deals=2, samples=str(labels), eval_players=5))


def test_behaviour_clone_refuses_samples_it_cannot_use(tmp_path, chunks):
    with pytest.raises(SystemExit, match=r"no chunk_\*\.npz files"):
        behaviour_clone.train(clone(tmp_path / "a", samples=str(tmp_path)))
    with pytest.raises(SystemExit, match="labels mariage_v1, not continental_v1"):
        behaviour_clone.train(clone(tmp_path / "b", env_id="continental_v1", samples=str(chunks)))


def test_labels_keep_the_paired_searchs_margin_and_min_margin_drops_unsure_changes(tmp_path,
                                                                                  chunks):
    """The rummies' search leaves the expert's move only by more than one standard error; each
    change keeps that margin, and ``--min-margin`` relabels the less sure ones with the
    reference move. A tree search reports no margin: its labels count as sure (inf)."""
    folder = label_states.main(label(tmp_path / "c", env_id="continental_v1",
                                     teacher="ismcts:30", learner="", num_players=3, deals=3,
                                     chunk_deals=1))
    act, reference, margin = ([], [], [])
    for path in sorted(folder.glob("chunk_*.npz"))[1:]:  # the first is held out
        with np.load(path) as c:
            act, reference, margin = (np.append(x, c[k]) for x, k in
                                      ((act, "act"), (reference, "reference"), (margin, "margin")))
    changed = act != reference
    assert changed.any() and (margin[changed] > 1.0).all() and (margin[~changed] == 0).all()
    assert ((margin > 1) & (margin < 2)).any() and np.isinf(margin).any()  # rollouts agreed
    for z in (0.0, 2.0, np.inf):
        train, held, _ = behaviour_clone.load_samples(str(folder), "continental_v1", z)
        labels, references = (np.concatenate([p[j] for p in train]) for j in (2, 4))
        assert len(held) == 1 and np.array_equal(labels != references, changed & (margin >= z))
    with pytest.raises(SystemExit, match="labels mariage_v1, not continental_v1"):
        behaviour_clone.load_samples(f"{folder},{chunks}", "continental_v1")  # folders: a,b
    with np.load(sorted(chunks.glob("chunk_*.npz"))[0]) as c:
        assert np.isinf(c["margin"]).all()
        older = {k: c[k] for k in c.files if k != "margin"}
    (tmp_path / "old").mkdir()
    np.savez(tmp_path / "old" / "chunk_00000.npz", **older)
    with pytest.raises(SystemExit, match=r"--min-margin: .* has no margins"):
        behaviour_clone.load_samples(str(tmp_path / "old"), "mariage_v1", 2.0)


def test_a_hinted_clone_learns_only_where_to_leave_its_hint(tmp_path, chunks):
    """``--hint heuristic`` marks the labels' reference moves (``heuristic``'s, as the chunks
    record) in the masks: with a hint weight no small network outweighs, the clone plays the
    hint's move everywhere, on the held-out labels and as a shipped ``ppo:`` player."""
    run = behaviour_clone.train(clone(tmp_path / "h", samples=str(chunks), hint="heuristic",
                                      hint_weight=50.0, deterministic=True))
    meta = load_checkpoint(run / "model.pt")
    assert (meta["hint"], meta["hint_weight"]) == ("heuristic", 50.0)
    with np.load(sorted(chunks.glob("chunk_*.npz"))[0]) as held:
        matches = held["act"] == held["reference"]
        player = taas.agents.make(f"ppo:{run / 'model.pt'}", "mariage_v1", seed=0)
        assert [player.act(o, m) for o, m in zip(held["obs"], held["mask"], strict=True)] == list(
            held["reference"])
    assert not matches.all()  # the search left the hint somewhere, so accuracy measures it
    assert float(rows(run)[-1]["samples_accuracy"]) == pytest.approx(matches.mean(), abs=1e-5)
    # continuing a hinted model needs its hint; labels of another reference cannot be hints
    with pytest.raises(SystemExit, match="plays on the hint 'heuristic': give --hint heuristic"):
        behaviour_clone.train(clone(tmp_path / "x", samples=str(chunks),
                                    init_from=str(run / "model.pt")))
    with pytest.raises(SystemExit, match="holds the moves of --reference heuristic, not"):
        behaviour_clone.train(clone(tmp_path / "y", samples=str(chunks), hint="random"))
    (tmp_path / "old").mkdir()
    with np.load(sorted(chunks.glob("chunk_*.npz"))[0]) as c:
        np.savez(tmp_path / "old" / "chunk_00000.npz",
                 **{k: c[k] for k in c.files if k != "reference_spec"})
    with pytest.raises(SystemExit, match=r"--reference \(not recorded\), not the hint's"):
        behaviour_clone.load_samples(str(tmp_path / "old"), "mariage_v1", hint="heuristic")
