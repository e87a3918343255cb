"""Learned players: the policy network, its checkpoint format and the ``ppo:`` agent spec.

``ppo:PATH`` plays a checkpoint written by any training script; ``ppo:<game>`` (``ppo:mariage``)
plays the model shipped in ``taas/agents/models/<game>.pt``. This module is
``taas.agents.learned.ppo``. Loading runs on CPU and checks that
the file fits the table it is asked to play: the env id *and its version* (a ``_v0`` model read
observations laid out differently), the rules config and the observation size. Any mismatch, a
missing file or a corrupt one is a one-line :class:`CheckpointError` before the first move,
rather than a policy that silently plays nonsense.

A checkpoint is a ``torch.save``'d dict of plain values and tensors, read with
``weights_only=True`` (loading a model runs no pickled code)::

    format        "taas-ppo/1"
    env_id        "mariage_v1"            env_version   1
    configs       [dataclasses.asdict(game.config), ...]  every table it was trained on
    obs_size      260                     num_actions   39          hidden   128
    args          the training script's arguments       script   which script wrote it
    taas_version  taas.__version__ of the code that trained it
    actor         the actor's state_dict
    critic        optional: the critic's state_dict, which playing ignores; a run that
                  continues this model (``selfplay_ppo --init-from``) starts from it
    deterministic optional, default False: ``ppo:`` plays the most probable legal move
                  instead of sampling (a behaviour clone plays its teacher best that way;
                  files without the key keep sampling)
    policy        optional, default "actor": ``actor`` maps observations to action logits.
                  "afterstate" (:mod:`taas.training.afterstate_value`): ``actor`` is a value
                  network over ``features`` afterstate features and the game's afterstate
                  player (its spec's ``afterstate``) draws and discards greedily by it
    margin        optional, afterstate only: how much better than the rule player's own
                  choice a choice must be valued before the network overrules it
                  (:func:`taas.training.afterstate_value.choose_margin`)
    hint          optional: an agent spec (``heuristic``) whose move gets ``hint_weight``
                  added to its logit at every decision, so the network learns where to depart
                  from that player rather than all of its play (residual policy learning,
                  Silver et al., 2018). The hint player reads the seat's own observation and
                  mask, so the policy's inputs are still the observation alone

The rules must match one of ``configs`` except ``reward``, which only says what the training
signal was (a Continental model trained on ``reward="zero_sum"`` plays a ``"points"`` table the
same way), so it is not compared. An afterstate model also plays any series (``episode``,
``num_rounds``, ``target_score``): it reads one round's hand and live cards, never the totals.
"""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import numpy as np

try:
    import torch
    from torch import nn
except ModuleNotFoundError as err:  # the core package has no torch; only ppo: agents need it
    raise ModuleNotFoundError(
        "ppo agents need torch: from a checkout, run `make train` (torch==2.13.0 and the train "
        "extra) or pip install -e '.[train]'"
    ) from err

from taas.agents.base import Agent

FORMAT = "taas-ppo/1"
MODELS = Path(__file__).parents[1] / "models"  # agents/models: package data, not code
META_KEYS = ("env_id", "env_version", "configs", "obs_size", "num_actions", "hidden", "args",
             "script", "taas_version")


class CheckpointError(ValueError):
    """A checkpoint that is missing, unreadable, or made for another game, version or rules."""


def mlp(n_in: int, hidden: int, n_out: int, out_gain: float) -> nn.Sequential:
    """Two tanh layers, orthogonal init (CleanRL's ``layer_init``); SB3's ``MlpPolicy`` with
    ``net_arch=dict(pi=[h, h], vf=[h, h])`` has the same shapes, so its weights export here."""
    layers = [nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
              nn.Linear(hidden, n_out)]
    for layer, gain in zip(layers[::2], (np.sqrt(2), np.sqrt(2), out_gain), strict=True):
        nn.init.orthogonal_(layer.weight, gain)
        nn.init.zeros_(layer.bias)
    return nn.Sequential(*layers)


HINTED = 2
"""A mask entry of 2: a legal action, and the one the hint player would play (see ``hint``)."""


class PolicyNet(nn.Module):
    """Separate actor and critic MLPs (CleanRL's ``ppo.py``); illegal actions get -1e8 logits.
    With ``hint_weight``, an integer mask's ``HINTED`` action gets that much more. The critic
    reads ``critic_size`` inputs (0: the observation; training with ``--oracle-critic`` gives
    it every seat's observation), and playing never runs it."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int = 128, critic: bool = True,
                 hint_weight: float = 0.0, critic_size: int = 0):
        super().__init__()
        self.actor = mlp(obs_size, hidden, num_actions, out_gain=0.01)
        self.critic = mlp(critic_size or obs_size, hidden, 1, out_gain=1.0) if critic else None
        self.hint_weight = hint_weight

    def logits(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """``mask``: bool (legal) or an integer mask (0 illegal, 1 legal, ``HINTED``)."""
        out = self.actor(obs)
        if self.hint_weight and mask.dtype != torch.bool:
            out = out + self.hint_weight * (mask == HINTED)
        return out.masked_fill(mask == 0, -1e8)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)


def env_version(env_id: str) -> int:
    """``mariage_v1`` -> 1."""
    return int(env_id.rpartition("_v")[2])


def model_meta(
    env_id: str, games: list, obs_size: int, hidden: int, args: dict, script: str,
    deterministic: bool = False, hint: str = "", hint_weight: float = 0.0,
) -> dict:
    """The header of a checkpoint for a model trained on ``games`` (one per table size);
    ``deterministic``: it plays its most probable move; ``hint``: its hint player (see the
    module docstring)."""
    import taas

    hinted = {"hint": hint, "hint_weight": float(hint_weight)} if hint else {}
    return {**hinted,
        "format": FORMAT, "env_id": env_id, "env_version": env_version(env_id),
        "configs": [dataclasses.asdict(g.config) for g in games],
        "obs_size": int(obs_size), "num_actions": int(games[0].num_actions),
        "hidden": hidden, "args": args, "script": script, "taas_version": taas.__version__,
        "deterministic": deterministic,
    }


def save_model(path: str | Path, meta: dict, actor: nn.Module, **extra) -> None:
    """Write a checkpoint of ``actor`` with its header ``meta`` (see :func:`write_checkpoint`)."""
    write_checkpoint(path, {**meta, "actor": actor.state_dict(), **extra})


def write_checkpoint(path: str | Path, ckpt: dict) -> None:
    """Write a checkpoint dict atomically (a crash mid-write leaves the previous file intact)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    torch.save(ckpt, tmp)
    tmp.replace(path)


def resolve(arg: str) -> Path:
    """``ppo:<game>`` names a shipped model; anything else is a path."""
    shipped = MODELS / f"{arg}.pt"
    if "/" not in arg and not arg.endswith(".pt"):
        if not shipped.exists():
            names = sorted(p.stem for p in MODELS.glob("*.pt"))
            raise CheckpointError(
                f"no shipped model {arg!r}; shipped: {', '.join(names) or 'none'} "
                "(or give a checkpoint path, ppo:PATH.pt)"
            )
        return shipped
    return Path(arg)


def load_checkpoint(path: str | Path) -> dict:
    """The checkpoint at ``path`` as a dict, or a one-line :class:`CheckpointError`."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"checkpoint {path} not found")
    try:
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # torch raises many types for a truncated or foreign file
        first = str(err).strip().splitlines()[0] if str(err).strip() else ""
        raise CheckpointError(
            f"checkpoint {path} is corrupt or not a torch file ({type(err).__name__}: {first})"
        ) from None
    if not isinstance(ckpt, dict) or ckpt.get("format") != FORMAT:
        found = ckpt.get("format") if isinstance(ckpt, dict) else type(ckpt).__name__
        raise CheckpointError(f"checkpoint {path} is not a {FORMAT} checkpoint (found {found!r})")
    missing = [k for k in (*META_KEYS, "actor") if k not in ckpt]
    if missing:
        raise CheckpointError(f"checkpoint {path} lacks {', '.join(missing)}")
    return ckpt


def check_fits(ckpt: dict, path: str | Path, env_id: str, game, obs_size: int) -> None:
    """Raise :class:`CheckpointError` unless the checkpoint was trained for this table."""
    if ckpt["env_id"] != env_id:
        raise CheckpointError(
            f"checkpoint {path} was trained on {ckpt['env_id']}, not {env_id}"
        )
    config = dataclasses.asdict(game.config)
    # A rule flag added to the env after training, within the same version, defaults to the
    # behaviour the model was trained on (the version policy), so it is read at its default.
    defaults = {f.name: f.default for f in dataclasses.fields(game.config)
                if f.default is not dataclasses.MISSING}
    configs = [{**defaults, **c} for c in ckpt["configs"]]
    ignored = {"reward"}
    if ckpt.get("policy") == "afterstate":
        ignored |= set(afterstate_player(env_id).SERIES_RULES)
    config, configs = _play_rules(config, ignored), [_play_rules(c, ignored) for c in configs]
    if config not in configs:
        trained = configs[0]
        diff = ", ".join(
            f"{k}={config.get(k)!r} (trained: {trained.get(k)!r})"
            for k in sorted(set(config) | set(trained)) if config.get(k) != trained.get(k)
        )
        sizes = sorted({c.get("num_players") for c in configs} - {None})
        tables = f" on tables of {sizes} players" if len(sizes) > 1 else ""
        raise CheckpointError(f"checkpoint {path} was trained{tables} with other rules: {diff}")
    if ckpt["obs_size"] != obs_size or ckpt["num_actions"] != game.num_actions:
        raise CheckpointError(
            f"checkpoint {path} expects observations of {ckpt['obs_size']} and "
            f"{ckpt['num_actions']} actions; {env_id} has {obs_size} and {game.num_actions}"
        )


def afterstate_player(env_id: str) -> type:
    """The class that plays ``env_id``'s afterstate-value checkpoints (its spec's
    ``afterstate``: it takes ``(value, seed, rules)`` and declares ``NUM_FEATURES`` and the
    ``SERIES_RULES`` it never reads); :class:`CheckpointError` if the game has none."""
    import taas.envs

    ref = taas.envs.spec_for(env_id).afterstate
    if ref is None:
        raise CheckpointError(f"{env_id} has no afterstate-value player")
    return taas.envs.load(ref)


def _play_rules(config: dict, ignored: set[str]) -> dict:
    """The rules that change how this model plays: all but the reward (see the module
    docstring) and, for an afterstate model, the series rules it never reads."""
    return {k: v for k, v in config.items() if k not in ignored}


@functools.lru_cache(maxsize=16)
def _load_actor(path: Path, stamp: tuple, env_id: str, rules: tuple) -> tuple[nn.Module, dict]:
    """Load and check once per (file version, table): evaluation builds an agent per game."""
    import taas.envs

    ckpt = load_checkpoint(path)
    raw = taas.envs.make(env_id, wrapped=False, **dict(rules))
    check_fits(ckpt, path, env_id, raw.game, raw.observer.low.shape[0])
    policy = ckpt.get("policy", "actor")
    if policy not in ("actor", "afterstate"):
        raise CheckpointError(f"checkpoint {path} has an unknown policy kind {policy!r}")
    if policy == "afterstate":
        features = afterstate_player(env_id).NUM_FEATURES
        if ckpt.get("features") != features:
            raise CheckpointError(
                f"checkpoint {path} reads {ckpt.get('features')} afterstate features; this "
                f"code computes {features}")
    with torch.random.fork_rng(devices=[]):  # the random init is overwritten: leave the
        # caller's RNG stream untouched, so evaluating during training never changes it
        if policy == "afterstate":
            net = body = mlp(features, ckpt["hidden"], 1, out_gain=1.0)
        else:
            net = PolicyNet(ckpt["obs_size"], ckpt["num_actions"], ckpt["hidden"],
                            critic=False, hint_weight=float(ckpt.get("hint_weight", 0.0)))
            body = net.actor
    try:
        body.load_state_dict(ckpt["actor"])
    except RuntimeError as err:
        raise CheckpointError(
            f"checkpoint {path} holds weights that do not fit its header "
            f"({str(err).splitlines()[0]})"
        ) from None
    net.eval()
    margin = {"margin": float(ckpt["margin"])} if "margin" in ckpt else {}
    width = {"width": int(ckpt["width"])} if "width" in ckpt else {}
    return net, {**{k: ckpt[k] for k in META_KEYS}, "policy": policy,
                 "deterministic": bool(ckpt.get("deterministic", False)),
                 "hint": ckpt.get("hint", ""), **margin, **width}


def _hint_agent(meta: dict, path: Path, env_id: str, seed: int | None,
                config: dict) -> Agent | None:
    """The agent whose move a hinted model favours (None without a hint); a hint this code
    does not have is the checkpoint's fault, said before the first move."""
    if not meta["hint"]:
        return None
    import taas.agents

    try:
        return taas.agents.make(meta["hint"], env_id, seed=seed, config=config)
    except ValueError as err:
        raise CheckpointError(f"checkpoint {path} hints with {meta['hint']!r}: {err}") from None


class ValueFunction:
    """A value network as the numpy function :class:`ContinentalValueAgent` calls."""

    def __init__(self, net: nn.Module):
        self.net = net

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return self.net(torch.from_numpy(rows)).squeeze(-1).numpy()


class PPOAgent(Agent):
    """Samples a legal action from a trained policy with its own seeded RNG: the stochastic
    policy PPO trained, reproducible from the seed. A checkpoint saved with
    ``deterministic=True`` plays its most probable move instead; that is opt-in per file, since
    always taking the most probable action can repeat a pair of moves that undo each other
    forever (e.g. a Rommé meld and its abandon)."""

    name = "ppo"

    def __init__(self, net: PolicyNet, meta: dict, seed: int | None = None,
                 hint: Agent | None = None):
        super().__init__(seed)
        self.net, self.meta, self.hint = net, meta, hint
        self.deterministic = bool(meta.get("deterministic", False))

    @classmethod
    def build(cls, arg: str | None, env_id: str, seed: int | None, config: dict) -> Agent:
        if not arg:
            raise CheckpointError("ppo needs a model: ppo:PATH or ppo:<game> (a shipped model)")
        path = resolve(arg).resolve()
        stamp = (path.stat().st_mtime_ns, path.stat().st_size) if path.is_file() else ()
        try:
            net, meta = _load_actor(path, stamp, env_id, tuple(sorted(config.items())))
            hint = _hint_agent(meta, path, env_id, seed, config)
        except CheckpointError as err:
            if path.parent != MODELS.resolve():
                raise
            # a shipped model is named, not located: the install path stays the server's
            raise CheckpointError(str(err).replace(f"checkpoint {path}", f"model {arg!r}")
                                  .replace(str(path), repr(arg))) from None
        if meta["policy"] == "afterstate":
            kept = {k: meta[k] for k in ("margin", "width") if k in meta}
            return afterstate_player(env_id)(ValueFunction(net), seed, config, **kept)
        return cls(net, meta, seed, hint)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mask = np.array(action_mask, dtype=np.int8)
        if self.hint is not None:
            mask[self.hint.act(observation, action_mask)] = HINTED
        with torch.no_grad():
            logits = self.net.logits(torch.as_tensor(observation, dtype=torch.float32),
                                     torch.from_numpy(mask))
        if self.deterministic:
            return int(logits.argmax())
        probs = torch.softmax(logits.double(), -1).numpy()
        return int(self.rng.choice(len(probs), p=probs / probs.sum()))
