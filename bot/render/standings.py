"""Standings: the group's all-time table and a person's own record."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from storage import RecentMatch, StandingRow, UserRecord

from ..i18n import Html, t


def top_text(lang: str, rows: Sequence[StandingRow], page: int, total: int, size: int) -> Html:
    if not rows:
        return t(lang, "top.empty")
    pages = max(1, -(-total // size))
    parts: list[str] = [t(lang, "top.head", page=page + 1, pages=pages)]
    for row in rows:
        parts.append(
            t(
                lang,
                "top.row",
                rank=row.rank,
                name=row.display_name,
                rating=f"{row.rating:+d}",
                matches=row.matches,
                wins=row.wins,
                goats=row.goats,
                avg=f"{row.avg_points:.1f}",
            )
        )
    return Html("\n".join(parts))


def record_text(lang: str, record: UserRecord, recent: Sequence[RecentMatch]) -> Html:
    if record.matches == 0:
        return t(lang, "stats.none", name=record.display_name)
    parts: list[str] = [
        t(
            lang,
            "stats.head",
            name=record.display_name,
            matches=record.matches,
            wins=record.wins,
            goats=record.goats,
            avg=f"{record.avg_points:.1f}",
            rating=f"{record.rating:+d}",
            chats=record.chats,
        )
    ]
    if recent:
        parts.append("")
        parts.append(t(lang, "stats.recent"))
    for match in recent:
        day = dt.datetime.fromtimestamp(match.finished_at, dt.UTC).strftime("%Y-%m-%d")
        key = "stats.match_goat" if match.is_goat else "stats.match"
        parts.append(
            t(
                lang,
                key,
                date=day,
                chat=match.chat_title,
                score=match.score,
                delta=f"{match.rating_delta:+d}",
            )
        )
    return Html("\n".join(parts))
