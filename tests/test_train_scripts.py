"""Smoke tests of both training scripts with tiny budgets: they train, save a model that the
``ppo:`` agent plays, evaluate it on duplicate deals and draw the curve; a self-play run stopped
and resumed continues exactly the curve of an uninterrupted one."""

import csv
import signal

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training extra not installed: pip install -e '.[train]'")
import torch

import taas.agents
import taas.arena
import taas.envs
from taas.agents.learned.ppo import load_checkpoint, resolve
from taas.training import behaviour_clone, sb3_maskable_ppo, selfplay_ppo
from taas.training.common import parse_args

TRAINING_COLUMNS = selfplay_ppo.FIELDS[: selfplay_ppo.FIELDS.index("eval_diff")]


def selfplay_args(run_dir, **kw) -> selfplay_ppo.Args:
    tiny = dict(run_dir=str(run_dir), num_tables=4, num_steps=16, hidden=16, total_steps=256,
                snapshot_every=1, eval_every=2, eval_deals=3, save_every=1, progress=False,
                tensorboard=False, workers=1)  # in process: no workers to start per test
    return selfplay_ppo.Args(**{**tiny, **kw})


def rows(run_dir) -> list[dict]:
    with open(run_dir / "curve.csv", newline="") as f:
        return list(csv.DictReader(f))


def plays(model, env_id: str, **rules) -> None:
    env = taas.envs.make(env_id, **rules)
    n = len(env.possible_agents)
    agents = [taas.agents.make(f"ppo:{model}", env_id, seed=0, config=rules)]
    agents += [taas.agents.make("random", env_id, seed=i) for i in range(1, n)]
    assert taas.arena.play_game(env, agents, seed=0).steps > 0


def test_selfplay_trains_saves_and_evaluates(tmp_path):
    run = selfplay_ppo.train(selfplay_args(tmp_path, fixed_opponents="heuristic",
                                           tensorboard=True))
    log = rows(run)
    assert [int(r["update"]) for r in log] == [1, 2, 3, 4]
    assert int(log[-1]["global_step"]) >= 256
    assert all(r["eval_diff"] for r in log[1::2]) and not log[0]["eval_diff"]
    assert -6 <= float(log[-1]["eval_diff"]) <= 6  # Mariage: at most 3 game points a deal
    assert (run / "curve.png").stat().st_size > 0 and any((run / "tb").iterdir())
    ckpt = load_checkpoint(run / "model.pt")
    assert ckpt["script"] == "selfplay_ppo" and ckpt["args"]["total_steps"] == 256
    plays(run / "model.pt", "mariage_v1")


def test_selfplay_learns_several_table_sizes_with_one_network(tmp_path):
    run = selfplay_ppo.train(selfplay_args(tmp_path, env_id="romme_v1", num_players="2,3",
                                           total_steps=64, eval_every=99, eval_deals=1,
                                           eval_opponent="random"))
    ckpt = load_checkpoint(run / "model.pt")
    assert [c["num_players"] for c in ckpt["configs"]] == [2, 3]
    plays(run / "model.pt", "romme_v1", num_players=3)


@pytest.mark.parametrize("fixed", ["", "heuristic"])
def test_selfplay_resumes_the_same_curve(tmp_path, fixed):
    whole = selfplay_ppo.train(selfplay_args(tmp_path / "whole", fixed_opponents=fixed))
    part = selfplay_args(tmp_path / "part", total_steps=128, fixed_opponents=fixed)  # 2 updates
    selfplay_ppo.train(part)
    with pytest.raises(SystemExit, match="--resume"):
        selfplay_ppo.train(part)  # never overwrites a run by accident
    # tensors and plain values only: loading runs no pickled code (tables mid-episode too)
    saved = torch.load(tmp_path / "part" / "checkpoint.pt", weights_only=True)
    assert any(t["moves"] for t in saved["tables"])
    resumed = selfplay_ppo.train(selfplay_args(tmp_path / "part", resume=True))
    a, b = rows(whole), rows(resumed)
    assert [[r[k] for k in TRAINING_COLUMNS] for r in a] == \
        [[r[k] for k in TRAINING_COLUMNS] for r in b]
    assert [r["eval_diff"] for r in a] == [r["eval_diff"] for r in b]
    wa = load_checkpoint(whole / "model.pt")["actor"]
    wb = load_checkpoint(resumed / "model.pt")["actor"]
    assert all(torch.equal(wa[k], wb[k]) for k in wa)


def test_selfplay_with_the_same_seed_is_the_same_run(tmp_path, capsys):
    """Snapshots and fixed agents share the tables with the learner (each network one batched
    forward pass per step): two runs of the same arguments give the same curve and weights,
    another seed another curve; a finished run says where its model is."""
    kw = dict(env_id="romme_v1", num_players="2,3", total_steps=192, selfplay_prob=0.3,
              fixed_opponents="random", eval_every=99, eval_deals=1, eval_opponent="random")
    a, b = (selfplay_ppo.train(selfplay_args(tmp_path / name, **kw)) for name in "ab")
    assert f"model: {a / 'model.pt'}" in capsys.readouterr().out
    assert rows(a) == rows(b) and int(rows(a)[-1]["pool"]) == len(rows(a)) >= 2
    wa, wb = (load_checkpoint(r / "model.pt")["actor"] for r in (a, b))
    assert all(torch.equal(wa[k], wb[k]) for k in wa)
    other = selfplay_ppo.train(selfplay_args(tmp_path / "c", seed=2, **kw))
    assert [r["policy_loss"] for r in rows(other)] != [r["policy_loss"] for r in rows(a)]


@pytest.mark.parametrize("env_id", taas.envs.available_envs())
def test_selfplay_command_line_trains_every_env(tmp_path, env_id):
    """The flags that scripts outside the suite pass, on every env (tiny tables and updates);
    Mariage's run has the default rollout workers, the others one process (starting workers
    costs seconds, and the engines run the same in either)."""
    run = tmp_path / env_id
    workers = [] if env_id == "mariage_v1" else ["--workers", "1"]
    selfplay_ppo.train(parse_args(selfplay_ppo.Args, "", [
        "--env-id", env_id, "--total-steps", "8", "--run-dir", str(run), "--eval-every", "1",
        "--no-progress", "--no-tensorboard", "--num-tables", "2", "--num-steps", "4",
        "--eval-deals", "1", "--hidden", "8", *workers]))
    assert [int(r["global_step"]) >= 8 for r in rows(run)] == [True] and rows(run)[0]["eval_diff"]
    assert load_checkpoint(run / "model.pt")["env_id"] == env_id


@pytest.mark.parametrize(("kw", "message"), [
    (dict(total_steps=0), "--total-steps 0: expected a positive number of learner steps"),
    (dict(env_id="gin_v1"), "selfplay_ppo: unknown env 'gin_v1'"),
    (dict(num_tables=1, num_players="2,3", env_id="romme_v1"), "--num-tables 1: expected"),
    (dict(resume=True), "--resume: no .*checkpoint.pt to continue"),
    (dict(fixed_opponents="heuristic,grandmaster"), "selfplay_ppo: .*grandmaster"),
    (dict(fixed_opponents="grandmaster", workers=2), "selfplay_ppo: .*grandmaster"),
])
def test_selfplay_bad_arguments_are_one_line_errors(tmp_path, kw, message):
    with pytest.raises(SystemExit, match=message) as err:
        selfplay_ppo.train(selfplay_args(tmp_path, **kw))
    assert "\n" not in str(err.value) and not (tmp_path / "curve.csv").exists()


def test_selfplay_does_not_resume_a_checkpoint_of_the_one_table_at_a_time_script(tmp_path):
    torch.save({"args": {}, "tables": [], "pool": []}, tmp_path / "checkpoint.pt")
    with pytest.raises(SystemExit, match=r"older selfplay_ppo .* --init-from"):
        selfplay_ppo.train(selfplay_args(tmp_path, resume=True))


def test_selfplay_help_shows_every_default(capsys):
    with pytest.raises(SystemExit):
        parse_args(selfplay_ppo.Args, "", ["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--num-tables NUM_TABLES tables stepped together" in text
    assert f"(default: {selfplay_ppo.Args.num_tables})" in text
    assert "--env-id ENV_ID (default: 'mariage_v1')" in text
    assert "--tensorboard, --no-tensorboard (default: True)" in text


def test_sb3_trains_and_exports_the_same_policy(tmp_path):
    args = sb3_maskable_ppo.Args(run_dir=str(tmp_path), opponents="random,heuristic",
                                 total_steps=256, num_envs=2, n_steps=64, batch_size=64,
                                 n_epochs=1, hidden=16, eval_every=128, eval_deals=3,
                                 progress=False)
    run = sb3_maskable_ppo.train(args)
    assert [int(r["global_step"]) for r in rows(run)] == [128, 256, 256]
    assert all(r["eval_diff"] for r in rows(run)) and (run / "curve.png").exists()
    # the exported actor's most probable action is SB3's own policy's deterministic choice
    model = sb3_maskable_ppo.MaskablePPO.load(run / "sb3_checkpoint.zip", device="cpu")
    agent = taas.agents.make(f"ppo:{run / 'model.pt'}", "mariage_v1", seed=0)
    env = taas.arena.single_agent_env("mariage_v1", seed=3)
    for _ in range(20):
        obs, _ = env.reset()
        mask = env.action_masks()
        with torch.no_grad():
            logits = agent.net.logits(torch.as_tensor(obs), torch.as_tensor(mask))
        theirs, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert int(logits.argmax()) == int(theirs)


def test_throughput_benchmark_measures_both_scripts():
    from taas.benchmarks import training

    # the current defaults' first update is 4,096 steps: fewer tables keep the test short
    rows = training.main(["--steps", "64", "--games", "mariage_v1", "--num-tables", "32",
                          "--configs", "inprocess,current", "--afterstate-games", "2"])
    assert [(r["script"], r["config"]) for r in rows] == [
        ("selfplay_ppo", "previous"), ("selfplay_ppo", "inprocess"), ("selfplay_ppo", "current"),
        ("sb3_maskable_ppo", "previous"), ("sb3_maskable_ppo", "current"),
        ("afterstate_value", "current")]
    assert [(r.get("num_tables"), r.get("workers"), r.get("update_epochs")) for r in rows[:3]] == [
        (16, 1, 4), (32, 1, 2), (32, 2, 2)]
    shipped = load_checkpoint(resolve("mariage"))["hidden"]
    assert {r["hidden"] for r in rows[:5]} == {shipped}  # the shipped model's width
    assert [r["num_envs"] for r in rows[3:5]] == [8, sb3_maskable_ppo.Args.num_envs]
    afterstate = rows[-1]
    assert afterstate["games"] == 2 and afterstate["decisions"] > 2
    assert afterstate["decisions_per_s"] == pytest.approx(
        afterstate["games_per_s"] * afterstate["decisions"] / 2)
    for first, later in ((0, (1, 2)), (3, (4,))):  # each script's ratios are over previous's
        assert rows[first]["ratio"] == 1
        for i in later:
            assert rows[i]["ratio"] == pytest.approx(rows[i]["steps_per_s"]
                                                     / rows[first]["steps_per_s"])
    assert all(r["steps"] >= 64 for r in rows[:5])  # the afterstate rows: its 2 games'
    assert rows[4]["steps"] % (rows[4]["num_envs"] * rows[4]["n_steps"]) == 0  # whole rollouts
    assert all(r["steps_per_s"] > 0 and 0 < r["env_share"] <= 1 for r in rows)
    for r in rows[:3]:  # in one process the phases split the updates' time; with workers,
        # the learner's own phases do, and the workers' run beside them
        split = [r[f"{c}_share"] for c in training.COLUMNS]
        assert all(0 <= x <= 1 for x in split)
        columns = training.LEARNER_COLUMNS if r["workers"] > 1 else training.COLUMNS
        assert sum(r[f"{c}_share"] for c in columns) == pytest.approx(1)
        assert r["env_stepping_share"] + r["encoding_share"] == pytest.approx(r["env_share"])
    assert rows[1]["waiting_share"] == 0 < rows[2]["waiting_share"]


def test_selfplay_ctrl_c_saves_and_resume_continues_the_same_curve(tmp_path, monkeypatch):
    whole = selfplay_ppo.train(selfplay_args(tmp_path / "whole", save_every=10))
    real_evaluate = selfplay_ppo.evaluate

    def evaluate_then_ctrl_c(*args):
        signal.raise_signal(signal.SIGINT)  # Ctrl-C during update 2's evaluation
        return real_evaluate(*args)

    monkeypatch.setattr(selfplay_ppo, "evaluate", evaluate_then_ctrl_c)
    part = selfplay_ppo.train(selfplay_args(tmp_path / "part", save_every=10))
    assert [int(r["update"]) for r in rows(part)] == [1, 2]  # finished update 2, saved, stopped
    monkeypatch.setattr(selfplay_ppo, "evaluate", real_evaluate)
    resumed = selfplay_ppo.train(selfplay_args(tmp_path / "part", resume=True))
    assert rows(resumed) == rows(whole)


def test_behaviour_clone_imitates_the_teacher_and_warm_starts_selfplay(tmp_path):
    args = behaviour_clone.Args(run_dir=str(tmp_path / "bc"), deals=40, hidden=32, epochs=12,
                                eval_deals=3, progress=False)
    run = behaviour_clone.train(args)
    log = rows(run)
    assert [int(r["epoch"]) for r in log] == list(range(1, 13)) and log[-1]["eval_diff"]
    # a uniform guess over the legal moves matches the heuristic far less often
    raw = taas.envs.make("mariage_v1", wrapped=False)
    _, masks, _, _ = behaviour_clone.record(raw, taas.agents.make("heuristic", "mariage_v1"),
                                              20, np.random.default_rng(5), 0.99, 1.0)
    guess = float(np.mean([1 / m.sum() for m in masks]))
    assert float(log[-1]["heldout_accuracy"]) > guess + 0.15
    bc = load_checkpoint(run / "model.pt")
    assert bc["script"] == "behaviour_clone" and "critic" in bc
    # --init-from loads actor and critic: with a zero learning rate PPO keeps the clone's actor
    warm = selfplay_ppo.train(selfplay_args(tmp_path / "ppo", hidden=32, learning_rate=0.0,
                                            init_from=str(run / "model.pt"), total_steps=64,
                                            fixed_opponents="heuristic"))
    ppo = load_checkpoint(warm / "model.pt")
    for part in ("actor", "critic"):
        assert all(torch.equal(ppo[part][k], bc[part][k]) for k in bc[part])
    with pytest.raises(SystemExit, match="--hidden 32; this run is mariage_v1 with 260, 39 and "
                                         "--hidden 16"):
        selfplay_ppo.train(selfplay_args(tmp_path / "bad", init_from=str(run / "model.pt")))
    with pytest.raises(SystemExit, match=r"--init-from: checkpoint .* not found"):
        selfplay_ppo.train(selfplay_args(tmp_path / "gone", init_from=str(tmp_path / "no.pt")))


def test_behaviour_clone_critic_targets_are_discounted_returns():
    """Mariage scores only at the end of a deal: each seat's target is its final return,
    discounted once per later decision of that seat."""
    raw = taas.envs.make("mariage_v1", wrapped=False)
    teacher = taas.agents.make("heuristic", "mariage_v1", seed=0)
    rng = np.random.default_rng(3)
    state = raw.game.new_state(np.random.default_rng(3))
    seats = []
    while not raw.game.is_terminal(state):
        seats.append(raw.game.current_player(state))
        raw.game.apply_action(state, teacher.act(raw.observer.encode(
            state, seats[-1]), raw.game.legal_mask(state)))
    final = raw.game.returns(state)
    _, _, _, targets = behaviour_clone.record(raw, taas.agents.make("heuristic", "mariage_v1",
                                                                    seed=0), 1, rng, 0.5, 2.0)
    expected = [2.0 * final[p] * 0.5 ** seats[i + 1:].count(p) for i, p in enumerate(seats)]
    assert targets == pytest.approx(expected)


def test_dagger_adds_the_clones_own_states_labelled_by_the_teacher(tmp_path):
    args = behaviour_clone.Args(run_dir=str(tmp_path / "bc"), deals=12, hidden=16, epochs=2,
                                dagger_iters=2, dagger_deals=4, dagger_epochs=1,
                                deterministic=True, eval_deals=1, progress=False)
    run = behaviour_clone.train(args)
    log = rows(run)
    assert [int(r["stage"]) for r in log] == [0, 0, 1, 2]
    assert not log[0]["visited_accuracy"] and 0 <= float(log[2]["visited_accuracy"]) <= 1
    samples = [int(r["samples"]) for r in log]
    assert samples[0] == samples[1] < samples[2] < samples[3]
    assert all(log[i]["eval_diff"] for i in (1, 2, 3)) and not log[0]["eval_diff"]
    for name in ("stage0.pt", "stage1.pt", "stage2.pt", "model.pt"):
        assert load_checkpoint(run / name)["deterministic"] is True
    assert (run / "curve.png").stat().st_size > 0
    plays(run / "model.pt", "mariage_v1")


def test_dagger_records_the_learners_states_with_the_teachers_moves():
    """The learner moves in seat ``deal % players``; the samples at the indices it returns are
    exactly the observations the learner saw, labelled with the teacher's move."""
    raw = taas.envs.make("mariage_v1", wrapped=False)
    teacher = taas.agents.make("heuristic", "mariage_v1", seed=0)

    class Spy:
        def __init__(self):
            self.random, self.seen = taas.agents.make("random", "mariage_v1", seed=1), []

        def act(self, obs, mask):
            self.seen.append(obs)
            return self.random.act(obs, mask)

    spy = Spy()
    obs, masks, acts, _, mine = behaviour_clone.record(raw, teacher, 4, np.random.default_rng(0),
                                                       0.99, 1.0, learner=spy)
    assert len(mine) == len(spy.seen) > 0
    assert all(np.array_equal(obs[k], seen) for k, seen in zip(mine, spy.seen, strict=True))
    assert all(acts[k] == teacher.act(obs[k], masks[k]) for k in mine)
    assert any(acts[k] != spy.random.act(obs[k], masks[k]) for k in mine)  # not the mover's
