"""A match: rounds until the game says it is over (Kozel: a side reaches the goat limit, §2.9;
the scoring games: a side reaches the target, in the middle of a round in some, §1.11).

What differs between games (deal, leads, layout, scoring, the end) is asked of ``self.game``, the
game ``rules.game`` names (``games/``); this module knows no game's rules.

``act`` validates an action, turns it into events and applies them. State only ever changes in
``apply`` and the ``Round.apply_*`` methods it calls. ``replay`` does not trust a stored log: it
performs each recorded action again through ``act`` and requires the events it makes to be the
stored ones, under the revision of the rules' code the log says (``revisions.py``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from . import errors, revisions
from .actions import DRAW, KNOCK, Action, Draw, Knock, Lay, Placement, Play, Reopen
from .deal import CURRENT_SHUFFLE, OLDEST_SHUFFLE, SHUFFLES, Shuffle, deal, shuffled
from .events import (
    Drew,
    Event,
    Knocked,
    MatchEnded,
    MatchEndedBy,
    MatchStarted,
    Played,
    PlayedDoubles,
    Redealt,
    Reopened,
    RoundEnded,
    RoundStarted,
    RulesUpgraded,
    event_from_dict,
)
from .games import game_of
from .games.base import Game
from .leads import Lead, LeadWhy
from .round import Hand, Round
from .rules import RuleSet
from .scoring.sea_goat import SeaState
from .scoring.tally import Tally
from .seats import seats_of, side_of

#: What ``match_ended`` says when a player's timeout ended the match (``Match.abandon``).
TIMEOUT: Final[MatchEndedBy] = "timeout"
#: The revision from which a timeout names the other sides as the winners in every game whose
#: own end names winners (``Game.names_winners``: Sport domino and General's Goat too); before
#: it only where the game ``wins_at_target``, and a stored log replays only as written.
TIMEOUT_NAMES_WINNERS: Final = 7


@dataclass(eq=False)  # a match is one table's game, not a value
class Match:
    """Everything about one match at one table; plain data that round-trips through JSON.

    ``rules.revision`` is the revision of the rules' code it plays under (``revisions.py``).
    """

    players: int
    pairs: bool
    rules: RuleSet
    seed: int
    shuffle: Shuffle = CURRENT_SHUFFLE
    # The state of play, which ``__post_init__`` sets to a match not yet dealt (mypyc, which
    # compiles this module, leaves a field's default unset when it is not an argument).
    round: Round | None = field(init=False)
    rounds_played: int = field(init=False)
    tally: Tally = field(init=False)
    next_leader: int | None = field(init=False)
    restart_chain: bool = field(init=False)
    over: bool = field(init=False)
    losers: list[int] = field(init=False)
    #: The sides the match's end names as its winners (``Game.names_winners``; none in Kozel,
    #: none after a draw).
    winners: list[int] = field(init=False)
    ended_by: MatchEndedBy | None = field(init=False)
    events_applied: int = field(init=False)
    #: The game ``rules.game`` names; it answers everything that differs between games.
    game: Game = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.game = game_of(self.rules)
        self.game.check_table(self.players, self.pairs)
        self.rules = self.game.for_table(self.rules, self.players, self.pairs)
        if self.shuffle not in SHUFFLES:
            raise ValueError(f"unknown shuffle {self.shuffle!r}")
        self.tally = self.game.fresh_tally(self.sides)
        self.round, self.rounds_played, self.next_leader = None, 0, None
        self.restart_chain = self.over = False
        self.losers, self.winners, self.ended_by = [], [], None
        self.events_applied = 0

    # --- construction ------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        players: int,
        pairs: bool = False,
        rules: RuleSet | None = None,
        seed: int = 0,
        shuffle: Shuffle = CURRENT_SHUFFLE,
    ) -> tuple[Match, list[Event]]:
        """Start a match and deal its first round; returns the match and the events so far.
        ``shuffle`` other than the current one, like ``rules`` under an older revision, is for
        replaying old logs."""
        rules = rules or _default_rules(revisions.current())
        match = cls(players, pairs, rules, seed, shuffle)
        events: list[Event] = []
        started = MatchStarted(
            rules.game,
            players,
            pairs,
            seed,
            match.game.options(match.rules),
            shuffle=shuffle,
            rules_revision=rules.revision,
        )
        match._emit(started, events)
        match._start_round(events)
        return match, events

    # --- questions ---------------------------------------------------------------------------

    @property
    def sides(self) -> int:
        return 2 if self.pairs else self.players

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.pairs)

    def seats_of(self, side: int) -> list[int]:
        return seats_of(side, self.players, self.pairs)

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def unfinished_round(self) -> Round | None:
        """The round the match ended in the middle of, which never ends: the one a move won
        (§1.11; going out with it too, its round is still not scored) or a timeout cut short
        (``abandon``). None while the match is played, and when a round's end ended it."""
        rnd = self.round
        if not self.over or rnd is None or rnd.number <= self.rounds_played:
            return None
        return rnd

    @property
    def rounds_counted(self) -> int:
        """The rounds played that count, as the players number them (``Game.counted_round``):
        a match won by a move in the middle of a round (§1.11) counts that round, which never
        ended; one a timeout cut short does not, as nothing was played out in it."""
        played = self.rounds_played
        unfinished = self.unfinished_round
        if unfinished is not None and self.ended_by != TIMEOUT:
            played = unfinished.number
        return self.game.counted_round(played + 1, self.tally.scores, None) - 1

    def carried_into(self, number: int, ends: Iterable[RoundEnded]) -> Tally | None:
        """The standing the match carried into its round ``number``, from its round ``ends``
        (the bot keeps them; the match only its latest standing): as the last of them before
        that round left it (``Tally.left_by``: every game writes what it carries, Kozel's
        memory and eggs, Sea Goat's state, at every round's end or at none, so folding the
        earlier ends in gives the same), or as the match starts before its first round. None
        where ``ends`` lack the rounds before ``number``."""
        earlier = [ended for ended in ends if ended.round < number]
        if earlier:
            return Tally.left_by(earlier[-1])
        return self.game.fresh_tally(self.sides) if number == 1 else None

    @property
    def current_seat(self) -> int | None:
        if self.over or self.round is None:
            return None
        return self.round.turn

    def legal_actions(self, seat: int) -> list[Action]:
        rnd = self.round
        if self.over or rnd is None:
            return []
        moves = rnd.legal_actions(seat, self.rules)
        if self.game.offers_lays and moves and isinstance(moves[0], Play):  # so may more be
            moves += self.game.lays(rnd, seat, self.rules)
        if self.rules.donkey_reopen:
            moves += [Reopen(tile) for tile in rnd.reopenable(seat)]
        return moves

    def placed_lead(self) -> Play | None:
        """The lead to place for the current round's leader with no choice of his
        (``Game.places_lead``, §3.8): None where he chooses, or once the round is led."""
        rnd = self.round
        if rnd is None or self.over or not self.game.places_lead or not rnd.layout.is_empty:
            return None
        actions = self.legal_actions(rnd.turn)
        only = actions[0] if len(actions) == 1 else None
        return only if isinstance(only, Play) else None

    # --- acting ------------------------------------------------------------------------------

    def abandon(self, seat: int) -> list[Event]:
        """End the match because ``seat`` timed out: that player's side loses (RULES.md §2.11
        rates such a match differently), the scores stand as they are. In a game whose own end
        names winners (``Game.names_winners``) the other sides win, as they would there; Kozel
        and Donkey name only the loser. Before ``TIMEOUT_NAMES_WINNERS``, only a game won at a
        target named them."""
        if self.over:
            raise errors.GameOver("the match is over")
        if not 0 <= seat < self.players:
            raise errors.NotYourTurn(f"there is no seat {seat}")
        lost = self.side_of(seat)
        won = [side for side in range(self.sides) if side != lost]
        game = self.game
        named = (
            game.names_winners
            if self.rules.revision >= TIMEOUT_NAMES_WINNERS
            else game.wins_at_target
        )
        ended = MatchEnded([lost], list(self.tally.scores), TIMEOUT, won if named else None)
        events: list[Event] = []
        self._emit(ended, events)
        return events

    def upgrade(self) -> list[Event]:
        """Move a match in play to the newest revision of the rules' code its policy allows
        (``revisions.py``); returns the events to append to its log: none, or ``rules_upgraded``.
        Whoever loads a stored match calls this before the next move."""
        newest = revisions.reachable(self.rules.revision)
        if self.over or newest == self.rules.revision:
            return []
        events: list[Event] = []
        self._emit(RulesUpgraded(newest), events)
        return events

    def act(self, seat: int, action: Action, *, deal_next: bool = True) -> list[Event]:
        """Perform ``action`` for ``seat``; raises an ``IllegalAction`` and changes nothing if the
        rules forbid it. Returns the events, including a round's end and the next deal, which
        ``deal_next=False`` leaves undone: the strong player's playouts stop at the round's end
        (``search.py``), and nothing may be played in the match after that."""
        rnd = self.round
        if self.over or rnd is None:
            raise errors.GameOver("the match is over")
        # The round asks it, not this method: here, the compiled engine would take a narrowing of
        # ``rnd.outcome`` to None for the rest of the method, past the move that ends the round.
        rnd.check_turn(seat)
        event: Event
        if isinstance(action, Play):  # the actions in the order they are most made
            event = self._played(rnd, seat, action)
        elif isinstance(action, Knock):
            if rnd.can_play(seat):
                raise errors.MustPlay("you hold a playable tile")
            if rnd.can_draw(self.rules):
                raise errors.MustDraw("you must draw from the bazaar")
            event = Knocked(rnd.number, seat)
        elif isinstance(action, Draw):
            if rnd.can_play(seat):
                raise errors.MustPlay("you hold a playable tile")
            if not rnd.can_draw(self.rules):
                raise errors.CannotDraw("there is nothing you may draw")
            event = Drew(rnd.number, seat, rnd.bazaar[0])
        elif isinstance(action, Lay):
            event = self._laid(rnd, seat, action)
        else:  # the Action union is closed: a Reopen
            event = self._reopened(rnd, seat, action)
        self.apply(event)
        events: list[Event] = [event]
        scored = isinstance(event, (Played, PlayedDoubles)) and event.scored
        if not (scored and self._ended_in_play(events)) and rnd.outcome is not None:
            self._finish_round(rnd, events, deal_next)
        return events

    def _reopened(self, rnd: Round, seat: int, reopen: Reopen) -> Reopened:
        """The event of turning face up a double ``seat`` closed (``donkey_reopen``, §3.3)."""
        if not self.rules.donkey_reopen or reopen.tile not in rnd.reopenable(seat):
            raise errors.CannotClose(f"you cannot reopen {reopen.tile} now (§3.3)")
        return Reopened(rnd.number, seat, reopen.tile)

    def _ended_in_play(self, events: list[Event]) -> bool:
        """Whether the move that has just scored ended the match, as a target reached in the
        middle of a round does in most scoring games (§3.8): then the round is not finished."""
        ended = self.game.match_end(self.tally, self.rules, in_round=True)
        if ended is not None:
            self._emit(ended, events)
        return ended is not None

    def _played(self, rnd: Round, seat: int, play: Play, closed: bool = False) -> Played:
        """The event of the legal ``play``, laid face down when ``closed``: the game says what the
        ends show and what it scores, and the sides' scores follow when it scored."""
        tile, end = play.tile, rnd.check_play(seat, play)
        if not self.game.closes_doubles:
            ends, scored = self.game.move(rnd.layout, tile, end, self.rules)
            scores = self._scores_after(seat, scored)
            return Played(rnd.number, seat, tile, end, ends, scored, scores)
        ends, scored = self.game.move_all(rnd.layout, ((tile, end),), self.rules, (closed,))
        scores = self._scores_after(seat, scored)
        return Played(rnd.number, seat, tile, end, ends, scored, scores, closed=closed)

    def _laid(self, rnd: Round, seat: int, lay: Lay) -> Played | PlayedDoubles:
        """The event of the legal ``lay``. One tile is the ``Play`` it spells; several doubles go
        down together where ``multi_double`` allows (§1.6). Doubles may be laid face down where
        the game closes them (Donkey, §3.3), but never the lead."""
        closed = [placement.closed for placement in lay.placements]
        if any(closed):
            if not self.game.closes_doubles:
                raise errors.CannotClose(f"{self.game.name} has no closed tiles (§3.3)")
            if rnd.layout.is_empty:
                raise errors.CannotClose("the lead cannot be closed (§3.3)")
            if not all(p.tile.is_double for p in lay.placements if p.closed):
                raise errors.CannotClose("only a double can be closed (§3.3)")
        if any(placement.lengthwise for placement in lay.placements):
            return self._lengthwise(rnd, seat, lay)
        if len(lay.placements) == 1:
            placement = lay.placements[0]
            return self._played(rnd, seat, Play(placement.tile, placement.end), closed[0])
        if len(lay.placements) == 0 or not self.rules.multi_double:
            raise errors.OneTilePerMove(f"{self.game.name} puts down one tile a move (§1.6)")
        placements = rnd.check_lay(seat, lay, self.rules.multi_double)
        flags = closed if self.game.closes_doubles else ()
        ends, scored = self.game.move_all(rnd.layout, placements, self.rules, flags)
        tiles, ends_used = [tile for tile, _ in placements], [end for _, end in placements]
        scores = self._scores_after(seat, scored)
        return PlayedDoubles(
            rnd.number, seat, tiles, ends_used, ends, scored, scores, list(flags) or None
        )

    def _lengthwise(self, rnd: Round, seat: int, lay: Lay) -> Played:
        """A double laid lengthwise, where the game offers it (English fives, §3.9)."""
        if lay not in self.game.lays(rnd, seat, self.rules):
            raise errors.TileDoesNotFit(f"{lay} is not a move you can make here")
        tile, end = lay.placements[0].tile, lay.placements[0].end
        assert end is not None  # the lays a game offers name their ends
        ends, scored = self.game.move(rnd.layout, tile, end, self.rules, lengthwise=True)
        scores = self._scores_after(seat, scored)
        return Played(rnd.number, seat, tile, end, ends, scored, scores, lengthwise=True)

    def _scores_after(self, seat: int, scored: int | None) -> list[int] | None:
        """The sides' scores once ``seat``'s move has scored, None when it did not."""
        if not scored:
            return None
        return list(self.tally.credit(self.side_of(seat), scored).scores)

    def _finish_round(self, rnd: Round, events: list[Event], deal_next: bool) -> None:
        scored = self.game.end_round(rnd, self.tally, self.pairs, self.rules)
        self._emit(scored, events)
        ended = self.game.match_end_after(scored, self.tally, self.rules)
        if ended is not None:
            self._emit(ended, events)
        elif deal_next:
            self._start_round(events)

    def _start_round(self, events: list[Event]) -> None:
        number = self.rounds_played + 1
        game = self.game
        size = game.hand_size(self.rules, self.players)
        attempt = 0
        while True:
            hands, bazaar = deal(
                shuffled(self.seed, number, attempt, self.shuffle), self.players, size
            )
            bad = game.redeal(hands, self.rules)
            if bad is None:
                break
            self._emit(Redealt(number, hands, *bad), events)
            attempt += 1
        lead = self._lead(hands)
        self._emit(RoundStarted(number, hands, bazaar, lead.seat, lead.tiles), events)

    def _lead(self, hands: Sequence[Hand]) -> Lead:
        """The lead of the round dealt ``hands``, as the rounds before it leave it: the first
        round's, a restarted one's, or the next leader's."""
        if self.next_leader is None:
            return self.game.first_lead(hands, self.rules, self.seed)
        if self.restart_chain:
            return self.game.restart_lead(hands, self.rules, self.seed)
        return self.game.later_lead(self.next_leader, hands[self.next_leader], self.rules)

    def lead_why(self) -> LeadWhy | None:
        """The rule that makes the current round's leader lead one of its ``lead_tiles``, None
        where he may lead any. The event does not record it: it is asked again of the hands,
        which nothing changes before the lead, unless the answer is no longer the round's (its
        rules were upgraded since)."""
        rnd = self.round
        if rnd is None or rnd.lead_tiles is None or not rnd.layout.is_empty:
            return None
        lead = self._lead(rnd.hands)
        return lead.why if (lead.seat, lead.tiles) == (rnd.leader, rnd.lead_tiles) else None

    # --- applying events ---------------------------------------------------------------------

    def _emit(self, event: Event, events: list[Event]) -> None:
        self.apply(event)
        events.append(event)

    def apply(self, event: Event) -> None:
        """Change the state as ``event`` says; the only place state changes. The event is trusted:
        ``act`` has just made it (a stored log goes through ``replay``)."""
        rnd = self.round
        if isinstance(event, Played):  # the events of a round in the order they are most made
            assert rnd is not None
            rnd.apply_played(event, self.rules)
            if event.scored:
                self._credit(event.seat, event.scored)
        elif isinstance(event, Knocked):
            assert rnd is not None
            rnd.apply_knocked(self.rules)
        elif isinstance(event, PlayedDoubles):
            assert rnd is not None
            placements = tuple(zip(event.tiles, event.ends_used, strict=True))
            rnd.apply_laid(event.seat, placements, self.rules, event.closed or ())
            if event.scored:
                self._credit(event.seat, event.scored)
        elif isinstance(event, Drew):
            assert rnd is not None
            rnd.apply_drew(event.seat, event.tile)
        elif isinstance(event, Reopened):
            assert rnd is not None
            rnd.apply_reopened(event.tile)
        elif isinstance(event, RoundStarted):
            self.round = Round(
                number=event.round,
                hands=list(map(list, event.hands)),
                bazaar=list(event.bazaar),
                leader=event.leader,
                lead_tiles=None if event.lead_tiles is None else list(event.lead_tiles),
                layout=self.game.layout(self.rules),
            )
        elif isinstance(event, RoundEnded):
            self.rounds_played = event.round
            self.tally = self.tally.after(event)
            self.next_leader = self.game.next_leader(self.players, self.pairs, event, self.rules)
            self.restart_chain = self.game.restarts_lead(event, self.rules)
        elif isinstance(event, MatchEnded):
            self.over = True
            self.losers = list(event.losers)
            self.winners = list(event.winners or ())
            self.ended_by = event.ended_by
        elif isinstance(event, RulesUpgraded):
            self.rules = self.rules.under(event.revision)
        elif not isinstance(event, (MatchStarted, Redealt)):
            raise ValueError(f"cannot apply {event!r}")
        self.events_applied += 1

    def _credit(self, seat: int, points: int) -> None:
        """The points of ``seat``'s move go to his side (§1.8)."""
        self.tally = self.tally.credit(self.side_of(seat), points)

    # --- serialization -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The state; ``rules_revision`` only when it is not the first (as in ``match_started``)."""
        data: dict[str, Any] = {
            "players": self.players,
            "pairs": self.pairs,
            "rules": self.game.options(self.rules),
            "seed": self.seed,
            "shuffle": self.shuffle,
            "round": None if self.round is None else self.round.to_json(),
            "rounds_played": self.rounds_played,
            "scores": list(self.tally.scores),
            "memory": list(self.tally.memory),
            "opened": list(self.tally.opened),
            "pot": self.tally.pot,
            "next_leader": self.next_leader,
            "restart_chain": self.restart_chain,
            "over": self.over,
            "losers": list(self.losers),
            "winners": list(self.winners),
            "ended_by": self.ended_by,
            "events_applied": self.events_applied,
        }
        if self.rules.revision != revisions.FIRST:
            data["rules_revision"] = self.rules.revision
        if self.tally.sea is not None:
            data["sea"] = self.tally.sea.to_dict()
            if self.round is not None:
                data["round"].update(self.round.sea_goat_json())
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], rules: RuleSet | None = None) -> Match:
        """The match ``to_json`` gave. ``rules``: the ones ``data`` records, already read (the
        strong player rebuilds many matches under the same rules, and reading them is slow)."""
        if rules is None:
            revision = data.get("rules_revision", revisions.FIRST)
            rules = RuleSet.from_dict(data["rules"]).under(revision)
        shuffle = data.get("shuffle", OLDEST_SHUFFLE)  # snapshots from before it was recorded
        match = cls(data["players"], data["pairs"], rules, data["seed"], shuffle)
        if data["round"] is not None:
            match.round = Round.from_json(data["round"], match.game.layout(rules))
        match.rounds_played = data["rounds_played"]
        sea = data.get("sea")
        match.tally = Tally(
            tuple(data["scores"]),
            tuple(data["memory"]),
            tuple(data["opened"]),
            data["pot"],
            None if sea is None else SeaState.from_dict(sea),
        )
        match.next_leader = data["next_leader"]
        match.restart_chain = data["restart_chain"]
        match.over = data["over"]
        match.losers = list(data["losers"])
        match.winners = list(data.get("winners", ()))  # snapshots from before it was recorded
        match.ended_by = data["ended_by"]
        match.events_applied = data["events_applied"]
        return match


@functools.cache
def _default_rules(revision: int) -> RuleSet:
    """Kozel's default rules under ``revision``: a frozen value, so built and checked once."""
    return RuleSet(revision=revision)


def replay(events: Iterable[Event | Mapping[str, Any]]) -> Match:
    """Rebuild a match from its event log, which starts with ``match_started`` and may stop after
    any action (a match in play).

    The log is played again, not trusted: every recorded move goes through ``act`` and every event
    the engine makes (deals, round ends, the moves' own events) must equal the stored one, in
    order, so a damaged or edited log raises ``ReplayMismatch`` instead of rebuilding nonsense.
    """
    log = [item if isinstance(item, Event) else event_from_dict(dict(item)) for item in events]
    if not log:
        raise ValueError("cannot replay an empty event log")
    started = log[0]
    if not isinstance(started, MatchStarted):
        raise ValueError("an event log must start with match_started")
    rules = RuleSet.from_dict(started.options).under(started.rules_revision)
    match, made = Match.new(started.players, started.pairs, rules, started.seed, started.shuffle)
    at = _expect(log, 0, made)
    while at < len(log):
        at = _expect(log, at, _redo(match, log[at], at))
    return match


def _redo(match: Match, event: Event, at: int) -> list[Event]:
    """Perform again the move that ``event`` (at index ``at``) records; returns the events made."""
    if match.over:
        raise errors.ReplayMismatch(at, f"{event.type} after the match ended")
    try:
        if isinstance(event, Played) and event.lengthwise:
            lengthwise = Placement(event.tile, event.end, lengthwise=True)
            return match.act(event.seat, Lay((lengthwise,)))
        if isinstance(event, Played) and event.closed:
            return match.act(event.seat, Lay((Placement(event.tile, event.end, closed=True),)))
        if isinstance(event, Played):
            return match.act(event.seat, Play(event.tile, event.end))
        if isinstance(event, PlayedDoubles):
            flags = event.closed or [False] * len(event.tiles)
            placements = zip(event.tiles, event.ends_used, flags, strict=True)
            return match.act(event.seat, Lay(tuple(Placement(t, e, c) for t, e, c in placements)))
        if isinstance(event, Reopened):
            return match.act(event.seat, Reopen(event.tile))
        if isinstance(event, Drew):
            return match.act(event.seat, DRAW)
        if isinstance(event, Knocked):
            return match.act(event.seat, KNOCK)
        if isinstance(event, RulesUpgraded):
            if revisions.reachable(match.rules.revision) < event.revision:
                raise errors.ReplayMismatch(at, f"no upgrade to revision {event.revision}")
            match.apply(event)
            return [event]
        if isinstance(event, MatchEnded) and event.ended_by == TIMEOUT and len(event.losers) == 1:
            # A match cut short by a timeout: a side's lowest seat has the side's number.
            return match.abandon(event.losers[0])
    except errors.IllegalAction as exc:
        raise errors.ReplayMismatch(at, f"the rules refuse this {event.type}: {exc}") from None
    raise errors.ReplayMismatch(at, f"{event.type} where the rules expect a move")


def _expect(log: list[Event], at: int, made: list[Event]) -> int:
    """Check that the log holds ``made`` from index ``at`` on; returns the index after them."""
    end = at + len(made)
    if log[at:end] != made:  # compared in one go; the loop only finds where they part
        for i, event in enumerate(made, at):
            if i == len(log):
                raise errors.ReplayMismatch(i, f"the log ends where {event.type} follows")
            if log[i] != event:
                raise errors.ReplayMismatch(i, _difference(log[i], event))
    return end


def _difference(stored: Event, made: Event) -> str:
    if type(stored) is not type(made):
        return f"{stored.type} where the rules give {made.type}"
    logged, rebuilt = stored.to_dict(), made.to_dict()
    return f"{made.type}: " + "; ".join(
        f"{f.name} is {logged[f.name]!r} in the log, the rules give {rebuilt[f.name]!r}"
        for f in dataclasses.fields(made)
        if getattr(stored, f.name) != getattr(made, f.name)
    )
