"""Continental Rummy rules engine (seed 004, spec shared/rules/continental.md).

Sets only: a hand goes out when, after one final discard, every other card lies in groups of
3+ cards of one rank (jokers wild, at least ``min_naturals_per_group`` natural cards each, at
least two groups). Nothing is melded before that, so a loser is charged the whole hand.
Hands are count vectors over card kinds; only ranks matter for groups, so the go-out test is
arithmetic on per-rank counts (exact, see :func:`can_group`).

Decisions where the seed is silent (documented in the env docstring too):
- a card taken from the discard pile may not be discarded, nor be the go-out discard, in the
  same turn; with two identical copies in hand either copy counts as "that card";
- buying is offered after each plain discard to every seat except the discarder and the next
  player, clockwise from the seat after the next player, only while the stock holds more than
  the two penalty cards (so the next player can always draw);
- in a match every round's penalties, the tie-break round's too, add to the totals; the
  tie-break winner (the player who goes out) wins the series;
- with ``target_score`` set and ``num_rounds`` unset the series runs until someone reaches it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from taas.envs.continental import actions as A
from taas.envs.continental.config import Config
from taas.envs.core.cards import (
    JOKER,
    NUM_KINDS,
    NUM_RANKS,
    card_str,
    cards_str,
    from_counts,
    kind,
    parse_cards,
    shoe,
    shuffled,
)
from taas.envs.core.config import build_config
from taas.envs.core.game import Game, State, make_layout
from taas.envs.core.series import series_info

DRAW, DISCARD, BUY = 0, 1, 2
PHASES = ("draw", "discard", "buy")
BUY_PENALTY_CARDS = 2

# Penalty value of each kind: Ace 1, 2-9 face value, 10/J/Q/K 10, Joker 15.
# A seat's public record: every card it discarded and every card it took from the pile this
# round, its hand size, its series total, whether it plays this round, whether it dealt.
SEAT, SEAT_SIZE = make_layout(
    [
        ("discarded", NUM_KINDS),
        ("taken", NUM_KINDS),
        ("hand_size", 1),
        ("total", 1),
        ("active", 1),
        ("dealer", 1),
    ]
)
_SIZE, _TOTAL, _ACTIVE, _DEALER = (
    SEAT[k].start for k in ("hand_size", "total", "active", "dealer")
)

CARD_VALUES = np.array([min(r + 1, 10) for _ in range(4) for r in range(NUM_RANKS)] + [15])


def rank_counts(hand: np.ndarray) -> list[int]:
    """Natural cards per rank (suits do not matter in Continental groups)."""
    return hand[:JOKER].reshape(4, NUM_RANKS).sum(axis=0).tolist()


def can_group(naturals: list[int], jokers: int, min_naturals: int) -> bool:
    """Can these cards be split into two or more groups (3+ cards of one rank, at least
    ``min_naturals`` natural cards each)?

    Exact: each rank present needs one group, topped up to 3 cards with jokers; spare jokers
    join any group (no size cap). Two groups always exist when two ranks are present; a single
    rank can make two groups only with enough naturals and cards for both.
    """
    present = [c for c in naturals if c]
    if not present or min(present) < min_naturals:
        return False
    if sum(3 - c for c in present if c < 3) > jokers:
        return False
    if len(present) == 1:
        return present[0] >= 2 * min_naturals and present[0] + jokers >= 6
    return True


def go_out_discards(hand: np.ndarray, min_naturals: int) -> list[int]:
    """Kinds whose discard leaves ``hand`` in groups (:func:`can_group`), in one pass.

    Hot path (every discard decision): the per-rank tallies of :func:`can_group` are built once
    and each candidate discard only adjusts its own rank's terms. One discard lowers the jokers
    needed by at most two, which rules out most hands at once.
    """
    counts = hand.tolist()
    naturals = [sum(counts[r:JOKER:NUM_RANKS]) for r in range(NUM_RANKS)]
    jokers = counts[JOKER]
    m = min_naturals
    present = [c for c in naturals if c]
    need = sum(3 - c for c in present if c < 3)
    if need - 2 > jokers:
        return []
    ranks_present = len(present)
    short = sum(c < m for c in present)

    def fits(k: int, short: int, need: int, jokers: int, lone: int) -> bool:
        if k == 0 or short or need > jokers:
            return False
        return k >= 2 or (lone >= 2 * m and lone + jokers >= 6)

    lone = present[0] if ranks_present == 1 else 0
    out = [JOKER] if jokers and fits(ranks_present, short, need, jokers - 1, lone) else []
    good = []
    for r, c in enumerate(naturals):
        if not c:
            continue
        left = c - 1
        k = ranks_present - (left == 0)
        s2 = short - (c < m) + (0 < left < m)
        n2 = need - max(0, 3 - c) + (3 - left if 0 < left < 3 else 0)
        if k == 1:
            lone2 = left if left else next(x for i, x in enumerate(naturals) if x and i != r)
        else:
            lone2 = 0
        if fits(k, s2, n2, jokers, lone2):
            good.append(r)
    out.extend(k for k in range(JOKER) if counts[k] and k % NUM_RANKS in good)
    return out


def arrange_groups(hand: np.ndarray) -> list[list[int]]:
    """One way to lay a groupable hand: a group per rank, jokers topping up short groups and
    the spare ones joining the first group (for the end-of-round reveal)."""
    jokers = int(hand[JOKER])
    groups = []
    for r in range(NUM_RANKS):
        cards = [kind(r, s) for s in range(4) for _ in range(int(hand[kind(r, s)]))]
        if cards:
            pad = max(0, 3 - len(cards))
            groups.append(cards + [JOKER] * pad)
            jokers -= pad
    if groups:
        groups[0].extend([JOKER] * jokers)
    return groups


@dataclass
class ContinentalState(State):
    """Everything about one episode; public history is kept incrementally for observations."""

    seed: int
    rng: np.random.Generator
    hands: np.ndarray  # (players, kinds) counts
    # (players, SEAT_SIZE) float32: each seat's public record (see SEAT), one row per seat so
    # an observation copies the rows in its seat order as they are
    public: np.ndarray
    pile: np.ndarray  # counts of the cards in the discard pile (the list keeps their order)
    totals: np.ndarray  # series penalty totals
    returns: np.ndarray
    dealer: int
    active: list[int]
    stock: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    phase: int = DRAW
    current: int = 0
    drawn_discard: int = -1
    next_player: int = -1
    buy_queue: list[int] = field(default_factory=list)
    turns: int = 0
    rounds_played: int = 0
    tiebreak: bool = False
    over: bool = False
    truncated: bool = False
    winner: int = -1
    history: list[dict] = field(default_factory=list)

    @property
    def discarded_by(self) -> np.ndarray:
        return self.public[:, SEAT["discarded"]]

    @property
    def taken_by(self) -> np.ndarray:
        return self.public[:, SEAT["taken"]]


class ContinentalGame(Game):
    """The engine: :class:`~taas.envs.core.game.Game` over :class:`ContinentalState`."""

    env_id = "continental_v0"
    num_actions = A.NUM_ACTIONS

    def __init__(self, config: Config):
        super().__init__(config)
        self.num_players = config.num_players
        self._shoe = shoe(config.decks, config.total_jokers)

    # -- episode and round set-up -------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> ContinentalState:
        seed = int(rng.integers(2**63))
        own = np.random.default_rng(seed)
        n = self.num_players
        s = ContinentalState(
            seed=seed,
            rng=own,
            hands=np.zeros((n, NUM_KINDS), np.int8),
            public=np.zeros((n, SEAT_SIZE), np.float32),
            pile=np.zeros(NUM_KINDS, np.int8),
            totals=np.zeros(n, np.int64),
            returns=np.zeros(n),
            dealer=int(own.integers(n)),
            active=list(range(n)),
        )
        self._deal(s)
        return s

    def _deal(self, s: ContinentalState) -> None:
        deck = shuffled(self._shoe, s.rng)
        size = self.config.deal_size
        s.hands[:] = 0
        s.public[:] = 0
        s.public[:, _TOTAL] = s.totals
        s.public[s.dealer, _DEALER] = 1
        for i, p in enumerate(self._seats_after(s, s.dealer)):
            np.add.at(s.hands[p], deck[i * size : (i + 1) * size], 1)
            s.public[p, _SIZE] = size
            s.public[p, _ACTIVE] = 1
        s.stock = deck[len(s.active) * size :]
        s.discard = [s.stock.pop()]
        s.pile[:] = 0
        s.pile[s.discard[0]] = 1
        s.phase, s.drawn_discard, s.turns, s.buy_queue = DRAW, -1, 0, []
        s.current = self._next_active(s, s.dealer)

    def _next_active(self, s: ContinentalState, seat: int) -> int:
        n = self.num_players
        for step in range(1, n + 1):
            if (seat + step) % n in s.active:
                return (seat + step) % n
        raise AssertionError("no active seat")

    def _seats_after(self, s: ContinentalState, seat: int) -> list[int]:
        """Active seats clockwise starting left of ``seat`` (``seat`` itself last if active)."""
        n = self.num_players
        return [(seat + k) % n for k in range(1, n + 1) if (seat + k) % n in s.active]

    # -- queries ---------------------------------------------------------------------------
    action_to_str = staticmethod(A.action_to_str)

    def shoe(self, state: ContinentalState) -> np.ndarray:
        return self._shoe

    def zones(self, state: ContinentalState) -> dict[str, np.ndarray]:
        z = {f"hand_{p}": state.hands[p] for p in range(self.num_players)}
        z["stock"] = np.bincount(state.stock, minlength=NUM_KINDS)
        z["discard"] = np.bincount(state.discard, minlength=NUM_KINDS)
        return z

    def _legal_mask(self, s: ContinentalState) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        if s.over:
            return mask
        if s.phase == DRAW:
            mask[A.DRAW_STOCK] = bool(s.stock)
            mask[A.DRAW_DISCARD] = bool(s.discard)
        elif s.phase == DISCARD:
            cfg = self.config
            hand = s.hands[s.current]
            mask[A.DISCARD : A.GO_OUT] = hand > 0
            for k in go_out_discards(hand, cfg.min_naturals_per_group):
                mask[A.GO_OUT + k] = 1
            if cfg.forbid_rediscard_of_drawn_discard and s.drawn_discard >= 0:
                mask[A.DISCARD + s.drawn_discard] = 0
                mask[A.GO_OUT + s.drawn_discard] = 0
            if not cfg.must_discard_to_go_out and can_group(
                rank_counts(hand), int(hand[JOKER]), cfg.min_naturals_per_group
            ):
                mask[A.GO_OUT_NO_DISCARD] = 1
        else:
            mask[A.BUY] = mask[A.PASS] = 1
        return mask

    # -- transitions -------------------------------------------------------------------------
    def _apply(self, s: ContinentalState, a: int) -> None:
        p = s.current
        if s.phase == DRAW:
            if a == A.DRAW_STOCK:
                card, s.drawn_discard = self._pop_stock(s), -1
            else:
                card = s.drawn_discard = s.discard.pop()
                s.pile[card] -= 1
                s.taken_by[p, card] += 1
            s.hands[p, card] += 1
            s.public[p, _SIZE] += 1
            s.phase = DISCARD
            s.turns += 1
        elif s.phase == DISCARD:
            if a == A.GO_OUT_NO_DISCARD:
                self._end_round(s, p)
                return
            card = a - A.GO_OUT if a >= A.GO_OUT else a - A.DISCARD
            s.hands[p, card] -= 1
            s.public[p, _SIZE] -= 1
            s.discard.append(card)
            s.pile[card] += 1
            s.discarded_by[p, card] += 1
            if a >= A.GO_OUT:
                self._end_round(s, p)
            elif s.turns >= self.config.max_turns_per_round:
                s.over = s.truncated = True
            else:
                self._after_discard(s, p)
        elif a == A.BUY:
            card = s.discard.pop()
            s.pile[card] -= 1
            s.taken_by[p, card] += 1
            s.hands[p, card] += 1
            for _ in range(BUY_PENALTY_CARDS):
                s.hands[p, self._pop_stock(s)] += 1
            s.public[p, _SIZE] += 1 + BUY_PENALTY_CARDS
            s.phase, s.current = DRAW, s.next_player
        elif s.buy_queue:
            s.current = s.buy_queue.pop(0)
        else:
            s.phase, s.current = DRAW, s.next_player

    def _after_discard(self, s: ContinentalState, p: int) -> None:
        nxt = self._next_active(s, p)
        s.phase, s.current, s.drawn_discard = DRAW, nxt, -1
        if self.config.allow_buying and len(s.stock) > BUY_PENALTY_CARDS:
            queue = [q for q in self._seats_after(s, nxt) if q not in (p, nxt)]
            if queue:
                s.phase, s.next_player = BUY, nxt
                s.current, s.buy_queue = queue[0], queue[1:]

    def _pop_stock(self, s: ContinentalState) -> int:
        """Take the top stock card; the moment the stock is empty, the discard pile except its
        top card is shuffled into a new stock."""
        card = s.stock.pop()
        if not s.stock and len(s.discard) > 1:
            s.stock = s.discard[:-1]
            s.rng.shuffle(s.stock)
            s.discard = s.discard[-1:]
            s.pile[:] = 0
            s.pile[s.discard[0]] = 1
        return card

    # -- scoring and the series --------------------------------------------------------------
    def _end_round(self, s: ContinentalState, winner: int) -> None:
        cfg = self.config
        penalties = np.zeros(self.num_players, np.int64)
        for q in s.active:
            if q != winner:
                penalties[q] = int(CARD_VALUES @ s.hands[q])
        s.history.append(
            {
                "round": s.rounds_played + 1,
                "tiebreak": s.tiebreak,
                "dealer": s.dealer,
                "went_out": winner,
                "groups": [cards_str(g) for g in arrange_groups(s.hands[winner])],
                "hands": {q: cards_str(from_counts(s.hands[q])) for q in s.active if q != winner},
                "penalties": penalties.tolist(),
            }
        )
        s.totals += penalties
        s.public[:, _TOTAL] = s.totals
        s.rounds_played += 1
        if cfg.reward == "points":
            s.returns -= penalties
        elif cfg.reward == "zero_sum":
            s.returns[s.active] += penalties[s.active].mean() - penalties[s.active]
        if cfg.episode == "round" or s.tiebreak:
            self._finish(s, winner)
            return
        limit = cfg.num_rounds if cfg.target_score is not None else cfg.rounds
        reached = cfg.target_score is not None and s.totals.max() >= cfg.target_score
        if reached or (limit is not None and s.rounds_played >= limit):
            tied = np.flatnonzero(s.totals == s.totals.min()).tolist()
            if len(tied) == 1:
                self._finish(s, tied[0])
                return
            s.tiebreak, s.active = True, tied
        s.dealer = self._next_active(s, s.dealer)
        self._deal(s)

    def _finish(self, s: ContinentalState, winner: int) -> None:
        s.over, s.winner = True, winner
        if self.config.reward == "win":
            s.returns[:] = -1.0 / (self.num_players - 1)
            s.returns[winner] = 1.0

    # -- reporting -------------------------------------------------------------------------------
    def info(self, state: ContinentalState, player: int) -> dict:
        info = series_info(state)
        if state.over:
            info["winner"] = state.winner
        return info

    def render(self, state: ContinentalState, symbols: bool = True) -> str:
        top = cards_str(state.discard[-1:], symbols) or "-"
        lines = [
            f"Continental Rummy  round {state.rounds_played + (not state.over)}"
            f"{' (tie-break)' if state.tiebreak else ''}  dealer player_{state.dealer}  "
            f"stock {len(state.stock)}  discard {top} ({len(state.discard)})"
        ]
        for p in range(self.num_players):
            mark = "*" if p == self.current_player(state) else " "
            cards = cards_str(from_counts(state.hands[p]), symbols) if p in state.active else "-"
            lines.append(f"{mark}player_{p}  total {int(state.totals[p]):4d}  {cards}")
        if state.truncated:
            lines.append(f"round truncated after {state.turns} turns (max_turns_per_round)")
        if state.over:
            lines.extend(_round_lines(entry, symbols) for entry in state.history)
        return "\n".join(lines)


def _round_lines(entry: dict, symbols: bool) -> str:
    """A finished round for people: who went out with which groups, what each loser held."""

    def show(cards: str) -> str:
        return cards_str(parse_cards(cards), symbols)

    head = f"Round {entry['round']}{' (tie-break)' if entry['tiebreak'] else ''}"
    lines = [
        f"{head}  dealer player_{entry['dealer']}  player_{entry['went_out']} went out: "
        + " | ".join(show(g) for g in entry["groups"])
    ]
    for q, cards in entry["hands"].items():
        lines.append(f"    player_{q}  {entry['penalties'][q]:4d}  {show(cards)}")
    return "\n".join(lines)


def score_hand(cards: list[int], **flags) -> dict:
    """Scorekeeping helper: the hand's penalty and, for a hand one card over the deal size,
    the discards that would let it go out (cards as ``parse_cards`` writes them). ``flags``
    are ``continental_v0`` rules (``hand_size``, ``min_naturals_per_group`` matter here)."""
    config = build_config(Config, "continental", flags)
    hand = np.bincount(cards, minlength=NUM_KINDS) if cards else np.zeros(NUM_KINDS, np.int64)
    discards = None
    if len(cards) == config.deal_size + 1:
        discards = [card_str(k) for k in go_out_discards(hand, config.min_naturals_per_group)]
    return {"penalty": int(CARD_VALUES @ hand), "go_out_discards": discards}
