"""Shuffling, dealing and the redeal rule (RULES.md §1.4, §2.2)."""

from __future__ import annotations

import random
from typing import Literal

from .rules import RuleSet
from .tiles import ALL_TILES, DOUBLES_SHIFT, VALUE_COUNTS, VALUE_FIELD_BITS, Tile

Hand = list[Tile]


# ``random.shuffle``'s Fisher-Yates steps for the 28 tiles: (position i, how many positions the
# swap partner is drawn from, the bits drawn for that). ``shuffled`` runs the same steps with the
# same draws as ``random.Random.shuffle``, so deals are unchanged, without its per-step calls.
_SHUFFLE_STEPS = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, len(ALL_TILES))))


def shuffled(seed: int, round_no: int, attempt: int) -> list[Tile]:
    """A deterministic shuffle per (match seed, round, deal attempt), so no RNG state is stored."""
    tiles = list(ALL_TILES)
    getrandbits = random.Random(f"kozel/{seed}/{round_no}/{attempt}").getrandbits
    for i, n, bits in _SHUFFLE_STEPS:
        j = getrandbits(bits)  # Random._randbelow(n): draw bits until below n
        while j >= n:
            j = getrandbits(bits)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def deal(tiles: list[Tile], players: int, hand_size: int) -> tuple[list[Hand], list[Tile]]:
    """Hands are dealt in blocks from the top; the rest is the bazaar, drawn from its front."""
    hands = [sorted(tiles[i * hand_size : (i + 1) * hand_size]) for i in range(players)]
    return hands, tiles[players * hand_size :]


def redeal_reason(hand: Hand, rules: RuleSet) -> Literal["doubles", "suit"] | None:
    """Why this hand forces a redeal: ≥5 doubles, or (by default) ≥6 tiles of one suit, a double
    counting once in its own suit (000_7076521a207d37f7.txt §ONL)."""
    counts = sum(map(VALUE_COUNTS.__getitem__, hand))
    if counts >> DOUBLES_SHIFT >= 5:
        return "doubles"
    # A suit has 7 tiles, so adding 122 to its field sets the top bit exactly when it counts 6+.
    if rules.redeal_rule == "doubles_or_suit" and (counts + _PLUS_122) & _TOP_BITS:
        return "suit"
    return None


def first_redeal(
    hands: list[Hand], rules: RuleSet
) -> tuple[int, Literal["doubles", "suit"]] | None:
    """The first seat whose hand forces a redeal, and why; None when the deal stands."""
    for seat, hand in enumerate(hands):
        reason = redeal_reason(hand, rules)
        if reason is not None:
            return seat, reason
    return None


_PLUS_122 = sum(122 << VALUE_FIELD_BITS * v for v in range(7))
_TOP_BITS = sum(0x80 << VALUE_FIELD_BITS * v for v in range(7))
