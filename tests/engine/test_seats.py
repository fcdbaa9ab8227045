"""Where a pair game's players sit: partners opposite, as ``side_of`` says."""

from __future__ import annotations

import pytest

from engine.seats import opposite, partner_of, side_of


def test_two_pairs_sit_partners_opposite_each_in_its_own_order() -> None:
    seated = opposite([["Masha", "Olya"], ["Petya", "Vova"]])
    assert seated == ["Masha", "Petya", "Olya", "Vova"]
    assert seated[partner_of(0)] == "Olya" and seated[partner_of(1)] == "Vova"
    assert [side_of(seat, pairs=True) for seat in range(4)] == [0, 1, 0, 1]


@pytest.mark.parametrize("pairs", [[["a", "b", "c"], ["d"]], [["a", "b"]], [["a"], ["b"]]])
def test_only_two_pairs_of_two_can_sit_at_a_pair_game(pairs: list[list[str]]) -> None:
    with pytest.raises(ValueError, match="two pairs of two"):
        opposite(pairs)
