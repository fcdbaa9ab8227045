"""Tables built in memory, for tests of what the bot shows without a database or Telegram."""

from __future__ import annotations

from bot.table import Seat, Table
from engine import Match, RuleSet
from storage import TableRow


def table_of(
    names: list[str], pairs: bool = False, lang: str = "en", rules: RuleSet | None = None
) -> Table:
    """A table in play with a person in each seat and a new match (seed 1)."""
    rules = rules or RuleSet()
    row = TableRow(
        table_id=1,
        chat_id=-1,
        thread_id=None,
        status="playing",
        game="kozel",
        rules=rules.to_dict(),
        players=len(names),
        pairs=pairs,
        opener_id=100,
        lobby_message_id=None,
        board_message_id=None,
        turn_seconds=60,
        turn_deadline=None,
        created_at=0.0,
        updated_at=0.0,
        finished_at=None,
        last_seq=0,
        announced_seq=0,
    )
    seats = [Seat(i, 100 + i, name) for i, name in enumerate(names)]
    match, _ = Match.new(len(names), pairs, rules, seed=1)
    return Table(row, lang, seats, match)
