"""A group that plays several games keeps their standings apart: /top shows one game's table
at a time (the table's game, or the one played last, or the one asked for by name in any
language), with buttons to the others; /stats gives a line per game."""

from __future__ import annotations

from devtools.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from storage import EndedBy, PlayerResult, Storage
from tests.bot.harness import Harness, tap


async def record(
    harness: Harness,
    group: FakeChat,
    game: str,
    ended_by: EndedBy,
    results: list[tuple[FakeUser, int, str, int]],
) -> None:
    """A finished match of ``game`` in the group: (player, score, outcome, rating) per seat,
    written as the bot's finisher writes it (the engine's other games are not wired up here)."""
    async with await Storage.open(harness.database) as storage:
        await storage.upsert_chat(group.id, group.title or "", "group")
        for user, *_ in results:
            await storage.upsert_user(user.id, user.first_name, None, "en")
        table = await storage.create_table(group.id, results[0][0].id, players=len(results))
        await storage.record_match(
            table.table_id,
            ended_by,
            3,
            [
                PlayerResult(user.id, seat, seat, score, outcome, rating)  # type: ignore[arg-type]
                for seat, (user, score, outcome, rating) in enumerate(results)
            ],
            game=game,
        )


async def answer(
    tg: FakeTelegram, user: FakeUser, chat: FakeChat | FakeUser, text: str, start: str = ""
) -> str:
    """Send ``text`` and wait for the bot's next message there (that starts with ``start``)."""
    count = len(tg.messages(chat))
    await tg.send_text(user, chat, text)
    reply = await tg.wait_for(
        lambda: next(
            (m for m in tg.messages(chat)[count:] if (m.text or "").startswith(start)), None
        )
    )
    return reply.text or ""


def line_of(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if name in line)


async def test_each_game_keeps_its_own_standings(tg: FakeTelegram, harness: Harness) -> None:
    masha, alex, olya = tg.user(741, "Masha"), tg.user(742, "Alex"), tg.user(743, "Olya")
    group = tg.group(-741, "Yard")
    await record(harness, group, "kozel", "goat", [(masha, 20, "won", 8), (alex, 104, "lost", -0)])
    await record(
        harness,
        group,
        "muggins",
        "target",
        [(alex, 100, "won", 4), (masha, 60, "lost", -4), (olya, 35, "lost", -7)],
    )

    top = await answer(tg, masha, group, "/top")  # no table here: the game played last
    assert top.startswith("🏆 Standings: Muggins")
    assert "rating +4 · matches 1 · wins 1 · lost 0 · avg 100.0" in line_of(top, "Alex")
    assert "rating −4 · matches 1 · wins 0 · lost 1 · avg 60.0" in line_of(top, "Masha")
    assert "Olya" in top and "goat" not in top
    shown = tg.messages(group)[-1]
    assert shown.button_texts == [["Kozel"]]

    await tap(tg, masha, shown, str(shown.buttons[0]["callback_data"]))
    kozel = await tg.wait_for_message(group, "Standings: Kozel")
    assert kozel.message_id == shown.message_id  # the same message, turned to the other game
    assert "rating +8 · matches 1 · wins 1 · goats 0 · avg 20.0" in line_of(
        kozel.text or "", "Masha"
    )
    assert "goats 1" in line_of(kozel.text or "", "Alex")
    assert "Olya" not in (kozel.text or "")  # she only played muggins
    assert kozel.button_texts == [["Muggins"]]

    assert (await answer(tg, alex, group, "/top пятерочка")).startswith("🏆 Standings: Muggins")
    assert (await answer(tg, alex, group, "/top KOZEL")).startswith("🏆 Standings: Kozel")
    unknown = await answer(tg, alex, group, "/top chess")
    assert unknown.startswith("I do not know the game “chess”.")
    assert "Muggins, Kozel" in unknown

    await tg.send_text(olya, group, "/new")  # a Kozel table opens here: /top shows its game
    await tg.wait_for_message(group, "new table")
    assert (await answer(tg, olya, group, "/top", "🏆")).startswith("🏆 Standings: Kozel")

    stats = await answer(tg, masha, masha, "/stats")
    assert "Masha · matches: 2 (groups: 1)" in stats
    assert (
        "Kozel: matches: 1 · wins: 1 · times the goat: 0 · average: 20.0 points · rating: +8"
        in stats
    )
    assert "Muggins: matches: 1 · wins: 0 · lost: 1 · average: 60.0 points · rating: −4" in stats
    assert " · Muggins · Yard: 60 points, rating −4" in stats
    assert " · Kozel · Yard: 20 points 🏆, rating +8" in stats


async def test_a_draw_and_a_game_never_played(tg: FakeTelegram, harness: Harness) -> None:
    masha, alex = tg.user(751, "Masha"), tg.user(752, "Alex")
    group = tg.group(-751, "Yard")
    await record(
        harness, group, "telephone_ua", "draw", [(masha, 230, "draw", 0), (alex, 240, "draw", 0)]
    )
    top = await answer(tg, masha, group, "/top")
    assert top.startswith("🏆 Standings: Ukrainian Telephone")
    assert line_of(top, "Alex").endswith("lost 0 · avg 240.0 points · draws 1")
    never = await answer(tg, masha, group, "/top kozel")
    assert never == "No finished matches of Kozel in this group yet."
    shown: FakeMessage = tg.messages(group)[-1]
    assert shown.button_texts == [["Ukrainian Telephone"]]
    stats = await answer(tg, alex, alex, "/stats")
    assert "rating: 0 · draws: 1" in stats
    assert "240 points 🤝" in stats


async def test_generals_goat_counts_lost_rounds_not_points(
    tg: FakeTelegram, harness: Harness
) -> None:
    """General's Goat keeps no points (RULES.md §3.10): what its record counts is the rounds each
    team lost, and /stats and /top say so; the games of points still say points."""
    masha, alex, olya, serg = (
        tg.user(760 + i, n) for i, n in enumerate(("Masha", "Alex", "Olya", "Serg"))
    )
    group = tg.group(-761, "Yard")
    await record(
        harness,
        group,
        "generals_goat",
        "target",
        [(masha, 1, "won", 5), (alex, 2, "lost", -5), (olya, 1, "won", 5), (serg, 2, "lost", -5)],
    )
    await record(harness, group, "sport", "target", [(masha, 40, "won", 3), (alex, 52, "lost", -3)])
    stats = await answer(tg, masha, masha, "/stats")
    assert (
        "General's Goat: matches: 1 · wins: 1 · lost: 0 · "
        "average: 1.0 rounds lost per match · rating: +5" in stats
    )
    assert " · General's Goat · Yard: 1 round lost 🏆, rating +5" in stats
    assert "Sport Domino: matches: 1 · wins: 1 · lost: 0 · average: 40.0 points" in stats
    assert " · Sport Domino · Yard: 40 points 🏆, rating +3" in stats
    top = await answer(tg, alex, group, "/top generals goat")
    assert top.startswith("🏆 Standings: General's Goat")
    assert line_of(top, "Alex").endswith("wins 0 · lost 1 · avg 2.0 rounds lost per match")


async def test_a_forged_page_past_the_last_is_refused_and_changes_nothing(
    tg: FakeTelegram, harness: Harness
) -> None:
    """A /top button forged to turn to a page no standings reach said the group had finished
    no match of the game, over the standings; one of eighteen digits crashed on its way to
    the database ('Something went wrong')."""
    masha, alex = tg.user(771, "Masha"), tg.user(772, "Alex")
    group = tg.group(-771, "Yard")
    await record(harness, group, "kozel", "goat", [(masha, 20, "won", 8), (alex, 104, "lost", 0)])
    await record(
        harness, group, "muggins", "target", [(alex, 100, "won", 4), (masha, 60, "lost", -4)]
    )
    standings = await answer(tg, masha, group, "/top kozel")
    shown = tg.messages(group)[-1]
    for page in ("1", "9" * 18):
        refused = await tap(tg, alex, shown, f"t:0:{page}:kozel")
        assert refused.text == "This button is not valid here."
    await tg.wait_idle()
    assert tg.current(shown).text == standings
    assert tg.current(shown).button_texts == [["Muggins"]]
