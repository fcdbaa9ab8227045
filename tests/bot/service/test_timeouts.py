"""Time: a turn that runs out, a player marked away, a match nobody plays, expiry."""

from __future__ import annotations

from bot.service import TableService
from engine import Lay, Play, Reopen
from engine.events import Knocked, Played, PlayedDoubles, Reopened
from storage import Storage

from .conftest import donkey_with_reopen, lobby_of, playing


async def test_missed_turns_mark_a_player_away_and_end_a_match_nobody_plays(
    service: TableService, storage: Storage
) -> None:
    table = await playing(service)
    match = table.match
    assert match is not None
    masha = table.seats[0]
    while match.current_seat != 0:
        await service.player.computer_move(table)
    await service.timeouts.timeout(table, masha)
    assert (masha.missed_turns, masha.absent) == (1, False)
    assert not match.is_over
    while match.current_seat != 0:
        await service.player.computer_move(table)
    await service.timeouts.timeout(table, masha)  # the second in a row: away, and alone
    assert masha.absent
    assert match.is_over and match.ended_by == "timeout"
    assert table.status == "finished"
    assert (await storage.get_seats(table.id))[0].absent


async def test_a_tap_brings_an_away_player_back(service: TableService, storage: Storage) -> None:
    table = await playing(service)
    masha = table.seats[0]
    await service.timeouts.set_absent(table, masha, True)
    await service.timeouts.played_in_person(table, masha)
    assert not masha.absent
    assert not (await storage.get_seats(table.id))[0].absent


async def test_a_computer_turn_ends_a_match_only_while_nobody_plays_in_person(
    service: TableService,
) -> None:
    """Masha, the only person, cannot be reached (marked away, as when she blocked the bot):
    the computer's next turn ends the match rather than play it for nobody; had she pressed
    Start before it, the computer would only play its own seat."""
    table = await playing(service)
    match = table.match
    assert match is not None
    masha = table.seats[0]
    while match.current_seat != 1:
        await service.player.computer_move(table, timed_out=True)
    await service.timeouts.set_absent(table, masha, True)
    await service.timeouts.played_in_person(table, masha)  # /start: back before the move
    assert await service.timeouts.computer_turn(table)
    assert not match.is_over
    await service.timeouts.set_absent(table, masha, True)
    await service.timeouts.computer_turn(table)
    assert match.is_over and match.ended_by == "timeout"
    assert table.status == "finished"


async def test_the_deadline_is_stored_with_the_table(
    service: TableService, storage: Storage
) -> None:
    table = await playing(service)
    await service.timeouts.set_deadline(table, 1234.5)
    assert table.turn_deadline == 1234.5
    stored = await storage.get_table(table.id)
    assert stored is not None and stored.turn_deadline == 1234.5


async def test_old_lobbies_and_idle_matches_expire(service: TableService) -> None:
    lobby = await lobby_of(service)
    assert await service.timeouts.expired(lobby.row.updated_at + 60) == []
    late = lobby.row.updated_at + service.store.settings.lobby_expiry_minutes * 60 + 1
    assert await service.timeouts.expired(late) == [(lobby, "lobby")]


async def test_the_computer_plays_a_turn_that_ran_out_to_its_end_after_reopening_a_double(
    service: TableService,
) -> None:
    """Donkey with ``donkey_reopen`` (RULES.md §3.3): the computer playing a person's turn that
    ran out may first reopen the double he closed. It stopped there: the group was told that
    the computer had played for him, and the same turn came back to him with a new timer."""
    table = await donkey_with_reopen(service)
    match = table.match
    assert match is not None
    while not match.is_over:  # both close a double whenever they can, else play
        seat = table.seats[match.current_seat or 0]
        actions = match.legal_actions(seat.seat)
        level, events = table.computer_level, table.round_events
        chosen = await service.player.thinker.choose(level, match, seat.seat, events)
        if isinstance(chosen, Reopen):
            break
        moves = [a for a in actions if isinstance(a, Play | Lay)]
        closing = [a for a in moves if isinstance(a, Lay) and any(p.closed for p in a.placements)]
        await service.player.act(table, seat, (closing or moves or [chosen])[0])
    assert not match.is_over, "the computer never chose to reopen a double"

    events = await service.timeouts.timeout(table, seat)
    assert isinstance(events[0], Reopened) and events[0].seat == seat.seat
    turn_ends = [e for e in events[1:] if isinstance(e, Played | PlayedDoubles | Knocked)]
    assert turn_ends and turn_ends[0].seat == seat.seat  # then it played (or knocked) for him


async def test_the_time_the_bot_was_down_does_not_make_a_table_idle(
    service: TableService,
) -> None:
    """A table is idle when nobody has touched it for so long while the bot could be reached:
    a bot back after a day's maintenance closed every lobby and match at its first sweep."""
    lobby = await lobby_of(service)
    lobby_age = service.store.settings.lobby_expiry_minutes * 60
    service.timeouts.awake_since = lobby.row.updated_at + 24 * 3600  # restarted a day later
    assert await service.timeouts.expired(service.timeouts.awake_since + 60) == []
    late = service.timeouts.awake_since + lobby_age + 1
    assert await service.timeouts.expired(late) == [(lobby, "lobby")]
