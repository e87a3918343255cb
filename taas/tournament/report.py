"""The tournament's outputs, all rebuilt from the stored games: a rich leaderboard in the
terminal, ``leaderboard.json``, ``games.csv``, ``report.md`` with ``ratings.png`` and
``crossplay.png``."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from taas.tournament.store import COLUMNS


def _fmt(value: float | None, ci: list[float] | None = None, digits: int = 1) -> str:
    if value is None:
        return "-"
    text = f"{value:.{digits}f}"
    return text if ci is None else f"{text} [{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def _rows(standings: dict) -> tuple[list[str], list[list[str]]]:
    """The leaderboard as text cells, shared by the terminal and the Markdown report."""
    two = standings["definition"]["players"] == 2
    heads = ["#", "agent", "rating μ [95 %]", *(["Bradley–Terry Elo [95 %]"] if two else []),
             "points/game [95 %]", "win rate [95 %]", "games", "forfeits"]
    rows = []
    for i, r in enumerate(standings["leaderboard"], 1):
        rating = r["rating"]
        rows.append([
            str(i), r["agent"], _fmt(rating["mu"], rating["ci95"]),
            *([_fmt(r["bradley_terry"]["elo"], r["bradley_terry"]["ci95"], 0)] if two else []),
            _fmt(r["points_per_game"], r["points_ci95"]),
            _fmt(r["win_rate"], r["win_ci95"], 2), str(r["games"]), str(r["forfeits"]),
        ])
    return heads, rows


def print_leaderboard(standings: dict, console=None) -> None:
    from rich.console import Console
    from rich.table import Table

    d = standings["definition"]
    table = Table(title=f"{d['env_id']}: {standings['games']} of {standings['scheduled']} games, "
                  f"{d['deals']} deals, seed {d['seed']}")
    heads, rows = _rows(standings)
    for head in heads:
        table.add_column(head, justify="left" if head == "agent" else "right")
    for row in rows:
        table.add_row(*row)
    # piped output has no width: give the table room rather than wrap every cell
    console = console or Console(width=None if sys.stdout.isatty() else 150)
    console.print(table)


def write_csv(games: list[dict], path: Path) -> None:
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        for g in games:
            writer.writerow([json.dumps(g[c]) if isinstance(g[c], list) else g[c]
                             for c in COLUMNS])


def plot_ratings(standings: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    board = standings["leaderboard"][::-1]
    mus = [r["rating"]["mu"] for r in board]
    errs = [1.96 * r["rating"]["sigma"] for r in board]
    fig, ax = plt.subplots(figsize=(6, 1 + 0.5 * len(board)))
    ax.errorbar(mus, range(len(board)), xerr=errs, fmt="o", capsize=4)
    ax.set_yticks(range(len(board)), [r["agent"] for r in board])
    ax.set_xlabel("OpenSkill Plackett–Luce μ (bars: 95 %)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_crossplay(standings: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    cross = standings["crossplay"]
    names = cross["agents"]
    score = np.array([[np.nan if x is None else x for x in row] for row in cross["score"]])
    fig, ax = plt.subplots(figsize=(2 + 0.8 * len(names), 1.5 + 0.7 * len(names)))
    image = ax.imshow(score, vmin=0, vmax=1, cmap="RdBu")
    for (i, j), value in np.ndenumerate(score):
        if not np.isnan(value):
            dark = abs(value - 0.5) > 0.3  # the colour map's ends
            ax.text(j, i, f"{value:.2f}", ha="center", va="center",
                    color="white" if dark else "black")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    fig.colorbar(image, label="share of meetings won (ties ½)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def markdown(standings: dict) -> str:
    d = standings["definition"]
    heads, rows = _rows(standings)
    lines = [
        f"# Tournament {standings['tournament']}: {d['env_id']}",
        "",
        f"Agents {', '.join(d['agents'])}; {d['players']} seats per table, {d['deals']} "
        f"duplicate deals ({d['format']}), seed {d['seed']}, "
        f"rules {dict(d['rules']) or 'default'}; "
        f"{standings['games']} of {standings['scheduled']} games stored.",
        "",
        "| " + " | ".join(heads) + " |",
        "|" + "---|" * len(heads),
        *("| " + " | ".join(row) + " |" for row in rows),
        "",
        "Rating: OpenSkill Plackett–Luce (μ ± 1.96 σ)"
        + ("; Bradley–Terry: choix maximum likelihood, Elo scale, 95 % bootstrap over deals"
           if d["players"] == 2 else "")
        + ". Points and win rate: per game, 95 % "
        "bootstrap over deals. A forfeit ranks the offender last and adds no points.",
        "",
        "![ratings](ratings.png)",
        "",
        "## Cross-play",
        "",
        "Share of meetings the row agent finished above the column agent (ties count ½).",
        "",
        "![cross-play](crossplay.png)",
        "",
        "## What the duplicate deals bought",
        "",
        "Margin: an agent's result minus the mean of the other agents' at its table, per game. "
        "The width of its 95 % interval over duplicate deals (as played) and had every game "
        "been dealt independently; `games ×`: how many times as many games independent deals "
        "would need for the same width.",
        "",
        "| agent | margin | CI width, duplicate deals | CI width, independent deals | games × |",
        "|---|---|---|---|---|",
    ]
    for r in standings["leaderboard"]:
        dup = r["duplicate"]
        if dup:
            factor = "-" if dup["games_factor"] is None else f"{dup['games_factor']:.2f}"
            lines.append(f"| {r['agent']} | {dup['margin']:.2f} | "
                         f"{dup['ci95_width_duplicate']:.2f} | "
                         f"{dup['ci95_width_independent']:.2f} | {factor} |")
    return "\n".join(lines) + "\n"


def write_report(out: str | Path, games: list[dict], standings: dict) -> list[Path]:
    """Write every output file into ``out``; the paths written."""
    out = Path(out)
    paths = [out / n for n in ("leaderboard.json", "games.csv", "report.md", "ratings.png",
                               "crossplay.png")]
    paths[0].write_text(json.dumps(standings, indent=1) + "\n")
    write_csv(games, paths[1])
    paths[2].write_text(markdown(standings))
    plot_ratings(standings, paths[3])
    plot_crossplay(standings, paths[4])
    return paths
