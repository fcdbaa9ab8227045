"""Revisions of the rules' code, so that an upgrade never damages a match in play.

A stored match is rebuilt by playing its log again (``replay``), which works only if the code makes
the events it made when they were recorded. So every change to what the rules do (a scoring fix, a
new lead rule, anything after which a stored log would play differently) is a new revision:

1. Append a ``Revision`` to ``REVISIONS`` below with the next number, what it changes, and its
   policy for the matches in play when it is deployed:

   - ``"finish"``: they finish under the rules they started with. Use it when switching in the
     middle would be unfair or would not make sense (a change to dealing or to scoring that the
     players have already planned around).
   - ``"continue"``: they go on from where they are under the new rules. Use it for a fix the
     players would want at once. Their state is kept as it is; the new rules apply from the next
     move, and a ``rules_upgraded`` event in the log records the moment, so every later replay
     switches at the same point.

2. Keep the old behaviour behind the number, whatever the policy: the changed code reads
   ``rules.revision`` (every rule function is handed the match's ``RuleSet``), e.g.
   ``if rules.revision >= 2: <new> else: <old>``. A "continue" match still replays its log up to
   the upgrade under the old rules, and a "finish" match plays them to its end.

3. Test the change on a match started under the previous revision (``tests/engine/
   test_revisions.py`` shows how).

A match records the revision it started under in ``match_started`` (a log without it is revision
1), and ``Match.to_json`` carries the one it plays under now. Revision 1 is written as no field at
all, so logs and snapshots from before revisions existed read the same as new ones.

A loader calls ``Match.upgrade()`` after rebuilding a match (``replay`` or ``Match.from_json``)
and appends the events it returns: none, or one ``rules_upgraded``. A match climbs through the
consecutive "continue" revisions after its own and stops below the first "finish" one, since that
one's old behaviour includes everything before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Policy = Literal["finish", "continue"]


@dataclass(frozen=True, slots=True)
class Revision:
    number: int
    #: What changed, for the reader and the log; e.g. "a lone 0-0 counts 25 with special bones".
    change: str
    #: What becomes of the matches in play when it is deployed (see the module's docstring).
    policy: Policy


REVISIONS: list[Revision] = [
    Revision(1, "the rules as first released", "finish"),
    Revision(
        2,
        "a round restarted from 1-1 (Kozel's restart_1_1_after_unrecorded, Sea Goat's ua eggs)"
        " is led by the §2.3 chain whatever first_lead says; a fish a Sea Goat fisherman"
        " writes off while his attempts run has three attempts of its own",
        "finish",
    ),
    Revision(
        3,
        "where the spinner's arms open once both its long sides are covered (the Ukrainian"
        " Telephone), the house is the first double covered on both long sides, not the first"
        " double placed (RULES.md §3.5)",
        "finish",
    ),
    Revision(
        4,
        "at a Muggins or All Threes block played in pairs, both partners of a side holding the"
        " lightest hand win the round for their side, where nobody won (RULES.md §3.6: no tie"
        " between sides)",
        "continue",
    ),
    Revision(
        5,
        "a blocked round that a scoring game's player won records how he won it (round_ended's"
        " won_by: the fewest pips, partners sharing them, a pair's hands together, or Bulgarian"
        " fives' points and tie-breaks), so the result says it",
        "continue",
    ),
    Revision(
        6,
        "a fish the closure test called (RULES.md §1.9) while the closed suit's double was still"
        " in a hand or the bazaar records that suit (round_ended's closure_suit), so the result"
        " says why nobody may ever play that double",
        "continue",
    ),
    Revision(
        7,
        "a Sport domino or General's Goat match that a timeout ended names the other team as"
        " its winners (match_ended's winners), as the scoring games' timeouts and these games'"
        " own ends do; Kozel and Donkey still name only the side that timed out",
        "continue",
    ),
]
FIRST: Final = 1


def current() -> int:
    """The revision new matches start under."""
    return REVISIONS[-1].number


def known(number: int) -> bool:
    return any(r.number == number for r in REVISIONS)


def reachable(number: int) -> int:
    """The newest revision a match under ``number`` may continue under: up through the
    consecutive "continue" revisions after it, stopping below the first "finish" one."""
    for revision in REVISIONS:
        if revision.number > number:
            if revision.policy == "finish":
                break
            number = revision.number
    return number
