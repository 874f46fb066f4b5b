"""The guarded hot paths: one entry of :func:`paths` each (the harness that
times them is ``harness.py``).  A new hot path is one more entry here; every
game's own paths come from the loop over the registered games."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from harness import GuardPath, NotBuiltError, Op


def _require(module: str, *attrs: str) -> Any:
    """The module's object ``attrs`` (dotted), or NotBuiltError naming what is missing."""
    import importlib

    try:
        obj: Any = importlib.import_module(module)
    except ImportError as e:
        raise NotBuiltError(f"{module} not importable ({e})") from None
    for a in attrs:
        if not hasattr(obj, a):
            raise NotBuiltError(f"{module}.{'.'.join(attrs)} missing") from None
        obj = getattr(obj, a)
    return obj


BATCH_HANDS = 1024
PATH_NAMES = {1: "plain", 2: "popcnt", 3: "bmi2", 4: "avx2", 5: "avx512"}


def _hands() -> Any:
    from cardcore import _core

    return _core.random_hands(BATCH_HANDS, 5, 2024)


def _batch_path(fn_name: str) -> Callable[[], Op]:
    def setup() -> Op:
        from pycards import batch

        fn = getattr(batch, fn_name)
        hands = _hands()
        return lambda: fn(hands)

    return setup


def _fused_path(path: int) -> Callable[[], Op]:
    def setup() -> Op:
        from cardcore import _core

        if path not in _core._combos_paths():
            raise NotBuiltError(f"kernel path {PATH_NAMES[path]} not on this CPU/build", cpu=True)
        hands = _hands()
        return lambda: _core._batch_hand_stats_path(path, hands)

    return setup


def _random_hands() -> Op:
    from pycards import batch

    return lambda: batch.random_hands(BATCH_HANDS, 5, 7)


def _nancy_rows() -> tuple[Any, Any]:
    import numpy as np

    rng = np.random.default_rng(1)
    rows = BATCH_HANDS
    holdings = np.zeros((rows, 2), dtype=np.uint64)
    tricks = np.full((rows, 3), -1, dtype=np.int8)
    for i in range(rows):
        deck = rng.permutation(78)
        for c in (int(x) for x in deck[:18]):
            if c < 56:
                holdings[i, 0] |= np.uint64(1 << (16 * (c // 14) + c % 14))
            else:
                holdings[i, 1] |= np.uint64(1 << (0 if c == 77 else c - 55))
        k = int(rng.integers(0, 4))
        tricks[i, :k] = deck[18 : 18 + k]
    return holdings, tricks


def _nancy_batch(which: str) -> Callable[[], Op]:
    def setup() -> Op:
        from pycards.games import nancy

        holdings, tricks = _nancy_rows()
        if which == "legal_cards":
            return lambda: nancy.batch_legal_cards(holdings, tricks)
        if which == "trick_winner":
            return lambda: nancy.batch_trick_winner(tricks)
        return lambda: nancy.batch_objectives(holdings, arcane_sum_mode="subset_sum")

    return setup


def _nodde_batch() -> Op:
    import numpy as np

    from cardcore import _core
    from pycards.games import nodde

    hands3 = _core.random_hands(BATCH_HANDS, 4, 11)
    # split each 4-card set into a 3-card hand and the turn-up (its lowest card)
    low = hands3 & (~hands3 + np.uint64(1))
    hands = hands3 ^ low
    ups = np.array([int(x).bit_length() - 1 for x in low], dtype=np.uint8)
    ups = (ups // 16 * 13 + ups % 16).astype(np.uint8)
    return lambda: nodde.batch_score_hands(hands, ups)


def _notakers_batch() -> Op:
    from cardcore import _core
    from pycards import notakers

    hands = _core.random_hands(BATCH_HANDS, 7, 5)
    return lambda: notakers.batch_split_points(hands)


def _combos_scalar() -> Op:
    from cardcore import _core
    from pycards import combos

    hands = [int(h) for h in _core.random_hands(16, 5, 3)]

    def op() -> None:
        for h in hands:
            combos.count_fifteens(h)
            combos.count_pairs(h)
            combos.runs(h)
            combos.suit_counts(h)

    return op


def _nancy_scalar() -> Op:
    from pycards import nancy

    holding = "3S XV OUT 5P 2R II"
    tricks = [["5R"], ["XI"], ["KR", "QR"], ["XI", "2S", "KR", "7P"]]

    def op() -> None:
        for _ in range(4):
            for t in tricks:
                nancy.legal_cards(holding, t)
                nancy.trick_winner(t)

    return op


def _nodde_scalar() -> Op:
    from cardcore import _core
    from pycards.games import nodde

    sets = [int(h) for h in _core.random_hands(16, 4, 9)]
    deals = [(h ^ (h & -h), (h & -h).bit_length() - 1) for h in sets]
    deals = [(h, up // 16 * 13 + up % 16) for h, up in deals]

    def op() -> None:
        for h, up in deals:
            nodde.score_hand(h, up)

    return op


def _notakers_scalar() -> Op:
    from cardcore import _core
    from pycards import notakers

    hands = [int(h) for h in _core.random_hands(16, 7, 8)]

    def op() -> None:
        for h in hands:
            notakers.split_points(h)

    return op


def _positions(name: str, players: int, count: int, rules: Any = None) -> list[Any]:
    """``count`` non-terminal states at random points of random games (fixed seeds)."""
    from pycards.game import load_game

    game = load_game(name, rules, num_players=players)
    rng = random.Random(1)
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        state = game.new_initial_state(seed)
        seed += 1
        stop = rng.randint(0, 200)
        k = 0
        while not state.is_terminal and k < stop:
            state.apply(rng.choice(state.legal_actions()))
            k += 1
        if not state.is_terminal:
            out.append(state)
    return out


def _game_step(name: str) -> Callable[[], Op]:
    def setup() -> Op:
        starts = _positions(name, 2, 4)

        def op() -> None:
            rng = random.Random(0)
            for start in starts:
                state = start.clone()
                for _ in range(8):
                    if state.is_terminal:
                        break
                    state.apply(rng.choice(state.legal_actions()))

        return op

    return setup


def _game_playouts(name: str) -> Callable[[], Op]:
    def setup() -> Op:
        from cardcore import _core
        from pycards.game import load_game

        params = load_game(name, num_players=2).rules.to_params()
        return lambda: _core.random_playouts(name, params, 2, 0, 2)

    return setup


def _game_states(name: str, call: str) -> Callable[[], Op]:
    def setup() -> Op:
        states = _positions(name, 2, 8)
        if call == "observation":
            return lambda: [s.observation(s.current_player) for s in states]
        if call == "observation_tensor":
            return lambda: [s.observation_tensor(s.current_player) for s in states]
        if call == "clone":
            return lambda: [s.clone() for s in states]
        return lambda: [s.sample_infoset(s.current_player, i) for i, s in enumerate(states)]

    return setup


def _nancy_sampler_6() -> Op:
    from pycards.games.nancy import NancyRules

    state = _positions("nancy", 6, 1, NancyRules(face_up_count=0))[0]
    return lambda: state.sample_infoset(state.current_player, 0)


def _nancy_solve() -> Op:
    """The exact solver on 4 positions of 4-player heuristic self-play, each
    at the start of the trick with 4 tricks left."""
    from pycards.games.nancy import NancyGame, NancyRules

    game = NancyGame(NancyRules(match_rounds=1), 4)
    states: list[Any] = []
    seed = 0
    while len(states) < 4:
        state = game.new_initial_state(seed)
        step = 0
        while not state.is_terminal and state.solve_depth != 16:
            state.apply(state.engine_state.heuristic_action(seed * 7919 + step))
            step += 1
        if state.solve_depth == 16 and state.legal_actions()[0] < 244:
            states.append(state)
        seed += 1

    def op() -> None:
        for s in states:
            s.solve()

    return op


def _ismcts(name: str) -> Callable[[], Op]:
    """ISMCTS (a native bot through the Python API): one decision of 40
    simulations from each of 2 positions."""

    def setup() -> Op:
        names = _require("pycards.bots", "bot_names")()
        if "ismcts" not in names:
            raise NotBuiltError(f"no 'ismcts' bot in pycards.bots ({names})")
        make_bot = _require("pycards.bots", "make_bot")
        states = _positions(name, 2, 2)
        bot = make_bot("ismcts:simulations=40", 0)

        def op() -> None:
            bot.reset(0)
            for s in states:
                bot.act(s.view(s.current_player))

        return op

    return setup


def _defined(which: str) -> Callable[[], Op]:
    """A game defined from a description (pycards.define: Hearts, four
    players): 2 native random games, one ISMCTS decision of 40
    simulations from each of 2 positions, or one information-set sample
    of each of 8 positions after 40 random actions (voids shown)."""

    def setup() -> Op:
        import random

        from cardcore import _core
        from pycards.define import HEARTS

        game = HEARTS.register(listed=False)(num_players=4)
        if which == "playouts":
            return lambda: _core.random_playouts("hearts", game.params, 4, 0, 2)
        if which == "sample":
            late = []
            for seed in range(8):
                state = game.new_initial_state(seed)
                rng = random.Random(seed)
                for _ in range(40):
                    state.apply(rng.choice(state.legal_actions()))
                late.append(state.engine_state)
            return lambda: [s.sample_infoset(s.current_player(), i) for i, s in enumerate(late)]
        make_bot = _require("pycards.bots", "make_bot")
        bot = make_bot("ismcts:simulations=40", 0)
        states = []
        for seed in range(2):
            state = game.new_initial_state(seed)
            rng = random.Random(seed)
            for _ in range(20):
                state.apply(rng.choice(state.legal_actions()))
            states.append(state)

        def op() -> None:
            bot.reset(0)
            for st in states:
                bot.act(st.view(st.current_player))

        return op

    return setup


def _search_hook(name: str, which: str) -> Callable[[], Op]:
    """ISMCTS calling Python hooks from C, from 2 positions: a rollout policy
    (2 simulations to the end of the deal, the policy at every action) or a
    leaf evaluator (32 simulations in batches of 16).  The hooks do next to
    nothing, so the path is the crossing's own cost."""

    def setup() -> Op:
        import numpy as np

        from cardcore import _core

        states = _positions(name, 2, 2)
        setup_ = states[0].game._setup
        rng = random.Random(0)

        def policy(obs: Any, mask: Any, player: int) -> int:
            legal = np.flatnonzero(mask)
            return int(legal[rng.randrange(len(legal))])

        def evaluate(obs: Any, masks: Any, players: Any) -> Any:
            return np.zeros((len(players), 2))

        if which == "rollout":
            searcher = _core.Searcher(
                setup_, "ismcts", simulations=2, rollout=policy, horizon="deal"
            )
        else:
            searcher = _core.Searcher(setup_, "ismcts", simulations=32, evaluate=evaluate, batch=16)

        def op() -> None:
            for s in states:
                searcher.reset(0)
                rng.seed(0)
                searcher.act(s.engine_state)

        return op

    return setup


#: The network of the guard's network paths: two hidden layers, the sizes
#: the shipped models are made with.
NET_HIDDEN = (128, 64)
NET_ROWS = 64


def _net_eval(path: str) -> Callable[[], Op]:
    """The engine's network evaluation (cc_net_evaluate) on one path: 64
    observations of the first registered game (2 players) at random points
    of random games, both heads, a random network of NET_HIDDEN."""

    def setup() -> Op:
        import numpy as np

        from cardcore import _core
        from pycards.game import game_names

        nets = _require("pycards.nets")
        if path not in _core.net_paths():
            raise NotBuiltError(f"network path {path} not on this CPU/build", cpu=True)
        name = game_names()[0]
        states = _positions(name, 2, NET_ROWS)
        game = states[0].game
        obs = np.stack([s.observation_tensor(s.current_player) for s in states])
        net = nets.engine_net(
            nets.random_network(
                name,
                2,
                input_size=game.tensor_size,
                num_actions=game.num_actions,
                hidden=NET_HIDDEN,
                rng=np.random.default_rng(0),
            )
        )
        return lambda: net.evaluate(obs, path)

    return setup


def _ismcts_value_net(name: str) -> Callable[[], Op]:
    """ISMCTS with a value network at the leaves (no rollout) and network
    priors, in C: 40 simulations from each of 2 positions."""

    def setup() -> Op:
        import numpy as np

        from cardcore import _core

        nets = _require("pycards.nets")
        states = _positions(name, 2, 2)
        game = states[0].game
        net = nets.engine_net(
            nets.random_network(
                name,
                2,
                input_size=game.tensor_size,
                num_actions=game.num_actions,
                hidden=NET_HIDDEN,
                rng=np.random.default_rng(0),
            )
        )
        searcher = _core.Searcher(game._setup, "ismcts", simulations=40, value=net, priors=net)

        def op() -> None:
            for s in states:
                searcher.reset(0)
                searcher.act(s.engine_state)

        return op

    return setup


def _play_match(name: str) -> Callable[[], Op]:
    """The native match loop: 2 games between two heuristic bots, all in C."""

    def setup() -> Op:
        play_match = _require("cardcore._core", "play_match")
        make_bot = _require("pycards.bots", "make_bot")
        from pycards.game import load_game

        game = load_game(name, num_players=2)
        searcher = make_bot("heuristic", 0).native_searcher(game)
        setup_ = game._setup
        return lambda: play_match(setup_, [searcher, searcher], [0, 1], [[1, 2], [3, 4]])

    return setup


def _vector_step(name: str) -> Callable[[], Op]:
    """The vectorized environment: one step of 64 games (opponents in C)."""

    def setup() -> Op:
        vector_env = _require("pycards.envs.vector", "VectorEnv")
        import numpy as np

        venv = vector_env(name, num_envs=64, num_players=2, seed=1)
        venv.reset()
        rng = np.random.default_rng(0)
        return lambda: venv.step(venv.sample_actions(rng))

    return setup


def _cribbage_discards() -> Op:
    """Cribbage discard analysis of 2 six-card hands (with the crib)."""
    fn = _require("cardcore._core", "cribbage_batch_discards")
    rules = _require("pycards.games.cribbage", "CribbageRules")
    from cardcore import _core

    hands = _core.random_hands(2, 6, 13)
    params = rules().to_params()
    return lambda: fn(hands, params, True)


def _solve(name: str, players: int) -> Callable[[], Op]:
    """The exact solver of the play (State.solve, margin) on 4 positions at
    the start of the play of heuristic games (fixed seeds)."""

    def setup() -> Op:
        from pycards.game import load_game

        game = load_game(name, num_players=players)
        rng = random.Random(3)
        states: list[Any] = []
        seed = 0
        while len(states) < 4 and seed < 50:
            state = game.new_initial_state(seed)
            seed += 1
            while not state.is_terminal and state.solve_depth < 0:
                state.apply(state.engine_state.heuristic_action(rng.getrandbits(64)))
            if state.solve_depth > 0:
                states.append(state)
        if not states:
            raise NotBuiltError(f"{name} has no solver in this build")
        return lambda: [s.engine_state.solve(0, None) for s in states]

    return setup


def paths() -> list[GuardPath]:
    """Every guarded hot path (a new hot path is one more entry here)."""
    from pycards.game import game_names

    c, py = "c", "python"
    out = [
        GuardPath(f"batch.{f}", c, _batch_path(f), f"pycards.batch.{f}, {BATCH_HANDS} hands")
        for f in ("count_fifteens", "count_pairs", "runs", "suit_counts", "longest_suit_run")
    ]
    out.append(
        GuardPath("batch.hand_stats", c, _batch_path("hand_stats"), "the fused kernel, best path")
    )
    out += [
        GuardPath(
            f"batch.hand_stats[{label}]",
            c,
            _fused_path(p),
            f"the fused kernel forced onto its {label} path",
        )
        for p, label in PATH_NAMES.items()
    ]
    out += [
        GuardPath("batch.random_hands", c, _random_hands, f"{BATCH_HANDS} random 5-card hands"),
        GuardPath("nancy.batch_legal_cards", c, _nancy_batch("legal_cards"), "rows of holdings"),
        GuardPath("nancy.batch_trick_winner", c, _nancy_batch("trick_winner"), "rows of tricks"),
        GuardPath("nancy.batch_objectives", c, _nancy_batch("objectives"), "rows of Nancies"),
        GuardPath("nodde.batch_score_hands", c, _nodde_batch, "hands and turn-ups"),
        GuardPath("notakers.batch_split_points", c, _notakers_batch, "7-card hands"),
        GuardPath("combos.scalar", py, _combos_scalar, "4 scalar calls on 16 hands"),
        GuardPath("nancy.scalar", py, _nancy_scalar, "legal_cards and trick_winner"),
        GuardPath("nodde.scalar", py, _nodde_scalar, "score_hand on 16 deals"),
        GuardPath("notakers.scalar", py, _notakers_scalar, "split_points on 16 hands"),
        GuardPath("define.hearts.playouts", c, _defined("playouts"), "2 native random games"),
        GuardPath(
            "define.hearts.ismcts", c, _defined("ismcts"), "ISMCTS, 40 simulations, 2 positions"
        ),
        GuardPath(
            "define.hearts.sample_infoset", c, _defined("sample"), "8 positions at 40 actions"
        ),
    ]
    for name in game_names():
        out += [
            GuardPath(
                f"{name}.step",
                py,
                _game_step(name),
                "8 steps of legal_actions + apply from 4 positions",
            ),
            GuardPath(f"{name}.playouts", c, _game_playouts(name), "2 native random games"),
            GuardPath(f"{name}.observation", py, _game_states(name, "observation"), "8 positions"),
            GuardPath(
                f"{name}.observation_tensor",
                py,
                _game_states(name, "observation_tensor"),
                "8 positions",
            ),
            GuardPath(f"{name}.clone", py, _game_states(name, "clone"), "8 positions"),
            GuardPath(
                f"{name}.sample_infoset", py, _game_states(name, "sample_infoset"), "8 positions"
            ),
            GuardPath(f"{name}.ismcts", c, _ismcts(name), "ISMCTS, 40 simulations, 2 positions"),
            GuardPath(f"{name}.play_match", c, _play_match(name), "2 native heuristic games"),
            GuardPath(
                f"{name}.ismcts_rollout_hook",
                py,
                _search_hook(name, "rollout"),
                "ISMCTS with a Python rollout policy, 2 simulations, 2 positions",
            ),
            GuardPath(
                f"{name}.ismcts_evaluate_hook",
                py,
                _search_hook(name, "evaluate"),
                "ISMCTS with a Python leaf evaluator, 32 simulations in batches of 16",
            ),
            GuardPath(f"{name}.vector_step", c, _vector_step(name), "a step of 64 games"),
            GuardPath(
                f"{name}.ismcts_value_net",
                c,
                _ismcts_value_net(name),
                "ISMCTS with a value and priors network, 40 simulations, 2 positions",
            ),
        ]
    out += [
        GuardPath(
            f"nets.evaluate[{p}]",
            c,
            _net_eval(p),
            f"{NET_ROWS} network evaluations (hidden {NET_HIDDEN}) on the {p} path",
        )
        for p in ("portable", "avx2")
    ]
    out += [
        GuardPath(
            "nancy.sample_infoset[6p,face_up=0]", c, _nancy_sampler_6, "the largest sampling case"
        ),
        GuardPath("nancy.solve", c, _nancy_solve, "the exact solver, 4 positions, 4 tricks left"),
        GuardPath(
            "cribbage.batch_discards", c, _cribbage_discards, "2 six-card hands, with the crib"
        ),
    ]
    # the exact solvers of the play: the games whose table has one
    out += [
        GuardPath(f"{name}.solve[{n}p]", c, _solve(name, n), "4 positions at the start of the play")
        for name, n in (("nodde", 2), ("nodde", 4), ("cribbage", 2), ("cribbage", 3))
    ]
    return out
