"""SQLite storage for the bot: event log, snapshots, tables, seats and standings.

The only package with SQL. Open one :class:`Storage` per process and share it.
"""

from .db import discover_migrations
from .errors import (
    AlreadySeated,
    ConcurrentAppend,
    CorruptData,
    DatabaseUnavailable,
    MatchAlreadyRecorded,
    MigrationError,
    NotFound,
    SameChatMigration,
    SchemaTooNew,
    SeatTaken,
    StorageError,
    TableAlreadyActive,
)
from .models import (
    ACTIVE_STATUSES,
    DEFAULT_LEVEL,
    ChatRow,
    EndedBy,
    GameRecord,
    Outcome,
    PlayerResult,
    RecentMatch,
    SeatRow,
    StandingRow,
    StandingsOrder,
    TableRow,
    TableStatus,
    UserRecord,
    UserRow,
)
from .repository import SeatUpdate, Storage, TableUpdate

__all__ = [
    "ACTIVE_STATUSES",
    "DEFAULT_LEVEL",
    "AlreadySeated",
    "ChatRow",
    "ConcurrentAppend",
    "CorruptData",
    "DatabaseUnavailable",
    "EndedBy",
    "GameRecord",
    "MatchAlreadyRecorded",
    "MigrationError",
    "NotFound",
    "Outcome",
    "PlayerResult",
    "RecentMatch",
    "SameChatMigration",
    "SchemaTooNew",
    "SeatRow",
    "SeatTaken",
    "SeatUpdate",
    "StandingRow",
    "StandingsOrder",
    "Storage",
    "StorageError",
    "TableAlreadyActive",
    "TableRow",
    "TableStatus",
    "TableUpdate",
    "UserRecord",
    "UserRow",
    "discover_migrations",
]
