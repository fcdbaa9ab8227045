"""A player's hand in the DM: an inline keyboard on their turn, a plain record otherwise."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine import DRAW, KNOCK, Action, Lay, Placement, Play, Reopen, Round, Tile
from engine.cross import Cross
from engine.events import Played, PlayedDoubles
from engine.layout import End
from engine.scoring.sea_goat import SIX_SIX, holder

from ..callbacks import CROSSWISE, LENGTHWISE, Callback, lay_args
from ..i18n import Html, plural, t
from ..table import Seat, Table
from .board import must_lead, round_number, round_text, scores_points
from .layout import ARROWS, CLOSED, end_label, ends_text
from .place import place_name
from .tiles import button_text, laid, laid_words, tile_text, tiles_text

ROW = 4
#: The most several-doubles moves a hand offers, those that put down the most first.
TOGETHER = 6


def _hand(table: Table, seat: Seat, rnd: Round | None = None) -> list[Tile]:
    assert table.match is not None and table.match.round is not None
    return sorted((rnd or table.match.round).hands[seat.seat])


def live_hand(table: Table, seat: Seat) -> tuple[Html, InlineKeyboardMarkup]:
    """The hand of the player on turn: its text and its keyboard, from one look at the moves
    the rules allow them."""
    assert table.match is not None
    actions = table.match.legal_actions(seat.seat)
    return _live_hand_text(table, seat, actions), _hand_keyboard(table, seat, actions)


def _hand_keyboard(table: Table, seat: Seat, actions: list[Action]) -> InlineKeyboardMarkup:
    """A button per tile, playable ones marked; draw/knock buttons only when they are the rule."""
    playable = {a.tile for a in actions if isinstance(a, Play)}
    buttons = [
        InlineKeyboardButton(
            button_text(tile, tile in playable),
            callback_data=Callback(
                "play", table.id, events=table.version, args=(str(tile),)
            ).encode(),
        )
        for tile in _hand(table, seat)
    ]
    rows = [buttons[i : i + ROW] for i in range(0, len(buttons), ROW)]
    together = sorted(
        (a for a in actions if isinstance(a, Lay) and len(a.placements) > 1 and not _closes(a)),
        key=lambda lay: -len(lay.placements),
    )
    rows += [[_lay_button(table, seat, lay.placements)] for lay in together[:TOGETHER]]
    reopen = [
        InlineKeyboardButton(
            t(seat.language, "hand.reopen", tile=tile_text(action.tile)),
            callback_data=Callback(
                "reopen", table.id, events=table.version, args=(str(action.tile),)
            ).encode(),
        )
        for action in actions
        if isinstance(action, Reopen)
    ]
    return InlineKeyboardMarkup(
        [*rows, *([reopen] if reopen else []), *_pass_rows(table, seat, actions)]
    )


def _pass_rows(table: Table, seat: Seat, actions: list[Action]) -> list[list[InlineKeyboardButton]]:
    """Draw or knock, as a button: only when nothing fits and yet there is a choice (a closed
    double to reopen first, Donkey's ``donkey_reopen``); else the bot does it by itself."""
    if DRAW not in actions and KNOCK not in actions:
        return []
    key = "hand.draw" if DRAW in actions else "hand.knock"
    data = Callback("pass", table.id, events=table.version).encode()
    return [[InlineKeyboardButton(t(seat.language, key), callback_data=data)]]


def _closes(lay: Lay) -> bool:
    return any(placement.closed for placement in lay.placements)


def laid_text(placements: tuple[Placement, ...]) -> str:
    """``[3|3]⬅️ + [5|5]🔒➡️``: the tiles of a move with their ends, the closed ones locked."""
    return " + ".join(
        tile_text(p.tile) + (CLOSED if p.closed else "") + (ARROWS[p.end] if p.end else "")
        for p in placements
    )


def _lay_button(
    table: Table, seat: Seat, placements: tuple[Placement, ...], *, settled: bool = False
) -> InlineKeyboardButton:
    """A button for a move of several doubles (``hand.together``), or, once asked, for each way
    of laying them open or closed."""
    lang = seat.language
    if settled and len(placements) == 1:
        placement = placements[0]
        key = "hand.close" if placement.closed else "hand.open"
        text = t(lang, key, tile=tile_text(placement.tile))
    elif settled:
        text = t(lang, "hand.lay_so", tiles=laid_text(placements))
    else:
        text = t(lang, "hand.together", tiles=laid_text(placements))
    args = lay_args(placements, settled=settled)
    data = Callback("lay", table.id, events=table.version, args=args).encode()
    return InlineKeyboardButton(text, callback_data=data)


def closings(table: Table, seat: Seat, placements: tuple[Placement, ...]) -> list[Lay]:
    """The legal ways of laying ``placements`` with some of them closed (Donkey, RULES.md
    §3.3): none where the game closes nothing."""
    assert table.match is not None and table.match.round is not None
    layout = table.match.round.layout
    if layout.is_empty:  # the lead is never closed
        return []
    wanted = [(p.tile, p.end or _only_end(layout.fits(p.tile))) for p in placements]
    return [
        action
        for action in table.match.legal_actions(seat.seat)
        if isinstance(action, Lay)
        and _closes(action)
        and [(p.tile, p.end) for p in action.placements] == wanted
    ]


def _only_end(ends: tuple[End, ...]) -> End | None:
    return ends[0] if len(ends) == 1 else None


def close_keyboard(
    table: Table, seat: Seat, placements: tuple[Placement, ...], ways: list[Lay]
) -> InlineKeyboardMarkup:
    """Open or closed? All open first, then each legal way of closing some (``ways``)."""
    open_ = tuple(Placement(p.tile, p.end) for p in placements)
    rows = [
        [_lay_button(table, seat, lay, settled=True)]
        for lay in (open_, *(way.placements for way in ways))
    ]
    back = InlineKeyboardButton(
        t(seat.language, "hand.back"),
        callback_data=Callback("back", table.id, events=table.version).encode(),
    )
    return InlineKeyboardMarkup([*rows, [back]])


def close_text(seat: Seat, placements: tuple[Placement, ...]) -> Html:
    """The question over ``close_keyboard``."""
    if len(placements) == 1:
        return t(seat.language, "hand.open_or_closed", tile=tile_text(placements[0].tile))
    return t(seat.language, "hand.which_closed", tiles=laid_text(placements))


def end_keyboard(table: Table, seat: Seat, tile: Tile) -> InlineKeyboardMarkup:
    """The tile fits several ends: which one? Each named as a player would point at it ("to
    the 5 on the left"), the line's ends on one row and the spinner's arms on the next."""
    assert table.match is not None and table.match.round is not None
    layout = table.match.round.layout
    ends = layout.open_ends()
    lang = seat.language

    def button(end: End) -> InlineKeyboardButton:
        data = Callback("play", table.id, events=table.version, args=(str(tile), end)).encode()
        return InlineKeyboardButton(end_label(lang, layout, end, ends[end]), callback_data=data)

    choices = layout.fits(tile)
    rows = [
        [button(end) for end in choices if end in row]
        for row in (("left", "right"), ("up", "down"))
    ]
    back = InlineKeyboardButton(
        t(lang, "hand.back"),
        callback_data=Callback("back", table.id, events=table.version).encode(),
    )
    return InlineKeyboardMarkup([*(row for row in rows if row), [back]])


def lengthwise_ends(table: Table, seat: Seat, tile: Tile) -> tuple[End, ...]:
    """The ends ``tile`` may be laid lengthwise on now (English fives' doubles, RULES.md §3.9)."""
    assert table.match is not None
    return tuple(
        placement.end
        for action in table.match.legal_actions(seat.seat)
        if isinstance(action, Lay) and len(action.placements) == 1
        for placement in action.placements
        if placement.tile == tile and placement.lengthwise and placement.end is not None
    )


def way_keyboard(table: Table, seat: Seat, tile: Tile, end: End) -> InlineKeyboardMarkup:
    """The double goes on ``end``: across the line, counting both halves there, or along it,
    counting one; each with what the move would score that way ("· +10"), as its pop-up will
    say it. The question takes the place of the hand and its open ends, so "counts 8" and
    "counts 4" alone left the player to remember the other ends to tell which way scores."""
    match = table.match
    assert match is not None and match.round is not None
    lang, shown, layout = seat.language, tile_text(tile), match.round.layout

    def button(key: str, way: str, value: int) -> InlineKeyboardButton:
        args = (str(tile), end, way)
        data = Callback("play", table.id, events=table.version, args=args).encode()
        _, points = match.game.move(layout, tile, end, match.rules, lengthwise=way == LENGTHWISE)
        label = t(lang, key, tile=shown, value=value)
        if points:
            label = t(lang, "hand.way_scored", way=label, points=points)
        return InlineKeyboardButton(label, callback_data=data)

    back = InlineKeyboardButton(
        t(lang, "hand.back"),
        callback_data=Callback("back", table.id, events=table.version).encode(),
    )
    crosswise = button("hand.crosswise", CROSSWISE, 2 * tile.a)
    # a row each: side by side, a phone cuts the labels short, and the points go first
    return InlineKeyboardMarkup(
        [[crosswise], [button("hand.lengthwise", LENGTHWISE, tile.a)], [back]]
    )


def which_way_text(seat: Seat, tile: Tile) -> Html:
    return t(seat.language, "hand.which_way", tile=tile_text(tile))


def which_end_text(table: Table, seat: Seat, tile: Tile) -> Html:
    """The question over ``end_keyboard``: both ends of a line, or some of a cross's. Where the
    ends' sum scores, with the open ends and their sum under it, as the hand it takes the place
    of showed them: the end chosen is what the move scores by, and the sum was gone."""
    match = table.match
    assert match is not None and match.round is not None
    open_ends = len(match.round.layout.open_ends())
    key = "hand.which_end" if open_ends == 2 else "hand.which_of"
    question = t(seat.language, key, tile=tile_text(tile))
    if not scores_points(match) or not isinstance(match.round.layout, Cross):
        return question  # a line's ends score nothing, and the buttons name them
    return Html("\n".join([question, *_position(table, seat.language)]))


def _position(table: Table, lang: str) -> list[str]:
    """The open ends, as the board shows them (with their sum only where it scores)."""
    match = table.match
    assert match is not None and match.round is not None
    ends = ends_text(lang, match.round.layout, with_sum=scores_points(match))
    return [] if ends is None else [ends]


def _live_hand_text(table: Table, seat: Seat, actions: list[Action]) -> Html:
    """The hand on the player's turn, with what happened to it since they last played: draws
    and knocks happen without a tap, and this is where they learn of them."""
    match = table.match
    assert match is not None and match.round is not None
    lang = seat.language
    number = round_number(match, match.round)
    parts: list[str] = [
        round_text(lang, "hand.your_turn", match, number, chat=place_name(lang, table))
    ]
    parts += _position(table, lang)
    # in the order they happen: a player draws until the bazaar is dry, and only then knocks
    if seat.drawn:
        parts.append(t(lang, "hand.drew", tiles=tiles_text(seat.drawn)))
    if seat.knocks:
        parts.append(plural(lang, "hand.knocked", seat.knocks))
    rnd = match.round
    if rnd.layout.is_empty and rnd.lead_tiles:
        parts.append(must_lead(lang, "hand.must_lead", match, rnd.lead_tiles))
    elif rnd.layout.is_empty:
        parts += [t(lang, "hand.lead_any"), *_na_sto_offer(table, seat, rnd)]
    else:
        parts.append(t(lang, _prompt(actions)))
    return Html("\n".join(parts))


def _na_sto_offer(table: Table, seat: Seat, rnd: Round) -> list[str]:
    """Sea Goat's holder leading freely with 6-6 in hand: leading it plays the round "на сто"
    (RULES.md §3.2.1 rule 7), which wins the match or loses every score. The board says so once
    it is led; the hand said nothing, and a tap on 6-6 staked all unawares."""
    match = table.match
    assert match is not None
    sea = match.tally.sea
    if sea is None or sea.na_sto == seat.seat or SIX_SIX not in rnd.hands[seat.seat]:
        return []  # not Sea Goat; or this round is his "на сто" whatever he leads (the board's)
    if holder(match.tally.scores) != match.side_of(seat.seat):
        return []
    return [t(seat.language, f"hand.na_sto.{match.rules.sg_na_sto}", tile=tile_text(SIX_SIX))]


def _prompt(actions: list[Action]) -> str:
    """What to tap: a tile marked ✅; or, with nothing that fits but a double to reopen first,
    that or the button that draws or knocks (``_pass_rows``)."""
    if DRAW in actions:
        return "hand.reopen_or_draw"
    if KNOCK in actions:
        return "hand.reopen_or_knock"
    return "hand.tap"


def record_text(table: Table, seat: Seat, note: str, rnd: Round | None = None) -> Html:
    """What the hand message becomes when it is not this player's turn: it stays in the chat
    for good, so it says nothing that is only true for a while (whose turn it is). ``rnd`` is
    a round that has just ended, whose last hand is shown rather than the new deal."""
    match = table.match
    assert match is not None and match.round is not None
    rnd = rnd or match.round
    parts = [note] if note else []
    hand = tiles_text(_hand(table, seat, rnd))
    number = round_number(match, rnd)
    parts.append(round_text(seat.language, "hand.your_hand", match, number, tiles=hand))
    return Html("\n".join(parts))


def leads_text(table: Table, lang: str, reader: int | None = None) -> Html:
    """Who leads the new round, for the others at the table: with what, and why, where the
    rules say, in the words the leader's hand is told them (``must_lead``). The leader reads
    it (``reader``) only when he is away at the deal, no keyboard telling him, the computer
    playing his turn: of himself, where "▶️ Masha leads." named him as if someone else."""
    match = table.match
    assert match is not None and match.round is not None
    rnd = match.round
    name = table.seats[rnd.leader].name
    mine = reader == rnd.leader
    if rnd.layout.is_empty and rnd.lead_tiles:
        key = "hand.you_lead_with" if mine else "hand.leads_with"
        return must_lead(lang, key, match, rnd.lead_tiles, name=name)
    return t(lang, "hand.you_lead" if mine else "hand.leads", name=name)


def played_note(
    seat: Seat, move: Played | PlayedDoubles, key: str = "hand.you_played", **values: object
) -> Html:
    """What the player's record says of a move, in the words of ``key`` (the computer's for a
    turn that ran out, the bot's for a lead it placed, which may take ``values``: for whom):
    the tiles (a double laid closed called so), and what they scored, as the group's board
    says it ("+15")."""
    points = move.scored or 0
    if points:
        key += "_scored"
    tile = laid_words(seat.language, laid(move))
    return t(seat.language, key, tile=tile, points=points, **values)


def placed_text(table: Table, seat: Seat, placed: Played) -> Html:
    """A lead the bot ``placed`` (``Game.places_lead``, RULES.md §3.8), as a person's new hand
    tells it: for him or for whom, with what, and who plays next. "Masha leads" read as if she
    were still to, beside the next player's keyboard."""
    lang = seat.language
    if placed.seat == seat.seat:
        told = played_note(seat, placed, "hand.led_for_you")
    else:
        told = played_note(seat, placed, "hand.led_for", name=table.seats[placed.seat].name)
    match = table.match
    assert match is not None
    after = match.current_seat
    if after is None:  # the lead ended the match: nobody plays next
        return told
    if after == seat.seat:
        return Html(told + "\n" + t(lang, "hand.you_play_next"))
    return Html(told + "\n" + t(lang, "hand.plays_next", name=table.seats[after].name))
