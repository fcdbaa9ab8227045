"""The line a player's last hand message in the DM gains when the round or the match ends: the
group has the result, and a DM that still showed the hand as if in play left them guessing."""

from __future__ import annotations

from engine import Tile
from engine.events import MatchEnded, RoundEnded
from engine.match import TIMEOUT

from ..i18n import Html, t
from ..table import Seat, Table
from .board import block_name, ended_number, keeps_points, round_text
from .place import place_name
from .results import closure_line, losers_line, who_timed_out, winners_line


def ending_line(table: Table, seat: Seat, ended: RoundEnded | MatchEnded) -> Html:
    """One line, then where the rest is told."""
    if isinstance(ended, RoundEnded):
        line = _round_over(table, seat, ended)
    else:
        line = _match_over(table, seat, ended)
    return Html(line + " " + t(seat.language, "hand.over.details"))


def _round_over(table: Table, seat: Seat, ended: RoundEnded) -> Html:
    """Who went out, or that nobody could: the hands and scores are the group's. A fish that
    does not count (General's Goat) says the round is dealt again: its next deal keeps the
    number, which "Round 3 is over" alone contradicted. Whoever holds the double of a suit the
    closure test closed (RULES.md §1.9) sees it fit both ends in the hand above: he is told why
    he could not lay it, as the group is."""
    match, lang = table.match, seat.language
    assert match is not None
    if ended.winner is not None and ended.result == "out":
        how = _who_went_out(table, seat, ended.winner)
    elif ended.outcome == "redealt":
        how = t(lang, "hand.over.fish_redealt")
    else:
        how = t(lang, f"hand.over.{block_name(match)}")
    suit = ended.closure_suit
    if suit is not None and Tile.of(suit, suit) in ended.hands[seat.seat]:
        how = Html(how + " " + closure_line(lang, suit))
    return round_text(lang, "hand.over.round", match, ended_number(match, ended), how=how)


def _who_went_out(table: Table, seat: Seat, winner: int) -> Html:
    lang = seat.language
    if winner == seat.seat:
        return t(lang, "hand.over.you_out")
    assert table.match is not None
    name = table.seats[winner].name
    partner = table.pairs and table.match.side_of(winner) == table.match.side_of(seat.seat)
    return t(lang, "hand.over.partner_out" if partner else "hand.over.out", name=name)


def _match_over(table: Table, seat: Seat, ended: MatchEnded) -> Html:
    """The match's outcome as this player's: theirs (you won, you are the goat) or whose it
    is, with their score where the game keeps points."""
    match, lang = table.match, seat.language
    assert match is not None
    where = place_name(lang, table)
    if ended.ended_by == TIMEOUT:
        names = who_timed_out(table, ended, lang)
        return t(lang, "hand.over.abandoned", chat=where, names=names)
    side = match.side_of(seat.seat)
    line = t(lang, "hand.over.match", chat=where, how=_outcome(table, seat, ended, side))
    if keeps_points(match):
        key = "hand.over.pair_score" if table.pairs else "hand.over.your_score"
        line = Html(line + " " + t(lang, key, score=ended.scores[side]))
    return line


def _outcome(table: Table, seat: Seat, ended: MatchEnded, side: int) -> Html:
    match, lang = table.match, seat.language
    assert match is not None
    many, yours = ("s", "pair") if table.pairs else ("", "you")
    if ended.winners is None:  # Kozel, Donkey: its losers are named
        if side in ended.losers:
            return t(lang, f"hand.over.{yours}_{match.game.loser_title}{many}")
        return losers_line(table, ended, lang)
    if ended.ended_by == "draw":
        return t(lang, "hand.over.draw")
    if side in ended.winners:
        return t(lang, f"hand.over.{yours}_won")
    return winners_line(table, ended, lang)
