"""/rules at a table with its own house rules, as the group reads it: the game's summary says
none of the usual rules the table changed, in the group's language."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import fits
from bot.i18n import catalog, t
from bot.place import Place
from bot.render.lobby import choices, describe
from devtools.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from engine.rules import PRESETS
from tests.bot.harness import Harness
from tests.bot.summaries import KNOCKS, OTHERWISE, ROUNDS_LOSE
from tests.bot.test_games_e2e import choose_game, lobby_now, open_lobby, plain


async def house_rules(
    harness: Harness, lang: str, game: str, name: str, value: Any, *, players: int = 4
) -> str:
    """/rules at a table of ``game`` for ``players`` whose opener, speaking ``lang``, set
    ``name`` to ``value`` by tapping its button in the ⚙️ Rules editor."""
    masha, group, _ = await set_in_editor(harness, lang, game, name, value, players=players)
    await harness.tg.send_text(masha, group, "/rules")
    head = plain(t(lang, "rules.head_table", game=catalog(lang)[f"game.{game}"]))
    told = await harness.tg.wait_for_message(group, head)
    return told.text or ""


async def set_in_editor(
    harness: Harness, lang: str, game: str, name: str, value: Any, *, players: int = 4
) -> tuple[FakeUser, FakeChat, FakeMessage]:
    """A lobby of ``game`` for ``players`` whose opener, speaking ``lang``, set ``name`` to
    ``value`` by tapping its button in the ⚙️ Rules editor: the opener, the group and the
    lobby, still editing. A game played only by two pairs gets the table set for pairs first."""
    tg = harness.tg
    masha = tg.user(1301, "Masha", language_code=lang)
    group = tg.group(-1301, "Yard")
    lobby = await open_lobby(harness, [masha], group)
    if not fits(game, 4, False):
        alone, pairs = (plain(describe(lang, "pairs", v)) for v in (False, True))
        await tg.press_button(masha, lobby, plain(t(lang, "lobby.settings")))
        await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(alone))
        await tg.press_button(masha, lobby, alone)
        await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(pairs))
        await tg.press_button(masha, lobby, plain(t(lang, "lobby.back")))
        await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(plain(t(lang, "lobby.start"))))
    if game != "kozel":
        await choose_game(harness, masha, lobby, catalog(lang)[f"game.{game}"])
    await tg.press_button(masha, lobby, plain(t(lang, "lobby.settings")))

    async def shown(label: str) -> None:
        await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(label))

    count = 4
    while count != players:
        await shown(plain(describe(lang, "players", count)))
        await tg.press_button(masha, lobby, plain(describe(lang, "players", count)))
        count = count + 1 if count < 4 else 2  # the editor goes 2, 3, 4 and round again
    await shown(plain(describe(lang, "players", players)))
    values = choices(name, game)
    labels = [plain(describe(lang, name, v, game)) for v in values]
    now = values.index(PRESETS[game]().option(name))
    await shown(labels[now])
    while values[now] != value:
        await tg.press_button(masha, lobby, labels[now])
        now = (now + 1) % len(values)
        await shown(labels[now])
    return masha, group, lobby


@pytest.mark.parametrize(
    ("lang", "fifth", "whole"),
    [
        ("en", "a fifth of it (15 → 3)", "After your move add up the open ends: a multiple of 5"),
        ("ru", "пятую часть (15 → 3)", "После хода сложи открытые концы: если сумма кратна 5"),
        ("uk", "п’яту частину (15 → 3)", "Після ходу додай відкриті кінці: якщо сума кратна 5"),
    ],
)
async def test_telephone_with_full_points_reads_no_fifth(
    tg: FakeTelegram, harness: Harness, lang: str, fifth: str, whole: str
) -> None:
    """A Telephone table scoring multiples of 5 in full: /rules said "a multiple of 5 scores you
    a fifth of it (15 → 3)" above the table's "A multiple of 5 on the ends scores the whole sum".
    Its summary now adds up the ends as the table scores them."""
    said = await house_rules(harness, lang, "telephone", "play_points", "full")
    assert plain(describe(lang, "play_points", "full", "telephone")) in said
    assert fifth not in said
    assert whole in said


#: How each language's All Threes summary says the first double is the spinner.
SPINNER = {
    "en": "The first double is the spinner",
    "ru": "Первый дубль — крест",
    "uk": "Перший дубль — хрест",
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_all_threes_without_a_spinner_reads_no_spinner(
    tg: FakeTelegram, harness: Harness, lang: str
) -> None:
    """All Threes at a table without a spinner: /rules said "the first double is the spinner"
    above "No spinner: a plain line with two ends"."""
    said = await house_rules(harness, lang, "all_threes", "spinner", "none")
    assert plain(describe(lang, "spinner", "none", "all_threes")) in said
    assert SPINNER[lang] not in said


#: How each language's Kozel summary says rounds under 13 are remembered, and thrown away.
REMEMBERED = {
    "en": ("smaller amounts are remembered", "smaller amounts before then are thrown away"),
    "ru": ("меньшие суммы запоминаются", "меньшие суммы до этого сгорают"),
    "uk": ("менші суми запам’ятовуються", "менші суми до того згорають"),
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_kozel_that_throws_small_rounds_away_reads_no_memory(
    tg: FakeTelegram, harness: Harness, lang: str
) -> None:
    """Kozel with ``memory = discard``: /rules said "smaller amounts are remembered until then"
    above the table's "Under 13 points: thrown away"."""
    said = await house_rules(harness, lang, "kozel", "memory", "discard")
    remembered, thrown = REMEMBERED[lang]
    assert remembered not in said
    assert thrown in said


@pytest.mark.parametrize("lang", ["en", "uk"])
async def test_donkey_to_301_reads_no_101(tg: FakeTelegram, harness: Harness, lang: str) -> None:
    """Donkey played to 301: /rules said "Kozel's deal and scoring to 101" above "Donkey at 301
    points"."""
    said = await house_rules(harness, lang, "donkey", "goat_limit", 301)
    assert plain(describe(lang, "goat_limit", 301, "donkey")) in said
    assert "101" not in said


#: How each language's General's Goat says a General is hung, and that none is at the table.
GENERAL = {
    "en": ("hangs a General", "no General is hung at this table"),
    "ru": ("вешает Генерала", "Генерала за этим столом не повесить"),
    "uk": ("вішає Генерала", "Генерала за цим столом не повісити"),
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_generals_goat_at_one_tile_a_move_reads_that_no_general_is_hung(
    tg: FakeTelegram, harness: Harness, lang: str
) -> None:
    """General's Goat at one tile a move, a General still 0-0 and 6-6 together: the lobby's
    line, its ⚙️ Rules button and /rules told how to hang one above "One tile a move", though
    the two doubles never go down at once. Each now says no General is hung there, and /rules
    that the rounds lose the match, with no "otherwise" after a General there is none of."""
    masha, group, lobby = await set_in_editor(harness, lang, "generals_goat", "multi_double", 0)
    hangs, none = GENERAL[lang]
    together = plain(describe(lang, "general_title", "both_at_once", "generals_goat"))
    editing = lobby_now(tg, lobby)
    assert hangs not in (editing.text or "") and together not in (editing.text or "")
    assert not editing.find_button(together)
    never = plain(describe(lang, "general_title", "never", "generals_goat"))
    assert editing.find_button(never)
    await tg.send_text(masha, group, "/rules")
    head = plain(t(lang, "rules.head_table", game=catalog(lang)["game.generals_goat"]))
    said = (await tg.wait_for_message(group, head)).text or ""
    assert plain(describe(lang, "multi_double", 0, "generals_goat")) in said
    assert together not in said and never in said
    assert hangs not in said
    assert none in said
    rounds, otherwise = ROUNDS_LOSE[lang], OTHERWISE[lang]
    assert rounds in said and otherwise not in said


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_generals_goat_editor_offers_one_tile_or_two_doubles_a_move(
    tg: FakeTelegram, harness: Harness, lang: str
) -> None:
    """General's Goat is played on a line, two open ends: its ⚙️ Rules editor went from two
    doubles a move on to "up to 3" and "up to 4", which play as two there. A tap now goes from
    two doubles to one tile a move, and the next back to two."""
    masha, _, lobby = await set_in_editor(harness, lang, "generals_goat", "multi_double", 2)
    one, two, three = (plain(describe(lang, "multi_double", v, "generals_goat")) for v in (0, 2, 3))
    await tg.press_button(masha, lobby, two)
    await tg.wait_for(lambda: not lobby_now(tg, lobby).find_button(two))
    assert lobby_now(tg, lobby).find_button(one) and not lobby_now(tg, lobby).find_button(three)
    await tg.press_button(masha, lobby, one)
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(two))
    table = await harness.kozel.service.store.active_table(Place(-1301))
    assert table is not None and table.rules.multi_double == 2


#: How each language's Kozel summary says a player with no tile draws one a turn.
DRAWS_ONE = {
    "en": "No tile — draw one from the bazaar, or knock.",
    "ru": "Нечем ходить — бери с базара один камень или стучи.",
    "uk": "Нема чим ходити — бери з базару один камінь або стукай.",
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_kozel_drawing_one_tile_a_turn_reads_how_it_draws(
    tg: FakeTelegram, harness: Harness, lang: str
) -> None:
    """Kozel drawing one tile a turn: /rules said nothing of drawing above the table's "Bazaar:
    one tile per turn", the usual "draw from the bazaar, or knock" being drawing until one fits.
    Three play: four, seven tiles each, leave no bazaar to draw from."""
    said = await house_rules(harness, lang, "kozel", "draw_mode", "one_per_turn", players=3)
    assert plain(describe(lang, "draw_mode", "one_per_turn", "kozel")) in said
    assert DRAWS_ONE[lang] in said


#: How each language's Kozel summary says a player with no tile draws until one fits.
DRAWS = {
    "en": "No tile — draw from the bazaar, or knock.",
    "ru": "Нечем ходить — бери с базара или стучи.",
    "uk": "Нема чим ходити — бери з базару або стукай.",
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_kozel_for_four_reads_that_a_player_with_no_tile_knocks(
    tg: FakeTelegram, harness: Harness, lang: str
) -> None:
    """A new Kozel table is for four, seven tiles each: all 28 are dealt, yet /rules told them
    "No tile — draw from the bazaar, or knock." above "Bazaar: draw until a tile fits", and the
    ⚙️ Rules editor offered how to draw and the bazaar's reserve. /rules now says a player with
    no tile knocks, there being no bazaar, and neither names a drawing; set for three, the
    table draws again and the editor offers both."""
    masha = tg.user(1301, "Masha", language_code=lang)
    group = tg.group(-1301, "Yard")
    lobby = await open_lobby(harness, [masha], group)
    head = plain(t(lang, "rules.head_table", game=catalog(lang)["game.kozel"]))
    await tg.send_text(masha, group, "/rules")
    said = (await tg.wait_for_message(group, head)).text or ""
    drawing = [plain(describe(lang, "draw_mode", v)) for v in choices("draw_mode")]
    reserve = [plain(describe(lang, "bazaar_reserve", v)) for v in choices("bazaar_reserve")]
    assert KNOCKS[lang] in said and DRAWS[lang] not in said
    assert not any(words in said for words in (*drawing, *reserve))
    await tg.press_button(masha, lobby, plain(t(lang, "lobby.settings")))
    four = plain(describe(lang, "players", 4))
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(four))
    editing = lobby_now(tg, lobby)
    assert not any(editing.find_button(words) for words in (*drawing, *reserve))
    await tg.press_button(masha, lobby, four)  # 4 → 2
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(drawing[0]))
    assert lobby_now(tg, lobby).find_button(reserve[0])
    await tg.send_text(masha, group, "/rules")
    said = (
        await tg.wait_for_message(group, lambda m: head in (m.text or "") and m.text != said)
    ).text or ""
    assert DRAWS[lang] in said and KNOCKS[lang] not in said and drawing[0] in said


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_sport_domino_editor_offers_no_drawing(
    tg: FakeTelegram, harness: Harness, lang: str
) -> None:
    """Sport domino's four players hold all 28 tiles, yet its ⚙️ Rules editor offered
    "Bazaar: draw until a tile fits" and the drawings after it, which changed nothing. It now
    offers none, and /rules names none: it says a player with no tile knocks."""
    masha, group, lobby = await set_in_editor(harness, lang, "sport", "sport_deals", 8)
    drawing = [plain(describe(lang, "draw_mode", v, "sport")) for v in choices("draw_mode")]
    editing = lobby_now(tg, lobby)
    assert not any(editing.find_button(words) for words in drawing)
    assert not any(words in (editing.text or "") for words in drawing)
    await tg.send_text(masha, group, "/rules")
    head = plain(t(lang, "rules.head_table", game=catalog(lang)["game.sport"]))
    said = (await tg.wait_for_message(group, head)).text or ""
    assert KNOCKS[lang] in said
    assert not any(words in said for words in drawing)


#: How each language's Sea Goat summary says two doubles may go down at once.
TWO_DOUBLES = {
    "en": "Two doubles may go down at once.",
    "ru": "Можно класть сразу два дубля.",
    "uk": "Можна класти одразу два дублі.",
}


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_sea_goat_saved_with_four_doubles_a_move_reads_two(
    tg: FakeTelegram, harness: Harness, lang: str
) -> None:
    """A Sea Goat table saved with up to 4 doubles a move, before its editor offered 0 or 2,
    plays as two on its line of two ends: /rules said nothing of doubles above "Up to 4 doubles
    in one move, one per end". It now reads two doubles at once, as it plays."""
    masha, group, _ = await set_in_editor(harness, lang, "sea_goat", "multi_double", 2)
    service = harness.kozel.service
    table = await service.store.active_table(Place(-1301))
    assert table is not None
    async with service.store.lock(table.chat_id):
        await service.lobby.change_setting(table, "multi_double", 4)  # as saved before
    await tg.send_text(masha, group, "/rules")
    head = plain(t(lang, "rules.head_table", game=catalog(lang)["game.sea_goat"]))
    said = (await tg.wait_for_message(group, head)).text or ""
    assert TWO_DOUBLES[lang] in said
    assert plain(describe(lang, "multi_double", 2, "sea_goat")) in said
    assert plain(describe(lang, "multi_double", 4, "sea_goat")) not in said


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
async def test_a_tables_rules_say_whether_it_plays_in_pairs(
    tg: FakeTelegram, harness: Harness, lang: str
) -> None:
    """/rules at a table set for two pairs said nothing of the pairs: the lobby's first line
    ("• Две пары: партнёры сидят напротив") was missing, and its "Рыба: все очки пишет тот, у
    кого на руках больше всех" read as one player's. It now says the table's mode first, as
    the lobby does; /rules with no table open, for any table of the game, names none."""
    masha = tg.user(1301, "Masha", language_code=lang)
    group = tg.group(-1301, "Yard")
    head = plain(t(lang, "rules.head_table", game=catalog(lang)["game.kozel"]))
    alone_line, pairs_line = (f"• {plain(t(lang, f'lobby.mode_{m}'))}" for m in MODES)
    await tg.send_text(masha, group, "/rules")
    usual = plain(t(lang, "rules.head_default", game=catalog(lang)["game.kozel"]))
    said = (await tg.wait_for_message(group, usual)).text or ""
    assert alone_line not in said and pairs_line not in said
    lobby = await open_lobby(harness, [masha], group)
    await tg.send_text(masha, group, "/rules")
    said = (await tg.wait_for_message(group, head)).text or ""
    assert alone_line in said and pairs_line not in said
    alone, pairs = (plain(describe(lang, "pairs", v)) for v in (False, True))
    await tg.press_button(masha, lobby, plain(t(lang, "lobby.settings")))
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(alone))
    await tg.press_button(masha, lobby, alone)
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(pairs))
    await tg.send_text(masha, group, "/rules")
    said = (
        await tg.wait_for_message(group, lambda m: head in (m.text or "") and m.text != said)
    ).text or ""
    assert pairs_line in said and alone_line not in said
    lines = said.splitlines()
    turn_time = f"• {plain(describe(lang, 'turn_seconds', 600))}"
    assert lines.index(pairs_line) + 1 == lines.index(turn_time)


MODES = ("individual", "pairs")
