"""Messages of their own: a round's result and the end of the match."""

from __future__ import annotations

from engine.events import MatchEnded, RoundEnded

from ..i18n import Html, t
from ..table import Table
from .board import score_lines
from .tiles import tiles_text


def round_result_text(table: Table, ended: RoundEnded) -> Html:
    lang = table.language
    seats = table.seats
    if ended.result == "out":
        assert ended.winner is not None
        head = t(lang, "result.out", round=ended.round, name=seats[ended.winner].name)
    elif ended.eggs:
        head = t(lang, "result.eggs", round=ended.round, pot=ended.pot)
    else:
        fisher = "" if ended.fisherman is None else seats[ended.fisherman].name
        head = t(lang, "result.fish", round=ended.round, name=fisher)
    parts = [head, ""]
    for seat in seats:
        hand = ended.hands[seat.seat]
        parts.append(t(lang, "result.hand", name=seat.name, tiles=tiles_text(hand)))
    parts.append("")
    assert table.match is not None
    for side in range(table.match.sides):
        name = table.side_name(side)
        value = ended.hand_values[side]
        if ended.amounts is None:
            parts.append(t(lang, "result.value", name=name, value=value))
        else:
            parts.append(
                t(lang, "result.amount", name=name, value=value, amount=ended.amounts[side])
            )
    if ended.pot_awarded_to is not None:
        key = "result.pot_won_pair" if table.pairs else "result.pot_won"
        parts.append(t(lang, key, name=table.side_name(ended.pot_awarded_to)))
    parts.append("")
    parts.append(t(lang, "result.scores"))
    parts.extend(score_lines(table, lang))
    return Html("\n".join(parts))


def match_result_text(table: Table, ended: MatchEnded) -> Html:
    lang = table.language
    goats = ", ".join(table.side_name(side) for side in ended.losers)
    # a pair that loses is two goats
    key = "match.goat" if len(ended.losers) == 1 and not table.pairs else "match.goats"
    if ended.ended_by != "goat":
        key = "match.abandoned"
    parts = [t(lang, key, names=goats), ""]
    assert table.match is not None
    for side in sorted(range(table.match.sides), key=lambda s: ended.scores[s]):
        parts.append(t(lang, "match.final", name=table.side_name(side), score=ended.scores[side]))
    parts.append("")
    parts.append(t(lang, "match.again"))
    return Html("\n".join(parts))
