"""Callback data: short, stamped, and checked, because anyone can forge it.

Format ``<verb>:<table>:<stamp>[:<arg>...]``; every payload stays well under Telegram's 64-byte
limit. The stamp says what the button was drawn for, and the verb says which: a hand's buttons
carry the match's event count (``events``), the lobby's a digest of the lobby (``lobby``, see
``render.lobby.lobby_revision``), /top's the page it turns to (``page``), the question /cancel
asks during a match who may answer it (``asker``). A tap on a button drawn for an older hand or
lobby is stale and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, get_args

from engine import Placement, Tile
from engine.layout import End

MAX_BYTES = 64
#: The most digits a number on a button may have: any such number fits SQLite's integers.
MAX_DIGITS = 18
_SHORT: Final = {
    "join": "j",
    "leave": "l",
    "start": "s",
    "opt": "o",
    "bot": "b",
    "cancel": "c",
    "lobby": "v",
    "play": "p",
    "back": "x",
    "top": "t",
    "lang": "g",
    "here": "h",
    "game": "m",
    "lay": "y",
    "reopen": "r",
    "pass": "k",
    "again": "a",
    "pair": "w",
    "cancel_answer": "q",  # named "stop" once: its buttons in the chats carry only the "q"
}
_LONG: Final = {v: k for k, v in _SHORT.items()}
_ENDS: Final[dict[str, End]] = {end: end for end in get_args(End)}
#: A double laid across the line or along it: the third argument of a play, once asked.
CROSSWISE: Final = "x"
LENGTHWISE: Final = "l"
WAYS: Final = (CROSSWISE, LENGTHWISE)
#: The second argument of a ``lay`` whose player has answered every question about it.
SETTLED: Final = "!"
#: The answers to /cancel's question during a match: cancel it, or keep playing.
YES: Final = "y"
KEEP: Final = "n"
#: A placement on a ``lay`` button: the tile, its end's initial (none when the tile fits one
#: end), ``c`` if laid closed.
_END_OF: Final[dict[str, End]] = {end[0]: end for end in get_args(End)}
_CLOSED: Final = "c"
Stamp = Literal["events", "lobby", "page", "asker"]
#: Which of ``Callback``'s fields a verb's stamp fills; the other verbs carry none.
_STAMP: Final[dict[str, Stamp]] = {
    "play": "events",
    "lay": "events",
    "reopen": "events",
    "pass": "events",
    "back": "events",
    "top": "page",
    "cancel_answer": "asker",
    **dict.fromkeys(
        ("join", "leave", "start", "opt", "bot", "cancel", "lobby", "game", "pair"), "lobby"
    ),
}


@dataclass(frozen=True, slots=True)
class Callback:
    verb: str
    table_id: int = 0
    #: A hand's buttons: the match's event count when they were drawn.
    events: int = 0
    #: The lobby's buttons: the lobby's revision when they were drawn.
    lobby: int = 0
    #: /top's buttons: the page they turn to.
    page: int = 0
    #: The answers to /cancel's question: who sent it, the only one who may answer; 0 for an
    #: admin who wrote in the group's name (Telegram does not say who), whom any admin answers.
    asker: int = 0
    args: tuple[str, ...] = ()

    def encode(self) -> str:
        stamp = _STAMP.get(self.verb)
        number = 0 if stamp is None else getattr(self, stamp)
        data = ":".join([_SHORT[self.verb], str(self.table_id), str(number), *self.args])
        if len(data.encode()) > MAX_BYTES:
            raise ValueError(f"callback data too long: {data!r}")
        return data

    @property
    def tile(self) -> Tile:
        return Tile.parse(self.args[0])

    @property
    def end(self) -> End | None:
        """The end chosen for a tile that fits several (checked by ``decode``)."""
        if len(self.args) > 1:
            return _ENDS[self.args[1]]
        return None

    @property
    def placements(self) -> tuple[Placement, ...]:
        """The tiles of a ``lay`` (checked by ``decode``): several doubles, or one to close."""
        return placements_of(self.args[0])

    @property
    def settled(self) -> bool:
        """A ``lay`` to make as it is, rather than to ask "open or closed?" about first."""
        return self.args[1:] == (SETTLED,)

    @property
    def lengthwise(self) -> bool | None:
        """How the double is laid, when its player was asked: along the line (English fives,
        RULES.md §3.9) or across it; None before the question."""
        if len(self.args) > 2:
            return self.args[2] == LENGTHWISE
        return None


def decode(data: str | None) -> Callback | None:
    """Parse callback data; anything malformed yields None (a forged or foreign button)."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    parts = data.split(":")
    if len(parts) < 3 or parts[0] not in _LONG:
        return None
    table_id, number = plain_number(parts[1]), plain_number(parts[2])
    if table_id is None or number is None:
        return None
    verb, args = _LONG[parts[0]], tuple(parts[3:])
    stamp = _STAMP.get(verb)
    cb = Callback(verb, table_id, args=args, **({} if stamp is None else {stamp: number}))
    if verb in ("play", "reopen") and (not args or not _is_tile(args[0])):
        return None
    if verb == "play" and (len(args) > 3 or (len(args) > 2 and args[2] not in WAYS)):
        return None
    if verb == "play" and len(args) > 1 and args[1] not in _ENDS:
        return None
    if verb == "reopen" and len(args) != 1:
        return None
    if verb == "lay" and not _is_lay(args):
        return None
    if verb == "cancel_answer" and args not in ((YES,), (KEEP,)):
        return None
    return cb


def plain_number(text: str) -> int | None:
    """A table id, a stamp or a seat, as buttons, deep links and people write them: plain digits
    that the database can look up (a forged id of 25 digits would overflow SQLite's integers,
    and ``int`` reads digits no button carries, such as "٣"; "²" it cannot read at all)."""
    if not text.isascii() or not text.isdigit() or len(text) > MAX_DIGITS:
        return None
    return int(text)


def lay_args(placements: Sequence[Placement], *, settled: bool = False) -> tuple[str, ...]:
    """The arguments of a ``lay`` button: ``3-3l.5-5rc`` (3-3 on the left, 5-5 closed on the
    right), and whether its player has already chosen which to close."""
    code = ".".join(
        f"{p.tile}{p.end[0] if p.end else ''}{_CLOSED if p.closed else ''}" for p in placements
    )
    return (code, SETTLED) if settled else (code,)


def placements_of(code: str) -> tuple[Placement, ...]:
    """The placements ``lay_args`` wrote as ``code``."""
    return tuple(_placement(part) for part in code.split("."))


def _placement(part: str) -> Placement:
    closed = part.endswith(_CLOSED)
    part = part.removesuffix(_CLOSED)
    if part[-1:].isdigit():  # the only end the tile fits
        return Placement(Tile.parse(part), closed=closed)
    return Placement(Tile.parse(part[:-1]), _END_OF[part[-1]], closed=closed)


def _is_lay(args: tuple[str, ...]) -> bool:
    if len(args) not in (1, 2) or args[1:] not in ((), (SETTLED,)):
        return False
    try:
        for part in args[0].split("."):
            _placement(part)
    except (ValueError, KeyError, IndexError):
        return False
    return True


def verb_is(*verbs: str) -> Callable[[object], bool]:
    """A ``CallbackQueryHandler`` pattern: the data is a button of one of ``verbs``."""
    codes = {_SHORT[verb] for verb in verbs}
    return lambda data: isinstance(data, str) and data.partition(":")[0] in codes


def _is_tile(text: str) -> bool:
    try:
        Tile.parse(text)
    except ValueError:
        return False
    return True
