"""``taas envs``: every env id with its rule flags and their defaults."""

from __future__ import annotations

import argparse
import dataclasses

import taas.envs


def add_parser(sub) -> dict:
    sub.add_parser("envs", help="list environments with their rule flags")
    return {"envs": run}


def run(args: argparse.Namespace) -> int:
    for env_id in taas.envs.available_envs():
        config = taas.envs.env_module(env_id).Config
        print(env_id)
        for f in dataclasses.fields(config):
            print(f"    {f.name} = {f.default!r}")
    return 0
