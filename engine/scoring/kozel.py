"""Kozel round scoring: losers collect points, 101 makes the goat (RULES.md §2.7-§2.9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from ..rules import RuleSet
from ..seats import side_of
from ..tiles import Tile
from .lightest import lightest, single
from .tally import Tally as Tally  # noqa: PLC0414 - re-exported, where it was first

ZERO_ZERO: Final = Tile(0, 0)
SIX_SIX: Final = Tile(6, 6)
OPENING_THRESHOLD: Final = 13  # "Чтобы начать запись, нужно набрать хотя бы 13 очков"


def hand_value(hand: Sequence[Tile], rules: RuleSet) -> int:
    """Pips left in a hand (§1.10, §2.7.6): a lone 0-0 is worth ``lone_00``, a lone 6-6
    ``lone_66``; special bones (§2.7.5) make them 25 and 50 whatever those say."""
    if len(hand) == 1:
        if hand[0] == ZERO_ZERO:
            return 25 if rules.special_bones else rules.lone_00
        if hand[0] == SIX_SIX:
            return 50 if rules.special_bones else rules.lone_66
    return sum(tile.pips for tile in hand)


def side_values(
    hands: Sequence[Sequence[Tile]], pairs: bool, rules: RuleSet, ignore_seat: int | None = None
) -> list[int]:
    """Per-side hand values; partners' hands are valued one by one and summed (§2.7.1).

    ``ignore_seat`` drops a hand from the count: the partner of the player who went out (§2.7.2).
    """
    values = [0] * (2 if pairs else len(hands))
    for seat, hand in enumerate(hands):
        if seat != ignore_seat:
            values[side_of(seat, pairs)] += hand_value(hand, rules)
    return values


@dataclass(slots=True)  # not frozen, as ``Tally`` is not: it is made every round
class RoundScore:
    eggs: bool
    amounts: list[int] | None
    tally: Tally
    pot_awarded_to: int | None
    goats: list[int]


def fish_taker(values: Sequence[int], rules: RuleSet) -> int | None:
    """The side that takes every hand's points after a fish under ``fish_mode = for_one``
    (§2.7.3): the one that holds most. None under another mode, or when several hold most
    (eggs)."""
    if rules.fish_mode != "for_one":
        return None
    top = max(values)
    holders = [s for s, v in enumerate(values) if v == top]
    return holders[0] if len(holders) == 1 else None


def fish_amounts(values: Sequence[int], rules: RuleSet) -> list[int] | None:
    """Round amounts after a fish under ``fish_mode`` (§2.7.3); None means eggs.

    ``lowest_wins`` is the spec's reading of 000 §NI (FLAG): the seed credits the winners with
    the losers' sums, yet calls the side at 101 the goat; so each losing side is charged its own
    sum, the lowest side (sides, if tied) nothing, and all sides equal is eggs."""
    if rules.fish_mode == "for_everyone":
        return list(values)
    if rules.fish_mode == "for_one":
        taker = fish_taker(values, rules)
        if taker is None:
            return None
        return [sum(values) if s == taker else 0 for s in range(len(values))]
    lows = lightest(values)
    if len(lows) == len(values):
        return None
    return [0 if s in lows else v for s, v in enumerate(values)]


def special_bonus(lead: Tile | None, last: Tile | None, went_out: bool) -> int:
    """Bonus each losing side takes with ``special_bones`` (§2.7.5): a 6-6 or 0-0 lead, and a
    finish on 6-6 or 0-0."""
    bonus = 0
    for tile, counts in ((lead, True), (last, went_out)):
        if counts and tile == SIX_SIX:
            bonus += 50
        elif counts and tile == ZERO_ZERO:
            bonus += 25
    return bonus


def _pot_receiver(
    amounts: Sequence[int], values: Sequence[int], winner: int | None, rules: RuleSet
) -> int | None:
    """Who takes the eggs pot this round; None carries it on (§2.7.4, ties are a FLAG: carry).

    ``pot_to_max_next``: the side with the largest round amount, the special bones' bonus in
    (the same side as without it). ``pot_to_next_winner`` (000 §NI): the side that went out;
    after a fish, whose winner the seed does not name, the single lowest hand (FLAG)."""
    if rules.eggs == "pot_to_next_winner":
        if winner is not None:
            return winner
        return single(lightest(values))
    top = max(amounts)
    tops = [s for s, a in enumerate(amounts) if a == top]
    return tops[0] if top > 0 and len(tops) == 1 else None


def record(tally: Tally, amounts: Sequence[int], rules: RuleSet) -> Tally:
    """Apply the 13 threshold and remembered points to every side (§2.8)."""
    scores, memory, opened = list(tally.scores), list(tally.memory), list(tally.opened)
    for side, r in enumerate(amounts):
        if opened[side]:
            scores[side] += r
        elif r >= OPENING_THRESHOLD:
            opened[side] = True
            scores[side] += r + memory[side]
            memory[side] = 0
        elif r > 0:
            if rules.memory == "remember":
                memory[side] += r
        else:
            memory[side] = 0
    return Tally(tuple(scores), tuple(memory), tuple(opened), tally.pot)


def score_round(
    tally: Tally,
    values: Sequence[int],
    rules: RuleSet,
    *,
    result: Literal["out", "fish"],
    winner: int | None,
    lead: Tile | None = None,
    last: Tile | None = None,
    threshold: bool = True,
) -> RoundScore:
    """Score one round for every side; ``winner`` is the side that went out (None after a fish).
    Without the ``threshold`` (Sport domino, §3.11) every amount is written at once (§2.8 not
    applied)."""
    if result == "out":
        if winner is None:
            raise ValueError("a round ended by going out needs the winning side")
        amounts: list[int] | None = [0 if s == winner else v for s, v in enumerate(values)]
    else:
        amounts = fish_amounts(values, rules)
    if amounts is None:
        # eggs: a drawn round, the whole fish goes into the pot; scores, memory and opened stay
        # as they were, memory kept (§2.7.4, FLAG: the seed does not say whether it survives)
        pot = tally.pot + sum(values)
        new = Tally(tally.scores, tally.memory, tally.opened, pot)
        return RoundScore(True, None, new, None, [])
    if rules.special_bones:
        bonus = special_bonus(lead, last, result == "out")
        if bonus:
            amounts = [
                a + bonus if (s != winner if result == "out" else a > 0) else a
                for s, a in enumerate(amounts)
            ]
    # The pot joins the receiver's round amount before the threshold, so it can open his score
    # (§2.7.4, FLAG: the seed says only "получит вдобавок к своему счету").
    receiver = _pot_receiver(amounts, values, winner, rules) if tally.pot else None
    if receiver is not None:
        amounts[receiver] += tally.pot
        tally = Tally(tally.scores, tally.memory, tally.opened, 0)  # the pot is paid out
    if threshold:
        recorded = record(tally, amounts, rules)
    else:
        scores = tuple(s + a for s, a in zip(tally.scores, amounts, strict=True))
        recorded = Tally(scores, tally.memory, tally.opened, tally.pot)
    return RoundScore(False, amounts, recorded, receiver, goats(recorded.scores, rules))


def goats(scores: Sequence[int], rules: RuleSet) -> list[int]:
    """The sides whose score has reached the goat limit: they lose the match (§2.9), all of them
    when several reach it in one round. Remembered points are not part of the score and never
    count toward the limit (§2.8, FLAG)."""
    return [side for side, score in enumerate(scores) if score >= rules.goat_limit]
