"""A match a timeout ended in the middle of a round: its end says the round stops there and
shows what each player still held, as the end of a match won by a move does. It told who timed
out and the scores, and the hands of that round were never shown to anyone."""

from __future__ import annotations

import dataclasses

import pytest

from bot.render.results import match_result_text
from engine import Play, revisions
from engine.events import MatchEnded
from engine.rules import PRESETS
from tests.bot.tables import table_of
from tests.bot.test_render_round_names import plain
from tests.engine.support import layout_position, scoring_table
from tests.engine.support import t as tile
from tests.engine.test_scoring_examples import P0, SIXES


@pytest.mark.parametrize(
    ("lang", "said", "finals"),
    [
        (
            "en",
            "⏰ Round 1 stops here, unfinished: the hands left are not counted.",
            "Final score:",
        ),
        (
            "ru",
            "⏰ Раунд 1 на этом обрывается: оставшиеся на руках камни не считаются.",
            "Итоговый счёт:",
        ),
        (
            "uk",
            "⏰ Раунд 1 на цьому обривається: камені, що лишилися на руках, не рахуються.",
            "Підсумковий рахунок:",
        ),
    ],
)
def test_a_kozel_match_cut_short_by_a_timeout_shows_the_hands_left(
    lang: str, said: str, finals: str
) -> None:
    table = table_of(["Masha", "Alex"], lang=lang)
    match = table.match
    assert match is not None and match.round is not None
    seat = match.current_seat
    assert seat is not None
    match.act(seat, next(a for a in match.legal_actions(seat) if isinstance(a, Play)))
    [ended] = match.abandon(1 - seat)
    assert isinstance(ended, MatchEnded)
    lines = plain(match_result_text(table, ended)).splitlines()
    hands = [
        f"{name}: {''.join(f'[{x.a}|{x.b}]' for x in held)}"
        for name, held in zip(["Masha", "Alex"], match.round.hands, strict=True)
    ]
    # the final scores under a head of their own, as a round's result has "Score:"
    assert lines[1:9] == [said, "", *hands, "", finals, "Masha: 0", "Alex: 0"]


def test_a_scoring_match_cut_short_by_a_timeout_shows_the_hands_left() -> None:
    match = scoring_table("muggins")
    layout_position(match, hands=["4-6 1-4", "3-5 2-2"], lays=SIXES, turn=P0, scores=(40, 7))
    match.act(P0, Play(tile("4-6"), "right"))
    [ended] = match.abandon(1)
    assert isinstance(ended, MatchEnded)
    table = table_of(["Al", "Bo"], rules=PRESETS["muggins"]())
    table.match = match
    lines = plain(match_result_text(table, ended)).splitlines()
    assert lines[:9] == [
        "The match ended early: Bo timed out.",
        "⏰ Round 2 stops here, unfinished: the hands left are not counted.",
        "",
        "Al: [1|4]",
        "Bo: [3|5][2|2]",
        "",
        "Final score:",
        "Al: 50",
        "Bo: 7",
    ]


@pytest.mark.parametrize(("revision", "won"), [(6, None), (revisions.current(), [1])])
def test_a_generals_goat_match_cut_short_by_a_timeout_counts_the_rounds_each_team_lost(
    revision: int, won: list[int] | None
) -> None:
    """General's Goat keeps no points (RULES.md §3.10): its end counts the rounds each team lost,
    and so does a timeout's, where "Masha and Olya: 0" read as points. Since revision 7 the team
    that did not time out is named the winner and listed first; an end stored before it, naming
    none, lists the teams by the rounds they lost."""
    names = ["Masha", "Alex", "Olya", "Serg"]
    table = table_of(names, pairs=True, rules=PRESETS["generals_goat"]().under(revision))
    match = table.match
    assert match is not None
    match.tally = dataclasses.replace(match.tally, scores=(0, 1))
    table.seats[0].absent = True  # Masha timed out, not Olya
    [ended] = match.abandon(0)
    assert isinstance(ended, MatchEnded) and ended.winners == won
    lines = plain(match_result_text(table, ended)).splitlines()
    assert lines[0] == "The match ended early: Masha timed out."
    at = lines.index("Final score:")
    masha = "Masha and Olya: lost 0 of 2 · 🎖 Generals: 0"
    alex = "Alex and Serg: lost 1 of 2 · 🎖 Generals: 0"
    assert lines[at + 1 : at + 3] == ([alex, masha] if won else [masha, alex])
