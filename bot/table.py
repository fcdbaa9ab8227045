"""The bot's picture of one table: who sits where, the match, and the messages that show it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from engine import Event, Match, Placement, Round, RuleSet, Tile
from engine.events import Played, PlayedDoubles, RoundEnded
from engine.games import game_of
from engine.scoring.tally import Tally
from engine.seats import seats_of
from storage import LobbyView, TableRow, TableStatus

from .i18n import spoken_list
from .place import Place

if TYPE_CHECKING:
    from telegram import InlineKeyboardMarkup

#: The board lists at least this many of the latest moves (and all of the latest batch).
RECENT = 4


@dataclass(slots=True)
class Seat:
    seat: int
    user_id: int | None
    name: str
    ai: str | None = None
    #: The number of a computer player's name (``computer_name``), which follows it from seat
    #: to seat; None for a person.
    computer: int | None = None
    language: str = "en"
    #: The seat's side (``engine.seats``): in a pair game's lobby, the pair chosen (0 or 1),
    #: whatever the seat's number, until the deal seats partners opposite.
    side: int = 0
    #: In a pair game's lobby, this person asks to change places with one of the other pair,
    #: which holds two people: the first of them to tap 🔀 Change pair does, or the person
    #: takes the place that frees there first.
    asks_swap: bool = False
    #: The message with this player's live keyboard, None while they have none: a hand that
    #: became a record is never edited again, so a restart knows which message is live.
    hand_message_id: int | None = None
    #: The question that live hand shows in place of the hand (which end, which way, open or
    #: closed?), as ``presenter.hands`` encoded it with the table version it was asked at:
    #: stored, so that a redraw (the turn's reminder, a restart) shows it again.
    question: str | None = None
    #: The hand message carries the live keyboard (it is this player's turn).
    live: bool = False
    #: The latest hand message of the match in the DM, live or a record, and the note its
    #: record opens with (what they played, a new deal): where the end of the round or of the
    #: match is said, in place. In memory only: after a restart only a live hand is known (its
    #: stored ``hand_message_id``), without its note; a record's end goes unsaid there.
    last_hand: int | None = None
    last_note: str = ""
    #: What the live hand message shows (its id, text and keyboard) as last sent or edited, in
    #: memory only: a redraw that would change nothing is skipped, as Telegram refuses it ("not
    #: modified") after counting it against the budget.
    shown: tuple[int, str, InlineKeyboardMarkup | None] | None = None
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


@dataclass(frozen=True, slots=True)
class Recent:
    """One line of the board's list of what happened lately ("Olya played [3|4]")."""

    kind: Literal["played", "knocked", "drew", "reopened"]
    seat: int
    round: int
    laid: tuple[Placement, ...] = ()  # the tiles played (one, or several doubles), or reopened
    count: int = 0  # how many tiles were drawn in a row
    points: int = 0  # what the tile played scored


#: What the group's outbox writes, outside the table's lock: where the lobby and the board are
#: (``MessageIds``), and how far the results were announced.
OUTBOX_FIELDS = ("lobby_message_id", "board_message_id", "announced_seq")


@dataclass(slots=True)
class Table:
    #: The table as storage last returned it: status, settings, messages, timer, log position.
    #: Each change is written through storage, which returns the new row kept here
    #: (``written``).
    row: TableRow
    language: str
    seats: list[Seat] = field(default_factory=list)
    match: Match | None = None
    #: The round that just ended, so its board can show the final move before the next deal,
    #: and the standing its end found (``round_finished``), which that board shows: the result
    #: after it says what the end wrote, and the new scores.
    finished_round: Round | None = None
    finished_tally: Tally | None = None
    #: The seat whose timeout ended the match, for the rating rule of RULES.md §2.11.
    timed_out_seat: int | None = None
    #: What happened lately, newest last, for the board.
    recent: list[Recent] = field(default_factory=list)
    #: The committed events of the latest round, from its deal: what the board and the hands
    #: have shown of it, and what a computer player knows of the others' knocks and draws.
    round_events: list[Event] = field(default_factory=list)
    #: The match's round ends so far, oldest first: a round's result reads the one before it
    #: for what Kozel's sides remembered and whose score was open (RULES.md §2.8).
    round_ends: list[RoundEnded] = field(default_factory=list)
    #: The group's name, and its forum topic's (None in a plain group or a forum's General
    #: topic, or for a topic the bot never heard named), which a hand in a DM goes by: someone
    #: who plays in two groups, or two topics, at once holds two hands there.
    chat_title: str = ""
    topic_name: str | None = None

    def round_finished(self, rnd: Round, tally: Tally, events: Sequence[Event]) -> None:
        """Keep ``rnd``, which ``events`` ended, for its board, with the standing its end found:
        ``tally``, from before ``events``, at the scores of the last move among them that
        scored (a fives game's points during play)."""
        for event in events:
            if isinstance(event, RoundEnded) and event.round == rnd.number:
                break
            if isinstance(event, Played | PlayedDoubles) and event.scores is not None:
                tally = replace(tally, scores=tuple(event.scores))
        self.finished_round, self.finished_tally = rnd, tally

    @property
    def id(self) -> int:
        return self.row.table_id

    @property
    def chat_id(self) -> int:
        return self.row.chat_id

    @property
    def place(self) -> Place:
        """Where the table sits and the group follows it: its chat, or its forum topic."""
        return Place(self.row.chat_id, self.row.thread_id)

    @property
    def status(self) -> TableStatus:
        return self.row.status

    @property
    def expired(self) -> bool:
        """A cancelled table nobody started in time, rather than one closed by /cancel or
        because its place is gone."""
        return self.row.expired

    @property
    def lobby_view(self) -> LobbyView:
        """What the lobby message shows now: someone joining or leaving redraws that view,
        rather than close the editor its user has open; stored, so a restart does too."""
        return self.row.lobby_view

    @property
    def opener_id(self) -> int:
        return self.row.opener_id

    @property
    def rules(self) -> RuleSet:
        return RuleSet.from_dict(dict(self.row.rules))

    @property
    def rules_played(self) -> RuleSet:
        """The rules as this table's shape plays them, as its match will start: what the lobby
        and /rules say (Sea Goat's target left unset is 202 for pairs, RULES.md §3.2)."""
        rules = self.rules
        return game_of(rules).for_table(rules, self.players, self.pairs)

    @property
    def players(self) -> int:
        return self.row.players

    @property
    def pairs(self) -> bool:
        return self.row.pairs

    @property
    def computer_level(self) -> str:
        """The level of computer players added without naming one, or taking a seat over."""
        return self.row.computer_level

    @property
    def turn_seconds(self) -> int:
        assert self.row.turn_seconds is not None  # the store fills in the default on loading
        return self.row.turn_seconds

    @property
    def seq(self) -> int:
        """The last committed event."""
        return self.row.last_seq

    @property
    def announced_seq(self) -> int:
        """The events up to this one had their round results and goat announced in the group."""
        return self.row.announced_seq

    def written(self, row: TableRow) -> None:
        """Keep ``row``, which a change under the table's lock just wrote, but for what the
        group's outbox writes outside the lock (``OUTBOX_FIELDS``): the row may have been read
        before the outbox's write, which memory already has (a lobby's message lost there
        was posted anew at the next redraw, the first one's buttons still live)."""
        kept = {name: getattr(self.row, name) for name in OUTBOX_FIELDS}
        self.row = replace(row, **kept)

    @property
    def lobby_message_id(self) -> int | None:
        return self.row.lobby_message_id

    @property
    def board_message_id(self) -> int | None:
        return self.row.board_message_id

    @property
    def turn_deadline(self) -> float | None:
        return self.row.turn_deadline

    def seat_of(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def pair(self, side: int) -> list[Seat]:
        """The seats of a pair game's pair ``side`` as stored, in the order they sat down: in a
        lobby people choose their pair, so a seat's number does not say it until the deal."""
        return [seat for seat in self.seats if seat.side == side]

    @property
    def is_full(self) -> bool:
        return len(self.seats) >= self.players

    @property
    def version(self) -> int:
        """What buttons carry so that stale taps are recognized: the match's event count."""
        return 0 if self.match is None else self.match.events_applied

    @property
    def round_moves(self) -> list[Played | PlayedDoubles]:
        """The placements of the latest round (``round_events``), in order."""
        return [e for e in self.round_events if isinstance(e, Played | PlayedDoubles)]

    @property
    def people(self) -> list[Seat]:
        """The seats of persons, not computers."""
        return [seat for seat in self.seats if seat.is_human]

    @property
    def everyone_away(self) -> bool:
        """Every person at the table is marked away: nobody plays any more, so the match ends
        by timeout rather than be played out by computers for nobody. When this comes about
        otherwise than by a missed turn (those left are away and the last other person leaves,
        or every person blocked the bot, marked away as it finds out in ``Hands.unreachable``),
        the computers stop and the match waits a turn's time (``Scheduler.after_change``);
        whoever taps I'm back or presses Start before that is back, and the match goes on."""
        return all(seat.absent for seat in self.people)

    def side_name(self, side: int, lang: str) -> str:
        """A side is a seat in an individual game, a pair of partners in a pair game, named as
        ``lang`` says two people ("Masha and Olya"): "&" read badly beside a name holding one."""
        seats = seats_of(side, self.players, self.pairs)
        return spoken_list(lang, [self.seats[s].name for s in seats])

    def dropped_out(self) -> tuple[int, set[int]] | None:
        """RULES.md §2.11: everyone who dropped out by timeout gets no rating; the others are
        rated against the score of the player whose timeout ended the match (``abandon``, marked
        away or not: an idle match closed by the expiry sweep has nobody marked away). Returns
        that seat and the seats that dropped out, or None when nobody did."""
        dropped = {s.seat for s in self.seats if s.absent and s.is_human}
        last = self.timed_out_seat
        if last is None and dropped:
            last = min(dropped)
        if last is None:
            return None
        return last, dropped | {last}
