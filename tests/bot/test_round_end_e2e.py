"""A round's end as the group reads it: the board shows the last move at the scores the round's
end found, and the result then says what the end wrote and the new scores. The board showed the
new scores first, the bonus in them, before the result explained it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.recovery import finished
from bot.render.board import board_text
from devtools.fake_telegram import FakeChat, FakeTelegram, FakeUser
from tests.bot.harness import Harness, start_match, stored_events
from tests.bot.tables import table_of
from tests.bot.test_games_e2e import dealt_for_two, plain, table_in
from tests.bot.test_render_sheet import play_out


def result_of(harness: Harness, group: FakeChat, number: int) -> str | None:
    """The group's result of round ``number``, once told."""
    heads = tuple(f"{mark} Round {number}:" for mark in ("🏁", "🐟", "🥚", "🧱"))
    return next((x for x in harness.group_texts(group) if x.startswith(heads)), None)


async def play_to_result(
    harness: Harness, users: list[FakeUser], group: FakeChat, number: int
) -> None:
    """Play until the group is told the result of round ``number``, or the match is over."""
    over = harness.match_over
    await harness.play_until(users, lambda: bool(result_of(harness, group, number) or over(group)))


def found_at_end(events: list[dict[str, Any]], number: int) -> list[int]:
    """The scores the end of round ``number`` found: as the round before left them, at its last
    move that scored (points during play)."""
    scores = [0, 0]
    for event in events:
        if event["type"] == "round_ended" and event["round"] == number:
            return scores
        if event["type"] == "round_ended" or (
            event["type"] in ("played", "played_doubles") and event.get("scores")
        ):
            scores = event["scores"]
    raise AssertionError(f"round {number} never ended")


def score_lines(text: str, names: list[str]) -> list[str]:
    """The sides' scores ``text`` ends with, without what a side remembers."""
    return [
        line.split(" (")[0]
        for line in plain(text).splitlines()
        if line.startswith(tuple(f"{name}: " for name in names))
        and line.split(": ")[1][0].isdigit()
    ][-len(names) :]


@pytest.mark.parametrize("game", ["Kozel", "Muggins"])
async def test_the_board_keeps_the_scores_until_the_result_says_the_new_ones(
    tg: FakeTelegram, harness: Harness, game: str
) -> None:
    users = [tg.user(981, "Masha"), tg.user(982, "Alex")]
    group = tg.group(-1981, "Yard")
    if game == "Kozel":
        await start_match(harness, users, group)
    else:
        await dealt_for_two(harness, users, group, game)
    table = await table_in(harness, group)
    names = [seat.name for seat in table.seats]
    target = "" if game == "Kozel" else f" of {table.rules.target}"
    number = 0
    while True:  # the first round whose end changed a score
        number += 1
        await play_to_result(harness, users, group, number)
        events = await stored_events(harness.database, 1)
        ended = next(e for e in events if e["type"] == "round_ended" and e["round"] == number)
        if ended["scores"] != found_at_end(events, number):
            break
    await harness.groups_told()

    def lines(scores: list[int]) -> list[str]:
        return [f"{name}: {score}{target}" for name, score in zip(names, scores, strict=True)]

    board = next(
        m.text or ""
        for m in tg.messages(group)
        if (m.text or "").startswith(f"🎲 {game} · round {number} ")
    )
    result = result_of(harness, group, number)
    assert result is not None
    assert score_lines(board, names) == lines(found_at_end(events, number))
    assert score_lines(result, names) == lines(ended["scores"])


def test_after_a_restart_the_last_rounds_board_keeps_the_scores_its_end_found() -> None:
    """The bot stopped before telling the match's last round: after the restart its board is
    drawn again, before its result and the goat, at the scores the round's end found."""
    table = table_of(["Masha", "Alex"])
    play_out(table)  # Kozel: a match ends at a round's end, and nothing scores during play
    *_, before, last = table.round_ends
    finished(table)
    assert table.finished_round is not None
    board = board_text(table, table.finished_round, found=table.finished_tally)
    assert before.scores != last.scores
    assert score_lines(board, ["Masha", "Alex"]) == [
        f"{name}: {score}" for name, score in zip(["Masha", "Alex"], before.scores, strict=True)
    ]
