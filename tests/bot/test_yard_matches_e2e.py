"""The rest of the yard through Telegram (issue #12): Traditional's house preset chosen in the
lobby, and whole matches of General's Goat and Sport domino played by tapping tiles in DMs, with
what the group sees on the way and what the standings keep."""

from __future__ import annotations

from bot.i18n import t
from devtools.fake_telegram import FakeTelegram
from engine.rules import PRESETS
from tests.bot.harness import Harness, stored_events, tap, texts_seen
from tests.bot.test_games_e2e import (
    choose_game,
    data_of,
    lobby_now,
    open_lobby,
    plain,
    set_players,
)

HT = "Traditional (to 300)"


async def test_the_house_preset_of_traditional_is_chosen_in_the_lobby_and_counts_as_traditional(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, alex = tg.user(1201, "Masha"), tg.user(1202, "Alex")
    group = tg.group(-1201, "Yard")
    lobby = await open_lobby(harness, [masha, alex], group)
    await set_players(harness, masha, lobby, 2)
    assert await choose_game(harness, masha, lobby, HT) == f"Game: {HT}"
    shown = lobby_now(tg, lobby).text or ""
    assert shown.startswith(f"🎲 {HT} — ")
    assert plain(t("en", "games.traditional_ht.about")) in shown
    for line in ("rules.target.other", "rules.66_always_50.true", "rules.00_always_25.true"):
        assert plain(t("en", line, value=300)) in shown, line
    # what is stored is Traditional, with the preset's options
    row = await harness.kozel.storage.get_active_table(group.id)
    assert row is not None and row.game == "traditional"
    assert row.rules == PRESETS["traditional_ht"]().to_dict()
    # the chooser marks the preset, not its game; /rules explains the preset
    await tg.press_button(masha, lobby, f"🎲 Game: {HT}")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(f"✅ {HT}"))
    chooser = lobby_now(tg, lobby)
    assert chooser.find_button("Traditional") and not chooser.find_button("✅ Traditional")
    assert plain(t("en", "games.traditional_ht.about")) in (chooser.text or "")
    await tg.send_text(masha, group, "/rules")
    rules = await tg.wait_for_message(group, f"📜 Rules of this table: {HT}")
    assert plain(t("en", "games.traditional_ht.summary")) in (rules.text or "")
    await tg.send_text(masha, group, "/rules traditional (to 300)")
    told = await tg.wait_for_message(group, f"📜 {HT}: the usual rules")
    assert plain(t("en", "rules.target.other", value=300)) in (told.text or "")
    # its game again is the game's own preset: back to 100
    await tap(tg, masha, chooser, data_of(lobby_now(tg, lobby), "Traditional"))
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("🎲 Game: Traditional"))
    assert plain(t("en", "rules.target.other", value=100)) in (lobby_now(tg, lobby).text or "")
    assert await choose_game(harness, masha, lobby, HT) == f"Game: {HT}"

    await tg.press_button(alex, lobby, "✋ Join")
    await tg.wait_for(lambda: "Players 2/2" in (lobby_now(tg, lobby).text or ""))
    await tg.press_button(masha, lobby, "▶️ Start")
    await tg.wait_for_message(group, "Order of play")
    started = (await stored_events(harness.database, 1))[0]
    assert started["type"] == "match_started"
    options = started["options"]
    assert (options["game"], options["target"], options["trad_lead"]) == (
        "traditional",
        300,
        "lowest_incl_00",
    )
    assert options["66_always_50"] is options["00_always_25"] is True

    def over() -> bool:
        return any("Send /new for another match." in text for text in texts_seen(tg, group))

    await harness.play_until([masha, alex], over)
    boards = [text for text in texts_seen(tg, group) if text.startswith("🎲 Traditional · ")]
    assert boards and all(" · to 300" in board.splitlines()[0] for board in boards)
    await harness.groups_told()
    await tg.send_text(masha, group, "/top")
    top = await tg.wait_for_message(group, "🏆 Standings: Traditional")
    assert "Masha" in (top.text or "") and "Alex" in (top.text or "")
    await tg.send_text(masha, tg.private(masha), "/stats")
    stats = await tg.wait_for_message(masha, "📈")
    assert "Traditional: matches: 1" in (stats.text or "")
