"""Where the bot ``pimc_infer`` infers in No Takers? (2 players), and what
it costs (docs/search.rst, "Inference").

Games of ``pimc_infer`` (seat 0 in even games, seat 1 in odd ones) against
``pimc`` at the same samples and simulations.  At each move of the
``pimc_infer`` seat with more than one legal action this prints, summed over
the games: the moves, those whose worlds inference weighed (worlds drawn
with their history, the replays within ``max_nodes``), the mean effective
number of worlds on those moves (``(sum w)^2 / sum w^2``), those where the
weighted search chose another action than the same search over the same
worlds at weight 1 (the searcher reseeded alike for both); and the
milliseconds per move spent drawing and weighing the worlds and searching
them.

    python benchmarks/studies/infer_moves_notakers.py
    python benchmarks/studies/infer_moves_notakers.py --games 6 --samples 20 --simulations 400
"""

from __future__ import annotations

import argparse
import random
import time

import _here  # noqa: F401  (the benchmarks/ and tests/ folders on sys.path)

from pycards.bots import make_bot
from pycards.bots.infer import InferBot
from pycards.game import load_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = load_game("notakers", num_players=2)
    budget = f"samples={args.samples}:simulations={args.simulations}"
    moves = weighed = changed = 0
    ess = t_weigh = t_search = 0.0
    rng = random.Random(args.seed)
    for g in range(args.games):
        state = game.new_initial_state(rng.getrandbits(32))
        me = g % 2
        bots = [
            InferBot(seed=10 * g + k, samples=args.samples, simulations=args.simulations)
            if k == me
            else make_bot(f"pimc:{budget}", seed=10 * g + k)
            for k in range(2)
        ]
        while not state.is_terminal:
            cp = state.current_player
            bot = bots[cp]
            view = state.view(cp)
            if isinstance(bot, InferBot) and len(state.legal_actions()) > 1:
                seed = random.Random(1000 * g + len(state.history)).getrandbits(64)
                t0 = time.perf_counter()
                pairs = bot.worlds(view, seed)
                t1 = time.perf_counter()
                searcher = bot.searcher(game)
                worlds = [w.engine_state for w, _ in pairs]
                weights = [x for _, x in pairs]
                searcher.reset(seed)
                a, _ = searcher.act_worlds(state.engine_state, worlds, weights, cp)
                t2 = time.perf_counter()
                searcher.reset(seed)
                b, _ = searcher.act_worlds(state.engine_state, worlds, [1.0] * len(worlds), cp)
                moves += 1
                t_weigh += t1 - t0
                t_search += t2 - t1
                if len(set(weights)) > 1:
                    weighed += 1
                    top = max(weights)
                    scaled = [x / top for x in weights]
                    ess += sum(scaled) ** 2 / sum(x * x for x in scaled)
                    changed += a != b
            state.apply(bot.act(view))
    print(f"pimc_infer:{budget} against pimc:{budget}, {args.games} games, seed {args.seed}")
    print(f"moves searched        {moves}")
    print(f"worlds weighed        {weighed} ({100 * weighed / max(moves, 1):.1f}%)")
    print(f"  effective worlds    {ess / max(weighed, 1):.2f} of {args.samples} (mean)")
    print(f"  another action      {changed} ({100 * changed / max(moves, 1):.1f}% of moves)")
    print(f"ms/move weighing      {1e3 * t_weigh / max(moves, 1):.2f}")
    print(f"ms/move searching     {1e3 * t_search / max(moves, 1):.2f}")


if __name__ == "__main__":
    main()
