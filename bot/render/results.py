"""Messages of their own: a round's result and the end of the match."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine.events import MatchEnded, RoundEnded
from engine.games.generals import generals
from engine.games.sea_goat import RECORDED_OUTCOMES
from engine.scoring.kozel import fish_taker
from engine.scoring.sea_goat import MINIMUM
from engine.seats import seats_of

from ..callbacks import Callback
from ..games import SPECIAL_ENDS
from ..i18n import Html, plural, t
from ..sender import read_len
from ..table import Table
from .amounts import collected_pot, kozel_amounts, scoring_amounts
from .board import (
    ended_number,
    keeps_points,
    lost_rounds_line,
    pot_unclaimed,
    round_text,
    score_lines,
    scores_points,
)
from .room import LIMIT
from .sheet import sheet_lines
from .tiles import tiles_text

#: The special ways a round ends that get a line of their own (Sea Goat, RULES.md §3.2).
OUTCOMES = frozenset(
    (
        "writeoff",
        "fish_writeoff",
        "fish_written_off",
        "fish_lost",
        "eggs",
        "eggs_rotten",
        "na_sto_won",
        "na_sto_lost",
        "instant_win",
        "two_doubles",
        "penalty_66",
        "redealt",
    )
)


def numbered(table: Table, ended: RoundEnded) -> Html:
    """The round as its result names it: "Round 3", or in Sport domino "Deal 3 of 8", as its
    board does."""
    assert table.match is not None
    match = table.match
    return round_text(table.language, "result.round", match, ended_number(match, ended))


def round_result_text(table: Table, ended: RoundEnded) -> Html:
    assert table.match is not None
    if scores_points(table.match):
        return _scoring_round_text(table, ended)
    lang = table.language
    seats = table.seats
    if ended.result == "out":
        assert ended.winner is not None
        head = t(lang, "result.out", round=numbered(table, ended), name=seats[ended.winner].name)
    elif ended.eggs:  # a fish too: its fisherman leads the next round (RULES.md §2.6)
        key = "result.eggs_unclaimed" if pot_unclaimed(table.match, ended) else "result.eggs"
        head = t(lang, key, round=numbered(table, ended), pot=ended.pot, name=_fisher(table, ended))
    else:
        head = _fish_head(table, ended)
    before = [head, *_round_notes(table, ended), *_fish_taker(table, ended)]
    after = [*kozel_amounts(table, ended), ""] if keeps_points(table.match) else []
    after += [t(lang, "result.scores"), *score_lines(table, lang, ended)]
    return _with_hands(table, ended, before, after)


def _fish_head(table: Table, ended: RoundEnded) -> Html:
    return t(
        table.language, "result.fish", round=numbered(table, ended), name=_fisher(table, ended)
    )


def _fisher(table: Table, ended: RoundEnded) -> str:
    return "" if ended.fisherman is None else table.seats[ended.fisherman].name


def _fish_taker(table: Table, ended: RoundEnded) -> list[str]:
    """After a fish under ``fish_mode = for_one`` (RULES.md §2.7.3), who is charged every hand's
    points: else "16 in hand → +30" said nothing of why."""
    match = table.match
    assert match is not None
    if ended.result != "fish" or not keeps_points(match):
        return []
    side = fish_taker(ended.hand_values, match.rules)
    if side is None:
        return []
    key = "result.heaviest_pair" if table.pairs else "result.heaviest"
    return [t(table.language, key, name=table.side_name(side), total=sum(ended.hand_values))]


def _round_notes(table: Table, ended: RoundEnded) -> list[str]:
    """What a game says of its round beyond who went out: Sea Goat's special outcomes, General's
    Goat's redeal, the player who lost the round and the General hung on his team."""
    lang, notes = table.language, list[str]()
    if ended.outcome in OUTCOMES:
        notes.append(t(lang, f"result.outcome.{ended.outcome}"))
    unrecorded = _below_minimum(table, ended)
    if unrecorded:
        notes.append(t(lang, "result.outcome.below_minimum", value=unrecorded, minimum=MINIMUM))
    if ended.loser is not None:
        notes.append(t(lang, "result.outcome.lost_round", name=table.seats[ended.loser].name))
        if ended.general:
            assert table.match is not None
            side = table.match.side_of(ended.loser)
            notes.append(t(lang, "result.outcome.general", name=table.side_name(side)))
    return notes


def _below_minimum(table: Table, ended: RoundEnded) -> int:
    """What a Sea Goat round's winner won (the losing sides' hands, and the eggs carried in where
    the bot knows them) and could not record, being under 25 (RULES.md §3.2.1 rules 3-4:
    recording starts at 25, and less against the holder changes nothing); 0 when he recorded
    it or the round was not recorded so. Else a "→ 0" beside a win would go unexplained."""
    match = table.match
    assert match is not None
    if ended.sea is None or ended.outcome not in RECORDED_OUTCOMES or ended.winner is None:
        return 0
    if ended.amounts is None:
        return 0
    side = match.side_of(ended.winner)
    won = sum(value for other, value in enumerate(ended.hand_values) if other != side)
    won += collected_pot(table, ended) or 0
    return won if ended.amounts[side] == 0 and 0 < won < MINIMUM else 0


def _with_hands(table: Table, ended: RoundEnded, before: list[str], after: list[str]) -> Html:
    """A round's result: what comes ``before`` the hands, what each player was left holding,
    and what comes ``after``. Long names can make it longer than a message holds (``room``):
    then the hands give way to a line that says so, and what the round gave each side and the
    score stay."""
    lang = table.language
    hands = [
        t(lang, "result.hand", name=seat.name, tiles=tiles_text(ended.hands[seat.seat]))
        for seat in table.seats
    ]
    text = Html("\n".join([*before, "", *hands, "", *after]))
    if read_len(text) <= LIMIT:
        return text
    return Html("\n".join([*before, "", t(lang, "result.hands_elsewhere"), "", *after]))


def _scoring_round_text(table: Table, ended: RoundEnded) -> Html:
    """A round of a scoring game: who went out (or that nobody could move, and whose hand was
    lightest), the hands, what each side got at the end (a bonus, or a write-off), the score."""
    lang, seats = table.language, table.seats
    assert table.match is not None and ended.amounts is not None
    if ended.result == "out":
        assert ended.winner is not None
        name = seats[ended.winner].name
        parts: list[str] = [t(lang, "result.out", round=numbered(table, ended), name=name)]
    else:
        if table.match.game.blocks_are_fish:
            parts = [_fish_head(table, ended)]
        else:
            parts = [t(lang, "result.blocked", round=numbered(table, ended))]
        if ended.winner is not None:
            parts.append(_block_winner(table, ended, ended.winner))
    parts += _round_notes(table, ended)
    after = [*scoring_amounts(table, ended), "", t(lang, "result.scores")]
    return _with_hands(table, ended, parts, [*after, *score_lines(table, lang, ended)])


def _block_winner(table: Table, ended: RoundEnded, winner: int) -> Html:
    """Who won a blocked round, by what the engine recorded (``RoundEnded.won_by``): the
    lightest hand, both partners sharing it (RULES.md §3.6), a pair by its hands together
    (Traditional, Sea Goat: one of the others may hold fewer alone), or in Bulgarian fives more
    match points, or the tie-break that decided it (§3.8). A round recorded before the engine
    said (rules revision 5) was won by the lightest hand."""
    match = table.match
    assert match is not None
    lang, side = table.language, match.side_of(winner)
    won_by = ended.won_by or "lightest"
    if won_by == "lightest_pair":
        total = ended.hand_values[side]
        return plural(lang, "result.lightest_pair", total, name=table.side_name(side))
    if won_by == "lightest_partners":  # their hands are equal: half of their side's each
        each = ended.hand_values[side] // 2
        return plural(lang, "result.lightest_both", each, name=table.side_name(side))
    name = table.seats[winner].name
    if won_by == "lightest":
        return t(lang, "result.lightest", name=name)
    if won_by == "most_points":
        return t(lang, "result.won_by.most_points", name=name)
    # a tie-break: on what the table's rule counts first
    return t(lang, f"result.won_by.{won_by}.{match.rules.bg_block_winner}", name=name)


def match_result_text(table: Table, ended: MatchEnded) -> Html:
    if ended.winners is not None:
        return _winners_text(table, ended)
    lang = table.language
    goats = ", ".join(table.side_name(side) for side in ended.losers)
    assert table.match is not None
    if ended.ended_by == "goat":
        # what the game calls its loser (``Game.loser_title``): a pair that loses is two goats
        title = table.match.game.loser_title
        key = f"match.{title}" if len(ended.losers) == 1 and not table.pairs else f"match.{title}s"
    else:
        key, goats = "match.abandoned", _who_timed_out(table, ended)
    parts = [t(lang, key, names=goats), ""]
    for side in sorted(range(table.match.sides), key=lambda s: ended.scores[s]):
        parts.append(t(lang, "match.final", name=table.side_name(side), score=ended.scores[side]))
    parts += ["", *_sheet(table, ended), t(lang, "match.again")]
    return Html("\n".join(parts))


def again_keyboard(table: Table) -> InlineKeyboardMarkup:
    """The match's end offers a new table set as this one was (``again``): its game, rules
    and computers."""
    data = Callback("again", table.id).encode()
    button = InlineKeyboardButton(t(table.language, "match.again_button"), callback_data=data)
    return InlineKeyboardMarkup([[button]])


def _who_timed_out(table: Table, ended: MatchEnded) -> str:
    """Who of the losing side timed out (``Table.dropped_out``): in a pair game not a partner
    who played on, or left; the whole side where the table no longer knows (a restart)."""
    dropped = table.dropped_out()
    timed_out = set() if dropped is None else dropped[1]
    return ", ".join(
        " & ".join(
            table.seats[seat].name
            for seat in seats_of(side, table.players, table.pairs)
            if seat in timed_out
        )
        or table.side_name(side)
        for side in ended.losers
    )


def _winners_text(table: Table, ended: MatchEnded) -> Html:
    """The end of a win-at-target match: its winners (a pair win together), or a draw, or who
    timed out; then the final scores, best first."""
    lang = table.language
    assert ended.winners is not None and table.match is not None
    winners = ", ".join(table.side_name(side) for side in ended.winners)
    if ended.ended_by == "draw":  # Sport domino's: equal points after its deals
        deals = table.match.game.deals(table.match.rules) is not None
        head = t(lang, "match.draw_deals" if deals else "match.draw")
    elif ended.ended_by == "timeout":
        head = t(lang, "match.abandoned", names=_who_timed_out(table, ended))
    else:
        plural = len(ended.winners) > 1 or table.pairs
        head = t(lang, "match.winners" if plural else "match.winner", names=winners)
    parts: list[str] = [head, ""]
    if ended.ended_by in SPECIAL_ENDS:
        parts[1:1] = [t(lang, f"match.ended_by.{ended.ended_by}")]
    # best first: the most points, or where points are bad (Sport, General's Goat) the fewest
    sign = -1 if scores_points(table.match) else 1
    hung = generals(ended.ended_by, ended.losers, table.match.sides)
    for side in sorted(range(table.match.sides), key=lambda s: sign * ended.scores[s]):
        name, score = table.side_name(side), ended.scores[side]
        if keeps_points(table.match):
            parts.append(t(lang, "match.final", name=name, score=score))
        else:  # its rounds lost and Generals
            parts.append(lost_rounds_line(table, lang, side, score, hung[side]))
    parts += ["", *_sheet(table, ended), t(lang, "match.again")]
    return Html("\n".join(parts))


def _sheet(table: Table, ended: MatchEnded) -> list[str]:
    """The match's sheet of rounds, then a blank line; nothing before a round ended."""
    sheet = sheet_lines(table, table.language, ended)
    return [*sheet, ""] if sheet else []
