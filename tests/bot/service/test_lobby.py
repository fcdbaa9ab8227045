"""The lobby: seats in joining order, the pairs people choose, the settings, leaving, cancelling."""

from __future__ import annotations

import json
import random

import pytest

from bot.service import Refusal, TableService
from bot.settings import Settings
from bot.table import Table
from storage import Storage

from .conftest import ALEX, MASHA, YARD, lobby_of, playing


async def test_one_table_at_a_time_in_a_group(service: TableService) -> None:
    await lobby_of(service)
    with pytest.raises(Refusal) as no:
        await service.lobby.open_table(YARD, ALEX, "en")
    assert no.value.key == "err.table_exists"


async def test_a_full_table_and_a_second_seat_are_refused(service: TableService) -> None:
    table = await lobby_of(service, computers=0)
    with pytest.raises(Refusal) as no:
        await service.lobby.join(table, MASHA)
    assert no.value.key == "err.already_joined"
    await service.lobby.add_computer(table)
    with pytest.raises(Refusal) as no:
        await service.lobby.join(table, ALEX)
    assert no.value.key == "err.table_full"


async def test_leaving_closes_the_gap(service: TableService, storage: Storage) -> None:
    table = await lobby_of(service, computers=0)
    await service.lobby.change_setting(table, "players", 3)
    await service.lobby.join(table, ALEX)
    await service.lobby.add_computer(table)
    await service.lobby.leave(table, MASHA)
    assert [(s.seat, s.user_id) for s in table.seats] == [(0, ALEX), (1, None)]
    stored = await storage.get_seats(table.id)
    assert [(s.seat, s.user_id) for s in stored] == [(0, ALEX), (1, None)]


async def test_a_pair_game_seats_partners_across_the_table(
    service: TableService, storage: Storage
) -> None:
    table = await lobby_of(service, computers=0)
    await service.lobby.join(table, ALEX)
    await service.lobby.change_setting(table, "pairs", True)
    assert (table.players, table.pairs) == (4, True)
    await service.lobby.add_computer(table)
    await service.lobby.add_computer(table)
    assert [s.side for s in await storage.get_seats(table.id)] == [0, 1, 0, 1]
    stored = await storage.get_table(table.id)
    assert stored is not None and (stored.players, stored.pairs) == (4, True)


async def test_a_rule_setting_is_stored_with_the_table(
    service: TableService, storage: Storage
) -> None:
    table = await lobby_of(service)
    await service.lobby.change_setting(table, "goat_limit", 51)
    assert table.rules.goat_limit == 51
    stored = await storage.get_table(table.id)
    assert stored is not None and stored.rules["goat_limit"] == 51


async def test_traditional_zero_zero_and_six_six_values_are_set_by_their_spelling(
    service: TableService, storage: Storage
) -> None:
    """RULES.md §3.1 spells these options with a leading digit; the editor sets them so."""
    table = await lobby_of(service)
    await service.lobby.change_game(table, "traditional")
    await service.lobby.change_setting(table, "00_always_25", True)
    await service.lobby.change_setting(table, "66_always_50", True)
    assert table.rules.option("00_always_25") and table.rules.option("66_always_50")
    stored = await storage.get_table(table.id)
    assert stored is not None
    assert stored.rules["00_always_25"] is True and stored.rules["66_always_50"] is True


async def test_a_person_who_leaves_a_match_is_replaced_by_a_computer(
    service: TableService,
) -> None:
    table = await playing(service)
    gone = await service.lobby.leave(table, MASHA)
    assert gone.user_id == MASHA
    assert table.seats[0].user_id is None and table.seats[0].ai is not None
    with pytest.raises(Refusal) as no:
        await service.lobby.unseat(table, table.seats[0])
    assert no.value.key == "err.computer_seat"


async def test_the_computer_standing_in_for_one_who_left_inherits_no_question_nor_missed_turn(
    service: TableService, storage: Storage, settings: Settings
) -> None:
    """Masha left a match with "which end?" asked in her DM and a turn missed: the computer
    that took her seat kept both, and a restart restored them on its seat. Nobody sees them
    there today (a computer's turn never times out, and its hand shows nobody a question), so
    this checks the seat as stored: a computer's seat that asks nothing and missed nothing."""
    table = await playing(service)
    seat = table.seat_of(MASHA)
    assert seat is not None
    question = json.dumps({"version": table.version, "text": "Which end?", "keyboard": {}})
    await service.messages.remember_question(table, seat, question)
    await storage.update_seat(table.id, seat.seat, missed_turns=1)

    await service.lobby.leave(table, MASHA)
    restarted = TableService(storage, settings, random.Random(7))
    try:
        restored = await restarted.store.table(table.id)
        assert restored is not None
        stand_in = restored.seats[seat.seat]
        assert (stand_in.user_id, stand_in.question, stand_in.missed_turns) == (None, None, 0)
        assert (table.seats[seat.seat].question, table.seats[seat.seat].missed_turns) == (None, 0)
    finally:
        restarted.close()


async def test_a_cancelled_table_frees_the_group(service: TableService) -> None:
    table = await lobby_of(service)
    await service.lobby.cancel(table)
    assert table.status == "cancelled"
    assert await service.store.active_table(YARD) is None


async def test_computers_play_at_the_tables_level_or_their_own(
    service: TableService, storage: Storage
) -> None:
    """A new table's computers are strong; one added without a level takes the table's, one
    added by name keeps its own, and a person who leaves a match is played at the table's."""
    table = await service.lobby.open_table(YARD, MASHA, "en")
    assert table.computer_level == "strong"
    await service.lobby.change_setting(table, "players", 4)
    await service.lobby.join(table, MASHA)
    await service.lobby.add_computer(table)
    await service.lobby.change_setting(table, "computer_level", "easy")
    await service.lobby.add_computer(table)
    await service.lobby.add_computer(table, "normal")
    assert [s.ai for s in table.seats] == [None, "strong", "easy", "normal"]
    assert [s.ai for s in await storage.get_seats(table.id)] == [None, "strong", "easy", "normal"]
    stored = await storage.get_table(table.id)
    assert stored is not None and stored.computer_level == "easy"

    await service.player.start(table)
    await service.lobby.leave(table, MASHA)
    assert table.seats[0].ai == "easy"


# --- pairs chosen in the lobby -------------------------------------------------------------------

OLYA, PETYA = 3, 4


async def pair_lobby(service: TableService, storage: Storage) -> Table:
    """A pair game's lobby opened by Masha, who sits down; Olya and Petya can join too."""
    for user_id, name in ((OLYA, "Olya"), (PETYA, "Petya")):
        await storage.upsert_user(user_id, name, None, "en")
    table = await lobby_of(service, computers=0)
    await service.lobby.change_setting(table, "pairs", True)
    return table


async def partners(service: TableService, storage: Storage) -> Table:
    """A pair game's lobby where Alex, second to sit down, chose to be Masha's partner."""
    table = await pair_lobby(service, storage)
    await service.lobby.join(table, ALEX)
    await service.lobby.change_pair(table, ALEX)
    return table


async def stored_sides(storage: Storage, table: Table) -> list[tuple[int, int]]:
    return [(s.seat, s.side) for s in await storage.get_seats(table.id)]


def pairs_of(table: Table) -> list[list[int | str | None]]:
    """Each pair's players, in seat order: a person's id, a computer's level."""
    return [[s.user_id or s.ai for s in table.seats if s.side == side] for side in (0, 1)]


async def test_joining_fills_the_pair_with_more_room_so_first_and_third_are_partners(
    service: TableService, storage: Storage
) -> None:
    table = await pair_lobby(service, storage)
    await service.lobby.join(table, ALEX)
    await service.lobby.add_computer(table)
    await service.lobby.join(table, OLYA)
    assert pairs_of(table) == [[MASHA, "normal"], [ALEX, OLYA]]
    assert await stored_sides(storage, table) == [(0, 0), (1, 1), (2, 0), (3, 1)]


async def test_a_pair_asked_for_is_taken_while_it_has_room(
    service: TableService, storage: Storage
) -> None:
    table = await pair_lobby(service, storage)
    await service.lobby.join(table, ALEX, side=0)
    await service.lobby.add_computer(table, side=0)  # full: the other pair takes it
    assert pairs_of(table) == [[MASHA, ALEX], ["normal"]]


async def test_a_person_changes_pair_to_a_free_place_and_keeps_their_number(
    service: TableService, storage: Storage
) -> None:
    table = await pair_lobby(service, storage)
    await service.lobby.join(table, ALEX)
    change = await service.lobby.change_pair(table, ALEX)
    assert (change.seat.seat, change.seat.user_id, change.seat.side) == (1, ALEX, 0)
    assert (change.swapped, change.asked) == (None, None)
    assert pairs_of(table) == [[MASHA, ALEX], []]
    assert await stored_sides(storage, table) == [(0, 0), (1, 0)]
    await service.lobby.join(table, OLYA)
    assert pairs_of(table) == [[MASHA, ALEX], [OLYA]]


async def test_a_person_changes_places_with_a_computer_in_a_full_pair(
    service: TableService, storage: Storage
) -> None:
    table = await pair_lobby(service, storage)
    await service.lobby.add_computer(table)
    await service.lobby.add_computer(table, "easy")
    await service.lobby.join(table, OLYA)
    assert pairs_of(table) == [[MASHA, "easy"], ["normal", OLYA]]
    change = await service.lobby.change_pair(table, OLYA)
    seat, swapped = change.seat, change.swapped
    assert (seat.seat, seat.side) == (3, 0)
    assert swapped is not None and (swapped.seat, swapped.ai, swapped.side) == (2, "easy", 1)
    assert pairs_of(table) == [[MASHA, OLYA], ["normal", "easy"]]
    assert await stored_sides(storage, table) == [(0, 0), (1, 1), (2, 1), (3, 0)]


async def test_two_people_change_pairs_when_both_ask(
    service: TableService, storage: Storage
) -> None:
    """Nobody moves a person who did not ask: Alex asks to change places with one of Masha and
    Olya, and changes places with Olya once she asks too; Petya, alone in asking, stays."""
    table = await pair_lobby(service, storage)
    for user_id in (ALEX, OLYA, PETYA):
        await service.lobby.join(table, user_id)
    asked = await service.lobby.change_pair(table, ALEX)
    assert (asked.seat.side, asked.swapped, asked.asked) == (1, None, True)
    assert pairs_of(table) == [[MASHA, OLYA], [ALEX, PETYA]]
    assert [s.asks_swap for s in await storage.get_seats(table.id)] == [False, True, False, False]

    change = await service.lobby.change_pair(table, OLYA)
    assert change.swapped is not None and change.swapped.user_id == ALEX
    assert (change.seat.user_id, change.seat.side, change.asked) == (OLYA, 1, None)
    assert pairs_of(table) == [[MASHA, ALEX], [OLYA, PETYA]]
    assert not any(s.asks_swap for s in await storage.get_seats(table.id))

    assert (await service.lobby.change_pair(table, PETYA)).asked is True
    stayed = await service.lobby.change_pair(table, PETYA)
    assert (stayed.seat.side, stayed.asked) == (1, False)
    assert pairs_of(table) == [[MASHA, ALEX], [OLYA, PETYA]]
    assert not any(s.asks_swap for s in await storage.get_seats(table.id))


async def test_only_a_seated_person_at_a_pair_game_changes_pair(
    service: TableService, storage: Storage
) -> None:
    table = await pair_lobby(service, storage)
    with pytest.raises(Refusal) as no:
        await service.lobby.change_pair(table, ALEX)
    assert no.value.key == "err.not_joined"
    await service.lobby.change_setting(table, "pairs", False)
    with pytest.raises(Refusal) as no:
        await service.lobby.change_pair(table, MASHA)
    assert no.value.key == "err.not_pairs"


async def test_leaving_a_pair_game_moves_nobody_to_the_other_pair(
    service: TableService, storage: Storage
) -> None:
    """The gap closed after one who left moved everyone after them a seat down, and with
    the seat's number their pair: Olya, Masha's partner, ended up against her."""
    table = await pair_lobby(service, storage)
    for user_id in (ALEX, OLYA, PETYA):
        await service.lobby.join(table, user_id)
    await service.lobby.leave(table, ALEX)
    assert pairs_of(table) == [[MASHA, OLYA], [PETYA]]
    stored = await storage.get_seats(table.id)
    assert [(s.seat, s.user_id, s.side) for s in stored] == [
        (0, MASHA, 0),
        (1, OLYA, 0),
        (2, PETYA, 1),
    ]
    await service.lobby.join(table, ALEX)
    assert pairs_of(table) == [[MASHA, OLYA], [PETYA, ALEX]]


async def test_a_place_freed_in_a_pair_goes_to_the_first_who_asked_for_it(
    service: TableService, storage: Storage
) -> None:
    """Alex and Petya asked to play in Masha and Olya's pair; a place freed there (Masha left,
    then Olya was kicked) stayed free while they still asked. Now the first of them by seat
    takes it, as a tap of 🔀 Change pair would, and his ask is granted: it goes."""
    table = await pair_lobby(service, storage)
    for user_id in (ALEX, OLYA, PETYA):
        await service.lobby.join(table, user_id)
    await service.lobby.change_pair(table, ALEX)
    await service.lobby.change_pair(table, PETYA)
    assert pairs_of(table) == [[MASHA, OLYA], [ALEX, PETYA]]

    await service.lobby.leave(table, MASHA)
    assert pairs_of(table) == [[ALEX, OLYA], [PETYA]]
    stored = await storage.get_seats(table.id)
    assert [(s.seat, s.user_id, s.side, s.asks_swap) for s in stored] == [
        (0, ALEX, 0, False),
        (1, OLYA, 0, False),
        (2, PETYA, 1, True),
    ]
    await service.lobby.unseat(table, table.seats[1])
    assert pairs_of(table) == [[ALEX, PETYA], []]
    assert not any(s.asks_swap for s in await storage.get_seats(table.id))


async def test_the_deal_seats_the_pairs_chosen_opposite_in_the_order_they_sat_down(
    service: TableService, storage: Storage
) -> None:
    table = await partners(service, storage)
    await service.lobby.add_computer(table)
    await service.lobby.add_computer(table, "easy")
    assert [(s.user_id or s.ai, s.side) for s in table.seats] == [
        (MASHA, 0),
        (ALEX, 0),
        ("normal", 1),
        ("easy", 1),
    ]
    await service.player.start(table)
    dealt = [(s.seat, s.user_id or s.ai, s.side) for s in table.seats]
    assert dealt == [(0, MASHA, 0), (1, "normal", 1), (2, ALEX, 0), (3, "easy", 1)]
    stored = await storage.get_seats(table.id)
    assert [(s.seat, s.user_id or s.ai, s.side) for s in stored] == dealt
    assert table.match is not None and table.side_name(0, "en") == "Masha and Alex"


async def test_switching_pairs_on_or_off_sides_the_seats_by_their_numbers(
    service: TableService, storage: Storage
) -> None:
    table = await partners(service, storage)
    await service.lobby.change_setting(table, "pairs", False)
    assert [s.side for s in table.seats] == [0, 1]
    await service.lobby.add_computer(table)
    await service.lobby.change_setting(table, "pairs", True)
    assert pairs_of(table) == [[MASHA, "normal"], [ALEX]]
    assert [s.side for s in await storage.get_seats(table.id)] == [0, 1, 0]


async def test_play_again_finds_the_pair_each_person_played_in(
    service: TableService, storage: Storage
) -> None:
    table = await partners(service, storage)
    await service.lobby.add_computer(table)
    await service.lobby.join(table, OLYA)
    await service.player.start(table)
    played = table.row
    assert (await service.lobby.replay(played, ALEX)).side == 0
    assert (await service.lobby.replay(played, OLYA)).side == 1
    assert (await service.lobby.replay(played, PETYA)).side is None


async def test_play_again_leaves_out_a_computer_that_stood_in_for_one_who_left(
    service: TableService, storage: Storage
) -> None:
    table = await partners(service, storage)
    await service.lobby.add_computer(table, "easy")
    await service.lobby.join(table, OLYA)
    await service.player.start(table)
    await service.lobby.leave(table, OLYA)
    replay = await service.lobby.replay(table.row, ALEX)
    assert [(s.ai, s.side, s.computer) for s in replay.computers] == [("easy", 1, 2)]
