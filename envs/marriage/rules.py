"""Marriage rules engine (rules: docs/rules/marriage.md).

Hands are count vectors over card kinds; the stock, the discard pile, the seats' discard and
pick-up records and the reshuffles are the shared rummy :class:`~taas.envs.rummy.table.Table`
(the dublee swap is its ``draw_first``). Every
meld question (may this hand show, which discards show, a loser's minimum deadwood) goes
through :mod:`taas.envs.marriage.scoring`, which wraps the shared exact solver; the mask caches the
one solve a step needs.

Decisions where the rules leave room (documented in the env docstring too):
- a printed-joker indicator under ``"redraw"`` goes back below the top card, so the next card
  turned is a different one; the number of redraws is public; under ``"aces_wild"`` with
  ``wild_scope="rank_and_suit"`` a joker indicator has no suit, so every ace is wild;
- ``forbid_rediscard_of_drawn_discard`` forbids discarding the kind just taken (either
  identical copy), as a plain discard and as a show's discard (the rummy rule as written; a hand
  of 22 always holds another kind, so the ban never leaves a turn without a discard); a
  dublee swap may set the taken card aside (it goes out of play, not back to the pile);
- an invalid show (``"penalize"``) still makes its discard, reveals the other cards, and charges
  ``max(invalid_show_penalty, value of those cards)`` unless the round ends void;
- a void (deadlocked) round charges no one, not even an invalid show, and counts as played in
  a session; a round cut by ``max_turns_per_round`` ends the whole episode as truncated;
- every round's penalties, tie-break rounds included, add to the session totals; the tie-break
  winner is the tied player with the lowest penalty in that round.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, card_str, cards_str, from_counts, shoe
from taas.envs.core.game import Game, State
from taas.envs.core.jit import jit_norc
from taas.envs.marriage import actions as A
from taas.envs.marriage.config import Config
from taas.envs.marriage.scoring import Scorer, wild_cards, wild_rank_str
from taas.envs.rummy.series import series_info
from taas.envs.rummy.table import Table

DRAW, DISCARD, OVER = 0, 1, 2
PHASES = ("draw", "discard", "over")
FACE_UP = ("discarded_by", "taken_by", "set_aside", "revealed")


_NO_SHOWS = np.zeros(NUM_KINDS, np.int8)


@jit_norc
def _discard_mask(mask, hand, shows, show_all, banned, wild, swaps):
    """The discard phase's mask in one compiled pass (a dozen numpy calls cost more than the
    show check of most hands): discards of held kinds, shows where ``shows`` is set, show-all,
    dublee swaps of non-wild pairs when ``swaps``; ``banned`` (>= 0) neither discarded nor
    shown."""
    for k in range(NUM_KINDS):
        if hand[k] > 0:
            mask[A.DISCARD + k] = 1
            if hand[k] >= 2 and swaps and not wild[k]:
                mask[A.DUBLEE_SWAP + k] = 1
        if shows[k]:
            mask[A.SHOW + k] = 1
    mask[A.SHOW_ALL] = show_all
    if banned >= 0:
        mask[A.DISCARD + banned] = 0
        mask[A.SHOW + banned] = 0


@dataclass
class MarriageState(State):
    """Everything about one episode; public history is kept incrementally for observations."""

    hands: np.ndarray  # (players, kinds) counts
    face_up: np.ndarray
    """(4, players, kinds) int32: every card each seat showed this round, by how
    (``FACE_UP``); ``discarded_by`` etc. are views of it. A card can be discarded again after
    a reshuffle, so the first two records are not bounded by ``decks``."""
    table: Table
    """Stock, discard pile, first up-card, the card just taken and the episode's seed; its
    ``discarded_by``/``taken_by`` are views of ``face_up``."""
    totals: np.ndarray  # session penalty totals
    returns: np.ndarray
    dealer: int
    active: list[int]  # seats dealt in this round
    dead: list[int] = field(default_factory=list)  # seats out of this round by an invalid show
    fixed_penalty: dict[int, int] = field(default_factory=dict)
    indicator: int = -1
    wild: np.ndarray = field(default_factory=lambda: np.zeros(NUM_KINDS, bool))
    wild_rank: int = -1  # -1: no wild rank (printed jokers only)
    jokers_redrawn: int = 0
    phase: int = DRAW
    current: int = 0
    turns: int = 0
    rounds_played: int = 0
    tiebreak: bool = False
    tied: list[int] = field(default_factory=list)
    over: bool = False
    truncated: bool = False
    winner: int = -1  # of the match (or of the round in a round episode); -1 void/unknown
    history: list[dict] = field(default_factory=list)

    @property
    def discarded_by(self) -> np.ndarray:
        """(players, kinds): every card each seat discarded this round."""
        return self.face_up[0]

    @property
    def taken_by(self) -> np.ndarray:
        """(players, kinds): every card each seat took from the discard pile this round."""
        return self.face_up[1]

    @property
    def set_aside(self) -> np.ndarray:
        """(players, kinds): dublees each seat set aside by swaps (face up)."""
        return self.face_up[2]

    @property
    def revealed(self) -> np.ndarray:
        """(players, kinds): hands shown by invalid shows (face up)."""
        return self.face_up[3]

    def clone(self) -> MarriageState:
        """An independent copy for search: arrays, lists and the dict are copied; the rest
        (ints, the wild flags and finished round records) is never mutated in place, so it is
        shared."""
        c = object.__new__(MarriageState)
        d = c.__dict__
        d.update(self.__dict__)
        d["hands"] = self.hands.copy()
        d["face_up"] = self.face_up.copy()
        d["totals"] = self.totals.copy()
        d["returns"] = self.returns.copy()
        d["active"] = self.active[:]
        d["dead"] = self.dead[:]
        d["table"] = self.table.copy(c.face_up[0], c.face_up[1])
        d["tied"] = self.tied[:]
        d["history"] = self.history[:]
        d["fixed_penalty"] = dict(self.fixed_penalty)
        return c


class MarriageGame(Game):
    """The engine: :class:`~taas.envs.core.game.Game` over :class:`MarriageState`."""

    env_id = "marriage_v1"
    num_actions = A.NUM_ACTIONS

    def __init__(self, config: Config):
        super().__init__(config)
        self.num_players = config.num_players
        self._shoe = shoe(config.decks, config.jokers)
        self._scorers: dict[bytes, Scorer] = {}
        self._last: tuple = (None, None)  # (wild flags, their scorer)

    def scorer(self, state: MarriageState) -> Scorer:
        """The meld/penalty oracle for this round's wild cards (one per wild set, cached; the
        last one is found by the identity of the state's wild flags, which are never changed in
        place, so most discard steps skip the lookup)."""
        if state.wild is self._last[0]:
            return self._last[1]
        key = state.wild.tobytes()
        if key not in self._scorers:
            self._scorers[key] = Scorer(self.config, state.wild)
        self._last = (state.wild, self._scorers[key])
        return self._last[1]

    # -- episode and round set-up -------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> MarriageState:
        n = self.num_players
        face_up = np.zeros((len(FACE_UP), n, NUM_KINDS), np.int32)
        table = Table(face_up[0], face_up[1], seed=int(rng.integers(2**63)))
        s = MarriageState(
            hands=np.zeros((n, NUM_KINDS), np.int8),
            face_up=face_up,
            table=table,
            totals=np.zeros(n, np.int64),
            returns=np.zeros(n),
            dealer=int(table.rng().integers(n)),
            active=list(range(n)),
        )
        self._deal(s)
        return s

    def _deal(self, s: MarriageState) -> None:
        cfg = self.config
        deck = s.table.shuffled(self._shoe)
        size = cfg.deal_size
        s.dead, s.fixed_penalty = [], {}  # before choosing seats: every active seat is dealt
        seats = self._seats_after(s, s.dealer)
        m = len(seats)
        s.hands[:] = 0
        s.face_up[:] = 0
        # One card at a time clockwise from the dealer's left, off the top (end) of the deck.
        dealt = deck[::-1][: m * size]
        for i, p in enumerate(seats):
            s.hands[p] = np.bincount(dealt[i::m], minlength=NUM_KINDS)
        stock = deck[: len(deck) - m * size]
        s.jokers_redrawn = 0
        rng = s.table.rng()  # where redrawn joker indicators go back
        while True:
            s.indicator = stock.pop()
            if s.indicator != JOKER or cfg.printed_joker_indicator != "redraw":
                break
            stock.insert(int(rng.integers(len(stock))), JOKER)
            s.jokers_redrawn += 1
        s.wild, s.wild_rank = wild_cards(cfg, s.indicator)
        s.table.start(stock[:-1], stock[-1:])  # zeroes the discard and pick-up records
        s.phase, s.turns = DRAW, 0
        s.current = seats[0]

    def _seats_after(self, s: MarriageState, seat: int) -> list[int]:
        """Seats still in the round clockwise from the left of ``seat`` (``seat`` itself last)."""
        n = self.num_players
        out = [(seat + k) % n for k in range(1, n + 1)]
        if s.dead or len(s.active) < n:  # (else every seat plays: the common case, every turn)
            out = [p for p in out if p in s.active and p not in s.dead]
        return out

    # -- queries ---------------------------------------------------------------------------
    action_to_str = staticmethod(A.action_to_str)

    def shoe(self, state: MarriageState) -> np.ndarray:
        return self._shoe

    def zones(self, state: MarriageState) -> dict[str, np.ndarray]:
        z = {f"hand_{p}": state.hands[p] for p in range(self.num_players)}
        z |= state.table.zones()
        z["set_aside"] = state.set_aside.sum(axis=0).astype(np.int64)
        z["indicator"] = np.bincount([state.indicator], minlength=NUM_KINDS)
        return z

    def _legal_mask(self, s: MarriageState) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        if s.over:
            return mask
        if s.phase == DRAW:
            mask[A.DRAW_STOCK] = bool(s.table.stock)
            mask[A.DRAW_DISCARD] = bool(s.table.discard)
            return mask
        cfg = self.config
        hand = s.hands[s.current]
        penalize = cfg.invalid_show == "penalize"
        show_all = False
        if not cfg.show_requires_discard:
            shows = _NO_SHOWS
            show_all = penalize or self.scorer(s).can_show(hand)
        elif penalize:
            shows = hand  # every held kind: a false show is allowed and penalized
        else:
            shows = self.scorer(s).show_discards(hand)
        # the re-discard ban: the card just taken is not discarded again, by a show neither
        banned = s.table.drawn_discard if cfg.forbid_rediscard_of_drawn_discard else -1
        _discard_mask(mask, hand, shows, show_all, banned, s.wild,
                      cfg.dublee_swap and bool(s.table.stock))
        return mask

    # -- transitions -------------------------------------------------------------------------
    def _apply(self, s: MarriageState, a: int) -> None:
        p, t = s.current, s.table
        if s.phase == DRAW:
            card = t.draw() if a == A.DRAW_STOCK else t.take(p)
            s.hands[p, card] += 1
            s.phase = DISCARD
            s.turns += 1
            return
        if a >= A.DUBLEE_SWAP:
            self._swap(s, p, a - A.DUBLEE_SWAP)
        elif a == A.SHOW_ALL:
            self._show(s, p)
            return
        else:
            card = a - A.SHOW if a >= A.SHOW else a - A.DISCARD
            s.hands[p, card] -= 1
            t.discard_card(p, card)
            if a >= A.SHOW:
                self._show(s, p)
                return
        self._next_turn(s, p)

    def _swap(self, s: MarriageState, p: int, card: int) -> None:
        """Set the dublee aside face up and give the first wild card from the top of the stock
        (or the top card when the stock holds none)."""
        s.hands[p, card] -= 2
        s.set_aside[p, card] += 2
        s.hands[p, s.table.draw_first(s.wild)] += 1

    def _show(self, s: MarriageState, p: int) -> None:
        """A valid show wins the round; an invalid one (only offered under ``"penalize"``) puts
        the player out of the round with a fixed penalty."""
        hand = s.hands[p]
        if self.config.invalid_show == "forbid" or self.scorer(s).can_show(hand):
            self._end_round(s, p, shown=True)  # under "forbid" the mask offered only valid shows
            return
        s.dead.append(p)
        s.revealed[p] = hand
        s.fixed_penalty[p] = max(self.config.invalid_show_penalty, self.scorer(s).hand_value(hand))
        alive = self._seats_after(s, p)
        if len(alive) == 1:
            self._end_round(s, alive[0])
        else:
            self._next_turn(s, p)

    def _next_turn(self, s: MarriageState, p: int) -> None:
        s.table.drawn_discard = -1
        if s.turns >= self.config.max_turns_per_round:
            s.over = s.truncated = True
            return
        if not s.table.stock:  # deadlock: the table refills whenever it can, so nothing is
            self._end_round(s, -1)  # left to draw or recycle
            return
        s.phase = DRAW
        if s.dead or len(s.active) < self.num_players:
            s.current = self._seats_after(s, p)[0]
        else:  # every seat plays: the next one (the common case, every turn)
            s.current = (p + 1) % self.num_players

    # -- scoring and the session -------------------------------------------------------------
    def _end_round(self, s: MarriageState, winner: int, shown: bool = False) -> None:
        """Charge the round (``winner`` -1: void; ``shown``: the winner showed, rather than
        outlasting invalid shows) and either end the episode or deal again."""
        cfg = self.config
        n = self.num_players
        scorer = self.scorer(s)
        penalties = np.zeros(n, np.int64)
        players = {}
        for q in s.active:
            if winner < 0 or q in s.fixed_penalty:  # a void round charges no one
                penalties[q] = 0 if winner < 0 else s.fixed_penalty[q]
                hand = [card_str(c) for c in from_counts(s.hands[q])]
                players[q] = {"hand": hand, "invalid_show": q in s.fixed_penalty,
                              "penalty": int(penalties[q])}
                continue
            report = scorer.report(s.hands[q], shown=shown and q == winner)
            penalties[q] = 0 if q == winner else report["penalty"]
            report["penalty"] = int(penalties[q])
            players[q] = report
        s.history.append(
            {
                "round": s.rounds_played + 1,
                "tiebreak": s.tiebreak,
                "dealer": s.dealer,
                "indicator": card_str(s.indicator),
                "wild_rank": wild_rank_str(s.wild_rank),
                "winner": winner,
                "void": winner < 0,
                "penalties": penalties.tolist(),
                "players": players,
            }
        )
        s.totals += penalties
        s.rounds_played += 1
        won = self._round_reward(s, winner, penalties)
        if cfg.settle_each_round or cfg.episode == "round":
            s.returns += won
        if cfg.episode == "round":
            s.over, s.winner = True, winner
            return
        contenders = self._contenders(s, penalties)
        if contenders is None:
            s.dealer = (s.dealer + 1) % n
            self._deal(s)
        elif len(contenders) == 1:
            self._finish_match(s, contenders[0])
        else:
            s.tiebreak, s.tied = True, contenders
            s.active = list(range(n)) if cfg.tiebreak_players == "all" else contenders[:]
            s.dealer = (s.dealer + 1) % n
            self._deal(s)

    def _round_reward(self, s: MarriageState, winner: int, penalties: np.ndarray) -> np.ndarray:
        reward = np.zeros(self.num_players)
        if winner < 0:
            return reward
        rule = self.config.reward
        if rule == "points":
            reward -= penalties
        elif rule == "zero_sum":  # over every seat, as at the session's end (a sitting-out
            reward += penalties.mean() - penalties  # seat's penalty is 0)
        else:
            reward[s.active] = -1.0 / (len(s.active) - 1)
            reward[winner] = 1.0
        return reward

    def _contenders(self, s: MarriageState, penalties: np.ndarray) -> list[int] | None:
        """Players still in the running for the session after this round; ``None`` while the
        regular rounds go on."""
        cfg = self.config
        if s.tiebreak:
            round_pen = penalties[s.tied]
            return [q for q, v in zip(s.tied, round_pen, strict=True) if v == round_pen.min()]
        reached = cfg.target_score is not None and s.totals.max() >= cfg.target_score
        if not reached and s.rounds_played < cfg.rounds:
            return None
        return np.flatnonzero(s.totals == s.totals.min()).tolist()

    def _finish_match(self, s: MarriageState, winner: int) -> None:
        cfg = self.config
        s.over, s.winner = True, winner
        if cfg.settle_each_round:
            return
        n = self.num_players
        if cfg.reward == "points":
            s.returns = -s.totals.astype(float)
        elif cfg.reward == "zero_sum":
            s.returns = s.totals.mean() - s.totals.astype(float)
        else:
            s.returns = np.full(n, -1.0 / (n - 1))
            s.returns[winner] = 1.0

    # -- reporting -------------------------------------------------------------------------------
    def info(self, state: MarriageState, player: int) -> dict:
        info = series_info(state)
        if state.over:
            info["winner"] = state.winner
        return info

    def render(self, state: MarriageState, symbols: bool = True) -> str:
        t = state.table
        top = cards_str(t.discard[-1:], symbols) or "-"
        wild = wild_rank_str(state.wild_rank) or "printed jokers only"
        lines = [
            f"Marriage  round {state.rounds_played + (not state.over)}"
            f"{' (tie-break)' if state.tiebreak else ''}  dealer player_{state.dealer}  "
            f"indicator {card_str(state.indicator, symbols)}  wild {wild}  "
            f"stock {len(t.stock)}  discard {top} ({len(t.discard)})"
        ]
        for p in range(self.num_players):
            mark = "*" if p == self.current_player(state) else " "
            if p not in state.active:
                cards = "(sits out)"
            else:
                cards = cards_str(from_counts(state.hands[p]), symbols)
                if p in state.dead:
                    cards += "  (invalid show: out of the round)"
                if state.set_aside[p].any():
                    cards += f"  set aside: {cards_str(from_counts(state.set_aside[p]), symbols)}"
            lines.append(f"{mark}player_{p}  total {int(state.totals[p]):4d}  {cards}")
        if state.truncated:
            lines.append(f"round truncated after {state.turns} turns (max_turns_per_round)")
        elif state.over and state.history:
            last = state.history[-1]
            if last["void"]:
                lines.append("round void: nothing left to draw")
            else:
                shown = last["players"][last["winner"]]
                melds = " | ".join(" ".join(m["cards"]) for m in shown["melds"])
                lines.append(f"player_{last['winner']} showed: {melds}")
        return "\n".join(lines)
