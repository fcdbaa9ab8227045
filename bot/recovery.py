"""Picking up after a restart: the tables in play, the ends of matches nobody was told, and the
lobbies of closed tables that still show their buttons."""

from __future__ import annotations

from engine.events import MatchEnded, RoundEnded
from storage import TableStatus

from .context import Kozel
from .handlers.lobby import show_lobby
from .presenter.news import recall
from .table import Table


async def recover(k: Kozel) -> None:
    """Bring every table the bot stopped in the middle of up to its committed state: an open
    lobby is drawn as it is (a redraw that waited out flood control as the bot stopped was
    dropped, and the lobby went on without whoever had joined, its buttons refused as drawn
    for another lobby, for good); a cancelled or expired table's lobby that the bot stopped
    before closing (its edit waited out flood control) is closed, once: it kept ✋ Join and ▶️
    Start for a table gone, for good."""
    for table in await k.service.store.tables("lobby"):
        async with k.service.store.lock(table.chat_id):
            await show_lobby(k, table)
    # before the tables in play: one whose end ``resume`` tells is finished and unannounced
    # until its results have gone out, and they would be told twice
    for table in await k.service.store.tables("finished", unannounced=True):
        await tell_the_end(k, table)
    for table in await k.service.store.tables("playing"):
        await resume(k, table)
    for table in await k.service.store.tables(CLOSED, with_lobby=True):
        async with k.service.store.lock(table.chat_id):
            close_lobby(k, table)


#: The statuses of a table that is over, whose lobby message must show no buttons.
CLOSED: tuple[TableStatus, ...] = ("finished", "cancelled")


def close_lobby(k: Kozel, table: Table) -> None:
    """Close the lobby that still shows its table's buttons (``Table.lobby_message_id``: the
    bot stopped before its closing edit went), as the start, /cancel or the expiry would have,
    saying the same: the table is closed whatever Telegram says. Once closed, the table forgets
    its lobby message, which is never touched again (``pacing.Board``)."""
    if table.lobby_message_id is None:
        return
    k.presenter.lobby.close(table)


async def resume(k: Kozel, table: Table) -> None:
    """Pick up a table that was in play when the bot stopped, which may have been between
    committing a move and showing it: a lead the rules leave no choice about, which a round
    dealt before the bot placed such leads still waits for, is placed (``Player.automatic``);
    the board and the hands are brought up to the committed state and the timers re-armed,
    after the round results the group was not told; a match whose end was committed but not
    recorded is recorded, and its round result and goat are announced,
    after the results of its earlier rounds the group was not told, in their order.
    A lobby the start did not close yet (its edit waited out flood control as the bot stopped)
    is closed first, as the start would have: it offered ✋ Join and ▶️ Start for a match
    being played."""
    if table.match is None:
        return
    async with k.service.store.lock(table.chat_id):
        close_lobby(k, table)
        events = list(table.round_events)
        recall(table, events)
        if not table.match.is_over:
            placed = await k.service.player.automatic(table)  # a round dealt, not yet led
            await k.presenter.announce_unannounced(table)
            if placed:
                await k.presenter.show(table, placed)  # may end the match: a target reached
            if not table.match.is_over:
                await k.presenter.resync(table)
            await k.scheduler.after_change(table, restarted=True)
            return
        await k.service.finisher.record_unrecorded(table)
        finished(table)
        ending = [e for e in events if isinstance(e, (RoundEnded, MatchEnded))]
        await k.presenter.announce_unannounced(table, before=ending)
        await k.presenter.show(table, ending)


async def tell_the_end(k: Kozel, table: Table) -> None:
    """A match recorded as finished whose last round and goat the group was not told, because
    the bot stopped in between: they are told now, below its board as the end left it, which
    went unshown too and still said whose turn it was."""
    async with k.service.store.lock(table.chat_id):
        if table.match is not None and table.board_message_id is not None:
            recall(table, table.round_events)
            if table.match.unfinished_round is not None:  # won by a move, or a timeout
                k.presenter.board.draw(table)
            else:
                finished(table)
                k.presenter.board.final(table)
        await k.presenter.announce_unannounced(table)


def finished(table: Table) -> None:
    """Keep the match's last round for its board, with the standing its end found: as the
    rounds before it left it (``Match.carried_into``), and its moves during play."""
    match = table.match
    assert match is not None and match.round is not None
    tally = match.carried_into(match.round.number, table.round_ends)
    assert tally is not None  # a table loaded from its log keeps every round's end
    table.round_finished(match.round, tally, table.round_events)
