"""The rest of the yard through Telegram (issue #12): Traditional's house preset chosen in the
lobby, and whole matches of General's Goat and Sport domino played by tapping tiles in DMs, with
what the group sees on the way and what the standings keep."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.i18n import t
from devtools.fake_telegram import FakeChat, FakeTelegram, FakeUser
from engine.rules import PRESETS
from tests.bot.harness import Accelerated, Harness, stored_events, tap, texts_seen
from tests.bot.summaries import usual_about, usual_summary
from tests.bot.test_games_e2e import (
    choose_game,
    data_of,
    lobby_now,
    open_lobby,
    plain,
    set_players,
)

HT = "Traditional (to 300)"


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    """A clock so fast that the group's budget never runs short: every board of a whole match
    reaches the group (as in test_match_e2e), and the matches do not wait for it."""
    async with FakeTelegram(clock=Accelerated(2000)) as server:
        yield server


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
    assert plain(usual_about("en", "traditional_ht")) in shown
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
    assert plain(usual_about("en", "traditional_ht")) in (chooser.text or "")
    await tg.send_text(masha, group, "/rules")
    rules = await tg.wait_for_message(group, f"📜 Rules of this table: {HT}")
    assert plain(usual_summary("en", "traditional_ht")) in (rules.text or "")
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
    await played_out(harness, [masha, alex], group)
    boards = [text for text in texts_seen(tg, group) if text.startswith("🎲 Traditional · ")]
    assert boards and all(" · to 300" in board.splitlines()[0] for board in boards)
    await harness.groups_told()
    await tg.send_text(masha, group, "/top")
    top = await tg.wait_for_message(group, "🏆 Standings: Traditional")
    assert "Masha" in (top.text or "") and "Alex" in (top.text or "")
    await tg.send_text(alex, group, "/top traditional (to 300)")  # the preset's are Traditional's
    await tg.wait_for(lambda: len([m for m in tg.messages(group) if m.text == top.text]) == 2)
    await tg.send_text(masha, tg.private(masha), "/stats")
    stats = await tg.wait_for_message(masha, "📈")
    assert "Traditional: matches: 1" in (stats.text or "")


def told(tg: FakeTelegram, group: FakeChat, text: str) -> bool:
    """Whether the bot has shown ``text`` in the group (in a message, or an edit of one)."""
    return any(text in seen for seen in texts_seen(tg, group))


async def played_out(harness: Harness, users: list[FakeUser], group: FakeChat) -> dict[str, Any]:
    """The ``users`` play on by tapping tiles until the match ends; the stored ``match_ended``."""
    await harness.play_until(users, lambda: told(harness.tg, group, "Send /new for another match"))
    await harness.groups_told()
    ended = (await stored_events(harness.database, 1))[-1]
    assert ended["type"] == "match_ended"
    return ended


async def pairs_dealt(
    harness: Harness,
    users: list[FakeUser],
    group: FakeChat,
    game: str,
    *,
    setting: str,
    value: str,
) -> None:
    """Four ``users`` in two pairs start a match of ``game`` (as the chooser names it), the
    ⚙️ Rules button that says ``setting`` tapped until it reads ``value`` (the shortest match)."""
    tg = harness.tg
    lobby = await open_lobby(harness, users, group)
    opener = users[0]
    await tg.press_button(opener, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("Every player for themselves"))
    await tg.press_button(opener, lobby, "Every player for themselves")
    await tg.wait_for(lambda: "Two pairs" in (lobby_now(tg, lobby).text or ""))
    await tg.press_button(opener, lobby, "« Back")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Join"))
    assert await choose_game(harness, opener, lobby, game) == f"Game: {game}"
    await tg.press_button(opener, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("« Back"))
    while not lobby_now(tg, lobby).find_button(value):
        await tg.press_button(opener, lobby, lambda b: setting in str(b.get("text")))
        await tg.wait_idle()
    await tg.press_button(opener, lobby, "« Back")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Join"))
    for user in users[1:]:
        await tg.press_button(user, lobby, "✋ Join")
        await tg.wait_for(lambda: user.first_name in (lobby_now(tg, lobby).text or ""))  # noqa: B023
    await tg.press_button(opener, lobby, "▶️ Start")
    await tg.wait_for_message(group, "Pairs:")


def four(tg: FakeTelegram, first: int) -> list[FakeUser]:
    names = ("Masha", "Alex", "Olya", "Serg")
    return [tg.user(first + i, name) for i, name in enumerate(names)]


def team(users: list[FakeUser], side: int) -> str:
    """A pair as the group's messages name it: its seats are ``side`` and ``side + 2``."""
    return f"{users[side].first_name} and {users[side + 2].first_name}"


async def standings_kept(
    harness: Harness, users: list[FakeUser], group: FakeChat, game: str
) -> tuple[str, str]:
    """/top of ``game`` lists all four; the first user's line there, and his /stats."""
    tg = harness.tg
    await tg.send_text(users[0], group, "/top")
    top = (await tg.wait_for_message(group, f"🏆 Standings: {game}")).text or ""
    assert all(user.first_name in top for user in users)
    await tg.send_text(users[0], tg.private(users[0]), "/stats")
    stats = (await tg.wait_for_message(users[0], "📈")).text or ""
    return next(line for line in top.splitlines() if users[0].first_name in line), stats


async def test_a_whole_match_of_generals_goat_through_telegram(
    tg: FakeTelegram, harness: Harness
) -> None:
    users = four(tg, 1210)
    group = tg.group(-1210, "Yard")
    losses = "Rounds lost that lose the match: "
    await pairs_dealt(harness, users, group, "General's Goat", setting=losses, value=f"{losses}1")
    ended = await played_out(harness, users, group)
    seen = texts_seen(tg, group)
    boards = [text for text in seen if text.startswith("🎲 General's Goat · round ")]
    assert boards and all(
        board.splitlines()[0].endswith(" · lost rounds to lose: 1") for board in boards
    )
    for side in (0, 1):  # each team's rounds lost and its Generals, on every board
        assert all(f"{team(users, side)}: lost " in board for board in boards)
        assert all(" of 1 · 🎖 Generals: " in board for board in boards)
    events = await stored_events(harness.database, 1)
    lost = [e for e in events if e["type"] == "round_ended" and e.get("loser") is not None]
    assert lost
    # a round's result, or the match's end, which tells the round that ended it
    heads = ("🏁 Round", "🐟 Round")
    results = [text for text in seen if any(x.startswith(heads) for x in text.splitlines()[:3])]
    assert results and not any(" in hand → " in text for text in results)  # it writes no points
    # the group is told who lost each round, numbered as the rounds that count: a fish is
    # dealt again under its round's number (the engine's events number the redeal next)
    for shown, event in enumerate(lost, 1):
        loser = users[event["loser"]].first_name
        assert any(
            f"Round {shown}: " in text and f"{loser} loses the round." in text for text in seen
        )
    numbers = {int(board.split(" · round ")[1].split(" ")[0]) for board in boards}
    assert numbers == set(range(1, len(lost) + 1))
    (winner,) = ended["winners"]
    (loser,) = ended["losers"]
    result = next(text for text in seen if "Send /new for another match" in text)
    assert result.startswith(f"🏆 {team(users, winner)} win!")
    general = ended["ended_by"] == "general"
    assert ("🎖 A General was hung: the match is over." in result) is general
    # (it read "The other team lost the rounds it could.", as if it had lost all it was able to,
    # then named neither the team nor the count)
    lost_enough = f"{team(users, loser)} have lost 1 round, the most a team may: the match is over."
    assert (lost_enough in result) is not general
    scores = ended["scores"]
    assert f"{team(users, loser)}: lost {scores[loser]} of 1 · 🎖 Generals: {int(general)}" in result
    assert f"{team(users, winner)}: lost {scores[winner]} of 1 · 🎖 Generals: 0" in result
    assert general or scores[loser] == 1

    top, stats = await standings_kept(harness, users, group, "General's Goat")
    assert top.endswith(f"avg {scores[0]:.1f} rounds lost per match")
    won = winner == 0  # Masha sits at seat 0
    assert (
        f"General's Goat: matches: 1 · wins: {int(won)} · lost: {int(not won)} · "
        f"average: {scores[0]:.1f} rounds lost per match" in stats
    )
    assert ("1 round lost" if scores[0] == 1 else f"{scores[0]} rounds lost") in stats


async def test_a_whole_match_of_sport_domino_through_telegram(
    tg: FakeTelegram, harness: Harness
) -> None:
    users = four(tg, 1220)
    group = tg.group(-1220, "Yard")
    await pairs_dealt(harness, users, group, "Sport Domino", setting=" deals", value="4 deals")
    await harness.play_until(users, lambda: told(tg, group, "Deal 1 of 4: "))
    await tg.send_text(users[1], group, "/standings")
    standings = await tg.wait_for_message(group, "📊 Current match: Sport Domino")
    assert (standings.text or "").splitlines()[0].endswith(" · deals played: 1 of 4")
    ended = await played_out(harness, users, group)
    seen = texts_seen(tg, group)
    titles = {text.splitlines()[0] for text in seen if text.startswith("🎲 Sport Domino · ")}
    events = await stored_events(harness.database, 1)
    deals = [e["round"] for e in events if e["type"] == "round_ended"]
    assert deals[-1] == 4
    # every deal's board says which deal of the four it is, and nothing else does
    assert titles == {f"🎲 Sport Domino · deal {n} of 4" for n in range(1, 5)}
    for user in users:  # and so does every hand in the players' DMs
        hands = [text for text in texts_seen(tg, user) if "Your turn" in text or "hand:" in text]
        assert hands and not [text for text in hands if "round" in text.lower()]
        assert all(re.search(r"(?i)deal [1-4] of 4", text) for text in hands)
    lines = [line for text in seen for line in text.splitlines()]
    for deal in deals:  # and each deal's result, named as the board names it, reaches the group
        assert any(
            line.startswith(("🏁", "🐟", "🥚")) and f"Deal {deal} of 4: " in line for line in lines
        )
    scores = ended["scores"]
    result = next(text for text in seen if "Send /new for another match" in text)
    if ended["ended_by"] == "draw":
        assert scores[0] == scores[1] and ended["winners"] == []
        assert result.startswith("🤝 A draw: equal points after all the deals.")
    else:
        (winner,) = ended["winners"]
        assert scores[winner] < scores[1 - winner]
        assert result.startswith(f"🏆 {team(users, winner)} win!\nAll the deals are played.")
    for side in (0, 1):
        assert f"{team(users, side)}: {scores[side]}" in result

    top, stats = await standings_kept(harness, users, group, "Sport Domino")
    assert f"avg {scores[0]:.1f}" in top
    outcome = (
        "draws: 1"
        if ended["ended_by"] == "draw"
        else "wins: 1"
        if 0 in ended["winners"]
        else "lost: 1"
    )
    line = next(line for line in stats.splitlines() if line.startswith("Sport Domino: "))
    assert f"average: {scores[0]:.1f} points" in line and outcome in line
    assert f"Sport Domino · Yard: {scores[0]} points" in stats
