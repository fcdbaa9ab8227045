"""Why an action was refused (each error leaves the state untouched), and why a stored event log
was rejected."""

from __future__ import annotations


class IllegalAction(Exception):
    """Base class: the action breaks a rule; nothing changed."""

    code = "illegal"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class TileNotInHand(IllegalAction):
    code = "tile_not_in_hand"


class TileDoesNotFit(IllegalAction):
    code = "tile_does_not_fit"


class WrongLead(IllegalAction):
    """The lead is restricted this round (first-lead chain, or a compulsory double)."""

    code = "wrong_lead"


class EndRequired(IllegalAction):
    """The tile fits both ends with different values; the player must say which."""

    code = "end_required"


class NoSuchEnd(IllegalAction):
    """The play names an end this layout does not have (a line has only left and right)."""

    code = "no_such_end"


class OneTilePerMove(IllegalAction):
    """The move puts down more tiles than the game allows in one move (RULES.md §1.6: one, unless
    the game has a multi-double move)."""

    code = "one_tile_per_move"


class CannotClose(IllegalAction):
    """The move lays a tile closed (face down) where it may not be: only Donkey closes, only
    doubles, never the lead (RULES.md §3.3); or reopens a double that this player may not."""

    code = "cannot_close"


class MustPlay(IllegalAction):
    """Drawing or knocking while holding a playable tile."""

    code = "must_play"


class CannotDraw(IllegalAction):
    """Nothing may be drawn: the rules forbid it or the bazaar is exhausted."""

    code = "cannot_draw"


class MustDraw(IllegalAction):
    """Knocking while the bazaar still offers a tile to draw."""

    code = "must_draw"


class GameOver(IllegalAction):
    """The round or the match has ended."""

    code = "game_over"


class ReplayMismatch(ValueError):
    """A stored event log the rules do not reproduce: damaged, edited, or written under other rules.

    ``index`` is the position of the first offending event in the log.
    """

    def __init__(self, index: int, detail: str) -> None:
        super().__init__(f"event {index}: {detail}")
        self.index = index
