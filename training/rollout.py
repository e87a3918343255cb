"""Self-play rollouts, the actor side of :mod:`taas.training.selfplay_ppo`: in the learner's
process, in worker processes writing into shared memory, or in Ray actors.

A :class:`Rollout` owns a slice of the run's tables (a
:class:`~taas.envs.core.vector.VectorTables`), each seat's role (the learner, a pool snapshot
or a fixed agent), the learner's transitions awaiting their rewards, and the buffers that a
rollout of ``--num-steps`` learner decisions per table fills: observation, mask, action,
log-probability, value and advantage (GAE along each seat's own trajectory). With
``--workers 1`` the learner runs one over all tables in its own process, sharing its network
and generator, which is the script as it was before workers. With ``--workers K``,
:class:`ProcessWorkers` starts ``K`` processes (``spawn``), each a :class:`RolloutWorker`
with its slice of the tables, a CPU copy of the network and its own generators, whose buffers
are NumPy arrays over one :mod:`multiprocessing.shared_memory` block: per rollout only the
weights go to the worker (a state_dict through a pipe, once per update) and a few numbers come
back, never a step's data. :class:`RayWorkers` runs the same workers as Ray actors, each
rollout returned as one dict of arrays through Ray's object store.

Inference runs in the workers: each forward pass batches the rows of the worker's tables where
one network moves, and nothing crosses a process boundary per step.
"""

from __future__ import annotations

import contextlib
import itertools
import pickle
import time
from multiprocessing import shared_memory

import numpy as np
import torch

import taas.agents
from taas.agents.learned.ppo import HINTED, PolicyNet
from taas.envs.core.vector import VectorTables
from taas.training.common import parse_rules

LEARNER = 0  # roles[i, seat]: 0 the learner, k > 0 the pool snapshot numbered k, -j-1 fixed j
ROLLOUT_PHASES = ("env", "inference", "other")  # where a rollout's time goes
# the buffers a rollout fills, with each one's row shape (D observation size, A actions, C the
# --oracle-critic's input, 0 without it) and type
FIELDS = {"obs": ("D", np.float32), "mask": ("A", np.int8), "act": ((), np.int64),
          "logp": ((), np.float32), "val": ((), np.float64), "adv": ((), np.float64),
          "cobs": ("C", np.float32)}


def sample(net: PolicyNet, obs: torch.Tensor, mask: torch.Tensor):
    """Actions drawn from the masked policy and their log-probabilities (no ``Categorical``:
    its argument checks cost more than the network at a table's batch size)."""
    logp = torch.log_softmax(net.logits(obs, mask), -1)
    actions = torch.multinomial(logp.exp(), 1)
    return actions.squeeze(1), logp.gather(1, actions).squeeze(1)


def table_sizes(args) -> list[int]:
    """``--num-players 3,4`` as a list of ints (empty: the game's default size)."""
    return [int(n) for n in args.num_players.split(",") if n]


def fixed_specs(args) -> list[str]:
    """``--fixed-opponents heuristic,greedy`` as a list of agent specs (empty: none)."""
    return [s for s in args.fixed_opponents.split(",") if s]


def hint_weight(args) -> float:
    """The logit the hint player's move gets (none without ``--hint``)."""
    return args.hint_weight if args.hint else 0.0


def oracle_size(args, obs_size: int, max_players: int) -> int:
    """The width of what ``--oracle-critic``'s critic reads, every seat's observation side by
    side (0 without it: the critic reads the learner's own observation)."""
    return obs_size * max_players if args.oracle_critic else 0


def buffer_shapes(tables: int, args, obs_size: int, num_actions: int, max_players: int) -> dict:
    """Each buffer's shape and type for a rollout at ``tables`` tables: a step adds at most one
    transition per table past ``tables * num_steps``."""
    cap = tables * args.num_steps + tables
    dims = {"D": (obs_size,), "A": (num_actions,), (): (),
            "C": (oracle_size(args, obs_size, max_players),)}
    return {k: ((cap, *dims[row]), dtype) for k, (row, dtype) in FIELDS.items()}


class Rollout:
    """Tables ``first .. first + len(seeds) - 1`` of the run, their seats' roles and a rollout's
    buffers (``alloc(shape, dtype)`` makes each; ``np.zeros`` by default). ``rng`` draws the
    roles of every new episode; ``args`` is :class:`~taas.training.selfplay_ppo.Args`."""

    def __init__(self, args, first: int, seeds: list[int], rng: np.random.Generator,
                 device: torch.device, alloc=np.zeros):
        rules = parse_rules(args.rules)
        sizes = table_sizes(args)
        # table i of the run seats sizes[i % k]; this slice starts at table `first`
        turned = sizes[first % len(sizes):] + sizes[:first % len(sizes)] if sizes else None
        b = len(seeds)
        self.args, self.rng, self.device = args, rng, device
        self.tables = VectorTables(args.env_id, b, seed=seeds, num_players=turned, **rules)
        table_rules = [{**rules, **({"num_players": n} if n else {})} for n in sizes or [None]]
        specs = fixed_specs(args)
        self.fixed = [[taas.agents.make(s, args.env_id, seed=args.seed * 1000 + first + i,
                                        config=table_rules[(first + i) % len(table_rules)])
                       for s in specs] for i in range(b)]  # fixed[i][j]: fixed opponent j
        # the hint player of each table (--hint): it marks its move in the network's masks;
        # one serves every seat of its table, so it must decide from the observation alone
        self.hints = [taas.agents.make(args.hint, args.env_id, seed=args.seed * 1000 + first + i,
                                       config=table_rules[(first + i) % len(table_rules)])
                      for i in range(b)] if args.hint else None
        # per table and seat: its role this episode, the buffer index of its last transition
        # awaiting a reward (-1: none) and its return when it made that decision
        p = self.tables.max_players
        self.roles = np.zeros((b, p), np.int64)
        self.pending = np.full((b, p), -1, np.int64)
        self.base = np.zeros((b, p))
        self.snapshots: dict[int, PolicyNet] = {}  # actor-only snapshots that some seat plays
        self.pool: list[int] = []  # the numbers of the snapshots new episodes draw from
        shapes = buffer_shapes(b, args, self.tables.obs_size, self.tables.num_actions, p)
        self.buf = {k: alloc(shape, dtype) for k, (shape, dtype) in shapes.items()}
        cap = shapes["obs"][0][0]
        self.rew, self.boot = np.zeros(cap), np.zeros(cap)
        self.done, self.next = np.zeros(cap, np.bool_), np.zeros(cap, np.int64)
        self.spent = dict.fromkeys(ROLLOUT_PHASES, 0.0)
        self._clock = 0.0

    def reset(self) -> None:
        """Deal every table's first episode and draw its seats' roles."""
        self.tables.reset()
        for i in range(self.tables.num_tables):
            self.deal(i)

    def deal(self, i: int) -> None:
        """Fresh roles for the seats of table ``i``, whose new episode was just dealt."""
        args, rng, roles = self.args, self.rng, self.roles
        n, kinds = int(self.tables.num_players[i]), len(self.fixed[i])
        roles[i], self.pending[i], self.base[i] = LEARNER, -1, 0.0
        if (kinds or self.pool) and rng.random() >= args.selfplay_prob:
            for seat in range(n):
                if kinds and (not self.pool or rng.random() < args.fixed_prob):
                    roles[i, seat] = -1 - int(rng.integers(kinds))
                else:
                    roles[i, seat] = self.pool[int(rng.integers(len(self.pool)))]
            roles[i, int(rng.integers(n))] = LEARNER

    def sync(self, pool: list[int], new: dict[int, dict]) -> None:
        """The learner's pool after an update, and the actor weights of its new snapshots; a
        snapshot out of the pool is kept while some seat still plays it."""
        args, tables = self.args, self.tables
        for k, weights in new.items():
            snapshot = PolicyNet(tables.obs_size, tables.num_actions, args.hidden,
                                 critic=False, hint_weight=hint_weight(args)).to(self.device)
            snapshot.actor.load_state_dict(weights)
            self.snapshots[k] = snapshot
        self.pool = list(pool)
        self.snapshots = {k: p for k, p in self.snapshots.items()
                          if k in self.pool or (self.roles == k).any()}

    def _lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.spent[phase] += now - self._clock
        self._clock = now

    def collect(self, net: PolicyNet) -> dict:
        """One rollout of ``num_steps`` learner decisions per table with ``net``: the buffers'
        first ``n`` rows, valued and with their advantages; returns ``n``, the episodes ended
        and the learner's returns in those against the pool (``finished``)."""
        args, tables, device, buf = self.args, self.tables, self.device, self.buf
        roles, pending, base, fixed = self.roles, self.pending, self.base, self.fixed
        obs_buf, mask_buf, act_buf, logp_buf = (buf[k] for k in ("obs", "mask", "act", "logp"))
        rew_buf, boot_buf, done_buf, next_buf = self.rew, self.boot, self.done, self.next
        b = tables.num_tables
        rows, actions = np.arange(b), np.zeros(b, np.int64)
        self._clock = time.perf_counter()
        # Each step, every table's player to move acts; the learner's decisions become
        # transitions, each rewarded with the change in its seat's return until that seat's
        # next decision (or the end of the episode).
        n, episodes, batch_size = 0, 0, b * args.num_steps
        finished: list[float] = []
        while n < batch_size:
            seat = tables.player
            who = roles[rows, seat]
            mine = np.flatnonzero(who == LEARNER)
            if mine.size:
                k, new = np.arange(n, n + mine.size), slice(n, n + mine.size)
                np.take(tables.obs, mine, axis=0, out=obs_buf[new])
                np.take(tables.mask, mine, axis=0, out=mask_buf[new])
                if args.oracle_critic:
                    self._seen_by_all(mine, seat[mine], buf["cobs"][new])
                self._hint(mine, mask_buf[new])
                self._lap("other")
                obs_t = torch.from_numpy(obs_buf[new]).to(device)
                mask_t = torch.from_numpy(mask_buf[new]).to(device)
                with torch.no_grad():
                    act_t, logp_t = sample(net, obs_t, mask_t)
                act_buf[new], logp_buf[new] = act_t.cpu().numpy(), logp_t.cpu().numpy()
                actions[mine] = act_buf[new]
                self._lap("inference")
                s = seat[mine]
                ret, prev = tables.returns[mine, s], pending[mine, s]
                waiting = prev >= 0
                rew_buf[prev[waiting]] = (ret[waiting] - base[mine, s][waiting]) \
                    * args.reward_scale
                next_buf[prev[waiting]] = k[waiting]
                rew_buf[new], done_buf[new], next_buf[new], boot_buf[new] = 0, False, -1, 0
                pending[mine, s], base[mine, s] = k, ret
                n += mine.size
            for role in np.unique(who[who != LEARNER]).tolist():
                theirs = np.flatnonzero(who == role)
                if role > 0:  # a snapshot: one forward pass for all its tables
                    obs_t = torch.from_numpy(tables.obs[theirs]).to(device)
                    masks = tables.mask[theirs]
                    self._hint(theirs, masks)
                    mask_t = torch.from_numpy(masks).to(device)
                    with torch.no_grad():
                        theirs_t = sample(self.snapshots[role], obs_t, mask_t)[0]
                    actions[theirs] = theirs_t.cpu().numpy()
                else:
                    for i in theirs.tolist():
                        actions[i] = fixed[i][-1 - role].act(tables.obs[i], tables.mask[i])
            self._lap("inference")
            tables.step(actions)
            self._lap("env")
            for i in np.flatnonzero(tables.done).tolist():
                final, seats = tables.final_returns[i], range(tables.num_players[i])
                for p in seats:
                    if pending[i, p] >= 0:
                        rew_buf[pending[i, p]] = (final[p] - base[i, p]) * args.reward_scale
                        done_buf[pending[i, p]] = True
                if (roles[i] != LEARNER).any():
                    finished += [float(final[p]) for p in seats if roles[i, p] == LEARNER]
                episodes += 1
                self.deal(i)
        # the rollout ends mid-episode: bootstrap each waiting transition from its value
        cut = np.argwhere(pending >= 0)
        if len(cut):
            if args.oracle_critic:
                obs = np.zeros((len(cut), buf["cobs"].shape[1]), np.float32)
                self._seen_by_all(cut[:, 0], cut[:, 1], obs)
            else:
                obs = np.stack([tables.observers[i].encode(tables.states[i], p)
                                for i, p in cut.tolist()])
            with torch.no_grad():
                values = net.value(torch.from_numpy(obs).to(device)).cpu().numpy()
            i, p = cut.T
            k, ret = pending[i, p], tables.returns[i, p]
            rew_buf[k], boot_buf[k] = (ret - base[i, p]) * args.reward_scale, values
            pending[i, p], base[i, p] = -1, ret
        self._lap("other")
        # the critic has not changed since the rollout began: one pass values all of it
        seen = buf["cobs"] if args.oracle_critic else obs_buf
        with torch.no_grad():
            values = net.value(torch.from_numpy(seen[:n]).to(device)).cpu().numpy()
        buf["val"][:n] = values
        self._lap("inference")
        # generalized advantage estimation, per seat's own trajectory
        adv = [0.0] * n
        vals, rew, done, nxt, boot = (a[:n].tolist() for a in (buf["val"], rew_buf, done_buf,
                                                                next_buf, boot_buf))
        for i in reversed(range(n)):
            j = nxt[i]
            next_v = 0.0 if done[i] else vals[j] if j >= 0 else boot[i]
            next_adv = adv[j] if j >= 0 and not done[i] else 0.0
            delta = rew[i] + args.gamma * next_v - vals[i]
            adv[i] = delta + args.gamma * args.gae_lambda * next_adv
        buf["adv"][:n] = adv
        self._lap("other")
        return {"n": n, "episodes": episodes, "finished": finished}

    def _seen_by_all(self, rows: np.ndarray, seats: np.ndarray, out: np.ndarray) -> None:
        """Write into ``out`` what ``--oracle-critic``'s critic reads for seat ``seats[j]`` of
        table ``rows[j]``: every seat's observation, that seat's first and the others in turn
        order, zeros past the table's size. Only the critic reads it, and only in training."""
        tables, d = self.tables, self.tables.obs_size
        out[:] = 0
        for j, (i, seat) in enumerate(zip(rows.tolist(), seats.tolist(), strict=True)):
            n, state, observer = int(tables.num_players[i]), tables.states[i], tables.observers[i]
            for k in range(n):
                observer.encode_into(state, (seat + k) % n, out[j, k * d:(k + 1) * d])

    def _hint(self, rows: np.ndarray, masks: np.ndarray) -> None:
        """Mark, in ``masks`` (those of tables ``rows``, a copy), each hint player's move."""
        if self.hints is not None:
            tables = self.tables
            for j, i in enumerate(rows.tolist()):
                masks[j, self.hints[i].act(tables.obs[i], tables.mask[i])] = HINTED

    def state(self) -> dict:
        """Everything that continues this slice after a restart, as tensors and plain values
        (a checkpoint loads with ``weights_only=True``)."""
        return {"tables": self.tables.records(),
                "fixed_rngs": [[f.rng.bit_generator.state for f in agents]
                               for agents in self.fixed],
                "hint_rngs": [h.rng.bit_generator.state for h in self.hints or ()],
                "roles": self.roles.tolist(), "pending": self.pending.tolist(),
                "base": self.base.tolist(), "pool": list(self.pool),
                "snapshots": [[k, {n: v.cpu() for n, v in p.actor.state_dict().items()}]
                              for k, p in self.snapshots.items()],
                "rng": self.rng.bit_generator.state}

    def restore(self, saved: dict) -> None:
        """Continue from :meth:`state`'s dict."""
        self.tables.restore(saved["tables"])
        for agents, states in zip(self.fixed, saved["fixed_rngs"], strict=True):
            for agent, state in zip(agents, states, strict=True):
                agent.rng.bit_generator.state = state
        for agent, state in zip(self.hints or (), saved.get("hint_rngs", ()), strict=True):
            agent.rng.bit_generator.state = state
        for k in ("roles", "pending", "base"):
            getattr(self, k)[:] = np.array(saved[k])
        self.snapshots = {}
        self.sync(saved["pool"], dict(saved["snapshots"]))
        self.rng.bit_generator.state = saved["rng"]


class RolloutWorker:
    """One worker's slice of the tables with its own CPU copy of the network and its own
    generators (``seed`` seeds torch's and the roles'); ``shm``, the name of a shared memory
    block laid out by :func:`_layout`, holds its buffers (``None``: its own arrays,
    returned with each rollout, as Ray's object store wants them)."""

    def __init__(self, args, first: int, seeds: list[int], seed: int, shm: str | None = None):
        torch.set_num_threads(1)
        torch.manual_seed(seed)
        self._shm, alloc = None, np.zeros
        if shm is not None:
            self._shm = block = shared_memory.SharedMemory(name=shm)
            at = [0]

            def alloc(shape, dtype):  # the buffers in FIELDS' order, as _layout places them
                array = np.ndarray(shape, dtype, buffer=block.buf, offset=at[0])
                at[0] += _aligned(array.nbytes)
                return array

        self.rollout = Rollout(args, first, seeds, np.random.default_rng(seed),
                               torch.device("cpu"), alloc)
        tables = self.rollout.tables
        self.net = PolicyNet(tables.obs_size, tables.num_actions, args.hidden,
                             hint_weight=hint_weight(args),
                             critic_size=oracle_size(args, tables.obs_size, tables.max_players))
        self._start: dict | None = None
        self.rollout.reset()

    def collect(self, weights: dict | None, pool: list[int] | None, new: dict) -> dict:
        """Take the learner's weights, pool and new snapshots (``None``: keep them), then
        play one rollout. Returns its counts and seconds per phase, and its arrays when the
        buffers are the worker's own."""
        if pool is not None:
            self.rollout.sync(pool, new)
        if weights is not None:
            self.net.load_state_dict(weights)
        self._start = self.state()
        spent = self.rollout.spent = dict.fromkeys(ROLLOUT_PHASES, 0.0)
        got = self.rollout.collect(self.net)
        got["spent"] = spent
        if self._shm is None:
            n = got["n"]
            got.update({k: a[:n].copy() for k, a in self.rollout.buf.items()})
        return got

    def state(self, at_start: bool = False) -> dict:
        """The slice's state now, or (``at_start``) as the last rollout began: a checkpoint
        taken while a rollout is in flight replays it from there."""
        if at_start:
            return self._start
        return {**self.rollout.state(), "net": {k: v.clone() for k, v in
                                                self.net.state_dict().items()},
                "torch_rng": torch.get_rng_state()}

    def restore(self, saved: dict) -> None:
        self.rollout.restore(saved)
        self.net.load_state_dict(saved["net"])
        torch.set_rng_state(saved["torch_rng"])

    def close(self) -> None:
        if self._shm is not None:
            self.rollout.buf.clear()
            self._shm.close()


def _aligned(nbytes: int) -> int:
    return -(-nbytes // 64) * 64


def _layout(shapes: dict) -> list[int]:
    """Byte offsets of the buffers in one block, each aligned to 64 bytes; the last item is
    the block's size."""
    offsets, at = [], 0
    for shape, dtype in shapes.values():
        offsets.append(at)
        at += _aligned(int(np.prod(shape)) * np.dtype(dtype).itemsize)
    return [*offsets, at]


def _send(conn, obj) -> None:
    """Plain pickling: the multiprocessing pickler would hand tensors over in shared memory,
    where the learner's next update would change the weights under a rollout."""
    conn.send_bytes(pickle.dumps(obj, pickle.HIGHEST_PROTOCOL))


def _recv(conn):
    return pickle.loads(conn.recv_bytes())


def _serve(conn, args, first: int, seeds: list[int], seed: int, shm: str) -> None:
    """A worker process: build the worker, then answer ``(method, kwargs)`` calls until
    ``close`` or until the learner's end of the pipe closes."""
    import signal
    import traceback

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the learner's to handle
    try:
        worker = RolloutWorker(args, first, seeds, seed, shm)
        _send(conn, ("ok", None))
    except Exception:
        _send(conn, ("error", traceback.format_exc()))
        return
    try:
        while True:
            try:
                method, kwargs = _recv(conn)
            except EOFError:  # the learner died
                return
            if method == "close":
                return
            try:
                _send(conn, ("ok", getattr(worker, method)(**kwargs)))
            except Exception:
                _send(conn, ("error", traceback.format_exc()))
    finally:
        worker.close()


class WorkerError(RuntimeError):
    """A rollout worker failed; the message is its traceback's last line."""


def _slices(args, workers: int, table_seeds: list[int], worker_seeds: list[int]):
    """``(first, seeds, seed)`` for each worker: the tables split as evenly as possible."""
    bounds = np.linspace(0, args.num_tables, workers + 1).round().astype(int).tolist()
    return [(lo, table_seeds[lo:hi], worker_seeds[w])
            for w, (lo, hi) in enumerate(itertools.pairwise(bounds))]


class ProcessWorkers:
    """``workers`` :class:`RolloutWorker` processes (``spawn``: safe with torch and threads),
    each with its buffers in a shared memory block that this process owns."""

    def __init__(self, args, workers: int, table_seeds: list[int], worker_seeds: list[int],
                 obs_size: int, num_actions: int, max_players: int):
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.blocks, self.views, self.conns, self.procs = [], [], [], []
        try:
            for first, seeds, seed in _slices(args, workers, table_seeds, worker_seeds):
                shapes = buffer_shapes(len(seeds), args, obs_size, num_actions, max_players)
                *offsets, size = _layout(shapes)
                block = shared_memory.SharedMemory(create=True, size=size)
                self.blocks.append(block)
                self.views.append({k: np.ndarray(shape, dtype, buffer=block.buf, offset=at)
                                   for (k, (shape, dtype)), at in zip(shapes.items(), offsets,
                                                                      strict=True)})
                mine, theirs = context.Pipe()
                proc = context.Process(target=_serve, daemon=True, name=f"rollout-{first}",
                                       args=(theirs, args, first, seeds, seed, block.name))
                proc.start()
                theirs.close()
                self.conns.append(mine)
                self.procs.append(proc)
            self._answers()  # every worker built, or the first error
        except BaseException:
            self.close()
            raise

    def _answers(self) -> list:
        out = []
        for conn in self.conns:
            try:
                status, value = _recv(conn)
            except EOFError:
                raise WorkerError("a rollout worker process died") from None
            if status == "error":
                raise WorkerError(value.strip().splitlines()[-1])
            out.append(value)
        return out

    def call(self, method: str, per_worker: list[dict]) -> list:
        """``method(**kwargs)`` on every worker at once; waits for every answer."""
        self.submit(method, per_worker)
        return self.gather()

    def submit(self, method: str, per_worker: list[dict]) -> None:
        for conn, kwargs in zip(self.conns, per_worker, strict=True):
            _send(conn, (method, kwargs))

    def gather(self) -> list:
        """The answers of the calls in flight; a rollout's arrays are views of the shared
        buffers, valid until the next rollout is submitted."""
        answers = self._answers()
        for got, views in zip(answers, self.views, strict=True):
            if isinstance(got, dict) and "n" in got:
                got.update({k: a[: got["n"]] for k, a in views.items()})
        return answers

    def close(self) -> None:
        for conn in self.conns:
            with contextlib.suppress(OSError):  # a worker already gone
                _send(conn, ("close", {}))
        for proc in self.procs:
            proc.join(timeout=5)  # a rollout in flight is not waited for long
            if proc.is_alive():
                proc.kill()
        self.views.clear()
        for block in self.blocks:
            block.close()
            block.unlink()
        self.blocks.clear()


class RayWorkers:
    """The same workers as Ray actors (one CPU each) on the cluster at ``address`` (``auto``,
    ``HOST:PORT``), or on a local Ray started here when there is none; each rollout comes back
    as one object of NumPy arrays."""

    def __init__(self, args, workers: int, table_seeds: list[int], worker_seeds: list[int],
                 address: str | None):
        try:
            import ray
        except ImportError:
            raise SystemExit("--backend ray needs Ray: from a checkout, pip install -e "
                             "'.[ray]'") from None
        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        actor = ray.remote(num_cpus=1)(RolloutWorker)
        self.actors = [actor.remote(args, first, seeds, seed)
                       for first, seeds, seed in _slices(args, workers, table_seeds,
                                                         worker_seeds)]
        self.refs: list = []
        self.ray.get([a.__ray_ready__.remote() for a in self.actors])  # built, as processes are

    def call(self, method: str, per_worker: list[dict]) -> list:
        self.submit(method, per_worker)
        return self.gather()

    def submit(self, method: str, per_worker: list[dict]) -> None:
        # a value every worker gets (the weights) goes into the object store once
        put: dict[int, object] = {}
        for kw in per_worker:
            for v in kw.values():
                if isinstance(v, dict) and v and id(v) not in put:
                    put[id(v)] = self.ray.put(v)
        self.refs = [getattr(a, method).remote(**{k: put.get(id(v), v) for k, v in kw.items()})
                     for a, kw in zip(self.actors, per_worker, strict=True)]

    def gather(self) -> list:
        try:
            return self.ray.get(self.refs)
        except self.ray.exceptions.RayError as err:
            raise WorkerError(str(err).strip().splitlines()[-1]) from None
        finally:
            self.refs = []

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        if self.started:
            self.ray.shutdown()
