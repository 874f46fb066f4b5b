# The built-in bots (search/, cc_bots.h): a Searcher plays one bot spec for one
# GameSetup; play_match plays whole games between searchers in C.  Included
# from _core.pyx.  Converts types, releases the GIL around the search, maps
# status codes to exceptions; what is valid is the engine's answer
# (cc_bot_spec_check names the field at fault).

from cpython.number cimport PyNumber_Index
from libc.math cimport isfinite
from libc.string cimport memcmp

_BOT_KINDS = {"random": CC_BOT_RANDOM, "heuristic": CC_BOT_HEURISTIC, "pimc": CC_BOT_PIMC,
              "ismcts": CC_BOT_ISMCTS, "net": CC_BOT_NET}
_ROLLOUTS = {"random": CC_ROLLOUT_RANDOM, "heuristic": CC_ROLLOUT_HEURISTIC}
_REWARDS = {"win": CC_REWARD_WIN, "margin": CC_REWARD_MARGIN, "points": CC_REWARD_POINTS}
_HORIZONS = {"game": CC_HORIZON_GAME, "deal": CC_HORIZON_DEAL}

# the searcher's defaults, from cc_bots.h (CC_BOT_DEFAULT_*): the one place they are written
cdef str _name_of(dict names, int code):
    return next(name for name, c in names.items() if c == code)

_DEFAULT_ROLLOUT = _name_of(_ROLLOUTS, CC_BOT_DEFAULT_ROLLOUT)
_DEFAULT_REWARD = _name_of(_REWARDS, CC_BOT_DEFAULT_REWARD)
_DEFAULT_HORIZON = _name_of(_HORIZONS, CC_BOT_DEFAULT_HORIZON)
_DEFAULT_EXPLORATION = CC_BOT_DEFAULT_EXPLORATION_MILLI / 1000.0
_DEFAULT_SCALE = <double> CC_BOT_DEFAULT_SCALE


def search_defaults():
    """The options a :class:`Searcher` takes when it is not told otherwise, by
    name (the engine's ``CC_BOT_DEFAULT_*`` of ``cc_bots.h``): a new dict."""
    return {
        "simulations": CC_BOT_DEFAULT_SIMULATIONS,
        "seconds": None,
        "rollout": _DEFAULT_ROLLOUT,
        "exploration": _DEFAULT_EXPLORATION,
        "samples": CC_BOT_DEFAULT_SAMPLES,
        "reward": _DEFAULT_REWARD,
        "horizon": _DEFAULT_HORIZON,
        "threads": CC_BOT_DEFAULT_THREADS,
        "scale": _DEFAULT_SCALE,
        "win_table": None,
        "evaluate": None,
        "batch": CC_BOT_DEFAULT_BATCH,
        "priors": None,
        "solve": CC_BOT_DEFAULT_SOLVE,
        "value": None,
        "value_weight": 1.0,
    }

# the search's own statuses, in the one table of _core.pyx
_ERRORS[CC_E_ROLLOUT_LIMIT] = RuntimeError
_STATUS_TEXT[CC_E_ROLLOUT_LIMIT] = ("a rollout passed the rollout limit "
                                    "(CC_BOT_ROLLOUT_LIMIT actions)")


cdef double _float_arg(object value, str name) except? -1.0:
    """A real-number argument: an int or a float (Python or numpy), not a bool."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    return float(value)


cdef str _choice_arg(object value, str name, dict choices):
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__} {value!r}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value


cdef object _win_table_arg(object table):
    """A C-contiguous float64 square array (target x target) or None."""
    if table is None:
        return None
    if not isinstance(table, np.ndarray):
        raise TypeError(f"win_table must be a numpy.ndarray or None, got {type(table).__name__}")
    if table.dtype.kind != "f":
        raise TypeError(f"win_table: expected a float array, got dtype {table.dtype}")
    if table.ndim != 2 or table.shape[0] != table.shape[1] or table.shape[0] < 1:
        raise ValueError(f"win_table: expected a square 2-D array, got shape {table.shape}")
    return np.ascontiguousarray(table, dtype=np.float64)


cdef int _make_spec(cc_bot_spec *spec, const cc_game *game, str gname, object kind,
                    object simulations, object seconds, object rollout, object exploration,
                    object samples, object reward="win", object horizon="game",
                    object threads=1, object scale=1.0, object win_table=None,
                    object solve=0, bint any_game=False) except -1:
    """Fill ``spec`` from the Python arguments (types converted) and have the
    engine check it; ValueError names the field the engine refuses.  A
    callable ``rollout`` is the policy hook (set on the searcher): the spec
    keeps the random rollout.  ``win_table`` must be the array from
    :func:`_win_table_arg` and stay alive while ``spec`` is used.  ``solve``
    is the solver's reach; ``any_game`` checks it for range only (the bot is
    not yet for a game: whether the game has a solver is asked later)."""
    memset(spec, 0, sizeof(cc_bot_spec))
    spec.kind = _BOT_KINDS[_choice_arg(kind, "kind", _BOT_KINDS)]
    if callable(rollout) or isinstance(rollout, Net):
        spec.rollout = CC_ROLLOUT_RANDOM
    else:
        spec.rollout = _ROLLOUTS[_choice_arg(rollout, "rollout", _ROLLOUTS)]
    spec.reward = _REWARDS[_choice_arg(reward, "reward", _REWARDS)]
    spec.horizon = _HORIZONS[_choice_arg(horizon, "horizon", _HORIZONS)]
    spec.threads = _c_int32(threads, "threads")
    if spec.threads == 0:
        spec.threads = -1  # 0 means 1 in C; here it is refused
    spec.scale = _float_arg(scale, "scale")
    if spec.scale == 0.0:
        spec.scale = -1.0  # 0 means 1 in C; here it is refused
    cdef const double[:, ::1] wt
    if win_table is not None:
        wt = win_table
        spec.win_table = &wt[0, 0]
        spec.win_target = <int32_t>wt.shape[0] if wt.shape[0] <= CC_BOT_MAX_TARGET else -1
    spec.simulations = _c_int64(simulations, "simulations")
    if seconds is None:
        spec.seconds = 0.0
    else:
        spec.seconds = _float_arg(seconds, "seconds")
        if spec.seconds == 0.0:
            spec.seconds = -1.0  # 0 means no time budget in C: that is None here
    spec.exploration = _float_arg(exploration, "exploration")
    spec.samples = _c_int32(samples, "samples")
    spec.solve = _c_int32(solve, "solve")
    search = spec.kind == CC_BOT_PIMC or spec.kind == CC_BOT_ISMCTS
    cdef int32_t reach = spec.solve
    if any_game and search and 0 < reach <= CC_BOT_MAX_SOLVE:
        spec.solve = 0
    cdef int32_t bad = -1
    cdef int32_t rc = cc_bot_spec_check(game, spec, &bad)
    spec.solve = reach
    if rc == CC_OK:
        return 0
    if bad == CC_BOT_F_SIMULATIONS:
        lo = 1 if search and seconds is None else 0
        raise ValueError(f"simulations must be {lo}..{CC_BOT_MAX_SIMULATIONS}, "
                         f"got {simulations!r}")
    if bad == CC_BOT_F_SECONDS:
        raise ValueError(f"seconds must be None or in (0, {CC_BOT_MAX_SECONDS}], "
                         f"got {seconds!r}")
    if bad == CC_BOT_F_EXPLORATION:
        raise ValueError(f"exploration must be in [0, {CC_BOT_MAX_EXPLORATION}], "
                         f"got {exploration!r}")
    if bad == CC_BOT_F_SAMPLES:
        raise ValueError(f"samples must be {1 if search else 0}..{CC_BOT_MAX_SAMPLES}, "
                         f"got {samples!r}")
    if bad == CC_BOT_F_THREADS:
        raise ValueError(f"threads must be 1..{CC_BOT_MAX_THREADS}, got {threads!r}")
    if bad == CC_BOT_F_SCALE:
        raise ValueError(f"scale must be in (0, {CC_BOT_MAX_SCALE}], got {scale!r}")
    if bad == CC_BOT_F_WIN_TABLE:
        raise ValueError(f"win_table must be a square table of probabilities in [0, 1] "
                         f"with a side of 1..{CC_BOT_MAX_TARGET}")
    if bad == CC_BOT_F_SOLVE:
        if not 0 <= reach <= CC_BOT_MAX_SOLVE:
            raise ValueError(f"solve must be 0..{CC_BOT_MAX_SOLVE}, got {solve!r}")
        if not search:
            raise ValueError(f"solve is for the pimc and ismcts bots, not {kind!r}")
        raise ValueError(f"solve must be 0 for {gname}: the game has no exact solver, "
                         f"got {solve!r}")
    raise ValueError(f"{gname}: the engine refused bot {kind!r}")


def check_bot(object kind, object simulations=CC_BOT_DEFAULT_SIMULATIONS, object seconds=None,
              object rollout=_DEFAULT_ROLLOUT, object exploration=_DEFAULT_EXPLORATION,
              object samples=CC_BOT_DEFAULT_SAMPLES, object reward=_DEFAULT_REWARD,
              object horizon=_DEFAULT_HORIZON, object threads=CC_BOT_DEFAULT_THREADS,
              object scale=_DEFAULT_SCALE, object win_table=None, object evaluate=None,
              object batch=CC_BOT_DEFAULT_BATCH, object priors=None,
              object solve=CC_BOT_DEFAULT_SOLVE, object value=None, object value_weight=1.0,
              object net=None):
    """Raise TypeError or ValueError (naming the argument) if the engine would
    refuse this bot; the arguments are those of :class:`Searcher` (whether a
    game has the solver that ``solve`` asks for, and whether a network fits
    the game, are checked by the searcher)."""
    cdef cc_bot_spec spec
    cdef const cc_game *g = cc_game_by_index(0)
    table = _win_table_arg(win_table)
    _make_spec(&spec, g, _text(g.name), kind, simulations, seconds, rollout, exploration,
               samples, reward, horizon, threads, scale, table, solve, True)
    _check_hooks(kind, rollout, evaluate, batch, priors)
    _check_nets(kind, rollout, evaluate, priors, value, value_weight, net)


cdef int _check_nets(object kind, object rollout, object evaluate, object priors,
                     object value, object value_weight, object net) except -1:
    """The networks' options: Nets where the bot kind takes them, never with
    a Python hook (the networks are the searcher's hooks)."""
    for name, x in (("value", value), ("net", net)):
        if x is not None and not isinstance(x, Net):
            raise TypeError(f"{name} must be a Net or None, got {type(x).__name__}")
    w = _float_arg(value_weight, "value_weight")
    if not 0.0 <= w <= 1.0:
        raise ValueError(f"value_weight must be in [0, 1], got {value_weight!r}")
    nets = (isinstance(rollout, Net) or isinstance(priors, Net) or value is not None)
    if nets and (callable(rollout) or callable(priors) or evaluate is not None):
        raise ValueError("networks and Python hooks cannot be mixed in one searcher")
    if (value is not None or isinstance(priors, Net)) and kind != "ismcts":
        raise ValueError(f"value and priors networks are for the ismcts bot, not {kind!r}")
    if isinstance(rollout, Net) and kind not in ("pimc", "ismcts"):
        raise ValueError(f"a rollout network is for the pimc and ismcts bots, not {kind!r}")
    if (net is not None) != (kind == "net"):
        raise ValueError("the net bot needs its network (net=...), and only it takes one"
                         if kind == "net" else f"net is for the net bot, not {kind!r}")
    return 0


cdef int _check_hooks(object kind, object rollout, object evaluate, object batch,
                      object priors) except -1:
    for name, hook in (("evaluate", evaluate), ("priors", priors)):
        if hook is not None and not callable(hook) and not (name == "priors"
                                                            and isinstance(hook, Net)):
            raise TypeError(f"{name} must be a callable or None, got {type(hook).__name__}")
    hooked = callable(rollout) or evaluate is not None or callable(priors)
    if hooked and kind not in ("pimc", "ismcts"):
        raise ValueError(f"hooks are for the pimc and ismcts bots, not {kind!r}")
    if kind == "pimc" and (evaluate is not None or priors is not None):
        raise ValueError("pimc takes a rollout policy hook only (evaluate and priors: ismcts)")
    _i32_arg(batch, "batch", 1, CC_BOT_MAX_BATCH)
    return 0


cdef object _mask_array(const uint64_t *mask, int32_t num_actions):
    """A bool array of num_actions: bit a of mask."""
    cdef const uint8_t[::1] raw = <const uint8_t[:CC_MASK_WORDS * 8]> (<const uint8_t *> mask)
    bits = np.unpackbits(np.asarray(raw), bitorder="little")
    return bits[:num_actions].astype(np.bool_)


# The largest value (in magnitude) of the evaluate hook and the largest
# prior the search takes (search/ismcts.c: past it, CC_E_HOOK).
cdef double _HOOK_VALUE_LIMIT = 1e300


cdef object _hook_int(object v, str hook):
    """A hook's integer result as an exact Python int, read before anything
    compares or indexes with it: an int (a subclass by its value, whatever
    its operators say) or a numpy integer scalar; a bool, a float, None or
    anything else is a TypeError naming the hook."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"{hook} hook must return an int, got {type(v).__name__} {v!r}")
    return PyNumber_Index(v)


cdef object _hook_floats(object v, str hook):
    """A hook's array of numbers as float64 (ints and floats of any width; a
    bool or any other dtype is a TypeError naming the hook)."""
    arr = np.asarray(v)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{hook} hook must return an array of numbers, got dtype {arr.dtype}")
    return np.ascontiguousarray(arr, dtype=np.float64)


cdef int32_t _policy_hook(void *ctx, const float *obs, const uint64_t *mask, int32_t player,
                          int32_t *action) noexcept with gil:
    cdef Searcher s = <Searcher> ctx
    cdef int32_t n = s.tensor_size
    cdef int overflow = 0
    cdef long long a
    try:
        o = np.array(<const float[:n]> obs)
        value = _hook_int(s.policy(o, _mask_array(mask, s.num_actions), player),
                          "rollout policy")
        # converted to C first: the checks and the mask's index are C integers
        a = PyLong_AsLongLongAndOverflow(value, &overflow)
        if overflow or not (0 <= a < s.num_actions) or not (mask[a >> 6] >> (a & 63)) & 1:
            raise ValueError(f"rollout policy hook returned {value}, not a legal action")
        action[0] = <int32_t> a
        return CC_OK
    except BaseException as exc:
        s._fail(exc)
        return CC_E_HOOK


cdef int32_t _evaluate_hook(void *ctx, int32_t n, const float *obs, const uint64_t *masks,
                            const int32_t *players, double *values) noexcept with gil:
    cdef Searcher s = <Searcher> ctx
    cdef int32_t t = s.tensor_size
    cdef int32_t np_ = s.setup.nplayers
    cdef int32_t i
    cdef double[:, ::1] out
    cdef const double[:, ::1] src
    try:
        o = np.array(<const float[:n, :t]> obs)
        m = np.empty((n, s.num_actions), dtype=np.bool_)
        for i in range(n):
            m[i] = _mask_array(masks + i * CC_MASK_WORDS, s.num_actions)
        pl = np.array(<const int32_t[:n]> players)
        v = _hook_floats(s.evaluate(o, m, pl), "evaluate")
        if v.shape != (n, np_):
            raise ValueError(f"evaluate must return an array of shape {(n, np_)} (leaves x "
                             f"players), got {v.shape}")
        bad = ~(np.abs(v) <= _HOOK_VALUE_LIMIT)    # NaN too
        if bad.any():
            raise ValueError(f"evaluate hook returned {v[bad][0]:g}, must be finite and "
                             f"within ±{_HOOK_VALUE_LIMIT:g}")
        out = <double[:n, :np_]> values
        src = v
        out[:, :] = src
        return CC_OK
    except BaseException as exc:
        s._fail(exc)
        return CC_E_HOOK


cdef int32_t _priors_hook(void *ctx, const float *obs, const uint64_t *mask, int32_t player,
                          double *priors) noexcept with gil:
    cdef Searcher s = <Searcher> ctx
    cdef int32_t n = s.tensor_size
    cdef int32_t na = s.num_actions
    cdef double[::1] out
    cdef const double[::1] src
    try:
        o = np.array(<const float[:n]> obs)
        m = _mask_array(mask, na)
        v = _hook_floats(s.priors(o, m, player), "priors")
        if v.shape != (na,):
            raise ValueError(f"priors must return an array of shape ({na},) (one per action), "
                             f"got {v.shape}")
        bad = np.flatnonzero(m & ~((v >= 0.0) & (v <= _HOOK_VALUE_LIMIT)))    # NaN too
        if len(bad):
            raise ValueError(f"priors hook returned {v[bad[0]]:g} for action {bad[0]}, must be "
                             f"finite and within [0, {_HOOK_VALUE_LIMIT:g}] for a legal action")
        out = <double[:na]> priors
        src = v
        out[:] = src
        return CC_OK
    except BaseException as exc:
        s._fail(exc)
        return CC_E_HOOK


cdef struct _act_args:
    cc_searcher *s
    const cc_game *game
    const void *state
    int32_t player
    cc_rng *rng
    int32_t *action
    const void **worlds           # act_worlds only
    const double *weights
    int32_t nworlds
    double *means


cdef int32_t _act_go(void *a, const int32_t *stop) noexcept nogil:
    cdef _act_args *x = <_act_args *> a
    return cc_searcher_act(x.s, x.game, x.state, x.player, x.rng, x.action, stop)


cdef int32_t _act_worlds_go(void *a, const int32_t *stop) noexcept nogil:
    cdef _act_args *x = <_act_args *> a
    return cc_searcher_act_worlds(x.s, x.game, x.state, x.player, x.worlds, x.weights,
                                  x.nworlds, x.rng, x.action, x.means, stop)


cdef class Searcher:
    """A built-in bot of one kind (``"random"``, ``"heuristic"``, ``"pimc"``,
    ``"ismcts"``) for one :class:`GameSetup`, with everything its search needs
    allocated once, and its own generator (seeded by :meth:`reset`).

    ``simulations`` is the number of simulations (rollouts) per move (per
    tree); ``seconds``, when not None, is a time budget per move instead (with
    ``simulations`` as an upper bound, 0 for none); ``rollout`` is the rollout
    policy (``"random"``, ``"heuristic"``, or a callable ``policy(obs, mask,
    player) -> action``); ``exploration`` the UCT constant (ISMCTS);
    ``samples`` the determinizations per move (PIMC).

    ``reward`` is what a simulation is worth (``"win"``: by rank; ``"margin"``:
    points over the others' mean, divided by ``scale``; ``"points"``);
    ``horizon`` where a simulation stops (``"game"``, or ``"deal"``: the end
    of the searched deal, valued there, with two players and reward ``"win"``
    by ``win_table[dealer's points, other's points]``, the probability that
    the next deal's dealer wins); ``threads`` the root-parallel trees;
    ``solve`` (0: never) hands a simulation over to the game's exact solver
    where at most that many cards are left to play (:doc:`/search`, "The
    solver leaf").

    Hooks (ISMCTS): ``evaluate(obs, masks, players) -> values`` values
    ``batch`` leaves at once (float32 (n, tensor_size), bool (n,
    num_actions), int32 (n,) in; (n, players) out, in reward units) instead
    of rollouts; ``priors(obs, mask, player) -> priors`` (num_actions,) turns
    selection into PUCT.  The search holds the GIL only to call them; an
    exception in a hook stops the search and is raised by :meth:`act`."""
    cdef cc_searcher *s
    cdef cc_rng rng
    cdef void *root
    cdef bint busy
    cdef readonly GameSetup setup
    cdef readonly str kind
    cdef readonly object rollout
    cdef readonly object simulations
    cdef readonly object seconds
    cdef readonly double exploration
    cdef readonly int samples
    cdef readonly str reward
    cdef readonly str horizon
    cdef readonly int threads
    cdef readonly double scale
    cdef readonly object win_table
    cdef readonly object policy
    cdef readonly object evaluate
    cdef readonly int batch
    cdef readonly object priors
    cdef readonly object value
    cdef readonly double value_weight
    cdef readonly object net
    cdef object _nets
    cdef readonly int solve
    cdef readonly int tensor_size
    cdef readonly int num_actions
    cdef object _error
    cdef bint _long               # act runs as a long call (_run_stoppable)

    def __cinit__(self, GameSetup setup not None, object kind,
                  object simulations=CC_BOT_DEFAULT_SIMULATIONS, object seconds=None,
                  object rollout=_DEFAULT_ROLLOUT, object exploration=_DEFAULT_EXPLORATION,
                  object samples=CC_BOT_DEFAULT_SAMPLES, object reward=_DEFAULT_REWARD,
                  object horizon=_DEFAULT_HORIZON, object threads=CC_BOT_DEFAULT_THREADS,
                  object scale=_DEFAULT_SCALE, object win_table=None, object evaluate=None,
                  object batch=CC_BOT_DEFAULT_BATCH, object priors=None,
                  object solve=CC_BOT_DEFAULT_SOLVE, object value=None,
                  object value_weight=1.0, object net=None):
        self.s = NULL
        self.root = NULL
        self.busy = False
        self._error = None
        if setup.nplayers == 0:
            raise _errors.RulesError(f"{setup.name}: a searcher needs a player count")
        cdef cc_bot_spec spec
        table = _win_table_arg(win_table)
        _make_spec(&spec, setup.game, setup.name, kind, simulations, seconds, rollout,
                   exploration, samples, reward, horizon, threads, scale, table, solve)
        _check_hooks(kind, rollout, evaluate, batch, priors)
        _check_nets(kind, rollout, evaluate, priors, value, value_weight, net)
        cdef int32_t status = CC_OK
        self.s = cc_searcher_new(setup.game, setup.values, setup.nplayers, &spec, &status)
        if self.s == NULL:
            if status == CC_E_CAPACITY:
                raise MemoryError(f"{setup.name}: no memory for a {kind} searcher")
            _check(status if status < 0 else CC_E_ARG, f"{setup.name}: searcher")
        self.root = PyMem_Malloc(setup.game.state_size)
        if self.root == NULL:
            raise MemoryError()
        self.setup = setup
        self.kind = kind
        self.rollout = rollout
        self.simulations = spec.simulations
        self.seconds = None if seconds is None else spec.seconds
        self.exploration = spec.exploration
        self.samples = spec.samples
        self.reward = reward
        self.horizon = horizon
        self.threads = spec.threads
        self.scale = spec.scale
        self.win_table = table
        self.policy = rollout if callable(rollout) else None
        self.value = value
        self.value_weight = float(value_weight)
        self.net = net
        self.evaluate = evaluate
        self.batch = batch
        # a search without hooks, by time or by enough simulations (or with
        # the solver): a hook runs in the calling thread, where a signal's
        # exception raised in it stops the search already
        cdef int64_t cost = spec.simulations * (
            _HEURISTIC_ROLLOUT if spec.rollout == CC_ROLLOUT_HEURISTIC else 1)
        self._long = (kind in ("pimc", "ismcts") and self.policy is None and evaluate is None
                      and not callable(priors)
                      and (spec.seconds >= _LONG_SECONDS or spec.simulations == 0
                           or cost >= _LONG_SIMULATIONS or spec.solve > 0))
        self.priors = priors
        self.solve = spec.solve
        self.tensor_size = setup.game.tensor_size(setup.values, setup.nplayers)
        self.num_actions = setup.game.num_actions(setup.values, setup.nplayers)
        cdef cc_bot_hooks hooks
        memset(&hooks, 0, sizeof(cc_bot_hooks))
        if self.policy is not None or evaluate is not None or callable(priors):
            if self.policy is not None:
                hooks.policy = _policy_hook
                hooks.policy_ctx = <void *> self
            if evaluate is not None:
                hooks.evaluate = _evaluate_hook
                hooks.evaluate_ctx = <void *> self
                hooks.batch = batch
            if callable(priors):
                hooks.priors = _priors_hook
                hooks.priors_ctx = <void *> self
            status = cc_searcher_set_hooks(self.s, &hooks)
            if status == CC_E_CAPACITY:
                raise MemoryError(f"{setup.name}: no memory for the hooks' buffers")
            _check(status, f"{setup.name}: searcher hooks")
        self._set_nets(rollout, priors, value, value_weight, net)
        cc_rng_seed(&self.rng, 0)

    cdef int _set_nets(self, object rollout, object priors, object value, object value_weight,
                       object net) except -1:
        cdef cc_search_nets nets
        memset(&nets, 0, sizeof(cc_search_nets))
        nets.value_weight = 1.0
        used = [x for x in (rollout, priors, value, net) if isinstance(x, Net)]
        if not used:
            return 0
        for x in used:
            if ((<Net> x).input_size != self.tensor_size
                    or (<Net> x).num_actions != self.num_actions
                    or (<Net> x).num_players != self.setup.nplayers):
                raise _errors.NetworkError(
                    f"the network reads {(<Net> x).input_size} inputs for "
                    f"{(<Net> x).num_actions} actions and {(<Net> x).num_players} players; "
                    f"{self.setup.name} with {self.setup.nplayers} players has "
                    f"{self.tensor_size} inputs and {self.num_actions} actions", "network")
        if isinstance(value, Net):
            nets.value = (<Net> value).net
            nets.value_weight = _float_arg(value_weight, "value_weight")
        if isinstance(priors, Net):
            nets.priors = (<Net> priors).net
        if isinstance(rollout, Net):
            nets.rollout = (<Net> rollout).net
        if isinstance(net, Net):
            nets.policy = (<Net> net).net
        self._nets = tuple(used)  # the engine does not copy them: keep them alive
        cdef int32_t rc = cc_searcher_set_nets(self.s, &nets)
        if rc == CC_E_CAPACITY:
            raise MemoryError(f"{self.setup.name}: no memory for the networks' buffers")
        _check(rc, f"{self.setup.name}: searcher networks")
        return 0

    def __dealloc__(self):
        if self.s != NULL:
            cc_searcher_free(self.s)
        if self.root != NULL:
            PyMem_Free(self.root)

    cdef void _fail(self, object exc):
        """Keep the first exception a hook raised in this search."""
        if self._error is None:
            self._error = exc

    def reset(self, object seed):
        """Seed the searcher's generator (0..2**64-1): the same seed, the same
        choices (a time budget excepted)."""
        cc_rng_seed(&self.rng, _c_seed(seed, "seed"))

    cdef int _claim(self) except -1:
        if self.busy:
            raise RuntimeError("this Searcher is already searching (one thread at a time)")
        self.busy = True
        return 0

    cdef int _raise_hook_error(self) except -1:
        exc = self._error
        if exc is not None:
            self._error = None
            raise exc
        return 0

    def act(self, GameState state not None, object player=None):
        """The action chosen for the player to act in ``state`` (a state of this
        searcher's setup); ``player``, if given, must be that player.  The
        search runs on a copy of the state with the GIL released (taken back
        only to call the hooks).

        Called from the main thread, a long search (a time budget of 0.02 s
        or more, 256 simulations or more, 16 with heuristic rollouts, or
        the solver leaf; no hooks)
        runs in a thread of its own: an exception from a signal handler
        (KeyboardInterrupt on Ctrl-C) stops every tree at its next
        simulation and is raised here, the state untouched.  The
        searcher's generator has moved on: :meth:`reset` it for the same
        choices again.  A search with hooks runs in the calling thread,
        where the exception is raised in a hook and stops it likewise."""
        state._live()
        cdef int32_t p = -1
        if player is not None:
            p = _i32_arg(player, "player", 0, state.nplayers - 1)
        _same_setup(self.setup, state.params, "state")
        cdef const cc_game *g = self.setup.game
        cdef int32_t cp = g.current_player(state.state)
        if cp == CC_PLAYER_TERMINAL:
            raise _errors.IllegalActionError(None, "act: the game is over")
        if p >= 0 and p != cp:
            raise ValueError(f"act: player {p} is not the player to act ({cp})")
        self._claim()
        memcpy(self.root, state.state, cc_game_used_size(g, state.state))
        cdef int32_t action = -1
        cdef int32_t rc
        cdef _act_args args
        args.s = self.s
        args.game = g
        args.state = self.root
        args.player = p
        args.rng = &self.rng
        args.action = &action
        self._error = None
        try:
            _run_stoppable(_act_go, &args, self._long, &rc)
        finally:
            self.busy = False
        self._raise_hook_error()
        _check(rc, f"{self.setup.name}: {self.kind} bot")
        return action

    def act_worlds(self, GameState state not None, list worlds not None, object weights,
                   object player=None):
        """PIMC over given worlds (a ``"pimc"`` searcher of one thread): the
        determinizations are ``worlds`` (GameStates of this setup with the
        same player to act, 1..``samples`` of them), each counted with its
        weight in ``weights`` (a sequence of floats >= 0, one per world; all 0:
        all 1); the weighted mean reward picks the action.  Returns (action,
        means): means a float64 array of ``num_actions``, the weighted mean
        of each legal action searched, NaN for the others.  The worlds are the
        caller's: nothing else is read from ``state`` but its legal actions,
        player to act and deal (``cc_searcher_act_worlds``).  The weights are
        scaled by a power of two near the largest first (exactly), so weights
        of any size up to the largest float give the same means.

        The worlds are read once, into a tuple of this call: the search reads
        their states with the GIL released, and the tuple keeps them alive
        whatever another thread (or ``weights``) does to ``worlds``.  A
        signal's exception stops it as it stops :meth:`act`."""
        state._live()
        if self.kind != "pimc" or self.threads > 1:
            raise ValueError("act_worlds: a pimc searcher of one thread only")
        cdef int32_t p = -1
        if player is not None:
            p = _i32_arg(player, "player", 0, state.nplayers - 1)
        _same_setup(self.setup, state.params, "state")
        cdef tuple items = tuple(worlds)    # the call's own references
        cdef Py_ssize_t n = len(items)
        if not 1 <= n <= self.samples:
            raise ValueError(f"worlds: expected 1..{self.samples} (samples) worlds, got {n}")
        if isinstance(weights, (str, bytes)) or not hasattr(weights, "__len__"):
            raise TypeError(f"weights: expected a sequence of floats, got "
                            f"{type(weights).__name__}")
        if len(weights) != n:
            raise ValueError(f"weights: expected {n} weights (one per world), got {len(weights)}")
        cdef const cc_game *g = self.setup.game
        cdef int32_t cp = g.current_player(state.state)
        if cp == CC_PLAYER_TERMINAL:
            raise _errors.IllegalActionError(None, "act_worlds: the game is over")
        if p >= 0 and p != cp:
            raise ValueError(f"act_worlds: player {p} is not the player to act ({cp})")
        wts = np.zeros(n, dtype=np.float64)
        cdef double[::1] wv = wts
        cdef GameState w
        cdef Py_ssize_t i
        for i in range(n):
            if not isinstance(items[i], GameState):
                raise TypeError(f"worlds[{i}]: expected a GameState, got "
                                f"{type(items[i]).__name__}")
            w = items[i]
            w._live()
            _same_setup(self.setup, w.params, f"worlds[{i}]")
            if g.current_player(w.state) != cp:
                raise ValueError(f"worlds[{i}]: its player to act is not {cp}")
            wv[i] = _float_arg(weights[i], f"weights[{i}]")
            if not (wv[i] >= 0.0 and isfinite(wv[i])):
                raise ValueError(f"weights[{i}]: expected a finite weight >= 0, got "
                                 f"{weights[i]!r}")
        cdef const void **ptrs = <const void **> PyMem_Malloc(sizeof(void *) * n)
        if ptrs == NULL:
            raise MemoryError()
        for i in range(n):
            ptrs[i] = (<GameState> items[i]).state
        means = np.full(self.num_actions, np.nan, dtype=np.float64)
        cdef double[::1] mv = means
        cdef int32_t action = -1
        cdef int32_t rc
        cdef int32_t nw = <int32_t> n
        cdef _act_args args
        args.s = self.s
        args.game = g
        args.state = self.root
        args.player = p
        args.rng = &self.rng
        args.action = &action
        args.worlds = ptrs
        args.weights = &wv[0]
        args.nworlds = nw
        args.means = &mv[0]
        self._claim()
        memcpy(self.root, state.state, cc_game_used_size(g, state.state))
        self._error = None
        try:
            _run_stoppable(_act_worlds_go, &args, self._long, &rc)
        finally:
            self.busy = False
            PyMem_Free(ptrs)
        self._raise_hook_error()
        _check(rc, f"{self.setup.name}: pimc over worlds")
        return action, means

    @property
    def last_simulations(self):
        """The simulations (rollouts) of the last :meth:`act` (0 for a move without
        a search)."""
        return cc_searcher_last_simulations(self.s)

    @property
    def last_nodes(self):
        """The ISMCTS tree nodes of the last :meth:`act`."""
        return cc_searcher_last_nodes(self.s)

    def __repr__(self):
        return (f"Searcher({self.setup.name!r}, {self.kind!r}, simulations={self.simulations}, "
                f"seconds={self.seconds}, rollout={self.rollout!r}, "
                f"exploration={self.exploration}, samples={self.samples}, "
                f"reward={self.reward!r}, horizon={self.horizon!r}, threads={self.threads}"
                f"{f', solve={self.solve}' if self.solve else ''})")


def deal_index(GameState state not None):
    """``(deals finished, the current dealer's seat)`` of ``state``, or None for a
    game of one deal (the engine's ``deal_index``)."""
    state._live()
    cdef const cc_game *g = state.game
    if g.deal_index == NULL:
        return None
    cdef int32_t dealer = -1
    cdef int32_t k = g.deal_index(state.state, &dealer)
    return k, dealer


cdef int _same_setup(GameSetup a, GameSetup b, str what) except -1:
    if a is b:
        return 0
    if (a.game != b.game or a.nplayers != b.nplayers or
            memcmp(a.values, b.values, sizeof(int32_t) * a.game.num_params) != 0):
        raise ValueError(f"{what}: another game, rules or player count than the searcher's "
                         f"({b.name}, {b.nplayers} players vs {a.name}, {a.nplayers})")
    return 0


cdef object _seeds(object seeds, str name, tuple shape):
    """A C-contiguous uint64 array of ``shape`` from ints 0..2**64-1 (a numpy
    integer array or nested sequences of ints)."""
    if isinstance(seeds, np.ndarray):
        if seeds.dtype == np.bool_ or not np.issubdtype(seeds.dtype, np.integer):
            raise TypeError(f"{name}: expected an integer array, got dtype {seeds.dtype}")
        if seeds.shape != shape:
            raise ValueError(f"{name}: expected shape {shape}, got {seeds.shape}")
        if seeds.size and np.issubdtype(seeds.dtype, np.signedinteger) and seeds.min() < 0:
            raise ValueError(f"{name}: seeds must be 0..2**64-1")
        return np.ascontiguousarray(seeds, dtype=np.uint64)
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__len__"):
        raise TypeError(f"{name}: expected a sequence of ints, got {type(seeds).__name__}")
    seeds = tuple(seeds)    # read once: a lying len() or a growing list changes nothing
    out = np.zeros(shape, dtype=np.uint64)
    if len(seeds) != shape[0]:
        raise ValueError(f"{name}: expected {shape[0]} rows, got {len(seeds)}")
    for i, row in enumerate(seeds):
        if len(shape) == 1:
            out[i] = _c_seed(row, f"{name}[{i}]")
            continue
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
            raise TypeError(f"{name}[{i}]: expected a sequence of ints, got {type(row).__name__}")
        row = tuple(row)
        if len(row) != shape[1]:
            raise ValueError(f"{name}[{i}]: expected {shape[1]} seeds, got {len(row)}")
        for j, v in enumerate(row):
            out[i, j] = _c_seed(v, f"{name}[{i}][{j}]")
    return out


cdef struct _match_args:
    const cc_game *game
    const int32_t *params
    int32_t nplayers
    cc_searcher **seats
    int64_t ngames
    const uint64_t *deals
    const uint64_t *bots
    void *state
    int32_t *returns
    int64_t *moves
    double *seconds


cdef int32_t _match_go(void *a, const int32_t *stop) noexcept nogil:
    cdef _match_args *x = <_match_args *> a
    return cc_play_match(x.game, x.params, x.nplayers, x.seats, x.ngames, x.deals, x.bots,
                         x.state, x.returns, x.moves, x.seconds, stop)


def play_match(GameSetup setup not None, object searchers, object deal_seeds,
               object bot_seeds):
    """Play ``len(deal_seeds)`` games in C, game g dealt from ``deal_seeds[g]``,
    seat p played by ``searchers[p]`` (one per seat; a searcher may sit at
    several), its generator seeded with ``bot_seeds[g][p]`` before game g.

    Returns ``(returns, moves, seconds)``: the returns, an int32 array (games x
    players); the actions each seat chose (int64, per seat); the seconds each
    seat spent choosing them (float64, per seat).  The same games as a Python
    loop dealing ``setup.new_state(deal_seeds[g])`` and asking each seat's
    searcher, reset with its bot seed, to :meth:`Searcher.act`.

    Called from the main thread, a match with a search bot (or of 64 games
    or more; no seat with hooks) runs in a thread of its own: an exception
    from a signal handler (KeyboardInterrupt on Ctrl-C) stops it before the
    next move (and the search under way at its next simulation) and is
    raised here; the games finished by then are discarded, nothing is
    returned, and the searchers' generators have moved on."""
    cdef int32_t n = setup.nplayers
    if n == 0:
        raise _errors.RulesError(f"{setup.name}: a match needs a player count")
    if isinstance(searchers, (str, bytes)) or not hasattr(searchers, "__len__"):
        raise TypeError(f"searchers: expected a sequence of Searcher, got "
                        f"{type(searchers).__name__}")
    seats = list(searchers)
    if len(seats) != n:
        raise ValueError(f"searchers: expected {n} (one per seat), got {len(seats)}")
    for i, sr in enumerate(seats):
        if not isinstance(sr, Searcher):
            raise TypeError(f"searchers[{i}]: expected a Searcher, got {type(sr).__name__}")
        _same_setup(setup, (<Searcher>sr).setup, f"searchers[{i}]")
    if isinstance(deal_seeds, (str, bytes)) or not hasattr(deal_seeds, "__len__"):
        raise TypeError(f"deal_seeds: expected a sequence of ints, got "
                        f"{type(deal_seeds).__name__}")
    if not isinstance(deal_seeds, np.ndarray):
        deal_seeds = tuple(deal_seeds)
    cdef int64_t ngames = len(deal_seeds)
    deals = _seeds(deal_seeds, "deal_seeds", (ngames,))
    bots = _seeds(bot_seeds, "bot_seeds", (ngames, n))
    returns = np.zeros((ngames, n), dtype=np.int32)
    moves = np.zeros(n, dtype=np.int64)
    secs = np.zeros(n, dtype=np.float64)
    cdef const uint64_t[::1] dv = deals
    cdef const uint64_t[:, ::1] bv = bots
    cdef int32_t[:, ::1] rv = returns
    cdef int64_t[::1] mv = moves
    cdef double[::1] sv = secs
    cdef cc_searcher *ptrs[8]
    claimed = []
    cdef void *state = PyMem_Malloc(setup.game.state_size)
    if state == NULL:
        raise MemoryError()
    cdef int32_t rc
    cdef const uint64_t *dp = &dv[0] if ngames else NULL
    cdef const uint64_t *bp = &bv[0, 0] if ngames else NULL
    cdef int32_t *rp = &rv[0, 0] if ngames else NULL
    cdef _match_args args
    args.game = setup.game
    args.params = setup.values
    args.nplayers = n
    args.seats = ptrs
    args.ngames = ngames
    args.deals = dp
    args.bots = bp
    args.state = state
    args.returns = rp
    args.moves = &mv[0]
    args.seconds = &sv[0]
    # long: a search bot at a seat, or many games; every seat without hooks
    # (a hook runs in the calling thread, see Searcher.act)
    hooked = any((<Searcher>sr).policy is not None or (<Searcher>sr).evaluate is not None
                 or (<Searcher>sr).priors is not None for sr in seats)
    long_call = ngames > 0 and not hooked and (
        ngames >= _LONG_MATCH_GAMES
        or any((<Searcher>sr).kind in ("pimc", "ismcts") for sr in seats))
    try:
        for i, sr in enumerate(seats):
            ptrs[i] = (<Searcher>sr).s
            if sr not in claimed:
                (<Searcher>sr)._claim()
                claimed.append(sr)
        _run_stoppable(_match_go, &args, long_call, &rc)
    finally:
        for sr in claimed:
            (<Searcher>sr).busy = False
        PyMem_Free(state)
    for sr in claimed:
        (<Searcher>sr)._raise_hook_error()
    _check(rc, f"{setup.name}: play_match")
    return returns, moves, secs
