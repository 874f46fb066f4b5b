"""The Game of Nancy: 78-card tarot for 2 to 6 players (docs/nancy.rst).

:class:`NancyRules` holds every variant; :class:`NancyGame` binds rules and a
player count to the generic :class:`~pycards.game.State`.  Actions are ints
(see :doc:`/nancy`): ``0`` pass, ``1..9`` bid, ``10 + card`` call,
``88 + card`` discard, ``166 + card`` play, ``244 + card`` pick the Outsider
exchange card.  Rule helpers (legal cards, trick winner, objectives, scores)
and their numpy batch forms work on card ids and Nancy bitsets; those that
depend on the rules take ``rules=``.

>>> game = NancyGame(NancyRules(), num_players=4)
>>> state = game.new_initial_state(seed=3)
>>> state.legal_action_names()[:3]
['pass', 'bid 1', 'bid 2']
>>> base_score(bid=3, completed=4, won=True)
13
>>> settlement(4, taker=0, partner=-1, bid=3, completed=2, won=False)
[-12, 4, 4, 4]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from cardcore import _core
from pycards._args import JSONObject
from pycards._args import as_flag as _flag
from pycards.cards import (
    OUTSIDER,
    NancyCard,
    NancyCardSet,
    NancyCardsLike,
    card_list_arg,
    card_mask_arg,
)
from pycards.engine import game_info
from pycards.errors import InvalidCardError
from pycards.game import Event, Game, Rules, SearchDefaults, State
from pycards.games._facade import as_rules
from pycards.narrate import (
    By,
    Line,
    NarrationMemory,
    Narrator,
    ScoringItem,
    Template,
    TemplateValue,
)
from pycards.summary import EventSource, Summarizer, Summary
from pycards.view import PlayerView

__all__ = [
    "ACTION_CALL",
    "ACTION_DISCARD",
    "ACTION_PASS",
    "ACTION_PICK",
    "ACTION_PLAY",
    "EVENT_KINDS",
    "NUM_ACTIONS",
    "OBJECTIVE_NAMES",
    "PHASES",
    "NancyGame",
    "NancyObservation",
    "NancyRules",
    "base_score",
    "batch_legal_cards",
    "batch_objectives",
    "batch_trick_winner",
    "legal_cards",
    "objectives",
    "settlement",
    "trick_winner",
]

_INFO = game_info("nancy")
_FIRST = {r.name.split()[0]: r.first for r in _INFO.action_ranges}

#: First action id of each kind (docs/nancy.rst, "Actions"), from the engine.
ACTION_PASS: int = _FIRST["pass"]
ACTION_CALL: int = _FIRST["call"]
ACTION_DISCARD: int = _FIRST["discard"]
ACTION_PLAY: int = _FIRST["play"]
ACTION_PICK: int = _FIRST["pick"]
#: Size of the action space.
NUM_ACTIONS: int = max(r.first + r.count for r in _INFO.action_ranges)

#: Phase names, by phase id (the ``phase`` segment of the observation).
PHASES = ("bidding", "call", "discard", "play", "pick", "over")
#: Event kind names, by kind id, from the engine (docs/nancy.rst, "Events").
EVENT_KINDS: tuple[str, ...] = _INFO.event_names
#: Names of the nine objectives; objective k is bit k-1 of an objective mask.
OBJECTIVE_NAMES = (
    "Heir's Bodyguard", "Empire of Rats", "Empire of Swords", "Empire of Skulls",
    "Empire of Pistols", "Royal Executioner", "Master of the Arcane", "Fat Nancy",
    "Chosen by the Outsider",
)  # fmt: skip

_ArcaneMode: TypeAlias = Literal["exact_total", "subset_sum", "at_least"]
_HOUND_SIZE = {2: 6, 3: 6, 4: 6, 5: 3, 6: 6}
_CARDS_EACH = {2: 36, 3: 24, 4: 18, 5: 15, 6: 12}


@dataclasses.dataclass(frozen=True, repr=False)
class NancyRules(Rules):
    """Every variant of the Game of Nancy (docs/nancy.rst, "Variants"); the
    defaults are the Dishonored wiki's "Game of Nancy" page as pycards reads it.

    The fields are the engine's parameters, in the engine's order, with its
    defaults; they are checked against the engine's table when created.

    :ivar face_up_count: cards of each player's deal dealt face-up (3 to 6
        players; 0..12).  Two players always use the table piles.
    :ivar hound_position_rule: ``ignore`` or ``enforce`` (the Hound's cards are
        dealt singly between packets, never among the first or last packet).
    :ivar bidding_style: ``single_round`` or ``open_auction``.
    :ivar min_bid: lowest bid, 1..9.
    :ivar all_pass: ``redeal`` or ``dealer_forced`` (the last player may not pass
        when everyone else passed).
    :ivar self_call_allowed: the Taker may name a card he holds (then plays alone).
    :ivar reveal_hound: the Hound is shown to all before the Taker takes it.
    :ivar overtrump_on_trump_lead: on a trump lead, play a higher trump if able.
    :ivar partner_tricks_to: ``opponents`` or ``nancy``.
    :ivar outsider_exchange_mode: ``random`` or ``owner_choice``.
    :ivar exchange_from_discard: the exchange card may come from the discards.
    :ivar deferred_exchange_pick: ``winner_choice``, ``random`` or ``owner_choice``.
    :ivar outsider_last_trick: ``decides_round`` or ``changes_side``.
    :ivar arcane_sum_mode: ``exact_total``, ``subset_sum`` or ``at_least``.
    :ivar fat_nancy_outsider_exception: ``none`` or ``slam``.
    :ivar match_rounds: rounds in a match (1..1000); ``None``: each player deals once.
    :ivar first_dealer: the seat of the first dealer, or ``None`` (the default)
        to draw him from the game seed.  Fix it to replay a real table (with a
        stacked deck, :meth:`NancyGame.stacked_deck`).  The draw is made either
        way, so fixing the seat the seed would have drawn changes nothing else.

    A wrong value raises :class:`~pycards.errors.RulesError` (a ``ValueError``)
    naming the field; a ``first_dealer`` who is not a seat of the game is
    refused when the game is created.

    >>> NancyRules(first_dealer=2).to_params()[-2:]
    (0, 2)
    >>> NancyRules.french_tarot()
    NancyRules(bidding_style='open_auction', outsider_last_trick='changes_side', \
fat_nancy_outsider_exception='slam')
    >>> NancyRules(first_dealer=6)
    Traceback (most recent call last):
    ...
    pycards.errors.RulesError: first_dealer must be None or an int 0..5, got 6
    """

    GAME: ClassVar[str] = "nancy"
    PRESETS: ClassVar[tuple[str, ...]] = ("wiki", "wiki_table", "wiki_one_deal", "french_tarot")

    face_up_count: int = 6
    hound_position_rule: Literal["ignore", "enforce"] = "ignore"
    bidding_style: Literal["single_round", "open_auction"] = "single_round"
    min_bid: int = 1
    all_pass: Literal["redeal", "dealer_forced"] = "redeal"
    self_call_allowed: bool = True
    reveal_hound: bool = True
    overtrump_on_trump_lead: bool = True
    partner_tricks_to: Literal["opponents", "nancy"] = "opponents"
    outsider_exchange_mode: Literal["random", "owner_choice"] = "random"
    exchange_from_discard: bool = False
    deferred_exchange_pick: Literal["winner_choice", "random", "owner_choice"] = "winner_choice"
    outsider_last_trick: Literal["decides_round", "changes_side"] = "decides_round"
    arcane_sum_mode: _ArcaneMode = "exact_total"
    fat_nancy_outsider_exception: Literal["none", "slam"] = "none"
    match_rounds: int | None = None
    first_dealer: int | None = None

    @classmethod
    def wiki(cls) -> NancyRules:
        """The "Game of Nancy" page of the Dishonored wiki, with its editors'
        "EX" rules, as pycards reads it (docs/nancy.rst): the defaults."""
        return cls()

    @classmethod
    def wiki_table(cls) -> NancyRules:
        """The wiki page's deal as made at a real table: the Hound's cards
        slipped in singly between packets (``hound_position_rule="enforce"``)."""
        return cls(hound_position_rule="enforce")

    @classmethod
    def wiki_one_deal(cls) -> NancyRules:
        """The wiki page's rules for a single deal (``match_rounds=1``; the page
        does not say how long a match is), for bots and benchmarks."""
        return cls(match_rounds=1)

    @classmethod
    def french_tarot(cls) -> NancyRules:
        """Where French tarot, the game Nancy is drawn from, settles what the
        page leaves open: an open auction, the Excuse's slam exception, and the
        Excuse (the Outsider) on the last trick simply changing sides."""
        return cls(
            bidding_style="open_auction",
            fat_nancy_outsider_exception="slam",
            outsider_last_trick="changes_side",
        )


@dataclasses.dataclass(frozen=True)
class NancyObservation:
    """What one player may know: ``player``, then one field per segment of the
    observation tensor (docs/nancy.rst, "Observation"), seats absolute.

    Per-seat tuples are indexed by seat; ``trick[seat]`` is the card that seat
    played to the current trick (an empty set if none); ``bids[seat]`` is -1
    before the seat bid, 0 for a pass, else the bid.  ``hound`` is empty
    unless shown (or you are the Taker), ``discards`` unless you are the Taker.
    """

    player: int
    hand: NancyCardSet
    face_up: tuple[NancyCardSet | None, ...]
    table_down: tuple[int | None, ...]
    trick: tuple[NancyCardSet | None, ...]
    leader: int | None
    played: NancyCardSet
    bids: tuple[int | None, ...]
    dealer: int | None
    taker: int | None
    called: NancyCard | None
    partner_revealed: int
    partner: int | None
    hound: NancyCardSet
    discards: NancyCardSet
    shown_trumps: NancyCardSet
    nancy_pile: NancyCardSet
    opponents_pile: NancyCardSet
    void_rats: tuple[int | None, ...]
    void_swords: tuple[int | None, ...]
    void_skulls: tuple[int | None, ...]
    void_pistols: tuple[int | None, ...]
    trump_ceiling: tuple[int | None, ...]
    phase: int | None
    current_player: int | None
    scores: tuple[int | None, ...]
    trick_index: int
    rounds_done: int
    outsider_debt: int
    outsider_played: int

    @property
    def phase_name(self) -> str:
        """``bidding``, ``call``, ``discard``, ``play``, ``pick`` or ``over``."""
        return PHASES[self.phase or 0]

    @property
    def trick_cards(self) -> tuple[tuple[int, NancyCard], ...]:
        """The current trick as ``(seat, card)`` in play order."""
        if self.leader is None:
            return ()
        n = len(self.trick)
        out: list[tuple[int, NancyCard]] = []
        for k in range(n):
            q = (self.leader + k) % n
            out.extend((q, c) for c in self.trick[q] or ())
        return tuple(out)

    @property
    def voids(self) -> tuple[tuple[int, ...], ...]:
        """The suits (0..3: Rats, Swords, Skulls, Pistols) each seat showed void in."""
        parts = (self.void_rats, self.void_swords, self.void_skulls, self.void_pistols)
        return tuple(tuple(s for s in range(4) if parts[s][q]) for q in range(len(self.void_rats)))


# ---------------------------------------------------------------------------
# strict arguments


def _trick(trick: object, name: str = "trick") -> list[int]:
    ids = [int(c) for c in card_list_arg(trick, name, NancyCard)]
    seen: set[int] = set()
    for c in ids:
        if c in seen:
            raise InvalidCardError(f"{name}: {NancyCard(c)} is played twice", str(NancyCard(c)))
        seen.add(c)
    return ids


def _overtrump(rules: object, overtrump: object, where: str) -> bool:
    if overtrump is None:
        return as_rules(rules, NancyRules, "NancyRules or None").overtrump_on_trump_lead
    if rules is not None:
        raise ValueError(f"{where}: give rules= or overtrump=, not both")
    return _flag(overtrump, "overtrump")


def _arcane_mode(rules: object, arcane_sum_mode: object, where: str) -> int:
    choices: tuple[str, ...] = next(
        p.choices for p in NancyRules.parameters() if p.name == "arcane_sum_mode"
    )
    if arcane_sum_mode is None:
        return choices.index(as_rules(rules, NancyRules, "NancyRules or None").arcane_sum_mode)
    if rules is not None:
        raise ValueError(f"{where}: give rules= or arcane_sum_mode=, not both")
    if not isinstance(arcane_sum_mode, str) or arcane_sum_mode not in choices:
        raise ValueError(f"arcane_sum_mode must be one of {choices}, got {arcane_sum_mode!r}")
    return choices.index(arcane_sum_mode)


_SeatCards: TypeAlias = str | Iterable[NancyCard | int | str]


# ---------------------------------------------------------------------------
# the story (pycards.narrate, pycards.summary)

#: How each event kind is told (:mod:`pycards.narrate`).
NARRATION: dict[str, Template] = {
    "dealer": By(
        "new_extra",
        {1: "everyone passed: the deal is thrown in and {player} deals again"},
        "{player} deals (round {round})",
    ),
    "deal": By(
        "target",
        {1: "{player} is dealt {card} face up", 2: "{player} is dealt {card} face down"},
        "{player} is dealt {card}",
    ),
    "bid": By("value", {0: "{player} passes"}, "{player} bids {value}"),
    "taker": "{player} takes with bid {value}",
    "call": "{player} calls {card}",
    "hound": "{player} takes {card} from the Hound",
    "discard": "{player} discards {card}",
    "play": "{player} plays {card}",
    "partner": By(
        "extra",
        {1: "{player} holds the called {card}: the Partner"},
        "{player} played their own called card {card}",
    ),
    "flip": "{card} is turned up on {player}'s pile",
    "trick": By(
        "extra",
        {0: "{player} wins the trick{reason} for Nancy's side"},
        "{player} wins the trick{reason} for the opponents",
    ),
    "debt": "{player}, who played the Outsider, owes {target} a card",
    "exchange": By(
        "extra",
        {1: "{player} pays {card} (a deferred payment)"},
        "{player} gives {card} for the Outsider",
    ),
    "result": "the Taker {player} completed {target_seat} objectives{reason}",
    "score": "{player} scores {value} (total {extra}){reason}",
    "game_over": "the match is over",
}


def _decided(completed: int, bid: int, outsider: bool, detail: str) -> str:
    if outsider:
        return detail or "the Outsider on the last trick (rule 13)"
    if completed == 0:
        return "a Skinny Nancy: no objective completed"
    if completed >= bid:
        return f"{completed} objectives completed of the {bid} bid"
    return f"only {completed} of the {bid} objectives bid"


_SUIT_WORDS = {"R": "Rats", "S": "Swords", "X": "Skulls", "P": "Pistols"}


def _is_trump(name: str) -> bool:
    """Whether a card's name is a trump's (a roman numeral)."""
    return name != "OUT" and set(name) <= set("IVX")


class NancyNarrator(Narrator):
    """The trick winner's card, the result and each payment's reason."""

    def seat_name(self, seat: int) -> str:
        del seat
        return "the Hound"

    def before(self, ev: Event, mem: NarrationMemory) -> dict[str, TemplateValue]:
        if ev.kind == "play":
            mem.trick.append((ev.player, ev.value))
        elif ev.kind == "taker":
            mem.notes["bid"] = ev.value
        elif ev.kind == "result":
            mem.notes["completed"] = ev.target
            mem.notes["won"] = bool(ev.extra & 1)
        elif ev.kind == "dealer":
            thrown = 1 if ev.extra > mem.thrown else 0
            mem.thrown = ev.extra
            return {"new_extra": thrown, "round": "?" if ev.value is None else ev.value + 1}
        return {}

    def reason(self, ev: Event, mem: NarrationMemory, items: tuple[ScoringItem, ...] | None) -> str:
        del items
        if ev.kind == "trick":
            for seat, card in mem.trick:
                if seat == ev.player and card is not None:
                    return f" with {self.game._card_name(card)}"
            return ""
        if ev.kind == "result":
            text = ": the Taker wins" if ev.extra & 1 else ": the Taker loses"
            return text + (", decided by the Outsider" if ev.extra >> 1 & 1 else "")
        if ev.kind == "score" and "won" in mem.notes:
            bid, completed = mem.notes.get("bid"), mem.notes.get("completed")
            won = "won" if mem.notes["won"] else "lost"
            return f": the bid {bid} {won} with {completed} objectives"
        return ""

    def points(self, ev: Event) -> int:
        return ev.value or 0 if ev.kind == "score" else 0

    def prompt(self, view: PlayerView[object], names: Sequence[str] | None = None) -> str:
        """Each decision in words: the bid, the call, the discard (how many
        cards, and which may go), the card to play and the pick."""
        del names
        obs = view.observation
        if not isinstance(obs, NancyObservation):  # pragma: no cover - the game's own view
            return super().prompt(view)
        legal = view.legal_action_names()
        cards = [name.split(" ", 1)[1] for name in legal if " " in name]
        phase = obs.phase_name
        if phase == "bidding":
            if not cards:
                return "Pass: no bid higher than the last one is left"
            span = cards[0] if len(cards) == 1 else f"{cards[0]} to {cards[-1]}"
            what = f"Bid {span}: how many of the nine objectives you promise to complete"
            return what + (", or pass" if "pass" in legal else " (the others passed: you must bid)")
        if phase == "call":
            rank = "Jack" if all(c.startswith("J") for c in cards) else "Queen"
            return f"Call a {rank}: whoever holds it becomes your secret Partner"
        if phase == "discard":
            left = len(obs.hound) - len(obs.discards)
            count = "1 card" if left == 1 else f"{left} cards"
            more = f"{left} more {'card' if left == 1 else 'cards'}" if obs.discards else count
            text = f"Discard {more} to the Nancy"
            if any(_is_trump(c) for c in cards):
                return text + ": too few other cards are left, so trumps II to XX may go too"
            return text + ": no trumps, no Kings and not the Outsider"
        if phase == "pick":
            pile = "the Nancy" if view.seat == obs.taker else "your side's pile"
            return f"Pick one card of this trick for {pile}, the card owed for the Outsider"
        led = next((str(c) for _, c in obs.trick_cards if str(c) != "OUT"), None)
        if led is None:
            return "Lead a card: any card"
        if _is_trump(led):
            return "Play a card: trumps were led, so a trump, higher than the trick's if you can"
        suit = _SUIT_WORDS.get(led[-1], led[-1])
        return (
            f"Play a card: {suit} were led; follow if you can, else trump"
            " (higher than the trick's if you can); the Outsider may always go"
        )

    def after(self, ev: Event, mem: NarrationMemory) -> None:
        if ev.kind == "dealer":
            mem.new_deal()
            mem.notes.clear()
        elif ev.kind == "trick":
            mem.trick = []


@dataclasses.dataclass(frozen=True)
class NancyRoundSummary(Summary):
    """One round of the Game of Nancy.

    :ivar dealer: the dealer's seat.
    :ivar thrown_in: deals thrown in (everyone passed) before this one.
    :ivar taker: the Taker's seat.
    :ivar bid: his bid (the objectives he must complete).
    :ivar called: the card he called (5 and 6 players), else ``None``.
    :ivar partner: the Partner's seat, ``None`` alone (or not known).
    :ivar tricks: tricks won by Nancy's side and by the opponents.
    :ivar met: the names of the objectives completed (:data:`OBJECTIVE_NAMES`).
    :ivar missed: the names of the others.
    :ivar won: whether the Taker won the round.
    :ivar decided: what decided the result.
    :ivar base: the base score (:func:`base_score`).
    :ivar payments: each seat's points for the round.
    :ivar totals: each seat's score after the round.
    """

    dealer: int
    thrown_in: int
    taker: int
    bid: int
    called: str | None
    partner: int | None
    tricks: tuple[int, int]
    met: tuple[str, ...]
    missed: tuple[str, ...]
    won: bool
    decided: str
    base: int
    payments: tuple[int, ...]
    totals: tuple[int, ...]

    def lines(self) -> list[str]:
        how = [f"seat {self.dealer} deals"] if self.dealer >= 0 else []
        if self.thrown_in > 0:
            how.append(f"after {self.thrown_in} thrown in")
        dealt = f" ({', '.join(how)})" if how else ""
        side = "alone" if self.partner is None else f"with seat {self.partner} as Partner"
        called = f" (called {self.called})" if self.called else ""
        return [
            f"round {self.round}{dealt}: "
            f"seat {self.taker} takes with bid {self.bid}, {side}{called}",
            f"  tricks: Nancy's side {self.tricks[0]}, the opponents {self.tricks[1]}",
            "  objectives met: " + (", ".join(self.met) or "none"),
            "  objectives missed: " + (", ".join(self.missed) or "none"),
            f"  the Taker {'wins' if self.won else 'loses'}: {self.decided}",
            f"  base score {self.base:+d}; payments: "
            + ", ".join(f"seat {k} {p:+d}" for k, p in enumerate(self.payments)),
            "  scores: " + ", ".join(f"seat {k} {p}" for k, p in enumerate(self.totals)),
        ]


@dataclasses.dataclass(frozen=True)
class NancyMatchSummary(Summary):
    """The match: each seat's final score and the winners (the highest score).

    :ivar rounds: rounds played (thrown-in deals not counted).
    :ivar totals: each seat's final score.
    :ivar winners: the seats with the highest score.
    """

    rounds: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def lines(self) -> list[str]:
        who = " and ".join(f"seat {k}" for k in self.winners)
        verb = "win" if len(self.winners) > 1 else "wins"
        return [
            f"the match ({self.rounds} round{'' if self.rounds == 1 else 's'}): "
            f"{who} {verb} with {max(self.totals)}",
            "  scores: " + ", ".join(f"seat {k} {p}" for k, p in enumerate(self.totals)),
        ]


class NancySummarizer(Summarizer):
    """Each round's :class:`NancyRoundSummary` (made with the last payment)
    and the match's :class:`NancyMatchSummary`."""

    def __init__(self, game: Game[Rules, object], viewer: int | None) -> None:
        super().__init__(game, viewer)
        self.n = game.num_players
        self.rounds = 0
        self.totals = [0] * self.n
        self.thrown_done = 0  # thrown-in deals told in earlier summaries
        self._new(-1, 0)

    def _new(self, dealer: int, thrown: int) -> None:
        self.r: dict[str, Any] = dict(
            dealer=dealer, thrown=thrown, taker=-1, bid=0, called=None, partner=None,
            tricks=[0, 0], result=None, payments={}, last=[], outsider="",
        )  # fmt: skip

    def feed(self, line: Line) -> list[Summary]:
        ev, r = line.event, self.r
        if ev.kind == "dealer":
            self._new(ev.player, ev.extra - self.thrown_done)
        elif ev.kind == "taker":
            r["taker"], r["bid"] = ev.player, ev.value or 0
        elif ev.kind == "call":
            r["called"] = ev.card
        elif ev.kind == "partner" and ev.extra == 1:
            r["partner"] = ev.player
        elif ev.kind == "play":
            if r["last"] and r["last"][0][2] != ev.extra:
                r["last"] = []
            r["last"].append((ev.player, ev.value, ev.extra))
        elif ev.kind == "trick":
            r["tricks"][1 if ev.extra else 0] += 1
            r["last_winner"] = ev.player
        elif ev.kind == "result":
            r["result"] = (ev.target, ev.value or 0, bool(ev.extra & 1), bool(ev.extra >> 1 & 1))
        elif ev.kind == "score":
            r["payments"][ev.player] = ev.value or 0
            self.totals[ev.player] = ev.extra
            if len(r["payments"]) == self.n and r["result"] is not None:
                return [self._summary()]
        return []

    def _outsider(self) -> str:
        r = self.r
        side = {r["taker"], r["partner"]}
        for seat, card, _ in r["last"]:
            if card == OUTSIDER:
                if seat in side:
                    return "the Taker's side played the Outsider to the last trick"
                took = "won" if r.get("last_winner") in side else "lost"
                return (
                    f"an opponent played the Outsider to the last trick: the Taker's side {took} it"
                )
        return ""

    def _summary(self) -> NancyRoundSummary:
        r = self.r
        completed, mask, won, outsider = r["result"]
        self.rounds += 1
        met = tuple(name for k, name in enumerate(OBJECTIVE_NAMES) if mask >> k & 1)
        missed = tuple(name for k, name in enumerate(OBJECTIVE_NAMES) if not mask >> k & 1)
        summary = NancyRoundSummary(
            self.rounds,
            r["dealer"],
            r["thrown"],
            r["taker"],
            r["bid"],
            r["called"],
            r["partner"],
            (r["tricks"][0], r["tricks"][1]),
            met,
            missed,
            won,
            _decided(completed, r["bid"], outsider, self._outsider() if outsider else ""),
            base_score(r["bid"], completed, won) if r["bid"] else 0,
            tuple(r["payments"].get(k, 0) for k in range(self.n)),
            tuple(self.totals),
        )
        self.thrown_done += r["thrown"]
        return summary

    def finish(self, state: EventSource) -> list[Summary]:
        del state
        top = max(self.totals)
        winners = tuple(k for k, p in enumerate(self.totals) if p == top)
        return [NancyMatchSummary(0, self.rounds, tuple(self.totals), winners)]


class NancyGame(Game[NancyRules, NancyObservation]):
    """The Game of Nancy for 2 to 6 players.

    The first dealer is drawn from the seed unless ``rules.first_dealer``
    names him; the first deal can come from a given deck
    (``new_initial_state(seed, deck=...)``), which :meth:`stacked_deck`
    builds from what each seat is to hold.  Action names, event kinds and the
    observation come from the engine's tables (:mod:`pycards.game`).
    """

    NAME: ClassVar[str] = "nancy"
    TITLE = "The Game of Nancy"
    DEAL_KINDS: ClassVar[frozenset[str]] = frozenset({"deal", "flip", "exchange"})
    DEAL_PLACES: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "deal": ("hand", "face up", "face down", "Hound")
    }
    #: The search bots' defaults (docs/search.rst, "Defaults").
    SEARCH_DEFAULTS: ClassVar[SearchDefaults] = {
        "reward": "margin",
        "horizon": "deal",
        "rollout": "heuristic",
        "scale": 50.0,
        "pimc": {"simulations": 2000, "samples": 100},
    }
    #: The bot ``best`` plays (docs/bots.rst, "The best bot").
    BEST_BOT: ClassVar[str] = "pimc:simulations=4000:samples=200"
    STALL_NOTE: ClassVar[str] = (
        "in the Game of Nancy a deal where every seat passes is dealt again "
        "(all_pass='redeal', the default), so bots that never bid never end a game"
    )
    RULES_TYPE: ClassVar[type[NancyRules]] = NancyRules
    OBSERVATION_TYPE: ClassVar[type[NancyObservation]] = NancyObservation
    CARD_TYPE = NancyCard
    NARRATION = NARRATION
    NARRATOR = NancyNarrator
    SUMMARIZER = NancySummarizer

    def table_notes(self, observation: object) -> JSONObject:
        """Once a Taker has bid, the objective tracker (``objectives``): the
        Taker, the bid, and for each objective whether the cards Nancy's side
        has won in tricks meet it so far (``None`` for the two that only the
        round's end decides, Fat Nancy and Chosen by the Outsider).  The
        Taker's discards, which only he knows, are left out, so every seat and
        a spectator see the same tracker."""
        if not isinstance(observation, NancyObservation):
            raise TypeError(f"a NancyObservation, got {type(observation).__name__}")
        taker = observation.taker
        if taker is None or observation.phase is None or observation.phase >= PHASES.index("over"):
            return {}
        bid = observation.bids[taker] if taker < len(observation.bids) else None
        won = observation.nancy_pile - observation.discards
        mask = objectives(won, self.rules) if won else 0
        standing = [
            {"name": name, "met": bool(mask >> k & 1) if k < 7 else None}
            for k, name in enumerate(OBJECTIVE_NAMES)
        ]
        return {"objectives": {"taker": taker, "bid": bid, "standing": standing}}

    def stacked_deck(
        self,
        hands: Sequence[_SeatCards],
        hound: _SeatCards = (),
        face_up: Sequence[_SeatCards] | None = None,
        table_down: Sequence[_SeatCards] | None = None,
        dealer: int | None = None,
        fill: bool = False,
    ) -> list[NancyCard]:
        """A whole deck, top first, that deals each seat its cards when
        ``dealer`` deals; for :meth:`~pycards.game.Game.new_initial_state`
        ``(seed, deck=...)``.

        ``hands[seat]`` are the seat's face-down hand cards, ``face_up[seat]``
        its face-up cards (with 2 players: the face-up tops of its table piles
        0..7, in pile order) and ``table_down[seat]`` (2 players only) the
        face-down bottoms of its piles 0..7; ``hound`` is the Hound.  Each is a
        string of card names or a sequence of cards, ids or names.  The
        positions follow the documented mapping (docs/nancy.rst, "A stacked
        first deal"), with the rules' ``hound_position_rule``.  ``dealer``
        defaults to the rules' ``first_dealer``; the state deals as planned only
        if that is who deals (so fix ``first_dealer`` in the rules, or pass the
        seat the seed draws).

        Every place must get exactly as many cards as it holds, unless
        ``fill`` is true: then places given fewer are filled up with the
        lowest cards nobody was given, seat by seat (table bottoms, face-up
        cards, hand), then the Hound (for setting up a position).  A card
        placed twice, a place given too many cards (or, without ``fill``, too
        few) raises :class:`~pycards.errors.InvalidCardError`; a wrong number of
        seats or a dealer who is not a seat raises ``ValueError``.

        >>> game = NancyGame(NancyRules(face_up_count=0, first_dealer=2), num_players=3)
        >>> deck = game.stacked_deck(["KR QR", "KS", ""], hound="XXI I", fill=True)
        >>> " ".join(str(c) for c in deck[:4]), " ".join(str(c) for c in deck[-6:])
        ('KR QR 1R KS', 'XXI I XVIII XIX XX OUT')
        >>> state = game.new_initial_state(seed=5, deck=deck)
        >>> state.observation(0).dealer, "KR" in str(state.observation(0).hand)
        (2, True)
        """
        n = self.num_players
        dealer = self._stacking_dealer(dealer)
        fill = _flag(fill, "fill")

        def per_seat(what: str, given: Sequence[_SeatCards] | None) -> list[list[NancyCard]]:
            if given is None:
                return [[] for _ in range(n)]
            if isinstance(given, str) or not isinstance(given, Sequence) or len(given) != n:
                raise ValueError(f"stacked_deck: give {what} per seat ({n} entries)")
            return [
                card_list_arg(cards, f"{what}[{q}]", NancyCard) for q, cards in enumerate(given)
            ]

        if (
            n > 2
            and table_down is not None
            and any(card_list_arg(t, "table_down", NancyCard) for t in table_down)
        ):
            raise ValueError("stacked_deck: only 2 players have face-down table piles")
        downs = per_seat("table_down", table_down if n == 2 else None)
        ups = per_seat("face_up", face_up)
        hand_lists = per_seat("hands", hands)
        hound_list = card_list_arg(hound, "hound", NancyCard)
        each = _CARDS_EACH[n]
        nup = 8 if n == 2 else self.rules.face_up_count
        ndown = 8 if n == 2 else 0
        hsize = _HOUND_SIZE[n]
        # (name, cards, size) of every place, in fill order
        places: list[tuple[str, list[NancyCard], int]] = []
        for q in range(n):
            places.append((f"seat {q}'s table bottoms", downs[q], ndown))
            places.append((f"seat {q}'s face-up cards", ups[q], nup))
            places.append((f"seat {q}'s hand", hand_lists[q], each - nup - ndown))
        places.append(("the Hound", hound_list, hsize))
        seen: set[NancyCard] = set()
        for name, cards, size in places:
            if len(cards) > size or (len(cards) < size and not fill):
                raise InvalidCardError(f"stacked_deck: {name} holds {size} cards, got {len(cards)}")
            for c in cards:
                if c in seen:
                    raise InvalidCardError(f"stacked_deck: {c} is placed twice", str(c))
                seen.add(c)
        spare = iter([NancyCard(c) for c in range(78) if NancyCard(c) not in seen])
        for _name, cards, size in places:
            cards.extend(next(spare) for _ in range(size - len(cards)))
        # each seat's cards by card number, in the order dealt (docs/nancy.rst),
        # laid out by the engine's own deal schedule (-1: the Hound)
        dealt = [iter(downs[q] + ups[q] + hand_lists[q]) for q in range(n)]
        hound_left = iter(hound_list)
        schedule = _core.nancy_deal_schedule(self.rules.to_params(), n, dealer)
        return [next(hound_left) if q < 0 else next(dealt[q]) for q in schedule]

    # -- the text table ---------------------------------------------------------
    def render(self, state: State[NancyObservation], viewer: int | None) -> str:
        """The table as text, as seat ``viewer`` sees it (``None``: the referee,
        who sees every seat's cards, each from that seat's own observation).

        Built only from the observations and the events the viewer may see, so
        a seat's view shows nothing that seat may not know (and a state and its
        information-set samples look the same to it)::

            Game of Nancy, 4 players, deal 1, play, trick 3 of 18: seat 2 to act
            seat   role  bid   hand                             face up
            0      D     pass  (11 cards)                       5P 6P
            ...
        """
        n = self.num_players
        seats = range(n)
        views = [state.observation(q) for q in seats] if viewer is None else None
        me = state.observation(viewer if viewer is not None else 0)
        events = state.events(viewer)
        held = _held_counts(events, n)

        def view(q: int) -> NancyObservation:
            return views[q] if views is not None else me

        phase = me.phase_name
        head = f"Game of Nancy, {n} players, deal {me.rounds_done + (phase != 'over')}, {phase}"
        if phase in ("play", "pick"):
            head += f", trick {min(me.trick_index + 1, _CARDS_EACH[n])} of {_CARDS_EACH[n]}"
        if state.is_terminal:
            head += ": game over"
        else:
            head += f": seat {state.current_player} to act"
        if viewer is not None:
            head += f" (seen by seat {viewer})"
        # the head fits 80 columns: the view goes on a line of its own if need be
        lines = head.rsplit(" (", 1) if len(head) > 80 else [head]
        if len(lines) == 2:
            lines[1] = "(" + lines[1]
        contract = []
        if me.dealer is not None:
            contract.append(f"dealer seat {me.dealer}")
        if me.taker is not None:
            contract.append(f"taker seat {me.taker} (bid {me.bids[me.taker]})")
        if me.called is not None:
            contract.append(f"called {me.called}")
        if me.partner is not None:
            alone = me.partner == me.taker
            contract.append("the taker plays alone" if alone else f"partner seat {me.partner}")
        if contract:
            lines.append(", ".join(contract))
        rows = [("seat", "role", "bid", "hand", "face up")]
        for q in seats:
            role = ("D" if q == me.dealer else "") + ("T" if q == me.taker else "")
            role += "P" if me.partner is not None and q == me.partner != me.taker else ""
            role += "*" if q == state.current_player else ""
            bid = me.bids[q]
            bid_text = "-" if bid is None or bid < 0 else ("pass" if bid == 0 else str(bid))
            ups = me.face_up[q] or NancyCardSet()
            down = me.table_down[q] or 0
            if views is not None or q == viewer:
                hand = str(view(q).hand) or "-"
            else:
                count = held[q] - len(ups) - down
                hand = f"({count} cards)" if held[q] >= 0 else "(? cards)"
            face_up = str(ups) or "-"
            if n == 2:
                face_up += f" over {down} face down"
            rows.append((str(q), role or "-", bid_text, hand, face_up))
        lines += _columns(rows, _TABLE_WIDTH)
        hound = me.hound if views is None or me.taker is None else view(me.taker).hound
        if hound:
            lines.append(f"Hound: {hound}")
        elif phase in ("bidding", "call"):
            lines.append(f"Hound: {_HOUND_SIZE[n]} cards face down")
        discards = me.discards if views is None or me.taker is None else view(me.taker).discards
        if discards:
            lines.append(f"discards: {discards}")
        elif me.shown_trumps:
            lines.append(f"discarded trumps: {me.shown_trumps}")
        trick = me.trick_cards
        if trick:
            lines.append("trick: " + ", ".join(f"seat {q} {c}" for q, c in trick))
        if me.taker is not None and phase in ("play", "pick"):
            piles = view(me.taker)
            lines.append(
                f"tricks won: Nancy {len(piles.nancy_pile)} cards, "
                f"opponents {len(piles.opponents_pile)} cards"
            )
        if me.outsider_debt:
            lines.append("an Outsider exchange card is owed")
        scores = "scores: " + "  ".join(f"seat {q} {me.scores[q]:+d}" for q in seats)
        if len(scores) > _TABLE_WIDTH:
            scores = scores.replace("  ", " ")
        lines.append(scores)
        return "\n".join(lines)


#: The widest line of a table (:meth:`NancyGame.render`): a terminal's 80 columns.
_TABLE_WIDTH = 80


def _cells(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width``, broken between cards (words)."""
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*out, line]


def _columns(rows: Sequence[tuple[str, ...]], width: int) -> list[str]:
    """The rows as columns that fit ``width``; the last two (the cards) wrap
    between cards onto continuation lines when a row is too wide."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    fixed = sum(widths[:-2]) + 2 * (len(widths) - 1)
    room = width - fixed
    if widths[-2] + widths[-1] > room:
        # the hand gets what it needs up to 60% of the room, the rest the face-up cards
        widths[-2] = min(widths[-2], max(room * 3 // 5, room - widths[-1]))
        widths[-1] = room - widths[-2]
    out = []
    for r in rows:
        cells = [[c] for c in r[:-2]] + [_cells(r[-2], widths[-2]), _cells(r[-1], widths[-1])]
        for k in range(max(len(c) for c in cells)):
            parts = [c[k] if k < len(c) else "" for c in cells]
            line = "  ".join(p.ljust(w) for p, w in zip(parts[:-1], widths, strict=False))
            out.append((line + "  " + parts[-1]).rstrip())
    return out


def _held_counts(events: list[Event], n: int) -> list[int]:
    """How many cards each seat holds in the current deal (hand, face-up and
    table cards), counted from the event log (public kinds and seats only);
    -1 when the log no longer holds the deal's start."""
    start = max((i for i, e in enumerate(events) if e.kind == "dealer"), default=-1)
    if start < 0:
        return [-1] * n
    held = [0] * n
    for e in events[start + 1 :]:
        if not 0 <= e.player < n:
            continue
        if e.kind in ("deal", "hound"):
            held[e.player] += 1
        elif e.kind in ("discard", "play"):
            held[e.player] -= 1
    return held


# ---------------------------------------------------------------------------
# rule helpers (docs/nancy.rst, "Trick play", "The objectives", "Result and score")


def legal_cards(
    holding: NancyCardsLike,
    trick: Sequence[NancyCard | int | str] | str,
    rules: NancyRules | None = None,
    *,
    overtrump: bool | None = None,
) -> NancyCardSet:
    """Cards of ``holding`` playable to ``trick`` (cards in play order), under
    ``rules`` (default: :meth:`NancyRules.wiki`) or with ``overtrump`` (a bool:
    on a trump lead, a higher trump must be played if possible).

    >>> str(legal_cards("KR 3S XV OUT", ["5R"]))
    'KR OUT'
    >>> str(legal_cards("3S XV II", "XI", overtrump=False))
    'II XV'
    """
    ot = _overtrump(rules, overtrump, "legal_cards")
    mask = card_mask_arg(holding, "holding", NancyCard)
    ids = _trick(trick)
    for c in ids:
        if mask & NancyCard(c).bit:
            raise InvalidCardError(f"{NancyCard(c)} is both in holding and in trick", str(c))
    return NancyCardSet.from_mask(_core.nancy_legal_cards(mask, ids, ot))


def trick_winner(trick: Sequence[NancyCard | int | str] | str) -> int:
    """Position of the winning card in ``trick`` (-1 if only the Outsider was played).

    >>> trick_winner(["KR", "II", "QR"])
    1
    """
    result: int = _core.nancy_trick_winner(_trick(trick))
    return result


def objectives(
    nancy: NancyCardsLike,
    rules: NancyRules | None = None,
    *,
    arcane_sum_mode: _ArcaneMode | None = None,
) -> int:
    """Mask of objectives 1..7 met by the cards of a Nancy (bit k-1 for
    objective k), under ``rules`` (default: :meth:`NancyRules.wiki`) or with
    ``arcane_sum_mode`` (``"exact_total"``, ``"subset_sum"`` or ``"at_least"``).

    >>> objectives("XXI I")  # Heir's Bodyguard and Master of the Arcane (21 + 1)
    65
    """
    mode = _arcane_mode(rules, arcane_sum_mode, "objectives")
    result: int = _core.nancy_objectives(card_mask_arg(nancy, "nancy", NancyCard), mode)
    return result


def base_score(bid: int, completed: int, won: bool) -> int:
    """The round's base score (docs/nancy.rst, "Result and score"): ``bid``
    1..9, ``completed`` objectives 0..9, ``won`` a bool."""
    result: int = _core.nancy_base_score(bid, completed, won)
    return result


def settlement(
    nplayers: int, taker: int, partner: int, bid: int, completed: int, won: bool
) -> list[int]:
    """Points of each seat for one round (``partner`` -1 when the Taker plays
    alone; else a seat other than the Taker's)."""
    # the engine checks every argument but this one
    result: list[int] = _core.nancy_settlement(nplayers, taker, partner, bid, completed, won)
    if partner == taker:
        raise ValueError(
            f"partner must be -1 (alone) or a seat other than the taker's, got {partner}"
        )
    return result


def batch_legal_cards(
    holdings: npt.NDArray[np.uint64],
    tricks: npt.NDArray[np.int8],
    rules: NancyRules | None = None,
    *,
    overtrump: bool | None = None,
) -> npt.NDArray[np.uint64]:
    """Legal cards per row: holdings ``(n, 2)`` uint64, tricks ``(n, k<=5)`` int8
    (card ids in play order, -1 padding) -> ``(n, 2)`` uint64; the overtrump
    rule from ``rules`` or ``overtrump`` as in :func:`legal_cards`."""
    ot = _overtrump(rules, overtrump, "batch_legal_cards")
    result: npt.NDArray[np.uint64] = _core.nancy_batch_legal_cards(holdings, tricks, ot)
    return result


def batch_trick_winner(tricks: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """Winning position per trick row ``(n, k<=6)`` int8 -> ``(n,)`` int8."""
    result: npt.NDArray[np.int8] = _core.nancy_batch_trick_winner(tricks)
    return result


def batch_objectives(
    nancies: npt.NDArray[np.uint64],
    rules: NancyRules | None = None,
    *,
    arcane_sum_mode: _ArcaneMode | None = None,
) -> npt.NDArray[np.uint16]:
    """Objectives 1..7 mask per Nancy row ``(n, 2)`` uint64 -> ``(n,)`` uint16;
    the Master of the Arcane rule as in :func:`objectives`."""
    mode = _arcane_mode(rules, arcane_sum_mode, "batch_objectives")
    result: npt.NDArray[np.uint16] = _core.nancy_batch_objectives(nancies, mode)
    return result
