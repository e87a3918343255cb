"""What every multi-round rummy reports in ``info``: one shape for all of them, so logs, the
CLI's series table and UIs read every game the same way."""

from __future__ import annotations


def series_info(state) -> dict:
    """Round number, dealer and running totals; at the end also whether the episode was cut
    short and every round's record (``state.history``). Engines add their winner field."""
    info = {
        "round": state.rounds_played + (not state.over),
        "dealer": state.dealer,
        "totals": state.totals.tolist(),
    }
    if state.over:
        info["truncated"] = state.truncated
        info["rounds"] = state.history
    return info
