"""sb3-contrib ``MaskablePPO`` against fixed opponents, on the single-agent view.

    python -m taas.training.sb3_maskable_ppo --env-id mariage_v1 --opponents random,heuristic

Each of ``--num-envs`` environments seats the learner at a random seat every episode and fills
the other seats with one of ``--opponents`` (environment ``i`` gets ``opponents[i % k]``, so a
list is a fixed mix). Every ``--eval-every`` steps the policy is exported to ``model.pt`` in the
Taas checkpoint format (the ``ppo:PATH`` agent plays it without SB3) and evaluated on duplicate
deals; ``sb3_checkpoint.zip`` is SB3's own file for ``MaskablePPO.load``. The learning curve
goes to ``curve.csv``/``curve.png`` in ``--run-dir``.

The environments step together in one :class:`~taas.envs.core.vector.SingleAgentVectorEnv`
(observations and masks written straight into batch arrays), seen by SB3 through
:class:`VectorViewVecEnv`; ``--subprocesses`` uses SB3's ``SubprocVecEnv`` of single envs instead.

For self-play against past snapshots, tables of several sizes and exact resumption, see
:mod:`taas.training.selfplay_ppo`; this script is the shortest path with a standard library.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
from gymnasium.wrappers.vector import DictInfoToList
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_util import is_wrapped
from stable_baselines3.common.vec_env import SubprocVecEnv, VecEnv, VecMonitor

import taas.agents
import taas.arena
import taas.envs
from taas.agents.learned.ppo import PolicyNet, model_meta, save_model
from taas.envs.core.vector import SingleAgentVectorEnv
from taas.training.common import (
    CurveLog,
    eval_opponent,
    evaluate,
    parse_args,
    parse_rules,
    plot_curve,
)


@dataclass
class Args:
    env_id: str = "mariage_v1"
    rules: str = field(default="{}", metadata={"help": "Config fields as JSON"})
    opponents: str = field(default="random", metadata={"help": "specs: random,heuristic"})
    run_dir: str = "runs/sb3"
    seed: int = 1
    total_steps: int = 100_000
    num_envs: int = field(default=128, metadata={
        "help": "envs stepped together (the vector view): the batch of every forward pass"})
    subprocesses: bool = False
    n_steps: int = 32
    batch_size: int = 1024
    n_epochs: int = field(default=2, metadata={
        "help": "passes over each rollout (as selfplay_ppo's --update-epochs)"})
    learning_rate: float = 3e-4
    gamma: float = 0.99
    ent_coef: float = 0.01
    hidden: int = 128
    eval_every: int = 20_000
    eval_deals: int = 100
    eval_opponent: str = ""
    eval_seed: int = 100_000
    threads: int = 1
    device: str = "cpu"
    progress: bool = True


FIELDS = ["update", "global_step", "episodes", "episode_return", "eval_diff", "eval_diff_low",
          "eval_diff_high", "eval_win_rate"]


class VectorViewVecEnv(VecEnv):
    """SB3's ``VecEnv`` interface over the Gymnasium vector view: what ``DummyVecEnv`` of the
    same envs returns (float32 rewards, ``terminal_observation`` and ``TimeLimit.truncated`` in
    each env's info, the new episode's reset info in ``reset_infos``), from one batched step.
    ``env_method``/``get_attr``/``set_attr`` reach the single-agent envs, so ``MaskablePPO``
    finds their ``action_masks()`` (answered from the batch's mask array, which holds the
    same)."""

    def __init__(self, venv: SingleAgentVectorEnv):
        self.venv, self.envs = DictInfoToList(venv), venv.envs
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    def reset(self) -> np.ndarray:
        obs, infos = self.venv.reset(seed=self._seeds)
        self.reset_infos = [{k: v for k, v in info.items() if k != "action_mask"}
                            for info in infos]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self.actions = actions

    def step_wait(self):
        obs, rewards, terminated, truncated, infos = self.venv.step(self.actions)
        out = []
        for i, info in enumerate(infos):
            info.pop("action_mask")
            if "final_info" in info:  # the episode ended; the rest is the new one's reset info
                final = info.pop("final_info")
                final["terminal_observation"] = info.pop("final_obs")
                self.reset_infos[i], info = info, final
            info["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
            out.append(info)
        return obs, rewards.astype(np.float32), terminated | truncated, out

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices=None) -> list:
        return [env.get_wrapper_attr(attr_name) for env in self._targets(indices)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        for env in self._targets(indices):
            setattr(env, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        if method_name == "action_masks":  # MaskablePPO's every step: the batch's own array
            return list(self.venv.unwrapped.action_masks()[self._get_indices(indices)])
        return [env.get_wrapper_attr(method_name)(*method_args, **method_kwargs)
                for env in self._targets(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [is_wrapped(env, wrapper_class) for env in self._targets(indices)]

    def _targets(self, indices) -> list:
        return [self.envs[i] for i in self._get_indices(indices)]


def export(model: MaskablePPO, path: Path, meta: dict) -> None:
    """SB3's actor (``mlp_extractor.policy_net`` + ``action_net``) has exactly the layers of
    :class:`PolicyNet`'s actor, so the export is a copy of weights and needs no SB3 to play."""
    policy = model.policy
    net = PolicyNet(meta["obs_size"], meta["num_actions"], meta["hidden"], critic=False)
    layers = [*policy.mlp_extractor.policy_net, policy.action_net]
    for mine, theirs in zip(net.actor, layers, strict=True):
        mine.load_state_dict(theirs.state_dict())
    save_model(path, meta, net.actor)


class Evaluate(BaseCallback):
    """Every ``every`` steps: export, evaluate on duplicate deals, log a curve row, save."""

    def __init__(self, args: Args, meta: dict, rules: dict, log: CurveLog):
        super().__init__()
        self.args, self.meta, self.rules, self.log = args, meta, rules, log
        self.opponent = args.eval_opponent or eval_opponent(args.env_id)
        self.next_eval, self.rows = args.eval_every, 0

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_eval:
            self.next_eval += self.args.eval_every
            self.evaluate()
        return True

    def evaluate(self) -> None:
        run_dir = Path(self.args.run_dir)
        export(self.model, run_dir / "model.pt", self.meta)
        self.model.save(run_dir / "sb3_checkpoint.zip")
        returns = [e["r"] for e in self.model.ep_info_buffer]
        self.rows += 1
        row = {"update": self.rows, "global_step": self.num_timesteps,
               "episodes": len(returns), "episode_return": float(np.mean(returns))
               if returns else ""}
        with torch.random.fork_rng(devices=[]):
            row.update(evaluate(run_dir / "model.pt", self.args.env_id, self.rules,
                                self.opponent, self.args.eval_deals, self.args.eval_seed))
        self.log.write(row)
        for k, v in row.items():
            if k.startswith("eval"):
                self.logger.record(f"eval/{k}", v)


def train(args: Args, timings: dict | None = None) -> Path:
    """Train, and return the run folder. ``timings``, if given, gets the seconds of
    ``MaskablePPO.learn`` under ``"learning"`` (the throughput benchmark reads them)."""
    run_dir = Path(args.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(args.threads)
    rules = parse_rules(args.rules)
    opponents = [s for s in args.opponents.split(",") if s]

    # ---- env setup: the learner at a random seat, the opponents move inside step()
    def make_env(i: int):
        return lambda: taas.arena.single_agent_env(
            args.env_id, opponents=opponents[i % len(opponents)], seat=None,
            seed=args.seed * 1000 + i, **rules)

    if args.subprocesses:
        vec = SubprocVecEnv([make_env(i) for i in range(args.num_envs)])
    else:
        vec = VectorViewVecEnv(SingleAgentVectorEnv([make_env(i)() for i in range(args.num_envs)]))
    vec = VecMonitor(vec)
    raw = taas.envs.make(args.env_id, wrapped=False, **rules)
    meta = model_meta(args.env_id, [raw.game], raw.observer.low.shape[0], args.hidden,
                      dataclasses.asdict(args), "sb3_maskable_ppo")

    # ---- ALGO LOGIC: sb3-contrib's MaskablePPO reads env.action_masks() at every step
    model = MaskablePPO(
        "MlpPolicy", vec, n_steps=args.n_steps, batch_size=args.batch_size,
        n_epochs=args.n_epochs, learning_rate=args.learning_rate, gamma=args.gamma,
        ent_coef=args.ent_coef, seed=args.seed, device=args.device,
        policy_kwargs={"net_arch": {"pi": [args.hidden] * 2, "vf": [args.hidden] * 2},
                       "activation_fn": torch.nn.Tanh},
        tensorboard_log=str(run_dir / "tb"),
    )
    callback = Evaluate(args, meta, rules, CurveLog(run_dir / "curve.csv", FIELDS))
    start = time.perf_counter()
    model.learn(args.total_steps, callback=callback, progress_bar=args.progress)
    if timings is not None:
        timings["learning"] = timings.get("learning", 0.0) + time.perf_counter() - start
    callback.evaluate()
    vec.close()
    plot_curve(run_dir / "curve.csv", run_dir / "curve.png",
               f"{args.env_id} MaskablePPO vs {args.opponents}, evaluated against "
               f"{callback.opponent}")
    print(f"model: {run_dir / 'model.pt'} (play it as ppo:{run_dir / 'model.pt'}); SB3's own: "
          f"{run_dir / 'sb3_checkpoint.zip'}")
    return run_dir


if __name__ == "__main__":
    train(parse_args(Args, __doc__.splitlines()[0]))
