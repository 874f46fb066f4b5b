"""What the shared tests need to know of the Game of Nancy."""

from _games import Profile

PROFILE = Profile(
    rules_headings=frozenset({"The bids", "The nine objectives", "The discards", "The scoring"}),
    web_lead=("bid 9", r"Discard \d (more )?cards? to the Nancy: no trumps, no Kings"),
    quick_preset="wiki_one_deal",
    tables=(4,),
    heuristic_match=(4, 60),
    ismcts_match=(4, 10, 32, 0.7),
    ismcts_match_slow=(4, 100, 40, 0.7),
    bench_tables=(4, 6),
    short_params={"match_rounds": 1},
    sampler_bench=((4, {}, 5.0), (6, {"face_up_count": 0}, 50.0)),
    search_bench=(4, 60_000),
    search_matches=((4, "wiki_one_deal"), (4, None)),
    web_role="search",
    vector_random_digest="72d27bed4698cf30dbf32bf2b3406016",
    terminal_sessions={"nancy": ("--seed", "12", "--rules", "wiki_one_deal")},
    pool_case=(37, "heuristic", True),
    vector_twin_cases=((2, 1, 60, False), (3, 2, 100, False), (6, 4, 60, False)),
    strength_rows=(("Nancy 4p one deal", 4, "wiki_one_deal"), ("Nancy 4p match", 4, "wiki")),
    own_test_files={
        "test_alloc.py": "its sampler's allocation contract, in a C harness",
        "test_cards.py": "the 78-card deck, which no other game plays with",
        "test_diff.py": "the stateful differential test against the oracle, apart for its length",
        "test_hidden_hound.py": "the Hound, a pile no other game has, hidden in samples",
        "test_infer.py": "pycards.bots.infer's weighted worlds by exact enumeration, here only",
        "test_sampler_prepared.py": "its two-phase sampler (sample_prepare, sample_draw)",
        "test_web.py": "the browser table's objective tracker, which only this game has",
    },
)
