"""Rows returned by storage: small frozen values, decoded from SQL types into Python ones.

Timestamps are Unix seconds (``float``), like ``turn_deadline``, so that timers and rows speak
the same unit and no time zone is baked into the database.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

TableStatus = Literal["lobby", "playing", "finished", "cancelled"]
#: Statuses of a table that still occupies its place (at most one per chat or forum topic).
ACTIVE_STATUSES: tuple[TableStatus, ...] = ("lobby", "playing")
#: A table's computer level unless it chose another (the schema's default, migration 0006).
DEFAULT_LEVEL = "strong"
#: What a lobby message shows (migration 0013): the table, its ⚙️ Rules editor, or the games.
LobbyView = Literal["lobby", "settings", "games"]
#: How a match ended (migration 0007): Kozel's goat, a side reaching the target, a draw (both
#: sides past the target at once), a player's timeout, or cancelled.
EndedBy = Literal["goat", "target", "draw", "timeout", "cancelled"]
#: A player's result in any game (migration 0007). Kozel's goat has "lost" and its best score
#: "won"; "none" is a Kozel player who was neither (Kozel names a loser, not a winner).
Outcome = Literal["won", "lost", "draw", "none"]
#: Orders of the standings; ``avg_points`` puts the fewest points first (Kozel's best),
#: ``most_points`` the most (the scoring games' best).
StandingsOrder = Literal["rating", "matches", "losses", "wins", "avg_points", "most_points"]


@dataclass(frozen=True, slots=True)
class ChatRow:
    """A group (or private chat) the bot plays in."""

    chat_id: int
    title: str
    type: str
    language: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class UserRow:
    """A Telegram user as the bot last saw them."""

    user_id: int
    display_name: str
    username: str | None
    language: str | None
    updated_at: float
    #: The language they chose to be written to in (/language in the DM); None: their app's.
    chosen_language: str | None = None


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table in a chat: its lobby settings, messages, timer and event-log position."""

    table_id: int
    chat_id: int
    #: The forum topic the table sits in (migration 0005); None: the chat itself (a plain
    #: group, or a forum's General topic).
    thread_id: int | None
    status: TableStatus
    game: str
    rules: Mapping[str, Any]
    players: int
    pairs: bool
    opener_id: int
    lobby_message_id: int | None
    board_message_id: int | None
    turn_seconds: int | None
    turn_deadline: float | None
    created_at: float
    updated_at: float
    finished_at: float | None
    last_seq: int
    #: The events up to this one had their round results and goat announced (migration 0003).
    announced_seq: int
    #: The level of computer players added without naming one, or taking over (migration 0006).
    computer_level: str = DEFAULT_LEVEL
    #: What the lobby message shows now (migration 0013).
    lobby_view: LobbyView = "lobby"
    #: A cancelled table that nobody started in time, not one closed by /cancel or for another
    #: reason (migration 0016).
    expired: bool = False

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_STATUSES


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat at a table: a human (``user_id``) or a computer player (``ai``), never both.

    ``display_name`` is the user's, joined in because every render needs it; ``None`` for AI.
    """

    table_id: int
    seat: int
    user_id: int | None
    ai: str | None
    side: int
    hand_message_id: int | None
    #: The question that live hand shows in place of the hand, as the bot encoded it, if any
    #: (migration 0009).
    hand_question: str | None
    missed_turns: int
    absent: bool
    display_name: str | None
    #: The number of a computer player's name (migration 0010), which follows it from seat to
    #: seat and which no other computer at the table has; None for a person.
    computer: int | None = None
    #: A computer that took a person's seat over during the match (migration 0011), rather than
    #: one the players seated.
    stand_in: bool = False
    #: A person at a pair game's lobby asks to change places with one of the other pair, which
    #: holds two people (migration 0012); it lapses when the seat changes pair, or the pairs
    #: are made anew.
    asks_swap: bool = False


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat's result, as passed to ``record_match`` (``user_id`` is ``None`` for AI)."""

    user_id: int | None
    seat: int
    side: int
    score: int
    outcome: Outcome
    rating_delta: int = 0


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One human's line in a chat's standings of one game; ``rank`` is 1-based across pages."""

    rank: int
    user_id: int
    display_name: str
    matches: int
    #: Matches lost (in Kozel: times the goat).
    losses: int
    wins: int
    draws: int
    avg_points: float
    rating: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A user's totals in one game across every chat."""

    game: str
    matches: int
    #: Matches lost (in Kozel: times the goat).
    losses: int
    wins: int
    draws: int
    avg_points: float
    rating: int
    chats: int


@dataclass(frozen=True, slots=True)
class UserRecord:
    """A user's matches and groups in all (zeros if none), and their totals in each game they
    finished a match of, the game with the most matches first."""

    user_id: int
    display_name: str
    matches: int
    chats: int
    games: tuple[GameRecord, ...]


@dataclass(frozen=True, slots=True)
class PastSeat:
    """One seat of a finished match, as the group's history lists it; a computer has no
    ``display_name``."""

    seat: int
    side: int
    display_name: str | None
    score: int
    outcome: Outcome
    #: The number of a computer's name, as its table named it (``SeatRow.computer``; its seat's
    #: for a match without one, as tables named computers before); None for a person.
    computer: int | None = None


@dataclass(frozen=True, slots=True)
class PastMatch:
    """One of a group's finished matches, with every seat, for the group's history."""

    game: str
    ended_by: EndedBy
    finished_at: float
    seats: tuple[PastSeat, ...]


@dataclass(frozen=True, slots=True)
class RecentMatch:
    """One of a user's latest matches, for their personal history."""

    match_id: int
    chat_id: int
    chat_title: str
    game: str
    finished_at: float
    ended_by: EndedBy
    score: int
    outcome: Outcome
    rating_delta: int
