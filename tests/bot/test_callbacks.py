"""Button data: each verb's stamp says one thing, and survives the trip through Telegram."""

from __future__ import annotations

from bot.callbacks import MAX_BYTES, Callback, decode, verb_is


def test_each_stamp_comes_back_in_its_own_field() -> None:
    buttons = [
        Callback("play", 12, events=345, args=("3-4", "left")),
        Callback("back", 12, events=345),
        Callback("start", 12, lobby=987654321),
        Callback("lobby", 12, lobby=987654321),
        Callback("opt", 12, lobby=5, args=("goat_limit",)),
        Callback("top", page=3),
        Callback("lang", args=("uk",)),
        Callback("here", 12),
        Callback("cancel_answer", 12, asker=7_123_456_789, args=("y",)),
        Callback("cancel_answer", 12, args=("n",)),  # an admin who asked in the group's name
    ]
    for button in buttons:
        assert decode(button.encode()) == button


def test_a_stamp_the_verb_does_not_carry_is_not_read() -> None:
    assert decode("t:0:7") == Callback("top", page=7)
    assert decode("h:1:99") == Callback("here", 1)
    assert decode("j:1:5") == Callback("join", 1, lobby=5)


def test_the_longest_button_fits_and_a_longer_one_is_refused() -> None:
    longest = Callback("play", 2**31, events=10**6, args=("6-6", "right")).encode()
    assert len(longest.encode()) <= MAX_BYTES
    assert decode("p:1:1:" + "6-6" * 30) is None


def test_a_pattern_matches_its_verbs_only() -> None:
    hand = verb_is("play")
    assert hand("p:1:2:3-4")
    assert not hand("x:1:2")
    assert not hand(None)


def test_an_answer_to_cancels_question_is_yes_or_keep_playing_only() -> None:
    # "q" as the buttons in the chats carry it, whatever the verb is called in the code
    assert decode("q:1:42:y") == Callback("cancel_answer", 1, asker=42, args=("y",))
    for forged in ("q:1:42", "q:1:42:maybe", "q:1:42:y:y", "q:1:-42:y"):
        assert decode(forged) is None, forged
