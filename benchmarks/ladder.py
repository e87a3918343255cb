"""A game's strength ladder: every player it ships against every other on duplicate deals,
rated, tabulated and plotted on one docs page.

    python -m taas.benchmarks.ladder mariage_v1 --deals 200 --seed 0 --jobs 2
    python -m taas.benchmarks.ladder romme_v1 --players 3 --deals 100 --sprt 2 \\
        --out docs/strength/romme_v1.md

The ladder (unless ``--agents`` names one): ``random``, ``heuristic`` where the game offers it,
``ismcts`` at two budgets and ``oracle`` at the larger where it offers search, and what its
aliases ``learned`` and ``best`` stand for, each spec once, less any that cannot play the table
(a model trained on other table sizes: the page names it and says why). Every pair is a duel on
the same deal seeds (:func:`taas.arena.evaluate.duplicate_deals`): each deal is played once
with A in each seat and B in every other seat, so at a table of more than two the duel is one A
against a table of Bs; A alone against Bs is not B alone against As, so there both orders are
played, while at two seats the pair is played once and B's row is A's negated. With ``--sprt
DELTA`` each duel stops once the sequential test of :func:`taas.benchmarks.strength.sprt`
decides.

The page (``--out``, default ``docs/strength/ENV.md``, with the plot beside it as ``ENV.png``)
holds the command that made it, OpenSkill Plackett–Luce ratings (the tournament's own,
:func:`taas.tournament.stats.plackett_luce`: a game ranks A's return against the Bs' mean, as
a tournament ranks an entrant that fills several seats) with 95 % intervals, and the cross
table of mean paired score differences per deal, row against column, with bootstrap 95 %
intervals over deals.
"""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

import taas.agents
import taas.envs
from taas.arena.evaluate import Evaluation, mean_interval
from taas.benchmarks.strength import add_sprt_arguments, duel
from taas.envs.core.config import parse_rule


def default_ladder(env_id: str, budgets: tuple[int, int] = (25, 100)) -> list[str]:
    """The players of ``env_id``'s ladder: the baselines, the search at two budgets and its
    oracle where the game offers search, and what its aliases stand for, each spec once."""
    offered = taas.agents.offered(env_id)
    specs = ["random", *(["heuristic"] if "heuristic" in offered else [])]
    if "ismcts" in offered:
        specs += [f"ismcts:{b}" for b in budgets] + [f"oracle:{max(budgets)}"]
    specs += [taas.agents.resolve(a, env_id) for a in taas.agents.ALIASES if a in offered]
    return list(dict.fromkeys(specs))


def fitting(env_id: str, specs: list[str], rules: dict) -> tuple[list[str], dict[str, str]]:
    """The specs of ``specs`` that can play ``env_id`` under ``rules``, and why each other one
    cannot (a shipped model made for other table sizes refuses before its first move): a
    default ladder at any table size plays who fits rather than failing."""
    kept, left_out = [], {}
    for spec in specs:
        try:
            taas.agents.make(spec, env_id, seed=0, config=rules)
        except ValueError as err:
            left_out[spec] = str(err)
        else:
            kept.append(spec)
    return kept, left_out


@dataclass
class Ladder:
    """The duels of one ladder: ``duels[(i, j)]`` is agent ``i`` against agent ``j`` and the
    sequential test's decision (None without one, or when the cap came first)."""

    env_id: str
    agents: list[str]
    aliases: dict[str, list[str]]  # spec -> the aliases that stand for it
    seats: int
    rules: dict
    duels: dict[tuple[int, int], tuple[Evaluation, str | None]]
    left_out: dict[str, str] = dataclasses.field(default_factory=dict)  # spec -> why

    def diffs(self, row: int, col: int) -> np.ndarray:
        """Per-deal paired score differences of ``row`` against ``col``; at two seats the
        reverse of a pair played once is its negation (the same games)."""
        if (row, col) in self.duels:
            return self.duels[row, col][0].diffs
        return -self.duels[col, row][0].diffs

    def games(self) -> list[dict]:
        """Every game as the tournament's rating reads it (entrant per seat, scores), deal by
        deal across the duels, so the online rating does not favour the duels played last."""
        out = []
        deals = max(len(ev.diffs) for ev, _ in self.duels.values())
        for d in range(deals):
            for (i, j), (ev, _) in self.duels.items():
                if d >= len(ev.diffs):
                    continue
                for seat in range(self.seats):
                    entrants = [j] * self.seats
                    entrants[seat] = i
                    out.append({"entrants": entrants, "status": "ok",
                                "scores": ev.returns[d, seat].tolist()})
        return out

    def ratings(self) -> list[dict]:
        """OpenSkill Plackett–Luce rating per agent (mu, sigma, 95 % interval), in order."""
        from taas.tournament.stats import plackett_luce

        return plackett_luce(self.agents, self.games())


def run(env_id: str, agents: list[str], deals: int, seed: int = 0, jobs: int = 1,
        sprt_delta: float | None = None, alpha: float = 0.05, batch: int = 20,
        **rules) -> Ladder:
    """Play every duel of ``agents`` (specs or aliases, resolved and de-duplicated)."""
    resolved = [taas.agents.resolve(a, env_id) for a in agents]
    specs = list(dict.fromkeys(resolved))
    if len(specs) < 2:
        raise ValueError(f"a ladder needs two different players or more (got {specs})")
    aliases = {s: [a for a in taas.agents.ALIASES if a in taas.agents.offered(env_id)
                   and taas.agents.resolve(a, env_id) == s] for s in specs}
    for spec in specs:  # a bad spec fails before any game is played
        taas.agents.make(spec, env_id, seed=0, config=rules)
    seats = len(taas.envs.make(env_id, wrapped=False, **rules).possible_agents)
    pairs = [(i, j) for i in range(len(specs)) for j in range(len(specs))
             if i < j or (i > j and seats > 2)]
    duels = {}
    for i, j in tqdm(pairs, unit="duel"):
        duels[i, j] = duel(env_id, specs[i], specs[j], deals, seed, jobs, sprt_delta, alpha,
                           batch, progress=False, **rules)
    return Ladder(env_id, specs, aliases, seats, dict(rules), duels)


def _label(ladder: Ladder, i: int) -> str:
    spec = ladder.agents[i]
    also = ladder.aliases.get(spec)
    return f"`{spec}`" + (f" ({', '.join(also)})" if also else "")


def _cell(values: np.ndarray) -> str:
    low, high = mean_interval(values)
    interval = f" [{low:+.2f}, {high:+.2f}]" if np.isfinite(low) else ""
    return f"{values.mean():+.2f}{interval} ({len(values)})"


def page(ladder: Ladder, ratings: list[dict], command: str, plot_name: str | None) -> str:
    """The Markdown page of ``ladder`` (its ``ratings``): the command, ratings, cross table
    and plot."""
    order = sorted(range(len(ladder.agents)), key=lambda i: -ratings[i]["mu"])
    games = ladder.games()
    played = [sum(i in g["entrants"] for g in games) for i in range(len(ladder.agents))]
    rules = ", ".join(f"`{k}={v}`" for k, v in sorted(ladder.rules.items())) or "default rules"
    lines = [
        f"# Strength ladder: `{ladder.env_id}`",
        "",
        f"Made by `{command}` ({ladder.seats} seats, {rules}). Each pair of players plays "
        "duplicate deals: every deal seed once with the row player in each seat and the column "
        "player in every other seat"
        + (", so a duel is one player against a table of the other; both orders are played."
           if ladder.seats > 2 else "; the pair is played once and its mirror negated.")
        + " How the page is made: [Strength ladders](index.md).",
        "",
        *[f"Left out of this table: `{spec}`: {why}." for spec, why in ladder.left_out.items()],
        *([""] if ladder.left_out else []),
        "## Ratings",
        "",
        "OpenSkill Plackett–Luce, updated game by game (a game ranks the row player's return "
        "against the mean of the other seats), with its 95 % interval μ ± 1.96σ.",
        "",
        "| # | player | μ | σ | 95 % interval | games |",
        "|---:|---|---:|---:|---|---:|",
    ]
    for rank, i in enumerate(order, 1):
        r = ratings[i]
        lines.append(f"| {rank} | {_label(ladder, i)} | {r['mu']:.2f} | {r['sigma']:.2f} | "
                     f"{r['ci95'][0]:.2f} to {r['ci95'][1]:.2f} | {played[i]} |")
    lines += [
        "",
        "## Paired score differences",
        "",
        "Row player's mean return per deal minus the other seats', against the column player, "
        "with a bootstrap 95 % interval over deals and (in brackets) the deals played"
        + (" (fewer than the cap where the sequential test stopped the duel)."
           if any(dec is not None for _, dec in ladder.duels.values()) else "."),
        "",
        "| row vs column | " + " | ".join(f"`{ladder.agents[c]}`" for c in order) + " |",
        "|---|" + "---|" * len(order),
    ]
    for r in order:
        cells = ["" if r == c else _cell(ladder.diffs(r, c)) for c in order]
        lines.append(f"| {_label(ladder, r)} | " + " | ".join(cells) + " |")
    if plot_name is not None:
        lines += ["", f"![Ratings and paired score differences]({plot_name})"]
    return "\n".join(lines) + "\n"


def plot(ladder: Ladder, ratings: list[dict], path: Path) -> None:
    """The ratings with their intervals beside the cross table as a heat map, one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = sorted(range(len(ladder.agents)), key=lambda i: ratings[i]["mu"])
    names = [ladder.agents[i] for i in order]
    n = len(order)
    fig, (left, right) = plt.subplots(1, 2, figsize=(6 + 0.9 * n, 0.5 * n + 2.5))
    mu = np.array([ratings[i]["mu"] for i in order])
    half = np.array([ratings[i]["ci95"][1] - ratings[i]["mu"] for i in order])
    left.errorbar(mu, range(n), xerr=half, fmt="o", capsize=4)
    left.set_yticks(range(n), names)
    left.set_xlabel("OpenSkill μ (95 % interval)")
    left.set_title(f"{ladder.env_id}: ratings")
    top = order[::-1]
    cross = np.array([[np.nan if r == c else ladder.diffs(r, c).mean() for c in top]
                      for r in top])
    scale = np.nanmax(np.abs(cross)) if np.isfinite(cross).any() else 1.0
    image = right.imshow(cross, cmap="RdBu", vmin=-scale, vmax=scale)
    for r in range(n):
        for c in range(n):
            if r != c:
                right.text(c, r, f"{cross[r, c]:+.1f}", ha="center", va="center", fontsize=8,
                           color="white" if abs(cross[r, c]) > scale / 2 else "black")
    right.set_xticks(range(n), [ladder.agents[i] for i in top], rotation=45, ha="right")
    right.set_yticks(range(n), [ladder.agents[i] for i in top])
    right.set_title("row minus column, per deal")
    fig.colorbar(image, ax=right, shrink=0.8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> Ladder:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("env_id")
    parser.add_argument("--agents", help="comma-separated specs or aliases instead of the "
                                         "game's ladder")
    parser.add_argument("--budgets", default="25,100",
                        help="the two ismcts simulation budgets of the ladder (default 25,100)")
    parser.add_argument("--deals", type=int, default=100,
                        help="deal seeds per duel (with --sprt: the most)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed")
    parser.add_argument("--players", type=int, help="seats at the table (the game's num_players)")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--jobs", type=int, default=1, help="processes to split a duel over")
    add_sprt_arguments(parser, "stop each duel")
    parser.add_argument("--out", help="the page to write (default docs/strength/ENV.md); "
                                      "the plot goes beside it as .png")
    args = parser.parse_args(argv)
    rules = dict(parse_rule(r) for r in args.rule)
    if args.players is not None:
        rules["num_players"] = args.players
    try:
        budgets = tuple(int(b) for b in args.budgets.split(","))
        if len(budgets) != 2 or min(budgets) < 1:
            raise ValueError
    except ValueError:
        parser.error(f"--budgets {args.budgets}: expected two simulation counts, e.g. 25,100")
    if args.deals < 1:
        parser.error(f"--deals {args.deals}: play one deal or more")
    try:
        fields = {f.name for f in dataclasses.fields(taas.envs.env_module(args.env_id).Config)}
        if args.players is not None and "num_players" not in fields:
            raise ValueError(f"{args.env_id} has a fixed table: leave --players out")
        agents, left_out = ((args.agents.split(","), {}) if args.agents
                            else fitting(args.env_id, default_ladder(args.env_id, budgets), rules))
        ladder = run(args.env_id, agents, args.deals, args.seed, args.jobs, args.sprt,
                     args.alpha, args.batch, **rules)
        ladder.left_out = left_out
    except ValueError as err:
        parser.error(str(err))
    out = Path(args.out or f"docs/strength/{args.env_id}.md")
    out.parent.mkdir(parents=True, exist_ok=True)
    png = out.with_suffix(".png")
    ratings = ladder.ratings()
    plot(ladder, ratings, png)
    command = "python -m taas.benchmarks.ladder " + shlex.join(argv)
    out.write_text(page(ladder, ratings, command, png.name), encoding="utf-8")
    print(f"wrote {out} and {png}")
    return ladder


if __name__ == "__main__":
    main()
