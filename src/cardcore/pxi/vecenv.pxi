# The vector environment (cc_vecenv.h): N games of one GameSetup stepped by one
# call, the opponents played in C.  Included by _core.pyx.  Checks the type,
# dtype, shape and layout of every array before the engine runs; the engine
# checks the actions (all of them, before applying any).

_OPPONENTS = {"random": CC_VEC_RANDOM, "heuristic": CC_VEC_HEURISTIC}


cdef int _check_array(object arr, str name, object dtype, tuple shape, bint out) except -1:
    """Refuse an array of the wrong type, dtype, shape or layout, naming it."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name}: expected a numpy.ndarray of {np.dtype(dtype)}, "
                        f"got {type(arr).__name__}")
    if arr.dtype != dtype:
        raise TypeError(f"{name}: expected dtype {np.dtype(dtype)}, got {arr.dtype}")
    if arr.shape != shape:
        raise ValueError(f"{name}: expected shape {shape}, got {arr.shape}")
    if not arr.flags.c_contiguous or not arr.flags.aligned:
        raise ValueError(f"{name}: array must be C-contiguous and aligned")
    if out and not arr.flags.writeable:
        raise ValueError(f"{name}: array is read-only")
    return 0


cdef struct _vec_args:
    void *mem
    const int32_t *actions
    float *obs
    int8_t *masks
    float *rewards
    uint8_t *terminated
    int32_t nthreads
    int64_t *bad


cdef int32_t _vec_observe_go(void *a, const int32_t *stop) noexcept nogil:
    cdef _vec_args *x = <_vec_args *> a
    return cc_vecenv_observe(x.mem, x.obs, x.masks, x.nthreads, stop)


cdef int32_t _vec_reset_go(void *a, const int32_t *stop) noexcept nogil:
    cdef _vec_args *x = <_vec_args *> a
    return cc_vecenv_reset(x.mem, x.obs, x.masks, x.nthreads, stop)


cdef int32_t _vec_step_go(void *a, const int32_t *stop) noexcept nogil:
    cdef _vec_args *x = <_vec_args *> a
    return cc_vecenv_step(x.mem, x.actions, x.obs, x.masks, x.rewards, x.terminated,
                          x.nthreads, x.bad, stop)


cdef class VecEnv:
    """N games of one :class:`GameSetup`, stepped together in C.

    One seat (``learner``) is played by the caller; the others by a built-in
    policy (``"random"``, or ``"heuristic"``: the game's rule-based policy,
    random for a game without one).  Outputs go into caller-owned numpy arrays:
    observations ``float32 (n, tensor_size)``, masks ``int8 (n, num_actions)``,
    rewards ``float32 (n,)``, terminations ``bool (n,)``; actions are ``int32
    (n,)``.  ``threads`` > 1 splits the games across that many threads (the GIL
    is released; the worker threads are started at the first call that needs
    them and kept until the vector is freed).  ``events``: the games keep
    their event logs (off, they keep none, which changes no game and saves a
    little time).

    Called from the main thread, a call on 16384 games or more runs in a
    thread of its own: an exception from a signal handler (KeyboardInterrupt
    on Ctrl-C) stops it within 64 games per thread and is raised by the
    call.  Each game is then either done (stepped or dealt, its outputs
    written) or untouched (its outputs not written): the vector stays valid,
    every game waiting for the learner, and :meth:`observe` writes every
    game's view again."""
    cdef void *mem
    cdef GameSetup setup
    cdef bint busy
    cdef readonly int64_t num_envs
    cdef readonly int32_t num_actions
    cdef readonly int32_t tensor_size
    cdef readonly int32_t learner
    cdef int32_t nthreads
    cdef readonly object opponent
    cdef readonly object nbytes
    cdef readonly bint events

    def __cinit__(self, GameSetup setup, object num_envs, object seed, object learner=0,
                  object opponent="random", object threads=1, object events=False):
        self.mem = NULL
        if setup.nplayers == 0:
            raise _errors.RulesError(f"{setup.name}: the setup has no player count")
        cdef int64_t n = _int_arg(num_envs, "num_envs", 1, CC_VEC_MAX_GAMES)
        cdef uint64_t sd = _int_arg(seed, "seed", 0, _MAX_SEED)
        cdef int32_t seat = _int_arg(learner, "learner", 0, setup.nplayers - 1)
        if not isinstance(opponent, str) or opponent not in _OPPONENTS:
            raise ValueError(f"opponent must be one of {sorted(_OPPONENTS)}, got {opponent!r}")
        self.nthreads = _int_arg(threads, "threads", 1, CC_VEC_MAX_THREADS)
        if not isinstance(events, bool):
            raise TypeError(f"events must be a bool, got {type(events).__name__}")
        cdef int32_t policy = _OPPONENTS[opponent]
        cdef int32_t flags = CC_VEC_EVENTS if events else 0
        cdef size_t nbytes = cc_vecenv_bytes(setup.game, n, flags)
        if nbytes == 0:
            raise ValueError(f"num_envs must be 1..{CC_VEC_MAX_GAMES}, got {n}")
        self.mem = PyMem_Malloc(nbytes)
        if self.mem == NULL:
            raise MemoryError(f"VecEnv: {nbytes} bytes for {n} games")
        self.setup = setup
        cdef int32_t rc
        with nogil:
            rc = cc_vecenv_init(self.mem, nbytes, setup.game, setup.values, setup.nplayers,
                                seat, policy, flags, n, sd)
        if rc != CC_OK:
            PyMem_Free(self.mem)
            self.mem = NULL
            _check(rc, f"{setup.name}: VecEnv")
        self.num_envs = n
        self.num_actions = setup.num_actions
        self.tensor_size = setup.tensor_size
        self.learner = seat
        self.opponent = opponent
        self.nbytes = nbytes
        self.events = events

    def __dealloc__(self):
        if self.mem != NULL:
            with nogil:
                cc_vecenv_free(self.mem)  # stop and join the worker threads
            PyMem_Free(self.mem)
            self.mem = NULL

    @property
    def threads(self):
        """The threads each call splits the games across (1 to 64; settable:
        the vector keeps its worker threads, started at the first call that
        needs them, until it is freed)."""
        return self.nthreads

    @threads.setter
    def threads(self, object value):
        self.nthreads = _int_arg(value, "threads", 1, CC_VEC_MAX_THREADS)

    cdef int _enter(self) except -1:
        # under the GIL, nothing between the test and the set: one caller
        if self.busy:
            raise RuntimeError("VecEnv: another thread is using this vector "
                               "(one call at a time; nothing was applied)")
        self.busy = True
        return 0

    cdef int _views(self, object obs, object masks) except -1:
        _check_array(obs, "observations", np.float32, (self.num_envs, self.tensor_size), True)
        _check_array(masks, "action_masks", np.int8, (self.num_envs, self.num_actions), True)
        return 0

    def observe(self, object obs, object masks):
        """Write every game's learner observation and action mask."""
        self._views(obs, masks)
        cdef float[:, ::1] o = obs
        cdef int8_t[:, ::1] m = masks
        cdef int32_t rc
        cdef _vec_args args
        args.mem = self.mem
        args.obs = &o[0, 0]
        args.masks = &m[0, 0]
        args.nthreads = self.nthreads
        self._enter()
        try:
            _run_stoppable(_vec_observe_go, &args, self.num_envs >= _LONG_VECTOR, &rc)
        finally:
            self.busy = False
        _check(rc, "VecEnv.observe")

    def reset(self, object obs, object masks):
        """Deal a new game everywhere (the generators go on) and write the views."""
        self._views(obs, masks)
        cdef float[:, ::1] o = obs
        cdef int8_t[:, ::1] m = masks
        cdef int32_t rc
        cdef _vec_args args
        args.mem = self.mem
        args.obs = &o[0, 0]
        args.masks = &m[0, 0]
        args.nthreads = self.nthreads
        self._enter()
        try:
            _run_stoppable(_vec_reset_go, &args, self.num_envs >= _LONG_VECTOR, &rc)
        finally:
            self.busy = False
        _check(rc, "VecEnv.reset")

    def step(self, object actions, object obs, object masks, object rewards,
             object terminations):
        """One learner action per game; then the opponents, auto-reset, and the
        outputs.  An illegal action anywhere applies nothing and raises
        IllegalActionError naming its game (ValueError for an id outside the
        action space).  The actions are copied into a buffer of this call
        before they are checked, so a caller that changes its array during
        the step changes nothing; one call at a time per vector (another
        thread's call meanwhile raises RuntimeError and changes nothing)."""
        _check_array(actions, "actions", np.int32, (self.num_envs,), False)
        self._views(obs, masks)
        _check_array(rewards, "rewards", np.float32, (self.num_envs,), True)
        _check_array(terminations, "terminations", np.bool_, (self.num_envs,), True)
        cdef const int32_t[::1] a = actions
        cdef float[:, ::1] o = obs
        cdef int8_t[:, ::1] m = masks
        cdef float[::1] r = rewards
        cdef uint8_t[::1] t = terminations.view(np.uint8)
        cdef int64_t bad = -1
        cdef int32_t rc
        cdef int32_t action
        cdef _vec_args args
        cdef int32_t *mine = <int32_t *>PyMem_Malloc(self.num_envs * sizeof(int32_t))
        if mine == NULL:
            raise MemoryError()
        try:
            self._enter()
            try:
                # the call's own copy, checked and stepped by the engine
                memcpy(mine, &a[0], self.num_envs * sizeof(int32_t))
                args.mem = self.mem
                args.actions = mine
                args.obs = &o[0, 0]
                args.masks = &m[0, 0]
                args.rewards = &r[0]
                args.terminated = &t[0]
                args.nthreads = self.nthreads
                args.bad = &bad
                _run_stoppable(_vec_step_go, &args, self.num_envs >= _LONG_VECTOR, &rc)
            finally:
                self.busy = False
            if rc == CC_E_ILLEGAL and 0 <= bad < self.num_envs:
                action = mine[bad]
                if not 0 <= action < self.num_actions:
                    raise ValueError(f"actions[{bad}] (game {bad}): {action} is not an action "
                                     f"id (0..{self.num_actions - 1}); nothing was applied")
                raise _errors.IllegalActionError(
                    action, f"game {bad} of the vector: not a legal action for the learner "
                            f"(nothing was applied)")
            _check(rc, "VecEnv.step")
        finally:
            PyMem_Free(mine)

    def random_actions(self, object out):
        """Write a uniformly random legal learner action for every game into
        ``out`` (int32, shape (n,)), from each game's own second generator."""
        _check_array(out, "out", np.int32, (self.num_envs,), True)
        cdef int32_t[::1] a = out
        cdef int32_t rc
        self._enter()
        try:
            with nogil:
                rc = cc_vecenv_random_actions(self.mem, &a[0], self.nthreads)
        finally:
            self.busy = False
        _check(rc, "VecEnv.random_actions")

    def final_returns(self, object out):
        """Write every seat's returns at the end of each game's last finished
        game into ``out`` (int32, shape (n, nplayers); zeros before a game's
        first end): after a step, the rows of the terminated games are their
        results for every seat."""
        _check_array(out, "out", np.int32, (self.num_envs, self.setup.nplayers), True)
        cdef int32_t[:, ::1] r = out
        if self.busy:
            raise RuntimeError("VecEnv: another thread is using this vector "
                               "(one call at a time)")
        _check(cc_vecenv_final_returns(self.mem, &r[0, 0]), "VecEnv.final_returns")

    def state(self, object index):
        """A copy of game ``index`` as a :class:`GameState` without a history
        (like a sampled state: it carries no record); its event log is the
        game's with ``events``, else empty."""
        cdef int64_t i = _int_arg(index, "index", 0, self.num_envs - 1)
        if self.busy:
            raise RuntimeError("VecEnv: another thread is using this vector "
                               "(one call at a time)")
        cdef GameState out = GameState.__new__(GameState)
        out._alloc(self.setup)
        memset(out.state, 0, self.setup.game.state_size)
        _check(cc_vecenv_copy_state(self.mem, i, out.state), "VecEnv.state")
        return out

    @property
    def episodes(self):
        """Games finished since the vector was made."""
        return cc_vecenv_episodes(self.mem)

    @property
    def skipped(self):
        """Games dealt again because they ended before the learner's first turn."""
        return cc_vecenv_skipped(self.mem)

    @property
    def bytes_per_game(self):
        """Bytes of memory per game of the vector (its state and slot; a
        log-free vector also holds one whole state per thread that may run,
        up to 64, for dealing: ``nbytes`` is the total)."""
        cdef int32_t flags = CC_VEC_EVENTS if self.events else 0
        cdef int64_t k = CC_VEC_MAX_THREADS
        return (cc_vecenv_bytes(self.setup.game, k + 1, flags)
                - cc_vecenv_bytes(self.setup.game, k, flags))
