"""Standings: the match in progress, a group's all-time table of one game, and a person's own
record in each game."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from engine.games import GAMES
from storage import GameRecord, RecentMatch, StandingRow, UserRecord

from ..i18n import Html, day, decimal, plural, t
from ..sender import read_len
from ..table import Table
from .amounts import signed
from .board import board_text, headline, score_lines
from .game_names import game_name
from .room import LIMIT, room_after
from .sheet import sheet_lines


def match_text(table: Table, lang: str) -> Html:
    """/standings: the match in progress, its rounds played, the score, the sheet of its rounds
    and the board, which does not say the score again. Long names leave the sheet's earlier
    rounds out, and then the board (the group has it) if even so it does not fit in a
    message."""
    match = table.match
    assert match is not None
    lines: list[str] = [headline(lang, "standings.head", match, rounds=match.rounds_counted)]
    lines += score_lines(table, lang)
    if match.round is None or match.is_over:
        return _with_sheet(table, lang, lines, [])
    text = _with_sheet(table, lang, lines, ["", board_text(table, scores=False)])
    if read_len(text) <= LIMIT:
        return text
    return _with_sheet(table, lang, lines, ["", t(lang, "standings.board_elsewhere")])


def _with_sheet(table: Table, lang: str, lines: list[str], board: list[str]) -> Html:
    """``lines``, the sheet of rounds in the room the ``board`` after it leaves, the board."""
    sheet = sheet_lines(table, lang, room=room_after([*lines, *board]) - 1)  # a blank line
    return Html("\n".join([*lines, *(["", *sheet] if sheet else []), *board]))


def _worded(key: str, game: str) -> str:
    """The variant of ``key`` for ``game``'s record: its losses by the title its loser gets
    (``Game.loser_title``): Kozel's goats (``key`` itself), Donkey's donkeys (``_donkey``);
    else lost rounds where the game keeps no points (``_rounds``: General's Goat), or points
    and plain losses (``_score``)."""
    title = GAMES[game].loser_title
    if title is not None:
        return key if title == "goat" else f"{key}_{title}"
    return key + ("_score" if GAMES[game].keeps_points else "_rounds")


def _score(lang: str, match: RecentMatch) -> Html:
    """A match's recorded score in words: the rounds lost, where the game keeps no points, or
    points, won (the scoring games, Sea Goat, Traditional) or taken (Kozel, Donkey, Sport), with
    the noun in the number's form ("1 очко", "43 очка", "45 очков")."""
    if not GAMES[match.game].keeps_points:
        return plural(lang, "stats.lost_rounds", match.score)
    return plural(lang, "stats.points", match.score)


def top_text(
    lang: str, game: str, rows: Sequence[StandingRow], *, page: int, total: int, size: int
) -> Html:
    """A page of the group's standings in ``game``; ``rows`` empty: the game was never played."""
    name = game_name(lang, game)
    if not rows:
        return t(lang, "top.empty_game", game=name)
    pages = max(1, -(-total // size))
    parts: list[str] = [t(lang, "top.head", game=name, page=page + 1, pages=pages)]
    for row in rows:
        line = t(
            lang,
            _worded("top.row", game),
            rank=row.rank,
            name=row.display_name,
            rating=signed(row.rating),
            matches=row.matches,
            wins=row.wins,
            goats=row.losses,
            losses=row.losses,
            avg=decimal(lang, row.avg_points),
        )
        parts.append(line + (t(lang, "top.draws", draws=row.draws) if row.draws else ""))
    return Html("\n".join(parts))


def record_text(
    lang: str, record: UserRecord, recent: Sequence[RecentMatch], zone: dt.tzinfo
) -> Html:
    """A person's matches in all, their record in each game, and their latest matches, dated
    by the calendar of ``zone``."""
    if record.matches == 0:
        return t(lang, "stats.none", name=record.display_name)
    parts: list[str] = [
        t(lang, "stats.head", name=record.display_name, matches=record.matches, chats=record.chats)
    ]
    parts += [_game_line(lang, game) for game in record.games]
    if recent:
        parts.append("")
        parts.append(t(lang, "stats.recent"))
    for match in recent:
        parts.append(
            t(
                lang,
                _match_key(match),
                date=day(lang, match.finished_at, zone),
                game=game_name(lang, match.game),
                chat=match.chat_title,
                score=_score(lang, match),
                delta=_rating_change(lang, match.rating_delta),
            )
        )
    return Html("\n".join(parts))


def _rating_change(lang: str, delta: int) -> str:
    """What a match did to the rating: "+3", "−2"; a change rounded to nothing read "rating
    +0", and is said in words."""
    return t(lang, "stats.unchanged") if delta == 0 else signed(delta)


def _game_line(lang: str, record: GameRecord) -> str:
    line = t(
        lang,
        _worded("stats.game", record.game),
        game=game_name(lang, record.game),
        matches=record.matches,
        wins=record.wins,
        goats=record.losses,
        losses=record.losses,
        avg=decimal(lang, record.avg_points),
        rating=signed(record.rating),
    )
    return line + (t(lang, "stats.draws", draws=record.draws) if record.draws else "")


def _match_key(match: RecentMatch) -> str:
    """How a past match is marked: 🏆 won, 🤝 drawn, a loss by its loser's title (🐐 Kozel's
    goat, 🫏 Donkey's donkey, as /history marks them); a plain loss unmarked."""
    title = GAMES[match.game].loser_title
    if match.outcome == "won":
        return "stats.match_won"
    if match.outcome == "draw":
        return "stats.match_draw"
    if match.outcome == "lost" and title is not None:
        return f"stats.match_{title}"
    return "stats.match"
