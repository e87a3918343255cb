"""What the human table shows of Nepali Marriage (``taas.envs.marriage_nepali.view``).

Public: the stock, the top discard, whether the tiplu has been drawn (not which card), each
seat's seen/unseen status, route, exposed tunnelas, shown combinations, fouls and pick-ups.
The tiplu, the wild cards and one's own maal are shown only to a seat whose observation holds
them: a seat that has seen (everyone under ``open_maal``), and everyone once the round is over,
when the settlement reveals the holdings and their maal. A Man drawn as the tiplu under
``man_tiplu="spades_ace"`` is shown as the tiplu card, with A♠ as the face that plays as tiplu.
"""

from __future__ import annotations

from taas.envs.core.cards import from_counts
from taas.envs.marriage_nepali import maal
from taas.envs.marriage_nepali.rules import ROUTES
from taas.envs.rummy.view import RummyView, kinds


def knows_tiplu(game, state, seat: int) -> bool:
    """Whether ``seat`` may see the tiplu: the observation's own rule."""
    return state.tiplu >= 0 and (state.seen[seat] or game.config.open_maal or state.over)


class NepaliView(RummyView):
    """The rummy table (stock, top discard, pick-ups) with the deal's own facts; the score
    sheet and reports are the settlement's, a row per deal."""

    unit = "net points (maal settlement)"
    series_title = "net points per deal (highest total wins)"

    def facts(self, game, state) -> list[dict]:
        drawn = "seen by " + ", ".join(
            f"player_{p}" for p in range(game.num_players) if state.seen[p]
        ) if state.tiplu >= 0 else "not drawn yet"
        facts = []
        if game.config.episode == "match":
            facts += [{"label": "deal", "text": str(state.rounds_played + (not state.over))},
                      {"label": "stake", "text": str(game.deal_stake(state))}]
        facts += [{"label": "dealer", "text": f"player_{state.dealer}"},
                  *self.table_facts(state), {"label": "tiplu", "text": drawn}]
        if state.over and state.tiplu >= 0:
            facts += _tiplu(game, state, "tiplu card")
        return facts

    def seat_notes(self, game, state, seat: int) -> list[dict]:
        notes = [*super().seat_notes(game, state, seat),
                 {"label": "status", "text": "seen" if state.seen[seat] else "unseen"}]
        if state.route[seat] != 0:
            notes.append({"label": "route", "text": ROUTES[state.route[seat]]})
        for label, zone in (("exposed", state.exposed[seat]), ("shown", state.shown[seat])):
            if zone.any():
                notes.append({"label": label, "cards": from_counts(zone)})
        if state.fouls[seat]:
            notes.append({"label": "fouls", "text": str(state.fouls[seat])})
        return notes

    def private_facts(self, game, state, seat: int) -> list[dict]:
        if not knows_tiplu(game, state, seat) or state.over:
            return []
        counted = maal.count_maal(game.holding(state, seat), game.roles(state), game.config, (),
                                  state.seen[seat])
        return [*_tiplu(game, state, "tiplu"), {"label": "my maal", "text": str(counted["maal"])}]

    def private(self, game, state, seat: int) -> dict:
        if not knows_tiplu(game, state, seat) or state.over:
            return {}
        return {"wild": sorted(int(k) for k in game.roles(state).wild)}

    def score_sheet(self, game, state) -> dict:
        rows = [[int(m) for m in deal["money"]] for deal in _deals(game, state)]
        totals = [float(x) + 0.0 for x in game.returns(state)]
        return {"unit": self.unit, "rows": rows, "totals": totals}

    def round_reports(self, game, state) -> list[dict]:
        return [_report(deal) for deal in _deals(game, state)]


def _tiplu(game, state, label: str) -> list[dict]:
    """The tiplu card, and the face that plays as tiplu when that is another one (a Man
    drawn under the spades-ace rule: A♠)."""
    role = game.roles(state).tiplu
    facts = [{"label": label, "cards": [int(state.tiplu)]}]
    if role != state.tiplu:
        facts.append({"label": "plays as tiplu", "cards": [int(role)]})
    return facts


def _deals(game, state) -> list[dict]:
    """Every finished deal's record: a session's history, or the one round once it is over
    (a truncated round has no result)."""
    if game.config.episode == "match":
        return list(state.history)
    if not state.over or state.truncated:
        return []
    return [{"round": 1, "money": [int(m) for m in game.returns(state)], **state.result}]


def _report(r: dict) -> dict:
    if r["void"]:
        return {"title": f"deal {r['round']}: void, nothing left to draw", "lines": [],
                "hands": []}
    winner = r["winner"]
    card = f" (tiplu card {r['tiplu_card']})" if "tiplu_card" in r else ""
    lines = [f"tiplu {r['tiplu']}{card}, poplu {r['poplu']}, jhiplu {r['jhiplu']}; "
             f"net {' '.join(f'{n:+d}' for n in r['net'])}"]
    hands = [{"seat": q, "melds": [{"cards": kinds(p["holding"].split()), "life": False}],
              "deadwood": [], "penalty": int(p["maal"]), "label": "maal",
              "note": ("finished, " if q == winner else "")
              + ("seen" if p["seen"] else "unseen") + f", maal {p['maal']}"}
             for q, p in enumerate(r["players"])]
    return {"title": f"deal {r['round']}: player_{winner} finished ({r['route']})",
            "lines": lines, "hands": hands}
