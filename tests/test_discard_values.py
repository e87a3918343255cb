"""The discard-afterstate players of Marriage, Rommé and Nepali Marriage
(:mod:`taas.agents.learned.afterstate`) and the trainer's replayed-choice targets
(``afterstate_value --branch``).

Positions come from seeded heuristic games; what each check expects is worked out from the
observation by hand (the hand less the card shed, a swap's pair replaced by a wild card), not
read back from the code under test."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training extra not installed")

import taas.agents  # noqa: E402
import taas.envs  # noqa: E402
from taas.agents.learned.ppo import afterstate_player, load_checkpoint  # noqa: E402
from taas.training import afterstate_value  # noqa: E402

ENVS = ["marriage_v1", "romme_v1", "marriage_nepali_v0"]
MARIAGE = "mariage_v1"
ONE_CARD = {"marriage_v1": np.full(53, 1 / 3), "marriage_nepali_v0": np.full(53, 1 / 3),
            "romme_v1": np.r_[np.full(52, 1 / 2), 1 / 6]}
"""One card of each kind in the observation's hand block (Marriage: / decks; Nepali: / 3;
Rommé: / 2 copies, jokers / 6)."""
RULES = {"num_players": 4}


def _draws(cls) -> range:
    """The draws ``cls`` values (none in Marriage)."""
    return getattr(__import__(cls.__module__, fromlist=["DRAWS"]), "DRAWS", range(0))


def discard_positions(env_id: str, seed: int, count: int = 3, draws: bool = False):
    """(observation, mask, heuristic ranking) at the first ``count`` turns of a heuristic game
    where the heuristic ends its turn with one of two or more valued choices (with ``draws``:
    where it draws, either draw legal)."""
    cls = afterstate_player(env_id)
    raw = taas.envs.make(env_id, wrapped=False, **RULES)
    game, observer = raw.game, raw.observer
    seats = [taas.agents.make("heuristic", env_id, seed=i, config=RULES) for i in range(4)]
    state = game.new_state(np.random.default_rng(seed))
    found = []
    while not game.is_terminal(state) and len(found) < count:
        p = game.current_player(state)
        obs, mask = observer.encode(state, p), game.legal_mask(state)
        ranked = seats[p].ranking(obs, mask)
        if (cls.is_choice(ranked[0]) and sum(cls.is_choice(a) for a in ranked) >= 2
                and (ranked[0] in _draws(cls)) == draws):
            found.append((obs, mask, ranked))
        game.apply_legal(state, ranked[0])
    assert found, f"no choice in {env_id} seed {seed}"
    return found


@pytest.mark.parametrize("env_id", ENVS)
def test_a_value_that_prefers_one_card_makes_it_the_discard(env_id):
    """Whatever the heuristic preferred, a value highest for one of its choices puts that
    choice first, and the ranking keeps exactly the heuristic's moves."""
    cls = afterstate_player(env_id)
    for obs, mask, ranked in discard_positions(env_id, seed=3):
        choices = [a for a in ranked if cls.is_choice(a)]
        liked = choices[-1]  # the heuristic's least liked choice

        def value(rows, liked=liked):
            return np.array([float(np.argmax(r[_one_hot_slice(cls)]) == _kind(cls, liked))
                             for r in rows])

        agent = cls(value, seed=0, rules=RULES)
        mine = agent.ranking(obs, mask)
        assert mine[0] == liked and sorted(mine) == sorted(ranked)


def _one_hot_slice(cls) -> slice:
    module = __import__(cls.__module__, fromlist=["FEATURES"])
    f = module.FEATURES
    if "swapped" in f:  # Marriage: the shed card, then the pair swapped, side by side
        return slice(f["shed"].start, f["swapped"].stop)
    return f["shed"]


def _kind(cls, action: int) -> int:
    """The index in the shed (and swapped) one-hots that ``action`` sets."""
    for offset, r in enumerate(cls.CHOICES):
        if action in r:
            return offset * len(r) + action - r.start
    raise AssertionError(action)


@pytest.mark.parametrize("env_id", ENVS)
def test_the_hand_block_is_the_hand_less_the_card_shed(env_id):
    cls = afterstate_player(env_id)
    module = __import__(cls.__module__, fromlist=["FEATURES"])
    obs_layout = __import__(f"taas.envs.{taas.envs.spec_for(env_id).name}.observation",
                            fromlist=["LAYOUT"]).LAYOUT
    player = taas.agents.make("heuristic", env_id, seed=0, config=RULES)
    for obs, _, ranked in discard_positions(env_id, seed=5):
        discards = [a for a in ranked if a in cls.CHOICES[0]]
        rows = cls.features(player, obs, np.array(discards))
        assert rows.shape == (len(discards), cls.NUM_FEATURES) and rows.dtype == np.float32
        for row, action in zip(rows, discards, strict=True):
            expected = obs[obs_layout["hand"]].copy()
            kind = action - cls.CHOICES[0].start
            expected[kind] -= ONE_CARD[env_id][kind]  # in the observation's own scale
            assert np.allclose(row[module.FEATURES["hand"]], expected, atol=1e-6)
            assert row[module.FEATURES["shed"]].sum() == 1 and row[module.FEATURES["shed"]][kind]


def test_a_marriage_swap_leaves_the_pair_out_and_a_wild_card_in():
    from taas.agents.learned.marriage_value import FEATURES, MarriageValueAgent
    from taas.envs.marriage import actions as A
    from taas.envs.marriage.observation import LAYOUT

    player = taas.agents.make("heuristic", "marriage_v1", seed=0, config=RULES)
    checked = 0
    for seed in range(40):
        for obs, mask, _ in discard_positions("marriage_v1", seed, count=6):
            swaps = np.flatnonzero(mask[A.DUBLEE_SWAP : A.DUBLEE_SWAP + 53])
            if not swaps.size:
                continue
            k = int(swaps[0])
            row = MarriageValueAgent.features(player, obs, np.array([A.DUBLEE_SWAP + k]))[0]
            hand = np.rint(obs[LAYOUT["hand"]] * 3)
            wild = [w for w in np.flatnonzero(obs[LAYOUT["wild"]] > 0.5) if hand[w] < 3]
            expected = hand.copy()
            expected[k] -= 2
            expected[wild[0]] += 1
            assert np.allclose(row[FEATURES["hand"]] * 3, expected)
            assert row[FEATURES["swapped"]][k] == 1 and row[FEATURES["shed"]].sum() == 0
            checked += 1
        if checked >= 3:
            return
    pytest.skip("no dublee swap in 40 seeded heuristic games")


DRAW_ENVS = ["romme_v1", "marriage_nepali_v0"]


@pytest.mark.parametrize("env_id", DRAW_ENVS)
def test_a_draw_leaves_the_hand_with_the_top_card_or_as_it_is(env_id):
    """Taking the pile's top card leaves the hand one copy of it richer, the stock leaves it
    as it is (the card unknown); the flags and the taken card's one-hot tell them apart, and
    no card is shed."""
    cls = afterstate_player(env_id)
    module = __import__(cls.__module__, fromlist=["FEATURES"])
    f = module.FEATURES
    obs_layout = __import__(f"taas.envs.{taas.envs.spec_for(env_id).name}.observation",
                            fromlist=["LAYOUT"]).LAYOUT
    player = taas.agents.make("heuristic", env_id, seed=0, config=RULES)
    positions = [p for seed in range(6) for p in discard_positions(env_id, seed, 2, draws=True)]
    assert len(positions) >= 6
    for obs, _, _ in positions:
        top = int(np.flatnonzero(obs[obs_layout["top_discard"]])[0])
        stock, take = cls.features(player, obs, np.array([0, 1]))
        assert np.allclose(stock[f["hand"]], obs[obs_layout["hand"]], atol=1e-6)
        expected = obs[obs_layout["hand"]].copy()
        expected[top] += ONE_CARD[env_id][top]
        assert np.allclose(take[f["hand"]], expected, atol=1e-6)
        assert stock[f["draw"]].tolist() == [1, 0] and take[f["draw"]].tolist() == [0, 1]
        assert stock[f["drawn"]].sum() == 0 and take[f["drawn"]][top] == 1
        assert take[f["drawn"]].sum() == 1
        assert stock[f["shed"]].sum() == 0 and take[f["shed"]].sum() == 0


@pytest.mark.parametrize("env_id", DRAW_ENVS)
def test_a_value_that_prefers_the_other_draw_makes_it_the_draw(env_id):
    """The heuristic's second draw, valued higher by more than the margin, is drawn; by less,
    the heuristic's own draw stays."""
    cls = afterstate_player(env_id)
    f = __import__(cls.__module__, fromlist=["FEATURES"]).FEATURES
    for obs, mask, ranked in discard_positions(env_id, seed=1, count=4, draws=True):
        assert sorted(ranked) == [0, 1]
        other = ranked[1]

        def value(rows, other=other):  # 1.0 for the row of the other draw
            return rows[:, f["draw"].start + other].astype(float)

        assert cls(value, 0, RULES, margin=0.5).ranking(obs, mask) == [other, ranked[0]]
        assert cls(value, 0, RULES, margin=1.5).ranking(obs, mask) == ranked


def test_the_replayed_first_choice_is_the_game_itself(tmp_path):
    """In a group the heuristic's own choice comes first, and replaying it is replaying the
    game: its target is the mover's score difference in the game as it was played."""
    env_id = "romme_v1"
    seeds = range(7, 11)
    path = tmp_path / "chunk.npz"
    afterstate_value.collect_branches((env_id, "heuristic", RULES, seeds, 3, 2, path))
    data = np.load(path)
    raw = taas.envs.make(env_id, wrapped=False, **RULES)
    game, observer = raw.game, raw.observer
    checked = 0
    for seed in seeds:
        seats = [taas.agents.make("heuristic", env_id, seed=seed * 4 + i, config=RULES)
                 for i in range(4)]
        state = game.new_state(np.random.default_rng(seed))
        while not game.is_terminal(state):
            p = game.current_player(state)
            game.apply_legal(state, seats[p].act(observer.encode(state, p),
                                                 game.legal_mask(state)))
        r = game.returns(state)
        rows = np.flatnonzero(data["games"] == seed)
        starts = rows[np.r_[True, np.diff(data["groups"][rows]) != 0]]
        assert len(starts) == 2
        for start in starts:
            p = data["seats"][start]
            assert data["targets"][start] == pytest.approx(r[p] - (r.sum() - r[p]) / 3)
            checked += 1
    assert checked == 8


def test_group_fit_learns_the_ranking_not_the_position():
    """Targets = a linear score of the features plus a large offset per group: the centred fit
    recovers the within-group ranking on held-out games."""
    rng = np.random.default_rng(0)
    groups, width, n_features = 3000, 3, 6
    x = rng.normal(size=(groups * width, n_features)).astype(np.float32)
    w = rng.normal(size=n_features)
    offset = np.repeat(rng.normal(scale=50, size=groups), width)
    data = {"features": x, "targets": (x @ w * 5 + offset).astype(np.float32),
            "games": np.repeat(np.arange(groups), width), "groups": np.zeros(groups * width,
                                                                              np.int64)}
    args = afterstate_value.Args(epochs=8, batch_size=256, learning_rate=3e-3,
                                 reward_scale=0.1)
    torch.manual_seed(0)
    net = taas.agents.learned.ppo.mlp(n_features, 32, 1, out_gain=1.0)
    _, r2, chosen = afterstate_value.fit_groups(net, data, args,
                                                torch.Generator().manual_seed(0))
    assert r2 > 0.9
    assert chosen["val_gain"] > 0  # column 0 is no better than the others: overruling pays


def test_a_tiny_branch_run_trains_a_player_that_plays(tmp_path):
    run = tmp_path / "run"
    model = afterstate_value.main(
        ["--env-id", "marriage_nepali_v0", "--games", "6", "--chunk-games", "3", "--branch",
         "3", "--hidden", "8", "--epochs", "1", "--eval-deals", "1", "--jobs", "1",
         "--iterations", "1", "--run-dir", str(run)])
    ckpt = load_checkpoint(model)
    assert ckpt["policy"] == "afterstate" and ckpt["args"]["branch"] == 3
    agent = taas.agents.make(f"ppo:{model}", "marriage_nepali_v0", seed=0, config=RULES)
    assert type(agent).__name__ == "NepaliValueAgent"
    with pytest.raises(SystemExit, match="--branch"):
        afterstate_value.main(["--env-id", "romme_v1", "--branch", "1", "--run-dir",
                               str(tmp_path / "x")])
    with pytest.raises(SystemExit, match="choose one of"):
        afterstate_value.main(["--env-id", "nosuch_v1", "--run-dir", str(tmp_path / "y")])


def test_mariage_rows_are_the_observation_and_the_move():
    """Mariage has no hand left to value: a row is the observation with the move one-hot, and
    the ranking puts first the legal move the value likes best."""
    from taas.agents.learned.mariage_value import FEATURES, MariageValueAgent

    env = taas.envs.make(MARIAGE)
    env.reset(seed=4)
    obs = env.observe(env.agent_selection)
    legal = np.flatnonzero(obs["action_mask"])
    heuristic = taas.agents.make("heuristic", MARIAGE, seed=0)
    ranked = heuristic.ranking(obs["observation"], obs["action_mask"])
    assert ranked[0] == heuristic.act(obs["observation"], obs["action_mask"])
    assert sorted(ranked) == legal.tolist()
    rows = MariageValueAgent.features(heuristic, obs["observation"], legal)
    assert np.array_equal(rows[:, FEATURES["observation"]],
                          np.repeat(obs["observation"][None], len(legal), 0))
    assert np.array_equal(rows[:, FEATURES["move"]].argmax(1), legal)
    liked = int(legal[-1])
    agent = MariageValueAgent(lambda r: r[:, FEATURES["move"].start + liked], seed=0)
    assert agent.act(obs["observation"], obs["action_mask"]) == liked


def test_the_margin_keeps_the_players_choice_unless_the_network_is_clearly_surer():
    """Groups where the network's favourite beats column 0 by a lot gain when overruled,
    near-ties lose: the margin lies between the two, and only the clear cases change."""
    values = np.array([[0.0, 5.0], [0.0, 4.0], [0.0, 0.1], [0.0, 0.2], [0.0, -1.0]])
    returns = np.array([[0.0, 3.0], [0.0, 2.0], [0.0, -2.0], [0.0, -2.0], [0.0, 9.0]])
    chosen = afterstate_value.choose_margin(values, returns)
    assert 0.2 <= chosen["margin"] < 4.0
    assert chosen["val_changed"] == pytest.approx(2 / 5)
    assert chosen["val_gain"] == pytest.approx(5 / 5)
    # when every overrule loses, nothing changes
    nothing = afterstate_value.choose_margin(values, -np.abs(returns))
    assert nothing["val_changed"] == 0 and nothing["val_gain"] == 0


def test_a_player_below_its_margin_plays_the_heuristic():
    env_id = "romme_v1"
    cls = afterstate_player(env_id)
    heuristic = taas.agents.make("heuristic", env_id, seed=0, config=RULES)
    for obs, mask, ranked in discard_positions(env_id, seed=3):
        liked = [a for a in ranked if cls.is_choice(a)][-1]

        def value(rows, liked=liked):  # the heuristic's last choice by 1.0, the rest level
            return (rows[:, _one_hot_slice(cls)].argmax(1) == _kind(cls, liked)).astype(float)

        assert cls(value, 0, RULES, margin=1.5).ranking(obs, mask) == ranked
        assert cls(value, 0, RULES, margin=0.5).ranking(obs, mask)[0] == liked
        assert heuristic.ranking(obs, mask) == ranked
