"""The scoring games through Telegram, as a group would play them: choosing one in the lobby,
/rules, the tables a game does not fit, points on the board, and a tile with several ends."""

from __future__ import annotations

import html
import random
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.callbacks import CROSSWISE, LENGTHWISE, Callback, lay_args
from bot.i18n import catalog, t
from bot.place import Place
from bot.render.layout import ARROWS, ends_text
from bot.sender import TOAST
from bot.table import Table
from devtools.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from engine import Action, Lay, Match, Placement, Play, Tile, replay
from engine.events import MatchEnded, RoundEnded
from engine.leads import lot
from tests.bot.harness import Harness, playable, stored_events, tap, texts_seen
from tests.bot.summaries import usual_about, usual_summary

#: Where a tile went, as a pop-up says it in English.
WHERE = {
    "left": "on the left",
    "right": "on the right",
    "up": "on the top arm",
    "down": "on the bottom arm",
}


def plain(text: str) -> str:
    """A catalog text as a client shows it: tags gone, entities read."""
    for tag in ("<b>", "</b>", "<i>", "</i>"):
        text = text.replace(tag, "")
    return html.unescape(text)


def points_said(played: dict[str, Any]) -> str:
    """What a tap's pop-up adds for the points its move (a stored ``played``) scored."""
    return f" · +{played['scored']}" if played.get("scored") else ""


def data_in(button: dict[str, Any]) -> str:
    return str(button["callback_data"])


def data_of(message: FakeMessage, label: str | Callable[[dict[str, Any]], bool]) -> str:
    """The callback data of the button ``label`` on ``message``."""
    button = message.find_button(label)
    assert button is not None, (label, message.button_texts)
    return data_in(button)


def lobby_now(tg: FakeTelegram, lobby: FakeMessage) -> FakeMessage:
    return tg.message(lobby.chat, lobby.message_id)


async def open_lobby(harness: Harness, users: list[FakeUser], group: FakeChat) -> FakeMessage:
    tg = harness.tg
    for user in users:
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, lambda m: m.from_bot)
    await tg.send_text(users[0], group, "/new")
    lobby = await tg.wait_for_message(group, lambda m: bool(m.buttons))
    await tg.wait_idle()
    return lobby


async def choose_game(
    harness: Harness, user: FakeUser, lobby: FakeMessage, name: str, lang: str = "en"
) -> str | None:
    """Open the chooser from the lobby and tap the game ``name`` (as labelled); the answer."""
    tg = harness.tg
    await tg.press_button(user, lobby, lambda b: str(b.get("text")).startswith("🎲 "))
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(name))
    answer = await tap(tg, user, lobby, data_of(lobby_now(tg, lobby), name))
    return answer.text


async def set_players(harness: Harness, user: FakeUser, lobby: FakeMessage, count: int) -> None:
    """In the ⚙️ Rules editor, tap Players until the table is set for ``count``."""
    tg = harness.tg
    await tg.press_button(user, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(lambda b: "Players:" in str(b)))
    while not lobby_now(tg, lobby).find_button(f"Players: {count}"):
        await tg.press_button(user, lobby, lambda b: "Players:" in str(b.get("text")))
        await tg.wait_idle()
    await tg.press_button(user, lobby, "« Back")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Join"))


async def lobby_for_two(
    harness: Harness, users: list[FakeUser], group: FakeChat, game: str
) -> FakeMessage:
    """A lobby opened by the first of ``users``, set for two players of ``game`` (as the
    chooser names it)."""
    lobby = await open_lobby(harness, users, group)
    await set_players(harness, users[0], lobby, 2)
    assert await choose_game(harness, users[0], lobby, game) == f"Game: {game}"
    return lobby


async def dealt_for_two(
    harness: Harness, users: list[FakeUser], group: FakeChat, game: str = "Muggins"
) -> None:
    """A table of ``game`` (as the chooser names it) for the two ``users``, dealt."""
    tg = harness.tg
    lobby = await lobby_for_two(harness, users, group, game)
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Join"))
    await tg.press_button(users[1], lobby, "✋ Join")
    await tg.wait_for(lambda: "Players 2/2" in (lobby_now(tg, lobby).text or ""))
    await tg.press_button(users[0], lobby, "▶️ Start")
    await tg.wait_for_message(group, "Order of play")


async def table_in(harness: Harness, group: FakeChat) -> Table:
    """The table the bot keeps for the group (what it knows of the match)."""
    table = await harness.kozel.service.store.active_table(Place(group.id))
    assert table is not None and table.match is not None
    return table


async def play_until_offered(
    harness: Harness,
    users: list[FakeUser],
    group: FakeChat,
    wanted: Callable[[Lay], bool],
    what: str,
) -> tuple[FakeUser, FakeMessage, list[Placement]]:
    """Play until the player to move may make a one-tile ``Lay`` that ``wanted`` accepts; returns
    him, his hand and those placements."""
    version = 0
    for _ in range(300):
        user, hand = await harness.next_turn(users, version)
        version = harness.version_of(hand)
        match = (await table_in(harness, group)).match
        assert match is not None and match.current_seat is not None
        found = [
            action.placements[0]
            for action in match.legal_actions(match.current_seat)
            if isinstance(action, Lay) and len(action.placements) == 1 and wanted(action)
        ]
        if found:
            return user, hand, found
        await harness.play_turn(user, hand)
    raise AssertionError(f"no turn ever offered {what}")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_the_lobby_offers_the_games_and_rules_explains_the_chosen_one(
    tg: FakeTelegram, harness: Harness, lang: str
) -> None:
    opener = tg.user(901, "Masha", language_code=lang)
    group = tg.group(-1901, "Yard")
    lobby = await open_lobby(harness, [opener], group)
    kozel, muggins = catalog(lang)["game.kozel"], catalog(lang)["game.muggins"]
    assert lobby_now(tg, lobby).find_button(plain(t(lang, "lobby.game", game=kozel)))
    await tg.press_button(opener, lobby, plain(t(lang, "lobby.game", game=kozel)))
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(f"✅ {kozel}"))
    chooser = lobby_now(tg, lobby).text or ""
    for game in ("kozel", "telephone", "muggins", "bulgarian_fives", "english_fives"):
        assert plain(usual_about(lang, game)) in chooser
    answer = await tap(tg, opener, lobby, data_of(lobby_now(tg, lobby), muggins))
    assert answer.text == plain(t(lang, "lobby.game_toast", game=muggins))
    shown = lobby_now(tg, lobby).text or ""
    assert shown.startswith(f"🎲 {muggins} — ")
    assert plain(t(lang, "rules.target.other", value=100)) in shown  # the preset's target
    assert plain(t(lang, "rules.goat_limit.other", value=101)) not in shown
    # the editor offers Muggins' own options, not Kozel's
    await tg.press_button(opener, lobby, plain(t(lang, "lobby.settings")))
    await tg.wait_for(
        lambda: lobby_now(tg, lobby).find_button(plain(t(lang, "rules.muggins_bonus.divided")))
    )
    labels = str(lobby_now(tg, lobby).button_texts)
    assert plain(t(lang, "rules.fish_mode.for_one")) not in labels
    await tg.press_button(opener, lobby, plain(t(lang, "rules.target.other", value=100)))
    await tg.wait_for(
        lambda: lobby_now(tg, lobby).find_button(plain(t(lang, "rules.target.other", value=250)))
    )

    await tg.send_text(opener, group, "/rules")
    rules = await tg.wait_for_message(group, plain(t(lang, "rules.head_table", game=muggins)))
    text = rules.text or ""
    assert plain(usual_summary(lang, "muggins")) in text
    assert plain(t(lang, "rules.target.other", value=250)) in text
    # and any game by its name, in any of the bot's languages
    await tg.send_text(opener, group, "/rules Bulgarian Fives")
    bulgarian = catalog(lang)["game.bulgarian_fives"]
    told = await tg.wait_for_message(group, plain(t(lang, "rules.head_default", game=bulgarian)))
    assert plain(usual_summary(lang, "bulgarian_fives")) in (told.text or "")


def bullets(text: str | None) -> list[str]:
    """A message's "• " lines, in order."""
    return [line for line in (text or "").splitlines() if line.startswith("• ")]


async def test_rules_without_a_table_names_the_computers_a_new_table_gets(
    tg: FakeTelegram, harness: Harness
) -> None:
    """/rules with no table open said "Computer players: strong" where the bot was set to seat
    normal ones (as the harness sets it), so the next table's lobby said otherwise; it named no
    turn time, and listed the computer players after the rules, the lobby before them. It now
    reads as the lobby does, but for the lobby's "individual/pairs" line: first the turn time and
    computer players a new table gets, then the rules."""
    masha = tg.user(905, "Masha")
    group = tg.group(-1905, "Yard")
    await tg.send_text(masha, group, "/rules")
    told = await tg.wait_for_message(group, "📜 Kozel: the usual rules")
    assert "• Computer players: normal" in (told.text or "")
    assert "• Turn time: 600 s" in (told.text or "")
    lobby = await open_lobby(harness, [masha], group)
    shown = bullets(lobby_now(tg, lobby).text)
    assert "• Computer players: normal" in shown
    settings = shown[1:]  # the lobby's own first line says who plays: individual, or in pairs
    assert bullets(told.text)[: len(settings)] == settings
    # and with the table open, /rules shows its settings in the same order, after the line of
    # who plays, as the lobby does (test_rules_summary_e2e: a table for two pairs says so)
    await tg.send_text(masha, group, "/rules")
    told = await tg.wait_for_message(group, "📜 Rules of this table: Kozel")
    assert bullets(told.text)[: len(shown)] == shown


async def test_rules_of_a_game_it_does_not_know_says_so_and_names_those_it_does(
    tg: FakeTelegram, harness: Harness
) -> None:
    """/rules chess showed Kozel's usual rules as if asked for them, where /top chess says it
    does not know the game: now /rules says so too, in the group's language, in a DM in the
    person's."""
    oksana, alex = tg.user(905, "Оксана", language_code="uk"), tg.user(906, "Alex")
    group = tg.group(-1905, "Двір")
    await open_lobby(harness, [oksana], group)  # the group speaks Ukrainian from now on
    await tg.send_text(alex, group, "/rules шахи")
    told = await tg.wait_for_message(group, lambda m: m.from_bot and "шахи" in (m.text or ""))
    games = "Козел, Телефон, Телефон (український), П’ятірочка"
    asked = "Не знаю гри «шахи». Можна спитати про одну з цих: "
    assert (told.text or "").startswith(asked + games)
    assert "Традиційне (до 300)" in (told.text or "")  # the house preset /rules also explains
    await tg.send_text(alex, tg.private(alex), "/rules chess")
    told = await tg.wait_for_message(alex, lambda m: m.from_bot and "chess" in (m.text or ""))
    asked = "I do not know the game “chess”. Ask for one of these: "
    assert (told.text or "").startswith(asked + "Kozel, Telephone")


async def test_a_game_the_table_does_not_fit_is_refused_politely(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha = tg.user(911, "Masha")
    group = tg.group(-1911, "Yard")
    lobby = await open_lobby(harness, [masha], group)
    refusal = await choose_game(harness, masha, lobby, "Bulgarian Fives")
    assert refusal == (
        "Bulgarian Fives is played by 2 players, and this table is set for 4 players, each for "
        "themselves: change the players in ⚙️ Rules first."
    )
    # four it is, but each for themselves: said so, or a pairs game's refusal named no change
    pairs_only = await tap(tg, masha, lobby, data_of(lobby_now(tg, lobby), "General's Goat"))
    assert pairs_only.text == (
        "General's Goat is played by two pairs only, and this table is set for 4 players, each "
        "for themselves: change the players in ⚙️ Rules first."
    )
    await tg.press_button(masha, lobby, "« Back")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("🎲 Game: Kozel"))

    await set_players(harness, masha, lobby, 2)
    assert await choose_game(harness, masha, lobby, "Bulgarian Fives") == "Game: Bulgarian Fives"
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("🎲 Game: Bulgarian Fives"))
    # the stored table says which game it is, not only its rules (it kept "kozel" once)
    row = await harness.kozel.storage.get_active_table(group.id)
    assert row is not None and row.game == "bulgarian_fives"
    # two it is: the players cannot be changed now
    await tg.press_button(masha, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("Players: 2"))
    answer = await tap(tg, masha, lobby, data_of(lobby_now(tg, lobby), "Players: 2"))
    assert answer.text == "Bulgarian Fives is played by 2 players: the table cannot be set so."
    assert lobby_now(tg, lobby).find_button("Players: 2")


async def test_a_pairs_game_refused_in_russian_asks_for_pairs_not_another_count(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Four each for themselves do not play General's Goat: the count is right, so the advice
    is to change the table's setting, not "the number of players" (as ru and uk said)."""
    masha = tg.user(912, "Маша", language_code="ru")
    group = tg.group(-1912, "Двор")
    lobby = await open_lobby(harness, [masha], group)
    refusal = await choose_game(harness, masha, lobby, "Генерал", "ru")
    assert refusal == (
        "В игру «Генерал» играют только две пары, а стол настроен на 4 игрока, каждый сам за "
        "себя: сначала поменяй это в ⚙️ Правилах."
    )


async def test_muggins_shows_the_points_of_a_scoring_move_on_the_board(
    tg: FakeTelegram, harness: Harness
) -> None:
    users = [tg.user(921, "Masha"), tg.user(922, "Zoë & <Co>")]
    group = tg.group(-1921, "Yard")
    await dealt_for_two(harness, users, group)

    def boards() -> list[str]:
        return [text for text in texts_seen(tg, group) if text.startswith("🎲 Muggins · round")]

    def scored() -> bool:
        return any(" · +" in board for board in boards())

    await harness.play_until(users, scored, watching=True)
    events = await stored_events(harness.database, 1)
    board = next(board for board in boards() if " · +" in board)

    def line_of(move: dict[str, Any]) -> str:
        a, b = move["tile"].split("-")
        return f"{users[move['seat']].first_name} played [{a}|{b}] · +{move['scored']}"

    # the board is edited in place, so it may skip a move made while an edit was going out: it
    # shows the latest scoring moves, each with its points, and the scores after the last of them
    # (the first of two by one player would show his score before the second)
    shown = [e for e in events if e["type"] == "played" and e["scored"] and line_of(e) in board]
    move = shown[-1]
    mover = users[move["seat"]].first_name
    # or, once the move went out, the round's last board: the scores its end added up
    ended = [e for e in events if e["type"] == "round_ended" and e["round"] == move["round"]]
    scores = {move["scores"][move["seat"]], *(e["scores"][move["seat"]] for e in ended)}
    assert any(f"{mover}: {score} of 100" in board for score in scores)
    assert board.startswith(f"🎲 Muggins · round {move['round']} · to 100")


async def turns(
    harness: Harness, users: list[FakeUser], group: FakeChat
) -> AsyncIterator[tuple[FakeUser, FakeMessage, Match]]:
    """Each turn of one of ``users`` (up to 300), with his hand and the match as it stands; a
    turn the caller does not stop at is played at random."""
    version = 0
    for _ in range(300):
        user, hand = await harness.next_turn(users, version)
        version = harness.version_of(hand)
        match = (await table_in(harness, group)).match
        assert match is not None and match.round is not None
        yield user, hand, match
        await harness.play_turn(user, hand)


async def play_until_several_ends(
    harness: Harness, users: list[FakeUser], group: FakeChat
) -> tuple[FakeUser, FakeMessage, list[str]]:
    """Play until the player to move holds tiles that fit several ends: returns him, his hand
    and those tiles' buttons' data."""
    async for user, hand, match in turns(harness, users, group):
        assert match.round is not None
        layout = match.round.layout
        several = [
            data_in(button)
            for button in hand.buttons
            if str(button.get("text")).startswith("✅")
            and not layout.is_empty
            and len(layout.fits(Tile.parse(data_in(button).split(":")[3]))) > 1
        ]
        if several:
            return user, hand, several
    raise AssertionError("no tile ever fitted several ends")


async def test_a_tile_that_fits_several_ends_asks_which_and_goes_there(
    tg: FakeTelegram, harness: Harness
) -> None:
    users = [tg.user(931, "Masha"), tg.user(932, "Alex")]
    group = tg.group(-1931, "Yard")
    await dealt_for_two(harness, users, group)
    user, hand, several = await play_until_several_ends(harness, users, group)
    tile = several[0].split(":")[3]
    layout = (await table_in(harness, group)).match.round.layout  # type: ignore[union-attr]
    ends = layout.fits(Tile.parse(tile))
    await tap(tg, user, hand, several[0])
    choice = tg.message(user.id, hand.message_id)
    a, b = tile.split("-")
    assert f"[{a}|{b}] fits" in (choice.text or "")
    # under it the open ends and their sum, which the move scores by, as the hand showed them
    assert (choice.text or "").splitlines()[1] == plain(ends_text("en", layout) or "")
    offered = [data for data in map(data_in, choice.buttons) if data.count(":") == 4]
    assert [data.split(":")[4] for data in offered] == list(ends)
    chosen = offered[-1]
    answer = await tap(tg, user, choice, chosen)
    events = await stored_events(harness.database, 1)
    played = [e for e in events if e["type"] == "played"][-1]
    assert answer.text == f"You played [{a}|{b}]{points_said(played)}"
    assert (played["tile"], played["end"]) == (tile, chosen.split(":")[4])


async def test_the_pop_up_after_a_tap_says_what_the_move_scored(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The pop-up said "You played [5|5]" while the player's record right below it said "You
    played [5|5] · +10": the points a tap scored were left out where it was answered."""
    users = [tg.user(936, "Masha"), tg.user(937, "Alex")]
    group = tg.group(-1936, "Yard")
    await dealt_for_two(harness, users, group)
    version, plain_seen = 0, False
    while True:
        user, hand = await harness.next_turn(users, version)
        version = harness.version_of(hand)
        answer = await tap(tg, user, hand, playable(hand))
        if choices := harness.choices_of(tg.message(user.id, hand.message_id)):
            answer = await tap(tg, user, hand, data_in(choices[0]))
        played = [e for e in await stored_events(harness.database, 1) if e["type"] == "played"]
        a, b = played[-1]["tile"].split("-")
        if not played[-1]["scored"]:
            assert answer.text == f"You played [{a}|{b}]"
            plain_seen = True
        elif plain_seen:
            assert answer.text == f"You played [{a}|{b}] · +{played[-1]['scored']}"
            assert not answer.show_alert  # short enough for a pop-up, not an alert to dismiss
            return


async def asked_which_end(
    harness: Harness, users: list[FakeUser], group: FakeChat
) -> tuple[FakeUser, FakeMessage, tuple[str | None, list[dict[str, Any]]]]:
    """Two players at Muggins play until one taps a tile that fits several ends: him, his hand's
    message, and the question it shows now (its text and buttons)."""
    tg = harness.tg
    await dealt_for_two(harness, users, group)
    user, hand, several = await play_until_several_ends(harness, users, group)
    await tap(tg, user, hand, several[0])
    asked = tg.message(user.id, hand.message_id)
    assert "fits" in (asked.text or "")
    return user, hand, (asked.text, asked.buttons)


async def still_asked_and_answered(
    tg: FakeTelegram,
    user: FakeUser,
    hand: FakeMessage,
    question: tuple[str | None, list[dict[str, Any]]],
) -> None:
    """The hand still shows ``question``, and an end it offers plays the tile."""
    now = tg.message(user.id, hand.message_id)
    assert (now.text, now.buttons) == question
    answer = await tap(tg, user, now, str(question[1][-2]["callback_data"]))
    assert str(answer.text).startswith("You played")


async def test_the_reminder_leaves_the_question_which_end_on_screen(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Before, the turn's reminder redrew the whole hand over the question: whoever was
    choosing an end saw it vanish and had to tap the tile again."""
    group = tg.group(-1935, "Yard")
    user, hand, question = await asked_which_end(
        harness, [tg.user(935, "Masha"), tg.user(936, "Alex")], group
    )
    table = await table_in(harness, group)
    async with harness.kozel.service.store.lock(group.id):
        await harness.kozel.presenter.remind(table, 20.0)
    await tg.wait_for_message(user, "⏰ Your move in Yard!")
    await still_asked_and_answered(tg, user, hand, question)


async def test_a_restart_leaves_the_question_which_end_on_screen(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The bot restarted while a player chose an end: it redrew the whole hand over the
    question, as the reminder once did, so the player had to tap the tile again."""
    group = tg.group(-1937, "Yard")
    user, hand, question = await asked_which_end(
        harness, [tg.user(937, "Masha"), tg.user(938, "Alex")], group
    )
    await harness.stop()
    async with harness.restarted() as restarted:
        await restarted.groups_told()
        await tg.wait_idle()
        await still_asked_and_answered(tg, user, hand, question)


async def test_a_language_chosen_meanwhile_asks_the_question_which_end_in_it(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The question was kept as its words: whoever chose another language in the DM while
    choosing an end read it, and its buttons, in the old one until he moved."""
    group = tg.group(-1938, "Yard")
    user, hand, (_, buttons) = await asked_which_end(
        harness, [tg.user(933, "Masha"), tg.user(934, "Alex")], group
    )
    await tg.send_text(user, tg.private(user), "/language")
    prompt = await tg.wait_for_message(user, "Choose the language I write to you in")
    await tg.press_button(user, prompt, "🇷🇺 Русский")
    await tg.wait_for(lambda: "Куда ставим?" in (tg.message(user.id, hand.message_id).text or ""))
    now = tg.message(user.id, hand.message_id)
    assert list(map(data_in, now.buttons)) == list(map(data_in, buttons))  # the same choices
    assert now.buttons[-1]["text"] == "« Назад"
    answer = await tap(tg, user, now, data_in(buttons[-2]))
    assert str(answer.text).startswith("Сыграно: ")


async def test_a_question_held_by_flood_control_answers_the_tap_at_once(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Telegram held the edits of the player's DM (429): a tile that fits several ends was
    answered only once the question had gone out, for as long as Telegram asked, so the
    button spun, and Telegram refuses an answer that late."""
    users = [tg.user(939, "Masha"), tg.user(940, "Alex")]
    group = tg.group(-1939, "Yard")
    await dealt_for_two(harness, users, group)
    user, hand, several = await play_until_several_ends(harness, users, group)
    tg.inject_flood(method="editMessageText", chat_id=user.id, retry_after=1000, times=1)
    begun = time.monotonic()
    await tap(tg, user, hand, several[0])
    # 1,000 s of the server's clock is 10 s here; the answer waits 3 s at most
    assert time.monotonic() - begun < 6.0
    await tg.wait_for(
        lambda: "fits" in (tg.message(user.id, hand.message_id).text or ""), timeout=20.0
    )


async def short_match(
    harness: Harness, users: list[FakeUser], group: FakeChat, game: str, *, target: tuple[str, int]
) -> dict[str, Any]:
    """A match of ``game`` (as the chooser names it) for the two ``users``, to a ``target`` (an
    option and its value) the buttons do not offer, played to its end: its ``match_ended``."""
    tg = harness.tg
    await started_to(harness, users, group, game, target=target)

    def over() -> bool:
        return any("Send /new for another match" in text for text in texts_seen(tg, group))

    await harness.play_until(users, over, watching=True)
    ended = (await stored_events(harness.database, 1))[-1]
    assert ended["type"] == "match_ended"
    return ended


async def started_to(
    harness: Harness, users: list[FakeUser], group: FakeChat, game: str, *, target: tuple[str, int]
) -> None:
    """A match of ``game`` (as the chooser names it) for the two ``users``, to a ``target`` (an
    option and its value) the buttons do not offer, dealt."""
    tg = harness.tg
    lobby = await open_lobby(harness, users, group)
    await set_players(harness, users[0], lobby, 2)
    assert await choose_game(harness, users[0], lobby, game) == f"Game: {game}"
    k = harness.kozel
    async with k.service.store.lock(group.id):
        table = await k.service.store.active_table(Place(group.id))
        assert table is not None
        await k.service.lobby.change_setting(table, *target)
    await tg.press_button(users[1], lobby, "✋ Join")
    await tg.wait_for(lambda: "Players 2/2" in (lobby_now(tg, lobby).text or ""))
    await tg.press_button(users[0], lobby, "▶️ Start")
    await tg.wait_for_message(group, "Order of play")


async def winner_told_and_ranked(
    harness: Harness, users: list[FakeUser], group: FakeChat, ended: dict[str, Any], game: str
) -> str:
    """The winner is named in the group and heads the game's standings; the result's text."""
    tg = harness.tg
    (winner,) = ended["winners"]
    result = next(text for text in texts_seen(tg, group) if "for another match" in text)
    assert result.startswith(f"🏆 {users[winner].first_name} wins!")
    await harness.groups_told()
    await tg.send_text(users[0], group, "/top")
    top = await tg.wait_for_message(group, f"Standings: {game}")
    assert "1. " + users[winner].first_name in (top.text or "")
    return result


async def test_a_match_to_the_target_names_its_winner_and_counts_in_its_game(
    tg: FakeTelegram, harness: Harness
) -> None:
    users = [tg.user(941, "Masha"), tg.user(942, "Alex")]
    group = tg.group(-1941, "Yard")
    ended = await short_match(harness, users, group, "English Fives", target=("target", 15))
    assert ended["ended_by"] == "target"
    result = await winner_told_and_ranked(harness, users, group, ended, "English Fives")
    assert "goat" not in result
    (winner,) = ended["winners"]
    assert f"{users[winner].first_name}: {ended['scores'][winner]}" in result


def counts_less_along(lay: Lay) -> bool:
    """A double laid along the line, where it counts less than across: any but 0-0."""
    return lay.placements[0].lengthwise and lay.placements[0].tile != Tile(0, 0)


def wins_in_play(events: list[dict[str, Any]], seat: int, move: Play | Lay) -> bool:
    """Whether ``seat``'s ``move`` would win the match in the middle of its round."""
    made = replay(events).act(seat, move)
    return isinstance(made[-1], MatchEnded) and not any(isinstance(e, RoundEnded) for e in made)


async def play_until_winning_move(
    harness: Harness, users: list[FakeUser], group: FakeChat
) -> tuple[FakeUser, FakeMessage, Placement]:
    """Play until the player to move may win the match in the middle of the round: him, his hand
    and the placement that wins."""
    async for user, hand, match in turns(harness, users, group):
        events = await stored_events(harness.database, 1)
        seat = match.current_seat
        assert seat is not None and match.round is not None
        for action in match.legal_actions(seat):
            if isinstance(action, Play) and wins_in_play(events, seat, action):
                layout = match.round.layout
                # no end named: wherever it fits, the same (the first end the hand offers)
                fits = () if layout.is_empty else layout.fits(action.tile)
                return user, hand, Placement(action.tile, action.end or next(iter(fits), None))
            if isinstance(action, Lay) and wins_in_play(events, seat, action):
                return user, hand, action.placements[0]
    raise AssertionError("no move ever reached the target")


async def lay_by_taps(
    harness: Harness, user: FakeUser, hand: FakeMessage, placement: Placement
) -> None:
    """Tap the tile of ``placement``, then answer the hand's questions as it says: which end,
    and (English fives' doubles) which way."""
    tg, tile = harness.tg, placement.tile
    way = LENGTHWISE if placement.lengthwise else CROSSWISE
    wanted = (f":{tile}", f":{tile}:{placement.end}", f":{tile}:{placement.end}:{way}")
    await tap(tg, user, hand, next(d for d in map(data_in, hand.buttons) if d.endswith(wanted)))
    while choices := harness.choices_of(question := tg.message(user.id, hand.message_id)):
        await tap(tg, user, question, next(d for d in map(data_in, choices) if d.endswith(wanted)))


async def test_a_move_that_reaches_the_target_ends_the_match_and_says_how(
    tg: FakeTelegram, harness: Harness
) -> None:
    """English fives to 5: the first move that scores wins at once, in the middle of its round
    (RULES.md §3.9). The group got the winner and the final scores, and of that round only the
    board's "+10": the match's end now names the move, what it scored and the score it reached,
    and what each player was left holding; no result of that round is told."""
    users = [tg.user(945, "Masha"), tg.user(946, "Alex")]
    group = tg.group(-1945, "Yard")
    await started_to(harness, users, group, "English Fives", target=("target", 5))
    user, hand, placement = await play_until_winning_move(harness, users, group)
    await lay_by_taps(harness, user, hand, placement)
    result = plain(
        (await tg.wait_for_message(group, "Send /new for another match", timeout=30.0)).text or ""
    )
    await harness.groups_told()

    events = await stored_events(harness.database, 1)
    match = replay(events)
    played, ended = events[-2:]
    assert played["type"] == "played" and ended["type"] == "match_ended"
    assert match.round is not None and match.rounds_played < match.round.number
    names = [u.first_name for u in users]
    mover, (a, b) = names[played["seat"]], played["tile"].split("-")
    score = played["scores"][played["seat"]]
    how = "went out with" if not match.round.hands[played["seat"]] else "played"
    assert result.splitlines()[:5] == [
        f"🏆 {mover} wins!",
        f"🎯 Round {match.round.number} stops here: {mover} {how} [{a}|{b}] for"
        f" +{played['scored']} → {score} of 5. The hands left are not counted.",
        "",
        *(
            f"{name}: {''.join(f'[{x.a}|{x.b}]' for x in held) or '—'}"
            for name, held in zip(names, match.round.hands, strict=True)
        ),
    ]
    # the board showed the move; no round result was told for the round it ended
    seen = texts_seen(tg, group)
    assert any(f"{mover} played [{a}|{b}] · +{played['scored']}" in text for text in seen)
    results = [text for text in seen if "Score:" in text]
    assert len(results) == sum(e["type"] == "round_ended" for e in events)
    # /history lists the match at the score the move reached, its winner marked
    await tg.send_text(users[0], group, "/history")
    history = await tg.wait_for_message(group, "Latest matches")
    assert f"{mover} {score} 🏆" in plain(history.text or "")


async def test_an_english_fives_double_may_be_laid_along_the_line(
    tg: FakeTelegram, harness: Harness
) -> None:
    users = [tg.user(951, "Masha"), tg.user(952, "Alex")]
    group = tg.group(-1951, "Yard")
    await dealt_for_two(harness, users, group, "English Fives")
    user, hand, along = await play_until_offered(
        harness, users, group, counts_less_along, "a double along the line"
    )
    double, end = along[0].tile, along[0].end
    await tap(tg, user, hand, next(d for d in map(data_in, hand.buttons) if f":{double}" in d))
    question = tg.message(user.id, hand.message_id)
    if f"{double}:{end}" not in str(question.buttons):  # it fits several ends: this one first
        await tap(tg, user, question, data_of(question, lambda b: f":{double}:{end}" in str(b)))
        question = tg.message(user.id, hand.message_id)
    v = double.a
    assert question.text == f"How do you lay [{v}|{v}]?"
    # each way with what it would score, as the pop-up says it ("· +10"), where it scores
    match = (await table_in(harness, group)).match
    assert match is not None and match.round is not None
    layout, rules = match.round.layout, match.rules
    assert end is not None
    crosswise = match.game.move(layout, double, end, rules)[1]
    lengthwise = match.game.move(layout, double, end, rules, lengthwise=True)[1]
    assert question.button_texts[:2] == [
        [f"✖️ [{v}|{v}] across: counts {2 * v}" + (f" · +{crosswise}" if crosswise else "")],
        [f"↔️ [{v}|{v}] along: counts {v}" + (f" · +{lengthwise}" if lengthwise else "")],
    ]
    await tap(tg, user, question, data_of(question, lambda b: "along" in str(b["text"])))
    events = await stored_events(harness.database, 1)
    played = [e for e in events if e["type"] == "played"][-1]
    assert (played["tile"], played["end"], played.get("lengthwise")) == (str(double), end, True)
    # and the board marks it so: it counts once at its end, as a double across would not
    await harness.groups_told()
    assert any(f"[{v}|{v}]↔️" in text for text in texts_seen(tg, group))


async def test_an_english_fives_blank_double_goes_down_without_asking_which_way(
    tg: FakeTelegram, harness: Harness
) -> None:
    """0-0 counts 0 across the line as along it: "How do you lay [0|0]?", with "across: counts
    0" and "along: counts 0" to choose from, asked for nothing."""
    users = [tg.user(953, "Masha"), tg.user(954, "Alex")]
    group = tg.group(-1953, "Yard")
    harness.kozel.service.player.rng = random.Random(7)  # deals that soon offer it
    await dealt_for_two(harness, users, group, "English Fives")

    def blank_along(lay: Lay) -> bool:
        return lay.placements[0].lengthwise and lay.placements[0].tile == Tile(0, 0)

    user, hand, along = await play_until_offered(harness, users, group, blank_along, "0-0 along")
    end = along[0].end
    answer = await tap(tg, user, hand, next(d for d in map(data_in, hand.buttons) if ":0-0" in d))
    asked = tg.message(user.id, hand.message_id)
    if "Where does it go?" in (asked.text or ""):  # it fits several ends: this one first
        data = data_of(asked, lambda b: str(b["callback_data"]).endswith(f":0-0:{end}"))
        answer = await tap(tg, user, asked, data)
    played = [e for e in await stored_events(harness.database, 1) if e["type"] == "played"][-1]
    assert answer.text == f"You played [0|0]{points_said(played)}"
    shown = tg.message(user.id, hand.message_id)
    assert not any("How do you lay" in text for text in [*shown.history, shown.text or ""])
    assert (played["tile"], played["end"], played.get("lengthwise")) == ("0-0", end, None)


async def test_a_tile_that_fits_no_open_end_of_the_spinner_is_refused_in_words_that_fit(
    tg: FakeTelegram, harness: Harness
) -> None:
    """With the spinner down, three or four ends are open: a tile that fits none of them "does
    not fit either end" read as if there were two."""
    users = [tg.user(955, "Masha"), tg.user(956, "Alex")]
    group = tg.group(-1955, "Yard")
    await dealt_for_two(harness, users, group, "English Fives")
    async for user, hand, match in turns(harness, users, group):
        assert match.round is not None
        unfit = [b for b in hand.buttons if not str(b["text"]).startswith("✅")]
        if unfit and len(match.round.layout.open_ends()) > 2:
            answer = await tap(tg, user, hand, data_in(unfit[0]))
            assert answer.text == "That tile does not fit any open end."
            return
    raise AssertionError("no turn ever had a tile that fit none of three open ends")


async def telephone_with_doubles_together(
    harness: Harness, users: list[FakeUser], group: FakeChat
) -> None:
    """A two-player Telephone table where up to 4 doubles go down in one move, dealt."""
    tg = harness.tg
    lobby = await lobby_for_two(harness, users, group, "Telephone")
    await tg.press_button(users[0], lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("One tile a move"))
    while not lobby_now(tg, lobby).find_button("Up to 4 doubles in one move, one per end"):
        await tg.press_button(users[0], lobby, lambda b: "move" in str(b.get("text")))
        await tg.wait_idle()
    await tg.press_button(users[0], lobby, "« Back")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Join"))
    await tg.press_button(users[1], lobby, "✋ Join")
    await tg.wait_for(lambda: "Players 2/2" in (lobby_now(tg, lobby).text or ""))
    await tg.press_button(users[0], lobby, "▶️ Start")
    await tg.wait_for(lambda: harness.live_hand(users[0]) or harness.live_hand(users[1]))


async def test_several_doubles_go_down_in_one_tap_where_the_rules_allow(
    tg: FakeTelegram, harness: Harness
) -> None:
    users = [tg.user(961, "Masha"), tg.user(962, "Alex")]
    groups = iter(tg.group(-1961 - i, f"Yard {i}") for i in range(10))
    group = next(groups)
    await telephone_with_doubles_together(harness, users, group)
    version = 0
    for _ in range(2000):
        user, hand = await harness.next_turn(users, version)
        version = harness.version_of(hand)
        together = [b for b in hand.buttons if str(b.get("text")).startswith("⏬ Together: ")]
        if together:
            break
        await harness.play_turn(user, hand)
        await tg.wait_idle()
        table = await harness.kozel.service.store.active_table(Place(group.id))
        if table is None or table.match is None or table.match.is_over:
            # the match was won before two doubles could go down together: another one, in a
            # group of its own, so that its messages are not taken for the last one's
            group = next(groups)
            await telephone_with_doubles_together(harness, users, group)
            version = 0
    else:
        raise AssertionError("no two doubles ever went down together")
    table = await table_in(harness, group)
    match = table.match
    assert match is not None and match.current_seat is not None
    lays = [
        action
        for action in match.legal_actions(match.current_seat)
        if isinstance(action, Lay) and len(action.placements) > 1
    ]
    assert len(together) == min(len(lays), 6)
    mover, button = match.current_seat, together[0]
    answer = await tap(tg, user, hand, data_in(button))
    shown = str(button["text"]).removeprefix("⏬ Together: ")
    events = await stored_events(harness.database, table.id)
    played = [e for e in events if e["type"] == "played"][-1]
    assert len(played["tiles"]) > 1 and played["seat"] == mover
    laid = list(zip(played["tiles"], played["ends_used"], strict=True))
    assert shown == " + ".join(f"[{tile.replace('-', '|')}]{ARROWS[end]}" for tile, end in laid)
    # the pop-up says it in words, "[3|3] on the left and [5|5] on the right", where that fits
    # a toast; else the doubles alone
    said = [f"[{tile.replace('-', '|')}] {WHERE[end]}" for tile, end in laid]
    words = f"You played {', '.join(said[:-1])} and {said[-1]}{points_said(played)}"
    tiles = " ".join(f"[{tile.replace('-', '|')}]" for tile, _ in laid)
    short = f"You played {len(laid)} doubles: {tiles}{points_said(played)}"
    assert answer.text == (words if len(words) <= TOAST else short)


async def test_a_donkey_double_is_closed_only_by_a_second_tap_and_shows_dead(
    tg: FakeTelegram, harness: Harness
) -> None:
    users = [tg.user(971, "Masha"), tg.user(972, "Alex")]
    group = tg.group(-1971, "Yard")
    await dealt_for_two(harness, users, group, "Donkey")
    user, hand, closing = await play_until_offered(
        harness, users, group, lambda lay: lay.placements[0].closed, "a double to close"
    )
    double, end = closing[0].tile, closing[0].end
    assert end is not None
    laid_before = len(await stored_events(harness.database, 1))
    await tap(
        tg, user, hand, next(d for d in map(data_in, hand.buttons) if d.endswith(f":{double}"))
    )
    question = tg.message(user.id, hand.message_id)
    if (
        question.text
        != f"Lay [{double.a}|{double.a}] open, or close it so that nothing more goes there?"
    ):
        # it fits several ends: the end first, then the question
        await tap(tg, user, question, data_of(question, lambda b: f":{double}:{end}" in str(b)))
        question = tg.message(user.id, hand.message_id)
    shown = f"[{double.a}|{double.a}]"
    assert question.text == f"Lay {shown} open, or close it so that nothing more goes there?"
    buttons = [[f"🔓 Lay {shown} open"], [f"🔒 Lay {shown} closed"], ["« Back"]]
    assert question.button_texts == buttons
    assert len(await stored_events(harness.database, 1)) == laid_before  # nothing laid yet
    answer = await tap(tg, user, question, data_of(question, f"🔒 Lay {shown} closed"))
    # in words, not the buttons' "[4|4]🔒➡️"
    assert answer.text == f"You played a closed {shown} {WHERE[end]}"
    played = [e for e in await stored_events(harness.database, 1) if e["type"] == "played"][-1]
    assert (played["tile"], played["end"], played.get("closed")) == (str(double), end, True)
    # the toast is answered before the board is queued, so the group may not be told yet
    await tg.wait_for(
        lambda: any(
            f"{shown}🔒" in text
            for text in texts_seen(tg, group)
            if text.startswith("🎲 Donkey · round")
        ),
        timeout=30.0,
        what="the board showing the closed double",
    )
    # the player's own record of the move says it was closed too
    await tg.wait_for(
        lambda: f"You played a closed {shown}." in str(tg.message(user.id, hand.message_id).text),
        what="the hand's record saying the double was closed",
    )


def tap_data(table: Table, action: Action) -> str:
    """The callback data of the buttons a player taps to make ``action``: a tile, or for a
    double (whose tap asks "open or closed?") and several doubles, the answer to that question."""
    if isinstance(action, Play) and not action.tile.is_double:
        args = (str(action.tile), *([action.end] if action.end else []))
        return Callback("play", table.id, events=table.version, args=args).encode()
    assert isinstance(action, Play | Lay)
    placements = (
        action.placements if isinstance(action, Lay) else (Placement(action.tile, action.end),)
    )
    args = lay_args(placements, settled=True)
    return Callback("lay", table.id, events=table.version, args=args).encode()


async def test_a_donkey_player_with_nothing_that_fits_may_reopen_his_double_or_draw(
    tg: FakeTelegram, harness: Harness
) -> None:
    """RULES.md §3.3 ``donkey_reopen``: whoever closed a double may reopen it at the start of
    his turn, before he draws. With nothing that fits, the bot drew for him at once, so the
    reopen he needed most was never offered."""
    users = [tg.user(975, "Masha"), tg.user(976, "Alex")]
    group = tg.group(-1975, "Yard")
    lobby = await lobby_for_two(harness, users, group, "Donkey")
    await tg.press_button(users[0], lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("A closed double stays closed"))
    await tg.press_button(users[0], lobby, "A closed double stays closed")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(lambda b: "reopen" in str(b)))
    await tg.press_button(users[0], lobby, "« Back")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Join"))
    await tg.press_button(users[1], lobby, "✋ Join")
    await tg.wait_for(lambda: "Players 2/2" in (lobby_now(tg, lobby).text or ""))
    harness.kozel.service.player.rng = random.Random(2)  # a deal where it comes soon
    await tg.press_button(users[0], lobby, "▶️ Start")
    version = 0
    while turn := await harness.next_turn_or_over(users, group, version):
        # both close a double whenever they can, else make the first move offered
        user, hand = turn
        version = harness.version_of(hand)
        table = await table_in(harness, group)
        assert table.match is not None and table.match.current_seat is not None
        moves = [
            a
            for a in table.match.legal_actions(table.match.current_seat)
            if isinstance(a, Play | Lay)
        ]
        if not moves:
            break
        closing = [a for a in moves if isinstance(a, Lay) and any(p.closed for p in a.placements)]
        await tap(tg, user, hand, tap_data(table, (closing or moves)[0]))
    assert turn is not None, "the match ended: nobody was ever offered to reopen a double"
    assert not any(str(b["text"]).startswith("✅") for b in hand.buttons)
    reopen = [b for b in hand.buttons if str(b["text"]).startswith("🔓 Reopen ")]
    assert reopen
    assert "Nothing fits: reopen a double you closed, or " in (hand.text or "")
    draws = "draw from the bazaar" in (hand.text or "")
    passing = "🃏 Draw from the bazaar" if draws else "✊ Knock"
    assert hand.button_texts[-1] == [passing]
    # he keeps his double closed: the bot draws (until a tile fits) or knocks for him
    before = len(await stored_events(harness.database, 1))
    answer = await tap(tg, user, hand, data_of(hand, passing))
    assert answer.text is None
    events = (await stored_events(harness.database, 1))[before:]
    assert events[0]["type"] == ("drew" if draws else "knocked")
    assert events[0]["seat"] == users.index(user)


async def test_the_donkeys_loser_is_called_the_donkey_and_counted_as_one(
    tg: FakeTelegram, harness: Harness
) -> None:
    """RULES.md §3.3: Donkey (Осёл) is Kozel on a cross, and whoever reaches the limit is the
    donkey, as its summary says; the group was told "is the goat!", and /stats and /top count
    the times a player was the donkey, never Kozel's goat."""
    users = [tg.user(991, "Masha"), tg.user(992, "Alex")]
    group = tg.group(-1991, "Yard")
    ended = await short_match(harness, users, group, "Donkey", target=("goat_limit", 20))
    assert ended["ended_by"] == "goat"
    (loser,) = ended["losers"]
    name = users[loser].first_name
    result = next(text for text in texts_seen(tg, group) if "for another match" in text)
    assert result.startswith(f"🫏 {name} is the donkey!")
    assert "goat" not in result
    await harness.groups_told()
    await tg.send_text(users[loser], group, "/stats")
    stats = await tg.wait_for_message(group, f"📈 {name}")
    assert "Donkey: matches: 1 · wins: 0 · times the donkey: 1" in (stats.text or "")
    assert "goat" not in (stats.text or "") and "🐐" not in (stats.text or "")


async def test_a_sea_goat_match_shows_its_holder_and_ends_with_a_winner(
    tg: FakeTelegram, harness: Harness
) -> None:
    users = [tg.user(981, "Masha"), tg.user(982, "Zoë & <Co>")]
    group = tg.group(-1981, "Yard")
    ended = await short_match(harness, users, group, "Sea Goat", target=("sg_target", 30))
    assert ended["ended_by"] in ("target", "na_sto", "instant_win")
    boards = [text for text in texts_seen(tg, group) if text.startswith("🎲 Sea Goat · round")]
    assert all(" · to 30" in board.splitlines()[0] for board in boards)
    assert any("📝 Nobody holds points yet (recording starts at 25)" in board for board in boards)
    await winner_told_and_ranked(harness, users, group, ended, "Sea Goat")


async def test_muggins_says_who_drew_the_lowest_tile_and_leads(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Muggins' first leader is drawn by lot (RULES.md §3.6); the group saw the order of play
    and then the second player lead, and nothing said why."""
    users = [tg.user(971, "Masha"), tg.user(972, "Alex")]
    group = tg.group(-1971, "Yard")
    await dealt_for_two(harness, users, group)
    told = await tg.wait_for_message(group, "Order of play")
    match = (await table_in(harness, group)).match
    assert match is not None and match.round is not None
    leader = users[match.round.leader].first_name
    assert "🎲 Drawn by lot: Masha [" in (told.text or "")
    # where a double drawn won against lighter tiles, the line says doubles rank above them
    drawn = lot(match.seed, match.players)
    against_pips = any(tile.pips < drawn[match.round.leader].pips for tile in drawn)
    doubles = " A double ranks above any tile that is not a double." if against_pips else ""
    assert (told.text or "").endswith(f"The lowest tile leads: {leader} begins.{doubles}")
