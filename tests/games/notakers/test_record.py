"""No Takers? records: what a seat's record (``pycards.record``) shows of the
other seats' saves."""

from __future__ import annotations

import random
import re

from _play import random_game

from pycards.game import load_game
from pycards.record import write_record


def test_no_takers_hidden_saves_stay_hidden_in_the_seat_record() -> None:
    """The save leak: a bot's face-down save selection is not in seat 0's record."""
    state = load_game("notakers", None, 3).new_initial_state(1)
    rng = random.Random(1)
    while not state.is_terminal and len(state.history) < 60:
        state.apply(rng.choice(state.legal_actions()))
    record = write_record(state, viewer=0)
    saves = [line for line in record.splitlines() if re.match(r"seat [12]: save \S", line)]
    assert saves and all(line.endswith("save ?") for line in saves)


def test_a_give_between_two_other_seats_is_hidden_from_the_third() -> None:
    state = random_game("notakers", 3, None, 5, 40, False)
    mine = write_record(state, viewer=1)
    assert re.search(r"^seat [02]: give \?$", mine, re.M)
    assert not re.search(r"^seat 1: \w+ \?$", mine, re.M)  # one's own actions are shown
