"""Where the bot ``pimc_infer`` infers in the Game of Nancy (4 players, one
deal, ``wiki_one_deal``), and what it costs (docs/search.rst, "Inference").

Games of ``pimc_infer`` (seats 0 and 2) against ``pimc`` (seats 1 and 3) at
the same samples and simulations.  At each move of a ``pimc_infer`` seat
with more than one legal action this prints, summed over the games: the
moves, those whose worlds inference weighed (:func:`infer_applies`, the
replays within ``max_nodes``), those where the Taker moved, and those where
the weighted search chose another action than the same search over the
same worlds at weight 1 (the searcher reseeded alike for both); and the
milliseconds per move spent weighing the worlds and searching them.

    python benchmarks/studies/infer_moves_nancy.py
    python benchmarks/studies/infer_moves_nancy.py --games 8 --samples 20 --simulations 400
"""

from __future__ import annotations

import argparse
import random
import time

import _here  # noqa: F401  (the benchmarks/ and tests/ folders on sys.path)

from pycards.bots import make_bot
from pycards.bots.infer import InferBot
from pycards.games.nancy import NancyGame, NancyRules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = NancyGame(NancyRules.wiki_one_deal(), 4)
    budget = f"samples={args.samples}:simulations={args.simulations}"
    moves = weighed = taker = changed = 0
    t_weigh = t_search = 0.0
    rng = random.Random(args.seed)
    for g in range(args.games):
        state = game.new_initial_state(rng.getrandbits(32))
        bots = [
            InferBot(seed=10 * g + k, samples=args.samples, simulations=args.simulations)
            if k % 2 == 0
            else make_bot(f"pimc:{budget}", seed=10 * g + k)
            for k in range(4)
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
                searcher.reset(seed)
                a, _ = searcher.act_worlds(state.engine_state, worlds, [x for _, x in pairs], cp)
                t2 = time.perf_counter()
                searcher.reset(seed)
                b, _ = searcher.act_worlds(state.engine_state, worlds, [1.0] * len(worlds), cp)
                moves += 1
                t_weigh += t1 - t0
                t_search += t2 - t1
                if len({x for _, x in pairs}) > 1:
                    weighed += 1
                    taker += state.observation(cp).taker == cp
                    changed += a != b
            state.apply(bot.act(view))
    print(f"pimc_infer:{budget} against pimc:{budget}, {args.games} games, seed {args.seed}")
    print(f"moves searched        {moves}")
    print(f"worlds weighed        {weighed} ({100 * weighed / max(moves, 1):.1f}%)")
    print(f"  of which the Taker  {taker}")
    print(f"  another action      {changed} ({100 * changed / max(moves, 1):.1f}% of moves)")
    print(f"ms/move weighing      {1e3 * t_weigh / max(moves, 1):.2f}")
    print(f"ms/move searching     {1e3 * t_search / max(moves, 1):.2f}")


if __name__ == "__main__":
    main()
