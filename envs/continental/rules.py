"""Continental Rummy rules engine (rules: docs/rules/continental.md).

Sets only: a hand goes out when, after one final discard, every other card lies in groups of
3+ cards of one rank (jokers wild, at least ``min_naturals_per_group`` natural cards each, at
least two groups; :mod:`taas.envs.continental.hands`). Nothing is melded before that, so a
loser is charged the whole hand. The stock, the pile and the seats' pile records are the shared
rummy :class:`~taas.envs.rummy.table.Table`.

Decisions where the rules are silent (documented in the env docstring too):
- a card taken from the discard pile may not be discarded, nor be the go-out discard, in the
  same turn; with two identical copies in hand either copy counts as "that card";
- the stock is rebuilt from the pile but its top card whenever it is empty and the pile holds
  more than that card: the moment the last stock card is drawn, or after the next discard when
  buying had left a one-card pile (so nobody ever has to draw from an empty stock that the
  pile could refill);
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
from taas.envs.continental.hands import (
    arrange_groups,
    can_group,
    go_out_discards,
    mark_go_outs,
    penalty,
    rank_counts,
)
from taas.envs.core.cards import (
    JOKER,
    NUM_KINDS,
    card_str,
    cards_str,
    from_counts,
    parse_cards,
    shoe,
)
from taas.envs.core.config import build_config
from taas.envs.core.game import Game, State, make_layout
from taas.envs.core.jit import jit_norc
from taas.envs.rummy.series import series_info
from taas.envs.rummy.table import Table

DRAW, DISCARD, BUY = 0, 1, 2
PHASES = ("draw", "discard", "buy")
BUY_PENALTY_CARDS = 2
TOTAL_SCALE = 500.0
"""Series totals enter the public record as ``tanh(total / TOTAL_SCALE)``: bounded, and still
apart for the spread of totals a series of 3-8 rounds produces (a round costs ~100 points)."""

# A seat's public record: every card it discarded and every card it took from the pile this
# round (raw counts, written through the table's views), its hand size, its squashed series
# total, whether it plays this round, whether it dealt.
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
_DISCARDED, _TAKEN = SEAT["discarded"], SEAT["taken"]
_SIZE, _TOTAL, _ACTIVE, _DEALER = (
    SEAT[k].start for k in ("hand_size", "total", "active", "dealer")
)


@jit_norc
def _discard_mask(mask, hand, min_naturals, banned):
    """The discard phase's mask in one compiled pass (numpy's per-call overhead on 53-card
    slices was most of it): discards of held kinds, go-outs, and ``banned`` (>= 0: the card
    just taken) neither discarded nor the go-out discard."""
    for k in range(NUM_KINDS):
        if hand[k] > 0:
            mask[A.DISCARD + k] = 1
    mark_go_outs(mask, A.GO_OUT, hand, min_naturals)
    if banned >= 0:
        mask[A.DISCARD + banned] = 0
        mask[A.GO_OUT + banned] = 0


@dataclass
class ContinentalState(State):
    """Everything about one episode; public history is kept incrementally for observations."""

    hands: np.ndarray  # (players, kinds) counts
    # (players, SEAT_SIZE) float32: each seat's public record (see SEAT), one row per seat so
    # an observation copies the rows in its seat order as they are
    public: np.ndarray
    table: Table  # stock, pile, the records' discarded/taken views, the episode's seed
    totals: np.ndarray  # series penalty totals
    returns: np.ndarray
    dealer: int
    active: list[int]
    phase: int = DRAW
    current: int = 0
    next_player: int = -1
    buy_queue: list[int] = field(default_factory=list)
    turns: int = 0
    rounds_played: int = 0
    tiebreak: bool = False
    over: bool = False
    truncated: bool = False
    winner: int = -1
    history: list[dict] = field(default_factory=list)

    def clone(self) -> ContinentalState:
        """An independent copy: arrays and lists copied, no deepcopy (search clones often)."""
        c = object.__new__(ContinentalState)
        c.__dict__.update(self.__dict__)
        c.hands = self.hands.copy()
        c.public = self.public.copy()
        c.totals = self.totals.copy()
        c.returns = self.returns.copy()
        c.active = self.active.copy()
        c.buy_queue = self.buy_queue.copy()
        c.history = self.history.copy()  # finished rounds' records are never changed
        c.table = self.table.copy(c.public[:, _DISCARDED], c.public[:, _TAKEN])
        return c


class ContinentalGame(Game):
    """The engine: :class:`~taas.envs.core.game.Game` over :class:`ContinentalState`."""

    env_id = "continental_v1"
    num_actions = A.NUM_ACTIONS

    def __init__(self, config: Config):
        super().__init__(config)
        self.num_players = config.num_players
        self._shoe = shoe(config.decks, config.total_jokers)

    # -- episode and round set-up -------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> ContinentalState:
        n = self.num_players
        public = np.zeros((n, SEAT_SIZE), np.float32)
        table = Table(public[:, _DISCARDED], public[:, _TAKEN], seed=int(rng.integers(2**63)))
        s = ContinentalState(
            hands=np.zeros((n, NUM_KINDS), np.int8),
            public=public,
            table=table,
            totals=np.zeros(n, np.int64),
            returns=np.zeros(n),
            dealer=int(table.rng().integers(n)),
            active=list(range(n)),
        )
        self._deal(s)
        return s

    def _deal(self, s: ContinentalState) -> None:
        deck = s.table.shuffled(self._shoe)
        size = self.config.deal_size
        s.hands[:] = 0
        s.public[:] = 0
        s.public[:, _TOTAL] = np.tanh(s.totals / TOTAL_SCALE)
        s.public[s.dealer, _DEALER] = 1
        seats = self._seats_after(s, s.dealer)
        for i, p in enumerate(seats):
            s.hands[p] = np.bincount(deck[i * size : (i + 1) * size], minlength=NUM_KINDS)
            s.public[p, _SIZE] = size
            s.public[p, _ACTIVE] = 1
        rest = deck[len(seats) * size :]
        s.table.start(rest[:-1], rest[-1:])
        s.phase, s.turns, s.buy_queue = DRAW, 0, []
        s.current = seats[0]

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
        return z | state.table.zones()

    def _legal_mask(self, s: ContinentalState) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        if s.over:
            return mask
        t = s.table
        if s.phase == DRAW:
            mask[A.DRAW_STOCK] = bool(t.stock)
            mask[A.DRAW_DISCARD] = bool(t.discard)
        elif s.phase == DISCARD:
            cfg = self.config
            hand = s.hands[s.current]
            banned = t.drawn_discard if cfg.forbid_rediscard_of_drawn_discard else -1
            _discard_mask(mask, hand, cfg.min_naturals_per_group, banned)
            if not cfg.must_discard_to_go_out and can_group(
                rank_counts(hand), int(hand[JOKER]), cfg.min_naturals_per_group
            ):
                mask[A.GO_OUT_NO_DISCARD] = 1
        else:
            mask[A.BUY] = mask[A.PASS] = 1
        return mask

    # -- transitions -------------------------------------------------------------------------
    def _apply(self, s: ContinentalState, a: int) -> None:
        p, t = s.current, s.table
        if s.phase == DRAW:
            card = t.draw() if a == A.DRAW_STOCK else t.take(p)
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
            t.discard_card(p, card)
            if a >= A.GO_OUT:
                self._end_round(s, p)
            elif s.turns >= self.config.max_turns_per_round:
                s.over = s.truncated = True
            else:
                self._after_discard(s, p)
        elif a == A.BUY:
            s.hands[p, t.take(p)] += 1
            for _ in range(BUY_PENALTY_CARDS):
                s.hands[p, t.draw()] += 1
            s.public[p, _SIZE] += 1 + BUY_PENALTY_CARDS
            s.phase, s.current = DRAW, s.next_player
        elif s.buy_queue:
            s.current = s.buy_queue.pop(0)
        else:
            s.phase, s.current = DRAW, s.next_player

    def _after_discard(self, s: ContinentalState, p: int) -> None:
        nxt = self._next_active(s, p)
        s.phase, s.current = DRAW, nxt
        if self.config.allow_buying and len(s.table.stock) > BUY_PENALTY_CARDS:
            queue = [q for q in self._seats_after(s, nxt) if q not in (p, nxt)]
            if queue:
                s.phase, s.next_player = BUY, nxt
                s.current, s.buy_queue = queue[0], queue[1:]

    # -- scoring and the series --------------------------------------------------------------
    def _end_round(self, s: ContinentalState, winner: int) -> None:
        cfg = self.config
        penalties = np.zeros(self.num_players, np.int64)
        for q in s.active:
            if q != winner:
                penalties[q] = penalty(s.hands[q])
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
        s.public[:, _TOTAL] = np.tanh(s.totals / TOTAL_SCALE)
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
        t = state.table
        top = cards_str(t.discard[-1:], symbols) or "-"
        lines = [
            f"Continental Rummy  round {state.rounds_played + (not state.over)}"
            f"{' (tie-break)' if state.tiebreak else ''}  dealer player_{state.dealer}  "
            f"stock {len(t.stock)}  discard {top} ({len(t.discard)})"
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
    are ``continental_v1`` rules (``hand_size``, ``min_naturals_per_group`` matter here)."""
    config = build_config(Config, "continental", flags)
    hand = np.bincount(cards, minlength=NUM_KINDS) if cards else np.zeros(NUM_KINDS, np.int64)
    discards = None
    if len(cards) == config.deal_size + 1:
        discards = [card_str(k) for k in go_out_discards(hand, config.min_naturals_per_group)]
    return {"penalty": penalty(hand), "go_out_discards": discards}
