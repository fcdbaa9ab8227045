"""Shuffling, dealing and the redeal rule (RULES.md §1.4, §2.2)."""

from __future__ import annotations

import random
from hashlib import blake2b
from typing import Final, Literal

from .rules import RuleSet
from .tiles import ALL_TILES, Tile

Hand = list[Tile]


#: How a match shuffles; ``match_started`` records it, so a match keeps its deals across versions.
#: ``blake2b`` is the one new matches use; ``random`` is how matches were dealt before it, kept so
#: that a match in play (a log without the field) replays into the same deals after an upgrade.
Shuffle = Literal["blake2b", "random"]
CURRENT_SHUFFLE: Final[Shuffle] = "blake2b"
OLDEST_SHUFFLE: Final[Shuffle] = "random"
SHUFFLES: Final[tuple[Shuffle, ...]] = ("blake2b", "random")


# Fisher-Yates steps for the 28 tiles: (position i, how many positions its swap partner is drawn
# from, the bytes below which a byte maps evenly onto them).
_STEPS: Final = tuple((i, i + 1, 256 - 256 % (i + 1)) for i in reversed(range(1, len(ALL_TILES))))


def shuffled(seed: int, round_no: int, attempt: int, how: Shuffle = CURRENT_SHUFFLE) -> list[Tile]:
    """A deterministic shuffle per (match seed, round, deal attempt), so no RNG state is stored.

    ``blake2b``: Fisher-Yates, each swap partner drawn from the bytes of a BLAKE2b digest of the
    three numbers by rejection (a byte at or above the largest multiple of n below 256 is skipped),
    so every deal is exactly as likely as any other. One hash covers a deal, where seeding a
    ``random.Random`` (the Mersenne Twister fills 624 words) was most of the cost of dealing.
    ``random``: ``random.Random(key).shuffle``.
    """
    tiles = list(ALL_TILES)
    key = f"kozel/{seed}/{round_no}/{attempt}"
    if how == "random":
        random.Random(key).shuffle(tiles)
        return tiles
    stream = blake2b(key.encode()).digest()  # 64 bytes for 27 draws; 0.6 skipped on average
    used, size = 0, len(stream)
    for i, n, below in _STEPS:
        byte = stream[used]
        used += 1
        while byte >= below:
            if used == size:  # more than 37 bytes skipped: about 1 deal in 10**37
                stream = blake2b(stream).digest()
                used = 0
            byte = stream[used]
            used += 1
        j = byte % n
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def deal(tiles: list[Tile], players: int, hand_size: int) -> tuple[list[Hand], list[Tile]]:
    """Hands are dealt in blocks from the top, each sorted; the rest is the bazaar, drawn from its
    front."""
    hands = [sorted(tiles[i * hand_size : (i + 1) * hand_size]) for i in range(players)]
    return hands, tiles[players * hand_size :]


def redeal_reason(hand: Hand, rules: RuleSet) -> Literal["doubles", "suit"] | None:
    """Why this hand forces a redeal: ≥5 doubles, or (by default) ≥6 tiles of one suit, a double
    counting once in its own suit (000_7076521a207d37f7.txt §ONL)."""
    doubles = 0
    per_suit = [0] * 7
    for a, b in hand:
        per_suit[a] += 1
        if a == b:
            doubles += 1
        else:
            per_suit[b] += 1
    if doubles >= 5:
        return "doubles"
    if rules.redeal_rule == "doubles_or_suit" and max(per_suit) >= 6:
        return "suit"
    return None


def first_redeal(
    hands: list[Hand], rules: RuleSet
) -> tuple[int, Literal["doubles", "suit"]] | None:
    """The first seat whose hand forces a redeal, and why; None when the deal stands. Only the
    dealt hands are looked at, never the bazaar (RULES.md §2.2, FLAG)."""
    for seat, hand in enumerate(hands):
        reason = redeal_reason(hand, rules)
        if reason is not None:
            return seat, reason
    return None
