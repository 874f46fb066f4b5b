"""What the shared tests need to know of No Takers?."""

from _games import Profile

PROFILE = Profile(
    rules_headings=frozenset({"The aim", "Your turn", "Asking", "The scoring"}),
    quick_preset="no_takers",
    tables=(3, 2),
    heuristic_match=(4, 60),
    ismcts_match=(2, 10, 16, 0.8),
    ismcts_match_slow=(3, 30, 30, 0.75),
    bench_tables=(2, 4),
    short_params={"max_turns": 6},
    sampler_bench=((4, {}, 10.0),),
    search_bench=(2, 30_000),
    search_matches=((2, "capped"),),
    web_role="three",
    vector_random_digest="68b8bb3878c7db96bcbed7c04eb85bec",
    terminal_sessions={"notakers": ("--seed", "12", "--rules", "capped")},
    pool_case=(5, "random", False),
    arena_preset="capped",
    vector_twin_cases=((3, 1, 150, False),),
    strength_rows=(("No Takers 2p capped", 2, "capped"),),
)
