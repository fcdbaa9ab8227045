"""A Sport domino or General's Goat match that a timeout ended is won by the pair that did not
time out, as the scoring games' timeouts are and as these games' own ends name a winner: it counts
among their wins in /stats, /top and /history. It once named no winner, and the pair that played
on was recorded as winning only when it happened to be ahead."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from bot.render.history import history_text
from bot.render.results import match_result_text
from bot.render.standings import record_text
from bot.service import TableService
from bot.table import Table
from engine import Match
from engine.ai import greedy_player
from engine.events import MatchEnded
from engine.rules import PRESETS
from storage import Storage

from .conftest import ALEX, GROUP, MASHA, YARD


async def pairs_of(service: TableService, game: str) -> Table:
    """Masha and a computer against Alex and a computer, dealt ``game``."""
    table = await service.lobby.open_table(YARD, MASHA, "en")
    await service.lobby.change_setting(table, "computer_level", "normal")
    await service.lobby.change_setting(table, "players", 4)
    await service.lobby.change_setting(table, "pairs", True)
    await service.lobby.change_game(table, game)
    await service.lobby.join(table, MASHA, side=0)
    await service.lobby.join(table, ALEX, side=1)
    for side in (0, 1):
        await service.lobby.add_computer(table, side=side)
    await service.player.start(table)
    return table


async def one_pair_ahead(service: TableService, table: Table) -> tuple[int, int]:
    """Every seat plays its first legal move until a round's end leaves one pair ahead (fewer
    points, fewer rounds lost); returns the person of that pair, then the other one."""
    match = table.match
    assert match is not None
    while len(set(match.tally.scores)) == 1:
        assert not match.is_over
        seat = table.seats[match.current_seat or 0]
        await service.player.act(table, seat, match.legal_actions(seat.seat)[0])
    assert not match.is_over
    ahead = match.tally.scores.index(min(match.tally.scores))
    (person,) = [s.user_id for s in table.seats if s.user_id and match.side_of(s.seat) == ahead]
    (other,) = [s.user_id for s in table.seats if s.user_id and s.user_id != person]
    return person, other


@pytest.mark.parametrize("game", ["sport", "generals_goat"])
async def test_the_pair_that_did_not_time_out_wins_in_stats_and_history(
    service: TableService, storage: Storage, game: str
) -> None:
    """The pair ahead times out: the other one, behind, is recorded as the winner."""
    table = await pairs_of(service, game)
    timed_out, played_on = await one_pair_ahead(service, table)
    seat = next(seat for seat in table.seats if seat.user_id == timed_out)
    await service.timeouts.abandon(table, seat)
    assert table.status == "finished"

    (last,) = await storage.recent_matches(played_on, limit=1)
    (theirs,) = await storage.recent_matches(timed_out, limit=1)
    assert (last.game, last.ended_by) == (game, "timeout")
    assert (last.outcome, theirs.outcome) == ("won", "lost")  # once "none" and "lost"
    record = await storage.user_record(played_on)
    assert [(g.game, g.matches, g.wins) for g in record.games] == [(game, 1, 1)]
    stats = record_text("en", record, [last], dt.UTC)
    assert "wins: 1" in stats and "🏆" in stats
    (standing,) = await storage.chat_standings(GROUP, "wins", limit=1, game=game)
    assert (standing.user_id, standing.wins) == (played_on, 1)
    history = history_text("en", await storage.chat_history(GROUP), str, dt.UTC)
    (line,) = [line for line in history.splitlines() if "ended early" in line]
    # "Masha and 2 34 🏆 · Alex and 3 0 ⏰": the pair that played on is marked the winner, the
    # one that timed out with ⏰, where nothing marked the former
    names = {MASHA: "Masha", ALEX: "Alex"}
    (won,) = [side for side in line.split(" · ") if "🏆" in side]
    (lost,) = [side for side in line.split(" · ") if "⏰" in side]
    assert names[played_on] in won and names[timed_out] in lost


@pytest.mark.parametrize("game", ["sport", "generals_goat"])
async def test_a_timeout_stored_before_revision_7_loads_and_is_recorded_as_it_was(
    service: TableService, storage: Storage, game: str
) -> None:
    """A match that a timeout ended under revision 6, committed without winners (the bot stopped
    before recording it): its log replays as written, and it is recorded as it would have been
    then; the texts of its end read the same, its lost rounds said as rounds."""
    row = await storage.create_table(GROUP, MASHA, game=game, players=4, pairs=True)
    for seat, user in enumerate((MASHA, ALEX)):
        await storage.add_seat(row.table_id, seat, side=seat, user_id=user)
    for seat in (2, 3):
        await storage.add_seat(row.table_id, seat, side=seat % 2, ai="greedy")
    await storage.update_table(row.table_id, status="playing")
    match, events = Match.new(4, True, PRESETS[game]().under(6), seed=5)
    rng = random.Random(5)
    while len(set(match.tally.scores)) == 1:
        on_turn = match.current_seat
        assert on_turn is not None
        events += match.act(on_turn, greedy_player(match, on_turn, rng))
    ahead = match.tally.scores.index(min(match.tally.scores))  # Masha's pair or Alex's
    events += match.abandon(ahead)
    assert events[-1].to_dict().get("winners", "none") == "none"
    await storage.append_events(row.table_id, 0, [e.to_dict() for e in events], match.to_json())

    stored = await storage.get_table(row.table_id)
    assert stored is not None
    table = await service.store.load(stored)
    assert table.match is not None and table.seq == len(events)  # nothing appended
    assert table.match.to_json() == match.to_json() and table.match.winners == []
    *_, ended = await service.store.unannounced(table)
    assert isinstance(ended, MatchEnded) and ended.winners is None
    said = match_result_text(table, ended)
    assert said.startswith("The match ended early:")
    assert ("🎖 Generals: 0" in said) == (game == "generals_goat")  # not "Masha and 2: 0"
    await service.finisher.record_unrecorded(table)
    played_on = ALEX if ahead == 0 else MASHA
    (last,) = await storage.recent_matches(played_on, limit=1)
    assert last.outcome == "none"  # judged as then: the pair behind, no winner named
