"""Standings from the stored games: ratings, points and wins with 95 % intervals, cross-play,
and what the duplicate deals bought.

How a game is scored for one entrant (an agent spec; with fewer entrants than seats one entrant
fills several seats): its *result* is the mean score of its seats. A forfeit has no scores: the
offender's result is worst, every other entrant's ties for first, and the game adds nothing to
anyone's points. An entrant *wins* a game when the top result is its alone.

Intervals bootstrap over deals (:func:`taas.arena.evaluate.mean_interval`), not games: the
games of one deal share its cards, so they are not independent. Ratings: OpenSkill's
Plackett–Luce for any table size (ties allowed), updated game by game in schedule order so it
never depends on which worker finished first; and for two-seat tables the Bradley–Terry maximum
likelihood fit of choix (order-free, a tie counted as a win each way), on the Elo scale, with
an interval from refitting on deals resampled with replacement.

What the duplicate deals bought: an entrant's *margin* in a game is its result minus the mean
result of the other entrants at the table. Averaged per deal, over every seat it played the deal
from, the luck of the cards cancels; the margin's interval over deals is set against its width
had every game been dealt independently (a bootstrap over single games: one game's margin has
the same distribution either way). ``games_factor`` = (independent width / duplicate width)²:
how many times as many games independent deals would need for the same precision.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict

import numpy as np

from taas.arena.evaluate import mean_interval
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


def plackett_luce(names: list[str], games: list[dict]) -> list[dict]:
    """OpenSkill Plackett–Luce ratings after ``games`` in schedule order, one per entrant."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
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


def _width(interval: list[float] | None) -> float | None:
    return None if interval is None else interval[1] - interval[0]


def standings(definition: Definition, games: list[dict]) -> dict:
    """The JSON-ready standings of ``games`` (rows of :func:`taas.tournament.read_games`)."""
    names = definition.names
    n = len(names)
    played = [0] * n
    forfeits = [0] * n
    wins: list[dict[int, list[int]]] = [defaultdict(list) for _ in range(n)]
    points: list[dict[int, list[float]]] = [defaultdict(list) for _ in range(n)]
    margins: list[dict[int, list[float]]] = [defaultdict(list) for _ in range(n)]
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
                others = [q for o, q in res.items() if o != e]
                margins[e][game["deal"]].append(r - float(np.mean(others)))
            for o, q in res.items():
                if o != e:
                    meetings[e, o] += 1
                    beats[e, o] += 1.0 if r > q else 0.5 if r == q else 0.0
    pl = plackett_luce(names, games)
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
        deal_margins = [float(np.mean(margins[e][d])) for d in sorted(margins[e])]
        game_margins = [m for d in sorted(margins[e]) for m in margins[e][d]]
        duplicate = _width(_interval(deal_margins))
        independent = _width(_interval(game_margins))
        if duplicate is not None and independent is not None:
            row["duplicate"] = {
                "margin": float(np.mean(game_margins)),
                "ci95_width_duplicate": duplicate,
                "ci95_width_independent": independent,
                "games_factor": (independent / duplicate) ** 2 if duplicate > 0 else None,
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
