"""What can go wrong in storage, as exceptions the bot can tell apart and explain.

``sqlite3`` errors say *what* SQLite refused; these say *why it matters* to the game, so the bot
never has to parse SQLite messages or import ``sqlite3``.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class: anything storage raises on purpose."""


class MigrationError(StorageError):
    """The migrations directory is malformed (bad file name, gap or duplicate in the numbers)."""


class DatabaseUnavailable(StorageError):
    """SQLite cannot open the file: its folder is missing or not writable, or it is no database."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"SQLite cannot open it: {reason}")


class SchemaTooNew(StorageError):
    """The database was written by a newer bot; opening it with this code could corrupt it."""

    def __init__(self, found: int, supported: int) -> None:
        self.found = found
        self.supported = supported
        super().__init__(
            f"database schema version {found} is newer than this bot supports ({supported}); "
            "upgrade the bot"
        )


class NotFound(StorageError):
    """A row the call relies on (chat, user, table, seat) does not exist."""


class SameChatMigration(StorageError, ValueError):
    """``migrate_chat`` was given the same id twice.

    Telegram always gives a supergroup a new id, so this is a caller's bug (the id read from
    the wrong field of the update), and it is refused rather than quietly done nothing about.
    """

    def __init__(self, chat_id: int) -> None:
        self.chat_id = chat_id
        super().__init__(f"chat {chat_id} cannot be migrated to its own id")


class TableAlreadyActive(StorageError):
    """A chat, or a topic of a forum, may have only one table in the lobby or playing at a time."""

    def __init__(self, chat_id: int) -> None:
        self.chat_id = chat_id
        super().__init__(f"chat {chat_id} already has an active table there")


class SeatTaken(StorageError):
    """Somebody already sits in that seat."""


class AlreadySeated(StorageError):
    """A user sits at most once per table."""


class MatchAlreadyRecorded(StorageError):
    """A table's match result is written exactly once."""


class ConcurrentAppend(StorageError):
    """The table's event log moved on since the caller read it: its view of the game is stale.

    Raised instead of writing, so two writers can never interleave events of one table.
    """

    def __init__(self, table_id: int, expected_seq: int, actual_seq: int) -> None:
        self.table_id = table_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq
        super().__init__(
            f"table {table_id}: expected last seq {expected_seq}, but it is {actual_seq}"
        )


class CorruptData(StorageError):
    """Stored data cannot be decoded; the message names the table (and seq) to inspect.

    Never swallowed: replaying around a damaged event would silently change the game.
    """
