"""OpenSpiel's card games in neutral terms: the reference side of the
agreement runs between a card game defined in pycards and OpenSpiel's C++
implementation of the same game.

Nothing here imports pycards: cards, deals and moves are plain tuples, each
OpenSpiel game is driven through ``pyspiel`` alone, and a pycards game joins
through a :class:`Driver` of five methods (``start``, ``to_move``,
``legal_moves``, ``apply``, ``returns``).  :func:`compare` walks both sides on
shared deals with a shared seeded random policy and stops at the first
disagreement; :func:`play_deal` plays one deal on the OpenSpiel side with any
policy.

The vocabulary
--------------
* A **card** is ``Card(rank, suit)``: ``rank`` 2..14 (ace 14), ``suit`` 0..3
  for clubs, diamonds, hearts, spades (:data:`SUIT_CHARS`); ``str`` gives
  ``"QS"``.  The canonical order is the tuple's (rank first, then suit).
  :func:`pycards_id` and :func:`from_pycards_id` convert to and from the ids
  of ``pycards.cards.Card``.
* A **move** is ``Move(kind, card, number, seat)`` (unused fields are
  :data:`NO_CARD` and ``-1``); the kinds:

  =============== ================================== ==============================
  kind            fields                             games
  =============== ================================== ==============================
  ``play``        ``card``                           every trick game
  ``pass``        ``card`` (one card a step)         Hearts' passing
  ``pass``        none                               Euchre's bidding (no trump)
  ``bid``         ``number`` (tricks; 0 is nil)      Oh Hell, Spades
  ``trump``       ``number`` (the suit)              Euchre: order up / name a suit
  ``discard``     ``card``                           Euchre: the dealer's discard
  ``alone``       none                               Euchre: go alone
  ``partner``     none                               Euchre: play with the partner
  ``ask``         ``seat`` (asked), ``number`` rank  Go Fish
  =============== ================================== ==============================

  A policy sees a :class:`Decision`: the seat, the phase (``pass``, ``bid``,
  ``discard``, ``alone``, ``play``, ``ask``) and the sorted legal moves.

* A **deal** is :class:`Deal`: the hands by seat, and where the game has them
  the dealer, Hearts' pass direction, the turned-up card (Euchre's upcard, Oh
  Hell's trump card) and the stock in drawing order (Go Fish).

The mapping to OpenSpiel's ids (from the C++ sources of open_spiel 2.0,
``open_spiel/games/<game>/``; :func:`card_id` and :func:`move_id` implement it,
and the tests check every id against ``action_to_string``)
---------------------------------------------------------------------------
========== ============================== =========================================
game       cards (``r`` = rank - lowest)  other actions and chance outcomes
========== ============================== =========================================
hearts     ``4 r + s``, suits C D H S     chance: pass direction first (0 none, 1
                                          left = seat + 1, 2 across, 3 right), then
                                          52 cards, the k-th to seat ``k % 4``
spades     ``13 s + r``, suits C D H S    bids ``52 + n`` (0 = Nil .. 13); chance:
                                          52 cards, the k-th to seat ``k % 4``
oh_hell    ``S r + t``, ``S`` suits in    bids ``S*R + n``; chance: the number of
           the order C D S H (``t``)      tricks, the dealer, the cards (k-th to
                                          seat ``k % players``), the trump card
euchre     ``4 r + s`` (9..A), C D H S    24 pass, 25..28 trump C D H S, 29 alone,
                                          30 partner; chance: dealer, 20 cards
                                          (k-th to seat ``(dealer + k) % 4``),
                                          the upcard
go_fish    none: ranks only (suits are    ask ``seat * R + r``; chance: a rank,
           copies), ``r`` = rank - 2      seat 0's hand first, then seat 1's...,
                                          then each draw
========== ============================== =========================================

OpenSpiel has no Whist and no German Whist: no registered name contains
"whist" (its ``german_whist_foregame`` was merged and removed again in 2024,
before release 1.6, and never shipped); those two ports have no C++
implementation to agree with.  Its Go Fish is ``go_fish``.

OpenSpiel's rules and defaults (each row is checked by a test against pyspiel,
named after its label, in ``tests/envs/test_openspiel_cards.py``)
-----------------------------------------------------------------------------
====== ============================================================================
label  fact
====== ============================================================================
H1     Hearts: one deal; the pass direction is a chance outcome of each deal
       (uniform over none/left/across/right, not the deal number's rotation);
       ``pass_cards=False`` leaves only "no pass".  Seats pass 3 cards one at a
       time, seat 0 first, then 1, 2, 3; cards passed left go to seat + 1.
       (Quirk: with ``pass_cards=False`` ``chance_outcomes()`` still lists all
       four directions and pyspiel applies any of them, passing cards; only
       ``legal_actions()`` is ``[0]``.  :func:`play_deal` keeps to the legal
       one.)
H2     Hearts: the holder of 2C leads it (``can_lead_any_club=False``); on the
       first trick no heart and no QS unless the hand has nothing else
       (``no_pts_on_first_trick=True``).
H3     Hearts: hearts may not be led until broken (``must_break_hearts=True``),
       unless the hand holds only hearts; QS breaks hearts
       (``qs_breaks_hearts=True``); ``can_lead_hearts_instead_of_qs=False``.
H4     Hearts: points 1 a heart, 13 for QS, -10 for JD if ``jd_bonus`` (default
       off); shooting the moon (all 26, JD not needed): the shooter's points
       drop by 26, every other seat's rise by 26; ``avoid_all_tricks_bonus``
       (off) gives -5 to a seat with no trick when nobody shot the moon.
       Returns are ``26 - points``.
O1     Oh Hell: 3 players by default (3..7), 52 cards; the number of tricks is a
       chance outcome, uniform over 1..(cards - 1) // players, unless
       ``num_tricks_fixed``; the dealer is a chance outcome too.
O2     Oh Hell: the card after the hands is turned up and its suit is trump;
       the seat left of the dealer bids first and leads; the last bidder may
       not make the bids add up to the number of tricks (the "hook").
O3     Oh Hell: must follow suit, else any card; returns: 1 a trick
       (``points_per_trick``) + 10 for making the bid exactly; with
       ``off_bid_penalty``: minus ``points_per_trick`` a trick off the bid.
S1     Spades: one deal, no dealer: seat 0 bids first and leads; partners 0-2
       and 1-3; bids Nil (0) to 13, partners' bids at most 13 together.
S2     Spades: spades are never broken (OpenSpiel never sets its flag): a seat
       may lead a spade only when it holds nothing else; following: suit, else
       any card; spades are trump.
S3     Spades: the partnership's score: 10 a bid trick when the contract is
       made, else -10 a bid trick; +1 a bag (overtrick), -100 when the deal's
       bags reach 10 (running total 0 at the start); Nil +100 made, -100
       failed (the nil bidder's tricks count for the partner).  Returns are the
       partnership's deal score, the same for both partners.
S4     Spades: ``win_threshold`` (500), ``mercy_threshold`` (-350) and
       ``win_or_loss_bonus`` (200) compare the *deal's* score, which one deal
       cannot bring to 500 or -350: on defaults they never apply.  The mercy
       rule applies whatever ``use_mercy_rule`` says (it is never read;
       ``mercy_threshold=0`` turns it off).  ``num_tricks`` only sizes the
       observation tensor.
E1     Euchre: 24 cards 9..A; the dealer is a chance outcome; 5 cards each
       (the first to the dealer), then the upcard; the seat left of the
       dealer bids first.
E2     Euchre: round one: pass or order up the upcard's suit (the dealer takes
       the upcard and discards one of its other 5 cards); round two: pass or
       name another suit; ``stick_the_dealer=True``: the dealer's last call
       cannot pass; without it, 8 passes end the deal with returns all 0.
E3     Euchre: the maker decides alone or with the partner
       (``allow_lone_defender=False``); the seat left of the dealer leads,
       skipping the maker's sitting-out partner; the left bower is a trump.
E4     Euchre: makers score 1 for 3-4 tricks, 2 for 5, 4 for 5 alone, -2 for 0-2
       (-4 against a lone defender; no super-euchre despite OpenSpiel's header
       comment); defenders the negative (zero sum).
G1     Go Fish: 2 players, 13 ranks x 4 copies (suits do not exist), 7 cards
       each (5 for 3+ players); seat 0 asks first; an ask names a seat with
       cards and a rank the asker holds.
G2     Go Fish: a hit (cards received, or the asked rank drawn) keeps the turn;
       a miss draws (if the stock has cards) and passes the turn; a seat with
       no cards draws and may then ask (``ask_after_empty_draw=True``); a book
       is 4 of a rank, scored at once, even in the deal, where the seat is then
       dealt more (seat 0 is dealt its whole hand first, then seat 1...;
       :func:`go_fish_hands` splits a dealing order the same way).
G3     Go Fish: the game ends when every card is in a book; returns: the seats
       with the most books share +1, the others share -1; all tied: 0.
====== ============================================================================
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

__all__ = [
    "GAMES",
    "NO_CARD",
    "SUIT_CHARS",
    "Card",
    "Deal",
    "Decision",
    "Disagreement",
    "Driver",
    "Move",
    "OpenSpielDriver",
    "OpenSpielState",
    "Step",
    "Trajectory",
    "card_id",
    "cards",
    "chance_outcomes",
    "compare",
    "deal_from_history",
    "deck",
    "from_pycards_id",
    "go_fish_hands",
    "move_from_id",
    "move_id",
    "play_deal",
    "pycards_id",
    "random_deal",
    "random_policy",
]

#: the OpenSpiel games this module drives
GAMES = ("hearts", "oh_hell", "spades", "euchre", "go_fish")

#: the suits' letters, by neutral suit number
SUIT_CHARS = "CDHS"
_RANK_CHARS = {r: c for r, c in zip(range(2, 15), "23456789TJQKA", strict=True)}


class Card(NamedTuple):
    """A card: ``rank`` 2..14 (ace 14), ``suit`` 0..3 (C, D, H, S)."""

    rank: int
    suit: int

    def __str__(self) -> str:
        return _RANK_CHARS[self.rank] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})" if self.suit >= 0 else "NO_CARD"

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card named ``text`` (``"QS"``, ``"TD"``)."""
        ranks = {c: r for r, c in _RANK_CHARS.items()}
        if len(text) != 2 or text[0].upper() not in ranks or text[1].upper() not in SUIT_CHARS:
            raise ValueError(f"no card is named {text!r}")
        return cls(ranks[text[0].upper()], SUIT_CHARS.index(text[1].upper()))


def pycards_id(card: Card) -> int:
    """The id of ``card`` in pycards' 52-card deck (``suit * 13 + rank``,
    ranks ``A23456789TJQK``, suits ``CDHS``)."""
    return card.suit * 13 + (0 if card.rank == 14 else card.rank - 1)


def from_pycards_id(card: int) -> Card:
    """The card of pycards' 52-card id ``card``."""
    if not 0 <= card < 52:
        raise ValueError(f"{card} is no id of a 52-card deck")
    rank = card % 13
    return Card(14 if rank == 0 else rank + 1, card // 13)


#: the card field of a move that has none
NO_CARD = Card(0, -1)


class Move(NamedTuple):
    """A neutral move (the kinds are in the module's docstring)."""

    kind: str
    card: Card = NO_CARD
    number: int = -1
    seat: int = -1

    def __str__(self) -> str:
        if self.card != NO_CARD:
            return f"{self.kind} {self.card}"
        if self.kind == "ask":
            return f"ask {self.seat} for {_RANK_CHARS[self.number]}"
        if self.kind == "trump":
            return f"trump {SUIT_CHARS[self.number]}"
        if self.number >= 0:
            return f"{self.kind} {self.number}"
        return self.kind

    def __repr__(self) -> str:
        return f"<{self}>"


def cards(text: str) -> tuple[Card, ...]:
    """The cards named in ``text``, separated by spaces."""
    return tuple(Card.parse(t) for t in text.split())


@dataclass(frozen=True)
class Deal:
    """One deal: what the chance events of OpenSpiel's game must produce.

    :param hands: each seat's cards, in the order they are dealt (the order
        shows only in OpenSpiel's history).
    :param dealer: the dealer (Oh Hell, Euchre), else ``None``.
    :param pass_direction: Hearts: 0 no pass, 1 left (to seat + 1), 2 across,
        3 right; ``None`` elsewhere.
    :param upcard: the card turned up (Euchre's upcard, Oh Hell's trump card).
    :param stock: Go Fish: the undealt cards, top (first drawn) first.
    """

    hands: tuple[tuple[Card, ...], ...]
    dealer: int | None = None
    pass_direction: int | None = None
    upcard: Card | None = None
    stock: tuple[Card, ...] = ()


class Decision(NamedTuple):
    """What a policy is shown: the seat to move, the phase and the legal moves
    (sorted)."""

    seat: int
    phase: str
    legal: tuple[Move, ...]


class Step(NamedTuple):
    """One decision of a trajectory and the move made."""

    seat: int
    phase: str
    legal: tuple[Move, ...]
    move: Move


@dataclass
class Trajectory:
    """A deal played on OpenSpiel's side: its steps, the final returns, the
    game's own score of the deal (Hearts: the points taken, ``26 - return``;
    elsewhere the returns), OpenSpiel's action history and its final state
    string."""

    steps: list[Step] = field(default_factory=list)
    returns: tuple[float, ...] = ()
    scores: tuple[float, ...] = ()
    history: list[int] = field(default_factory=list)
    final_string: str = ""


Policy = Callable[[Decision], Move]


# ---------------------------------------------------------------------------
# the decks and the id tables


def _param(game: str, params: dict[str, Any], name: str) -> Any:
    return params.get(name, _defaults(game)[name])


@functools.cache
def _defaults(game: str) -> dict[str, Any]:
    import pyspiel

    return dict(pyspiel.load_game(game).get_type().parameter_specification)


def _n_cards(game: str, params: dict[str, Any]) -> int:
    if game == "oh_hell":
        return int(_param(game, params, "num_suits") * _param(game, params, "num_cards_per_suit"))
    if game == "go_fish":
        return int(_param(game, params, "suits") * _param(game, params, "ranks"))
    return 24 if game == "euchre" else 52


#: Oh Hell's suit index (C D S H) to the neutral suit
_OH_SUITS = (0, 1, 3, 2)


def deck(game: str, params: dict[str, Any] | None = None) -> list[Card]:
    """The game's cards in the canonical order (Go Fish: ``suits`` copies of
    each of its ``ranks`` ranks, as suits 0.. of the neutral deck)."""
    p = params or {}
    if game in ("hearts", "spades"):
        out = [Card(r, s) for r in range(2, 15) for s in range(4)]
    elif game == "euchre":
        out = [Card(r, s) for r in range(9, 15) for s in range(4)]
    elif game == "oh_hell":
        n_suits = _param(game, p, "num_suits")
        out = [
            Card(2 + r, _OH_SUITS[t])
            for r in range(_param(game, p, "num_cards_per_suit"))
            for t in range(n_suits)
        ]
    elif game == "go_fish":
        out = [
            Card(2 + r, s)
            for r in range(_param(game, p, "ranks"))
            for s in range(_param(game, p, "suits"))
        ]
    else:
        raise ValueError(f"unknown game {game!r}; one of {GAMES}")
    return sorted(out)


def card_id(game: str, card: Card, params: dict[str, Any] | None = None) -> int:
    """OpenSpiel's action id of ``card`` (Go Fish: its rank's chance outcome)."""
    p = params or {}
    if game == "hearts":
        return 4 * (card.rank - 2) + card.suit
    if game == "spades":
        return 13 * card.suit + card.rank - 2
    if game == "euchre":
        return 4 * (card.rank - 9) + card.suit
    if game == "oh_hell":
        return int(_param(game, p, "num_suits")) * (card.rank - 2) + _OH_SUITS.index(card.suit)
    if game == "go_fish":
        return card.rank - 2
    raise ValueError(f"unknown game {game!r}; one of {GAMES}")


def _card_of_id(game: str, action: int, params: dict[str, Any]) -> Card:
    if game == "hearts":
        return Card(2 + action // 4, action % 4)
    if game == "spades":
        return Card(2 + action % 13, action // 13)
    if game == "euchre":
        return Card(9 + action // 4, action % 4)
    if game == "oh_hell":
        n = _param(game, params, "num_suits")
        return Card(2 + action // n, _OH_SUITS[action % n])
    raise ValueError(f"{game}: no card has id {action}")


_EUCHRE_PASS, _EUCHRE_TRUMP, _EUCHRE_ALONE, _EUCHRE_PARTNER = 24, 25, 29, 30


def move_id(game: str, move: Move, params: dict[str, Any] | None = None) -> int:
    """OpenSpiel's action id of a player's ``move``."""
    p = params or {}
    kind = move.kind
    if kind in ("play", "discard") or (kind == "pass" and game == "hearts"):
        return card_id(game, move.card, p)
    if kind == "bid" and game == "spades":
        return 52 + move.number
    if kind == "bid" and game == "oh_hell":
        return _n_cards(game, p) + move.number
    if game == "euchre":
        if kind == "pass":
            return _EUCHRE_PASS
        if kind == "trump":
            return _EUCHRE_TRUMP + move.number
        if kind == "alone":
            return _EUCHRE_ALONE
        if kind == "partner":
            return _EUCHRE_PARTNER
    if kind == "ask" and game == "go_fish":
        return move.seat * int(_param(game, p, "ranks")) + move.number - 2
    raise ValueError(f"{game}: no action for the move {move}")


def move_from_id(game: str, phase: str, action: int, params: dict[str, Any] | None = None) -> Move:
    """The neutral move of OpenSpiel's player action ``action`` in ``phase``."""
    p = params or {}
    if game == "go_fish":
        ranks = _param(game, p, "ranks")
        return Move("ask", seat=action // ranks, number=2 + action % ranks)
    if game == "euchre" and action >= _EUCHRE_PASS:
        if action == _EUCHRE_PASS:
            return Move("pass")
        if action < _EUCHRE_ALONE:
            return Move("trump", number=action - _EUCHRE_TRUMP)
        return Move("alone" if action == _EUCHRE_ALONE else "partner")
    n_cards = _n_cards(game, p)
    if action >= n_cards:
        return Move("bid", number=action - n_cards)
    return Move(phase, _card_of_id(game, action, p))


# ---------------------------------------------------------------------------
# deals: chance outcomes from a deal, a deal from chance outcomes, random deals


def _check_deal(game: str, params: dict[str, Any], deal: Deal) -> int:
    """The number of seats; raises ``ValueError`` on a deal the game cannot
    have."""
    import pyspiel

    n = int(pyspiel.load_game(game, params).num_players())
    if len(deal.hands) != n:
        raise ValueError(f"{game}: {len(deal.hands)} hands for {n} seats")
    needs = {
        "hearts": ("pass_direction",),
        "spades": (),
        "oh_hell": ("dealer", "upcard"),
        "euchre": ("dealer", "upcard"),
        "go_fish": (),
    }[game]
    for name in ("dealer", "pass_direction", "upcard"):
        if (getattr(deal, name) is not None) != (name in needs):
            raise ValueError(
                f"{game}: the deal's {name} must be {'set' if name in needs else 'None'}"
            )
    every = [c for h in deal.hands for c in h] + list(deal.stock)
    if deal.upcard is not None:
        every.append(deal.upcard)
    the_deck = deck(game, params)
    if game == "go_fish":
        if sorted(every) != the_deck:
            raise ValueError("go_fish: the hands and the stock must be the whole deck")
    elif len(set(every)) != len(every) or not set(every) <= set(the_deck):
        raise ValueError(f"{game}: repeated cards or cards not in the deck")
    if game == "go_fish":
        sequence = [c for h in deal.hands for c in h] + list(deal.stock)
        dealt = go_fish_hands(params, n, sequence)
        if dealt != [list(h) for h in deal.hands]:
            raise ValueError(f"go_fish: dealt in this order, the hands would be {dealt}")
    else:
        sizes = {len(h) for h in deal.hands}
        if len(sizes) != 1:
            raise ValueError(f"{game}: hands of different sizes {sorted(sizes)}")
        size = len(deal.hands[0])
        wanted = {"hearts": 13, "spades": 13, "euchre": 5}.get(game, size)
        if size != wanted or size < 1:
            raise ValueError(f"{game}: hands of {size} cards, the game deals {wanted}")
    if deal.stock and game != "go_fish":
        raise ValueError(f"{game}: no stock in this game")
    if deal.dealer is not None and not 0 <= deal.dealer < n:
        raise ValueError(f"{game}: dealer {deal.dealer} is no seat")
    return n


def go_fish_hands(params: dict[str, Any], n: int, sequence: Sequence[Card]) -> list[list[Card]]:
    """The hands OpenSpiel deals from ``sequence`` (in order) in Go Fish: each
    card goes to the first seat not holding ``initial_cards`` cards, so a seat
    that completes a book while being dealt (it is scored at once) receives
    more; the deal ends when the last seat's count reaches ``initial_cards``
    (or, with ``end_on_first_out``, when a book leaves a seat with no card)."""
    size = _param("go_fish", params, "initial_cards")
    size = (7 if n == 2 else 5) if size == -1 else size
    suits = _param("go_fish", params, "suits")
    first_out = _param("go_fish", params, "end_on_first_out")
    hands: list[list[Card]] = [[] for _ in range(n)]
    held = [0] * n
    counts = [[0] * 15 for _ in range(n)]
    for card in sequence:
        seat = next(k for k in range(n) if held[k] != size)
        hands[seat].append(card)
        held[seat] += 1
        counts[seat][card.rank] += 1
        last = held[seat] == size and seat == n - 1
        if counts[seat][card.rank] == suits:
            held[seat] -= suits
            counts[seat][card.rank] = 0
            if held[seat] == 0 and first_out:
                return hands
        if last:
            return hands
    raise ValueError("go_fish: the deck runs out before the deal ends")


def chance_outcomes(game: str, params: dict[str, Any], deal: Deal) -> list[int]:
    """The chance outcomes, in order, that deal ``deal`` (Go Fish: the deal
    only; its draws come from ``deal.stock`` during play)."""
    n = _check_deal(game, params, deal)
    hands = [list(h) for h in deal.hands]
    size = len(hands[0])
    out: list[int] = []
    if game == "hearts":
        assert deal.pass_direction is not None
        out.append(deal.pass_direction)
    if game == "oh_hell":
        assert deal.dealer is not None
        out += [size, deal.dealer]
    if game == "euchre":
        assert deal.dealer is not None
        out.append(deal.dealer)
    if game == "go_fish":
        return [card_id(game, c, params) for h in hands for c in h]
    first = deal.dealer if game == "euchre" else 0
    assert first is not None
    for i in range(size):
        for k in range(n):
            out.append(card_id(game, hands[(first + k) % n][i], params))
    if deal.upcard is not None:
        out.append(card_id(game, deal.upcard, params))
    return out


def deal_from_history(game: str, params: dict[str, Any], history: Sequence[int]) -> Deal:
    """The deal made by the chance outcomes at the start of an OpenSpiel
    ``history`` (the inverse of :func:`chance_outcomes`; Go Fish is not
    covered: its chance outcomes are ranks, not cards)."""
    import pyspiel

    n = pyspiel.load_game(game, params).num_players()
    h = list(history)
    dealer: int | None = None
    pass_direction: int | None = None
    if game == "hearts":
        pass_direction, h = h[0], h[1:]
        size = 13
    elif game == "spades":
        size = 13
    elif game == "oh_hell":
        size, dealer, h = h[0], h[1], h[2:]
    elif game == "euchre":
        dealer, h, size = h[0], h[1:], 5
    else:
        raise ValueError(f"{game}: no deal from its history")
    first = dealer if game == "euchre" else 0
    assert first is not None
    hands: list[list[Card]] = [[] for _ in range(n)]
    for k, a in enumerate(h[: size * n]):
        hands[(first + k) % n].append(_card_of_id(game, a, params))
    upcard = _card_of_id(game, h[size * n], params) if game in ("oh_hell", "euchre") else None
    return Deal(
        hands=tuple(tuple(x) for x in hands),
        dealer=dealer,
        pass_direction=pass_direction,
        upcard=upcard,
    )


def random_deal(game: str, params: dict[str, Any] | None, seed: int) -> Deal:
    """A deal drawn from ``seed``, with OpenSpiel's chance distribution (the
    pass direction, the dealer and Oh Hell's number of tricks uniform)."""
    import pyspiel

    p = params or {}
    rng = random.Random(seed)
    n = pyspiel.load_game(game, p).num_players()
    cards_ = deck(game, p)
    rng.shuffle(cards_)
    if game in ("hearts", "spades"):
        hands = [cards_[13 * k : 13 * k + 13] for k in range(n)]
        return Deal(
            hands=tuple(tuple(sorted(x)) for x in hands),
            pass_direction=(rng.randrange(4) if _param(game, p, "pass_cards") else 0)
            if game == "hearts"
            else None,
        )
    if game == "go_fish":
        hands = go_fish_hands(p, n, cards_)
        used = sum(len(h) for h in hands)
        return Deal(hands=tuple(tuple(x) for x in hands), stock=tuple(cards_[used:]))
    if game == "oh_hell":
        fixed = _param(game, p, "num_tricks_fixed")
        size = fixed if fixed > 0 else rng.randint(1, (len(cards_) - 1) // n)
    else:
        size = 5
    hands = [cards_[size * k : size * k + size] for k in range(n)]
    return Deal(
        hands=tuple(tuple(sorted(x)) for x in hands),
        dealer=rng.randrange(n),
        upcard=cards_[size * n],
    )


# ---------------------------------------------------------------------------
# the driver protocol, and OpenSpiel's driver


class Driver(Protocol):
    """What one side of :func:`compare` implements, in neutral terms.

    A state may be any object; ``apply`` returns the state after the move (it
    may change and return the same object).
    """

    def start(self, deal: Deal) -> Any:
        """The state after ``deal``, at the first decision."""

    def to_move(self, state: Any) -> int:
        """The seat to move, or -1 when the deal is over."""

    def legal_moves(self, state: Any) -> Iterable[Move]:
        """The legal moves (any order; empty when the deal is over)."""

    def apply(self, state: Any, move: Move) -> Any:
        """The state after the seat to move makes ``move``."""

    def returns(self, state: Any) -> Sequence[float]:
        """Each seat's return at the end of the deal."""


@dataclass
class OpenSpielState:
    """The state of :class:`OpenSpielDriver`: pyspiel's state, and the ids
    of the stock still to draw (Go Fish)."""

    state: Any
    stock: list[int]


class OpenSpielDriver:
    """The :class:`Driver` of OpenSpiel's game ``game`` with ``params``: the
    chance events come from the deal (and, in Go Fish, from its stock in
    order)."""

    def __init__(self, game: str, params: dict[str, Any] | None = None) -> None:
        import pyspiel

        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; one of {GAMES}")
        self.name = game
        self.params = dict(params or {})
        self.game = pyspiel.load_game(game, self.params)

    def start(self, deal: Deal) -> OpenSpielState:
        """Deal ``deal`` into a new OpenSpiel state."""
        s = self.game.new_initial_state()
        for a in chance_outcomes(self.name, self.params, deal):
            if not s.is_chance_node() or a not in s.legal_actions():
                raise ValueError(f"{self.name}: chance outcome {a} is not possible here")
            s.apply_action(a)
        out = OpenSpielState(s, [card_id(self.name, c, self.params) for c in deal.stock])
        self._draw(out)
        return out

    def _draw(self, st: OpenSpielState) -> None:
        s = st.state
        while s.is_chance_node():
            if not st.stock:
                raise ValueError(f"{self.name}: the stock is empty at a draw")
            a = st.stock.pop(0)
            if a not in s.legal_actions():
                raise ValueError(f"{self.name}: the next stock card cannot be drawn")
            s.apply_action(a)

    def to_move(self, st: OpenSpielState) -> int:
        """The seat to move, or -1."""
        return -1 if st.state.is_terminal() else int(st.state.current_player())

    def phase(self, st: OpenSpielState) -> str:
        """The phase of the decision: ``pass``, ``bid``, ``discard``,
        ``alone``, ``ask`` or ``play``."""
        s = st.state
        if s.is_terminal():
            return "over"
        legal = s.legal_actions()
        if self.name == "go_fish":
            return "ask"
        if self.name == "hearts":
            history = s.history()
            return "pass" if history[0] != 0 and len(history) < 53 + 12 else "play"
        if self.name == "euchre":
            if legal[0] >= _EUCHRE_ALONE:
                return "alone"
            if legal[-1] >= _EUCHRE_PASS:
                return "bid"
            # the dealer's discard follows an order up in the first round
            return "discard" if _EUCHRE_TRUMP <= s.history()[-1] < _EUCHRE_ALONE else "play"
        return "bid" if legal[0] >= _n_cards(self.name, self.params) else "play"

    def legal_moves(self, st: OpenSpielState) -> list[Move]:
        """The legal moves, sorted."""
        if st.state.is_terminal():
            return []
        phase = self.phase(st)
        return sorted(
            move_from_id(self.name, phase, a, self.params) for a in st.state.legal_actions()
        )

    def decision(self, st: OpenSpielState) -> Decision:
        """The decision at ``st``."""
        return Decision(self.to_move(st), self.phase(st), tuple(self.legal_moves(st)))

    def apply(self, st: OpenSpielState, move: Move) -> OpenSpielState:
        """Make ``move`` (``ValueError`` if it is not legal)."""
        if move not in self.legal_moves(st):
            raise ValueError(f"{self.name}: {move} is not legal here")
        st.state.apply_action(move_id(self.name, move, self.params))
        self._draw(st)
        return st

    def returns(self, st: OpenSpielState) -> tuple[float, ...]:
        """OpenSpiel's returns."""
        return tuple(float(x) for x in st.state.returns())


def play_deal(game: str, params: dict[str, Any] | None, deal: Deal, policy: Policy) -> Trajectory:
    """Play ``deal`` in OpenSpiel's ``game``, each decision by ``policy``.

    :raises ValueError: on a deal the game cannot have, an illegal move, or a
        deal still going after OpenSpiel's ``max_game_length`` decisions.
    """
    driver = OpenSpielDriver(game, params)
    st = driver.start(deal)
    traj = Trajectory()
    limit = driver.game.max_game_length()
    while not st.state.is_terminal():
        if len(traj.steps) >= limit:
            raise ValueError(f"{game}: no end after {limit} moves")
        d = driver.decision(st)
        move = policy(d)
        driver.apply(st, move)
        traj.steps.append(Step(d.seat, d.phase, d.legal, move))
    traj.returns = driver.returns(st)
    traj.scores = tuple(26.0 - r for r in traj.returns) if game == "hearts" else traj.returns
    traj.history = [int(a) for a in st.state.history()]
    traj.final_string = str(st.state)
    return traj


def random_policy(seed: int) -> Policy:
    """A policy choosing uniformly among the sorted legal moves, from
    ``seed``."""
    rng = random.Random(seed)

    def choose(decision: Decision) -> Move:
        return decision.legal[rng.randrange(len(decision.legal))]

    return choose


# ---------------------------------------------------------------------------
# the agreement loop


@dataclass(frozen=True)
class Disagreement:
    """The first place two drivers differ: the deal's index, the step (the
    number of moves made before), what differs (``seat``, ``legal`` or
    ``returns``) and both sides' values (``ours`` is the driver under test,
    ``theirs`` OpenSpiel's)."""

    deal_index: int
    step: int
    what: str
    ours: Any
    theirs: Any
    moves: tuple[Move, ...] = ()

    def __str__(self) -> str:
        return (
            f"deal {self.deal_index}, step {self.step}: {self.what} differ\n"
            f"  ours:   {self.ours}\n  theirs: {self.theirs}\n"
            f"  moves so far: {' '.join(map(str, self.moves))}"
        )


def compare(
    driver: Driver,
    game: str,
    deals: Iterable[Deal],
    params: dict[str, Any] | None = None,
    seed: int = 0,
    reference: Driver | None = None,
) -> Disagreement | None:
    """Walk ``driver`` and OpenSpiel's ``game`` (or ``reference``) through
    ``deals`` with one random policy (deal ``i`` seeded by ``(seed, i)``):
    the seat to move and the set of legal moves must agree at every step, and
    the returns at the end (to 1e-9).  Returns the first
    :class:`Disagreement`, or ``None`` when all agree."""
    theirs = reference if reference is not None else OpenSpielDriver(game, params)
    for i, deal in enumerate(deals):
        rng = random.Random(f"{seed}:{i}")
        a, b = driver.start(deal), theirs.start(deal)
        moves: list[Move] = []
        while True:
            seat_a, seat_b = driver.to_move(a), theirs.to_move(b)
            if seat_a != seat_b:
                return Disagreement(i, len(moves), "seat", seat_a, seat_b, tuple(moves))
            legal_a, legal_b = sorted(driver.legal_moves(a)), sorted(theirs.legal_moves(b))
            if legal_a != legal_b:
                return Disagreement(i, len(moves), "legal", legal_a, legal_b, tuple(moves))
            if seat_b == -1:
                break
            move = legal_b[rng.randrange(len(legal_b))]
            a, b = driver.apply(a, move), theirs.apply(b, move)
            moves.append(move)
        ret_a, ret_b = tuple(driver.returns(a)), tuple(theirs.returns(b))
        if len(ret_a) != len(ret_b) or any(
            abs(x - y) > 1e-9 for x, y in zip(ret_a, ret_b, strict=True)
        ):
            return Disagreement(i, len(moves), "returns", ret_a, ret_b, tuple(moves))
    return None
