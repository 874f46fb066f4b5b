"""What the shared tests need to know of cribbage."""

from _games import Profile

PROFILE = Profile(
    rules_headings=frozenset({"The aim", "The discards", "The play", "The show"}),
    quick_preset="acc_61",
    tables=(2, 3, 4),
    heuristic_match=(2, 60),
    bench_tables=(2,),
    short_params={"game_target": 31},
    web_role="long",
    vector_random_digest="a7142a887ba0dc68a2e5ef8375cf72d1",
    terminal_sessions={
        "cribbage": ("--seed", "12"),
        "cribbage-4-muggins": ("--seed", "5", "--players", "4", "--rules", "acc_muggins"),
    },
    pool_case=(64, "heuristic", True),
    vector_twin_cases=((3, 1, 60, False),),
    strength_rows=(("cribbage 2p", 2, "acc"),),
    own_test_files={
        "test_openspiel.py": "head to head with OpenSpiel's own cribbage",
        "test_table.py": "the discard table job, pycards.games.cribbage_table",
    },
)
