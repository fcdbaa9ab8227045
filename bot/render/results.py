"""Messages of their own: a round's result and the end of the match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.events import MatchEnded, RoundEnded
from engine.games.generals import generals
from engine.scoring.fives import pips
from engine.scoring.kozel import fish_amounts, fish_taker
from engine.scoring.sea_goat import MINIMUM
from engine.seats import partner_of, seats_of

from ..games import SPECIAL_ENDS
from ..i18n import Html, t
from ..table import Table
from .board import (
    ended_number,
    keeps_points,
    lost_rounds_line,
    round_text,
    score_lines,
    scores_points,
)
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
    elif ended.eggs:
        head = t(lang, "result.eggs", round=numbered(table, ended), pot=ended.pot)
    else:
        head = _fish_head(table, ended)
    parts = [head, *_round_notes(table, ended), *_fish_taker(table, ended)]
    parts += ["", *_hands(table, ended), ""]
    if keeps_points(table.match):
        parts += [*_amounts(table, ended), ""]
    parts.append(t(lang, "result.scores"))
    parts.extend(score_lines(table, lang))
    return Html("\n".join(parts))


def _fish_head(table: Table, ended: RoundEnded) -> Html:
    fisher = "" if ended.fisherman is None else table.seats[ended.fisherman].name
    return t(table.language, "result.fish", round=numbered(table, ended), name=fisher)


def _amounts(table: Table, ended: RoundEnded) -> list[str]:
    """What each side held, and what it wrote (with the eggs' pot, if it took it)."""
    lang, parts, match = table.language, list[str](), table.match
    assert match is not None
    before = _kept_before(table, ended)
    for side in range(match.sides):
        name = table.side_name(side)
        value = ended.hand_values[side]
        if ended.amounts is None:
            parts.append(t(lang, "result.value", name=name, value=value))
            continue
        amount = ended.amounts[side]
        line: str
        if _partner_ignored(table, ended, side):
            line = t(lang, "result.out_pair", name=name, amount=signed(amount))
        elif _unwritten(ended, side):
            line = _unwritten_line(table, ended, side)
        elif before is not None and _opened_now(ended, before, side):
            remembered = before.memory[side]
            line = t(
                lang,
                "result.opened",
                name=name,
                value=value,
                amount=signed(amount),
                memory=remembered,
                total=signed(amount + remembered),
            )
        else:
            line = t(lang, "result.points", name=name, value=value, amount=signed(amount))
        parts.append(line + _wiped(table, ended, before, side))
    if ended.pot_awarded_to is not None:
        parts.append(_eggs_taken(table, ended, before))
    bonus = _special_bonus(table, ended, before)
    if bonus:
        parts.append(t(lang, "result.special_bonus", bonus=bonus))
    return parts


def _special_bonus(table: Table, ended: RoundEnded, before: Kept | None) -> int:
    """What each side that lost took for a 6-6 or 0-0 led or laid last (``special_bones``,
    RULES.md §2.7.5): its amount beyond its hands' points and the eggs. "16 in hand → +66"
    left the 50 unexplained."""
    match = table.match
    assert match is not None
    if not match.rules.special_bones or ended.amounts is None or before is None:
        return 0
    winning = None if ended.winner is None else match.side_of(ended.winner)
    if ended.result == "out":
        points = [0 if side == winning else v for side, v in enumerate(ended.hand_values)]
    else:
        points = fish_amounts(ended.hand_values, match.rules) or []
    for side, (amount, own) in enumerate(zip(ended.amounts, points, strict=False)):
        if own > 0 or (ended.result == "out" and side != winning):
            eggs = before.pot if side == ended.pot_awarded_to else 0
            return amount - own - eggs
    return 0


def _eggs_taken(table: Table, ended: RoundEnded, before: Kept | None) -> Html:
    """Who took the eggs' pot (RULES.md §2.7.4), and how much of the side's amount it was: "5
    in hand → +25" said nothing of the 20 in the pot, where the bot knows the pot."""
    side = ended.pot_awarded_to
    assert side is not None and ended.amounts is not None
    key = "result.pot_won_pair" if table.pairs else "result.pot_won"
    name = table.side_name(side)
    if before is None:
        return t(table.language, key, name=name)
    amount = ended.amounts[side]
    return t(table.language, f"{key}_of", name=name, pot=before.pot, amount=amount)


def signed(amount: int) -> str:
    """What a round wrote on a side's score, as every game's result shows it: "+30", "−15"
    (a minus sign), or a bare "0": Kozel wrote "+0" where the fives games wrote "0"."""
    return f"{amount:+d}".replace("-", "−") if amount else "0"


@dataclass(frozen=True, slots=True)
class Kept:
    """What a Kozel match carries from one round to the next: each side's remembered points,
    whether its score is open (RULES.md §2.8), and the eggs' pot (§2.7.4)."""

    memory: Sequence[int]
    opened: Sequence[bool]
    pot: int


def _kept_before(table: Table, ended: RoundEnded) -> Kept | None:
    """What the match carried into the round that ``ended``: what the round end before it left
    (``Table.round_ends``), nothing in a match's first round. None where the bot no longer has
    the round before."""
    sides = len(ended.hand_values)
    earlier = [end for end in table.round_ends if end.round < ended.round]
    if earlier:
        last = earlier[-1]
        memory, opened = last.memory or [0] * sides, last.opened or [False] * sides
        return Kept(memory, opened, last.pot or 0)
    if ended.round == 1:
        return Kept([0] * sides, [False] * sides, 0)
    return None


def _opened_now(ended: RoundEnded, before: Kept, side: int) -> bool:
    """Whether ``side``'s score opened in this round with points it remembered, which were
    written with the round's amount: the score jumped by more than the "+30" it was shown."""
    opened = ended.opened
    return (
        opened is not None and opened[side] and not before.opened[side] and before.memory[side] > 0
    )


def _wiped(table: Table, ended: RoundEnded, before: Kept | None, side: int) -> str:
    """The clause saying ``side``'s remembered points were wiped, a round that wrote it nothing
    (RULES.md §2.8: "reset only if in the next round nothing is recorded"): the board showed
    them, and then no more."""
    if before is None or ended.amounts is None or ended.amounts[side] or ended.opened is None:
        return ""
    if ended.opened[side] or not before.memory[side]:
        return ""
    return t(table.language, "result.memory_wiped", memory=before.memory[side])


def _unwritten(ended: RoundEnded, side: int) -> bool:
    """Whether ``side`` got points that were not written: under the 13 that opens a Kozel score
    (RULES.md §2.8), they are remembered or thrown away. "→ +10" beside a score that stayed 0
    read as a miscount."""
    opened, amounts = ended.opened, ended.amounts
    return opened is not None and amounts is not None and not opened[side] and amounts[side] > 0


def _unwritten_line(table: Table, ended: RoundEnded, side: int) -> Html:
    """Points under 13 that did not open ``side``'s score: remembered (with what it now
    remembers in all, which the board shows) or thrown away."""
    assert ended.amounts is not None and ended.memory is not None
    assert table.match is not None
    lang, amount = table.language, ended.amounts[side]
    values = {"name": table.side_name(side), "value": ended.hand_values[side], "amount": amount}
    if table.match.rules.memory != "remember":
        return t(lang, "result.thrown_away", **values)
    remembered = ended.memory[side]
    if remembered > amount:
        return t(lang, "result.remembered_more", memory=remembered, **values)
    return t(lang, "result.remembered", **values)


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


def _partner_ignored(table: Table, ended: RoundEnded, side: int) -> bool:
    """Whether ``side`` is the pair that went out, valued 0 though the partner still holds
    tiles: Kozel and Sea Goat ignore them (RULES.md §2.7.2, §3.2.1), and a 0 beside the
    partner's tiles would read as a miscount."""
    winner = ended.winner
    if not table.pairs or ended.result != "out" or winner is None:
        return False
    assert table.match is not None
    return (
        table.match.side_of(winner) == side
        and ended.hand_values[side] == 0
        and bool(ended.hands[partner_of(winner)])
    )


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
    """What a Sea Goat round's winner won and could not record, being under 25 (RULES.md §3.2.1
    rules 3-4: recording starts at 25, and less against the holder changes nothing); 0 when he
    recorded it or the round ended otherwise. Else a "→ 0" beside a win would go unexplained."""
    match = table.match
    assert match is not None
    if ended.sea is None or ended.outcome is not None or ended.winner is None:
        return 0
    if ended.amounts is None:
        return 0
    side = match.side_of(ended.winner)
    won = sum(value for other, value in enumerate(ended.hand_values) if other != side)
    return won if ended.amounts[side] == 0 and 0 < won < MINIMUM else 0


def _hands(table: Table, ended: RoundEnded) -> list[str]:
    """What each player was left holding."""
    lang = table.language
    return [
        t(lang, "result.hand", name=seat.name, tiles=tiles_text(ended.hands[seat.seat]))
        for seat in table.seats
    ]


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
            parts.append(t(lang, "result.lightest", name=seats[ended.winner].name))
    parts += [*_round_notes(table, ended), "", *_hands(table, ended), ""]
    winning = None if ended.winner is None else table.match.side_of(ended.winner)
    basis = table.match.game.bonus_basis(ended.result, table.match.rules)
    for side in range(table.match.sides):
        value, amount = ended.hand_values[side], signed(ended.amounts[side])
        name = table.side_name(side)
        if side == winning and basis is not None:
            parts.append(_bonus_line(table, ended, basis))
        elif _partner_ignored(table, ended, side):
            parts.append(t(lang, "result.out_pair", name=name, amount=amount))
        else:
            parts.append(t(lang, "result.points", name=name, value=value, amount=amount))
    parts += ["", t(lang, "result.scores"), *score_lines(table, lang)]
    return Html("\n".join(parts))


def _bonus_line(table: Table, ended: RoundEnded, basis: str) -> str:
    """What the round's winner got, from what (``Game.bonus_basis``): his opponents' hands, less
    his own at a block, or a prize for going out. "21 in hand → +2" named a pair's own hand,
    where the two came from the opponents' tiles."""
    match = table.match
    assert match is not None and ended.winner is not None and ended.amounts is not None
    lang, side = table.language, match.side_of(ended.winner)
    others = sum(value for other, value in enumerate(ended.hand_values) if other != side)
    one = table.players - len(match.seats_of(side)) == 1
    opponents = t(lang, "result.opponent" if one else "result.opponents", others=others)
    own = ended.hand_values[side]
    if basis == "less_winner" and not table.pairs:
        basis = "less_own"  # a player alone: his hand is his side's
    elif basis == "less_winner":  # his partner's is not taken off (§3.6)
        own = pips(ended.hands[ended.winner])
    return t(
        lang,
        f"result.bonus.{basis}",
        name=table.side_name(side),
        opponents=opponents,
        own=own,
        winner=table.seats[ended.winner].name,
        amount=signed(ended.amounts[side]),
    )


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
    parts.append("")
    parts.append(t(lang, "match.again"))
    return Html("\n".join(parts))


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
    parts += ["", t(lang, "match.again")]
    return Html("\n".join(parts))
