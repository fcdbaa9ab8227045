"""The bot's picture of one table: who sits where, the match, and the messages that show it."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Match, Round, RuleSet, Tile

#: The board lists at least this many of the latest moves (and all of the latest batch).
RECENT = 4


@dataclass(slots=True)
class Seat:
    seat: int
    user_id: int | None
    name: str
    ai: str | None = None
    language: str = "en"
    #: The message with this player's live keyboard, None while they have none: a hand that
    #: became a record is never edited again, so a restart knows which message is live.
    hand_message_id: int | None = None
    #: The hand message carries the live keyboard (it is this player's turn).
    live: bool = False
    missed_turns: int = 0
    absent: bool = False
    #: What the rules did with this hand since the player last played, without a tap (tiles
    #: drawn from the bazaar, turns knocked): their next live hand tells them.
    drawn: list[Tile] = field(default_factory=list)
    knocks: int = 0

    @property
    def is_human(self) -> bool:
        return self.user_id is not None

    @property
    def computer_plays(self) -> bool:
        """A computer player moves for this seat: it is a bot seat, or its player is away."""
        return self.user_id is None or self.absent


@dataclass(slots=True)
class Table:
    id: int
    chat_id: int
    status: str
    opener_id: int
    rules: RuleSet
    players: int
    pairs: bool
    language: str
    turn_seconds: int
    seats: list[Seat] = field(default_factory=list)
    match: Match | None = None
    seq: int = 0
    #: The events up to this one had their round results and goat announced in the group.
    announced_seq: int = 0
    lobby_message_id: int | None = None
    board_message_id: int | None = None
    turn_deadline: float | None = None
    #: The round that just ended, so its board can show the final move before the next deal.
    finished_round: Round | None = None
    #: The seat whose timeout ended the match, for the rating rule of RULES.md §2.11.
    timed_out_seat: int | None = None
    #: What happened lately, newest last, for the board ("Olya played [3|4]"): kind, seat,
    #: detail (the tile, or how many were drawn) and round number.
    recent: list[tuple[str, int, str, int]] = field(default_factory=list)

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    @property
    def is_full(self) -> bool:
        return len(self.seats) >= self.players

    @property
    def version(self) -> int:
        """What buttons carry so that stale taps are recognized: the match's event count."""
        return 0 if self.match is None else self.match.events_applied

    def side_name(self, side: int) -> str:
        """A side is a seat in an individual game, a pair of partners in a pair game."""
        assert self.match is not None
        return " & ".join(self.seats[s].name for s in self.match.seats_of(side))
