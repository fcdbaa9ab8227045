"""Callback data: short, versioned, and checked, because anyone can forge it.

Format ``<verb>:<table>[:<version>[:<arg>...]]``; every payload stays well under Telegram's 64-byte
limit. The version is the match's event count when the button was drawn, or for the lobby's buttons
a digest of the lobby (``render.lobby.lobby_revision``): a tap on an older button is stale and
changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Tile
from engine.line import LEFT, RIGHT, End

MAX_BYTES = 64
_SHORT = {
    "join": "j",
    "leave": "l",
    "start": "s",
    "opt": "o",
    "bot": "b",
    "cancel": "c",
    "play": "p",
    "end": "e",
    "draw": "d",
    "knock": "k",
    "back": "x",
    "top": "t",
    "lang": "g",
    "here": "h",
}
_LONG = {v: k for k, v in _SHORT.items()}


@dataclass(frozen=True, slots=True)
class Callback:
    verb: str
    table_id: int
    version: int = 0
    args: tuple[str, ...] = ()

    def encode(self) -> str:
        parts = [_SHORT[self.verb], str(self.table_id), str(self.version), *self.args]
        data = ":".join(parts)
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data too long: {data!r}")
        return data

    @property
    def tile(self) -> Tile:
        return Tile.parse(self.args[0])

    @property
    def end(self) -> End | None:
        """The end chosen for a tile that fits both (checked by ``decode``)."""
        if len(self.args) > 1:
            return LEFT if self.args[1] == LEFT else RIGHT
        return None


def decode(data: str | None) -> Callback | None:
    """Parse callback data; anything malformed yields None (a forged or foreign button)."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    parts = data.split(":")
    if len(parts) < 3 or parts[0] not in _LONG:
        return None
    try:
        table_id, version = int(parts[1]), int(parts[2])
    except ValueError:
        return None
    cb = Callback(_LONG[parts[0]], table_id, version, tuple(parts[3:]))
    if cb.verb in ("play", "end") and (not cb.args or not _is_tile(cb.args[0])):
        return None
    if cb.verb == "play" and len(cb.args) > 1 and cb.args[1] not in ("left", "right"):
        return None
    return cb


def _is_tile(text: str) -> bool:
    try:
        Tile.parse(text)
    except ValueError:
        return False
    return True
