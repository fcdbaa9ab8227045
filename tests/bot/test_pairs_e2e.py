"""Choosing a partner, as friends do in the yard: a pair game's lobby shows its two pairs,
🔀 Change pair moves whoever taps it to the other pair (in place of a computer there, if it is
full), leaving moves nobody else but one who asked for the place it frees, the deal seats the
pairs chosen opposite each other, and 🔁 Play again keeps them.

Every test drives the real bot through the fake Bot API server and asserts what people in the
chat would see."""

from __future__ import annotations

import re
from functools import partial

from devtools.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.bot.harness import Harness, board_message, tap
from tests.bot.test_lobby_e2e import CHANGED, data_of, lobby_now, open_lobby
from tests.bot.test_table_life_e2e import change_lobby, kozel_of, lobby_says

CHANGE = "🔀 Change pair"
AGAIN = "🔁 Play again"


async def pair_lobby(harness: Harness, opener: FakeUser, group: FakeChat) -> FakeMessage:
    """``opener`` opens a table in ``group`` and sets it for two pairs."""
    lobby = await open_lobby(harness, opener, group)
    await change_lobby(harness, group, pairs=True)
    return lobby


async def four_asking(
    harness: Harness, first: int, names: tuple[str, str, str, str]
) -> tuple[list[FakeUser], FakeMessage]:
    """Four people (user ids from ``first``) sit at a pair game in the group ``-first``, the
    first and the third in pair 1, and the second asks to play in pair 1."""
    tg = harness.tg
    users = [tg.user(first + n, name) for n, name in enumerate(names)]
    lobby = await pair_lobby(harness, users[0], tg.group(-first, "Yard"))
    await sit(harness, lobby, *users[1:])
    await press(tg, users[1], lobby, CHANGE)
    assert f"🔀 {names[1]} asks to play in pair 1" in (lobby_now(tg, lobby).text or "")
    return users, lobby


async def sit(harness: Harness, lobby: FakeMessage, *users: FakeUser) -> None:
    """Each of ``users`` presses Start in the bot's DM and taps ✋ Join."""
    tg = harness.tg
    for user in users:
        await tg.send_text(user, tg.private(user), "/start")
        await tg.wait_for_message(user, "Hi, ")
        await tg.press_button(user, lobby, "✋ Join")
        await tg.wait_for(partial(lobby_says, tg, lobby, f". {user.first_name}"))


async def press(tg: FakeTelegram, user: FakeUser, lobby: FakeMessage, label: str) -> str:
    """``user`` taps ``label`` on the lobby as it is now; the bot's answer, once the lobby is
    redrawn."""
    answer = await tap(tg, user, lobby, data_of(tg, lobby, label))
    await tg.wait_idle()
    return str(answer.text)


def pairs_shown(tg: FakeTelegram, lobby: FakeMessage) -> list[str]:
    text = lobby_now(tg, lobby).text or ""
    return [line for line in text.splitlines() if line.startswith("Pair ")]


def players_shown(tg: FakeTelegram, lobby: FakeMessage) -> str:
    """The line of an individual game's lobby that lists who sits at the table."""
    text = lobby_now(tg, lobby).text or ""
    return next(line for line in text.splitlines() if line.startswith("Players "))


async def tiles_held(harness: Harness, user: FakeUser) -> set[str]:
    """The tiles of the hand ``user`` was dealt, as their DM shows it: a keyboard of tiles on
    their turn, else a list ("your hand: [0|0][0|5]…")."""

    def dealt(message: FakeMessage) -> bool:
        return message.from_bot and "round 1" in (message.text or "").lower()

    hand = await harness.tg.wait_for_message(user.id, dealt)
    # The hand's own line, not the one saying who leads with what
    listed = [line for line in (hand.text or "").splitlines() if "your hand" in line]
    shown = [label for row in hand.button_texts for label in row] or listed
    return {tile for label in shown for tile in re.findall(r"\d\|\d", label)}


async def dealt_to(harness: Harness) -> list[set[str]]:
    """Each seat's hand as the engine dealt it, in the order of play."""
    table = await kozel_of(harness).service.store.table(1)
    assert table is not None and table.match is not None and table.match.round is not None
    return [{f"{t.a}|{t.b}" for t in hand} for hand in table.match.round.hands]


async def deal(tg: FakeTelegram, opener: FakeUser, lobby: FakeMessage) -> str:
    """``opener`` taps ▶️ Start; what the group is told of the pairs ("🤝 Pairs: …"), once the
    board is out."""
    await press(tg, opener, lobby, "▶️ Start")
    started = await tg.wait_for_message(lobby.chat, "Pairs:")
    await tg.wait_for(lambda: board_message(tg, lobby.chat))
    return started.text or ""


async def test_friends_choose_their_partner_and_the_deal_seats_them_together(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, petya, olya = tg.user(501, "Masha"), tg.user(502, "Petya"), tg.user(503, "Olya")
    group = tg.group(-901, "Yard")
    lobby = await pair_lobby(harness, masha, group)
    assert pairs_shown(tg, lobby) == ["Pair 1: 1. Masha and —", "Pair 2: — and —"]
    assert "Tap Join to take a seat, and 🔀 Change pair to play in the other pair." in (
        lobby_now(tg, lobby).text or ""
    )
    await sit(harness, lobby, petya)
    assert pairs_shown(tg, lobby) == ["Pair 1: 1. Masha and —", "Pair 2: 2. Petya and —"]

    assert await press(tg, petya, lobby, CHANGE) == "You play in pair 1 now."
    assert pairs_shown(tg, lobby) == ["Pair 1: 1. Masha and 2. Petya", "Pair 2: — and —"]
    await sit(harness, lobby, olya)
    assert pairs_shown(tg, lobby) == ["Pair 1: 1. Masha and 2. Petya", "Pair 2: 3. Olya and —"]
    await press(tg, masha, lobby, "🤖 Add computer")
    assert pairs_shown(tg, lobby) == [
        "Pair 1: 1. Masha and 2. Petya",
        "Pair 2: 3. Olya and 4. 🤖 Zina · normal",
    ]

    started = await deal(tg, masha, lobby)
    assert started == "🤝 Pairs: 1. Masha and 3. Petya against 2. Olya and 4. 🤖 Zina."
    board = board_message(tg, group).text or ""
    assert "Masha and Petya: 0\nOlya and 🤖 Zina: 0" in board
    hands = await dealt_to(harness)
    assert [await tiles_held(harness, user) for user in (masha, olya, petya)] == hands[:3]

    # /kick takes the numbers the order of play shows
    await tg.send_text(masha, group, "/kick 3")
    removed = await tg.wait_for_message(group, "removed")
    assert removed.text == "🚪 Masha removed Petya from the table: a computer player took the seat."


async def test_a_person_changes_places_with_a_computer_in_a_full_pair(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha, olya, vova = tg.user(511, "Masha"), tg.user(512, "Olya"), tg.user(513, "Vova")
    group = tg.group(-911, "Yard")
    lobby = await pair_lobby(harness, masha, group)
    await press(tg, masha, lobby, "🤖 Add computer")
    await press(tg, masha, lobby, "🤖 Add computer")
    await sit(harness, lobby, olya)
    assert pairs_shown(tg, lobby) == [
        "Pair 1: 1. Masha and 3. 🤖 Petrovich · normal",
        "Pair 2: 2. 🤖 Galya · normal and 4. Olya",
    ]
    stale = data_of(tg, lobby, CHANGE)

    answer = await press(tg, olya, lobby, CHANGE)
    assert answer == "🤖 Petrovich takes your place: you play in pair 1 now."
    assert pairs_shown(tg, lobby) == [
        "Pair 1: 1. Masha and 4. Olya",
        "Pair 2: 2. 🤖 Galya · normal and 3. 🤖 Petrovich · normal",
    ]
    # a tap on the button as it was, or by someone not at the table, moves nobody
    assert (await tap(tg, olya, lobby, stale)).text == CHANGED
    await tg.send_text(vova, tg.private(vova), "/start")
    assert await press(tg, vova, lobby, CHANGE) == (
        "You are not at this table, and it is full: wait for a seat."
    )
    assert pairs_shown(tg, lobby) == [
        "Pair 1: 1. Masha and 4. Olya",
        "Pair 2: 2. 🤖 Galya · normal and 3. 🤖 Petrovich · normal",
    ]

    started = await deal(tg, masha, lobby)
    assert started.startswith("🤝 Pairs: 1. Masha and 3. Olya against 2. 🤖 Galya")
    assert "\nMasha and Olya: 0\n" in (board_message(tg, group).text or "")
    hands = await dealt_to(harness)
    assert [await tiles_held(harness, user) for user in (masha, olya)] == [hands[0], hands[2]]


async def test_four_friends_swap_partners_when_two_of_them_ask(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Four people in two pairs could not change partners: 🔀 Change pair refused whoever
    tapped it, since the other pair held two people, and only leaving and joining again in
    the right order got them there. Now a tap asks, and one of the other pair agrees by
    tapping too; nobody is moved who did not ask."""
    masha, petya, olya = tg.user(521, "Masha"), tg.user(522, "Petya"), tg.user(523, "Olya")
    vova = tg.user(524, "Vova")
    group = tg.group(-921, "Yard")
    lobby = await pair_lobby(harness, masha, group)
    await sit(harness, lobby, petya, olya, vova)
    assert pairs_shown(tg, lobby) == [
        "Pair 1: 1. Masha and 3. Olya",
        "Pair 2: 2. Petya and 4. Vova",
    ]

    answer = await press(tg, petya, lobby, CHANGE)
    assert answer == (
        "Pair 1 has two players: you change places with whichever of them taps 🔀 Change pair"
        " too, or take the first place that frees there. Tap it again to stay."
    )
    assert pairs_shown(tg, lobby) == [
        "Pair 1: 1. Masha and 3. Olya",
        "Pair 2: 2. Petya and 4. Vova",
    ]
    assert (
        "🔀 Petya asks to play in pair 1: whichever of its players taps 🔀 Change pair changes"
        " places with them; if a place frees there, Petya takes it at once."
    ) in (lobby_now(tg, lobby).text or "")
    assert await press(tg, petya, lobby, CHANGE) == "You stay in pair 2."
    assert "asks to play" not in (lobby_now(tg, lobby).text or "")

    await press(tg, petya, lobby, CHANGE)
    assert await press(tg, olya, lobby, CHANGE) == "Petya takes your place: you play in pair 2 now."
    assert pairs_shown(tg, lobby) == [
        "Pair 1: 1. Masha and 2. Petya",
        "Pair 2: 3. Olya and 4. Vova",
    ]
    assert "asks to play" not in (lobby_now(tg, lobby).text or "")
    started = await deal(tg, masha, lobby)
    assert started == "🤝 Pairs: 1. Masha and 3. Petya against 2. Olya and 4. Vova."


async def test_the_answer_to_a_swap_names_whoever_asked_as_typed(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The answer to a tap is plain text, and it named one who asked to change pair in the
    group's HTML: Olya read "Tom &amp; Jerry &lt;3 takes your place"."""
    (_, _, olya, _), lobby = await four_asking(
        harness, 581, ("Masha", "Tom & Jerry <3", "Olya", "Vova")
    )
    answer = await press(tg, olya, lobby, CHANGE)
    assert answer == "Tom & Jerry <3 takes your place: you play in pair 2 now."


async def test_an_ask_to_change_pair_lapses_when_the_pairs_are_made_anew(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Petya asked to play in pair 1, and the opener switched pairs off and on again, which
    makes the pairs anew by seat: Petya's ask came back with them (his seat's pair was the same
    again) and Olya, tapping 🔀 to join her new partner's pair, swapped with him."""
    (_, _, olya, _), lobby = await four_asking(harness, 525, ("Masha", "Petya", "Olya", "Vova"))
    group = lobby.chat

    await change_lobby(harness, group, pairs=False)
    await change_lobby(harness, group, pairs=True)
    assert pairs_shown(tg, lobby) == [
        "Pair 1: 1. Masha and 3. Olya",
        "Pair 2: 2. Petya and 4. Vova",
    ]
    assert "asks to play" not in (lobby_now(tg, lobby).text or "")
    assert await press(tg, olya, lobby, CHANGE) == (
        "Pair 2 has two players: you change places with whichever of them taps 🔀 Change pair"
        " too, or take the first place that frees there. Tap it again to stay."
    )


async def test_leaving_moves_nobody_to_the_other_pair(tg: FakeTelegram, harness: Harness) -> None:
    """The seats after one who left moved down a number, and with it to the other pair:
    Masha and Olya, partners, found themselves playing against each other."""
    masha, petya, olya = tg.user(531, "Masha"), tg.user(532, "Petya"), tg.user(533, "Olya")
    vova = tg.user(534, "Vova")
    group = tg.group(-931, "Yard")
    lobby = await pair_lobby(harness, masha, group)
    await sit(harness, lobby, petya, olya, vova)

    await tg.send_text(petya, group, "/leave")
    await tg.wait_for_message(group, "You left the table.")
    await tg.wait_idle()
    assert pairs_shown(tg, lobby) == ["Pair 1: 1. Masha and 2. Olya", "Pair 2: 3. Vova and —"]
    await tg.press_button(petya, lobby, "✋ Join")
    await tg.wait_for(partial(lobby_says, tg, lobby, "Players 4/4"))
    started = await deal(tg, masha, lobby)
    assert started == "🤝 Pairs: 1. Masha and 3. Olya against 2. Vova and 4. Petya."


async def test_one_who_asked_for_a_pair_takes_the_place_one_leaves_there(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Petya asked to play in pair 1, which two people held; Olya left it, and his ask stayed
    pending beside her free place: he had to tap 🔀 Change pair again, or Olya, joining again,
    sat down with Masha in his stead."""
    (masha, _, olya, _), lobby = await four_asking(harness, 591, ("Masha", "Petya", "Olya", "Vova"))
    group = lobby.chat

    await tg.send_text(olya, group, "/leave")
    await tg.wait_for_message(group, "You left the table.")
    await tg.wait_idle()
    assert pairs_shown(tg, lobby) == ["Pair 1: 1. Masha and 2. Petya", "Pair 2: 3. Vova and —"]
    assert "asks to play" not in (lobby_now(tg, lobby).text or "")
    await tg.press_button(olya, lobby, "✋ Join")
    await tg.wait_for(partial(lobby_says, tg, lobby, "Players 4/4"))
    started = await deal(tg, masha, lobby)
    assert started == "🤝 Pairs: 1. Masha and 3. Petya against 2. Vova and 4. Olya."


async def test_the_first_by_seat_of_two_who_asked_takes_the_place_freed(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Petya and Vova both asked to play in pair 1; Masha left it with 🚪 Leave, and neither
    took her place. Now the first of them by seat does, as a tap of 🔀 Change pair would have
    chosen him, and the other still asks."""
    (masha, _, _, vova), lobby = await four_asking(harness, 601, ("Masha", "Petya", "Olya", "Vova"))
    await press(tg, vova, lobby, CHANGE)
    assert "🔀 Vova asks to play in pair 1" in (lobby_now(tg, lobby).text or "")

    assert await press(tg, masha, lobby, "🚪 Leave") == "You left the table."
    assert pairs_shown(tg, lobby) == ["Pair 1: 1. Petya and 2. Olya", "Pair 2: 3. Vova and —"]
    text = lobby_now(tg, lobby).text or ""
    assert "Petya asks" not in text
    assert "🔀 Vova asks to play in pair 1" in text
    assert await press(tg, vova, lobby, CHANGE) == "You stay in pair 2."
    assert pairs_shown(tg, lobby) == ["Pair 1: 1. Petya and 2. Olya", "Pair 2: 3. Vova and —"]


async def play_again(tg: FakeTelegram, user: FakeUser, lobby: FakeMessage) -> FakeMessage:
    """Once the match played from ``lobby`` ended early, ``user`` taps 🔁 Play again: the new
    lobby."""
    ended = await tg.wait_for_message(lobby.chat, "ended early", timeout=20.0)
    await tg.wait_for(lambda: tg.current(ended).find_button(AGAIN))
    query = await tg.press_button(user, ended, AGAIN)
    await tg.wait_for(lambda: tg.callback_answers.get(query))
    again = await tg.wait_for_message(
        lobby.chat, lambda m: "Pair 1:" in (m.text or "") and m is not lobby
    )
    await tg.wait_idle()
    return again


async def test_play_again_keeps_two_friends_together_against_the_computers(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The tapper sat first and the others in joining order, sides by seat: Petya's partner
    Masha, tapping Join, found herself with a computer against him. And computers were named
    by their seat, which the deal changes: 🤖 Petrovich of the lobby played as 🤖 Galya."""
    masha, petya = tg.user(541, "Masha"), tg.user(542, "Petya")
    group = tg.group(-941, "Yard")
    lobby = await pair_lobby(harness, masha, group)
    await change_lobby(harness, group, turn_seconds=1)
    await sit(harness, lobby, petya)
    await press(tg, petya, lobby, CHANGE)
    await press(tg, masha, lobby, "🤖 Add computer")
    await press(tg, masha, lobby, "🤖 Add computer")
    assert pairs_shown(tg, lobby)[1] == "Pair 2: 3. 🤖 Petrovich · normal and 4. 🤖 Zina · normal"
    started = await deal(tg, masha, lobby)
    assert started == "🤝 Pairs: 1. Masha and 3. Petya against 2. 🤖 Petrovich and 4. 🤖 Zina."
    assert "\n🤖 Petrovich and 🤖 Zina: 0" in (board_message(tg, group).text or "")

    again = await play_again(tg, petya, lobby)
    await tg.send_text(petya, group, "/history")
    told = await tg.wait_for_message(group, "📜")
    assert "🤖 Petrovich and 🤖 Zina 0 🏆" in (told.text or "")
    assert pairs_shown(tg, again) == [
        "Pair 1: 1. Petya and —",
        "Pair 2: 2. 🤖 Petrovich · normal and 3. 🤖 Zina · normal",
    ]
    await tg.press_button(masha, again, "✋ Join")
    await tg.wait_for(partial(lobby_says, tg, again, "Players 4/4"))
    assert pairs_shown(tg, again) == [
        "Pair 1: 1. Petya and 4. Masha",
        "Pair 2: 2. 🤖 Petrovich · normal and 3. 🤖 Zina · normal",
    ]


async def test_a_computer_keeps_its_name_when_someone_before_it_leaves(
    tg: FakeTelegram, harness: Harness
) -> None:
    """The seats after one who left move down a number: the computers there took the names
    of the seats they moved to, and a computer added then could take a name one had before."""
    masha, olya = tg.user(561, "Masha"), tg.user(562, "Olya")
    group = tg.group(-961, "Yard")
    lobby = await open_lobby(harness, masha, group)
    await sit(harness, lobby, olya)
    await press(tg, masha, lobby, "🤖 Add computer")
    await press(tg, masha, lobby, "🤖 Add computer")
    assert players_shown(tg, lobby) == (
        "Players 4/4: 1. Masha, 2. Olya, 3. 🤖 Petrovich · normal, 4. 🤖 Zina · normal"
    )

    await press(tg, olya, lobby, "🚪 Leave")
    assert players_shown(tg, lobby) == (
        "Players 3/4: 1. Masha, 2. 🤖 Petrovich · normal, 3. 🤖 Zina · normal"
    )
    await press(tg, masha, lobby, "🤖 Add computer")
    assert players_shown(tg, lobby).endswith("3. 🤖 Zina · normal, 4. 🤖 Kolya · normal")


async def test_play_again_leaves_the_place_of_one_who_left_open_for_a_person(
    tg: FakeTelegram, harness: Harness
) -> None:
    """Olya left the match and a computer took her seat over: 🔁 Play again sat that computer
    down again as if the players had chosen it, and with it the table was full, so Olya, back
    for the next match, found no place."""
    masha, petya, olya = tg.user(571, "Masha"), tg.user(572, "Petya"), tg.user(573, "Olya")
    group = tg.group(-971, "Yard")
    lobby = await pair_lobby(harness, masha, group)
    await change_lobby(harness, group, turn_seconds=1)
    await sit(harness, lobby, petya, olya)
    await press(tg, masha, lobby, "🤖 Add computer")
    assert pairs_shown(tg, lobby) == [
        "Pair 1: 1. Masha and 3. Olya",
        "Pair 2: 2. Petya and 4. 🤖 Zina · normal",
    ]
    await deal(tg, masha, lobby)
    await tg.send_text(olya, group, "/leave")
    await tg.wait_for_message(group, "Olya left the table: a computer player took the seat.")

    again = await play_again(tg, petya, lobby)
    assert pairs_shown(tg, again) == ["Pair 1: — and —", "Pair 2: 1. Petya and 2. 🤖 Zina · normal"]
    await tg.press_button(olya, again, "✋ Join")
    await tg.press_button(masha, again, "✋ Join")
    await tg.wait_for(partial(lobby_says, tg, again, "Players 4/4"))
    assert pairs_shown(tg, again) == [
        "Pair 1: 3. Olya and 4. Masha",
        "Pair 2: 1. Petya and 2. 🤖 Zina · normal",
    ]
