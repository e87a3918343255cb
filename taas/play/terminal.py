"""Play at the terminal: ``taas play marriage_v1 --human 0 --agents random,random,random``.

Plain lines in, plain lines out (``ask`` and ``show`` are injected, so tests drive a whole game
with scripted input). At each of a person's turns: the public table, each opponent's cards
held and pick-ups, the hand sorted by suit and rank with the engine's meld arrangement, then the
legal actions numbered; an answer is a number, an action's name, or a card (its first action,
e.g. ``7h`` for ``discard 7H``). Anything else is re-asked with the reason. Agents' moves are
printed as they happen; when a round ends every hand's arrangement and charge is shown.
"""

from __future__ import annotations

from collections.abc import Callable

from taas.envs.core.cards import SUIT_SYMBOLS, SUITS, card_str, parse_card
from taas.play.session import Session

_SUIT_LETTERS = str.maketrans(dict(zip(SUIT_SYMBOLS, SUITS, strict=True)))


class InputEnded(Exception):
    """The person's input ended (end of file) before the game did."""


def play(
    session: Session,
    ask: Callable[[str], str] = input,
    show: Callable[[str], None] = print,
    symbols: bool = True,
) -> list[float]:
    """Play ``session`` to the end, people answering through ``ask``; the final returns.
    ``symbols=False`` writes suits as letters (for terminals that cannot print ♠)."""
    if not symbols:  # the move log writes suit symbols too
        show = _in_letters(show)
    cards = _Printer(symbols)
    reported = 0
    while not session.over:
        seat = session.current
        if seat in session.humans():
            show(_table(session, seat, cards))
            action = _choose(session.legal_actions(), ask, show, cards)
            show(session.play(seat, action))
        else:
            show(session.agent_move())
        reports = session.round_reports()
        for report in reports[reported:]:
            show(_report(report, session, cards))
        reported = len(reports)
    view = session.view()
    if view["truncated"]:
        show("the game was cut short by its turn limit (no scores)")
    show("final: " + "  ".join(f"player_{i} {r:+g}" for i, r in enumerate(view["returns"])))
    return view["returns"]


def _in_letters(show: Callable[[str], None]) -> Callable[[str], None]:
    return lambda text: show(text.translate(_SUIT_LETTERS))


class _Printer:
    def __init__(self, symbols: bool):
        self.symbols = symbols

    def __call__(self, kinds, wild=()) -> str:
        return " ".join(card_str(k, self.symbols) + ("*" if k in wild else "") for k in kinds)

    def notes(self, notes: list[dict]) -> str:
        return ", ".join(
            f"{n['label']} {n['text'] if 'text' in n else self(n['cards']) or '-'}" for n in notes
        )


def _table(session: Session, seat: int, cards: _Printer) -> str:
    view = session.view(seat)
    wild = set(view.get("wild", ()))
    lines = [f"=== player_{seat} (you) to move: {view['env_id']}", cards.notes(view["facts"])]
    for s in view["seats"]:
        if s["seat"] != seat:
            lines.append(f"player_{s['seat']} ({s['agent']}): {cards.notes(s['notes'])}")
    groups: dict[str, list[int]] = {}
    for k in view["hand"]:
        groups.setdefault(card_str(k)[-1] if k != 52 else "joker", []).append(k)
    hand = "   ".join(cards(g, wild) for g in groups.values())
    lines.append(f"your hand: {hand}" + ("   (* wild)" if wild & set(view["hand"]) else ""))
    melds = view["melds"]
    if melds:
        shown = " ".join(
            "[" + cards(m["cards"], wild) + (" life" if m["life"] else "") + "]"
            for m in melds["melds"]
        )
        lines.append(
            f"melds: {shown or '-'}  deadwood: {cards(melds['deadwood'], wild) or '-'} "
            f"(penalty {melds['penalty']})"
        )
    lines.append("actions: " + "  ".join(
        f"{i}) {_name(a, cards)}" for i, a in enumerate(view["actions"], 1)
    ))
    return "\n".join(lines)


def _name(action: dict, cards: _Printer) -> str:
    if action["card"] is None:
        return action["name"]
    return f"{action['name'].split()[0]} {cards([action['card']])}"


def _choose(actions: list[dict], ask, show, cards: _Printer) -> int:
    """Ask until the answer names one legal action: its number, its name, or a card."""
    while True:
        try:
            answer = ask("your move> ").strip()
        except EOFError:
            raise InputEnded("input ended before the game did") from None
        action = _parse(answer, actions, cards)
        if action is not None:
            return action
        show(
            f"{answer!r} is not a legal action here: enter a number 1-{len(actions)}, an "
            f"action's name (e.g. {actions[-1]['name']!r}) or a card you hold (e.g. 7h)"
        )


def _parse(answer: str, actions: list[dict], cards: _Printer) -> int | None:
    if answer.isdigit():
        i = int(answer)
        return actions[i - 1]["id"] if 1 <= i <= len(actions) else None
    text = " ".join(answer.lower().split())
    for a in actions:
        if text in (a["name"].lower(), _name(a, cards).lower()):
            return a["id"]
    try:
        kind = parse_card(text)
    except ValueError:
        return None
    return next((a["id"] for a in actions if a["card"] == kind), None)


def _report(report: dict, session: Session, cards: _Printer) -> str:
    lines = [f"--- {report['title']}", *report["lines"]]
    for h in report["hands"]:
        melds = " ".join(
            "[" + cards(m["cards"]) + (" life" if m["life"] else "") + "]" for m in h["melds"]
        )
        note = f" ({h['note']})" if h["note"] else ""
        lines.append(
            f"player_{h['seat']} ({session.agents[h['seat']]}){note}: melds {melds or '-'}  "
            f"deadwood {cards(h['deadwood']) or '-'}  {h.get('label', 'penalty')} {h['penalty']}"
        )
    sheet = session.score_sheet()
    lines.append(f"totals ({sheet['unit']}): " + "  ".join(
        f"player_{i} {t}" for i, t in enumerate(sheet["totals"])
    ))
    return "\n".join(lines)
