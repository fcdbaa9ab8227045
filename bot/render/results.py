"""Messages of their own: a round's result and the end of the match."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine import Match, Tile
from engine.events import MatchEnded, MatchEndedBy, Played, PlayedDoubles, RoundEnded
from engine.games.generals import generals
from engine.games.sea_goat import RECORDED_OUTCOMES
from engine.games.target import TargetGame
from engine.match import TIMEOUT
from engine.scoring.kozel import fish_taker
from engine.scoring.lightest import lightest
from engine.scoring.sea_goat import MINIMUM, holder
from engine.seats import seats_of

from ..callbacks import Callback
from ..games import SPECIAL_ENDS
from ..i18n import Html, plural, spoken_list, t
from ..sender import read_len
from ..table import Table
from .amounts import collected_pot, kozel_amounts, scoring_amounts
from .board import (
    block_name,
    ended_number,
    keeps_points,
    limit_of,
    lost_rounds_line,
    pot_unclaimed,
    round_number,
    round_text,
    score_lines,
    scores_points,
)
from .room import LIMIT, room_after
from .sheet import sheet_lines
from .tiles import laid, laid_words, tiles_text

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
    return _round_words(table, ended_number(table.match, ended))


def round_result_text(table: Table, ended: RoundEnded) -> Html:
    """A round's result: how it ended, the hands, what it gave each side, the score."""
    lang = table.language
    before, amounts = _round_parts(table, ended)
    after = [*amounts, t(lang, "result.scores"), *score_lines(table, lang, ended)]
    return _with_hands(table, ended.hands, before, after)


def closing_round(table: Table) -> RoundEnded | None:
    """The round whose end ended the match: the match's end tells it, hands and amounts, in
    place of a result of its own, whose score the final standings below it only repeated."""
    match = table.match
    if match is None or not match.is_over:
        return None
    return next((e for e in table.round_events if isinstance(e, RoundEnded)), None)


#: The ways a match ends that the round ending it says in a note of its own (``_round_notes``).
ROUND_SAYS_END: dict[MatchEndedBy, str] = {
    "na_sto": "na_sto_won",
    "instant_win": "instant_win",
    "two_doubles": "two_doubles",
}


def _told_by_round(closing: RoundEnded | None, ended: MatchEnded) -> bool:
    """Whether the round told with the match's end already says how it ended ("💯 The round
    played na sto is won, and the match with it!", "A General is hung on …"): one message
    said it twice."""
    if closing is None:
        return False
    if ended.ended_by == "general":
        return bool(closing.general)
    said = ROUND_SAYS_END.get(ended.ended_by)
    return said is not None and said == closing.outcome


def _round_parts(table: Table, ended: RoundEnded) -> tuple[list[str], list[str]]:
    """What a round's result says before the hands (how it ended) and after them (what each
    side got, then a blank line; nothing where the game keeps no points)."""
    assert table.match is not None
    if scores_points(table.match):
        return _scoring_round_parts(table, ended)
    lang = table.language
    seats = table.seats
    if ended.result == "out":
        assert ended.winner is not None
        head = t(lang, "result.out", round=numbered(table, ended), name=seats[ended.winner].name)
    elif ended.eggs:  # a fish too: its fisherman leads the next round (RULES.md §2.6)
        unclaimed = pot_unclaimed(table.match, ended)
        key = "result.eggs_unclaimed" if unclaimed else _fished(table.match, "eggs")
        head = t(lang, key, round=numbered(table, ended), pot=ended.pot, name=_fisher(table, ended))
    else:
        head = _block_head(table, ended)
    before = [head, *_closure(table, ended), *_round_notes(table, ended)]
    before += _fish_taker(table, ended)
    return before, [*kozel_amounts(table, ended), ""] if keeps_points(table.match) else []


def _block_head(table: Table, ended: RoundEnded) -> Html:
    """A round nobody could move in, as the game calls it (``block_name``): a fish and who made it,
    in the game's word for it (``_fished``), or a block."""
    assert table.match is not None
    lang, number = table.language, numbered(table, ended)
    if block_name(table.match) == "blocked":
        return t(lang, "result.blocked", round=number)
    return t(lang, _fished(table.match, "fish"), round=number, name=_fisher(table, ended))


def _fished(match: Match, head: Literal["fish", "eggs"]) -> str:
    """The key of a fish's head, or of the eggs' (``head``): their maker "closed the game", but
    in Donkey, where "closed" is a double laid face down (``Game.closes_doubles``), "blocked"
    it."""
    return f"result.{head}_blocked" if match.game.closes_doubles else f"result.{head}"


def _closure(table: Table, ended: RoundEnded) -> list[str]:
    """Why a fish the closure test called (RULES.md §1.9) never let anyone lay the closed suit's
    double, still in a hand or the bazaar: whoever held [3|3] saw it fit both ends, and "fish!"
    alone read as cheating."""
    suit = ended.closure_suit
    return [] if suit is None else [closure_line(table.language, suit)]


def closure_line(lang: str, suit: int) -> Html:
    """Why nobody could lay ``suit``'s double: the group's result says it, and the DM of whoever
    holds it (``ending.py``)."""
    double = tiles_text([Tile.of(suit, suit)])
    return t(lang, "result.closure", value=suit, double=double)


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
    lang, key = table.language, "result.heaviest_pair" if table.pairs else "result.heaviest"
    return [t(lang, key, name=table.side_name(side, lang), total=sum(ended.hand_values))]


def _round_notes(table: Table, ended: RoundEnded) -> list[str]:
    """What a game says of its round beyond who went out: Sea Goat's special outcomes, General's
    Goat's redeal, the player who lost the round and the General hung on his team."""
    lang, notes = table.language, list[str]()
    if ended.outcome in OUTCOMES:
        notes.append(_outcome_note(table, ended))
    unrecorded = _below_minimum(table, ended)
    if unrecorded:
        notes.append(t(lang, "result.outcome.below_minimum", value=unrecorded, minimum=MINIMUM))
    if ended.loser is not None:
        notes.append(t(lang, "result.outcome.lost_round", name=table.seats[ended.loser].name))
        if ended.general:
            assert table.match is not None
            side = table.match.side_of(ended.loser)
            notes.append(t(lang, "result.outcome.general", name=table.side_name(side, lang)))
    return notes


def _outcome_note(table: Table, ended: RoundEnded) -> Html:
    """The line of a special round end (``OUTCOMES``). A Sea Goat write-off by a win against the
    holder (RULES.md §3.2.1 rule 4) names the winner, what he won, and the holder: "another side
    won" meant nothing to players who each play alone, and "wins 25 or more" left the amount to
    be found in the lines below. A "на сто" round lost under ``sg_na_sto = svoyak``
    with 25 or more in hand loses the match (§3.2.1 rule 7), where "every score is written off"
    was said."""
    lang = table.language
    if ended.outcome == "na_sto_lost" and "match" in (ended.sea or {}):
        return t(lang, "result.outcome.na_sto_lost_match")  # svoyak: lost with 25 or more
    if ended.outcome == "instant_win":
        return _finish_note(table, ended)
    if ended.outcome != "writeoff":
        return t(lang, f"result.outcome.{ended.outcome}")
    match = table.match
    assert match is not None and ended.winner is not None and ended.amounts is not None
    before = [score - amount for score, amount in zip(ended.scores, ended.amounts, strict=True)]
    held = holder(before)
    assert held is not None  # only a win against the holder writes every score off
    key = "result.outcome.writeoff_pair" if table.pairs else "result.outcome.writeoff"
    side = match.side_of(ended.winner)
    pot = collected_pot(table, ended)
    won = None if pot is None else _collected(ended, side) + pot
    if won is not None and won >= MINIMUM:  # else the bot no longer knows the eggs it took
        key = key.replace("writeoff", "writeoff_won")
    name, held_by = table.side_name(side, lang), table.side_name(held, lang)
    return t(lang, key, name=name, holder=held_by, amount=won)


def _collected(ended: RoundEnded, side: int) -> int:
    """The losing sides' hands, which the round's winner (of ``side``) collects."""
    return sum(value for other, value in enumerate(ended.hand_values) if other != side)


def _finish_note(table: Table, ended: RoundEnded) -> Html:
    """A Sea Goat match won by going out on 0-0 or 6-6 (RULES.md §3.2.2) names the tiles the
    winner went out on, from the round's moves the table keeps: "Out on 0-0 or 6-6" beside
    Masha's [0|0] read as if the bot did not know which."""
    moves = [move for move in table.round_moves if move.round == ended.round]
    if not moves or moves[-1].seat != ended.winner:
        return t(table.language, "result.outcome.instant_win")
    tiles = tiles_text([placement.tile for placement in laid(moves[-1])])
    return t(table.language, "result.outcome.instant_win_on", tiles=tiles)


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
    won = _collected(ended, side) + (collected_pot(table, ended) or 0)
    return won if ended.amounts[side] == 0 and 0 < won < MINIMUM else 0


def _with_hands(table: Table, held: list[list[Tile]], before: list[str], after: list[str]) -> Html:
    """A round's result, or the end of a match won in the middle of a round: what comes
    ``before`` the hands, what each player was left holding (``held``), and what comes
    ``after``. Long names can make it longer than a message holds (``room``): then the hands
    give way to a line that says so, and the rest (what the round gave each side, the scores)
    stays."""
    lang = table.language
    hands = [
        t(lang, "result.hand", name=seat.name, tiles=tiles_text(held[seat.seat]))
        for seat in table.seats
    ]
    text = Html("\n".join([*before, "", *hands, "", *after]))
    if read_len(text) <= LIMIT:
        return text
    return Html("\n".join([*before, "", t(lang, "result.hands_elsewhere"), "", *after]))


def _scoring_round_parts(table: Table, ended: RoundEnded) -> tuple[list[str], list[str]]:
    """A round of a scoring game (``_round_parts``): who went out (or that nobody could move,
    and whose hand was lightest); what each side got at the end (a bonus, or a write-off)."""
    lang, seats = table.language, table.seats
    assert table.match is not None and ended.amounts is not None
    if ended.result == "out":
        assert ended.winner is not None
        name = seats[ended.winner].name
        parts: list[str] = [t(lang, "result.out", round=numbered(table, ended), name=name)]
    else:
        parts = [_block_head(table, ended), *_closure(table, ended)]
        if ended.winner is not None:
            parts.append(_block_winner(table, ended, ended.winner))
        else:
            parts += _lightest_tie(table, ended)
    parts += _round_notes(table, ended)
    amounts = scoring_amounts(table, ended)
    return parts, [*amounts, *([""] if amounts else [])]


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
        return plural(lang, "result.lightest_pair", total, name=table.side_name(side, lang))
    if won_by == "lightest_partners":  # their hands are equal: half of their side's each
        each = ended.hand_values[side] // 2
        return plural(lang, "result.lightest_both", each, name=table.side_name(side, lang))
    name = table.seats[winner].name
    if won_by == "lightest":
        return t(lang, "result.lightest", name=name)
    if won_by == "most_points":
        return t(lang, "result.won_by.most_points", name=name)
    # a tie-break: on what the table's rule counts first
    return t(lang, f"result.won_by.{won_by}.{match.rules.bg_block_winner}", name=name)


def _lightest_tie(table: Table, ended: RoundEnded) -> list[str]:
    """Who shared the fewest pips at a block that nobody won, in the games where the lightest
    hand takes a block and a tie between sides scores nothing (RULES.md §3.4, §3.6, §3.9): else
    "6 in hand → 0" stood beside the lightest hands unexplained. Not where every side writes
    off its own hand (§3.5), nor where a pair's hands count together."""
    match = table.match
    assert match is not None
    game = match.game
    if (
        not isinstance(game, TargetGame)
        or game.bonus(ended.result, match.rules) is None
        or (table.pairs and game.pairs_block_by_total)
        or ended.outcome is not None
    ):
        return []
    values = [game.hand_value(hand, match.rules) for hand in ended.hands]
    seats = lightest(values)
    if len({match.side_of(seat) for seat in seats}) < 2:
        return []
    lang = table.language
    names = spoken_list(lang, [table.seats[seat].name for seat in seats])
    return [plural(lang, "result.lightest_tie", values[seats[0]], names=names)]


def match_result_text(table: Table, ended: MatchEnded) -> Html:
    if ended.winners is not None:
        return _winners_text(table, ended)
    lang = table.language
    assert table.match is not None
    if ended.ended_by == "goat":
        head = losers_line(table, ended, lang)
    else:  # a timeout in Kozel or Donkey, or one stored before Sport domino's and General's
        # Goat's timeouts named their winners (``TIMEOUT_NAMES_WINNERS``)
        head = t(lang, "match.abandoned", names=who_timed_out(table, ended, lang))
    sides = sorted(range(table.match.sides), key=lambda s: ended.scores[s])
    return _ended_text(table, ended, [head], [_final(table, ended, side) for side in sides])


def _final(table: Table, ended: MatchEnded, side: int) -> str:
    """A side's final score; in a game that keeps no points (General's Goat) the rounds it
    lost and the Generals hung on it, as its board counts them."""
    match, lang = table.match, table.language
    assert match is not None
    name, score = table.side_name(side, lang), ended.scores[side]
    if keeps_points(match):
        return t(lang, "match.final", name=name, score=score)
    hung = generals(ended.ended_by, ended.losers, match.sides)
    return lost_rounds_line(table, lang, side, score, hung[side])


def _sides_named(table: Table, sides: Iterable[int], lang: str) -> str:
    """Several sides said together, as a pair's names are: "Masha and Olya"."""
    return spoken_list(lang, [table.side_name(side, lang) for side in sides])


def losers_line(table: Table, ended: MatchEnded, lang: str) -> Html:
    """Who lost, as the game calls its loser (``Game.loser_title``): a pair that loses is two
    goats, as two players who lose at once are."""
    assert table.match is not None
    title = table.match.game.loser_title
    key = f"match.{title}" if len(ended.losers) == 1 and not table.pairs else f"match.{title}s"
    return t(lang, key, names=_sides_named(table, ended.losers, lang))


def winners_line(table: Table, ended: MatchEnded, lang: str) -> Html:
    """Who won: a pair win together, as two players who win at once do."""
    assert ended.winners is not None
    several = table.pairs or len(ended.winners) > 1
    key = "match.winners" if several else "match.winner"
    return t(lang, key, names=_sides_named(table, ended.winners, lang))


def again_keyboard(table: Table) -> InlineKeyboardMarkup:
    """The match's end offers a new table set as this one was (``again``): its game, rules
    and computers."""
    data = Callback("again", table.id).encode()
    button = InlineKeyboardButton(t(table.language, "match.again_button"), callback_data=data)
    return InlineKeyboardMarkup([[button]])


def who_timed_out(table: Table, ended: MatchEnded, lang: str) -> str:
    """Who of the losing side timed out (``Table.dropped_out``): in a pair game not a partner
    who played on, or left; the whole side where the table no longer knows (a restart)."""
    dropped = table.dropped_out()
    timed_out = set() if dropped is None else dropped[1]
    return ", ".join(
        spoken_list(
            lang,
            [
                table.seats[seat].name
                for seat in seats_of(side, table.players, table.pairs)
                if seat in timed_out
            ],
        )
        or table.side_name(side, lang)
        for side in ended.losers
    )


def _special_end(table: Table, ended: MatchEnded) -> Html:
    """How the game's own rule ended the match (``SPECIAL_ENDS``): General's Goat's lost rounds
    name the team and how many it lost (§3.10), where "the other team lost as many rounds as it
    may" left both to the scores below."""
    lang = table.language
    if ended.ended_by != "losses":
        return t(lang, f"match.ended_by.{ended.ended_by}")
    (side,) = ended.losers
    names = table.side_name(side, lang)
    return plural(lang, "match.ended_by.losses", ended.scores[side], names=names)


def _winners_text(table: Table, ended: MatchEnded) -> Html:
    """The end of a match that names its winners (``Game.names_winners``: the win-at-target
    games, Sport domino, General's Goat): its winners (a pair win together), or a draw, or who
    timed out; then the final scores, the winners' first."""
    lang = table.language
    assert ended.winners is not None and table.match is not None
    if ended.ended_by == "draw":  # Sport domino's: equal points after its deals
        deals = table.match.game.deals(table.match.rules) is not None
        # A draw at the target: both sides past it when a round's end is scored, as in the
        # Ukrainian Telephone (§3.5), played by two players or two pairs.
        draw = "match.draw_pairs" if table.pairs else "match.draw"
        head = t(lang, "match.draw_deals" if deals else draw)
    elif ended.ended_by == TIMEOUT:
        head = t(lang, "match.abandoned", names=who_timed_out(table, ended, lang))
    else:
        head = winners_line(table, ended, lang)
    parts: list[str] = [head]
    if ended.ended_by in SPECIAL_ENDS and not _told_by_round(closing_round(table), ended):
        parts.append(_special_end(table, ended))
    # the winners first (a Sea Goat match won on 0-0 or na sto, by a side holding fewer points,
    # listed its losers above them), then the most points, or where points are bad (Sport,
    # General's Goat) the fewest
    sign = -1 if scores_points(table.match) else 1
    won = set(ended.winners)
    sides = sorted(range(table.match.sides), key=lambda s: (s not in won, sign * ended.scores[s]))
    return _ended_text(table, ended, parts, [_final(table, ended, side) for side in sides])


def _ended_text(table: Table, ended: MatchEnded, head: list[str], finals: list[str]) -> Html:
    """The end of a match, one message: its ``head`` (who won or lost, and how), how its last
    round went, the ``finals`` (every side's final score, said only here, under a head of its own
    as a round's result has), the sheet of rounds.
    The last round is told here with what each player was left holding: the round that ended
    the match (``closing_round``), which gets no result of its own, or the round a winning move
    or a timeout stopped, which never ends."""
    match, lang = table.match, table.language
    assert match is not None
    unfinished, amounts = match.unfinished_round, list[str]()
    closing, move = closing_round(table), _winning_move(table, ended)
    held: list[list[Tile]] | None = None
    if closing is not None:
        before, amounts = _round_parts(table, closing)
        head, held = [*head, *before], closing.hands
    elif move is not None:
        assert unfinished is not None and unfinished.number == move.round
        head, held = [*head, _winning_line(table, move)], unfinished.hands
    elif ended.ended_by == TIMEOUT and unfinished is not None:
        number = round_number(match, unfinished)
        line = t(lang, "match.cut_short", round=_round_words(table, number))
        head, held = [*head, line], unfinished.hands
    after = [*amounts, t(lang, "match.finals"), *finals, ""]  # labelled as a round's "Score:"
    again = t(lang, "match.again")
    # the sheet gets the room the rest leaves, its hands given way (``_with_hands``)
    rest = [*head, "", t(lang, "result.hands_elsewhere"), "", *after, again]
    sheet = sheet_lines(table, lang, ended, room=room_after(rest) - 1)  # a blank line
    after += [*sheet, *([""] if sheet else []), again]
    if held is None:
        return Html("\n".join([*head, "", *after]))
    return _with_hands(table, held, head, after)


def _round_words(table: Table, number: int) -> Html:
    """The round ``number`` as a result names it: "Round 3", or "Deal 3 of 8"."""
    assert table.match is not None
    return round_text(table.language, "result.round", table.match, number)


def _winning_move(table: Table, ended: MatchEnded) -> Played | PlayedDoubles | None:
    """The move that reached the target and so won the match in the middle of its round
    (RULES.md §1.11; §3.4, §3.6-§3.9: "the round is not finished"), from the round's events the
    table keeps; None when the match ended otherwise (at a round's end, whose result told the
    hands, or by a timeout)."""
    assert table.match is not None
    if ended.ended_by != "target" or table.match.unfinished_round is None:
        return None
    moves = table.round_moves
    return moves[-1] if moves and moves[-1].scored else None


def _winning_line(table: Table, move: Played | PlayedDoubles) -> Html:
    """The move that won in the middle of a round: its round, which stops there, its tiles,
    its points and the score they reached; said once, with the going out, where the move
    emptied its player's hand (the round's end is never scored: no result of it follows)."""
    match, lang = table.match, table.language
    assert match is not None and match.round is not None and move.scores is not None
    rnd = match.round
    key = "match.won_in_play" if rnd.hands[move.seat] else "match.won_in_play_out"
    return t(
        lang,
        key,
        round=_round_words(table, round_number(match, rnd)),
        name=table.seats[move.seat].name,
        tile=laid_words(lang, laid(move)),
        points=move.scored,
        score=move.scores[match.side_of(move.seat)],
        target=limit_of(match),
    )
