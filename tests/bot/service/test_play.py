"""Play: the deal, moves committed before anyone hears of them, the match recorded at its end."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.service import Refusal, TableService
from bot.service.thinking import Thinker
from engine import DRAW, KNOCK, Action, Event, Lay, Match, Play, Reopen
from engine.events import MatchEnded
from storage import Storage

from .conftest import ALEX, GROUP, MASHA, YARD, donkey_with_reopen, lobby_of, playing


async def test_computers_alone_do_not_play(service: TableService) -> None:
    table = await service.lobby.open_table(YARD, MASHA, "en")
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
    assert await service.store.active_table(YARD) is None
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


class Recording(Thinker):
    """Thinks in this process and notes which level each seat was played at."""

    def __init__(self) -> None:
        super().__init__(0)
        self.levels: dict[int, str] = {}

    async def choose(self, level: str, match: Match, seat: int, events: Sequence[Event]) -> Action:
        self.levels[seat] = level
        return await super().choose(level, match, seat, events)


async def test_each_computer_plays_at_its_own_level_and_an_absent_person_at_the_tables(
    service: TableService,
) -> None:
    table = await lobby_of(service, level="easy")
    await service.lobby.change_setting(table, "computer_level", "strong")
    await service.player.start(table)
    service.close()
    thinker = service.player.thinker = Recording()
    table.seats[0].absent = True  # Masha is away: the computer plays for her
    while len(thinker.levels) < 2:
        await service.player.computer_move(table)
    assert thinker.levels == {0: "strong", 1: "easy"}


async def test_a_person_who_may_reopen_a_double_chooses_before_anything_is_drawn(
    service: TableService,
) -> None:
    """Donkey with ``donkey_reopen`` (RULES.md §3.3): a player may reopen a double he closed at
    the start of his turn, before he draws. With nothing that fits he has a choice (reopen, or
    draw), so the bot must not draw or knock for him; it did, and the reopen was lost."""
    table = await donkey_with_reopen(service)
    match = table.match
    assert match is not None
    actions: list[Action] = []
    while not match.is_over:  # both close a double whenever they can, else play
        seat = table.seats[match.current_seat or 0]
        actions = match.legal_actions(seat.seat)
        moves = [a for a in actions if isinstance(a, Play | Lay)]
        if not moves:
            break
        closing = [a for a in moves if isinstance(a, Lay) and any(p.closed for p in a.placements)]
        await service.player.act(table, seat, (closing or moves)[0])
    assert any(isinstance(a, Reopen) for a in actions), "nobody was left to reopen a double"
    assert DRAW in actions or KNOCK in actions
    # and once he has reopened it, what follows with no choice follows
    seat = table.seats[match.current_seat or 0]
    reopen = next(a for a in actions if isinstance(a, Reopen))
    await service.player.act(table, seat, reopen)
    after = match.legal_actions(seat.seat) if match.current_seat == seat.seat else []
    assert not after or any(isinstance(a, Play | Reopen) for a in after)


async def test_every_bulgarian_round_is_led_for_the_person_who_leads_it(
    service: TableService, storage: Storage
) -> None:
    """RULES.md §3.8: "The first tile is placed automatically and ends that player's turn",
    every round: the round a move ends deals the next, and its lead is placed with it."""
    table = await lobby_of(service, computers=0)
    await service.lobby.join(table, ALEX)
    await service.lobby.change_game(table, "bulgarian_fives")
    await service.player.start(table)
    match = table.match
    assert match is not None
    while match.rounds_played < 2 and not match.is_over:
        seat = match.current_seat
        assert seat is not None
        move = next(a for a in match.legal_actions(seat) if isinstance(a, Play))
        await service.player.act(table, table.seats[seat], move)
    log = await storage.load_events(table.id)
    dealt = [n for n, event in enumerate(log) if event["type"] == "round_started"]
    assert len(dealt) >= 2 or match.is_over
    leads = [(e["type"], e["seat"]) for n in dealt for e in log[n + 1 : n + 2]]
    assert leads == [("played", log[n]["leader"]) for n in dealt]
