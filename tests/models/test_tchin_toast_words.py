"""A heard or typed word named as one of the six toasts, or as none."""

import pytest

from models.toasts import TOASTS, toast_id


@pytest.mark.parametrize("word, toast", [
    ("Na Zdorovie!", "na zdorovie"), ("Na Zdoróvie", "na zdorovie"), ("na-zdorovie", "na zdorovie"),
    ("nazdorovie", "na zdorovie"), ("Tchin-Tchin", "tchin tchin"), ("Tchin- Tchin", "tchin tchin"),
    ("Chin-chin!", "tchin tchin"), ("tchintchin", "tchin tchin"), ("KANPAI", "kanpai"),
    ("Kanpaï", "kanpai"), ("kampai", "kanpai"), ("¡Salúd!", "salud"), ("Prost!", "prost"),
    ("  cheers  ", "cheers"), ("Chin\u2011chin", "tchin tchin"), ("chin\u2013chin", "tchin tchin"),
    ("chin_chin", "tchin tchin"), ("chinchin", "tchin tchin"), ("tchın tchın", "tchin tchin"),
])
def test_capitals_accents_hyphens_and_punctuation_do_not_hide_a_toast(word, toast):
    assert toast_id(word) == toast


@pytest.mark.parametrize("word", ["hello", "Prosit", "tchin", "salad", "", "!!!", "cheers mate"])
def test_other_words_are_no_toast(word):
    assert toast_id(word) is None


def test_every_toast_names_itself():
    assert all(toast_id(shout) == toast for toast, shout in TOASTS.items())
