"""The rummy expert agents (``heuristic``) take only legal actions at every table size and in
match episodes: the engines raise on an illegal action, and every game must end untruncated."""

import pytest

import taas.agents
import taas.arena
import taas.envs

CASES = [
    ("marriage_v1", {"num_players": 2, "allow_two_players": True}),
    ("marriage_v1", {"num_players": 3}),
    ("marriage_v1", {"num_players": 4, "lives_required": 2, "dublee_swap": False}),
    ("marriage_v1", {"num_players": 5, "wild_scope": "rank_and_suit"}),
    ("marriage_v1", {"num_players": 6}),
    ("marriage_v1", {"num_players": 3, "decks": 2, "printed_jokers": 0}),
    ("marriage_v1", {"num_players": 3, "episode": "match", "num_rounds": 2}),
    ("continental_v1", {"num_players": 3}),
    ("continental_v1", {"num_players": 4, "allow_buying": True}),
    ("continental_v1", {"num_players": 5, "jokers": 0, "min_naturals_per_group": 2}),
    ("continental_v1", {"num_players": 6, "must_discard_to_go_out": False}),
    ("continental_v1", {"num_players": 8}),
    ("continental_v1", {"num_players": 3, "episode": "match", "num_rounds": 2}),
    ("romme_v1", {"num_players": 2}),
    ("romme_v1", {"num_players": 4}),
    ("romme_v1", {"num_players": 6}),
    ("romme_v1", {"num_players": 2, "episode": "match"}),
]


@pytest.mark.parametrize(("env_id", "rules"), CASES, ids=lambda v: str(v))
def test_heuristic_plays_only_legal_actions(env_id, rules):
    env = taas.envs.make(env_id, wrapped=False, **rules)
    n = len(env.possible_agents)
    for seed in range(4):
        # all experts in even games, experts against random play in odd ones
        specs = ["heuristic"] * n if seed % 2 == 0 else ["heuristic", "random"] * n
        seats = [taas.agents.make(s, env_id, seed=seed * n + i, config=rules)
                 for i, s in enumerate(specs[:n])]
        result = taas.arena.play_game(env, seats, seed=seed)
        assert not result.truncated and result.steps > 0
        assert max(result.returns) > min(result.returns)  # someone won the round or match


def test_heuristic_is_listed_for_every_rummy():
    for env_id in ("marriage_v1", "continental_v1", "romme_v1"):
        assert "heuristic" in taas.agents.available(env_id)
    with pytest.raises(ValueError, match="takes no argument"):
        taas.agents.make("heuristic:3", "marriage_v1")
