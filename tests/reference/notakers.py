"""No Takers? (docs/notakers.rst), the reference: the game written plainly, and the scorer.

The game follows the encoding of docs/notakers.rst: the same parameters,
actions, phases, events and observation tensor.  It deals only from a given
deck (the tests stack the C engine's deck the same way), so it shares no
shuffle with the engine; it has no information-set sampler (the tests check
the engine's by exact counts and chi-square tests instead).  The scorer is
the exhaustive search of :mod:`reference.notakers_split`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .game import SEEN_ALL, TERMINAL, RefState, register
from .notakers_split import (
    notakers_batch_points,
    notakers_best_split,
    notakers_points,
    notakers_splits_exactly,
)

__all__ = [
    "NoTakersState",
    "notakers_batch_points",
    "notakers_best_split",
    "notakers_knowledge",
    "notakers_points",
    "notakers_splits_exactly",
]

# actions
DRAW, SAVE_DONE, SAVE_CANCEL, GIVE_DONE = 0, 1, 2, 3
SAVE, GIVE, ASK = 4, 56, 108
NUM_DESCRIPTORS = 69

# phases
TURN, SAVING, GIVING, FALLBACK, NO_TAKERS, OVER = range(6)

# events
EV_DEAL, EV_DRAW, EV_SAVE, EV_ASK, EV_PASS, EV_GIVE, EV_NO_TAKERS, EV_SCORE, EV_GAME_OVER = range(9)

LOG_CAPACITY = 256  # the events a state keeps: the last 256
ALL_CARDS = set(range(52))

REASONS = {
    1: "the game is over",
    2: "action out of range",
    3: "not allowed in this phase",
    4: "card not in hand",
    5: "card already chosen for the save",
    6: "a save needs at least 3 cards in hand",
    7: "a save needs at least 3 cards",
    8: "the saved cards must split into sets with none left over",
    9: "card does not match the ask",
    10: "give at least one card first",
    11: "no set of 3 or more cards in hand to save",
    12: "two Saves were cancelled this turn: no more Save this turn",
}


def _bits(cards: set[int]) -> int:
    """The engine bitset of a set of dense card ids."""
    return sum(1 << (16 * (c // 13) + c % 13) for c in cards)


def _matches(card: int, descriptor: int) -> bool:
    if descriptor < 13:
        return card % 13 == descriptor
    if descriptor < 17:
        return card // 13 == descriptor - 13
    return card == descriptor - 17


def _compare_splits(a: tuple[int, list[Any]], b: tuple[int, list[Any]]) -> int:
    """Compare (points, sets) by points, then keys (docs/notakers.rst, scoring)."""
    strength = {0: 0, 1: 2, 2: 3, 3: 1}
    ka = (a[0], [(s[3], s[4], strength[s[5]]) for s in a[1]])
    kb = (b[0], [(s[3], s[4], strength[s[5]]) for s in b[1]])
    return (ka > kb) - (ka < kb)


@register
class NoTakersState(RefState):
    """A game of No Takers? (reference)."""

    NAME: ClassVar[str] = "notakers"
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 8
    NUM_PARAMS: ClassVar[int] = 7
    REASONS: ClassVar[dict[int, str]] = REASONS
    DECK_SIZE: ClassVar[int] = 52

    @classmethod
    def check_params(cls, params: tuple[int, ...], nplayers: int) -> str | None:
        limits = {
            "save_requires_set": 1,
            "save_visibility": 1,
            "pass_fallback": 2,
            "short_draw": 1,
            "max_turns": 1000000,
            "ace_in_runs": 2,
            "tiebreak_ace": 1,
        }
        for (name, top), value in zip(limits.items(), params, strict=True):
            if not 0 <= value <= top:
                return f"{name} must be 0..{top}, got {value}"
        return None

    def __init__(
        self, params: tuple[int, ...], nplayers: int, seed: int, deck: list[int] | None = None
    ) -> None:
        super().__init__(params, nplayers, seed)
        (
            self.save_requires_set,
            self.save_open,
            self.pass_fallback,
            self.short_draw,
            self.max_turns,
            self.ace_in_runs,
            self.tiebreak_ace,
        ) = params
        n = nplayers
        self.hands: list[set[int]] = [set() for _ in range(n)]
        self.saves: list[set[int]] = [set() for _ in range(n)]
        self.log: list[tuple[int, int, int, int, int, int]] = []
        self.phase = TURN
        self.turn_player = 0
        self.actor = 0
        self.turns = 0
        self.selection: set[int] = set()
        self.cancels = 0  # Saves cancelled this turn
        self.ask_target = -1
        self.ask_descriptor = -1
        self.given = 0  # cards given by the current giver
        self.anyone_gave = False
        self.fallback_offset = 0  # seat offset from the asked player
        self.fallback_gave: set[int] = set()
        self.receiver_offset = 0  # No Takers: seat offset from the asker
        self.points = [0] * n
        # What each observer knows of each seat's cards (docs/notakers.rst):
        # in_hand[o][q] in q's hand, held[o][q] in q's hand or save pile,
        # not_in_hand[o][q] not in q's hand.
        self.in_hand: list[list[set[int]]] = [[set() for _ in range(n)] for _ in range(n)]
        self.held: list[list[set[int]]] = [[set() for _ in range(n)] for _ in range(n)]
        self.not_in_hand: list[list[set[int]]] = [[set() for _ in range(n)] for _ in range(n)]
        # Shuffle (or take the given deck, top first); deal floor(26/n) each
        # from the first half, one at a time.
        if deck is None:
            raise ValueError("the No Takers? oracle deals only from a given deck")
        deck = list(deck)
        each = 26 // n
        for i in range(each * n):
            self.hands[i % n].add(deck[i])
            self._log(EV_DEAL, i % n, 0, deck[i], 0, {i % n})
        self.pile = deck[each * n :]  # the rest of the half joins the other half
        self._start_turn(0)

    # -- helpers -----------------------------------------------------------
    def _log(
        self, kind: int, player: int, target: int, value: int, extra: int, seen: set[int] | None
    ) -> None:
        seen_by = SEEN_ALL if seen is None else sum(1 << p for p in seen)
        self.log.append((kind, player, target, value, extra, seen_by))

    def _matching_cards(self) -> set[int]:
        return {c for c in range(52) if _matches(c, self.ask_descriptor)}

    def _learn_no_match(self, seat: int) -> None:
        """Everybody saw that ``seat`` held no card matching the ask."""
        for o in range(self.nplayers):
            if o != seat:
                self.not_in_hand[o][seat] |= self._matching_cards()

    def _matching(self, player: int) -> set[int]:
        return {c for c in self.hands[player] if _matches(c, self.ask_descriptor)}

    def _has_set_to_save(self, hand: set[int]) -> bool:
        """A trips, two pairs or a run of three (as ace_in_runs allows) in hand."""
        counts = [sum(1 for c in hand if c % 13 == r) for r in range(13)]
        if max(counts) >= 3 or sum(1 for k in counts if k >= 2) >= 2:
            return True
        low = [list(range(13))]
        high = [[*range(1, 13), 0]]
        orders = {0: low, 1: high, 2: low + high}[self.ace_in_runs]
        for order in orders:
            for suit in range(4):
                for i in range(len(order) - 2):
                    if all(suit * 13 + r in hand for r in order[i : i + 3]):
                        return True
        return False

    def _finish(self, reason: int) -> None:
        self.phase = OVER
        splits = [
            notakers_best_split(
                _bits(self.hands[p] | self.saves[p]), self.ace_in_runs, self.tiebreak_ace
            )
            for p in range(self.nplayers)
        ]
        self.points = [s[0] for s in splits]
        best = splits[0]
        for split in splits:
            if _compare_splits(split, best) > 0:
                best = split
        for p in range(self.nplayers):
            winner = _compare_splits(splits[p], best) == 0
            self._log(EV_SCORE, p, 0, self.points[p], int(winner), None)
        self._log(EV_GAME_OVER, self.turn_player, 0, reason, 0, None)

    def _draw(self, player: int, forced: bool) -> None:
        n = self.nplayers
        left = len(self.pile)
        if left >= n:
            take = n
        elif self.short_draw == 0:  # take_rest_then_end
            take = left
        else:  # end_without_drawing
            take = 0
        if take:  # unseen cards: anything may be in his hand now
            for o in range(n):
                self.not_in_hand[o][player] = set()
        for _ in range(take):
            card = self.pile.pop(0)
            self.hands[player].add(card)
            self._log(EV_DRAW, player, 0, card, int(forced), {player})
        if left <= n:  # the pile is empty now (or the draw fell short)
            self._finish(0)

    def _start_turn(self, player: int) -> None:
        self.turn_player = player
        self.selection = set()
        self.cancels = 0  # Saves cancelled this turn (2: no more Save this turn)
        if not self.hands[player]:
            self._draw(player, True)
            if self.phase == OVER:
                return
        self.phase = TURN
        self.actor = player

    def _end_turn(self) -> None:
        self.turns += 1
        self.ask_target = -1
        self.ask_descriptor = -1
        if self.max_turns and self.turns >= self.max_turns:
            self._finish(1)
            return
        self._start_turn((self.turn_player + 1) % self.nplayers)

    def _no_takers(self) -> None:
        asker = self.turn_player
        self._log(EV_NO_TAKERS, asker, 0, 0, 0, None)
        if not self.hands[asker]:
            self._end_turn()
            return
        self.phase = NO_TAKERS
        self.actor = asker
        self.receiver_offset = 1
        self.given = 0

    def _fallback_next(self) -> None:
        """Each later holder (in turn order after the asked player) gives in turn."""
        n = self.nplayers
        for k in range(self.fallback_offset + 1, n):
            q = (self.ask_target + k) % n
            if q == self.turn_player:
                continue
            if not self._matching(q):
                self._learn_no_match(q)
            else:
                self.fallback_offset = k
                self.actor = q
                self.given = 0
                self.phase = FALLBACK
                return
        self.fallback_offset = n
        if self.anyone_gave:
            self._end_turn()
        else:
            self._no_takers()

    def _give(self, giver: int, receiver: int, card: int, why: int) -> None:
        # Those who do not see the card know it matched the ask (any card
        # for a No Takers give).
        could = ALL_CARDS if why == 2 else self._matching_cards()
        for o in range(self.nplayers):
            if o == giver:
                self.in_hand[o][receiver].add(card)
                self.held[o][receiver].add(card)
                self.not_in_hand[o][receiver].discard(card)
            elif o == receiver:
                for q in range(self.nplayers):
                    self.in_hand[o][q].discard(card)
                    self.held[o][q].discard(card)
            else:
                self.in_hand[o][giver] -= could
                self.held[o][giver] -= could
                self.not_in_hand[o][receiver] -= could
        self.hands[giver].remove(card)
        self.hands[receiver].add(card)
        self._log(EV_GIVE, giver, receiver, card, why, {giver, receiver})

    # -- the state interface ---------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.actor

    def num_actions(self) -> int:
        return ASK + NUM_DESCRIPTORS * (self.nplayers - 1)

    def tensor_size(self) -> int:
        n = self.nplayers
        return 156 + (52 * (n - 1) if self.save_open else 0) + 7 * n + 78

    def verify(self, action: int) -> int:
        if self.phase == OVER:
            return -3  # the status code of an action on a finished game
        if not 0 <= action < self.num_actions():
            return 2
        hand = self.hands[self.actor]
        if self.phase == TURN:
            if action == DRAW or action >= ASK:
                return 0
            if SAVE <= action < GIVE:
                if action - SAVE not in hand:
                    return 4
                if len(hand) < 3:
                    return 6
                if self.cancels >= 2:
                    return 12
                if self.save_requires_set and not self._has_set_to_save(hand):
                    return 11
                return 0
            return 3
        if self.phase == SAVING:
            if action == SAVE_CANCEL:
                return 0
            if action == SAVE_DONE:
                if len(self.selection) < 3:
                    return 7
                if self.save_requires_set and not notakers_splits_exactly(
                    _bits(self.selection), self.ace_in_runs
                ):
                    return 8
                return 0
            if SAVE <= action < GIVE:
                if action - SAVE not in hand:
                    return 4
                if action - SAVE in self.selection:
                    return 5
                return 0
            return 3
        if self.phase in (GIVING, FALLBACK):
            if action == GIVE_DONE:
                if self.phase == FALLBACK and self.pass_fallback != 1:
                    return 3
                return 0 if self.given >= 1 else 10
            if GIVE <= action < ASK:
                if action - GIVE not in hand:
                    return 4
                if not _matches(action - GIVE, self.ask_descriptor):
                    return 9
                return 0
            return 3
        # No Takers: any card in hand
        if GIVE <= action < ASK:
            return 0 if action - GIVE in hand else 4
        return 3

    def legal_actions(self) -> list[int]:
        hand = self.hands[self.actor] if self.phase != OVER else set()
        if self.phase == TURN:
            actions = [DRAW]
            can_save = self.cancels < 2 and (
                not self.save_requires_set or self._has_set_to_save(hand)
            )
            if len(hand) >= 3 and can_save:
                actions += [SAVE + c for c in sorted(hand)]
            return actions + list(range(ASK, self.num_actions()))
        if self.phase == SAVING:
            actions = [SAVE_CANCEL]
            if self.verify(SAVE_DONE) == 0:
                actions.append(SAVE_DONE)
            return sorted(actions + [SAVE + c for c in hand - self.selection])
        if self.phase in (GIVING, FALLBACK):
            actions = [GIVE_DONE] if self.verify(GIVE_DONE) == 0 else []
            return actions + [GIVE + c for c in sorted(self._matching(self.actor))]
        if self.phase == NO_TAKERS:
            return [GIVE + c for c in sorted(hand)]
        return []

    def _apply(self, action: int) -> None:
        player = self.actor
        asker = self.turn_player
        if self.phase == TURN:
            if action == DRAW:
                self._draw(player, False)
                if self.phase != OVER:
                    self._end_turn()
            elif action >= ASK:
                offset = (action - ASK) // NUM_DESCRIPTORS + 1
                self.ask_descriptor = (action - ASK) % NUM_DESCRIPTORS
                self.ask_target = (player + offset) % self.nplayers
                self.anyone_gave = False
                self.given = 0
                self.fallback_gave = set()
                self._log(EV_ASK, player, self.ask_target, self.ask_descriptor, 0, None)
                if self._matching(self.ask_target):
                    self.phase = GIVING
                    self.actor = self.ask_target
                else:
                    self._log(EV_PASS, self.ask_target, player, 0, 0, None)
                    self._learn_no_match(self.ask_target)
                    self.fallback_offset = 0
                    self._fallback_next()
            else:
                self.phase = SAVING
                self.selection = {action - SAVE}
        elif self.phase == SAVING:
            if action == SAVE_CANCEL:
                self.selection = set()
                self.cancels += 1
                self.phase = TURN
            elif action == SAVE_DONE:
                seen = None if self.save_open else {player}
                for card in sorted(self.selection):
                    self._log(EV_SAVE, player, 0, card, 0, seen)
                for o in range(self.nplayers):
                    if o == player:
                        continue
                    if self.save_open:  # public now
                        self.in_hand[o][player] -= self.selection
                        self.held[o][player] -= self.selection
                    else:  # any card known in his hand may be in the save pile
                        self.in_hand[o][player] = set()
                self.hands[player] -= self.selection
                self.saves[player] |= self.selection
                self.selection = set()
                self._end_turn()
            else:
                self.selection.add(action - SAVE)
        elif self.phase == GIVING:
            if action == GIVE_DONE:
                self._end_turn()
                return
            self._give(player, asker, action - GIVE, 0)
            self.given += 1
            self.anyone_gave = True
            if not self._matching(player):
                self._end_turn()
        elif self.phase == FALLBACK:
            if action == GIVE_DONE:
                self._fallback_next()
                return
            self._give(player, asker, action - GIVE, 1)
            self.given += 1
            self.anyone_gave = True
            self.fallback_gave.add(player)
            if self.pass_fallback == 2:  # first_holder_only
                self._end_turn()
            elif self.pass_fallback == 0 or not self._matching(player):
                self._fallback_next()
        else:  # No Takers: one card to each other player in turn order
            receiver = (asker + self.receiver_offset) % self.nplayers
            self._give(player, receiver, action - GIVE, 2)
            self.given += 1
            self.receiver_offset += 1
            if self.receiver_offset >= self.nplayers or not self.hands[player]:
                self._end_turn()

    def returns(self) -> list[int]:
        if self.phase != OVER:
            return [0] * self.nplayers
        return list(self.points)

    def observe_tensor(self, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        n = self.nplayers
        out = np.zeros(self.tensor_size(), dtype=np.float32)

        def rel(seat: int) -> int:
            return (seat - player) % n

        for c in self.hands[player]:
            out[c] = 1
        for c in self.saves[player]:
            out[52 + c] = 1
        if self.phase == SAVING and self.actor == player:
            for c in self.selection:
                out[104 + c] = 1
        o = 156
        if self.save_open:  # the other seats' save piles, only when open
            for k in range(1, n):
                for c in self.saves[(player + k) % n]:
                    out[o + c] = 1
                o += 52
        for k in range(n):
            out[o + k] = len(self.hands[(player + k) % n])
            out[o + n + k] = len(self.saves[(player + k) % n])
        o += 2 * n
        out[o] = len(self.pile)
        out[o + 1] = self.turns
        o += 2
        if self.phase != OVER:
            out[o + rel(self.actor)] = 1
        o += n
        out[o + self.phase] = 1
        o += 6
        if self.phase in (GIVING, FALLBACK, NO_TAKERS):
            out[o + rel(self.turn_player)] = 1
            out[o + n + rel(self.ask_target)] = 1
            out[o + 2 * n + self.ask_descriptor] = 1
            out[o + 2 * n + NUM_DESCRIPTORS] = self.given
        o += 2 * n + NUM_DESCRIPTORS + 1
        if self.phase == NO_TAKERS:
            out[o + rel(self.turn_player + self.receiver_offset)] = 1
        o += n
        if self.phase == OVER:
            for k in range(n):
                out[o + k] = self.points[(player + k) % n]
        return out

    def events(self) -> list[tuple[int, int, int, int, int, int]]:
        return self.log[-LOG_CAPACITY:]


def notakers_knowledge(state: RefState, player: int) -> tuple[list[int], list[int], list[int]]:
    """What ``player`` knows of the other seats' cards in a No Takers? state:
    (in_hand, held, not_in_hand), each a list of 52-card bitsets by seat."""
    if not isinstance(state, NoTakersState):
        raise ValueError("notakers_knowledge needs a No Takers? state")
    if not 0 <= player < state.nplayers:
        raise ValueError(f"player {player} out of range 0..{state.nplayers - 1}")
    return (
        [_bits(s) for s in state.in_hand[player]],
        [_bits(s) for s in state.held[player]],
        [_bits(s) for s in state.not_in_hand[player]],
    )
