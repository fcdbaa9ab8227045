"""A deliberate rule change for the upgrade tests: revision 2 of the rules' code deals six tiles a
hand, where revision 1 (the code as it is) deals seven, or five under the §HT house rule.

``RuleSet.hand_size`` is swapped for one that keeps the old deal behind the number, as a real rule
fix would (``engine/revisions.py``), and revision 2 is appended to the registry with ``policy``.
"""

from __future__ import annotations

import pytest

from engine import revisions
from engine.revisions import Policy, Revision
from engine.rules import RuleSet

SIX: int = 6


def deploy_six_tile_hands(monkeypatch: pytest.MonkeyPatch, policy: Policy) -> None:
    dealt_before = RuleSet.hand_size

    def hand_size(rules: RuleSet, players: int) -> int:
        return SIX if rules.revision >= 2 else dealt_before(rules, players)

    monkeypatch.setattr(RuleSet, "hand_size", hand_size)
    monkeypatch.setattr(
        revisions, "REVISIONS", [*revisions.REVISIONS, Revision(2, "six tiles a hand", policy)]
    )
