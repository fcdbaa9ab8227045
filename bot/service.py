"""Table operations: the only path from a person's intent to the engine and the database.

Every method is called with the table's lock held (``TableService.lock``), so a table sees one
change at a time; events are committed before anyone is told about them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import Sequence
from typing import Any

from engine import DRAW, KNOCK, Action, Event, Match, Play, RuleSet, event_from_dict, replay
from engine.ai import PLAYERS
from engine.events import MatchEnded, RoundEnded
from engine.scoring.rating import rating_delta, timeout_rating_delta
from storage import CorruptData, EndedBy, PlayerResult, SeatRow, Storage, TableRow

from .i18n import language_for, t
from .settings import Settings
from .table import Seat, Table

log = logging.getLogger(__name__)
COMPUTER_NAME_COUNT = 4  # the catalogs name computer players computer.0 … computer.3
DEFAULT_AI = "greedy"


class Refusal(Exception):
    """A polite no: ``key`` names the message that explains it; nothing was changed."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


class DamagedTable(Exception):
    """A table whose stored game cannot be rebuilt (a damaged event log or snapshot): it cannot
    go on, but its opener or an admin may close it so that the chat can play again."""

    def __init__(self, row: TableRow) -> None:
        super().__init__(f"table {row.table_id} cannot be rebuilt from its stored events")
        self.row = row


class TableService:
    def __init__(self, storage: Storage, settings: Settings, rng: random.Random | None = None):
        self.storage = storage
        self.settings = settings
        self.rng = rng or random.SystemRandom()
        self._tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, chat_id: int) -> asyncio.Lock:
        """One lock per group chat: updates, timers and computer moves of a table take turns."""
        lock = self._locks.get(chat_id)
        if lock is None:
            lock = self._locks[chat_id] = asyncio.Lock()
        return lock

    # --- loading ------------------------------------------------------------------------------

    async def chat_language(self, chat_id: int) -> str:
        chat = await self.storage.get_chat(chat_id)
        if chat is not None and chat.language:
            return chat.language
        return self.settings.default_language

    async def user_language(self, user_id: int, fallback: str | None = None) -> str:
        user = await self.storage.get_user(user_id)
        code = user.language if user is not None else None
        return language_for(code, fallback or self.settings.default_language)

    async def active_table(self, chat_id: int) -> Table | None:
        row = await self.storage.get_active_table(chat_id)
        return None if row is None else await self._load(row)

    async def table(self, table_id: int) -> Table | None:
        cached = self._tables.get(table_id)
        if cached is not None:
            return cached
        row = await self.storage.get_table(table_id)
        return None if row is None else await self._load(row)

    async def _load(self, row: TableRow) -> Table:
        cached = self._tables.get(row.table_id)
        if cached is not None and cached.status == row.status:
            return cached
        language = await self.chat_language(row.chat_id)
        rows = await self.storage.get_seats(row.table_id)
        seats = [await self._seat(s, language) for s in rows]
        table = Table(
            id=row.table_id,
            chat_id=row.chat_id,
            status=row.status,
            opener_id=row.opener_id,
            rules=RuleSet.from_dict(dict(row.rules)),
            players=row.players,
            pairs=row.pairs,
            language=language,
            turn_seconds=row.turn_seconds or self.settings.turn_seconds,
            seats=sorted(seats, key=lambda s: s.seat),
            seq=row.last_seq,
            announced_seq=row.announced_seq,
            lobby_message_id=row.lobby_message_id,
            board_message_id=row.board_message_id,
            turn_deadline=row.turn_deadline,
        )
        if row.last_seq:
            try:
                table.match = await self._restore_match(row.table_id, row.last_seq)
            except (CorruptData, ValueError) as exc:  # ValueError: a log the engine refuses
                log.error(
                    "table %s cannot be rebuilt from its events: %s",
                    row.table_id,
                    exc,
                    extra={"table": row.table_id, "chat": row.chat_id},
                )
                raise DamagedTable(row) from exc
            upgraded = table.match.upgrade()  # rules_upgraded, if a newer revision allows it
            if upgraded:
                await self._commit(table, upgraded)
            self._mark_live(table)
        if row.is_active:
            self._tables[row.table_id] = table
        return table

    async def _restore_match(self, table_id: int, last_seq: int) -> Match:
        """The snapshot, checked against a replay of the committed events."""
        events = await self.storage.load_events(table_id)
        snapshot = await self.storage.load_snapshot(table_id)
        match = replay(events)
        if snapshot is not None:
            seq, state = snapshot
            if seq != last_seq or state != match.to_json():
                log.error(
                    "table %s: snapshot disagrees with its events; using the events", table_id
                )
        return match

    async def round_events(self, table: Table) -> list[Event]:
        """The committed events of the latest round, from its deal: after a restart, what the
        board and the hands had shown of it, or the end of a match nobody was told about."""
        rows = await self.storage.load_events(table.id)
        dealt = [i for i, row in enumerate(rows) if row.get("type") == "round_started"]
        return [event_from_dict(row) for row in rows[dealt[-1] if dealt else 0 :]]

    async def unannounced(self, table: Table) -> list[RoundEnded | MatchEnded]:
        """Round results and goats committed but never announced: the bot stopped between."""
        if table.announced_seq >= table.seq:
            return []
        rows = await self.storage.load_events(table.id, after_seq=table.announced_seq)
        events = (event_from_dict(row) for row in rows)
        return [e for e in events if isinstance(e, RoundEnded | MatchEnded)]

    async def mark_announced(self, table: Table) -> None:
        """Every result up to the last committed event has been announced."""
        if table.announced_seq != table.seq:
            await self.storage.update_table(table.id, announced_seq=table.seq)
            table.announced_seq = table.seq

    async def record_unrecorded(self, table: Table) -> None:
        """Record the result of a match whose end was committed but not recorded, because the
        bot stopped in between (``_commit`` commits, then records)."""
        assert table.match is not None and table.match.is_over and table.status == "playing"
        await self._record(table)

    @staticmethod
    def _mark_live(table: Table) -> None:
        """After a restart: only live keyboards keep their message id (the presenter forgets a
        hand that became a record), so a stored id is a live hand, whoever's turn it is now."""
        for seat in table.seats:
            seat.live = seat.hand_message_id is not None

    async def _seat(self, row: SeatRow, table_language: str) -> Seat:
        """A seat as the table shows it: a computer player goes by a name in the table's
        language (Cyrillic in a Russian or Ukrainian group)."""
        if row.user_id is None:
            name = computer_name(table_language, row.seat)
            language = table_language
        else:
            name = row.display_name or str(row.user_id)
            language = await self.user_language(row.user_id)
        return Seat(
            seat=row.seat,
            user_id=row.user_id,
            name=name,
            ai=row.ai,
            language=language,
            hand_message_id=row.hand_message_id,
            missed_turns=row.missed_turns,
            absent=row.absent,
        )

    async def set_language(self, chat_id: int, lang: str) -> None:
        await self.storage.set_chat_language(chat_id, lang)
        for table in self._tables.values():
            if table.chat_id == chat_id:
                table.language = lang
                for seat in table.seats:
                    if seat.user_id is None:
                        seat.name = computer_name(lang, seat.seat)

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """Follow a group to its new supergroup id, with its tables and standings.

        Called with the old chat's lock held; the table keeps that lock object under its new id."""
        await self.storage.migrate_chat(old_id, new_id)
        if old_id in self._locks:
            self._locks.setdefault(new_id, self._locks[old_id])
        for table in self._tables.values():
            if table.chat_id == old_id:
                table.chat_id = new_id

    def forget(self, table: Table) -> None:
        self._tables.pop(table.id, None)

    # --- the lobby -------------------------------------------------------------------------

    async def open_table(self, chat_id: int, opener_id: int, opener_language: str | None) -> Table:
        """A new lobby. A group that never chose a language takes the opener's Telegram
        language (``opener_language``), kept from then on, rather than the bot's default."""
        if await self.storage.get_active_table(chat_id) is not None:
            raise Refusal("err.table_exists")
        chat = await self.storage.get_chat(chat_id)
        if chat is not None and chat.language is None:
            language = language_for(opener_language, self.settings.default_language)
            await self.storage.set_chat_language(chat_id, language)
        row = await self.storage.create_table(
            chat_id,
            opener_id,
            rules=RuleSet().to_dict(),
            turn_seconds=self.settings.turn_seconds,
        )
        log.info("table opened", extra={"table": row.table_id, "chat": chat_id})
        return await self._load(row)

    async def join(self, table: Table, user_id: int) -> Seat:
        if table.status != "lobby":
            raise Refusal("err.already_started")
        if table.seat_of(user_id) is not None:
            raise Refusal("err.already_joined")
        if table.is_full:
            raise Refusal("err.table_full")
        seat_no = len(table.seats)
        await self.storage.add_seat(
            table.id, seat_no, side=self._side(table, seat_no), user_id=user_id
        )
        await self._reseat(table)
        return table.seats[seat_no]

    async def add_computer(self, table: Table) -> Seat:
        if table.status != "lobby":
            raise Refusal("err.already_started")
        if table.is_full:
            raise Refusal("err.table_full")
        seat_no = len(table.seats)
        await self.storage.add_seat(
            table.id, seat_no, side=self._side(table, seat_no), ai=DEFAULT_AI
        )
        await self._reseat(table)
        return table.seats[seat_no]

    async def _reseat(self, table: Table) -> None:
        """Read the lobby's seats back from storage after one was added or removed."""
        rows = await self.storage.get_seats(table.id)
        seats = [await self._seat(r, table.language) for r in rows]
        table.seats = sorted(seats, key=lambda s: s.seat)

    @staticmethod
    def _side(table: Table, seat: int) -> int:
        return seat % 2 if table.pairs else seat

    async def leave(self, table: Table, user_id: int) -> Seat:
        """A person leaves the table (``unseat``); returns their seat as it was."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refusal("err.not_joined")
        return await self.unseat(table, seat)

    async def unseat(self, table: Table, seat: Seat) -> Seat:
        """Clear a seat: in the lobby it goes (a person's or a computer's); during a match a
        computer player takes a person's seat over for good. Returns the seat as it was."""
        if table.status == "lobby":
            await self._remove_seat(table, seat.seat)
            return seat
        if table.status != "playing":
            raise Refusal("err.game_over")
        if seat.user_id is None:
            raise Refusal("err.computer_seat", number=seat.seat + 1)
        gone = dataclasses.replace(seat)
        await self.storage.update_seat(
            table.id, seat.seat, user_id=None, ai=DEFAULT_AI, absent=False, hand_message_id=None
        )
        replacement = await self._seat(
            next(r for r in await self.storage.get_seats(table.id) if r.seat == seat.seat),
            table.language,
        )
        table.seats[seat.seat] = replacement
        return gone

    async def _remove_seat(self, table: Table, seat_no: int) -> None:
        """Remove a lobby seat and close the gap, so seats stay 0..n-1 in joining order."""
        rest = [s for s in table.seats if s.seat != seat_no]
        for seat in table.seats[seat_no:]:
            await self.storage.remove_seat(table.id, seat.seat)
        for index, seat in enumerate(rest):
            if index >= seat_no:
                await self.storage.add_seat(
                    table.id, index, side=self._side(table, index), user_id=seat.user_id, ai=seat.ai
                )
        await self._reseat(table)

    async def change_setting(self, table: Table, name: str, value: Any) -> None:
        if table.status != "lobby":
            raise Refusal("err.already_started")
        if name == "players":
            if value < len(table.seats):
                raise Refusal("err.too_many_seated", count=len(table.seats))
            pairs = table.pairs and value == 4
            await self.storage.update_table(table.id, players=value, pairs=pairs)
            table.players, table.pairs = value, pairs
        elif name == "pairs":
            players = 4 if value else table.players
            await self.storage.update_table(table.id, pairs=value, players=players)
            table.pairs, table.players = value, players
            for seat in table.seats:
                await self.storage.update_seat(
                    table.id, seat.seat, side=self._side(table, seat.seat)
                )
        elif name == "turn_seconds":
            await self.storage.update_table(table.id, turn_seconds=value)
            table.turn_seconds = value
        else:
            rules = table.rules.with_options(**{name: value})
            await self.storage.update_table(table.id, rules=rules.to_dict())
            table.rules = rules

    async def close_damaged(self, row: TableRow) -> None:
        """Close a table that cannot be rebuilt; its events stay in the database to inspect."""
        await self.storage.update_table(row.table_id, status="cancelled")
        self._tables.pop(row.table_id, None)
        log.warning("damaged table closed", extra={"table": row.table_id, "chat": row.chat_id})

    async def cancel(self, table: Table) -> None:
        await self.storage.update_table(table.id, status="cancelled")
        table.status = "cancelled"
        self.forget(table)
        log.info("table cancelled", extra={"table": table.id, "chat": table.chat_id})

    # --- playing ----------------------------------------------------------------------------

    async def start(self, table: Table) -> list[Event]:
        """Deal. Someone must be there to play: computers alone would play to the goat in
        the group, and be recorded, with nobody watching."""
        if table.status != "lobby":
            raise Refusal("err.already_started")
        if not any(seat.is_human for seat in table.seats):
            raise Refusal("err.nobody_seated")
        if len(table.seats) < table.players:
            raise Refusal("err.not_enough_players", count=len(table.seats), wanted=table.players)
        match, events = Match.new(
            table.players, table.pairs, table.rules, self.rng.randrange(2**31)
        )
        table.match = match
        table.status = "playing"
        await self.storage.update_table(table.id, status="playing")
        events += self._automatic(table)
        await self._commit(table, events)
        log.info(
            "match started",
            extra={"table": table.id, "chat": table.chat_id, "players": table.players},
        )
        return events

    async def act(self, table: Table, seat: Seat, action: Action) -> list[Event]:
        """A person's action, then whatever follows with no choice (drawing, knocking)."""
        match = table.match
        assert match is not None
        events = self._act(table, seat.seat, action)
        await self._commit(table, events)
        return events

    async def computer_move(self, table: Table, *, timed_out: bool = False) -> list[Event]:
        """The computer plays the current seat: a computer player, a person who is away, or
        (``timed_out``) a person whose time ran out."""
        match = table.match
        if match is None or match.is_over:
            return []
        seat = table.seats[match.current_seat or 0]
        if not (seat.computer_plays or timed_out):
            return []
        player = PLAYERS.get(seat.ai or DEFAULT_AI, PLAYERS[DEFAULT_AI])
        events = self._act(table, seat.seat, player(match, seat.seat, self.rng))
        await self._commit(table, events)
        return events

    def _act(self, table: Table, seat: int, action: Action) -> list[Event]:
        """Act, then follow with what needs no choice; keeps a round that ended for its board."""
        match = table.match
        assert match is not None
        before = match.round
        events = match.act(seat, action)
        events += self._automatic(table)
        if before is not None and before.outcome is not None:
            table.finished_round = before
        return events

    def _automatic(self, table: Table) -> list[Event]:
        """Draw and knock for a person when the rules leave no choice (§1.5, §2.4)."""
        match = table.match
        assert match is not None
        events: list[Event] = []
        while not match.is_over:
            seat = match.current_seat
            assert seat is not None
            if table.seats[seat].computer_plays:
                break
            actions = match.legal_actions(seat)
            if any(isinstance(a, Play) for a in actions):
                break
            events += match.act(seat, DRAW if DRAW in actions else KNOCK)
        return events

    async def _commit(self, table: Table, events: Sequence[Event]) -> None:
        match = table.match
        assert match is not None
        try:
            table.seq = await self.storage.append_events(
                table.id, table.seq, [e.to_dict() for e in events], match.to_json()
            )
        except Exception:
            self.forget(table)  # memory ran ahead of the database: reload on next use
            raise
        for event in events:
            if isinstance(event, RoundEnded):
                log.info(
                    "round ended",
                    extra={
                        "table": table.id,
                        "round": event.round,
                        "result": event.result,
                        "scores": event.scores,
                    },
                )
        if match.is_over:
            await self._record(table)

    async def _record(self, table: Table) -> None:
        match = table.match
        assert match is not None
        ended: EndedBy = "timeout" if match.ended_by == "timeout" else "goat"
        scores = match.tally.scores
        best = min(scores)
        # RULES.md §2.11: everyone who dropped out by timeout gets no rating; the others are
        # rated against the score of the player whose timeout ended the match (``abandon``,
        # marked away or not: an idle match closed by the expiry sweep has nobody marked away)
        dropped = {s.seat for s in table.seats if s.absent and s.is_human}
        last = table.timed_out_seat
        if last is None and dropped:
            last = min(dropped)
        if last is not None:
            dropped.add(last)
        results = []
        for seat in table.seats:
            side = match.side_of(seat.seat)
            score = scores[side]
            if ended != "timeout":
                delta = rating_delta(score)
            elif last is None or seat.seat in dropped:
                delta = 0
            else:
                delta = timeout_rating_delta(scores[match.side_of(last)], score)
            results.append(
                PlayerResult(
                    user_id=seat.user_id,
                    seat=seat.seat,
                    side=side,
                    score=score,
                    is_goat=side in match.losers,
                    is_winner=score == best and side not in match.losers,
                    rating_delta=delta,
                )
            )
        await self.storage.record_match(table.id, ended, match.rounds_played, results)
        table.status = "finished"
        self.forget(table)
        log.info(
            "match ended",
            extra={
                "table": table.id,
                "chat": table.chat_id,
                "ended_by": ended,
                "rounds": match.rounds_played,
                "scores": scores,
                "goats": match.losers,
            },
        )

    async def timeout(self, table: Table, seat: Seat) -> list[Event]:
        """The turn's time ran out: the computer plays it; too many in a row and the player is
        marked away, so the computer keeps the seat until they tap again. When every person at
        the table is away, nobody is playing any more: the match ends by timeout."""
        seat.missed_turns += 1
        seat.absent = seat.missed_turns >= self.settings.missed_turns_absent
        await self.storage.update_seat(
            table.id, seat.seat, missed_turns=seat.missed_turns, absent=seat.absent
        )
        if all(s.absent for s in table.seats if s.is_human):
            return await self.abandon(table, seat)
        return await self.computer_move(table, timed_out=True)

    async def abandon(self, table: Table, seat: Seat) -> list[Event]:
        """End the match because ``seat`` stopped playing (RULES.md §2.11 timeout rating)."""
        match = table.match
        assert match is not None
        table.timed_out_seat = seat.seat
        events = match.abandon(seat.seat)
        await self._commit(table, events)
        return events

    async def expired(self, now: float) -> list[tuple[Table, str]]:
        """Tables nobody started or nobody plays any more, with why: "lobby" or "idle"."""
        found: list[tuple[Table, str]] = []
        lobby_age = self.settings.lobby_expiry_minutes * 60
        idle_age = self.settings.idle_expiry_minutes * 60
        for row in await self.storage.list_tables():
            if row.status == "lobby" and now - row.updated_at > lobby_age:
                found.append((await self._load(row), "lobby"))
            elif row.status == "playing" and now - row.updated_at > idle_age:
                found.append((await self._load(row), "idle"))
        return found

    async def played_in_person(self, table: Table, seat: Seat) -> None:
        """A tap from the player: they are here, whatever the timer said before."""
        if seat.missed_turns or seat.absent:
            await self.set_absent(table, seat, False)

    async def set_deadline(self, table: Table, deadline: float | None) -> None:
        if table.turn_deadline != deadline:
            table.turn_deadline = deadline
            await self.storage.update_table(table.id, turn_deadline=deadline)

    async def set_absent(self, table: Table, seat: Seat, absent: bool) -> None:
        """An absent player's turns are played by the computer until they tap again."""
        seat.absent = absent
        seat.missed_turns = 0
        await self.storage.update_seat(table.id, seat.seat, absent=absent, missed_turns=0)

    async def remember_board(self, table: Table, message_id: int) -> None:
        """Store the board message's id so a restart can keep editing it."""
        await self.storage.update_table(table.id, board_message_id=message_id)
        table.board_message_id = message_id

    async def remember_lobby(self, table: Table, message_id: int) -> None:
        await self.storage.update_table(table.id, lobby_message_id=message_id)
        table.lobby_message_id = message_id

    async def remember_hand(self, table: Table, seat: Seat, message_id: int | None) -> None:
        seat.hand_message_id = message_id
        await self.storage.update_seat(table.id, seat.seat, hand_message_id=message_id)


def computer_name(lang: str, seat: int) -> str:
    return str(t(lang, f"computer.{seat % COMPUTER_NAME_COUNT}"))


def ended_match(events: Sequence[Event]) -> MatchEnded | None:
    return next((e for e in events if isinstance(e, MatchEnded)), None)
