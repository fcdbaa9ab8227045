"""Game names: shown in the group's language, and recognised however a player types them."""

from __future__ import annotations

import pytest

from bot.render.game_names import game_called, game_name

GAMES = ("kozel", "telephone", "telephone_ua", "muggins", "all_threes")


@pytest.mark.parametrize(
    ("words", "game"),
    [
        ("muggins", "muggins"),
        ("Пятерочка", "muggins"),  # without the ё
        ("п'ятірочка", "muggins"),  # the apostrophe as a keyboard types it, ' or ʼ or ’
        ("пʼятірочка", "muggins"),
        ("П’ятірочка", "muggins"),
        ("ПЯТІРОЧКА", "muggins"),  # the apostrophe left out
        ("all threes", "all_threes"),
        ("Все тройки", "all_threes"),
        ("telephone_ua", "telephone_ua"),
        ("Телефон (украинский)", "telephone_ua"),
        ("телефон", "telephone"),
        ("козёл", "kozel"),
        ("chess", None),
        ("", None),
        ("()", None),
    ],
)
def test_a_game_is_found_by_any_of_its_names(words: str, game: str | None) -> None:
    assert game_called(words, GAMES) == game


def test_only_the_games_offered_are_found() -> None:
    assert game_called("muggins", ("kozel",)) is None


def test_names_in_each_language_and_unknown_games_as_stored() -> None:
    assert [game_name(lang, "kozel") for lang in ("en", "ru", "uk")] == ["Kozel", "Козёл", "Козел"]
    assert game_name("ru", "english_fives") == "Английская пятёрка"
    assert game_name("en", "<dice>") == "&lt;dice&gt;"  # a game no catalog names yet
