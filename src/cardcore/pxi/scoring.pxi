# Scoring: the games' scoring entry points beyond their tables (itemized and
# batch scorers, score distributions, best splits, discard analysis), declared
# in _cardcore.pxd.  First the checks every scorer shares: the rules
# parameters (against the game's table), the card ids that go with a batch of
# hands (a starter or a turn-up each) and a play sequence; then each scorer's
# conversions, by game.  Conversions and status codes only: every check of a
# value is the C engine's.


cdef int _game_params(str fn, object params, const cc_game *g, int32_t *out) except -1:
    """Fill out[] (room for CC_MAX_PARAMS ints) with the rules params of game g, as the
    engine checks them without a player count."""
    if isinstance(params, (str, bytes)) or not hasattr(params, "__iter__"):
        raise TypeError(f"{fn}: params must be a sequence of ints, got {params!r}")
    params = tuple(params)
    if g.num_params > CC_MAX_PARAMS:  # out[] holds CC_MAX_PARAMS (32) ints
        raise ValueError(f"{fn}: the game has {g.num_params} parameters, over {CC_MAX_PARAMS}")
    if len(params) != g.num_params:
        raise ValueError(f"{fn}: expected {g.num_params} rules parameters, got {len(params)}")
    for i, v in enumerate(params):
        name = g.params[i].name.decode()
        out[i] = _int_arg(v, f"{fn}: rules parameter {i} ({name})", -2147483648, 2147483647)
    cdef int32_t bad = -1
    if cc_game_check_params(g, out, 0, &bad) != CC_OK:
        name = g.params[bad].name.decode() if 0 <= bad < g.num_params else "?"
        raise ValueError(f"{fn}: rules parameter {bad} ({name}) is out of range: {out[bad]}")
    return 0


cdef object _card_ids_array(object arr, str name, int64_t n):
    """arr, when it is a 1-D C-contiguous uint8 array of n card ids, one for each
    of n hands (their name: "hands")."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name}: expected a numpy.ndarray of uint8, got {type(arr).__name__}")
    if arr.dtype != np.uint8:
        raise TypeError(f"{name}: expected dtype uint8, got {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, got {arr.ndim} dimensions")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name}: array must be C-contiguous (use numpy.ascontiguousarray)")
    if arr.shape[0] != n:
        raise ValueError(f"hands and {name} differ in length ({n} != {arr.shape[0]})")
    return arr


cdef list _play_seq(str fn, object seq, int most, uint8_t *buf):
    """The card ids of play sequence seq (1 to most of them, each 0..255) as a
    list, and in buf[] (room for most)."""
    if isinstance(seq, (str, bytes)) or not hasattr(seq, "__iter__"):
        raise TypeError(f"{fn}: seq must be a sequence of card ids, got {seq!r}")
    cards = [_int_arg(c, f"{fn}: card {i}", 0, 255) for i, c in enumerate(seq)]
    if not 1 <= len(cards) <= most:
        raise ValueError(f"{fn}: 1 to {most} cards, got {len(cards)}")
    for i, c in enumerate(cards):
        buf[i] = c
    return cards


cdef int _play_status(int32_t n, str fn, list seq) except -1:
    """Raise for the status n of a play scorer given seq."""
    if n == CC_E_CARDS:
        raise ValueError(f"{fn}: {seq!r} must be distinct card ids 0..51")
    if n == CC_E_ARG:
        raise ValueError(f"{fn}: {seq!r} totals over 31")
    _check(n, fn)
    return 0

# ---- Nodde Knave (cc_nodde.h) -------------------------------------------------

cdef int _nodde_params(str fn, object params, int32_t *out) except -1:
    return _game_params(fn, params, &cc_game_nodde, out)


def nodde_score_hand(object hand, object turnup, object params):
    """Itemized hand score: a list of (kind, cards bitset, points)."""
    cdef int32_t p[32]  # CC_MAX_PARAMS
    _nodde_params("nodde_score_hand", params, p)
    cdef uint64_t h = _mask52(_int_arg(hand, "nodde_score_hand: hand", 0, 0xFFFFFFFFFFFFFFFF),
                              "nodde_score_hand: hand")
    cdef int32_t t = _int_arg(turnup, "nodde_score_hand: turnup", -2147483648, 2147483647)
    cdef cc_nodde_item items[32]
    cdef int32_t n = cc_nodde_hand_items(h, t, p, items, 32)
    if n == CC_E_CARDS:
        _hand_error("nodde_score_hand", h, 3, "turnup", t)
    _check(n, "nodde_score_hand")
    return [(items[i].kind, items[i].cards, items[i].points) for i in range(n)]


def nodde_score_play(object seq, object params):
    """What the last card of a play sequence makes: a list of (kind, cards, points)."""
    cdef int32_t p[32]  # CC_MAX_PARAMS
    _nodde_params("nodde_score_play", params, p)
    cdef uint8_t buf[12]
    seq = _play_seq("nodde_score_play", seq, CC_NODDE_MAX_PLAY, buf)
    cdef cc_nodde_item items[8]
    cdef int32_t n = cc_nodde_play_items(buf, len(seq), p, items, 8)
    _play_status(n, "nodde_score_play", seq)
    return [(items[i].kind, items[i].cards, items[i].points) for i in range(n)]


def nodde_batch_score_hand(object hands, object turnups, object params, *, object out=None,
                           object threads=1):
    """Hand scores of (hands[i], turnups[i]): uint64 bitsets and uint8 card ids -> int32
    (``out=``, ``threads=``: pxi/batch_out.pxi)."""
    cdef int32_t p[32]  # CC_MAX_PARAMS
    _nodde_params("nodde_batch_score_hand", params, p)
    cdef const uint64_t[::1] h = _u64_array(hands, "hands")
    cdef const uint8_t[::1] t = _card_ids_array(turnups, "turnups", h.shape[0])
    cdef int64_t n = h.shape[0]
    cdef int32_t nt = _threads_arg(threads, "nodde_batch_score_hand")
    out = _out_array(out, "nodde_batch_score_hand", "out", np.int32, (n,), (hands, turnups))
    if n == 0:
        return out
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef _batch_args x = _batch_of(_K_NODDE_HAND, h, &bad, NULL, nt)
    x.cards8 = &t[0]
    x.params = p
    x.out32 = &o[0]
    cdef int32_t rc = _run_batch(&x)
    if rc == CC_E_CARDS:
        # bad is the first offending deal; the values are read once, by the C loop,
        # so the message quotes the index only (the arrays may be shared)
        raise ValueError(
            f"nodde_batch_score_hand: deal {bad}: the hand must be 3 cards and the "
            "turn-up a card id 0..51 not in the hand"
        )
    _check(rc, "nodde_batch_score_hand")
    return out


def nodde_hand_distribution(object params):
    """Counts of hand scores over all 22,100 x 49 deals (int64 array, index = score)."""
    cdef int32_t p[32]  # CC_MAX_PARAMS
    _nodde_params("nodde_hand_distribution", params, p)
    out = np.zeros(CC_NODDE_HIST_SIZE, dtype=np.int64)
    cdef int64_t[::1] o = out
    cdef int32_t rc
    with nogil:
        rc = cc_nodde_hand_distribution(p, &o[0])
    _check(rc, "nodde_hand_distribution")
    return out

# ---- cribbage (cc_cribbage.h): the show, the play, discard analysis -----------

cdef int _cribbage_params(str fn, object params, int32_t *out) except -1:
    return _game_params(fn, params, &cc_game_cribbage, out)


cdef int32_t _is_crib(str fn, object is_crib) except -1:
    if not isinstance(is_crib, bool):
        raise TypeError(f"{fn}: is_crib must be a bool, got {is_crib!r}")
    return 1 if is_crib else 0


def cribbage_score_show(object hand, object starter, object is_crib, object params):
    """Itemized show score of a 4-card hand or crib: a list of (kind, cards bitset, points)."""
    cdef int32_t p[32]  # CC_MAX_PARAMS
    _cribbage_params("cribbage_score_show", params, p)
    cdef int32_t crib = _is_crib("cribbage_score_show", is_crib)
    cdef uint64_t h = _mask52(_int_arg(hand, "cribbage_score_show: hand", 0, 0xFFFFFFFFFFFFFFFF),
                              "cribbage_score_show: hand")
    cdef int32_t t = _int_arg(starter, "cribbage_score_show: starter", -2147483648, 2147483647)
    cdef cc_cribbage_item items[32]
    cdef int32_t n = cc_cribbage_show_items(h, t, crib, p, items, 32)
    if n == CC_E_CARDS:
        _hand_error("cribbage_score_show", h, 4, "starter", t)
    _check(n, "cribbage_score_show")
    return [(items[i].kind, items[i].cards, items[i].points) for i in range(n)]


def cribbage_score_play(object seq):
    """What the last card of a count makes: a list of (kind, cards, points)."""
    cdef uint8_t buf[16]
    seq = _play_seq("cribbage_score_play", seq, CC_CRIBBAGE_MAX_PLAY, buf)
    cdef cc_cribbage_item items[8]
    cdef int32_t n = cc_cribbage_play_items(buf, len(seq), items, 8)
    _play_status(n, "cribbage_score_play", seq)
    return [(items[i].kind, items[i].cards, items[i].points) for i in range(n)]


def cribbage_batch_score_show(object hands, object starters, object is_crib, object params, *,
                              object out=None, object threads=1):
    """Show scores of (hands[i], starters[i]): uint64 bitsets and uint8 card ids -> int32
    (``out=``, ``threads=``: pxi/batch_out.pxi)."""
    cdef int32_t p[32]  # CC_MAX_PARAMS
    _cribbage_params("cribbage_batch_score_show", params, p)
    cdef int32_t crib = _is_crib("cribbage_batch_score_show", is_crib)
    cdef const uint64_t[::1] h = _u64_array(hands, "hands")
    cdef const uint8_t[::1] t = _card_ids_array(starters, "starters", h.shape[0])
    cdef int64_t n = h.shape[0]
    cdef int32_t nt = _threads_arg(threads, "cribbage_batch_score_show")
    out = _out_array(out, "cribbage_batch_score_show", "out", np.int32, (n,), (hands, starters))
    if n == 0:
        return out
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    cdef _batch_args x = _batch_of(_K_CRIBBAGE_SHOW, h, &bad, NULL, nt)
    x.cards8 = &t[0]
    x.flag = crib
    x.params = p
    x.out32 = &o[0]
    cdef int32_t rc = _run_batch(&x)
    if rc == CC_E_CARDS:
        raise ValueError(
            f"cribbage_batch_score_show: deal {bad}: the hand must be 4 cards and the "
            "starter a card id 0..51 not in the hand"
        )
    _check(rc, "cribbage_batch_score_show")
    return out


def cribbage_show_distribution(object is_crib, object params):
    """Counts of show scores over all 270,725 x 48 (hand, starter) pairs (int64, index = score)."""
    cdef int32_t p[32]  # CC_MAX_PARAMS
    _cribbage_params("cribbage_show_distribution", params, p)
    cdef int32_t crib = _is_crib("cribbage_show_distribution", is_crib)
    out = np.zeros(CC_CRIBBAGE_HIST_SIZE, dtype=np.int64)
    cdef int64_t[::1] o = out
    cdef int32_t rc
    with nogil:
        rc = cc_cribbage_show_distribution(crib, p, &o[0])
    _check(rc, "cribbage_show_distribution")
    return out


def cribbage_batch_discards(object hands, object params, object with_crib):
    """Discard analysis of 6-card hands: (hand sums int32 (n, 15), crib means float64
    (n, 15) or None)."""
    cdef int32_t p[32]  # CC_MAX_PARAMS
    _cribbage_params("cribbage_batch_discards", params, p)
    if not isinstance(with_crib, bool):
        raise TypeError(f"cribbage_batch_discards: with_crib must be a bool, got {with_crib!r}")
    cdef const uint64_t[::1] h = _u64_array(hands, "hands")
    cdef int64_t n = h.shape[0]
    sums = np.empty((n, 15), dtype=np.int32)
    cribs = np.empty((n, 15), dtype=np.float64) if with_crib else None
    if n == 0:
        return sums, cribs
    cdef int32_t[:, ::1] s = sums
    cdef double[:, ::1] c
    cdef double *cp = NULL
    if with_crib:
        c = cribs
        cp = &c[0, 0]
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_cribbage_batch_discards(&h[0], n, p, &s[0, 0], cp, &bad)
    if rc == CC_E_CARDS:
        raise ValueError(f"cribbage_batch_discards: hand {bad} must be 6 cards of the deck")
    _check(rc, "cribbage_batch_discards")
    return sums, cribs


def cribbage_crib_exact(object hand, object params):
    """Exact expected crib of the 15 discards of one 6-card hand (float64 (15,))."""
    cdef int32_t p[32]  # CC_MAX_PARAMS
    _cribbage_params("cribbage_crib_exact", params, p)
    cdef uint64_t h = _mask52(_int_arg(hand, "cribbage_crib_exact: hand", 0, 0xFFFFFFFFFFFFFFFF),
                              "cribbage_crib_exact: hand")
    out = np.empty(15, dtype=np.float64)
    cdef double[::1] o = out
    cdef int32_t rc
    with nogil:
        rc = cc_cribbage_crib_exact(h, p, &o[0])
    if rc == CC_E_CARDS:
        _hand_error("cribbage_crib_exact", h, 6, None, 0)
    _check(rc, "cribbage_crib_exact")
    return out

# ---- No Takers? (cc_notakers.h): the best split -------------------------------

# Conversions only (cards.pxi: strict ints, saturated to the C type): every
# check of a value (card bits, ace_in_runs, tiebreak_ace, player) is made by
# the C engine; its status codes become exceptions naming the argument.

cdef str _notakers_param_range(int index):
    """'lo..hi' of a rules parameter, from the engine's params[] table."""
    return f"{cc_game_notakers.params[index].min}..{cc_game_notakers.params[index].max}"


cdef int _notakers_status(int32_t rc, str fn, object cards, object args) except -1:
    """Raise for the status rc of fn(cards, *args): CC_E_CARDS names the card set,
    CC_E_ARG the argument(s) (name, params[] index, value given) outside the
    range the engine's params[] table declares."""
    if rc == CC_E_ARG:
        bad = [
            f"{name} must be {_notakers_param_range(index)}, got {value}"
            for name, index, value in args
            if not cc_game_notakers.params[index].min <= value <= cc_game_notakers.params[index].max
        ]
        raise ValueError(f"{fn}: " + ("; ".join(bad) or "argument out of range"))
    return _check_cards52(rc, fn, "cards", cards)


def notakers_points(object cards, object ace_in_runs):
    """Maximum points of a split of ``cards`` (a 52-card bitset) into sets."""
    cdef uint64_t m = _c_cards52(cards, "cards")
    cdef int32_t ace = _c_int32(ace_in_runs, "ace_in_runs")
    cdef int32_t rc = cc_notakers_points(m, ace)
    _notakers_status(rc, "notakers_points", cards,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, int(ace_in_runs)),))
    return rc


def notakers_splits_exactly(object cards, object ace_in_runs):
    """Whether ``cards`` split into sets with no card left over."""
    cdef uint64_t m = _c_cards52(cards, "cards")
    cdef int32_t ace = _c_int32(ace_in_runs, "ace_in_runs")
    cdef int32_t rc = cc_notakers_splits_exactly(m, ace)
    _notakers_status(rc, "notakers_splits_exactly", cards,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, int(ace_in_runs)),))
    return rc == 1


def notakers_best_split(object cards, object ace_in_runs, object tiebreak_ace):
    """The best split: (points, [(kind, cards, points, position, top, suit), ...]) best first."""
    cdef uint64_t m = _c_cards52(cards, "cards")
    cdef int32_t ace = _c_int32(ace_in_runs, "ace_in_runs")
    cdef int32_t tie = _c_int32(tiebreak_ace, "tiebreak_ace")
    cdef cc_notakers_split out
    cdef int32_t rc
    with nogil:
        rc = cc_notakers_best_split(m, ace, tie, &out)
    _notakers_status(rc, "notakers_best_split", cards,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, int(ace_in_runs)),
                      ("tiebreak_ace", CC_NOTAKERS_P_TIEBREAK_ACE, int(tiebreak_ace))))
    return out.points, [
        (out.sets[i].kind, out.sets[i].cards, out.sets[i].points, out.sets[i].position,
         out.sets[i].top, out.sets[i].suit)
        for i in range(out.nsets)
    ]


def notakers_batch_points(object arr, object ace_in_runs, *, object out=None,
                          object threads=1):
    """``notakers_points`` of each set of a 1-D uint64 array; int32 out (GIL released;
    ``out=``, ``threads=``: pxi/batch_out.pxi)."""
    cdef const uint64_t[::1] a = _u64_array(arr, "arr")
    cdef int32_t ace = _c_int32(ace_in_runs, "ace_in_runs")
    cdef int64_t n = a.shape[0]
    cdef int32_t nt = _threads_arg(threads, "notakers_batch_points")
    out = _out_array(out, "notakers_batch_points", "out", np.int32, (n,), (arr,))
    cdef int32_t[::1] o = out
    cdef int64_t bad = -1
    # n == 0: the engine still checks ace_in_runs (no element is read)
    cdef _batch_args x = _batch_of(_K_NOTAKERS_POINTS, a, &bad, NULL, nt)
    x.flag = ace
    x.out32 = &o[0] if n else NULL
    cdef int32_t rc = _run_batch(&x)
    if rc == CC_E_CARDS:
        # each element is read once, by the C loop: the message gives the index only
        raise _errors.InvalidCardError(
            f"notakers_batch_points: arr[{bad}] has bits outside the 52-card deck"
        )
    _notakers_status(rc, "notakers_batch_points", None,
                     (("ace_in_runs", CC_NOTAKERS_P_ACE_IN_RUNS, int(ace_in_runs)),))
    return out

# ---- the Game of Nancy (cc_nancy.h): objectives and settlement ----------------

cdef int _arcane_mode(object value) except -1:
    return _int_arg(value, "arcane_sum_mode", 0, 2)


def nancy_objectives(object nancy, object arcane_sum_mode=0):
    """Bit mask of objectives 1..7 (bit k-1 for objective k) met by the Nancy ``nancy``."""
    lo, hi = _nancy_split(nancy, "nancy")
    cdef int mode = _arcane_mode(arcane_sum_mode)
    return cc_nancy_objectives(lo, hi, mode)


def nancy_base_score(object bid, object completed, object won):
    """The round's base score (docs/nancy.rst, "Result and score")."""
    cdef int32_t b = _int_arg(bid, "bid", 1, 9)
    cdef int32_t c = _int_arg(completed, "completed", 0, 9)
    cdef int32_t w = _flag(won, "won")
    return cc_nancy_base_score(b, c, w)


def nancy_settlement(object nplayers, object taker, object partner, object bid,
                     object completed, object won):
    """Points of each player for one round (``partner`` -1 when the Taker plays alone)."""
    cdef int32_t n = _int_arg(nplayers, "nplayers", 2, 6)
    cdef int32_t t = _int_arg(taker, "taker", 0, n - 1)
    cdef int32_t q = _int_arg(partner, "partner", -1, n - 1)
    cdef int32_t b = _int_arg(bid, "bid", 1, 9)
    cdef int32_t c = _int_arg(completed, "completed", 0, 9)
    cdef int32_t w = _flag(won, "won")
    cdef int32_t out[8]
    _check(cc_nancy_settlement(n, t, q, b, c, w, out), "nancy_settlement")
    return [out[i] for i in range(n)]


def nancy_batch_objectives(object nancies, object arcane_sum_mode=0):
    """Objectives 1..7 mask per Nancy row: (n, 2) uint64 -> (n,) uint16."""
    _nancy_rows(nancies, "nancies")
    cdef int mode = _arcane_mode(arcane_sum_mode)
    cdef int64_t n = nancies.shape[0]
    out = np.empty(n, dtype=np.uint16)
    if n == 0:
        return out
    cdef const uint64_t[:, ::1] h = nancies
    cdef uint16_t[::1] o = out
    cdef int64_t bad = -1
    cdef int32_t rc
    with nogil:
        rc = cc_nancy_batch_objectives(&h[0, 0], n, mode, &o[0], &bad)
    if rc == CC_E_CARDS:
        raise ValueError(f"nancies row {bad} has bits outside the Nancy deck")
    _check(rc, "nancy_batch_objectives")
    return out
