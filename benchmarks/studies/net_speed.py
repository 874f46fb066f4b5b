"""Network evaluations a second on one core, per game and path.

For every registered game at its usual table: a random network of hidden
layers ``--hidden`` (default 128,64) over the game's observation tensor,
evaluated (both heads, one observation a call, from C with no Python per
call) on tensors of random positions, on every path this machine has
(:func:`cardcore._core.net_paths`).  Prints evaluations a second and the
time of one, both by the CPU time of the thread (what one core does, even on
a machine busy with other work) and by the wall clock.

Run: ``python benchmarks/studies/net_speed.py [--hidden 128,64] [--repeat 200]``.
"""

from __future__ import annotations

import argparse
import time

import _here  # noqa: F401  (puts tests/ and benchmarks/ on sys.path)
import numpy as np
from _games import GAMES
from _search_positions import positions

from cardcore import _core
from pycards.nets import engine_net, random_network


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hidden", default="128,64", help="hidden widths, comma-separated")
    parser.add_argument("--repeat", type=int, default=200, help="passes over the positions")
    parser.add_argument("--positions", type=int, default=64, help="positions per game")
    args = parser.parse_args()
    hidden = tuple(int(x) for x in args.hidden.split(","))
    print(f"hidden {hidden}, {args.positions} positions x {args.repeat} passes, one core")
    print(
        f"{'game':<12}{'inputs':>7}{'actions':>8}  {'path':<9}{'evals/s cpu':>12}"
        f"{'ns/eval':>9}{'evals/s wall':>14}"
    )
    for name, case in GAMES.items():
        players = case.tables[0]
        states = positions(name, players, args.positions)
        game = states[0].game
        obs = np.stack([s.observation_tensor(s.current_player) for s in states])
        net = engine_net(
            random_network(
                name,
                players,
                input_size=game.tensor_size,
                num_actions=game.num_actions,
                hidden=hidden,
                rng=np.random.default_rng(0),
            )
        )
        for path in _core.net_paths():
            net.evaluate_loop(obs, 2, path)  # warm up
            cpu, wall = [], []
            for _ in range(3):
                t0 = time.thread_time()
                wall.append(net.evaluate_loop(obs, args.repeat, path))
                cpu.append(time.thread_time() - t0)
            evals = args.repeat * len(states)
            print(
                f"{name:<12}{game.tensor_size:>7}{game.num_actions:>8}  {path:<9}"
                f"{evals / min(cpu):>12,.0f}{min(cpu) / evals * 1e9:>9.0f}"
                f"{evals / min(wall):>14,.0f}"
            )


if __name__ == "__main__":
    main()
