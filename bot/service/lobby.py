"""The lobby: opening a table, seats taken and given up, settings, cancelling."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine import RuleSet
from engine.games import game_of
from engine.rules import PRESETS
from engine.seats import PAIR, side_of
from storage import SeatRow, Storage, TableRow

from ..games import chooser, chosen, fits, seating, who_plays
from ..i18n import Localized, said
from ..place import Place
from ..render.game_names import game_name
from ..settings import Settings
from ..table import Seat, Table
from .errors import Refusal
from .store import TableStore

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Replay:
    """What 🔁 Play again seats again of the table played (``Lobby.replay``)."""

    #: The pair the one who tapped played in; None at an individual game, or for one who did
    #: not play there.
    side: int | None
    #: The computers the players seated, in seat order.
    computers: list[SeatRow]


@dataclass(frozen=True, slots=True)
class PairChange:
    """What 🔀 Change pair did (``Lobby.change_pair``)."""

    #: The seat of the one who tapped, as it is now.
    seat: Seat
    #: Who changed places with them: one who had asked to, or a computer; None when they took
    #: a free place, or stayed.
    swapped: Seat | None = None
    #: They stayed, and now ask to change places with one of the other pair (True), or no
    #: longer ask (False); None when they moved.
    asked: bool | None = None


class Lobby:
    def __init__(self, storage: Storage, settings: Settings, store: TableStore) -> None:
        self.storage = storage
        self.settings = settings
        self.store = store

    async def open_table(
        self,
        place: Place,
        opener_id: int,
        opener_language: str,
        like: TableRow | None = None,
    ) -> Table:
        """A new lobby at ``place`` (a group, or a topic of a forum): Kozel by default, or set
        as the table ``like`` was (its game, rules, players and pairs, turn time and computer
        level: 🔁 Play again). A group that never chose a language takes the opener's own
        (``opener_language``, ``TableStore.user_language``: the one they chose, else their
        Telegram app's), kept from then on, rather than the bot's default."""
        chat_id = place.chat_id
        active = await self.storage.get_active_table(chat_id, place.thread_id)
        if active is not None:
            raise Refusal("err.match_on" if active.status == "playing" else "err.table_exists")
        chat = await self.storage.get_chat(chat_id)
        if chat is not None and chat.language is None:
            await self.storage.set_chat_language(chat_id, opener_language)
        kozel = RuleSet()
        row = await self.storage.create_table(
            chat_id,
            opener_id,
            thread_id=place.thread_id,
            game=kozel.game if like is None else like.game,
            rules=kozel.to_dict() if like is None else like.rules,
            players=4 if like is None else like.players,
            pairs=False if like is None else like.pairs,
            turn_seconds=self.settings.turn_seconds if like is None else like.turn_seconds,
        )
        level = self.settings.computer_level if like is None else like.computer_level
        if row.computer_level != level:
            row = await self.storage.update_table(row.table_id, computer_level=level)
        log.info(
            "table opened",
            extra={"table": row.table_id, "chat": chat_id, "topic": place.thread_id},
        )
        return await self.store.load(row)

    async def played_here(self, place: Place, table_id: int) -> TableRow:
        """The table ``table_id`` whose match ended at ``place``, to play again as it was; a
        button that names another place's table (forged), or one not finished, is refused, and
        so is a table set as this version of the bot no longer plays (an option's value it
        dropped), whose lobby could not be shown."""
        row = await self.storage.get_table(table_id)
        if row is None or Place(row.chat_id, row.thread_id) != place or row.status != "finished":
            raise Refusal("err.unknown_button")
        try:
            rules = RuleSet.from_dict(dict(row.rules))
            game_of(rules).check_table(row.players, row.pairs)
        except ValueError:
            raise Refusal("err.again_outdated") from None
        return row

    async def replay(self, played: TableRow, user_id: int) -> Replay:
        """Who 🔁 Play again seats again of ``played``, read once: the pair ``user_id`` played
        in, and the computers the players seated, each at its level, in its pair and by its
        name. A computer that stood in for a person who left the match is not among them: the
        players did not choose it, and its place is open for a person, the one who left or
        another, as the lobby was before they came."""
        seats = await self.storage.get_seats(played.table_id)
        side = next((s.side for s in seats if played.pairs and s.user_id == user_id), None)
        return Replay(side, [s for s in seats if s.ai is not None and not s.stand_in])

    async def seat_computers(self, table: Table, computers: Sequence[SeatRow]) -> None:
        """Seat ``computers`` (``replay``) after whoever is seated already, as far as there is
        room."""
        for seat in computers:
            if not table.is_full:
                await self.add_computer(table, seat.ai, seat.side, seat.computer)

    async def join(self, table: Table, user_id: int, side: int | None = None) -> Seat:
        """Seat a person: at a pair game in the pair ``side`` if it has room, else in the pair
        with more room (the first when both have as much), so that the first and the third to
        sit down are partners unless someone chooses otherwise."""
        _still_open(table)
        if table.seat_of(user_id) is not None:
            raise Refusal("err.already_joined")
        return await self._add_seat(table, side, user_id=user_id)

    async def add_computer(
        self,
        table: Table,
        level: str | None = None,
        side: int | None = None,
        computer: int | None = None,
    ) -> Seat:
        """A computer player of ``level``, or of the table's level; at a pair game in the pair
        ``side``, or as a person joins; by the name ``computer`` (``Seat.computer``: one that
        played here before), else by one the table's other computers do not have."""
        _still_open(table)
        if table.is_full:  # its opener is told what comes next, not to wait for a seat
            raise Refusal("err.table_full_start")
        return await self._add_seat(
            table, side, ai=level or table.computer_level, computer=computer
        )

    async def _add_seat(
        self,
        table: Table,
        side: int | None,
        *,
        user_id: int | None = None,
        ai: str | None = None,
        computer: int | None = None,
    ) -> Seat:
        if table.is_full:
            raise Refusal("err.table_full")
        seat_no = len(table.seats)
        if not table.pairs:
            side = side_of(seat_no, pairs=False)
        elif side is None or len(table.pair(side)) >= PAIR:
            side = min((0, 1), key=lambda pair: len(table.pair(pair)))
        await self.storage.add_seat(
            table.id, seat_no, side=side, user_id=user_id, ai=ai, computer=computer
        )
        await self._reseat(table)
        return table.seats[seat_no]

    async def change_pair(self, table: Table, user_id: int) -> PairChange:
        """The person ``user_id`` moves to the other pair of a pair game (``_move``). Two
        people there who asked nothing keep their pair, for nobody moves anybody else: the
        person asks to change places with whichever of them taps 🔀 Change pair too, or takes
        the first place that frees there (``_remove_seat``), and a second tap takes the ask
        back."""
        _still_open(table)
        if not table.pairs:
            raise Refusal("err.not_pairs")
        seat = table.seat_of(user_id)
        if seat is None:
            raise _not_seated(table)
        moved = await self._move(table, seat)
        if moved is not None:
            return moved
        await self.storage.update_seat(table.id, seat.seat, asks_swap=not seat.asks_swap)
        await self._reseat(table)
        return PairChange(table.seats[seat.seat], asked=not seat.asks_swap)

    async def _move(self, table: Table, seat: Seat) -> PairChange | None:
        """``seat`` moves to the other pair: in place of one there who asked to change places
        (the first to ask, by seat), else to its free place, else to a computer's there, which
        takes theirs; None when two people there asked nothing, and it stays. Seat numbers
        stay: the deal seats partners opposite."""
        there = 1 - seat.side
        others = table.pair(there)
        asking = [other for other in others if other.asks_swap]
        computers = [other for other in others if not other.is_human]
        swapped: Seat | None = None
        if asking:
            swapped = asking[0]
        elif len(others) >= PAIR and computers:
            swapped = computers[-1]
        if swapped is None and len(others) >= PAIR:
            return None
        sides = {seat.seat: there, **({} if swapped is None else {swapped.seat: seat.side})}
        order = [(s.seat, sides.get(s.seat, s.side)) for s in table.seats]
        await self.store.arrange_seats(table, order)
        return PairChange(
            table.seats[seat.seat], None if swapped is None else table.seats[swapped.seat]
        )

    async def _reseat(self, table: Table) -> None:
        """Read the lobby's seats back from storage after one was added or removed."""
        table.seats = await self.store.seats(table.id, table.language)

    async def leave(self, table: Table, user_id: int) -> Seat:
        """A person leaves the table (``unseat``); returns their seat as it was."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise _not_seated(table)
        return await self.unseat(table, seat)

    async def unseat(self, table: Table, seat: Seat) -> Seat:
        """Clear a seat: in the lobby it goes (a person's or a computer's); during a match a
        computer player takes a person's seat over for good, standing in for them (no 🔁 Play
        again seats it again), with none of what was the person's: not their hand's message,
        nor the question it asked them, nor the turns they missed, nor their being away.
        Returns the seat as it was."""
        if table.status == "lobby":
            await self._remove_seat(table, seat.seat)
            return seat
        if table.status != "playing":
            raise Refusal("err.game_over")
        if seat.user_id is None:
            raise Refusal("err.computer_seat", number=seat.seat + 1)
        gone = dataclasses.replace(seat)
        await self.storage.update_seat(
            table.id,
            seat.seat,
            user_id=None,
            ai=table.computer_level,
            stand_in=True,
            absent=False,
            missed_turns=0,
            hand_message_id=None,
            hand_question=None,
        )
        table.seats[seat.seat] = (await self.store.seats(table.id, table.language))[seat.seat]
        return gone

    async def _remove_seat(self, table: Table, seat_no: int) -> None:
        """Remove a lobby seat and close the gap, so seats stay 0..n-1 in joining order; at a
        pair game everyone stays in their pair, but for one who asked to play in the pair
        that now has a free place: they take it at once (the first to ask, by seat, as 🔀
        Change pair would choose), rather than wait beside it for a tap of their own."""
        rest = [s for s in table.seats if s.seat != seat_no]
        order = [(s.seat, s.side if table.pairs else n) for n, s in enumerate(rest)]
        await self.store.arrange_seats(table, order)
        # each move grants an ask (storage clears it with the pair), so this ends
        while (asker := _granted(table)) is not None:
            await self._move(table, asker)

    async def change_setting(self, table: Table, name: str, value: Any) -> None:
        _still_open(table)
        if name in ("players", "pairs"):
            await self._reseat_for(table, *seating(table.players, table.pairs, name, value))
        elif name == "turn_seconds":
            table.written(await self.storage.update_table(table.id, turn_seconds=value))
        elif name == "computer_level":
            table.written(await self.storage.update_table(table.id, computer_level=value))
        else:
            rules = table.rules.with_options(**{name: value})
            table.written(await self.storage.update_table(table.id, rules=rules.to_dict()))

    async def _reseat_for(self, table: Table, players: int, pairs: bool) -> None:
        """Set the table for ``players`` (``pairs``: two pairs), if its game is played so."""
        if players < len(table.seats):
            raise Refusal("err.too_many_seated", count=len(table.seats))
        if not fits(table.rules.game, players, pairs):
            raise Refusal("err.players_misfit", **_game_values(table))
        changed_sides = pairs != table.pairs
        table.written(await self.storage.update_table(table.id, players=players, pairs=pairs))
        if changed_sides:  # pairs as the seats would make them by themselves
            for seat in table.seats:  # and an ask to change pair is one of pairs now gone
                if seat.asks_swap:
                    await self.storage.update_seat(table.id, seat.seat, asks_swap=False)
            order = [(s.seat, side_of(s.seat, pairs)) for s in table.seats]
            await self.store.arrange_seats(table, order)

    async def change_game(self, table: Table, game: str) -> None:
        """Play ``game`` at this table, by its usual rules (its preset), or a house preset of a
        game (``games.HOUSE_PRESETS``: its game is what the table records): refused when the
        table's players do not fit it, rather than changing the seats behind the opener's back.
        The game the table plays already keeps the options set for it."""
        _still_open(table)
        if game not in chooser():
            raise Refusal("err.unknown_game")
        if game == chosen(table.rules):
            return
        if not fits(game, table.players, table.pairs):
            key = "players.table_pairs" if table.pairs else "players.table"
            seated = said(key, count=table.players)
            raise Refusal("err.game_misfit", table=seated, **_game_values(table, game))
        rules = PRESETS[game]()
        table.written(
            await self.storage.update_table(table.id, game=rules.game, rules=rules.to_dict())
        )

    async def close_damaged(self, row: TableRow) -> None:
        """Close a table that cannot be rebuilt; its events stay in the database to inspect."""
        await self.storage.update_table(row.table_id, status="cancelled")
        self.store.forget(row.table_id)
        log.warning("damaged table closed", extra={"table": row.table_id, "chat": row.chat_id})

    async def cancel(self, table: Table, *, expired: bool = False) -> None:
        """Close the table without a result: by /cancel, because its place is gone, or
        (``expired``) because nobody started it in time, which it remembers."""
        row = await self.storage.update_table(table.id, status="cancelled", expired=expired)
        table.written(row)
        self.store.forget(table.id)
        log.info("table cancelled", extra={"table": table.id, "chat": table.chat_id})


def _game_values(table: Table, game: str | None = None) -> dict[str, Localized]:
    """The game's name and who plays it, for a refusal in the language of whoever reads it."""
    played = game or chosen(table.rules)
    return {
        "game": Localized(lambda lang: game_name(lang, played)),
        "players": said(f"players.{who_plays(played)}"),
    }


def _granted(table: Table) -> Seat | None:
    """The first, by seat, of those who ask to change pair whose pair asked for has a free
    place; None if nobody's has."""
    return next(
        (s for s in table.seats if s.asks_swap and len(table.pair(1 - s.side)) < PAIR), None
    )


def _still_open(table: Table) -> None:
    if table.status != "lobby":
        raise Refusal("err.already_started")


def _not_seated(table: Table) -> Refusal:
    """Why a person not at the table cannot leave it or change pair, and what they can do."""
    if table.status != "lobby":
        return Refusal("err.not_in_match")
    return Refusal("err.not_joined_full" if table.is_full else "err.not_joined")
