"""What the shared tests need to know of Nodde Knave."""

from _games import Profile

PROFILE = Profile(
    rules_headings=frozenset({"The aim", "Your hand", "The play"}),
    quick_preset="mwynwen",
    tables=(2, 4),
    partnerships=(4,),
    heuristic_match=(2, 400),
    ismcts_match=(2, 200, 400, 0.6),
    ismcts_match_slow=(2, 1000, 200, 0.65),
    bench_tables=(2, 4),
    sampler_bench=((2, {}, 5.0), (4, {}, 5.0)),
    search_bench=(2, 300_000),
    web_restart=True,
    web_role="quick",
    vector_random_digest="43d664826c23cc0e6af66ec97999c661",
    pool_case=(300, "random", True),
    vector_twin_cases=((2, 0, 120, True), (4, 3, 60, True)),
    strength_rows=(("Nodde 2p", 2, "mwynwen"),),
    own_test_files={
        "test_gymnasium.py": "Gymnasium's whole checker on one game, and its environment id",
    },
)
