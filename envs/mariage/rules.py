"""The Mariage engine (rules: docs/rules/mariage.md): deal, legal actions, play, scoring, match.

State is a handful of ints, 32-bit card bitmasks and short lists, so a step is a few integer
operations and ``clone`` is a shallow copy of small lists (search agents clone a lot).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from enum import IntEnum

import numpy as np

from taas.envs.core.cards import NUM_KINDS
from taas.envs.core.game import Game, State
from taas.envs.mariage.actions import (
    CLAIM,
    CLOSE,
    EXCHANGE,
    KIND,
    KING,
    MARRY,
    NUM_ACTIONS,
    NUM_CARDS,
    POINTS,
    QUEEN,
    SEVEN,
    STRENGTH,
    SUIT,
    action_to_str,
    bits,
    card,
    cards_of,
    name,
)
from taas.envs.mariage.config import Config
from taas.envs.mariage.tricks import TrickRules

WIN_SCORE = 66
HAND_SIZE = 6
LAST_TRICK_BONUS = 10
TRICKS = TrickRules(SUIT, STRENGTH)
_BIT = tuple(1 << c for c in range(NUM_CARDS))
_PAIR = tuple(_BIT[card(KING, s)] | _BIT[card(QUEEN, s)] for s in range(4))
_SEVEN = tuple(card(SEVEN, s) for s in range(4))
_SUIT_BITS = tuple(sum(_BIT[c] for c in range(NUM_CARDS) if SUIT[c] == s) for s in range(4))


class Phase(IntEnum):
    """Whose decision of what kind: the leader before leading, the declarer of a marriage who
    must now lead its K or Q (or claim), the follower, or nobody."""

    LEAD = 0
    MARRIAGE = 1
    FOLLOW = 2
    OVER = 3


LEAD, MARRIAGE, FOLLOW, OVER = Phase.LEAD, Phase.MARRIAGE, Phase.FOLLOW, Phase.OVER


class MariageState(State):
    """One deal in progress (and the match around it). Per-player values are 2-lists indexed by
    player; card sets are bitmasks over card ids. ``talon[0]`` is the trump indicator (the last
    card drawn), ``talon[-1]`` the top. After a close the talon stays where it is, out of play.
    ``known[p]`` are cards in ``p``'s hand that the opponent has seen (marriage partners, the
    card taken by the trump-7 exchange, the indicator drawn last); ``voids[p]`` are the cards
    ``p`` has shown not to hold by failing to follow suit (or to trump) in the closed phase.
    The deal's record: ``moves`` (every action so far, all public), ``indicator`` (the card
    turned face up), ``dealt[p]`` (``p``'s six dealt cards) and ``drawn[p]`` (the cards ``p``
    drew, in order); ``dealt`` and ``drawn`` are ``p``'s own knowledge, like ``hands[p]``."""

    def __init__(self, seed: int, dealer: int):
        self.seed = seed
        self.deal_no = 0
        self.dealer = dealer
        self.game_points = [0, 0]
        self.raw_points = [0, 0]
        self.streak = [0, 0]
        self.returns = [0.0, 0.0]
        self.turns = 0
        self.truncated = False
        self.match_winner = -1
        self.results: list[dict] = []

    def clone(self) -> MariageState:
        new = object.__new__(MariageState)
        d = self.__dict__.copy()
        for k, v in d.items():
            if type(v) is list:
                d[k] = v.copy()
        new.__dict__ = d
        return new


class MariageGame(Game):
    """Two-player Mariage with every rule variant of :class:`Config`."""

    private_zones = ("talon",)  # face down (its trump card is a fact of the table view)

    env_id = "mariage_v1"
    num_players = 2
    num_actions = NUM_ACTIONS

    def __init__(self, config: Config | None = None):
        super().__init__(config or Config())
        self._config_dict = asdict(self.config)  # info() is built at every reset: keep it cheap

    # ---- dealing -------------------------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> MariageState:
        state = MariageState(int(rng.integers(2**62)), int(rng.integers(2)))
        self._deal(state)
        return state

    def _deal(self, s: MariageState) -> None:
        """Shuffle from (seed, deal number) so any deal of a match replays on its own."""
        order = np.random.default_rng([s.seed, s.deal_no]).permutation(NUM_CARDS).tolist()
        leader = 1 - s.dealer
        hands = [0, 0]
        for c in order[:HAND_SIZE]:
            hands[leader] |= _BIT[c]
        for c in order[HAND_SIZE:2 * HAND_SIZE]:
            hands[s.dealer] |= _BIT[c]
        self._setup(s, hands, order[2 * HAND_SIZE:], None)

    def deal_from_cards(self, hands: Sequence[Sequence[int]], talon: Sequence[int],
                        dealer: int = 0, seed: int = 0, trump: int | None = None) -> MariageState:
        """A fresh deal with the given cards (ids of :mod:`taas.envs.mariage.actions`): ``talon[0]``
        is the trump indicator, ``talon[-1]`` the next card drawn. For tests, puzzles and
        search agents that deal the hidden cards themselves; the cards are not checked to make
        up the pack. ``trump`` is needed only when the talon is empty (a late position)."""
        s = MariageState(seed, dealer)
        self._setup(s, [bits(hands[0]), bits(hands[1])], list(talon), trump)
        return s

    @staticmethod
    def _setup(s: MariageState, hands: list[int], talon: list[int], trump: int | None) -> None:
        s.hands = hands
        s.talon = talon
        s.dealt = (hands[0], hands[1])
        s.indicator = talon[0] if talon else -1
        s.drawn = [(), ()]
        s.moves = []
        s.trump = SUIT[talon[0]] if trump is None else trump
        s.phase = LEAD
        s.to_move = 1 - s.dealer
        s.lead = -1
        s.marriage_suit = -1
        s.closed_by = -1
        s.no_trick_at_close = False
        s.trick_points = [0, 0]
        s.bonus = [0, 0]
        s.tricks = [0, 0]
        s.marriage_points = [0, 0]
        s.marriages = [0, 0]
        s.played = [0, 0]
        s.won = [0, 0]
        s.known = [0, 0]
        s.voids = [0, 0]
        s.result = None
        s.mask = None

    # ---- queries ---------------------------------------------------------------------------
    def current_player(self, state: MariageState) -> int:
        return -1 if state.phase == OVER else state.to_move

    @staticmethod
    def score(state: MariageState, player: int) -> int:
        """Card points won + marriages (only once the player has a trick) + last-trick bonus."""
        pts = state.trick_points[player] + state.bonus[player]
        return pts + state.marriage_points[player] if state.tricks[player] else pts

    @staticmethod
    def is_open(state: MariageState) -> bool:
        """Open phase: the talon still has cards and nobody closed it."""
        return state.closed_by < 0 and bool(state.talon)

    def _legal_mask(self, s: MariageState) -> np.ndarray:
        m = bytearray(NUM_ACTIONS)
        if s.phase == OVER:
            return np.frombuffer(m, dtype=np.int8)
        p = s.to_move
        hand = s.hands[p]
        cfg = self.config
        open_ = s.closed_by < 0 and s.talon
        if s.phase == FOLLOW:
            if not open_:
                hand = TRICKS.follow_mask(hand, s.lead, s.trump, cfg.must_head_trick)
        elif s.phase == MARRIAGE:
            hand &= _PAIR[s.marriage_suit]
        else:
            if open_:
                if (hand & _BIT[_SEVEN[s.trump]] and len(s.talon) - 1 >= cfg.exchange_min_facedown
                        and (s.tricks[p] or not cfg.exchange_requires_trick)):
                    m[EXCHANGE] = 1
                m[CLOSE] = 1
            if open_ or cfg.marriages_in_closed_phase:
                for suit in range(4):
                    if hand & _PAIR[suit] == _PAIR[suit]:
                        m[MARRY + suit] = 1
        while hand:
            low = hand & -hand
            m[low.bit_length() - 1] = 1
            hand ^= low
        if cfg.allow_false_claims or self.score(s, p) >= WIN_SCORE:
            m[CLAIM] = 1
        return np.frombuffer(m, dtype=np.int8)

    # ---- moves -------------------------------------------------------------------------------
    def _apply(self, s: MariageState, action: int) -> None:
        p = s.to_move
        s.moves.append(action)
        if action < MARRY:
            bit = _BIT[action]
            s.hands[p] ^= bit
            s.played[p] |= bit
            s.known[p] &= ~bit
            if s.phase == FOLLOW:
                self._finish_trick(s, action)
            else:
                s.lead = action
                s.phase = FOLLOW
                s.to_move = 1 - p
        elif action < EXCHANGE:
            suit = action - MARRY
            s.marriages[p] |= 1 << suit
            s.marriage_points[p] += 40 if suit == s.trump else 20
            s.known[p] |= _PAIR[suit]
            s.marriage_suit = suit
            s.phase = MARRIAGE
        elif action == EXCHANGE:
            indicator = s.talon[0]
            s.talon[0] = _SEVEN[s.trump]
            s.hands[p] ^= _BIT[_SEVEN[s.trump]] | _BIT[indicator]
            s.known[p] |= _BIT[indicator]
        elif action == CLOSE:
            s.closed_by = p
            s.no_trick_at_close = not s.tricks[1 - p]
        else:
            self._claim(s, p)
        s.turns += 1
        if s.turns >= self.config.max_turns and s.phase != OVER:
            s.truncated = True
            s.phase = OVER

    def _finish_trick(self, s: MariageState, follow: int) -> None:
        lead = s.lead
        leader = 1 - s.to_move
        w = s.to_move if TRICKS.follower_wins(lead, follow, s.trump) else leader
        if not (s.closed_by < 0 and s.talon) and SUIT[follow] != SUIT[lead]:
            # the duty to follow suit, else to trump, makes a miss public knowledge
            s.voids[s.to_move] |= _SUIT_BITS[SUIT[lead]]
            if SUIT[follow] != s.trump:
                s.voids[s.to_move] |= _SUIT_BITS[s.trump]
        s.trick_points[w] += POINTS[lead] + POINTS[follow]
        s.tricks[w] += 1
        s.won[w] |= _BIT[lead] | _BIT[follow]
        s.lead = -1
        s.marriage_suit = -1
        if s.closed_by < 0 and s.talon:
            c = s.talon.pop()
            s.hands[w] |= _BIT[c]
            s.drawn[w] += (c,)
            c = s.talon.pop()
            s.hands[1 - w] |= _BIT[c]
            s.drawn[1 - w] += (c,)
            if not s.talon:  # the loser took the face-up indicator: both know it
                s.known[1 - w] |= _BIT[c]
        if s.hands[w]:
            s.phase = LEAD
            s.to_move = w
            return
        if self.config.last_trick_bonus and s.closed_by < 0:
            s.bonus[w] += LAST_TRICK_BONUS
        self._played_out(s)

    # ---- ending a deal ---------------------------------------------------------------------
    def _table(self, s: MariageState, loser: int) -> tuple[int, str]:
        """Game points for beating ``loser``: 3 if they took no trick, 2 below 33, else 1."""
        if not s.tricks[loser]:
            return 3, f"player_{loser} took no trick"
        sc = self.score(s, loser)
        return (2, f"player_{loser} has {sc} < 33") if sc < 33 else (1, f"player_{loser} has {sc}")

    def _closer_fails(self, s: MariageState, why: str) -> None:
        c, o = s.closed_by, 1 - s.closed_by
        cfg = self.config
        pts = cfg.closing_penalty_no_trick if s.no_trick_at_close else cfg.closing_penalty
        note = " (no trick when the talon was closed)" if s.no_trick_at_close else ""
        self._end_deal(s, o, pts, f"player_{c} closed the talon and {why}{note}")

    def _claim(self, s: MariageState, p: int) -> None:
        sc = self.score(s, p)
        if sc < WIN_SCORE:
            self._end_deal(s, 1 - p, self.config.false_claim_points,
                           f"player_{p} claimed 66 falsely with {sc}")
        elif s.closed_by == 1 - p:
            self._closer_fails(s, f"player_{p} claimed 66 first with {sc}")
        else:
            pts, why = self._table(s, 1 - p)
            self._end_deal(s, p, pts, f"player_{p} claimed 66 with {sc}; {why}")

    def _played_out(self, s: MariageState) -> None:
        c = s.closed_by
        if c >= 0:
            sc = self.score(s, c)
            if sc < WIN_SCORE:
                self._closer_fails(s, f"ended with {sc} < 66")
                return
            pts, why = self._table(s, 1 - c)
            self._end_deal(s, c, pts, f"player_{c} closed and made {sc}; {why}")
            return
        s0, s1 = self.score(s, 0), self.score(s, 1)
        w = 0 if s0 > s1 else 1 if s1 > s0 else 1 - s.dealer
        tie = " (tie: the non-dealer wins)" if s0 == s1 else ""
        pts, why = self._table(s, 1 - w)
        self._end_deal(s, w, pts, f"all tricks played, {s0}-{s1}{tie}; {why}")

    def _end_deal(self, s: MariageState, winner: int, points: int, reason: str) -> None:
        cfg = self.config
        loser = 1 - winner
        scores = [self.score(s, 0), self.score(s, 1)]
        s.result = {"deal": s.deal_no, "dealer": s.dealer, "winner": winner,
                    "game_points": points, "scores": scores, "closed_by": s.closed_by,
                    "reason": f"player_{winner} wins {points} game point(s): {reason}"}
        s.results.append(s.result)
        s.game_points[winner] += points
        s.raw_points[0] += scores[0]
        s.raw_points[1] += scores[1]
        s.streak[winner] += 1
        s.streak[loser] = 0
        delta = points if cfg.reward == "points" else 1
        if cfg.reward == "points" or cfg.episode == "deal":
            s.returns[winner] += delta
            s.returns[loser] -= delta
        if cfg.episode == "deal":
            s.phase = OVER
            return
        s.match_winner = self._match_winner(s)
        if s.match_winner >= 0:
            s.phase = OVER
            if cfg.reward == "win":
                s.returns[s.match_winner] += 1
                s.returns[1 - s.match_winner] -= 1
            return
        s.deal_no += 1
        s.dealer = 1 - s.dealer
        self._deal(s)

    def _match_winner(self, s: MariageState) -> int:
        """Game points: each deal scores for one player only, so both can never reach the target
        together. Raw points: both can; the higher total wins, an exact tie plays on."""
        target = self.config.target
        mode = self.config.match_mode
        if mode == "game_points":
            assert min(s.game_points) < target, "both players reached the target"
            return next((p for p in (0, 1) if s.game_points[p] >= target), -1)
        if mode == "three_in_a_row":
            return next((p for p in (0, 1) if s.streak[p] >= target), -1)
        r0, r1 = s.raw_points
        if max(r0, r1) < target or r0 == r1:
            return -1
        return 0 if r0 > r1 else 1

    # ---- contract ------------------------------------------------------------------------------
    action_to_str = staticmethod(action_to_str)

    def is_terminal(self, state: MariageState) -> bool:
        return state.phase == OVER

    def zones(self, state: MariageState) -> dict[str, np.ndarray]:
        lead = _BIT[state.lead] if state.lead >= 0 else 0
        talon = 0
        for c in state.talon:
            talon |= _BIT[c]
        masks = {"hand_0": state.hands[0], "hand_1": state.hands[1], "talon": talon,
                 "trick": lead, "won_0": state.won[0], "won_1": state.won[1]}
        return {k: _counts(m) for k, m in masks.items()}

    def shoe(self, state: MariageState) -> np.ndarray:
        return _counts((1 << NUM_CARDS) - 1)

    def info(self, state: MariageState, player: int) -> dict:
        out = {"deal": state.deal_no, "dealer": state.dealer, "trump": state.trump,
               "scores": [self.score(state, 0), self.score(state, 1)],
               "game_points": list(state.game_points), "config": dict(self._config_dict)}
        if state.phase == OVER and not state.truncated:
            out["result"] = state.result
            if self.config.episode == "match":
                out["deals"] = list(state.results)
                out["match_winner"] = state.match_winner
                out["raw_points"] = list(state.raw_points)
        return out

    def render(self, state: MariageState, symbols: bool = True) -> str:
        def cs(mask: int) -> str:
            return " ".join(name(c, symbols) for c in cards_of(mask)) or "-"

        talon = (f"closed by player_{state.closed_by}" if state.closed_by >= 0
                 else f"{len(state.talon)} cards" if state.talon else "exhausted")
        lines = [f"deal {state.deal_no}, dealer player_{state.dealer}, "
                 f"trump {'♠♥♦♣'[state.trump] if symbols else 'SHDC'[state.trump]}, talon {talon}"
                 + (f", indicator {name(state.talon[0], symbols)}" if self.is_open(state) else "")]
        for p in (0, 1):
            mark = ">" if self.current_player(state) == p else " "
            lines.append(f"{mark}player_{p}: {cs(state.hands[p])}  score {self.score(state, p)} "
                         f"({state.tricks[p]} tricks, marriages {state.marriage_points[p]}) "
                         f"game points {state.game_points[p]}")
        if state.lead >= 0:
            lines.append(f"trick: {name(state.lead, symbols)} led")
        if state.phase == OVER and state.result:
            lines.append(state.result["reason"])
        return "\n".join(lines)


def _counts(mask: int) -> np.ndarray:
    out = np.zeros(NUM_KINDS, dtype=np.int8)
    for c in cards_of(mask):
        out[KIND[c]] += 1
    return out
