"""Sea Goat (RULES.md §3.2): Kozel's deal, leads, drawing, line and fish, but the round's winner
collects the losers' hands, one side at most holds points, and a match ends at the target, by a
finish on 0-0 / 6-6, or by a "на сто" round. The arithmetic is ``scoring/sea_goat.py``.

Decisions where §3.2 is silent or marks a FLAG:

- The target is ``sg_target``: left unset, 125, or 202 when two pairs play (§3.2.1 rule 5, 000
  §NI: "играют двое против двоих до 202 очков"); a target the table set stands for any shape.
- "На сто": the holder's side declares it by leading 6-6 when its lead is free (any tile); a lead
  forced by the 1-1 chain is no declaration. A seat that earned "на сто" (``sg_finish = ua``, the
  fisherman module) has it in the next round whatever it leads, 6-6 or not. In pairs the side
  wins it when either partner goes out. Lost, it writes off every score and nothing else of the
  round is recorded; with ``svoyak`` a loser holding 25 or more pips loses the match, with fewer
  it is a write-off. A fish in a "на сто" round loses it.
- A finish on 0-0 or 6-6 (``sg_finish``) counts when the final move holds either tile, alone or
  among two doubles. It is judged before "на сто". "Both at once" is read by
  ``sg_double_finish`` (a FLAG of §3.2.2): DEFAULT ``zero_six``, 0-0 with 6-6, which needs ends 0
  and 6 (any other pair of doubles is no finish of its own); ``any_two``, any two doubles at
  once (3-3 and 5-5 too) win the match like 0-0 or 6-6 (``outcome`` and ``ended_by``
  ``two_doubles``; a move that holds 0-0 or 6-6 stays ``instant_win``). It widens only
  ``auto_win``'s "both at once": ``ua`` and ``penalty_002`` judge 0-0 and 6-6 each on its own,
  so two other doubles are neither there and ``any_two`` changes nothing. It needs two doubles
  in one move: with ``multi_double = 0`` it can never happen (the bot's editor then hides the
  option, as under ``ua`` and ``penalty_002``). Under ``ua`` a 6-6 finish wins
  when the losers' hands are worth 25 or more together, else the round is recorded as usual and
  the finisher leads the next "на сто". Under ``penalty_002`` 0-0 wins the match (the 75 for the
  loser is moot), 6-6 sets the finisher's score to 0 and gives 100 to the losing side with the
  most pips (first in turn order on a tie), the others' scores going to 0 so that one side holds.
- A fish: ``lowest_wins``, any tie for the lowest is eggs (even among 3-4 sides); the winner's side
  is represented by its fisherman, or its first seat. The fisherman (the last non-double placer,
  §1.9.4) leads the next round, the winner of a fish not (Kozel §2.6).
- ``ua_fisherman`` is played by two sides only (2 players, or pairs); three or four alone fall
  back to ``lowest_wins``. F always writes off the fish he may write off; "O holds 25" is O's
  score; every round after counts as one of F's 3 attempts, and a fish written off again (by
  F too) starts its own 3; when they fail, the seat after F (an opponent) earns "на сто".
- Eggs: the pot is every side's value in the tied fish. DEFAULT ``pot_to_next_winner``: the next
  winner's value includes it, whoever leads. ``ua``: the next round is led by the 1-1 chain, and
  each round after that ends without a winner (eggs again, a written-off fish) is a failed
  attempt; the third leaves the eggs rotten, the pot discarded.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

from ..actions import Lay, Play
from ..deal import first_redeal
from ..events import MatchEnded, MatchEndedBy, RoundEnded, WonBy
from ..leads import Lead, restart_rules, restarted
from ..round import Hand, Round
from ..rules import SEA_GOAT_OPTION_NAMES, RuleSet
from ..scoring.bonus import Bonus
from ..scoring.lightest import by_total, lightest, single, standing_for
from ..scoring.sea_goat import (
    ATTEMPTS,
    MINIMUM,
    SIX_SIX,
    ZERO_ZERO,
    SeaState,
    hand_value,
    holder,
    record,
)
from ..scoring.tally import Tally
from ..seats import partner_of, seats_of, side_of
from .base import Game, RedealReason
from .target import recorded_won_by

if TYPE_CHECKING:
    from ..match import Match

#: The target of §3.2.1 rule 5, and of two pairs (000 §NI), where the table set none.
TARGET: Final = 125
PAIRS_TARGET: Final = 202
#: Sixes beside 6-6 that make greedy lead it "на сто": then it can follow on the 6 ends.
NA_STO_SIXES = 3
#: The revision of the rules' code from which a fish written off counts its own attempts
#: (``revisions.py``).
FRESH_FISH: Final = 2
#: The outcomes (``RoundEnded.outcome``) of a round whose winner collected the losing sides' hands
#: and the pot (``_settle``): a win put through ``record`` (§3.2.1 rule 4: recorded, too little
#: to record, or writing every score off; "fish_lost" when it also ended a fisherman's third
#: attempt, §3.2.4), or the fisherman's side writing off the fish it won.
RECORDED_OUTCOMES: Final = frozenset((None, "writeoff", "fish_lost"))
COLLECTED_OUTCOMES: Final = RECORDED_OUTCOMES | {"fish_writeoff"}
#: The outcomes of a round whose hands counted for nothing: the match won at once (§3.2.2, "на
#: сто" won), or "на сто" lost, which writes every score off or loses the match (§3.2.1 rule 7).
UNCOUNTED_OUTCOMES: Final = frozenset(("instant_win", "two_doubles", "na_sto_won", "na_sto_lost"))


@dataclass
class _Settling:
    """One round's settlement in the making."""

    scores: list[int]
    #: What the match carried into the round, and what it carries out of it.
    start: SeaState
    state: SeaState
    winner: int | None = None
    #: How the winner of a fish won it (``RoundEnded.won_by``).
    won_by: WonBy | None = None
    outcome: str | None = None
    values: list[int] = field(default_factory=list)

    def write_off(self, outcome: str) -> None:
        self.scores = [0] * len(self.scores)
        self.outcome = outcome

    def decide(
        self, winners: list[int], losers: list[int], outcome: str, ended_by: MatchEndedBy
    ) -> None:
        self.outcome = outcome
        self.state = replace(
            self.state, winners=tuple(winners), losers=tuple(losers), ended_by=ended_by
        )


class SeaGoat(Game):
    """The winner collects; the holder reaching ``sg_target`` wins (or loses, 002)."""

    name = "sea_goat"
    ended_by = "target"
    settable = (
        "sg_target",
        "sg_125_meaning",
        "sg_finish",
        "sg_na_sto",
        "sg_fish",
        "sg_eggs",
        "multi_double",
        "sg_double_finish",
        "draw_mode",
    )
    wins_at_target = True
    names_winners = True

    def options(self, rules: RuleSet) -> dict[str, Any]:
        return {name: rules.option(name) for name in SEA_GOAT_OPTION_NAMES}

    def bonus(self, result: str, rules: RuleSet) -> Bonus | None:
        """The winner collects the losing sides' hands (§3.2.1 rule 1)."""
        return Bonus("opponents")

    def fresh_tally(self, sides: int) -> Tally:
        """Sea Goat carries its ``SeaState`` from the start, so its match JSON always has it."""
        return replace(Tally.fresh(sides), sea=SeaState())

    def hand_size(self, rules: RuleSet, players: int) -> int:
        return 7

    def redeal(self, hands: list[Hand], rules: RuleSet) -> tuple[int, RedealReason] | None:
        return first_redeal(hands, rules)

    def next_leader(self, players: int, pairs: bool, ended: RoundEnded, rules: RuleSet) -> int:
        """The seat that earned "на сто"; else the player who went out, after a fish the
        fisherman."""
        pending = None if ended.sea is None else ended.sea["na_sto"]
        leader = pending if pending is not None else ended.fisherman
        if leader is None:
            leader = ended.winner
        assert leader is not None
        return leader

    def for_table(self, rules: RuleSet, players: int, pairs: bool) -> RuleSet:
        if rules.sg_target is not None:
            return rules
        return rules.with_options(sg_target=PAIRS_TARGET if pairs else TARGET)

    def target(self, rules: RuleSet) -> int:
        assert rules.sg_target is not None, "a match's rules are its table's (for_table)"
        return rules.sg_target

    def restart_lead(self, hands: Sequence[Hand], rules: RuleSet, seed: int) -> Lead:
        """Eggs are played out from 1-1, as the §2.3 chain finds it (``leads.restart_rules``)."""
        return restarted(self.first_lead(hands, restart_rules(rules), seed), "one_one_eggs")

    def restarts_lead(self, ended: RoundEnded, rules: RuleSet) -> bool:
        """``sg_eggs = ua``: eggs are played out from 1-1 (unless someone leads "на сто")."""
        sea = ended.sea
        return (
            rules.sg_eggs == "ua" and sea is not None and sea["pot"] > 0 and sea["na_sto"] is None
        )

    def end_round(self, rnd: Round, tally: Tally, pairs: bool, rules: RuleSet) -> RoundEnded:
        start = tally.sea or SeaState()
        now = _Settling(list(tally.scores), start, replace(start, na_sto=None))
        went_out = rnd.outcome == "out"
        sides = len(tally.scores)
        fisherman = None
        if went_out:
            now.winner = rnd.last_placer
        else:
            fisherman = rnd.last_single_placer
            if fisherman is None:
                fisherman = rnd.last_placer
        ignore = partner_of(now.winner) if pairs and now.winner is not None else None
        now.values = [0] * sides
        for seat, hand in enumerate(rnd.hands):
            if seat != ignore:
                now.values[side_of(seat, pairs)] += hand_value(hand)
        if not (went_out and self._finish(rnd, now, pairs, rules)):
            na_sto = na_sto_seat(rnd, tally, pairs)
            if na_sto is None:
                if fisherman is not None:
                    self._fish(rnd, now, fisherman, pairs, rules)
                self._settle(rnd, now, pairs, rules)
            elif now.winner is None or side_of(now.winner, pairs) != side_of(na_sto, pairs):
                self._na_sto_lost(rnd, now, na_sto, pairs, rules)
            else:
                side = side_of(now.winner, pairs)
                now.decide([side], _others(side, sides), "na_sto_won", "na_sto")
        old = tally.scores
        return RoundEnded(
            round=rnd.number,
            result="out" if went_out else "fish",
            winner=now.winner,
            fisherman=fisherman,
            hands=list(map(list, rnd.hands)),
            hand_values=now.values,
            amounts=[new - was for new, was in zip(now.scores, old, strict=True)],
            scores=now.scores,
            outcome=now.outcome,
            sea=now.state.to_dict(),
            won_by=recorded_won_by(now.won_by, rules),
            closure_suit=rnd.closure_suit(rules),
        )

    def _finish(self, rnd: Round, now: _Settling, pairs: bool, rules: RuleSet) -> bool:
        """A finish on 0-0 / 6-6 (§3.2.2): whether it settled the round."""
        assert now.winner is not None
        zero, six = ZERO_ZERO in rnd.last_move, SIX_SIX in rnd.last_move
        doubles = not (zero or six) and _two_doubles_win(rnd, rules)
        if not (zero or six or doubles):
            return False
        side = side_of(now.winner, pairs)
        losers = _others(side, len(now.scores))
        lost = sum(now.values[s] for s in losers)
        if doubles:
            now.decide([side], losers, "two_doubles", "two_doubles")
            return True
        if zero or rules.sg_finish == "auto_win" or (rules.sg_finish == "ua" and lost >= MINIMUM):
            now.decide([side], losers, "instant_win", "instant_win")
            return True
        if rules.sg_finish == "ua":
            now.state = replace(now.state, na_sto=now.winner)
            return False
        loser = max(losers, key=lambda s: now.values[s])
        kept = now.scores[loser]
        now.write_off("penalty_66")
        now.scores[loser] = kept + 100
        return True

    def _na_sto_lost(
        self, rnd: Round, now: _Settling, seat: int, pairs: bool, rules: RuleSet
    ) -> None:
        """§3.2.1 rule 7: a write-off, or with ``svoyak`` 25 pips or more lose the match."""
        side = side_of(seat, pairs)
        if rules.sg_na_sto == "svoyak" and hand_value(rnd.hands[seat]) >= MINIMUM:
            others = _others(side, len(now.scores))
            now.decide(others, [side], "na_sto_lost", "na_sto")
        else:
            now.write_off("na_sto_lost")

    def _fish(
        self, rnd: Round, now: _Settling, fisherman: int, pairs: bool, rules: RuleSet
    ) -> None:
        """Who won the fish, if anyone (``now.winner``): the fisherman module where it applies,
        else the lowest side; a tie is eggs."""
        values = now.values
        if rules.sg_fish == "ua_fisherman" and len(values) == 2:
            f_side = side_of(fisherman, pairs)
            f, o = values[f_side], values[1 - f_side]
            if f < MINIMUM <= o:
                now.winner, now.won_by = fisherman, by_total(pairs)
                now.state = replace(now.state, na_sto=fisherman)
                return
            if f > o and f > MINIMUM:
                now.outcome = "fish_written_off"
                now.state = replace(now.state, fisher=fisherman, fisher_tries=0)
                return
        side = single(lightest(values))
        if side is None:
            now.outcome = "eggs"
            now.state = replace(now.state, pot=now.state.pot + sum(values))
            return
        now.winner = standing_for(seats_of(side, len(rnd.hands), pairs), fisherman)
        now.won_by = by_total(pairs)

    def _settle(self, rnd: Round, now: _Settling, pairs: bool, rules: RuleSet) -> None:
        """Record a won round (with the pot of eggs), and count the attempts of a fisherman and
        of eggs (§3.2.4, §3.2.5)."""
        state, before = now.state, now.start
        # A fish written off this round is given the next rounds, even by the fisherman whose
        # attempts run (from revision ``FRESH_FISH``; before, his count went on).
        fresh = now.outcome == "fish_written_off" and rules.revision >= FRESH_FISH
        if now.winner is None:
            if rules.sg_eggs == "ua" and before.pot > 0:
                tries = before.eggs_tries + 1
                state = replace(state, eggs_tries=tries)
                if tries >= ATTEMPTS:
                    state = replace(state, pot=0, eggs_tries=0)
                    now.outcome = "eggs_rotten"
        else:
            side = side_of(now.winner, pairs)
            value = sum(v for s, v in enumerate(now.values) if s != side) + state.pot
            state = replace(state, pot=0, eggs_tries=0)
            fisher = before.fisher
            if fisher is not None and side_of(fisher, pairs) == side and _o_holds(now, side):
                now.write_off("fish_writeoff")
                state = replace(state, fisher=None, fisher_tries=0)
            else:
                now.scores, wrote = record(now.scores, side, value)
                if wrote:
                    now.outcome = "writeoff"
        if before.fisher is not None and state.fisher == before.fisher and not fresh:
            tries = before.fisher_tries + 1
            state = replace(state, fisher_tries=tries)
            if tries >= ATTEMPTS:
                opponent = (before.fisher + 1) % len(rnd.hands)
                state = replace(state, fisher=None, fisher_tries=0, na_sto=opponent)
                now.outcome = now.outcome or "fish_lost"
        now.state = state

    def match_end(self, tally: Tally, rules: RuleSet, in_round: bool) -> MatchEnded | None:
        """A special outcome of the round decides; else the holder at ``sg_target`` wins, or with
        ``sg_125_meaning = lose`` loses (002 §INTRO)."""
        if in_round:
            return None
        scores = list(tally.scores)
        sea = tally.sea
        if sea is not None and sea.winners is not None:
            assert sea.ended_by is not None
            return MatchEnded(list(sea.losers), scores, sea.ended_by, list(sea.winners))
        held = holder(scores)
        if held is None or scores[held] < self.target(rules):
            return None
        others = _others(held, len(scores))
        if rules.sg_125_meaning == "lose":
            return MatchEnded([held], scores, "target", others)
        return MatchEnded(others, scores, "target", [held])

    def losers(self, tally: Tally, rules: RuleSet) -> list[int]:
        ended = self.match_end(tally, rules, in_round=False)
        return [] if ended is None else ended.losers

    def declines(self, match: Match, seat: int, move: Play | Lay) -> bool:
        """Greedy leads 6-6 "на сто" only with at least ``NA_STO_SIXES`` more sixes to follow."""
        rnd = match.round
        assert rnd is not None
        if not (isinstance(move, Play) and move.tile == SIX_SIX and rnd.layout.is_empty):
            return False
        if rnd.lead_tiles is not None or holder(match.tally.scores) != match.side_of(seat):
            return False
        sixes = sum(1 for t in rnd.hands[seat] if 6 in (t.a, t.b) and t != SIX_SIX)
        return sixes < NA_STO_SIXES

    def utility(self, match: Match, ended: RoundEnded | None, side: int) -> float:
        """The chance that ``side`` wins: certain once the match is over; otherwise the holder's
        chance grows with its score toward the target (falls, when reaching it loses)."""
        if match.is_over:
            return 1.0 if side in match.winners else 0.0
        scores = match.tally.scores
        sign = 1.0 if match.rules.sg_125_meaning == "win" else -1.0
        spread = 0.3 * self.target(match.rules)
        weights = [math.exp(sign * score / spread) for score in scores]
        return weights[side] / sum(weights)


def na_sto_seat(rnd: Round, tally: Tally, pairs: bool) -> int | None:
    """The seat playing this round "на сто": one that earned it and leads, or the holder's seat
    that led 6-6 freely."""
    if tally.sea is not None and tally.sea.na_sto == rnd.leader:
        return rnd.leader
    held = holder(tally.scores)
    if (
        held is not None
        and rnd.lead == SIX_SIX
        and rnd.lead_tiles is None
        and side_of(rnd.leader, pairs) == held
    ):
        return rnd.leader
    return None


def reads_double_finish(rules: RuleSet) -> bool:
    """Whether ``sg_double_finish`` can change anything: under ``auto_win``, with two doubles a
    move (``multi_double``)."""
    return rules.sg_finish == "auto_win" and rules.multi_double >= 2


def _two_doubles_win(rnd: Round, rules: RuleSet) -> bool:
    """Whether the final move, two doubles at once without 0-0 or 6-6, wins the match."""
    return (
        rules.sg_double_finish == "any_two"
        and reads_double_finish(rules)
        and sum(tile.is_double for tile in rnd.last_move) >= 2
    )


def _o_holds(now: _Settling, side: int) -> bool:
    """Whether a side other than the fisherman's holds 25 or more (§3.2.4 case 3)."""
    return any(score >= MINIMUM for s, score in enumerate(now.scores) if s != side)


def _others(side: int, sides: int) -> list[int]:
    return [s for s in range(sides) if s != side]
