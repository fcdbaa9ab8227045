"""The tables in memory: loaded from storage once, kept while active, one lock per group chat.

The lock is the chat's, not the table's, though a forum holds a table per topic: a chat's
updates come in order anyway (``PerChatOrder``), its topics share one budget of messages a
minute, a language change or a move to a supergroup touches all of its tables at once, and
what runs under the lock is a commit and a few calls to Telegram, so the topics of one group
take turns in milliseconds, while different groups never wait for each other."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Collection, Iterable, Sequence

from telegram import User

from engine import Event, Match, event_from_dict, replay
from engine.events import MatchEnded, RoundEnded, RoundStarted
from storage import ChatRow, CorruptData, SeatRow, Storage, TableRow, TableStatus, UserRow

from ..i18n import LANGUAGES, language_for, t
from ..place import Place
from ..settings import Settings
from ..table import Seat, Table
from .errors import DamagedTable

log = logging.getLogger(__name__)


class TableStore:
    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self._tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def lock(self, chat_id: int) -> asyncio.Lock:
        """One lock per group chat: updates, timers and computer moves of a table take turns."""
        lock = self._locks.get(chat_id)
        if lock is None:
            lock = self._locks[chat_id] = asyncio.Lock()
        return lock

    async def group_language(self, chat_id: int) -> str | None:
        """The language the group chose, or took from its first table's opener; None before
        either (its /language buttons mark none)."""
        return _group_language(await self.storage.get_chat(chat_id))

    def _language_of(self, chat: ChatRow | None) -> str:
        return _group_language(chat) or self.settings.default_language

    async def user_language(self, user: User | int, otherwise: str | None = None) -> str:
        """A person's own language, which whatever the bot writes to them alone speaks (their
        DMs, the answers to their taps in a group): the one they chose (/language in the DM);
        else their Telegram app's, as an update's ``user`` says it now (by id: as last seen);
        else ``otherwise`` (a group's, which they read there), else the bot's."""
        user_id = user if isinstance(user, int) else user.id
        row = await self.storage.get_user(user_id)
        chosen = _chosen(row)
        if chosen is not None:
            return chosen
        if isinstance(user, int):
            app = row.language if row is not None else None
        else:
            app = user.language_code
        return language_for(app, otherwise or self.settings.default_language)

    async def chosen_language(self, user_id: int) -> str | None:
        """The language the person chose in the DM; None while they follow their app's."""
        return _chosen(await self.storage.get_user(user_id))

    async def choose_language(self, user_id: int, lang: str | None) -> None:
        """A person chose ``lang`` to be written to in (None: their app's again): their seats
        at the tables in memory speak it from their next hand and reminder on."""
        await self.storage.set_user_language(user_id, lang)
        language = await self.user_language(user_id)
        for table in self._tables.values():
            seat = table.seat_of(user_id)
            if seat is not None:
                seat.language = language

    async def active_table(self, place: Place) -> Table | None:
        row = await self.storage.get_active_table(place.chat_id, place.thread_id)
        return None if row is None else await self.load(row)

    async def active_tables(self, chat_id: int) -> list[Table]:
        """Every active table of the chat (in a forum, one per topic) but a damaged one."""
        return await self.loadable(await self.storage.chat_active_tables(chat_id))

    async def tables(
        self,
        status: TableStatus | Collection[TableStatus],
        *,
        unannounced: bool = False,
        with_lobby: bool = False,
    ) -> list[Table]:
        """Every table in ``status``, or in any of several, oldest first (``unannounced``: whose
        results the group was not told yet; ``with_lobby``: whose lobby message still shows its
        buttons) but a damaged one."""
        rows = await self.storage.list_tables(
            status=status, unannounced=unannounced, with_lobby=with_lobby
        )
        return await self.loadable(rows)

    async def loadable(self, rows: Iterable[TableRow]) -> list[Table]:
        """The tables of ``rows`` but a damaged one, which nobody can play: it was logged as it
        failed to load, and /cancel closes it; the others go on all the same."""
        tables = []
        for row in rows:
            try:
                tables.append(await self.load(row))
            except DamagedTable:
                continue
        return tables

    async def table(self, table_id: int) -> Table | None:
        cached = self._tables.get(table_id)
        if cached is not None:
            return cached
        row = await self.storage.get_table(table_id)
        return None if row is None else await self.load(row)

    async def load(self, row: TableRow) -> Table:
        """The table of ``row``, from memory if it is there, else rebuilt from its events."""
        cached = self._tables.get(row.table_id)
        if cached is not None and cached.status == row.status:
            return cached
        if row.status == "playing" and not row.last_seq:
            # marked as playing, then the deal was never committed (the bot died or the write
            # failed in between): nothing was dealt or shown, so its lobby is as it was
            log.warning("table %s started without a deal: back to its lobby", row.table_id)
            row = await self.storage.update_table(row.table_id, status="lobby")
        if row.turn_seconds is None:  # a table from before turns had their own length
            row = await self.storage.update_table(
                row.table_id, turn_seconds=self.settings.turn_seconds
            )
        chat = await self.storage.get_chat(row.chat_id)
        language = self._language_of(chat)
        table = Table(row, language, await self.seats(row.table_id, language))
        table.chat_title = chat.title if chat is not None else ""
        if row.thread_id is not None:
            table.topic_name = await self.storage.topic_name(row.chat_id, row.thread_id)
        if row.last_seq:
            try:
                table.match, events = await self._restore_match(row.table_id, row.last_seq)
            except (CorruptData, ValueError) as exc:  # ValueError: a log the engine refuses
                log.error(
                    "table %s cannot be rebuilt from its events: %s",
                    row.table_id,
                    exc,
                    extra={"table": row.table_id, "chat": row.chat_id},
                )
                raise DamagedTable(row) from exc
            table.round_events = latest_round(events)
            table.round_ends = round_ends(events)
            upgraded = table.match.upgrade()  # rules_upgraded, if a newer revision allows it
            if upgraded:
                await self.append(table, upgraded)
            self._mark_live(table)
        if row.is_active:
            self._tables[row.table_id] = table
        return table

    async def append(self, table: Table, events: Sequence[Event]) -> None:
        """Append ``events`` and the state after them to the table's log, in one transaction."""
        match = table.match
        assert match is not None
        try:
            seq = await self.storage.append_events(
                table.id, table.seq, [e.to_dict() for e in events], match.to_json()
            )
        except Exception:
            self.forget(table.id)  # memory ran ahead of the database: reload on next use
            raise
        table.row = dataclasses.replace(table.row, last_seq=seq)
        table.round_events = latest_round([*table.round_events, *events])
        table.round_ends += round_ends(events)

    async def _restore_match(self, table_id: int, last_seq: int) -> tuple[Match, list[Event]]:
        """The snapshot, checked against a replay of the committed events; and the events."""
        rows = await self.storage.load_events(table_id)
        snapshot = await self.storage.load_snapshot(table_id)
        match = replay(rows)
        if snapshot is not None:
            seq, state = snapshot
            if seq != last_seq or state != match.to_json():
                log.error(
                    "table %s: snapshot disagrees with its events; using the events", table_id
                )
        return match, [event_from_dict(row) for row in rows]

    async def unannounced(self, table: Table) -> list[RoundEnded | MatchEnded]:
        """Round results and goats committed but never announced: the bot stopped between."""
        if table.announced_seq >= table.seq:
            return []
        rows = await self.storage.load_events(table.id, after_seq=table.announced_seq)
        events = (event_from_dict(row) for row in rows)
        return [e for e in events if isinstance(e, RoundEnded | MatchEnded)]

    @staticmethod
    def _mark_live(table: Table) -> None:
        """After a restart: only live keyboards keep their message id (the presenter forgets a
        hand that became a record), so a stored id is a live hand, whoever's turn it is now."""
        for seat in table.seats:
            seat.live = seat.hand_message_id is not None

    async def seats(self, table_id: int, table_language: str) -> list[Seat]:
        """The table's seats as stored, in order."""
        return await self._seats(await self.storage.get_seats(table_id), table_language)

    async def arrange_seats(self, table: Table, order: Sequence[tuple[int, int]]) -> None:
        """Seat the table anew (``Storage.arrange_seats``: the one in seat ``order[n][0]`` moves
        to seat ``n``, on the side ``order[n][1]``; one left out leaves), and read it back."""
        rows = await self.storage.arrange_seats(table.id, order)
        table.seats = await self._seats(rows, table.language)

    async def _seats(self, rows: Iterable[SeatRow], table_language: str) -> list[Seat]:
        seats = [await self._seat(row, table_language) for row in rows]
        return sorted(seats, key=lambda s: s.seat)

    async def _seat(self, row: SeatRow, table_language: str) -> Seat:
        """A seat as the table shows it: a computer player goes by its name in the table's
        language (Cyrillic in a Russian or Ukrainian group)."""
        if row.user_id is None:
            assert row.computer is not None  # storage names every computer (migration 0010)
            name = computer_name(table_language, row.computer)
            language = table_language
        else:
            name = row.display_name or str(row.user_id)
            language = await self.user_language(row.user_id)
        return Seat(
            seat=row.seat,
            user_id=row.user_id,
            name=name,
            ai=row.ai,
            computer=row.computer,
            language=language,
            side=row.side,
            asks_swap=row.asks_swap,
            hand_message_id=row.hand_message_id,
            last_hand=row.hand_message_id,
            question=row.hand_question,
            missed_turns=row.missed_turns,
            absent=row.absent,
        )

    async def set_language(self, chat_id: int, lang: str) -> None:
        await self.storage.set_chat_language(chat_id, lang)
        for table in self._tables.values():
            if table.chat_id == chat_id:
                table.language = lang
                for seat in table.seats:
                    if seat.computer is not None:
                        seat.name = computer_name(lang, seat.computer)

    def retitle(self, chat_id: int, title: str) -> None:
        """The group was renamed: its tables' hands go by the new name."""
        for table in self._tables.values():
            if table.chat_id == chat_id:
                table.chat_title = title

    def retopic(self, place: Place, name: str) -> None:
        """A forum topic was named anew: its table's hands go by the new name."""
        for table in self._tables.values():
            if table.place == place:
                table.topic_name = name

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """Follow a group to its new supergroup id, with its tables and standings.

        Called with the old chat's lock held; the table keeps that lock object under its new id."""
        await self.storage.migrate_chat(old_id, new_id)
        if old_id in self._locks:
            self._locks.setdefault(new_id, self._locks[old_id])
        for table in self._tables.values():
            if table.chat_id == old_id:
                table.row = await self.storage.get_table(table.id) or table.row

    def forget(self, table_id: int) -> None:
        """Drop a table that ended, or whose memory ran ahead of the database."""
        self._tables.pop(table_id, None)


def latest_round(events: Sequence[Event]) -> list[Event]:
    """The events from the latest deal on (all of them before the first deal)."""
    dealt = [i for i, event in enumerate(events) if isinstance(event, RoundStarted)]
    return list(events[dealt[-1] if dealt else 0 :])


def round_ends(events: Sequence[Event]) -> list[RoundEnded]:
    """The rounds' ends among ``events``, in order."""
    return [event for event in events if isinstance(event, RoundEnded)]


def computer_name(lang: str, number: int) -> str:
    """The computer player ``number``'s name (``Seat.computer``: the catalogs' computer.0 …
    computer.3) in the language ``lang``."""
    return str(t(lang, f"computer.{number}"))


def _group_language(chat: ChatRow | None) -> str | None:
    """The language a group has, chosen or taken from its first table's opener; None before."""
    return chat.language if chat is not None and chat.language else None


def _chosen(row: UserRow | None) -> str | None:
    """The language a person chose in the DM, if it is one the bot still speaks."""
    chosen = row.chosen_language if row is not None else None
    return chosen if chosen in LANGUAGES else None
