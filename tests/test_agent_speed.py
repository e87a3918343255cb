"""The agent-speed benchmark counts every decision of every seat and the search's simulations."""

import pytest

import taas.agents
import taas.envs
from taas.benchmarks.agents import main, measure, spec_for, table_rules


def test_every_decision_of_every_seat_is_timed():
    row = measure("mariage_v1", "ismcts:8", games=2, rules={"allow_false_claims": False})
    # nobody reaches 66 before two tricks (a trump marriage's 40 + at most 21 a trick), so a
    # deal takes at least 4 decisions
    assert row["decisions"] >= 8 and row["decisions_per_s"] > 0
    assert row["simulations_per_s"] > 0
    row = measure("continental_v1", "random", games=1, rules={"num_players": 3})
    assert "simulations_per_s" not in row and row["decisions"] > 0


def test_every_registered_agent_gets_a_buildable_spec():
    # the shipped models stand in for `ppo` (it needs a model); a game without one is skipped
    # (tests/toy/test_toy_game.py)
    assert spec_for("mariage_v1", "ppo", "100") == "ppo:mariage"
    assert spec_for("romme_v1", "ismcts", "100") == "ismcts:100"
    for env_id in taas.envs.available_envs():
        for name in taas.agents.available(env_id):
            spec = spec_for(env_id, name, "2")
            if spec is not None:
                taas.agents.make(spec, env_id, seed=0, config=table_rules(env_id))


def test_the_run_can_be_narrowed_to_some_envs_and_agents(capsys):
    rows = main(["--games", "1", "--envs", "continental_v1", "--agents", "greedy,random"])
    assert sorted(r["agent"] for r in rows) == ["greedy", "random"]
    assert {r["env_id"] for r in rows} == {"continental_v1"}
    with pytest.raises(SystemExit):
        main(["--envs", "nosuch_v1"])
    assert "unknown env ids: nosuch_v1" in capsys.readouterr().err
