"""The zero-sum settlement of a round (spec 2N.9.1, 2N.9.5, 2N.14 items 8-9).

Every pair of players settles the difference of their maal and each loser pays the winner a
game payment, which is ``Net_i = n·S_i − T − g_i`` for a loser and ``n·S_w − T + Σ g_i`` for
the winner. The input is every player's raw maal (an unseen player's as if counted);
``unseen_maal`` is applied here, so one set of counts serves every variant.
"""

from __future__ import annotations

from collections.abc import Sequence

from taas.envs.marriage_nepali.config import Config


def effective_maal(maal: Sequence[int], seen: Sequence[bool], winner: int,
                   config: Config) -> list[int]:
    """The S_i the settlement uses: unseen maal zeroed ("murder"), moved to the winner
    ("kidnap") or kept ("count")."""
    out = [int(m) for m in maal]
    if config.unseen_maal == "count":
        return out
    for i, s in enumerate(seen):
        if not s:
            if config.unseen_maal == "kidnap":
                out[winner] += out[i]
            out[i] = 0
    return out


def game_payments(seen: Sequence[bool], winner: int, config: Config,
                  winner_route: str = "sequence", dublee: Sequence[int] = ()) -> list[int]:
    """g_i for every player (0 for the winner): 10 unseen, 3 seen, 0 for a seen dublee-route
    loser, each plus ``dublee_win_extra`` when the winner finished by dublees."""
    extra = config.dublee_win_extra if winner_route == "dublee" else 0
    out = []
    for i, s in enumerate(seen):
        if i == winner:
            out.append(0)
        elif not s:
            out.append(config.unseen_payment + extra)
        elif i in dublee:
            out.append(config.dublee_seen_loser_payment + extra)
        else:
            out.append(config.seen_payment + extra)
    return out


def settle(maal: Sequence[int], seen: Sequence[bool], winner: int, config: Config,
           winner_route: str = "sequence", dublee: Sequence[int] = (),
           fouls: Sequence[int] | None = None) -> list[int]:
    """Net points of every player (positive = receives); they sum to zero.

    ``dublee``: seats that showed by the dublee route; ``fouls``: each player's count of
    ``foul_points`` penalties (Dhoos, paid to the winner). Money is ``Net × stake``.
    """
    n = len(maal)
    if not 2 <= n <= 6 or len(seen) != n:
        raise ValueError(f"settle: expected 2-6 players with one seen flag each, got {n} maal "
                         f"values and {len(seen)} seen flags")
    if not 0 <= winner < n:
        raise ValueError(f"winner {winner}: expected a seat 0..{n - 1}")
    if not seen[winner]:
        raise ValueError(f"winner {winner} is unseen: only a seen player can finish")
    if winner_route not in ("sequence", "dublee"):
        raise ValueError(f"winner route {winner_route!r}: expected 'sequence' or 'dublee'")
    if winner_route == "dublee" and winner not in dublee:
        dublee = (*dublee, winner)
    bad = [d for d in dublee if not 0 <= d < n or not seen[d]]
    if bad:
        raise ValueError(f"dublee seats {bad}: a dublee-route player is a seen seat 0..{n - 1}")
    s = effective_maal(maal, seen, winner, config)
    g = game_payments(seen, winner, config, winner_route, dublee)
    if fouls is not None:
        g = [gi + config.foul_points * int(f) * (i != winner)
             for i, (gi, f) in enumerate(zip(g, fouls, strict=True))]
    total = sum(s)
    net = [n * si - total - gi for si, gi in zip(s, g, strict=True)]
    net[winner] = n * s[winner] - total + sum(g)
    return net
