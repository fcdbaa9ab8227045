"""A deliberate rule change for the upgrade tests: the revision after the current one
(``NEXT``) deals six tiles a hand, where the code as it is deals seven, or five under the §HT house
rule.

``RuleSet.hand_size`` is swapped for one that keeps the old deal behind the number, as a real rule
fix would (``engine/revisions.py``), and ``NEXT`` is appended to the registry with ``policy``.
"""

from __future__ import annotations

import pytest

from engine import revisions
from engine.revisions import Policy, Revision
from engine.rules import RuleSet

SIX: int = 6
#: The revision the change deploys: the one after the code's current revision.
NEXT: int = revisions.current() + 1


def deploy_six_tile_hands(monkeypatch: pytest.MonkeyPatch, policy: Policy) -> None:
    dealt_before = RuleSet.hand_size

    def hand_size(rules: RuleSet, players: int) -> int:
        return SIX if rules.revision >= NEXT else dealt_before(rules, players)

    monkeypatch.setattr(RuleSet, "hand_size", hand_size)
    monkeypatch.setattr(
        revisions, "REVISIONS", [*revisions.REVISIONS, Revision(NEXT, "six tiles a hand", policy)]
    )
