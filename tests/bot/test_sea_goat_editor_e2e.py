"""Sea Goat's reading of two doubles at once (``sg_double_finish``, RULES.md §3.2.2) in the
⚙️ Rules editor: offered while going out on two doubles can win, toggled by a tap, said by
/rules, and gone when it can no longer matter."""

from __future__ import annotations

from bot.place import Place
from bot.render.lobby import options_of
from devtools.fake_telegram import FakeTelegram
from engine.rules import PRESETS
from tests.bot.harness import Harness
from tests.bot.test_games_e2e import choose_game, lobby_now, open_lobby

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
