"""What people learn of moves that need no tap: the board lists every draw and knock a tap
sets off, a hand tells its player what the rules did with it since their last turn, and a
hand's record says nothing that goes stale."""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator

import pytest

from bot.i18n import plural, t
from bot.presenter.hands import Hands
from bot.presenter.news import follow
from bot.render.board import board_text
from bot.render.hand import live_hand
from bot.render.tiles import tile_text
from bot.sender import fit
from bot.table import Recent, Table
from devtools.fake_telegram import FakeTelegram, utf16_len
from engine import DRAW, KNOCK, Event, Lay, Match, Placement, Play, Reopen, RuleSet, Tile
from engine.events import Knocked, Played, PlayedDoubles, RoundEnded
from engine.rules import PRESETS
from tests.bot.harness import Harness, one_tap, start_match, stored_events, texts_seen
from tests.bot.tables import table_of

RECENT = re.compile(r"^\w+ (played \[\d\|\d\]|knocked|drew (a tile|\d+ tiles) from the bazaar)$")


def recent_lines(board: str) -> list[str]:
    """The board's lines that tell what was done lately ("Masha played [3|4]")."""
    return [line for line in board.splitlines() if RECENT.match(line)]


def random_taps(rules: RuleSet, seeds: int) -> Iterator[tuple[Table, int, Play, list[Event]]]:
    """Two-player matches of random taps, one a seed, each tap followed on a table as the bot
    follows it: the table, who tapped, the play and the events it set off."""
    for seed in range(seeds):
        match, _ = Match.new(2, False, rules, seed)
        table = table_of(["Masha", "Alex"], rules=rules)
        table.match = match
        rng = random.Random(seed)
        while not match.is_over:
            seat = match.current_seat
            assert seat is not None
            play = rng.choice([a for a in match.legal_actions(seat) if isinstance(a, Play)])
            events = one_tap(match, seat, play)
            follow(table, events)
            yield table, seat, play, events


def test_the_board_lists_all_of_a_tap_that_sets_off_many_draws_and_knocks() -> None:
    """With one tile drawn per turn, one tap can set off more than four draws and knocks;
    the board listed only the last four, so the tap itself fell off the list."""
    for table, seat, play, events in random_taps(RuleSet(draw_mode="one_per_turn"), 100):
        moves = [e for e in events if isinstance(e, (Played, Knocked))]
        if len(moves) <= 4 or any(isinstance(e, RoundEnded) for e in events):
            continue
        lines = recent_lines(board_text(table))
        name = table.seats[seat].name
        assert lines[0] == f"{name} played {tile_text(play.tile)}", lines
        assert len(lines) >= len(moves), lines
        return
    raise AssertionError("no tap set off more than four draws and knocks")


def test_the_board_tells_who_reopened_a_double() -> None:
    """Donkey's ``donkey_reopen`` (RULES.md §3.3): the double turns face up on the board, and
    its list of moves says who did it; it said nothing, so the group saw a dead end come to
    life with no word of why."""
    rules = PRESETS["donkey"]().with_options(donkey_reopen=True)
    match, _ = Match.new(2, False, rules, seed=2)
    table = table_of(["Masha", "Alex"], rules=rules)
    table.match = match
    while not match.is_over:  # both close a double whenever they can, until one may reopen it
        seat = match.current_seat
        assert seat is not None
        actions = match.legal_actions(seat)
        reopen = [a for a in actions if isinstance(a, Reopen)]
        if reopen:
            follow(table, match.act(seat, reopen[0]))
            name = table.seats[seat].name
            assert f"{name} reopened {tile_text(reopen[0].tile)}" in board_text(table)
            return
        moves = [a for a in actions if isinstance(a, Play | Lay)]
        closing = [a for a in moves if isinstance(a, Lay) and any(p.closed for p in a.placements)]
        action = (closing or moves)[0] if moves else DRAW if DRAW in actions else KNOCK
        follow(table, match.act(seat, action))
    raise AssertionError("nobody ever could reopen a double")


def test_a_hand_that_drew_the_bazaar_dry_then_knocked_says_so_in_that_order() -> None:
    """Two players: one draws every tile left, none fits, and he knocks. His next hand said
    "You knocked once: nothing fitted." and only then "You drew from the bazaar: ..." seven
    tiles, as if the bazaar had given them after the knock."""
    for table, _, _, _ in random_taps(RuleSet(), 200):
        assert table.match is not None
        turn = table.match.current_seat
        if turn is None:
            continue
        waiting = table.seats[turn]
        if not (waiting.drawn and waiting.knocks):
            continue
        text = html.unescape(live_hand(table, waiting)[0])
        drew = text.index("You drew from the bazaar: ")
        assert drew < text.index("You knocked "), text
        return
    raise AssertionError("nobody ever drew and then knocked before his turn came again")


def news(events: list[dict[str, object]], seat: int) -> tuple[list[str], int]:
    """The tiles ``seat`` drew and the times it knocked since it last played this round."""
    dealt = max(i for i, e in enumerate(events) if e["type"] == "round_started")
    drawn: list[str] = []
    knocks = 0
    for event in events[dealt:]:
        if event.get("seat") != seat:
            continue
        if event["type"] == "played":
            drawn, knocks = [], 0
        elif event["type"] == "drew":
            drawn.append(tile_text(Tile.parse(str(event["tile"]))))
        elif event["type"] == "knocked":
            knocks += 1
    return drawn, knocks


@pytest.mark.parametrize(("players", "kind"), [(2, "drew"), (4, "knocked")])
async def test_a_hand_tells_its_player_what_the_rules_did_with_it(
    tg: FakeTelegram, harness: Harness, players: int, kind: str
) -> None:
    """Draws and knocks happen without a tap, while the player has no live hand: a knock was
    never shown to them at all. Their next live hand says so, and costs no extra call. Two
    players draw from the bazaar a lot; four have none and knock a lot."""
    users = [tg.user(610 + n, name) for n, name in enumerate(["Masha", "Alex", "Olya", "Ivan"])]
    users = users[:players]
    group = tg.group(-1611, "Courtyard")
    harness.kozel.service.player.rng = random.Random(1)
    await start_match(harness, users, group)
    told = {"drew": 0, "knocked": 0}
    version = 0
    while told[kind] < 2:
        found = await harness.next_turn_or_over(users, group, version)
        assert found is not None, f"the match ended first: {told}"
        user, hand = found
        version = harness.version_of(hand)
        drawn, knocks = news(await stored_events(harness.database, 1), users.index(user))
        text = hand.text or ""
        if drawn:
            assert f"You drew from the bazaar: {''.join(drawn)}" in text, text
            told["drew"] += 1
        else:
            assert "You drew" not in text, text
        if knocks:
            times = "once" if knocks == 1 else f"{knocks} times"
            assert f"You knocked {times}: nothing fitted." in text, text
            told["knocked"] += 1
        else:
            assert "You knocked" not in text, text
        await harness.play_turn(user, hand)
    # a record stays in the chat for good: it does not say whose turn it was then
    for user in users:
        records = [x for x in texts_seen(tg, user) if "your hand:" in x]
        assert records and not [x for x in records if "Waiting for" in x]


@pytest.mark.parametrize(("lang", "said"), [("en", "You played "), ("ru", "Сыграно: ")])
def test_a_players_record_says_what_their_move_scored_as_the_board_does(
    lang: str, said: str
) -> None:
    """The board said "Masha played [5|5] · +10" while Masha's own hand said only "You played
    [5|5].": the player who scored was the one person not told so."""
    rules = PRESETS["muggins"]()
    for seed in range(50):
        match, _ = Match.new(2, False, rules, seed)
        table = table_of(["Masha", "Alex"], rules=rules)
        table.match = match
        for person in table.seats:  # each reads their DM in their own language
            person.language = lang
        while not match.is_over:
            seat = match.current_seat
            assert seat is not None
            actions = match.legal_actions(seat)
            moves = [a for a in actions if isinstance(a, Play | Lay)]
            events = match.act(seat, moves[0] if moves else DRAW if DRAW in actions else KNOCK)
            scored = [e for e in events if isinstance(e, Played | PlayedDoubles) and e.scored]
            if scored:
                note = Hands.notes(table, events, None)[scored[0].seat]
                assert note.startswith(said) and note.endswith(f" · <b>+{scored[0].scored}</b>.")
                return
    raise AssertionError("no move ever scored")


#: The longest name Telegram allows (64 characters, first and last), each character an emoji
#: that Telegram counts as two (UTF-16 code units).
EMOJI_NAME = "😀" * 64 + " " + "🐐" * 64


def knocked_around(table: Table, knocks: int) -> None:
    """The board's list after a tap that set off ``knocks`` knocks, seat after seat."""
    match = table.match
    assert match is not None and match.round is not None
    rnd, turn = match.round.number, match.current_seat
    assert turn is not None
    table.recent = [Recent("played", (turn - 1) % 4, rnd, laid=(Placement(Tile(3, 4)),))]
    table.recent += [Recent("knocked", (turn + n) % 4, rnd) for n in range(knocks)]


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_board_of_emoji_names_gives_way_its_oldest_moves(lang: str) -> None:
    """Four names of 128 emoji and a tap that set off eight knocks: the board outgrew Telegram's
    4096 characters (as it counts them: two for an emoji), and the sender cut it mid-name,
    taking its formatting off. Its oldest moves give way, counted; the newest, the score and
    whose turn it is stay."""
    table = table_of([EMOJI_NAME] * 4, lang=lang)
    knocked_around(table, 8)
    text = board_text(table)
    assert utf16_len(html.unescape(re.sub(r"<[^>]*>", "", text))) <= 4096
    assert fit(text) == text  # nothing for the sender to cut
    lines = html.unescape(re.sub(r"<[^>]*>", "", text)).splitlines()
    knocked = t(lang, "board.recent.knocked", name=EMOJI_NAME)
    shown = lines.count(knocked)
    assert 1 <= shown < 8
    earlier = plural(lang, "board.earlier", 9 - shown)
    assert lines[lines.index(knocked) - 1] == earlier  # the oldest, counted, above the newest
    turn = html.unescape(re.sub(r"<[^>]*>", "", t(lang, "board.turn", name=EMOJI_NAME)))
    assert turn in lines
    assert any(line.startswith(f"{EMOJI_NAME}: 0") for line in lines)  # the score


def test_names_longer_still_leave_the_score_to_standings() -> None:
    """Should names longer than Telegram is known to allow come, the score gives way too, and
    the position and whose turn it is stay."""
    name = "🐐" * 300
    table = table_of([name] * 4)
    knocked_around(table, 3)
    text = board_text(table)
    assert fit(text) == text
    lines = html.unescape(text).splitlines()
    assert "📊 The score did not fit here: /standings shows it." in lines
    assert f"{name} knocked" not in lines
    assert f"Turn: <b>{name}</b>" in lines


def test_a_board_of_short_names_lists_every_move_of_a_batch() -> None:
    table = table_of(["Masha", "Alex", "Olya", "Serg"])
    knocked_around(table, 8)
    assert len(recent_lines(board_text(table))) == 9
