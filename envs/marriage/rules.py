"""Marriage rules engine (seed 000, spec shared/rules/marriage.md).

Hands are count vectors over card kinds; the stock and the discard pile are lists (top = last)
because the dublee swap searches the stock from the top and reshuffles need an order. Every
meld question (may this hand show, which discards show, a loser's minimum deadwood) goes
through :mod:`taas.envs.marriage.scoring`, which wraps the shared exact solver; the mask caches the
one solve a step needs.

Decisions where the spec leaves room (documented in the env docstring too):
- a printed-joker indicator under ``"redraw"`` goes back below the top card, so the next card
  turned is a different one; the number of redraws is public; under ``"aces_wild"`` with
  ``wild_scope="rank_and_suit"`` a joker indicator has no suit, so every ace is wild;
- ``forbid_rediscard_of_drawn_discard`` forbids discarding the kind just taken (either
  identical copy), as a plain discard and as a show's discard (spec §0 as written; a hand
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
from taas.envs.core.cards import JOKER, NUM_KINDS, card_str, cards_str, from_counts, shoe, shuffled
from taas.envs.core.game import Game, State
from taas.envs.core.series import series_info
from taas.envs.marriage import actions as A
from taas.envs.marriage.config import Config
from taas.envs.marriage.scoring import Scorer, wild_cards, wild_rank_str

DRAW, DISCARD, OVER = 0, 1, 2
PHASES = ("draw", "discard", "over")
FACE_UP = ("discarded_by", "taken_by", "set_aside", "revealed")


@dataclass
class MarriageState(State):
    """Everything about one episode; public history is kept incrementally for observations."""

    seed: int
    rng_state: dict
    """The episode generator's ``bit_generator.state``: replaced, never mutated, after each
    draw, so a clone shares it and copying a state never copies a generator."""
    hands: np.ndarray  # (players, kinds) counts
    face_up: np.ndarray
    """(4, players, kinds) int32: every card each seat showed this round, by how
    (``FACE_UP``); ``discarded_by`` etc. are views of it. A card can be discarded again after
    a reshuffle, so the first two records are not bounded by ``decks``."""
    pile_counts: np.ndarray  # (kinds,) the discard pile as counts
    totals: np.ndarray  # session penalty totals
    returns: np.ndarray
    dealer: int
    active: list[int]  # seats dealt in this round
    dead: list[int] = field(default_factory=list)  # seats out of this round by an invalid show
    fixed_penalty: dict[int, int] = field(default_factory=dict)
    stock: list[int] = field(default_factory=list)
    pile: list[int] = field(default_factory=list)
    indicator: int = -1
    first_up: int = -1  # the card turned to start the discard pile (no seat discarded it)
    wild: np.ndarray = field(default_factory=lambda: np.zeros(NUM_KINDS, bool))
    wild_rank: int = -1  # -1: no wild rank (printed jokers only)
    jokers_redrawn: int = 0
    phase: int = DRAW
    current: int = 0
    drawn_discard: int = -1
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
        (ints, the generator state, the wild flags and finished round records) is never
        mutated in place, so it is shared."""
        c = object.__new__(MarriageState)
        d = c.__dict__
        d.update(self.__dict__)
        d["hands"] = self.hands.copy()
        d["face_up"] = self.face_up.copy()
        d["pile_counts"] = self.pile_counts.copy()
        d["totals"] = self.totals.copy()
        d["returns"] = self.returns.copy()
        d["active"] = self.active[:]
        d["dead"] = self.dead[:]
        d["stock"] = self.stock[:]
        d["pile"] = self.pile[:]
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
        self._rng = np.random.default_rng(0)  # scratch: loaded from and saved to a state

    def _generator(self, s: MarriageState) -> np.random.Generator:
        """The episode's generator, positioned where ``s`` left it; :meth:`_save` after use."""
        self._rng.bit_generator.state = s.rng_state
        return self._rng

    def _save(self, s: MarriageState) -> None:
        s.rng_state = self._rng.bit_generator.state

    def scorer(self, state: MarriageState) -> Scorer:
        """The meld/penalty oracle for this round's wild cards (one per wild set, cached)."""
        key = state.wild.tobytes()
        if key not in self._scorers:
            self._scorers[key] = Scorer(self.config, state.wild)
        return self._scorers[key]

    # -- episode and round set-up -------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> MarriageState:
        seed = int(rng.integers(2**63))
        own = np.random.default_rng(seed)
        n = self.num_players
        dealer = int(own.integers(n))
        s = MarriageState(
            seed=seed,
            rng_state=own.bit_generator.state,
            hands=np.zeros((n, NUM_KINDS), np.int8),
            face_up=np.zeros((len(FACE_UP), n, NUM_KINDS), np.int32),
            pile_counts=np.zeros(NUM_KINDS, np.int16),
            totals=np.zeros(n, np.int64),
            returns=np.zeros(n),
            dealer=dealer,
            active=list(range(n)),
        )
        self._deal(s)
        return s

    def _deal(self, s: MarriageState) -> None:
        cfg = self.config
        rng = self._generator(s)
        deck = shuffled(self._shoe, rng)
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
        s.stock = deck[: len(deck) - m * size]
        s.jokers_redrawn = 0
        while True:
            s.indicator = s.stock.pop()
            if s.indicator != JOKER or cfg.printed_joker_indicator != "redraw":
                break
            s.stock.insert(int(rng.integers(len(s.stock))), JOKER)
            s.jokers_redrawn += 1
        self._save(s)
        s.wild, s.wild_rank = wild_cards(cfg, s.indicator)
        s.pile = [s.stock.pop()]
        s.first_up = s.pile[0]
        s.pile_counts[:] = 0
        s.pile_counts[s.pile[0]] = 1
        s.phase, s.drawn_discard, s.turns = DRAW, -1, 0
        s.current = seats[0]

    def _seats_after(self, s: MarriageState, seat: int) -> list[int]:
        """Seats still in the round clockwise from the left of ``seat`` (``seat`` itself last)."""
        n = self.num_players
        out = [(seat + k) % n for k in range(1, n + 1)]
        return [p for p in out if p in s.active and p not in s.dead]

    # -- queries ---------------------------------------------------------------------------
    action_to_str = staticmethod(A.action_to_str)

    def shoe(self, state: MarriageState) -> np.ndarray:
        return self._shoe

    def zones(self, state: MarriageState) -> dict[str, np.ndarray]:
        z = {f"hand_{p}": state.hands[p] for p in range(self.num_players)}
        z["stock"] = np.bincount(state.stock, minlength=NUM_KINDS)
        z["discard"] = state.pile_counts
        z["set_aside"] = state.set_aside.sum(axis=0).astype(np.int64)
        z["indicator"] = np.bincount([state.indicator], minlength=NUM_KINDS)
        return z

    def _legal_mask(self, s: MarriageState) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        if s.over:
            return mask
        if s.phase == DRAW:
            mask[A.DRAW_STOCK] = bool(s.stock)
            mask[A.DRAW_DISCARD] = bool(s.pile)
            return mask
        cfg = self.config
        hand = s.hands[s.current]
        held = hand > 0
        mask[A.DISCARD : A.SHOW] = held
        penalize = cfg.invalid_show == "penalize"
        if cfg.show_requires_discard:
            if penalize:
                mask[A.SHOW : A.SHOW_ALL] = held
            else:
                mask[A.SHOW : A.SHOW_ALL] = self.scorer(s).show_discards(hand)
            if cfg.forbid_rediscard_of_drawn_discard and s.drawn_discard >= 0:
                # spec §0: the card just taken is not discarded again, by a show neither
                mask[A.DISCARD + s.drawn_discard] = mask[A.SHOW + s.drawn_discard] = 0
        else:
            if cfg.forbid_rediscard_of_drawn_discard and s.drawn_discard >= 0:
                mask[A.DISCARD + s.drawn_discard] = 0
            mask[A.SHOW_ALL] = penalize or self.scorer(s).can_show(hand)
        if cfg.dublee_swap and s.stock:
            pairs = (hand >= 2) & ~s.wild
            mask[A.DUBLEE_SWAP : A.NUM_ACTIONS] = pairs
        return mask

    # -- transitions -------------------------------------------------------------------------
    def _apply(self, s: MarriageState, a: int) -> None:
        p = s.current
        if s.phase == DRAW:
            if a == A.DRAW_STOCK:
                card, s.drawn_discard = self._pop_stock(s), -1
            else:
                card = s.drawn_discard = s.pile.pop()
                s.pile_counts[card] -= 1
                s.taken_by[p, card] += 1
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
            s.pile.append(card)
            s.pile_counts[card] += 1
            s.discarded_by[p, card] += 1
            if a >= A.SHOW:
                self._show(s, p)
                return
        self._next_turn(s, p)

    def _swap(self, s: MarriageState, p: int, card: int) -> None:
        """Set the dublee aside face up and give the first wild card from the top of the stock
        (or the top card when the stock holds none)."""
        s.hands[p, card] -= 2
        s.set_aside[p, card] += 2
        for i in range(len(s.stock) - 1, -1, -1):
            if s.wild[s.stock[i]]:
                got = s.stock.pop(i)
                break
        else:
            got = s.stock.pop()
        s.hands[p, got] += 1
        self._refill(s)

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
        s.drawn_discard = -1
        if s.turns >= self.config.max_turns_per_round:
            s.over = s.truncated = True
            return
        self._refill(s)
        if not s.stock:  # deadlock: nothing left to draw or recycle
            self._end_round(s, -1)
            return
        s.phase, s.current = DRAW, self._seats_after(s, p)[0]

    def _pop_stock(self, s: MarriageState) -> int:
        card = s.stock.pop()
        self._refill(s)
        return card

    def _refill(self, s: MarriageState) -> None:
        """The moment the stock is empty, the discard pile except its top card is shuffled
        into a new stock."""
        if not s.stock and len(s.pile) > 1:
            s.stock = shuffled(np.bincount(s.pile[:-1], minlength=NUM_KINDS), self._generator(s))
            self._save(s)
            s.pile = s.pile[-1:]
            s.pile_counts[:] = 0
            s.pile_counts[s.pile[0]] = 1

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
            if winner < 0 or q in s.fixed_penalty:  # a void round charges no one (spec §2.5)
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
        top = cards_str(state.pile[-1:], symbols) or "-"
        wild = wild_rank_str(state.wild_rank) or "printed jokers only"
        lines = [
            f"Marriage  round {state.rounds_played + (not state.over)}"
            f"{' (tie-break)' if state.tiebreak else ''}  dealer player_{state.dealer}  "
            f"indicator {card_str(state.indicator, symbols)}  wild {wild}  "
            f"stock {len(state.stock)}  discard {top} ({len(state.pile)})"
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
