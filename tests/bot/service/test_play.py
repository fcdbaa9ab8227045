"""Play: the deal, moves committed before anyone hears of them, the match recorded at its end."""

from __future__ import annotations

import pytest

from bot.service import Refusal, TableService
from engine import Play
from engine.events import MatchEnded
from storage import Storage

from .conftest import GROUP, MASHA, lobby_of, playing


async def test_computers_alone_do_not_play(service: TableService) -> None:
    table = await service.lobby.open_table(GROUP, MASHA, "en")
    await service.lobby.change_setting(table, "players", 2)
    await service.lobby.add_computer(table)
    await service.lobby.add_computer(table)
    with pytest.raises(Refusal) as no:
        await service.player.start(table)
    assert no.value.key == "err.nobody_seated"


async def test_a_table_short_of_players_does_not_start(service: TableService) -> None:
    table = await lobby_of(service, computers=0)
    with pytest.raises(Refusal) as no:
        await service.player.start(table)
    assert no.value.key == "err.not_enough_players"


async def test_the_deal_and_each_move_are_committed(
    service: TableService, storage: Storage
) -> None:
    table = await playing(service)
    assert table.status == "playing"
    assert len(await storage.load_events(table.id)) == table.seq > 0
    match = table.match
    assert match is not None
    if match.current_seat != 0:
        await service.player.computer_move(table)
    seat = table.seats[0]
    play = next(a for a in match.legal_actions(0) if isinstance(a, Play))
    before = table.seq
    events = await service.player.act(table, seat, play)
    assert table.seq == before + len(events)
    stored = await storage.get_table(table.id)
    assert stored is not None and stored.last_seq == table.seq


async def test_a_match_played_to_the_goat_is_recorded(
    service: TableService, storage: Storage
) -> None:
    table = await playing(service)
    table.seats[0].absent = True  # the computer plays Masha's seat too
    ended = None
    while table.match is not None and not table.match.is_over:
        events = await service.player.computer_move(table)
        ended = next((e for e in events if isinstance(e, MatchEnded)), ended)
    assert ended is not None and ended.ended_by == "goat"
    assert table.status == "finished"
    assert await service.store.active_table(GROUP) is None
    standings = await storage.chat_standings(GROUP)
    assert [row.user_id for row in standings] == [MASHA]


async def test_the_table_keeps_the_rounds_events_for_its_computers(
    service: TableService, storage: Storage
) -> None:
    """The events a computer player is given are the round's committed ones, kept in memory as
    the table plays and rebuilt from the log when it is loaded again."""
    table = await playing(service)
    table.seats[0].absent = True
    for _ in range(6):
        await service.player.computer_move(table)
    log = await storage.load_events(table.id)
    dealt = max(i for i, e in enumerate(log) if e["type"] == "round_started")
    assert [e.to_dict() for e in table.round_events] == log[dealt:]
    assert any(e["type"] in ("drew", "knocked", "played") for e in log[dealt:])

    service.store.forget(table.id)
    again = await service.store.table(table.id)
    assert again is not None and again is not table
    assert again.round_events == table.round_events
