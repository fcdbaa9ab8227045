"""The live board in the group: the line, the ends, whose turn, tiles in hand, the score."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Literal

from engine import Match, Round
from engine.events import RoundEnded
from engine.games.generals import generals
from engine.games.sea_goat import na_sto_seat
from engine.leads import LotWinner, lot, lot_winner
from engine.match import TIMEOUT
from engine.scoring.sea_goat import holder
from engine.scoring.tally import Tally
from engine.tiles import Tile

from ..i18n import Html, plural, spoken_list, t
from ..sender import read_len
from ..table import Recent, Table
from .game_names import game_name
from .layout import ends_text, layout_lines
from .lobby import numbered
from .room import LIMIT, room_after, whole_rows
from .tiles import laid_words, tile_text, tiles_text


def limit_of(match: Match) -> int | None:
    """The score that ends the match (``Game.limit``): a target, Kozel's goat limit, or
    General's Goat's rounds a team may lose."""
    return match.game.limit(match.rules)


def goal(match: Match) -> str:
    """How the game words what ends its match, by the suffix of ``board.title``,
    ``standings.head``: a count of deals (``Game.deals``), the rounds a team may lose (a game
    that keeps no points), else a limit or target."""
    if match.game.deals(match.rules) is not None:
        return "_deals"
    return "" if match.game.keeps_points else "_losses"


def headline(lang: str, key: str, match: Match, **values: object) -> Html:
    """``key`` (the board's title, /standings' head) for the match's game, with what ends it:
    "deal 3 of 8", "lost rounds to lose: 2", or "to 101"."""
    rules = match.rules
    return t(
        lang,
        key + goal(match),
        game=game_name(lang, rules.game),
        limit=limit_of(match),
        deals=match.game.deals(rules),
        **values,
    )


def round_text(lang: str, key: str, match: Match, number: int, **values: object) -> Html:
    """``key`` naming the round ``number`` as the board does: a game of a set number of deals
    (Sport domino) says "deal 3 of 8" (``key`` + "_deals") where the others say "round 3"."""
    deals = match.game.deals(match.rules)
    key += "" if deals is None else "_deals"
    return t(lang, key, round=number, deals=deals, **values)


def round_number(match: Match, rnd: Round) -> int:
    """The number the players see for ``rnd``, the current round or one that has just ended (in
    General's Goat, a fish dealt again keeps its number: ``Game.counted_round``)."""
    return match.game.counted_round(rnd.number, match.tally.scores, rnd.outcome)


def board_title(lang: str, match: Match, rnd: Round) -> Html:
    """The board's first line: the game, the round ``rnd`` and what ends the match."""
    return headline(lang, "board.title", match, round=round_number(match, rnd))


def ended_number(match: Match, ended: RoundEnded) -> int:
    """The number the players see for the round that ``ended``."""
    return match.game.counted_round(ended.round, ended.scores, ended.result)


def scores_points(match: Match) -> bool:
    """Points are good in this game: it is won at a target, and scored during play."""
    return match.game.wins_at_target


def block_name(match: Match) -> Literal["fish", "blocked"]:
    """What the game calls a round nobody can move in, as the messages' keys name it: a fish
    in the games that score it as one (``Game.blocks_are_fish``), a block in the others."""
    return "fish" if match.game.blocks_are_fish else "blocked"


def keeps_points(match: Match) -> bool:
    """Whether the game writes points; General's Goat counts only the rounds each team lost and
    its Generals (``Game.keeps_points``), and its board, results and records say so."""
    return match.game.keeps_points


@dataclass(frozen=True, slots=True)
class Standing:
    """What the score lines show: each side's score, remembered points (Kozel, RULES.md §2.8)
    and Generals (General's Goat, §3.10), and the eggs' pot (§2.7.4)."""

    scores: Sequence[int]
    memory: Sequence[int]
    generals: Sequence[int]
    pot: int


def _standing(match: Match, ended: RoundEnded | None = None) -> Standing:
    """The match's standing now, or as the round that ``ended`` left it: a result told late
    (after a restart, or behind the group's budget) must not show a later round's scores."""
    if ended is None:
        tally = match.tally
        hung = generals(match.ended_by, match.losers, match.sides)
        pot = 0 if match.is_over else tally.eggs
    else:
        tally = Tally.left_by(ended)
        losers = () if ended.loser is None else (match.side_of(ended.loser),)
        hung = generals("general" if ended.general else None, losers, match.sides)
        pot = 0 if pot_unclaimed(match, ended) else tally.eggs
    return Standing(tally.scores, tally.memory, hung, pot)


def _found(match: Match, tally: Tally) -> Standing:
    """The standing a round's end found (``Table.round_finished``): the eggs still in the pot,
    no General hung yet."""
    return Standing(tally.scores, tally.memory, generals(None, (), match.sides), tally.eggs)


def pot_unclaimed(match: Match, ended: RoundEnded) -> bool:
    """Whether ``ended`` was Sport domino's last deal: no deal is left to take the eggs' pot,
    which goes to nobody (RULES.md §3.11), so it waits for none."""
    deals = match.game.deals(match.rules)
    return deals is not None and ended.round >= deals


def score_lines(
    table: Table, lang: str, ended: RoundEnded | None = None, *, found: Tally | None = None
) -> list[str]:
    """Each side's score: the match's now, or after the round that ``ended`` (``_standing``),
    or as a round's end ``found`` it."""
    match = table.match
    assert match is not None
    now = _standing(match, ended) if found is None else _found(match, found)
    lines: list[str] = []
    if scores_points(match):
        target = limit_of(match)
        for side in range(match.sides):
            name, score = table.side_name(side, lang), now.scores[side]
            lines.append(t(lang, "board.score_target", name=name, score=score, target=target))
    elif not keeps_points(match):
        return [
            lost_rounds_line(table, lang, side, score, now.generals[side])
            for side, score in enumerate(now.scores)
        ]
    else:
        for side in range(match.sides):
            score, memory = now.scores[side], now.memory[side]
            key = "board.score_with_memory" if memory else "board.score"
            name = table.side_name(side, lang)
            lines.append(t(lang, key, name=name, score=score, memory=memory))
    # the eggs' pot: Kozel's, or Sea Goat's (a game that scores to its target), until collected
    if now.pot:
        lines.append(t(lang, "board.pot", pot=now.pot))
    return lines


def _score_head(table: Table, lang: str) -> list[str]:
    """The board's score under a head, where points are bad and its lines alone ("Masha: 12",
    below the same names with their tiles) said nothing of what they count: in Kozel and Donkey
    the limit that loses, in Sport domino that the fewer win. The scoring games' lines say "25
    of 100", General's Goat's "lost 1 of 2": they need none."""
    match = table.match
    assert match is not None
    if scores_points(match) or not keeps_points(match):
        return []
    limit = limit_of(match)
    if limit is None:  # Sport domino: its deals end the match
        return [t(lang, "board.points.fewer")]
    return [t(lang, "board.points.limit", limit=limit)]


def lost_rounds_line(table: Table, lang: str, side: int, lost: int, hung: int) -> str:
    """General's Goat keeps no points: a team's rounds ``lost``, against the rounds that lose
    the match, and the Generals ``hung`` on it."""
    assert table.match is not None
    name, limit = table.side_name(side, lang), limit_of(table.match)
    return t(lang, "board.lost_rounds", name=name, score=lost, limit=limit, generals=hung)


def sea_goat_lines(table: Table, lang: str, rnd: Round, tally: Tally) -> list[str]:
    """Sea Goat's side that holds points (one at most, RULES.md §3.2) and the seat playing this
    round "на сто", if any: its state, which no other game's ``tally`` carries (``sea``)."""
    match = table.match
    assert match is not None
    if tally.sea is None:
        return []
    held = holder(tally.scores)
    lines: list[str] = [
        t(lang, "board.holder_none")
        if held is None
        else t(lang, "board.holder", name=table.side_name(held, lang))
    ]
    na_sto = na_sto_seat(rnd, tally, match.pairs)
    if na_sto is not None and rnd.outcome is None:
        key = f"board.na_sto.{match.rules.sg_na_sto}"  # with what it stakes: a newcomer asked
        lines.append(t(lang, key, name=table.seats[na_sto].name))
    return lines


def recent_text(table: Table, lang: str, rnd: Round) -> list[str]:
    """The latest moves of ``rnd``."""
    return [
        _recent_line(table, lang, recent) for recent in table.recent if recent.round == rnd.number
    ]


def _recent_line(table: Table, lang: str, recent: Recent) -> Html:
    """One move: "Olya played [3|4]", or "Olya drew 3 tiles from the bazaar"."""
    name = table.seats[recent.seat].name
    if recent.kind == "drew":
        return plural(lang, "board.recent.drew", recent.count, name=name)
    key = "board.recent.scored" if recent.points else f"board.recent.{recent.kind}"
    tile = laid_words(lang, recent.laid) if recent.laid else ""
    return t(lang, key, name=name, tile=tile, points=recent.points)


def board_text(
    table: Table,
    rnd: Round | None = None,
    *,
    found: Tally | None = None,
    scores: bool = True,
    ended: str = "board.cancelled",
) -> Html:
    """The board of the current round, or of ``rnd`` (a round that has just ended, at the
    standing its end ``found``, where known: its result says what the end wrote); without
    the score where what it is shown in says it already (/standings). Long names can make it
    longer than a message holds (``room``): then its latest moves give way, the oldest first,
    counted in a line; and should even that not do, the score does too (the group's /standings
    shows it), so that the position, the hands and whose turn it is stay. A cancelled table's
    says what ``ended`` it: a /cancel, unless told (a closed topic)."""
    lang = table.language
    match = table.match
    assert match is not None and match.round is not None
    rnd = rnd or match.round
    top: list[str] = [board_title(lang, match, rnd), *layout_lines(rnd.layout)]
    ends = ends_text(lang, rnd.layout, with_sum=scores_points(match))
    if ends is not None:
        top.append(ends)
    top += sea_goat_lines(table, lang, rnd, found or match.tally)
    top.append("")
    in_play = table.status == "playing" and not match.is_over and rnd.outcome is None
    for seat in table.seats:
        count = len(rnd.hands[seat.seat])
        on_turn = in_play and seat.seat == rnd.turn
        marker = "▶️ " if on_turn else "     "
        label = plural(lang, "board.tiles", count)
        suffix = t(lang, "board.absent") if seat.absent else ""
        top.append(Html(f"{marker}{t(lang, 'board.seat', name=seat.name, tiles=label)}{suffix}"))
    if rnd.bazaar:
        top.append(plural(lang, "board.bazaar", len(rnd.bazaar)))
    elif match.game.bazaar_size(match.rules, match.players):
        top.append(t(lang, "board.bazaar_empty"))
    bottom: list[str] = []
    if table.status == "cancelled":  # by /cancel or its place gone, or nobody left to play
        bottom += ["", t(lang, ended if table.people else "board.deserted")]
    elif match.is_over:  # the board left in the group: it waits for nobody any more
        over = "board.over_timeout" if match.ended_by == TIMEOUT else "board.over"
        bottom += ["", t(lang, over)]
    elif in_play:
        bottom += ["", t(lang, "board.turn", name=table.seats[rnd.turn].name)]
        if rnd.layout.is_empty and rnd.lead_tiles:
            bottom.append(must_lead(lang, "board.must_lead", match, rnd.lead_tiles))
    standing = [*_score_head(table, lang), *score_lines(table, lang, found=found)] if scores else []
    moves = recent_text(table, lang, rnd)
    room = room_after([*top, "", *standing, *bottom]) - 1  # the blank line before the moves
    newest, earlier = whole_rows(moves[::-1], room, partial(plural, lang, "board.earlier"))
    shown = [*([earlier] if earlier else []), *newest[::-1]]
    text = _board(top, shown, standing, bottom)
    if read_len(text) <= LIMIT:
        return text
    return _board(top, [], [t(lang, "board.score_elsewhere")] if scores else [], bottom)


def must_lead(lang: str, key: str, match: Match, tiles: Sequence[Tile], **values: object) -> Html:
    """The tiles the round must be led with ("Must lead: [1|1]", ``key`` the board's or the
    hands' words, which may take ``values``: who leads), and the rule that says so, as the
    engine found it (``Match.lead_why``): the leader was told which tile, never why him, nor
    why that one when the chain had passed 1-1."""
    why = match.lead_why()
    shown = tiles_text(tiles)
    if why is None:
        return t(lang, key, tiles=shown, **values)
    return t(lang, f"{key}_why", tiles=shown, why=t(lang, f"lead_why.{why}"), **values)


def _board(top: list[str], moves: list[str], scores: list[str], bottom: list[str]) -> Html:
    """The board's parts, the moves and the score each after a blank line."""
    shown = [*(["", *moves] if moves else []), *(["", *scores] if scores else [])]
    return Html("\n".join([*top, *shown, *bottom]))


def teams_text(table: Table) -> Html:
    """Who sits where, and who plays with whom, for the message that opens a match."""
    lang = table.language
    seats = [numbered(s) for s in table.seats]  # the numbers /kick takes
    if table.pairs:
        pairs = [spoken_list(lang, seats[side::2]) for side in (0, 1)]
        head = t(lang, "start.pairs", a=pairs[0], b=pairs[1])
    else:
        head = t(lang, "start.order", order=" → ".join(seats))
    return Html("\n".join([head, *_lot_lines(table)]))


def _lot_lines(table: Table) -> list[Html]:
    """Who drew which tile by lot, where a lot picks the match's first leader (Muggins, RULES.md
    §3.6): the group saw someone other than the first seat lead, and nothing said why."""
    match = table.match
    assert match is not None
    wins = match.game.first_lead_lot(match.rules)
    if wins is None:
        return []
    drawn = lot(match.seed, match.players)
    shown = Html(
        " · ".join(
            f"{html.escape(seat.name, quote=False)} {tile_text(tile)}"
            for seat, tile in zip(table.seats, drawn, strict=True)
        )
    )
    winner = lot_winner(drawn, wins)
    line = t(table.language, f"start.lot_{wins}", drawn=shown, name=table.seats[winner].name)
    if _double_decided(drawn, winner, wins):
        line = Html(f"{line} {t(table.language, 'start.lot_doubles')}")
    return [line]


def _double_decided(drawn: Sequence[Tile], winner: int, wins: LotWinner) -> bool:
    """Whether the lot went against the pips, a double ranking above every other tile (RULES.md
    §1.2): "The lowest tile leads: Masha begins" beside Alex's [0|0] read as a mistake."""
    pips = drawn[winner].pips
    if wins == "lowest":
        return any(tile.pips < pips for tile in drawn)
    return any(tile.pips > pips for tile in drawn)
