"""Shuffling, dealing and the redeal rule (RULES.md §1.4, §2.2)."""

from __future__ import annotations

import random
from typing import Literal

from .rules import RuleSet
from .tiles import ALL_TILES, Tile

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
    doubles = 0
    suits = [0] * 7
    for a, b in hand:
        suits[a] += 1
        if a == b:
            doubles += 1
        else:
            suits[b] += 1
    if doubles >= 5:
        return "doubles"
    if rules.redeal_rule == "doubles_or_suit" and max(suits) >= 6:
        return "suit"
    return None
