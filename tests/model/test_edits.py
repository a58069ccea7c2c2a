"""Following a run's line through the typing done while it ran."""

from playground.model.edits import moved_line

RAN = "import time\ntime.sleep(1)\nraise ValueError\n"


def test_a_line_keeps_its_number_when_nothing_changed_or_only_below_it():
    assert moved_line(RAN, RAN, 3) == 3
    assert moved_line(RAN, RAN + "print('more')\n", 3) == 3


def test_lines_typed_or_deleted_above_move_it():
    assert moved_line(RAN, "# note\n\n" + RAN, 3) == 5
    assert moved_line(RAN, RAN.split("\n", 1)[1], 3) == 2


def test_an_edited_line_is_not_followed():
    assert moved_line(RAN, RAN.replace("raise ValueError", "print('fixed')"), 3) is None
    assert moved_line(RAN, "", 3) is None
    assert moved_line(RAN, RAN, 9) is None


def test_repeated_lines_match_from_both_ends():
    before = "a\na\na\n"
    assert moved_line(before, "a\na\na\na\n", 3) == 3  # one added: the shared start holds it
    assert moved_line(before, "b\n" + before, 1) == 2
