"""What the shared tests need to know of the Game of Nancy."""

from _games import Profile

PROFILE = Profile(
    tables=(4,),
    heuristic_match=(4, 60),
    ismcts_match=(4, 10, 32, 0.7),
    ismcts_match_slow=(4, 100, 40, 0.7),
    search_matches=((4, "wiki_one_deal"), (4, None)),
)
