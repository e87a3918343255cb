"""``taas agents ENV``: the agent specs an env offers, what each is, and which models ship."""

from __future__ import annotations

import argparse

import taas.agents
import taas.envs


def add_parser(sub) -> dict:
    p = sub.add_parser("agents", help="list the agent specs an env offers")
    p.add_argument("env_id", nargs="?", help="e.g. mariage_v1 (default: every env)")
    return {"agents": run}


def run(args: argparse.Namespace) -> int:
    env_ids = [args.env_id] if args.env_id else taas.envs.available_envs()
    for env_id in env_ids:
        spec = taas.envs.spec_for(env_id)
        offered = taas.agents.offered(env_id)
        print(f"{env_id}: {spec.title}")
        width = max(map(len, offered))
        for name, entry in offered.items():
            print(f"    {name:{width}}  {entry.about}")
        if spec.model is None:
            print(f"    (no learned model ships for {env_id}: ppo:PATH plays a checkpoint)")
    return 0
