"""Standings from the stored games: ratings, points and wins with 95 % intervals, cross-play,
and what the duplicate deals bought.

How a game is scored for one entrant (an agent spec; with fewer entrants than seats one entrant
fills several seats): its *result* is the mean score of its seats. A forfeit has no scores: the
offender's result is worst, every other entrant's ties for first, and the game adds nothing to
anyone's points. An entrant *wins* a game when the top result is its alone.

Intervals bootstrap over deals (:func:`taas.agents.evaluate.mean_interval`), not games: the
games of one deal share its cards, so they are not independent. Ratings: OpenSkill's
Plackett–Luce for any table size (ties allowed), updated game by game in schedule order so it
never depends on which worker finished first; and for two-seat tables the Bradley–Terry maximum
likelihood fit of choix (order-free, a tie counted as a win each way), on the Elo scale, with
an interval from refitting on deals resampled with replacement.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict

import numpy as np

from taas.agents.evaluate import mean_interval
from taas.tournament.roundrobin import Definition, schedule

Z95 = 1.96


def results(game: dict) -> dict[int, float]:
    """Entrant -> its result in ``game`` (higher is better; -inf for a forfeiting entrant)."""
    seats: dict[int, list[float]] = defaultdict(list)
    for seat, entrant in enumerate(game["entrants"]):
        if game["status"] == "ok":
            seats[entrant].append(game["scores"][seat])
        else:
            seats[entrant].append(-math.inf if seat == game["forfeit_seat"] else 0.0)
    return {e: float(np.mean(v)) for e, v in seats.items()}


def _ranks(res: dict[int, float]) -> dict[int, int]:
    """1 for the best result; equal results share a rank."""
    return {e: 1 + sum(other > r for other in res.values()) for e, r in res.items()}


def _ratings(model, names: list[str], games: list[dict]) -> list[dict]:
    rating = {i: model.rating(name=n) for i, n in enumerate(names)}
    for game in games:
        res = results(game)
        entrants = sorted(res)
        ranks = _ranks(res)
        rated = model.rate([[rating[e]] for e in entrants], ranks=[ranks[e] for e in entrants])
        for e, (new,) in zip(entrants, rated, strict=True):
            rating[e] = new
    return [
        {"mu": r.mu, "sigma": r.sigma, "ci95": [r.mu - Z95 * r.sigma, r.mu + Z95 * r.sigma]}
        for r in (rating[i] for i in range(len(names)))
    ]


ELO = 400 / math.log(10)  # Bradley–Terry log-strength -> Elo points


def _pairs(games: list[dict]) -> list[tuple[int, int]]:
    """(winner, loser) for every two entrants of every game; a tie gives both orders."""
    pairs = []
    for game in games:
        res = results(game)
        for e, r in res.items():
            pairs.extend((e, o) for o, q in res.items() if o != e and r >= q)
    return pairs


def bradley_terry(n: int, games: list[dict], resamples: int = 200, seed: int = 0) -> list[dict]:
    """Bradley–Terry strengths (Elo scale, mean 0) with a 95 % interval over resampled deals."""
    import choix

    def fit(sample: list[dict]) -> np.ndarray:
        return ELO * choix.ilsr_pairwise(n, _pairs(sample), alpha=0.01)

    by_deal = defaultdict(list)
    for game in games:
        by_deal[game["deal"]].append(game)
    deals = list(by_deal.values())
    rng = np.random.default_rng(seed)
    boot = np.array([fit([g for i in rng.integers(len(deals), size=len(deals)) for g in deals[i]])
                     for _ in range(resamples)])
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    return [{"elo": float(v), "ci95": [float(lo), float(hi)]}
            for v, lo, hi in zip(fit(games), low, high, strict=True)]


def _interval(values: list[float]) -> list[float] | None:
    low, high = mean_interval(np.asarray(values))
    return None if not math.isfinite(low) else [low, high]


def _difference_widths(mine: np.ndarray, theirs: np.ndarray, resamples: int = 10_000,
                       seed: int = 0) -> tuple[float, float]:
    """95 % interval widths of mean(mine - theirs) over deals: paired, as duplicate deals are,
    and unpaired, as if each side had been dealt its own independent deals."""
    paired = np.subtract(*mean_interval(mine - theirs, resamples, seed)[::-1])
    rng = np.random.default_rng(seed)
    n = len(mine)
    diffs = (mine[rng.integers(n, size=(resamples, n))].mean(axis=1)
             - theirs[rng.integers(n, size=(resamples, n))].mean(axis=1))
    low, high = np.percentile(diffs, [2.5, 97.5])
    return float(paired), float(high - low)


def standings(definition: Definition, games: list[dict]) -> dict:
    """The JSON-ready standings of ``games`` (rows of :func:`taas.tournament.read_games`)."""
    from openskill.models import PlackettLuce

    names = definition.names
    n = len(names)
    played = [0] * n
    forfeits = [0] * n
    wins: list[dict[int, list[int]]] = [defaultdict(list) for _ in range(n)]
    points: list[dict[int, list[float]]] = [defaultdict(list) for _ in range(n)]
    rivals: list[dict[int, list[float]]] = [defaultdict(list) for _ in range(n)]
    beats = np.zeros((n, n))
    meetings = np.zeros((n, n))
    for game in games:
        res = results(game)
        top = max(res.values())
        leaders = [e for e, r in res.items() if r == top]
        for e, r in res.items():
            played[e] += 1
            forfeits[e] += r == -math.inf
            wins[e][game["deal"]].append(int(leaders == [e]))
            if game["status"] == "ok":
                points[e][game["deal"]].append(r)
                others = [s for s, o in zip(game["scores"], game["entrants"], strict=True)
                          if o != e]
                rivals[e][game["deal"]].append(float(np.mean(others)))
            for o, q in res.items():
                if o != e:
                    meetings[e, o] += 1
                    beats[e, o] += 1.0 if r > q else 0.5 if r == q else 0.0
    pl = _ratings(PlackettLuce(), names, games)
    bt = bradley_terry(n, games) if definition.players == 2 and games else None
    table = []
    for e, name in enumerate(names):
        deal_points = [float(np.mean(points[e][d])) for d in sorted(points[e])]
        deal_wins = [float(np.mean(wins[e][d])) for d in sorted(wins[e])]
        row = {
            "agent": name,
            "games": played[e],
            "forfeits": forfeits[e],
            "rating": pl[e],
            "bradley_terry": None if bt is None else bt[e],
            "points_per_game": float(np.mean(deal_points)) if deal_points else None,
            "points_ci95": _interval(deal_points),
            "win_rate": float(np.mean(deal_wins)) if deal_wins else None,
            "win_ci95": _interval(deal_wins),
            "duplicate": None,
        }
        deals = sorted(points[e])
        if len(deals) >= 2:
            mine = np.array([np.mean(points[e][d]) for d in deals])
            theirs = np.array([np.mean(rivals[e][d]) for d in deals])
            paired, unpaired = _difference_widths(mine, theirs)
            row["duplicate"] = {
                "margin": float(np.mean(mine - theirs)),
                "ci95_width_duplicate": paired,
                "ci95_width_independent": unpaired,
                "deals_factor": (unpaired / paired) ** 2 if paired > 0 else None,
            }
        table.append(row)
    table.sort(key=lambda r: -r["rating"]["mu"])
    with np.errstate(invalid="ignore"):
        cross = np.where(meetings > 0, beats / np.maximum(meetings, 1), np.nan)
    return {
        "tournament": definition.id,
        "definition": json.loads(definition.to_json()),
        "games": len(games),
        "scheduled": len(schedule(definition)),
        "leaderboard": table,
        "crossplay": {
            "agents": names,
            "score": [[None if math.isnan(x) else float(x) for x in row] for row in cross],
            "games": meetings.astype(int).tolist(),
        },
    }
