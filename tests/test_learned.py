"""The ``ppo:`` agent: a checkpoint plays legal moves on CPU; a missing, corrupt or mismatched
one (env id, env version, rules, observation size) is a one-line error before the first move;
every shipped model loads offline for its game's default rules and is under 5 MB."""

import dataclasses

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training extra not installed")

import taas.agents  # noqa: E402
import taas.arena  # noqa: E402
import taas.envs  # noqa: E402
from taas.agents.learned.ppo import (  # noqa: E402
    HINTED,
    MODELS,
    CheckpointError,
    PolicyNet,
    load_checkpoint,
    model_meta,
    save_model,
)

ENV = "mariage_v1"


def write_model(path, env_id=ENV, hidden=8, seed=0, **rules):
    raw = taas.envs.make(env_id, wrapped=False, **rules)
    torch.manual_seed(seed)
    net = PolicyNet(raw.observer.low.shape[0], raw.game.num_actions, hidden, critic=False)
    meta = model_meta(env_id, [raw.game], raw.observer.low.shape[0], hidden, {}, "test")
    save_model(path, meta, net.actor)
    return meta, net


def error(spec: str, env_id: str = ENV, **rules) -> str:
    with pytest.raises(CheckpointError) as info:
        taas.agents.make(spec, env_id, seed=0, config=rules)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_a_checkpoint_plays_legal_moves_deterministically(tmp_path):
    write_model(tmp_path / "m.pt")
    env = taas.envs.make(ENV)
    moves = []
    for _ in range(2):
        agents = [taas.agents.make(f"ppo:{tmp_path / 'm.pt'}", ENV, seed=s) for s in (1, 2)]
        result = taas.arena.play_game(env, agents, seed=7)  # the env raises on illegal moves
        moves.append(result.moves)
    assert moves[0] == moves[1] and moves[0]


def test_the_checkpoint_records_what_it_was_trained_for(tmp_path):
    write_model(tmp_path / "m.pt", allow_false_claims=False)
    ckpt = load_checkpoint(tmp_path / "m.pt")
    config = dataclasses.asdict(taas.envs.make(ENV, wrapped=False).game.config)
    assert ckpt["env_id"] == ENV and ckpt["env_version"] == 1
    assert ckpt["configs"] == [{**config, "allow_false_claims": False}]
    assert ckpt["obs_size"] == 260 and ckpt["num_actions"] == 39
    assert ckpt["taas_version"] == taas.__version__ and ckpt["script"] == "test"


def test_loading_leaves_the_callers_torch_rng_alone(tmp_path):
    write_model(tmp_path / "m.pt")
    torch.manual_seed(3)
    expected = torch.rand(3)
    torch.manual_seed(3)
    taas.agents.make(f"ppo:{tmp_path / 'm.pt'}", ENV, seed=0)
    assert torch.equal(torch.rand(3), expected)


def test_missing_checkpoint(tmp_path):
    assert "not found" in error(f"ppo:{tmp_path / 'nothing.pt'}")


@pytest.mark.parametrize("content", [b"", b"not a torch file at all", b"PK\x03\x04garbage"])
def test_corrupt_checkpoint(tmp_path, content):
    (tmp_path / "bad.pt").write_bytes(content)
    assert "corrupt" in error(f"ppo:{tmp_path / 'bad.pt'}")


def test_truncated_checkpoint(tmp_path):
    write_model(tmp_path / "m.pt")
    data = (tmp_path / "m.pt").read_bytes()
    (tmp_path / "m.pt").write_bytes(data[: len(data) // 2])
    assert "corrupt" in error(f"ppo:{tmp_path / 'm.pt'}")


def test_a_torch_file_that_is_no_taas_checkpoint(tmp_path):
    torch.save({"weights": torch.zeros(2)}, tmp_path / "other.pt")
    assert "not a taas-ppo/1 checkpoint" in error(f"ppo:{tmp_path / 'other.pt'}")


def test_another_game(tmp_path):
    write_model(tmp_path / "m.pt")
    assert "trained on mariage_v1, not romme_v1" in error(f"ppo:{tmp_path / 'm.pt'}", "romme_v1")


def test_another_env_version(tmp_path):
    write_model(tmp_path / "m.pt")
    ckpt = torch.load(tmp_path / "m.pt", weights_only=True)
    torch.save({**ckpt, "env_id": "mariage_v0", "env_version": 0}, tmp_path / "m.pt")
    assert "trained on mariage_v0, not mariage_v1" in error(f"ppo:{tmp_path / 'm.pt'}")


def test_other_rules(tmp_path):
    write_model(tmp_path / "m.pt")
    message = error(f"ppo:{tmp_path / 'm.pt'}", allow_false_claims=False)
    assert "allow_false_claims=False (trained: True)" in message


def test_another_observation_size(tmp_path):
    write_model(tmp_path / "m.pt")
    ckpt = torch.load(tmp_path / "m.pt", weights_only=True)
    torch.save({**ckpt, "obs_size": 259}, tmp_path / "m.pt")
    assert "expects observations of 259" in error(f"ppo:{tmp_path / 'm.pt'}")


def test_weights_that_do_not_fit_the_header(tmp_path):
    write_model(tmp_path / "m.pt")
    ckpt = torch.load(tmp_path / "m.pt", weights_only=True)
    torch.save({**ckpt, "hidden": 16}, tmp_path / "m.pt")
    assert "do not fit its header" in error(f"ppo:{tmp_path / 'm.pt'}")


def test_spec_without_a_model():
    assert "ppo:PATH" in error("ppo")


def test_unknown_shipped_model():
    assert "no shipped model 'nosuchgame'" in error("ppo:nosuchgame")


SHIPPED = sorted(MODELS.glob("*.pt"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_model_plays_its_game_offline(path):
    assert path.stat().st_size < 5 * 2**20
    env_id = next(e for e in taas.envs.available_envs() if e.startswith(path.stem + "_v"))
    agent = taas.agents.make(f"ppo:{path.stem}", env_id, seed=0)
    raw = taas.envs.make(env_id, wrapped=False)
    state = raw.game.new_state(np.random.default_rng(0))
    mask = raw.game.legal_mask(state)
    player = raw.game.current_player(state)
    assert mask[agent.act(raw.observer.encode(state, player), mask)]


def test_there_is_a_shipped_model_for_mariage():
    assert any(p.stem == "mariage" for p in SHIPPED)


def test_a_flag_added_after_training_is_read_at_its_default(tmp_path):
    """A checkpoint from before romme_v1 gained max_abandons_per_turn (its recorded rules lack
    the flag) still plays the default rules, and a table that changes the new flag is
    refused."""
    meta, net = write_model(tmp_path / "m.pt", "romme_v1", num_players=2)
    old = [{k: v for k, v in c.items() if k != "max_abandons_per_turn"} for c in meta["configs"]]
    assert old != meta["configs"]
    save_model(tmp_path / "m.pt", {**meta, "configs": old}, net.actor)
    spec = f"ppo:{tmp_path / 'm.pt'}"
    taas.agents.make(spec, "romme_v1", seed=0, config={"num_players": 2})
    with pytest.raises(CheckpointError, match="max_abandons_per_turn=5"):
        taas.agents.make(spec, "romme_v1", seed=0,
                         config={"num_players": 2, "max_abandons_per_turn": 5})


def test_a_deterministic_checkpoint_plays_its_most_probable_move(tmp_path):
    """``deterministic`` in the file makes ``ppo:`` take the argmax of the legal logits; a file
    without the key (every model saved before it existed) keeps sampling."""
    meta, net = write_model(tmp_path / "sampled.pt", seed=4)
    save_model(tmp_path / "argmax.pt", {**meta, "deterministic": True}, net.actor)
    raw = taas.envs.make(ENV, wrapped=False)
    state = raw.game.new_state(np.random.default_rng(2))
    mask = raw.game.legal_mask(state)
    obs = raw.observer.encode(state, raw.game.current_player(state))
    with torch.no_grad():
        best = int(net.logits(torch.tensor(obs), torch.tensor(mask).bool()).argmax())
    argmax = [taas.agents.make(f"ppo:{tmp_path / 'argmax.pt'}", ENV, seed=s).act(obs, mask)
              for s in range(20)]
    sampled = {taas.agents.make(f"ppo:{tmp_path / 'sampled.pt'}", ENV, seed=s).act(obs, mask)
               for s in range(20)}
    assert argmax == [best] * 20 and len(sampled) > 1 and mask.sum() > 1


def test_a_model_trained_on_another_reward_plays_the_default_table(tmp_path):
    """The reward is the training signal, not a rule of play: a Continental model trained on
    ``reward="zero_sum"`` plays a default (``"points"``) table; other rules still must match."""
    write_model(tmp_path / "m.pt", "continental_v1", reward="zero_sum")
    taas.agents.make(f"ppo:{tmp_path / 'm.pt'}", "continental_v1", seed=0)
    with pytest.raises(CheckpointError, match="jokers=0 \\(trained: 4\\)"):
        taas.agents.make(f"ppo:{tmp_path / 'm.pt'}", "continental_v1", seed=0,
                         config={"jokers": 0})


def test_an_integer_mask_adds_the_hint_weight_to_the_hinted_move_only():
    net = PolicyNet(3, 4, 8, critic=False, hint_weight=2.5)
    for p in net.actor.parameters():
        torch.nn.init.zeros_(p)
    obs = torch.ones(1, 3)
    hinted = net.logits(obs, torch.tensor([[0, 1, HINTED, 1]], dtype=torch.int8))
    plain = net.logits(obs, torch.tensor([[False, True, True, True]]))
    assert hinted.tolist() == [[-1e8, 0.0, 2.5, 0.0]]
    assert plain.tolist() == [[-1e8, 0.0, 0.0, 0.0]]


def test_a_hinted_model_plays_its_hint_players_move_where_the_network_is_indifferent(tmp_path):
    """An actor of zeros with a large hint weight is its hint player: every move it makes in
    a game is the one a separate ``heuristic`` fed the same observations and masks makes,
    so the hint reads nothing but the seat's own observation."""
    raw = taas.envs.make(ENV, wrapped=False)
    size = raw.observer.low.shape[0]
    net = PolicyNet(size, raw.game.num_actions, 8, critic=False, hint_weight=50.0)
    for p in net.actor.parameters():
        torch.nn.init.zeros_(p)
    meta = model_meta(ENV, [raw.game], size, 8, {}, "test", hint="heuristic", hint_weight=50)
    save_model(tmp_path / "m.pt", meta, net.actor)
    assert load_checkpoint(tmp_path / "m.pt")["hint"] == "heuristic"
    env = taas.envs.make(ENV)
    for deal in range(3):
        env.reset(seed=deal)
        hinted = {a: taas.agents.make(f"ppo:{tmp_path / 'm.pt'}", ENV, seed=1)
                  for a in env.possible_agents}
        reference = {a: taas.agents.make("heuristic", ENV, seed=1) for a in env.possible_agents}
        moves = 0
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            move = hinted[agent].act(obs["observation"], obs["action_mask"])
            assert move == reference[agent].act(obs["observation"], obs["action_mask"])
            env.step(move)
            moves += 1
        assert moves > 10


def test_a_checkpoint_hinting_with_an_unknown_player(tmp_path):
    meta, net = write_model(tmp_path / "m.pt")
    save_model(tmp_path / "m.pt", {**meta, "hint": "oracle:nonsense", "hint_weight": 1.0},
               net.actor)
    assert "hints with 'oracle:nonsense'" in error(f"ppo:{tmp_path / 'm.pt'}")
