# A game's scoring functions: the parts their bindings share.  A game's own pxi
# file declares its C entry points and converts their values; this file checks
# the values every such entry point takes the same way: the rules parameters
# (against the game's table), the card ids that go with a batch of hands (a
# starter or a turn-up each) and a play sequence.  Included by _core.pyx
# before the games' files; every check of a value is still the C engine's.


cdef int _game_params(str fn, object params, const cc_game *g, int32_t *out) except -1:
    """Fill out[] (room for g.num_params) with the rules params of game g, as the
    engine checks them without a player count."""
    if isinstance(params, (str, bytes)) or not hasattr(params, "__iter__"):
        raise TypeError(f"{fn}: params must be a sequence of ints, got {params!r}")
    params = tuple(params)
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
