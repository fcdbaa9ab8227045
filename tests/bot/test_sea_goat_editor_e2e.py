"""Sea Goat's reading of two doubles at once (``sg_double_finish``, RULES.md §3.2.2) in the
⚙️ Rules editor: offered while going out on two doubles can win, toggled by a tap, said by
/rules, and gone when it can no longer matter."""

from __future__ import annotations

from functools import partial

from bot.place import Place
from bot.render.lobby import options_of
from devtools.fake_telegram import FakeTelegram
from engine.rules import PRESETS
from tests.bot.harness import Harness, stored_events
from tests.bot.test_games_e2e import choose_game, lobby_now, open_lobby
from tests.bot.test_table_life_e2e import lobby_says

ZERO_SIX = "Of two doubles at once, only 0-0 with 6-6 wins the match"
ANY_TWO = "Going out on any two doubles at once wins the match"
AUTO_WIN = "Going out on 0-0 or 6-6 wins the match"
UA = (
    "Going out on 6-6 wins if the others hold 25 or more, "
    "else the next round is played na sto (“for a hundred”)"
)


async def test_the_editor_toggles_any_two_doubles_and_hides_it_when_it_cannot_win(
    tg: FakeTelegram, harness: Harness
) -> None:
    masha = tg.user(1301, "Masha")
    group = tg.group(-2301, "Yard")
    lobby = await open_lobby(harness, [masha], group)
    assert await choose_game(harness, masha, lobby, "Sea Goat") == "Game: Sea Goat"
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("⚙️ Rules"))
    await tg.press_button(masha, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(ZERO_SIX))
    await tg.press_button(masha, lobby, ZERO_SIX)
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(ANY_TWO))
    table = await harness.kozel.service.store.active_table(Place(group.id))
    assert table is not None and table.rules.sg_double_finish == "any_two"

    await tg.send_text(masha, group, "/rules")
    rules = await tg.wait_for_message(group, "Rules of this table")
    assert ANY_TWO in (rules.text or "")

    # under the Ukrainian finish two other doubles are no finish: nothing to choose
    await tg.press_button(masha, lobby, AUTO_WIN)
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(UA))
    labels = [label for row in lobby_now(tg, lobby).button_texts for label in row]
    assert ANY_TWO not in labels and ZERO_SIX not in labels


def test_with_one_tile_a_move_two_doubles_never_go_out_together_so_it_is_not_offered() -> None:
    sea_goat = PRESETS["sea_goat"]()
    assert "sg_double_finish" in options_of(sea_goat)
    assert "sg_double_finish" not in options_of(sea_goat.with_options(multi_double=0))
    assert "sg_double_finish" not in options_of(sea_goat.with_options(sg_finish="penalty_002"))


async def test_sea_goat_in_pairs_plays_to_202_unless_the_table_chose_its_target(
    tg: FakeTelegram, harness: Harness
) -> None:
    """RULES.md §3.2 rule 5: pairs play to 202 (000 §NI). A Sea Goat lobby switched to pairs
    says so, and its match is played to it; back to every player alone, 125 again."""
    masha = tg.user(1311, "Masha")
    group = tg.group(-2311, "Yard")
    lobby = await open_lobby(harness, [masha], group)
    assert await choose_game(harness, masha, lobby, "Sea Goat") == "Game: Sea Goat"
    assert "The holder wins at 125 points" in (lobby_now(tg, lobby).text or "")
    await tg.press_button(masha, lobby, "⚙️ Rules")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(ALONE))
    await tg.press_button(masha, lobby, ALONE)
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(TO_202))
    await tg.press_button(masha, lobby, PAIRS)
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(TO_125))
    await tg.press_button(masha, lobby, ALONE)
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button(TO_202))
    await tg.press_button(masha, lobby, "« Back")
    await tg.wait_for(lambda: lobby_now(tg, lobby).find_button("✋ Join"))
    assert "The holder wins at 202 points" in (lobby_now(tg, lobby).text or "")
    await tg.send_text(masha, group, "/rules")
    told = await tg.wait_for_message(group, "Rules of this table")
    assert "The holder wins at 202 points" in (told.text or "")
    await tg.send_text(masha, group, "/rules sea goat")
    told = await tg.wait_for_message(group, "📜 Sea Goat: the usual rules")
    assert "The holder wins at 125 points, or at 202 in pairs" in (told.text or "")

    for seated in ("Players 2/4", "Players 3/4", "Players 4/4"):
        await tg.press_button(masha, lobby, "🤖 Add computer")
        await tg.wait_for(partial(lobby_says, tg, lobby, seated))
    await tg.press_button(masha, lobby, "▶️ Start")
    await tg.wait_for_message(group, "Pairs:")
    board = await tg.wait_for_message(group, lambda m: (m.text or "").startswith("🎲 Sea Goat"))
    assert " · to 202" in (board.text or "").splitlines()[0]
    started = (await stored_events(harness.database, 1))[0]
    assert started["options"]["sg_target"] == 202


ALONE = "Every player for themselves"
PAIRS = "In pairs (4 players, partners opposite)"
TO_125 = "The holder wins at 125 points"
TO_202 = "The holder wins at 202 points"
