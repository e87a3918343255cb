"""Self-play rollout workers: ``--workers 1`` is the in-process run as it was before workers,
``--workers K`` processes (and Ray actors) give the same run for the same seed, overlap the
update with the next rollout, and a resumed run continues the same curve."""

import csv
import shutil
import signal

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="training extra not installed: pip install -e '.[train]'")
import torch

import taas.agents
import taas.arena
import taas.envs
from taas.agents.learned.ppo import HINTED, PolicyNet, load_checkpoint
from taas.training import selfplay_ppo, ship_model
from taas.training.rollout import Rollout

LOSSES = ("policy_loss", "value_loss", "entropy", "approx_kl")


def args(run_dir, **kw) -> selfplay_ppo.Args:
    """Two table sizes, snapshots and a fixed opponent: every kind of seat a worker plays."""
    tiny = dict(run_dir=str(run_dir), env_id="romme_v1", num_players="2,3", num_tables=4,
                num_steps=16, hidden=16, total_steps=256, snapshot_every=1, eval_every=99,
                eval_deals=1, eval_opponent="random", save_every=2, selfplay_prob=0.3,
                fixed_opponents="random", progress=False, tensorboard=False, threads=1,
                workers=1, update_epochs=4)  # the recorded run's (the defaults since differ)
    return selfplay_ppo.Args(**{**tiny, **kw})


def curve(run_dir) -> list[dict]:
    with open(run_dir / "curve.csv", newline="") as f:
        return [{k: r[k] for k in ("update", "global_step", "episodes", *LOSSES)}
                for r in csv.DictReader(f)]


def weights(run_dir) -> dict:
    return load_checkpoint(run_dir / "model.pt")["actor"]


def same_weights(a, b) -> bool:
    wa, wb = weights(a), weights(b)
    return wa.keys() == wb.keys() and all(torch.equal(wa[k], wb[k]) for k in wa)


def test_one_worker_is_the_in_process_run_as_before(tmp_path):
    """The curve and weights that this configuration gave before workers existed (recorded
    from the script at main 1e9302c, --threads 1). Matched to rounding, not bit for bit: torch's
    float kernels differ by CPU (AVX2 or AVX-512), which moves the sixth digit between machines;
    any other seed, configuration or update order changes the first."""
    run = selfplay_ppo.train(args(tmp_path, total_steps=128, save_every=99))
    recorded = [
        {"global_step": 65, "policy_loss": -0.00436148, "value_loss": 0.00323086,
         "entropy": 1.71743, "approx_kl": 7.1006e-06},
        {"global_step": 130, "policy_loss": -0.00675388, "value_loss": 0.00131978,
         "entropy": 1.46858, "approx_kl": 1.36885e-05}]
    assert [{k: float(r[k]) for k in ("global_step", *LOSSES)} for r in curve(run)] == [
        pytest.approx(r, rel=1e-3) for r in recorded]
    w = weights(run).values()
    assert sum(float(v.double().sum()) for v in w) == pytest.approx(-2.460086221982875, abs=1e-3)
    assert sum(float((v.double() ** 2).sum()) for v in w) == pytest.approx(64.29759368202717,
                                                                          rel=1e-5)


@pytest.fixture(scope="module")
def two_workers(tmp_path_factory):
    """A run of two worker processes (overlapping), evaluated every second update, and the
    same run stopped by Ctrl-C during update 2's evaluation, while the workers collect rollout
    3 with the policy before update 2."""
    root = tmp_path_factory.mktemp("workers")
    whole = selfplay_ppo.train(args(root / "whole", workers=2, eval_every=2))
    real_evaluate = selfplay_ppo.evaluate

    def evaluate_then_ctrl_c(*a):
        signal.raise_signal(signal.SIGINT)
        return real_evaluate(*a)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(selfplay_ppo, "evaluate", evaluate_then_ctrl_c)
        part = selfplay_ppo.train(args(root / "part", workers=2, eval_every=2))
    assert [r["update"] for r in curve(part)] == ["1", "2"]
    return whole, part


def test_worker_processes_resume_the_same_curve(tmp_path, two_workers):
    """The save records where the rollout in flight began and the resumed run collects it
    again, so it continues the same curve and weights as the run never stopped (which also
    makes that the same run for the same seed)."""
    whole, part = two_workers
    resumed = shutil.copytree(part, tmp_path / "part")
    selfplay_ppo.train(args(resumed, workers=2, resume=True))
    assert curve(resumed) == curve(whole) and len(curve(whole)) == 4
    assert same_weights(resumed, whole)


def test_ray_actors_continue_the_worker_processes_run(tmp_path, two_workers):
    """The same workers as Ray actors (Ray 2.60 has no local mode: a local two-CPU Ray that
    the script starts) resume the processes' run and continue the same curve."""
    pytest.importorskip("ray", reason="Ray is optional: from a checkout, pip install -e '.[ray]'")
    whole, part = two_workers
    resumed = shutil.copytree(part, tmp_path / "part")
    selfplay_ppo.train(args(resumed, workers=2, backend="ray", resume=True))
    assert curve(resumed) == curve(whole) and same_weights(resumed, whole)


def test_overlap_learns_from_the_policy_one_update_behind(tmp_path, two_workers):
    """Without overlap every rollout is collected by the newest policy: the first update (the
    same rollout of the initial weights) agrees, the second, whose rollout the overlapped run
    collected with the initial weights again, does not."""
    whole, _ = two_workers
    synced = selfplay_ppo.train(args(tmp_path, workers=2, overlap=False, total_steps=128))
    first, second = curve(synced)
    assert first == curve(whole)[0] and second["policy_loss"] != curve(whole)[1]["policy_loss"]


def test_a_one_process_run_resumes_on_its_own_backend_only(tmp_path):
    selfplay_ppo.train(args(tmp_path, total_steps=64))
    with pytest.raises(SystemExit, match=r"written with --workers 1 --backend local .* resume "
                       r"it with --backend local$"):
        selfplay_ppo.train(args(tmp_path, total_steps=128, backend="ray", resume=True))


@pytest.mark.parametrize(("kw", "message"), [
    (dict(workers=0), "--workers 0 --backend 'local': expected 1 or more workers"),
    (dict(backend="spark"), "--workers 1 --backend 'spark': expected .* local, ray"),
    (dict(address="auto"), "--address auto: only --backend ray connects to a cluster"),
    (dict(workers=5), r"--num-tables 4: expected at least one table .* per worker \(5\)"),
    (dict(hint="nonsense"), "selfplay_ppo: unknown agent spec 'nonsense' for romme_v1"),
    (dict(hint="nonsense", workers=2), "selfplay_ppo: unknown agent spec 'nonsense'"),
])
def test_bad_worker_arguments_are_one_line_errors(tmp_path, kw, message):
    with pytest.raises(SystemExit, match=message) as err:
        selfplay_ppo.train(args(tmp_path, **kw))
    assert "\n" not in str(err.value) and not (tmp_path / "curve.csv").exists()


def test_a_hinted_rollout_marks_the_hint_players_move_in_every_learner_mask(tmp_path):
    """With ``--hint``, each learner row's mask holds one ``HINTED`` entry, on a legal move;
    the run's model records its hint and plays with it."""
    a = args(tmp_path, hint="heuristic", hint_weight=2.0)
    rollout = Rollout(a, 0, [11, 12, 13, 14], np.random.default_rng(0), torch.device("cpu"))
    rollout.reset()
    tables = rollout.tables
    net = PolicyNet(tables.obs_size, tables.num_actions, a.hidden, hint_weight=2.0)
    n = rollout.collect(net)["n"]
    masks = rollout.buf["mask"][:n]
    assert n >= 64 and ((masks == HINTED).sum(1) == 1).all()
    run = selfplay_ppo.train(a)
    ckpt = load_checkpoint(run / "model.pt")
    assert (ckpt["hint"], ckpt["hint_weight"]) == ("heuristic", 2.0)
    taas.arena.play_game(taas.envs.make("romme_v1", num_players=3),
                         [taas.agents.make(f"ppo:{run / 'model.pt'}", "romme_v1", seed=s,
                                           config={"num_players": 3}) for s in range(3)], seed=0)


def test_the_oracle_critic_reads_every_seat_and_the_model_plays_from_its_own(tmp_path):
    """``--oracle-critic``: the critic's row for seat s of an n-seat table is the observations
    of seats s, s+1, ... (turn order), zeros past n; the actor, all that the saved model
    plays with, still reads one observation; a run warm-started from a model whose critic
    read one observation starts a fresh critic instead of failing."""
    a = args(tmp_path / "oracle", oracle_critic=True)
    rollout = Rollout(a, 0, [21, 22, 23, 24], np.random.default_rng(0), torch.device("cpu"))
    rollout.reset()
    tables, d = rollout.tables, rollout.tables.obs_size
    rows, seats = np.arange(4), tables.player.copy()
    seen = np.full((4, d * tables.max_players), 7.0, np.float32)
    rollout._seen_by_all(rows, seats, seen)
    for i in rows:
        n = int(tables.num_players[i])
        assert np.array_equal(seen[i, :d], tables.obs[i])  # the mover's own, first
        for k in range(n):
            theirs = tables.observers[i].encode(tables.states[i], (seats[i] + k) % n)
            assert np.array_equal(seen[i, k * d:(k + 1) * d], theirs)
        assert not seen[i, n * d:].any()
    # two seats' views differ: the critic sees a hand the actor does not
    assert not np.array_equal(seen[0, :d], seen[0, d:2 * d])
    run = selfplay_ppo.train(a)
    assert inputs(run, "actor") == d and inputs(run, "critic") == d * 3
    taas.arena.play_game(taas.envs.make("romme_v1", num_players=3),
                         [taas.agents.make(f"ppo:{run / 'model.pt'}", "romme_v1", seed=s,
                                           config={"num_players": 3}) for s in range(3)], seed=0)
    plain = selfplay_ppo.train(args(tmp_path / "plain", init_from=str(run / "model.pt")))
    assert inputs(plain, "critic") == d
    # shipped without the critic, it is the same player in a smaller file
    shipped = tmp_path / "shipped.pt"
    ship_model.main([str(run / "model.pt"), str(shipped)])
    assert "critic" not in load_checkpoint(shipped)
    assert shipped.stat().st_size < (run / "model.pt").stat().st_size / 2
    moves = [[], []]
    for path, log in zip((run / "model.pt", shipped), moves, strict=True):
        players = [taas.agents.make(f"ppo:{path}", "romme_v1", seed=s, config={"num_players": 3})
                   for s in range(3)]
        for p in players:
            act = p.act
            p.act = lambda o, m, act=act, log=log: log.append(act(o, m)) or log[-1]
        taas.arena.play_game(taas.envs.make("romme_v1", num_players=3), players, seed=5)
    assert moves[0] == moves[1] and len(moves[0]) > 20


def inputs(run_dir, part: str) -> int:
    """How many inputs the first layer of a saved model's actor or critic reads."""
    state = load_checkpoint(run_dir / "model.pt")[part]
    return next(w for k, w in state.items() if k.endswith("weight")).shape[1]


def test_critic_warmup_updates_leave_the_policy_as_it_started(tmp_path):
    """``--critic-warmup K``: the first K updates train the critic alone."""
    start = selfplay_ppo.train(args(tmp_path / "start", total_steps=64))
    warm = selfplay_ppo.train(args(tmp_path / "warm", init_from=str(start / "model.pt"),
                                   critic_warmup=99))
    assert same_weights(start, warm)
    critic = [load_checkpoint(r / "model.pt")["critic"] for r in (start, warm)]
    assert any(not torch.equal(critic[0][k], critic[1][k]) for k in critic[0])
