"""/history: a group's latest matches, each with its sides, their scores, and who won or lost,
so that a group can settle "who was the goat last Friday" without scrolling."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from functools import partial

from engine.games import GAMES
from storage import PastMatch, PastSeat

from ..i18n import Html, day, plural, spoken_list, t
from .game_names import game_name
from .room import room_after, whole_rows

#: The outcomes a side is marked with: won, drawn, or lost under the game's own title.
MARKED = frozenset(("won", "draw", "goat", "donkey", "timeout"))


def history_text(
    lang: str, matches: Sequence[PastMatch], computer: Callable[[int], str], zone: dt.tzinfo
) -> Html:
    """The matches, newest first, as many as one message holds whole (long names may leave
    the oldest out, counted in a last line); ``computer`` names a computer player by its number,
    as its table did, and ``zone`` is the time zone whose calendar dates them."""
    if not matches:
        return t(lang, "top.empty")
    head = t(lang, "history.head")
    rows = [_match(lang, match, computer, zone) for match in matches]
    kept, older = whole_rows(rows, room_after([head]), partial(plural, lang, "history.older"))
    return Html("\n".join([head, *kept, *([older] if older else [])]))


def _match(lang: str, match: PastMatch, computer: Callable[[int], str], zone: dt.tzinfo) -> Html:
    """One match: its day, its game, and its sides."""
    sides = Html(" · ".join(_side(lang, match, side, computer) for side in _sides(match)))
    key = "history.match_timeout" if match.ended_by == "timeout" else "history.match"
    date = day(lang, match.finished_at, zone)
    return t(lang, key, date=date, game=game_name(lang, match.game), sides=sides)


def _sides(match: PastMatch) -> list[int]:
    return sorted({seat.side for seat in match.seats})


def _side(lang: str, match: PastMatch, side: int, computer: Callable[[int], str]) -> Html:
    """A side's names, its score (the rounds it lost, in a game that keeps no points) and how it
    came out: 🏆 won, 🤝 drawn, the game's loser (Kozel's goat 🐐), ⏰ timed out, else nothing."""
    seats = [seat for seat in match.seats if seat.side == side]
    names = spoken_list(lang, [_name(seat, computer) for seat in seats])
    first = seats[0]
    game = GAMES[match.game]
    if game.keeps_points:
        said = t(lang, "history.side", names=names, score=first.score)
    else:  # in words, after a colon: "Masha and Olya: 2 rounds lost"
        lost = plural(lang, "stats.lost_rounds", first.score)
        said = t(lang, "history.side_rounds", names=names, score=lost)
    outcome: str = first.outcome
    if outcome == "lost" and match.ended_by == "timeout":
        outcome = "timeout"  # who timed out lost, but was no goat
    elif outcome == "lost" and game.loser_title is not None:
        outcome = game.loser_title  # Kozel's goat, Donkey's donkey
    mark = t(lang, f"history.{outcome}") if outcome in MARKED else ""
    return Html(said + mark)


def _name(seat: PastSeat, computer: Callable[[int], str]) -> str:
    if seat.computer is not None:
        return computer(seat.computer)
    assert seat.display_name is not None  # a person always has one (users.display_name)
    return seat.display_name
