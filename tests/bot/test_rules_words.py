"""What ``/rules`` and the ⚙️ Rules editor say of an option is what the engine plays (RULES.md):
the words of a choice are checked against the engine's own answer for it."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES
from bot.render.lobby import choices, describe
from engine.leads import traditional_lead
from engine.rules import traditional
from engine.tiles import Tile

#: How each language names the double that leads under ``trad_lead = highest_double``, and the
#: one a leader who is not the highest would be.
HIGHEST_DOUBLE = {"en": "highest double", "ru": "старший дубль", "uk": "найстарший дубль"}
LOWEST_DOUBLE = {"en": "lowest double", "ru": "младший дубль", "uk": "найменший дубль"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_zero_first_says_the_highest_double_leads_when_nobody_holds_0_0(lang: str) -> None:
    """§3.1 ``zero_first``: "If nobody holds 0-0, fall back to highest_double", as it plays."""
    rules = traditional().with_options(trad_lead="zero_first")
    hands = [[Tile(2, 2), Tile(1, 3)], [Tile(4, 4), Tile(1, 2)]]
    assert traditional_lead(hands, rules, 0) == (1, [Tile(4, 4)])
    words = describe(lang, "trad_lead", "zero_first", "traditional")
    assert HIGHEST_DOUBLE[lang] in words
    assert LOWEST_DOUBLE[lang] not in words


def test_the_editor_offers_every_traditional_target_the_spec_names() -> None:
    """§3.1 Target: "DEFAULT 100. Other values given: 150 …; 200 or 500 …; 300"."""
    assert set(choices("target", "traditional")) >= {100, 150, 200, 300, 500}
