"""What each side got at a round's end, and from what, so that the lines add up to the scores:
Kozel's amounts through the 13 that opens a score, its memory and eggs (RULES.md §2.7-§2.8),
the scoring games' bonuses and write-offs (§3.1, §3.4-§3.9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.events import RoundEnded
from engine.games.sea_goat import COLLECTED_OUTCOMES, UNCOUNTED_OUTCOMES
from engine.games.target import TargetGame
from engine.scoring.bonus import Bonus
from engine.scoring.fives import floor5, pips
from engine.scoring.kozel import fish_amounts
from engine.seats import partner_of

from ..i18n import Html, t
from ..table import Table


def kozel_amounts(table: Table, ended: RoundEnded) -> list[str]:
    """What each side held, and what it wrote (with the eggs' pot, if it took it)."""
    lang, parts, match = table.language, list[str](), table.match
    assert match is not None
    before = _kept_before(table, ended)
    explained = False  # why points were remembered: said once, on the first such line
    for side in range(match.sides):
        name = table.side_name(side, lang)
        value = ended.hand_values[side]
        if ended.amounts is None:
            parts.append(t(lang, "result.value", name=name, value=value))
            continue
        amount = ended.amounts[side]
        line: str
        if partner_ignored(table, ended, side):
            line = t(lang, "result.out_pair", name=name, amount=signed(amount))
        elif _unwritten(ended, side):
            line = _unwritten_line(table, ended, side, explained)
            explained = True
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
    elif not ended.eggs and ended.pot and before is not None and before.pot:
        # nobody takes the pot (RULES.md §2.7.4, a tie carries it): say so, and why
        lightest = match.rules.eggs == "pot_to_next_winner"
        parts.append(t(lang, "result.pot_kept_lightest" if lightest else "result.pot_kept"))
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
    lang, key = table.language, "result.pot_won_pair" if table.pairs else "result.pot_won"
    name = table.side_name(side, lang)
    if before is None:
        return t(lang, key, name=name)
    amount = ended.amounts[side]
    return t(lang, f"{key}_of", name=name, pot=before.pot, amount=amount)


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
    """What the match carried into the round that ``ended`` (``Match.carried_into``, from
    ``Table.round_ends``). None where the bot no longer has the round before."""
    assert table.match is not None
    left = table.match.carried_into(ended.round, table.round_ends)
    return None if left is None else Kept(left.memory, left.opened, left.eggs)


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


def _unwritten_line(table: Table, ended: RoundEnded, side: int, explained: bool) -> Html:
    """Points under 13 that did not open ``side``'s score: remembered (with what it now
    remembers in all, which the board shows) or thrown away. Why they are remembered is said
    unless ``explained`` on a line above: three players' lines said it three times."""
    assert ended.amounts is not None and ended.memory is not None
    assert table.match is not None
    lang, amount = table.language, ended.amounts[side]
    name, value = table.side_name(side, lang), ended.hand_values[side]
    values = {"name": name, "value": value, "amount": amount}
    if table.match.rules.memory != "remember":
        return t(lang, "result.thrown_away", **values)
    remembered = ended.memory[side]
    if remembered > amount:
        line = t(lang, "result.remembered_more", memory=remembered, **values)
    else:
        line = t(lang, "result.remembered", **values)
    return line if explained else Html(line + t(lang, "result.opens_at"))


def partner_ignored(table: Table, ended: RoundEnded, side: int) -> bool:
    """Whether ``side`` is the pair that went out, valued 0 though the partner still holds
    tiles: Kozel and Sea Goat ignore them (RULES.md §2.7.2, §3.2.1), and a 0 beside the
    partner's tiles would read as a miscount. Not in the scoring games, whose round ends value
    a pair's two hands together (``TargetGame.end_round``): there a 0 is what the partner holds,
    a lone [0|0] (the Ukrainian Telephone writes off both hands, §3.5)."""
    winner = ended.winner
    if not table.pairs or ended.result != "out" or winner is None:
        return False
    assert table.match is not None
    if isinstance(table.match.game, TargetGame):
        return False
    return (
        table.match.side_of(winner) == side
        and ended.hand_values[side] == 0
        and bool(ended.hands[partner_of(winner)])
    )


def scoring_amounts(table: Table, ended: RoundEnded) -> list[str]:
    """What each side of a scoring game got at the round's end: the winner's bonus and what it
    came from, a write-off, or nothing. Where Sea Goat's hands counted for nothing (a match won
    at once, "на сто" lost), only the scores written off: "0 in hand → 0" said nothing."""
    match = table.match
    assert match is not None and ended.amounts is not None
    lang = table.language
    winning = None if ended.winner is None else match.side_of(ended.winner)
    bonus = match.game.bonus(ended.result, match.rules)
    pot = collected_pot(table, ended)
    parts: list[str] = []
    for side in range(match.sides):
        value, amount = ended.hand_values[side], signed(ended.amounts[side])
        name = table.side_name(side, lang)
        if side == winning and bonus is not None and pot is not None:
            parts.append(_bonus_line(table, ended, bonus, pot))
        elif ended.sea is not None and ended.amounts[side] < 0:
            # a Sea Goat score falls only when it is written off (RULES.md §3.2)
            score = -ended.amounts[side]
            parts.append(t(lang, "result.written_off", name=name, score=score, amount=amount))
        elif ended.outcome in UNCOUNTED_OUTCOMES:
            continue  # "0 in hand → 0": the hands counted for nothing, and the note says why
        elif partner_ignored(table, ended, side):
            parts.append(t(lang, "result.out_pair", name=name, amount=amount))
        else:
            key = _written_off(ended, side) if bonus is None else "result.points"
            parts.append(t(lang, key, name=name, value=value, amount=amount))
    return parts


def _written_off(ended: RoundEnded, side: int) -> str:
    """How a write-off (the Ukrainian Telephone's, RULES.md §3.5: no winner is paid, each side
    writes off its own hand) reads for ``side``: as it was, or "down to 0" where it stopped
    there ("no debts": "18 in hand → −5" read as a miscount of 15), or "nothing to write off"
    where the score was 0 already ("24 in hand → 0" did not say why). Not where a round ended
    in a way that says so itself (Sea Goat's write-offs)."""
    assert ended.amounts is not None
    if ended.outcome is not None or ended.scores[side] != 0:
        return "result.points"
    if ended.amounts[side] < 0:
        return "result.to_zero"
    return "result.none_to_write_off" if floor5(ended.hand_values[side]) else "result.points"


def collected_pot(table: Table, ended: RoundEnded) -> int | None:
    """The pot of eggs the round's winner collected with the losing sides' hands: Sea Goat's
    carried in (§3.2.5), 0 in the other scoring games. None where he collected no hands (Sea
    Goat's round ended in a way of its own), or the bot no longer knows the pot; there his line
    says his own hand."""
    if ended.sea is None:
        return 0
    if ended.outcome not in COLLECTED_OUTCOMES:
        return None
    before = _kept_before(table, ended)
    return None if before is None else before.pot


def _bonus_line(table: Table, ended: RoundEnded, bonus: Bonus, pot: int) -> str:
    """What the round's winner got, step by step as his game pays it (``Game.bonus``): his
    opponents' hands (and Sea Goat's ``pot`` of eggs), less his own at a block, rounded and
    divided as the rules say; or a prize for going out. "21 in hand → +2" named a pair's own
    hand, where the two came from the opponents' tiles; "the opponents hold 23 → +5" left the
    rounding to 25 and the division by 5 to be guessed."""
    match = table.match
    assert match is not None and ended.winner is not None and ended.amounts is not None
    lang, side = table.language, match.side_of(ended.winner)
    name, amount = table.side_name(side, lang), signed(ended.amounts[side])
    if bonus.basis == "out":
        return t(lang, "result.bonus.out", name=name, amount=amount)
    others = sum(value for other, value in enumerate(ended.hand_values) if other != side)
    one = table.players - len(match.seats_of(side)) == 1
    count = t(lang, "result.opponent" if one else "result.opponents", others=others)
    if pot:
        count = t(lang, "result.with_pot", opponents=count, pot=pot)
    value = others + pot
    if bonus.rounded_first:
        count, value = _rounded(lang, bonus, count, value)
    if bonus.basis != "opponents":
        count, taken = _less_own(table, ended, bonus, count)
        value -= taken
        if not bonus.rounded_first and (bonus.divided or bonus.rounded(value) != value):
            count = t(lang, "result.bonus.came_to", count=count, value=value)
    if not bonus.rounded_first:
        count, value = _rounded(lang, bonus, count, value)
    if bonus.divided:
        count = t(lang, "result.bonus.divided", count=count, multiple=bonus.multiple)
    return t(lang, "result.bonus.line", name=name, count=count, amount=amount)


def _rounded(lang: str, bonus: Bonus, count: Html, value: int) -> tuple[Html, int]:
    """The ``count`` of ``value`` rounded as ``bonus`` says, where that changes it."""
    rounded = bonus.rounded(value)
    if rounded == value:
        return count, value
    return t(lang, f"result.bonus.rounded_{bonus.rounding}", count=count, value=rounded), rounded


def _less_own(table: Table, ended: RoundEnded, bonus: Bonus, count: Html) -> tuple[Html, int]:
    """The winner's own hand taken off the opponents' ``count``: said, and how much it was."""
    match = table.match
    assert match is not None and ended.winner is not None
    side, basis = match.side_of(ended.winner), bonus.basis
    own = ended.hand_values[side]
    taken = own * (match.sides - 1) if basis == "less_own_each" else own
    if basis == "less_winner" and not table.pairs:
        basis = "less_own"  # a player alone: his hand is his side's
    elif basis == "less_winner":  # his partner's is not taken off (§3.6)
        own = taken = pips(ended.hands[ended.winner])
    winner = table.seats[ended.winner].name
    return t(table.language, f"result.bonus.{basis}", count=count, own=own, winner=winner), taken
