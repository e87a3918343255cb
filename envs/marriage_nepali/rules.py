"""Traditional Nepali Marriage rules engine (spec: docs/rules/marriage-nepali.md).

Hands are count vectors over card kinds; stock, discard pile and the seats' pile records are
the shared rummy :class:`~taas.envs.rummy.table.Table`. Every rule question goes to the pure
functions of this package (:mod:`.combos` for showing and finishing, :mod:`.maal` and
:mod:`.settlement` for the score), so the engine and the score helpers cannot disagree.

Decisions where the spec leaves room (also in the doc page):
- the pre-play window asks only players holding a tunnela, and moves on by itself once they
  hold none;
- an abandoned show returns its cards and closes showing for the rest of the turn (it cannot
  loop); the cards were face up, so they stay public in nobody's record but the players' memory;
- under ``unseen_discard_pickup="complete_pure"`` the taken card must be in a combination of
  a show completed that turn: the take is offered only when such a show exists, and the turn
  then offers only show steps that keep one reachable;
- a foul (``foul_points``) is a maal card (tiplu, poplu, jhiplu face) discarded by a seen player
  to a seen next player;
- ``three_initial_tunnelas="win"`` ends the round when a third tunnela is exposed: that
  player wins by the sequence route, seen, with the tiplu drawn for the count;
- a session (``episode="match"``) deals again in the same state: the deal passes one seat in
  ``direction`` (2N.1.4), each deal pays its Net × stake when it ends, a void deal counts as
  dealt, and a deal cut by ``max_turns_per_round`` ends the whole episode as truncated; the
  session winner is the one highest total (-1 on a tie); fouls owed to the next winner lapse
  when the session ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from taas.envs.core.cards import JOKER, NUM_KINDS, card_str, cards_str, from_counts, shoe
from taas.envs.core.game import Game, State
from taas.envs.marriage_nepali import actions as A
from taas.envs.marriage_nepali import combos, maal, settlement, wilds
from taas.envs.marriage_nepali import search_kernel as K
from taas.envs.marriage_nepali.config import DECKS, HAND_SIZE, Config
from taas.envs.rummy.series import series_info
from taas.envs.rummy.table import Table

EXPOSE, DRAW, DISCARD, SHOW, OVER = range(5)
PHASES = ("expose", "draw", "discard", "show", "over")
NONE, SEQUENCE, DUBLEE = 0, 1, 2
ROUTES = ("none", "sequence", "dublee")
_RUNS = [A.run_cards(i) for i in range(4 * A.RUN_STARTS)]


@dataclass
class NepaliState(State):
    """Everything about one episode (a round, or a session of deals dealt in turn into the
    same state); face-up cards are kept per seat for the observation."""

    hands: np.ndarray  # (players, kinds): concealed cards
    exposed: np.ndarray  # (players, kinds): starting tunnelas exposed at the deal
    shown: np.ndarray  # (players, kinds): cards laid in a show (locked)
    records: np.ndarray  # (2, players, kinds): the table's discarded_by / taken_by
    table: Table
    dealer: int
    current: int
    phase: int = EXPOSE
    seen: list[bool] = field(default_factory=list)
    route: list[int] = field(default_factory=list)
    shown_combos: list[list[tuple[int, ...]]] = field(default_factory=list)
    asked: list[bool] = field(default_factory=list)  # had the pre-play window
    fouls: list[int] = field(default_factory=list)
    tiplu: int = -1
    building: int = NONE  # route of the show being built this turn
    show_closed: bool = False  # showed or abandoned a show this turn
    showed_now: bool = False  # completed a show this turn
    must_finish: bool = False  # took a discard that binds the turn to a finish
    must_show_with: int = -1  # complete_pure pickup: the card the show must use
    turns: int = 0
    over: bool = False
    truncated: bool = False
    winner: int = -1  # of the deal; of the session once a match episode is over
    returns: np.ndarray = field(default_factory=lambda: np.zeros(0))
    result: dict = field(default_factory=dict)  # of the last deal that ended
    totals: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # session money
    rounds_played: int = 0  # deals finished in this episode
    history: list[dict] = field(default_factory=list)  # each finished deal (match episodes)
    owed: list[int] = field(default_factory=list)  # foul points for the next winner

    def clone(self) -> NepaliState:
        """An independent copy for search: arrays and lists copied, the table rebuilt over the
        clone's own record views (``State.clone`` would split them from ``records``)."""
        c = object.__new__(NepaliState)
        d = c.__dict__
        d.update(self.__dict__)
        for name in ("hands", "exposed", "shown", "records", "returns", "totals"):
            d[name] = getattr(self, name).copy()
        for name in ("seen", "route", "asked", "fouls", "owed", "history"):
            d[name] = getattr(self, name)[:]
        d["shown_combos"] = [combos_[:] for combos_ in self.shown_combos]
        d["table"] = self.table.copy(c.records[0], c.records[1])
        return c


class NepaliGame(Game):
    """The engine: :class:`~taas.envs.core.game.Game` over :class:`NepaliState`."""

    env_id = "marriage_nepali_v0"
    num_actions = A.NUM_ACTIONS

    def __init__(self, config: Config):
        super().__init__(config)
        self.num_players = config.num_players
        self.step = -1 if config.direction == "anticlockwise" else 1
        self._shoe = shoe(DECKS, config.printed_jokers)
        self._ace_high = config.ace_sequence == "both_ends"
        self._splitters: dict[int, combos.Splitter] = {}
        self._roles: dict[int, wilds.Roles] = {}
        self._options = np.zeros(K.PURE_OPTIONS, np.int64)  # scratch for the show search
        self._stack = np.zeros(3, np.int64)  # a show needs at most 3 more combinations

    # -- set-up ------------------------------------------------------------------------------
    def new_state(self, rng: np.random.Generator) -> NepaliState:
        n = self.num_players
        records = np.zeros((2, n, NUM_KINDS), np.int32)
        table = Table(records[0], records[1], seed=int(rng.integers(2**63)),
                      reshuffle=self.config.stock_exhausted == "reshuffle",
                      reshuffle_on_draw=True)  # 2N.8: when a draw from the empty stock is made
        dealer = int(table.rng().integers(n))
        s = NepaliState(
            hands=np.zeros((n, NUM_KINDS), np.int8),
            exposed=np.zeros((n, NUM_KINDS), np.int8),
            shown=np.zeros((n, NUM_KINDS), np.int8),
            records=records, table=table, dealer=dealer, current=dealer,
            returns=np.zeros(n), totals=np.zeros(n, np.int64), owed=[0] * n,
        )
        self._deal(s)
        return s

    def _deal(self, s: NepaliState) -> None:
        """Deal a round from ``s.dealer`` (2N.1): every per-deal field starts afresh."""
        n = self.num_players
        s.hands[:] = s.exposed[:] = s.shown[:] = 0
        s.current, s.phase, s.turns = self.next_seat(s.dealer), EXPOSE, 0
        s.seen, s.route, s.asked, s.fouls = [False] * n, [NONE] * n, [False] * n, [0] * n
        s.shown_combos = [[] for _ in range(n)]
        s.tiplu, s.building, s.must_show_with, s.winner = -1, NONE, -1, -1
        s.show_closed = s.showed_now = s.must_finish = False
        table = s.table
        deck = table.shuffled(self._shoe)[::-1]  # dealt from the top, one card at a time
        order = self.seats_from(s.current)
        for i, p in enumerate(order):
            s.hands[p] = np.bincount(deck[i:n * HAND_SIZE:n], minlength=NUM_KINDS)
        rest = deck[n * HAND_SIZE:]
        table.start(rest[1:][::-1], [rest[0]])  # the offered card starts the pile
        self._open_window(s)

    def next_seat(self, p: int) -> int:
        """The player after ``p`` in ``direction``."""
        return (p + self.step) % self.num_players

    def seats_from(self, p: int) -> list[int]:
        """Every seat in play order starting with ``p``."""
        return [(p + self.step * i) % self.num_players for i in range(self.num_players)]

    def _open_window(self, s: NepaliState) -> None:
        """Start the current player's turn: the pre-play tunnela window if it is theirs."""
        if self.config.initial_tunnela_window == "before_first_draw":
            if s.turns == 0:
                for p in self.seats_from(s.current):
                    if not s.asked[p] and self._tunnelas(s, p).any():
                        s.phase, s.current = EXPOSE, p
                        return
                s.current = self.next_seat(s.dealer)
        elif not s.asked[s.current] and self._tunnelas(s, s.current).any():
            s.phase = EXPOSE
            return
        s.asked[s.current] = True
        s.phase = DRAW

    def _tunnelas(self, s: NepaliState, p: int) -> np.ndarray:
        return s.hands[p] >= 3

    # -- queries -----------------------------------------------------------------------------
    action_to_str = staticmethod(A.action_to_str)

    def roles(self, s: NepaliState) -> wilds.Roles | None:
        """This round's card roles once the tiplu is drawn."""
        if s.tiplu < 0:
            return None
        r = self._roles.get(s.tiplu)
        if r is None:
            r = self._roles[s.tiplu] = wilds.roles(s.tiplu, self.config.printed_jokers)
        return r

    def splitter(self, s: NepaliState) -> combos.Splitter:
        """The finishing search for this round's wild set (memoised per tiplu)."""
        sp = self._splitters.get(s.tiplu)
        if sp is None:
            sp = combos.Splitter(self.roles(s).wild, self._ace_high, self.config.max_meld_size)
            self._splitters[s.tiplu] = sp
        return sp

    def shoe(self, state: NepaliState) -> np.ndarray:
        return self._shoe

    def zones(self, state: NepaliState) -> dict[str, np.ndarray]:
        z = {f"hand_{p}": state.hands[p] for p in range(self.num_players)}
        z |= {f"exposed_{p}": state.exposed[p] for p in range(self.num_players)}
        z |= {f"shown_{p}": state.shown[p] for p in range(self.num_players)}
        z |= state.table.zones()
        z["tiplu"] = np.bincount([state.tiplu] if state.tiplu >= 0 else [],
                                 minlength=NUM_KINDS)
        return z

    def _can_complete(self, hand: np.ndarray, need: int, must: int) -> bool:
        """Whether ``need`` disjoint pure combinations can be laid from ``hand`` (one holding
        ``must`` when ``must >= 0``)."""
        return bool(K.can_complete(hand.copy(), need, must, self._ace_high, self._options,
                                   self._stack))

    def _need(self, s: NepaliState, p: int) -> int:
        """Pure combinations still to lay for a sequence-route show."""
        laid = int(s.exposed[p].sum()) // 3 + len(s.shown_combos[p])
        return max(0, 3 - laid)

    def _show_mask(self, s: NepaliState, p: int, mask: np.ndarray) -> None:
        hand = s.hands[p]
        must = s.must_show_with
        if any(must in combo for combo in s.shown_combos[p]):
            must = -1  # the taken card is already laid
        if s.building in (NONE, SEQUENCE):
            need = self._need(s, p)
            if s.building == NONE and need == 0:
                mask[A.SHOW_EXPOSED] = must < 0
            elif need:
                K.show_steps(hand.copy(), need, must, self._ace_high, mask, self._options,
                             self._stack)
        if s.building in (NONE, DUBLEE) and self.config.dublee_allowed and must < 0:
            pairs = hand[:self.config.dublee_kinds] >= 2
            if int(pairs.sum()) + len(s.shown_combos[p]) >= 7:
                mask[A.SHOW_DUBLEE:A.SHOW_DUBLEE + len(pairs)] = pairs

    def _legal_mask(self, s: NepaliState) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, np.int8)
        if s.over:
            return mask
        p, t, cfg = s.current, s.table, self.config
        hand = s.hands[p]
        if s.phase == EXPOSE:
            mask[A.EXPOSE:A.EXPOSE + NUM_KINDS] = hand >= 3
            mask[A.EXPOSE_DONE] = 1
        elif s.phase == DRAW:
            mask[A.DRAW_STOCK] = t.can_draw
            mask[A.DRAW_DISCARD] = t.top >= 0 and self._may_take(s, p, t.top)
        elif s.phase == SHOW:
            self._show_mask(s, p, mask)
            mask[A.ABANDON_SHOW] = s.must_show_with < 0
        else:
            banned = t.drawn_discard if cfg.forbid_rediscard_of_drawn_discard else -1
            if s.seen[p] and (not s.showed_now or cfg.finish_on_show_turn):
                self._finish_mask(s, p, mask, banned)
            if not s.seen[p] and not s.show_closed:
                self._show_mask(s, p, mask)
            if not s.must_finish and s.must_show_with < 0:
                mask[A.DISCARD:A.DISCARD + NUM_KINDS] = hand > 0
                if banned >= 0:
                    mask[A.DISCARD + banned] = 0
        return mask

    def _may_take(self, s: NepaliState, p: int, card: int) -> bool:
        """The discard-pile restrictions of spec 2N.2 for ``p`` taking ``card``."""
        cfg = self.config
        if not s.seen[p]:
            rule = cfg.unseen_discard_pickup
            if rule == "never":
                return False
            if rule == "complete_pure":
                hand = s.hands[p].copy()
                hand[card] += 1
                return self._can_complete(hand, self._need(s, p), card)
            return True
        if s.route[p] == DUBLEE:
            rule = cfg.dublee_discard_pickup
            return rule == "any" or (rule == "winning_only" and s.hands[p, card] >= 1
                                     and card < cfg.dublee_kinds)
        return cfg.seen_wild_pickup or card not in self.roles(s).wild

    def _finish_mask(self, s: NepaliState, p: int, mask: np.ndarray, banned: int) -> None:
        hand = s.hands[p]
        if s.route[p] == DUBLEE:
            if not self.config.dublee_finish_discard:
                mask[A.FINISH_ALL] = bool((hand[:self.config.dublee_kinds] >= 2).any())
                return
            ok = combos.dublee_discards(hand, self.config.dublee_kinds)
        else:
            ok = self.splitter(s).closing_discards(hand)
        for k in ok:
            if k != banned:
                mask[A.FINISH + k] = 1

    # -- transitions ---------------------------------------------------------------------------
    def _apply(self, s: NepaliState, a: int) -> None:
        self._step(s, a)
        if s.over and not s.truncated:  # the deal ended with this action
            self._close_deal(s)

    def _step(self, s: NepaliState, a: int) -> None:
        p, t = s.current, s.table
        if s.phase == EXPOSE:
            if a == A.EXPOSE_DONE or not self._expose(s, p, a - A.EXPOSE):
                if s.over:
                    return
                s.asked[p] = True
                if self.config.initial_tunnela_window == "before_first_draw":
                    s.current = self.next_seat(p)
                self._open_window(s)
            return
        if s.phase == DRAW:
            card = t.draw() if a == A.DRAW_STOCK else t.take(p)
            s.hands[p, card] += 1
            s.turns += 1
            s.phase = DISCARD
            if a == A.DRAW_DISCARD:
                if s.seen[p] and s.route[p] == DUBLEE and \
                        self.config.dublee_discard_pickup == "winning_only":
                    s.must_finish = True
                if not s.seen[p] and self.config.unseen_discard_pickup == "complete_pure":
                    s.must_show_with = card
            return
        if a == A.ABANDON_SHOW:
            for combo in s.shown_combos[p]:
                for c in combo:
                    s.shown[p, c] -= 1
                    s.hands[p, c] += 1
            s.shown_combos[p] = []
            s.phase, s.building, s.show_closed = DISCARD, NONE, True
        elif a >= A.SHOW_TUNNELA:
            self._show_step(s, p, a)
        elif a >= A.FINISH:
            closing = a - A.FINISH if a < A.FINISH_ALL else -1
            if closing >= 0:
                s.hands[p, closing] -= 1
                t.discard_card(p, closing)
            self._end(s, p)
        else:
            self._discard(s, p, a - A.DISCARD)

    def _expose(self, s: NepaliState, p: int, k: int) -> bool:
        """Expose tunnela ``k``; whether the window stays open for ``p``."""
        s.hands[p, k] -= 3
        s.exposed[p, k] += 3
        if self.config.three_initial_tunnelas == "win" and s.exposed[p].sum() >= 9:
            s.seen[p], s.route[p] = True, SEQUENCE
            self._draw_tiplu(s)
            if not s.over:
                self._end(s, p)
            return False
        return bool(self._tunnelas(s, p).any()) and not s.over

    def _show_step(self, s: NepaliState, p: int, a: int) -> None:
        if a == A.SHOW_EXPOSED:
            self._complete_show(s, p, SEQUENCE)
            return
        if a >= A.SHOW_DUBLEE:
            cards, route = (a - A.SHOW_DUBLEE,) * 2, DUBLEE
        elif a >= A.SHOW_RUN:
            cards, route = _RUNS[a - A.SHOW_RUN], SEQUENCE
        else:
            cards, route = (a - A.SHOW_TUNNELA,) * 3, SEQUENCE
        for c in cards:
            s.hands[p, c] -= 1
            s.shown[p, c] += 1
        s.shown_combos[p].append(tuple(cards))
        s.building, s.phase = route, SHOW
        done = len(s.shown_combos[p]) == 7 if route == DUBLEE else self._need(s, p) == 0
        if done:
            self._complete_show(s, p, route)

    def _complete_show(self, s: NepaliState, p: int, route: int) -> None:
        s.seen[p], s.route[p] = True, route
        s.building, s.phase, s.show_closed, s.showed_now = NONE, DISCARD, True, True
        s.must_show_with = -1
        self._draw_tiplu(s)

    def _draw_tiplu(self, s: NepaliState) -> None:
        """The first shower takes a uniform random stock card (never a printed joker) as the
        tiplu; it is out of play for the round. An empty stock is recycled first (2N.5, 2N.8);
        no card left: the round is void."""
        if s.tiplu >= 0:
            return
        s.table.refill()
        stock = s.table.stock
        options = [i for i, c in enumerate(stock) if c != JOKER]
        if not options:
            self._void(s)
            return
        i = options[int(s.table.rng().integers(len(options)))]
        s.tiplu = stock.pop(i)

    def _discard(self, s: NepaliState, p: int, card: int) -> None:
        cfg, t = self.config, s.table
        nxt = self.next_seat(p)
        if cfg.foul_points and s.tiplu >= 0 and s.seen[p] and s.seen[nxt]:
            r = self.roles(s)
            if card in (r.tiplu, r.poplu, r.jhiplu):
                s.fouls[p] += 1
        s.hands[p, card] -= 1
        t.discard_card(p, card)
        t.drawn_discard = -1
        s.show_closed = s.showed_now = s.must_finish = False
        s.building, s.must_show_with = NONE, -1
        if s.turns >= cfg.max_turns_per_round:
            s.over = s.truncated = True
            return
        if not t.can_draw:  # nothing to draw or recycle ("void": the stock is out)
            self._void(s)
            return
        s.current = nxt
        self._open_window(s)

    # -- the end -------------------------------------------------------------------------------
    def _void(self, s: NepaliState) -> None:
        s.over, s.phase, s.winner = True, OVER, -1
        s.result = {"void": True, "winner": -1}

    def holding(self, s: NepaliState, p: int) -> np.ndarray:
        """Every card ``p`` owns: concealed, shown and exposed (spec 2N.14 item 7)."""
        return s.hands[p] + s.shown[p] + s.exposed[p]

    def maal_counts(self, s: NepaliState) -> list[dict]:
        """Every seat's maal as if counted now (2N.9.4, raw: ``unseen_maal`` is the
        settlement's), with its items; the tiplu must be drawn."""
        cfg, roles = self.config, self.roles(s)
        marriage = tuple(sorted((roles.jhiplu, roles.tiplu, roles.poplu)))
        out = []
        for p in range(self.num_players):
            holding = self.holding(s, p)
            exposed = [int(k) for k in np.flatnonzero(s.exposed[p])]
            tunnelas = maal.scoped_tunnelas(cfg, holding, exposed, s.shown_combos[p])
            shown_marriages = sum(tuple(sorted(c)) == marriage for c in s.shown_combos[p])
            out.append(maal.count_maal(holding, roles, cfg, tunnelas, s.seen[p],
                                       shown_marriages))
        return out

    def _end(self, s: NepaliState, winner: int) -> None:
        """Count every holding's maal and settle (spec 2N.9)."""
        cfg, roles = self.config, self.roles(s)
        s.over, s.phase, s.winner = True, OVER, winner
        counts = self.maal_counts(s)
        raw = [c["maal"] for c in counts]
        players = [{"holding": cards_str(from_counts(self.holding(s, p))), "seen": s.seen[p],
                    "route": ROUTES[s.route[p]], **counted} for p, counted in enumerate(counts)]
        dublee = [p for p in range(self.num_players) if s.route[p] == DUBLEE]
        route = ROUTES[s.route[winner]]
        now = cfg.foul_payee == "winner"
        net = settlement.settle(raw, s.seen, winner, cfg, route, dublee,
                                s.fouls if now else None)
        s.result = {"void": False, "winner": winner, "route": route,
                    "net": net, "players": players, **roles.as_json()}
        if not now:  # Dhoos as W writes it: what was owed goes to this winner
            dhoos = [0 if p == winner else owed for p, owed in enumerate(s.owed)]
            for p, owed in enumerate(dhoos):
                net[p] -= owed
                net[winner] += owed
            s.result["dhoos"] = dhoos
            s.owed = [cfg.foul_points * f for f in s.fouls]

    def _close_deal(self, s: NepaliState) -> None:
        """Pay the deal that just ended (Net × its stake); in a session record it and deal the
        next one, or end the session (by deal count or ``target_score``)."""
        cfg, n = self.config, self.num_players
        stake = self.deal_stake(s)
        money = np.array(s.result.get("net", [0] * n), np.int64) * stake
        s.returns = s.returns + money
        if cfg.episode == "round":
            return
        if s.result["void"] and cfg.foul_payee == "next_winner":
            s.owed = [o + cfg.foul_points * f for o, f in zip(s.owed, s.fouls, strict=True)]
        s.totals += money
        s.history.append({"round": s.rounds_played + 1, "dealer": s.dealer, "stake": stake,
                          "money": money.tolist(), "penalties": (-money).tolist(), **s.result})
        s.rounds_played += 1
        reached = cfg.target_score is not None and s.totals.max() >= cfg.target_score
        if reached or (cfg.rounds is not None and s.rounds_played >= cfg.rounds):
            best = np.flatnonzero(s.totals == s.totals.max())
            s.winner = int(best[0]) if len(best) == 1 else -1
            return
        s.over = False
        s.dealer = self.next_seat(s.dealer)
        self._deal(s)

    def deal_stake(self, s: NepaliState) -> int:
        """The stake of the deal in play: ``stake``, doubled in every second cycle of
        ``num_players`` deals under ``better`` (W's "Better")."""
        cycle = s.rounds_played // self.num_players
        return self.config.stake * (2 if self.config.better and cycle % 2 else 1)

    # -- reporting -----------------------------------------------------------------------------
    def info(self, state: NepaliState, player: int) -> dict:
        info = {"seen": list(state.seen), "routes": [ROUTES[r] for r in state.route]}
        if self.config.episode == "match":
            info |= series_info(state)
            if state.over:
                info["winner"] = state.winner
            else:
                info["stake"] = self.deal_stake(state)
        if state.over:
            info["result"] = state.result
        return info

    def render(self, state: NepaliState, symbols: bool = True) -> str:
        t = state.table
        tiplu = card_str(state.tiplu, symbols) if state.tiplu >= 0 else "-"
        session = ""
        if self.config.episode == "match":
            session = (f"deal {state.rounds_played + (not state.over)}  stake "
                       f"{self.deal_stake(state)}  totals {state.totals.tolist()}  ")
        lines = [f"Nepali Marriage  {session}dealer player_{state.dealer}  tiplu {tiplu}  "
                 f"stock {len(t.stock)}  discard {cards_str(t.discard[-1:], symbols) or '-'}  "
                 f"phase {PHASES[state.phase]}"]
        for p in range(self.num_players):
            mark = "*" if p == self.current_player(state) else " "
            line = f"{mark}player_{p} {'seen' if state.seen[p] else 'unseen'}  " + cards_str(
                from_counts(state.hands[p]), symbols)
            for name, zone in (("exposed", state.exposed[p]), ("shown", state.shown[p])):
                if zone.any():
                    line += f"  {name}: {cards_str(from_counts(zone), symbols)}"
            lines.append(line)
        if state.truncated:
            lines.append(f"round truncated after {state.turns} turns (max_turns_per_round)")
        elif state.over:
            r = state.result
            lines.append("round void" if r["void"] else
                         f"player_{r['winner']} finished ({r['route']}); net {r['net']}")
        return "\n".join(lines)
