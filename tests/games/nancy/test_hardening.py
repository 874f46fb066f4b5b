"""What a hostile trial found in the Game of Nancy's Python layer: look-alike
digits in action names."""

from __future__ import annotations

import pytest

from pycards.game import load_game


@pytest.mark.parametrize("name", ["bid \uff11", "bid \u0661"])  # full-width 1, Arabic-Indic 1
def test_look_alike_action_names_are_refused(name: str) -> None:
    g = load_game("nancy", num_players=4)
    with pytest.raises(ValueError, match="not an ASCII"):
        g.action_from_name(name)
    state = g.new_initial_state(1)
    assert not state.can_apply(name)
