"""A group's limit (about 20 calls a minute, edits included) with play faster than that."""

from __future__ import annotations

from pathlib import Path

from bot.presenter.news import recall
from bot.recovery import finished
from bot.render.board import board_text
from devtools.fake_telegram import FakeTelegram, parse_html
from tests.bot.conftest import SPEED
from tests.bot.harness import BOARD_TITLE, Accelerated, Harness, board_message, start_match


async def test_a_fast_match_keeps_to_the_group_limit_and_loses_nothing(tmp_path: Path) -> None:
    """One person and three computers that move at once, under a server that answers 429 past
    20 calls a minute in a group, board edits included: the bot never goes over (one 429 that
    the test injects on a board edit is waited out), every round's result and the goat are
    announced once each, in order (the last round's in the goat's message), and the board left
    in the group shows the final state. Each round still gets its own board, below the last
    round's result: a new message costs what an edit does."""
    async with FakeTelegram(enforce_group_limit=True, clock=Accelerated(SPEED)) as tg:
        harness = Harness(tg, tmp_path / "kozel.sqlite3")
        await harness.start()
        try:
            masha = tg.user(771, "Masha")
            group = tg.group(-1771, "Courtyard")
            await start_match(harness, [masha], group, computers=3)
            tg.inject_flood(method="editMessageText", chat_id=group.id, retry_after=1, times=1)
            await harness.play_match([masha], group)
            store = harness.kozel.service.store
            table = await store.table(1)
            assert table is not None and table.match is not None
            # the final state as a restart would rebuild it, the list of recent moves included,
            # at the scores the last round's end found: its result and the goat say the rest
            table.recent.clear()
            recall(table, table.round_events)
            finished(table)
            final, _ = parse_html(board_text(table, found=table.finished_tally))
            await harness.groups_told()  # the last board, result and goat wait their turn
            assert board_message(tg, group).text == final
        finally:
            await harness.stop()
    floods = [c for c in tg.calls if c.status == 429]
    assert [c.method for c in floods] == ["editMessageText"], floods
    assert tg.max_messages_per_window(group, 60.0) <= 20
    rounds = list(range(1, table.match.rounds_played + 1))
    results = [
        text
        for text in harness.group_texts(group)
        if text.startswith(("🏁 Round", "🐟 Round", "🥚 Round"))
    ]
    boards_and_results = [
        "board" if text.startswith(BOARD_TITLE) else "result"
        for text in harness.group_texts(group)
        if text.startswith(BOARD_TITLE) or text in results
    ]
    assert boards_and_results == ["board", "result"] * (len(rounds) - 1) + ["board"]
    goats = [text for text in harness.group_texts(group) if "goat" in text]
    assert len(goats) == 1 and harness.group_texts(group)[-1] == goats[0]
    results.append(goats[0].split("\n", 1)[1])  # the last round, told below the goat
    assert [int(text.split()[2].rstrip(":")) for text in results] == rounds
