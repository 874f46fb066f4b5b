"""The oracle of the games defined from a description (docs/define.rst):
the trick-taking rules read from the :class:`pycards.define.TrickGame`
itself (its fields, not the engine's table), written plainly.

:func:`oracle_for` makes the reference state class of one description;
each port's oracle module (``reference.hearts``...) registers its own.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from pycards.cards import Card
from pycards.define import TrickGame

from .game import SEEN_ALL, TERMINAL, RefState
from .rng import Rng

__all__ = ["DefinedRef", "oracle_for"]

RANKS = "A23456789TJQK"
SUITS = "CDHS"
(NEW_DEAL, DEAL_CARD, TURNUP, PASS, RECEIVE, BID, PLAY, TRICK, SCORE, GAME_OVER) = range(10)
BID0 = 52


def suit(card: int) -> int:
    return card // 13


class DefinedRef(RefState):
    """A defined game's reference state (the rules of its description)."""

    DESC: ClassVar[TrickGame]
    NUM_PARAMS = 1
    DECK_SIZE = 52

    @classmethod
    def check_params(cls, params: tuple[int, ...], nplayers: int) -> str | None:
        if not -1 <= params[0] < nplayers:
            return "first_dealer"
        return None

    def __init__(
        self, params: tuple[int, ...], nplayers: int, seed: int, deck: list[int] | None = None
    ) -> None:
        super().__init__(params, nplayers, seed)
        d = self.DESC
        self.n = nplayers
        self.rng = Rng(seed)
        drawn = self.rng.below(nplayers)
        self.dealer = params[0] if params[0] >= 0 else drawn
        self.deck = [c for c in range(52) if RANKS[c % 13] in d.ranks]
        self.stack = None if deck is None else [c for c in deck if c in self.deck]
        self.points_of = [0] * 52
        for key, value in d.card_points.items():
            for c in self.deck:
                if (len(key) == 1 and suit(c) == SUITS.index(key)) or (
                    len(key) > 1 and c == int(Card.parse(key))
                ):
                    self.points_of[c] = value
        self.score = [0] * nplayers
        self.bags = [0] * nplayers
        self.deal_no = 0
        self.log: list[tuple[int, int, int, int, int, int]] = []
        self.over = False
        self.start_deal()

    # -- the deal ------------------------------------------------------------
    def strength(self, card: int) -> int:
        return self.DESC.rank_order.index(RANKS[card % 13])

    def side(self, seat: int) -> int:
        return seat % 2 if self.DESC.partners else seat

    def direction(self) -> int:
        p = self.DESC.passing
        return 0 if p is None else p.directions[self.deal_no % len(p.directions)]

    def event(self, *e: int) -> None:
        self.log.append(e)  # type: ignore[arg-type]

    def start_deal(self) -> None:
        d, n = self.DESC, self.n
        if self.stack is not None:
            order, self.stack = self.stack, None
        else:
            order = list(self.deck)
            self.rng.shuffle(order)
        h = d.hand_sizes[self.deal_no % len(d.hand_sizes)] or len(self.deck) // n
        self.h = h
        self.event(NEW_DEAL, self.dealer, -1, self.deal_no, 0, SEEN_ALL)
        self.hands: list[set[int]] = [set() for _ in range(n)]
        for k in range(n * h):
            seat = (self.dealer + 1 + k) % n
            self.hands[seat].add(order[k])
            self.event(DEAL_CARD, seat, -1, order[k], 0, 1 << seat)
        self.trump = SUITS.index(d.trump_suit) if d.trump == "fixed" and d.trump_suit else -1
        self.turnup = -1
        if d.trump == "turnup":
            self.turnup = order[n * h]
        elif d.trump == "dealer_card":
            self.turnup = order[n * h - 1]
        if self.turnup >= 0:
            self.trump = suit(self.turnup)
            self.event(TURNUP, self.dealer, -1, self.turnup, self.trump, SEEN_ALL)
        self.passed: list[set[int]] = [set() for _ in range(n)]
        self.received: list[set[int]] = [set() for _ in range(n)]
        self.bids = [-1] * n
        self.tricks = [0] * n
        self.points = [0] * n
        self.point_cards = [0] * n
        self.trick: list[tuple[int, int]] = []  # (seat, card) in play order
        self.done_tricks: list[int] = []
        self.trick_no = 0
        self.broken = False
        self.to_act = (self.dealer + 1) % n
        if d.passing is not None and self.direction() != 0:
            self.phase = "pass"
        elif d.bidding is not None:
            self.phase = "bid"
        else:
            self.begin_play()

    def begin_play(self) -> None:
        self.phase = "play"
        self.to_act = (self.dealer + 1) % self.n
        if self.DESC.lead == "card":
            card = int(Card.parse(self.DESC.lead_card or ""))
            for q in range(self.n):
                if card in self.hands[q]:
                    self.to_act = q

    # -- the protocol ----------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.over else self.to_act

    def num_actions(self) -> int:
        d = self.DESC
        if d.bidding is None:
            return 52
        most = max(h or len(self.deck) // d.player_range[0] for h in d.hand_sizes)
        return 52 + most + 1

    def tensor_size(self) -> int:
        return 52 * (self.n + 5) + 4 + 3 + 4 * self.n

    def legal_cards(self) -> set[int]:
        d = self.DESC
        hand = self.hands[self.to_act]
        if not self.trick:
            if self.trick_no == 0 and d.lead == "card":
                card = int(Card.parse(d.lead_card or ""))
                if card in hand:
                    return {card}
            cards = set(hand)
            if d.break_suit is not None and not self.broken:
                others = {c for c in hand if suit(c) != SUITS.index(d.break_suit)}
                if others:
                    cards = others
        else:
            led = suit(self.trick[0][1])
            follow = {c for c in hand if suit(c) == led}
            cards = follow or set(hand)
            trumps = {c for c in hand if suit(c) == self.trump}
            if not follow and trumps and d.must_trump:
                cards = trumps
            if not follow and trumps and d.must_overtrump:
                played = [self.strength(c) for _, c in self.trick if suit(c) == self.trump]
                if played:
                    over = {c for c in trumps if self.strength(c) > max(played)}
                    if over:
                        cards = over
        if self.trick_no == 0 and d.no_points_first_trick:
            safe = {c for c in cards if self.points_of[c] == 0}
            if safe:
                cards = safe
        return cards

    def bids_allowed(self) -> list[int]:
        out = []
        for b in range(self.h + 1):
            last = sum(1 for x in self.bids if x >= 0) == self.n - 1
            total = sum(x for x in self.bids if x >= 0)
            if self.DESC.bidding and self.DESC.bidding.hook and last and total + b == self.h:
                continue
            partner = self.bids[(self.to_act + 2) % self.n]
            if self.DESC.bidding and self.DESC.bidding.side_limit and partner + b > self.h:
                continue
            out.append(b)
        return out

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        if self.phase == "pass":
            return sorted(self.hands[self.to_act])
        if self.phase == "bid":
            return [BID0 + b for b in self.bids_allowed()]
        return sorted(self.legal_cards())

    def verify(self, action: int) -> int:
        if self.over:
            return -3
        return 0 if action in self.legal_actions() else 1

    def _apply(self, action: int) -> None:
        d, n, q = self.DESC, self.n, self.to_act
        if self.phase == "pass":
            to = (q + self.direction()) % n
            self.hands[q].remove(action)
            self.passed[q].add(action)
            self.event(PASS, q, to, action, 0, 1 << q)
            assert d.passing is not None
            if len(self.passed[q]) < d.passing.count:
                return
            self.to_act = (q + 1) % n
            if self.to_act != (self.dealer + 1) % n:
                return
            for r in range(n):
                t = (r + self.direction()) % n
                self.received[t] = set(self.passed[r])
                self.hands[t] |= self.passed[r]
                for c in sorted(self.passed[r]):
                    self.event(RECEIVE, t, r, c, 0, (1 << t) | (1 << r))
            if d.bidding is not None:
                self.phase = "bid"
                self.to_act = (self.dealer + 1) % n
            else:
                self.begin_play()
            return
        if self.phase == "bid":
            self.bids[q] = action - BID0
            self.event(BID, q, -1, action - BID0, 0, SEEN_ALL)
            self.to_act = (q + 1) % n
            if all(b >= 0 for b in self.bids):
                self.begin_play()
            return
        if self.trick and suit(action) != suit(self.trick[0][1]):
            pass  # a void shown (the sampler's business)
        self.hands[q].remove(action)
        self.trick.append((q, action))
        if d.break_suit is not None and d.breaks == "played":
            by_card = d.break_card is not None and action == int(Card.parse(d.break_card))
            if suit(action) == SUITS.index(d.break_suit) or by_card:
                self.broken = True
        self.event(PLAY, q, -1, action, self.trick_no, SEEN_ALL)
        if len(self.trick) < n:
            self.to_act = (q + 1) % n
            return
        led = suit(self.trick[0][1])

        def power(c: int) -> int:
            if suit(c) == self.trump:
                return 100 + self.strength(c)
            return 1 + self.strength(c) if suit(c) == led else 0

        winner = max(self.trick, key=lambda sc: power(sc[1]))[0]
        value = sum(self.points_of[c] for _, c in self.trick)
        self.point_cards[winner] += sum(1 for _, c in self.trick if self.points_of[c])
        self.tricks[winner] += 1
        self.points[winner] += value
        self.event(TRICK, winner, -1, value, self.trick_no, SEEN_ALL)
        self.done_tricks += [c for _, c in self.trick]
        self.trick = []
        self.trick_no += 1
        self.to_act = winner
        if self.trick_no == self.h:
            self.score_deal()

    def score_deal(self) -> None:
        d, n = self.DESC, self.n
        pts = list(self.points)
        if d.shoot_the_moon:
            all_cards = sum(1 for c in self.deck if self.points_of[c])
            for q in range(n):
                if all_cards and self.point_cards[q] == all_cards:
                    total = sum(pts)
                    pts = [0 if r == q else total for r in range(n)]
        sides = sorted({self.side(q) for q in range(n)})
        deal = dict.fromkeys(sides, 0)
        for q in range(n):
            deal[self.side(q)] += pts[q]
        nil = d.bidding is not None and d.bidding.nil
        c = d.contract
        for s in sides:
            seats = [q for q in range(n) if self.side(q) == s]
            nils = [q for q in seats if nil and self.bids[q] == 0]
            bidders = [q for q in seats if q not in nils]
            counted = seats if c is not None and c.nil_tricks_count else bidders
            won = sum(self.tricks[q] for q in counted)
            bid = sum(max(self.bids[q], 0) for q in bidders)
            bags = 0
            for q in nils:
                assert c is not None
                deal[s] += c.nil_bonus if self.tricks[q] == 0 else -c.nil_bonus
                if not c.nil_tricks_count:
                    bags += self.tricks[q]
            if c is None or d.trick_points_always:
                deal[s] += d.trick_points * max(0, won - d.book)
            if c is not None and (bidders or c.nil_tricks_count):
                made = won == bid if c.kind == "exact" else won >= bid
                if made:
                    deal[s] += c.made_bonus + c.made_per_bid * bid + c.over_per_trick * (won - bid)
                    bags += won - bid
                else:
                    deal[s] += c.set_per_bid * bid
            if c is not None and c.bag_limit:
                self.bags[s] += bags
                while self.bags[s] >= c.bag_limit:
                    self.bags[s] -= c.bag_limit
                    deal[s] += c.bag_penalty
        for q in range(n):
            self.score[q] += deal[self.side(q)]
            self.event(SCORE, q, -1, deal[self.side(q)], self.score[q], SEEN_ALL)
        over = bool(d.deals) and self.deal_no + 1 >= d.deals
        for q in range(n):
            t = d.target
            if t is not None and ((t > 0 and self.score[q] >= t) or (t < 0 and self.score[q] <= t)):
                over = True
            if d.floor is not None and self.score[q] <= d.floor:
                over = True
        if over:
            best = max(range(n), key=lambda q: (self.score[q], -q))
            self.over = True
            self.event(GAME_OVER, best, -1, self.score[best], 0, SEEN_ALL)
            return
        self.deal_no += 1
        self.dealer = (self.dealer + 1) % n
        self.start_deal()

    def returns(self) -> list[int]:
        return list(self.score)

    def observe_tensor(self, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        n = self.n
        out = np.zeros(self.tensor_size(), dtype=np.float32)

        def cards(offset: int, which: set[int] | list[int]) -> None:
            for c in which:
                out[offset + c] = 1.0

        cards(0, self.hands[player])
        for q, c in self.trick:
            out[52 + 52 * ((q - player) % n) + c] = 1.0
        o = 52 + 52 * n
        cards(o, self.done_tricks)
        if self.turnup >= 0:
            out[o + 52 + self.turnup] = 1.0
        if self.trump >= 0:
            out[o + 104 + self.trump] = 1.0
        o += 108
        cards(o, self.passed[player])
        cards(o + 52, self.received[player])
        o += 104
        for r in range(n):
            q = (player + r) % n
            out[o + r] = self.bids[q]
            out[o + n + r] = self.tricks[q]
            out[o + 2 * n + r] = self.score[q]
        o += 3 * n
        if not self.over:
            out[o + ("pass", "bid", "play").index(self.phase)] = 1.0
        out[o + 3 + (self.dealer - player) % n] = 1.0
        return out

    def events(self) -> list[tuple[int, int, int, int, int, int]]:
        return list(self.log)

    def sample_infoset(self, player: int, seed: int) -> RefState:
        """Not twinned: the sampler is tested by exact counts (tests/games/define/)."""
        raise NotImplementedError("the defined games' sampler is tested by exact counts")


def oracle_for(desc: TrickGame) -> type[DefinedRef]:
    """The reference state class of ``desc`` (register it with the game's name)."""
    lo, hi = desc.player_range
    return type(
        f"{desc.title}Ref",
        (DefinedRef,),
        {"NAME": desc.name, "DESC": desc, "MIN_PLAYERS": lo, "MAX_PLAYERS": hi},
    )
