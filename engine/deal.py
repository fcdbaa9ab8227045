"""Shuffling, dealing and the redeal rule (RULES.md §1.4, §2.2)."""

from __future__ import annotations

import random
from typing import Literal

from .rules import RuleSet
from .tiles import ALL_TILES, Tile

Hand = list[Tile]


def shuffled(seed: int, round_no: int, attempt: int) -> list[Tile]:
    """A deterministic shuffle per (match seed, round, deal attempt), so no RNG state is stored."""
    tiles = list(ALL_TILES)
    random.Random(f"kozel/{seed}/{round_no}/{attempt}").shuffle(tiles)
    return tiles


def deal(tiles: list[Tile], players: int, hand_size: int) -> tuple[list[Hand], list[Tile]]:
    """Hands are dealt in blocks from the top; the rest is the bazaar, drawn from its front."""
    hands = [sorted(tiles[i * hand_size : (i + 1) * hand_size]) for i in range(players)]
    return hands, tiles[players * hand_size :]


def redeal_reason(hand: Hand, rules: RuleSet) -> Literal["doubles", "suit"] | None:
    """Why this hand forces a redeal: ≥5 doubles, or (by default) ≥6 tiles of one suit, a double
    counting once in its own suit (000_7076521a207d37f7.txt §ONL)."""
    if sum(1 for t in hand if t.is_double) >= 5:
        return "doubles"
    if rules.redeal_rule == "doubles_or_suit":
        for value in range(7):
            if sum(1 for t in hand if t.has(value)) >= 6:
                return "suit"
    return None
