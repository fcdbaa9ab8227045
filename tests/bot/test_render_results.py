"""Round and match results read as proper sentences for a pair as for one player."""

from __future__ import annotations

import dataclasses
import html
import re
from datetime import UTC

import pytest

from bot.i18n import catalog, spoken_list, t
from bot.render.board import board_text
from bot.render.lobby import game_line, rules_text
from bot.render.results import match_result_text, round_result_text
from bot.render.standings import record_text, top_text
from bot.sender import fit
from bot.table import Table
from devtools.fake_telegram import utf16_len
from engine import Match, Play, RuleSet, Tile
from engine.events import MatchEnded, RoundEnded
from engine.rules import PRESETS
from engine.scoring.sea_goat import SeaState
from storage import GameRecord, RecentMatch, StandingRow, UserRecord
from tests.bot.summaries import usual_summary
from tests.bot.tables import table_of
from tests.bot.test_render_sheet import play_out
from tests.engine.support import layout_position, scoring_table
from tests.engine.support import t as tile
from tests.engine.test_scoring_examples import P0, SIXES


def eggs_won_by(side: int, sides: int) -> RoundEnded:
    empty: list[list[Tile]] = [[] for _ in range(2 * sides)]
    return RoundEnded(
        round=2,
        result="out",
        winner=1,
        fisherman=None,
        eggs=False,
        hands=empty,
        hand_values=[30] * sides,
        amounts=[76] + [0] * (sides - 1),
        scores=[76] + [0] * (sides - 1),
        memory=[0] * sides,
        opened=[True] * sides,
        pot=0,
        pot_awarded_to=side,
    )


@pytest.mark.parametrize(
    ("lang", "pair_text", "one_text"),
    [
        ("en", "Masha and Olya take the eggs.", "Masha takes the eggs."),
        ("ru", "Masha и Olya забирают яйца.", "Masha забирает яйца."),
        ("uk", "Masha і Olya забирають яйця.", "Masha забирає яйця."),
    ],
)
def test_the_eggs_go_to_a_pair_in_the_plural(lang: str, pair_text: str, one_text: str) -> None:
    pair = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, lang=lang)
    assert pair_text in html.unescape(round_result_text(pair, eggs_won_by(0, 2)))
    alone = table_of(["Masha", "Alex"], pairs=False, lang=lang)
    assert one_text in html.unescape(round_result_text(alone, eggs_won_by(0, 2)))


def test_a_losing_pair_are_the_goats_and_a_lone_loser_is_the_goat() -> None:
    pair = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, lang="en")
    ended = MatchEnded(losers=[0], scores=[104, 40], ended_by="goat")
    assert "Masha and Olya are the goats!" in html.unescape(match_result_text(pair, ended))
    alone = table_of(["Masha", "Alex"], pairs=False, lang="en")
    assert "Masha is the goat!" in html.unescape(match_result_text(alone, ended))


@pytest.mark.parametrize(
    ("lang", "pair_text", "one_text"),
    [
        ("en", "Masha and Olya are the donkeys!", "Masha is the donkey!"),
        ("ru", "Masha и Olya — ослы!", "Masha — осёл!"),
        ("uk", "Masha і Olya — осли!", "Masha — осел!"),
    ],
)
def test_the_loser_of_donkey_is_the_donkey(lang: str, pair_text: str, one_text: str) -> None:
    """RULES.md §3.3: Donkey (Осёл) is lost as Kozel is, and its loser is named after it."""
    donkey = PRESETS["donkey"]()
    ended = MatchEnded(losers=[0], scores=[104, 40], ended_by="goat")
    pair = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, lang=lang, rules=donkey)
    assert html.unescape(match_result_text(pair, ended)).startswith(f"🫏 <b>{pair_text}")
    alone = table_of(["Masha", "Alex"], pairs=False, lang=lang, rules=donkey)
    assert html.unescape(match_result_text(alone, ended)).startswith(f"🫏 <b>{one_text}")


@pytest.mark.parametrize(
    ("lang", "kozel", "donkey"),
    [
        ("en", "Goat at 101 points", "Donkey at 101 points"),
        ("ru", "Козёл — кто наберёт 101", "Осёл — кто наберёт 101"),
        ("uk", "Козел — хто набере 101", "Осел — хто набере 101"),
    ],
)
def test_the_donkeys_limit_makes_the_donkey(lang: str, kozel: str, donkey: str) -> None:
    """The lobby and /rules of a Donkey table say what its match end says: the donkey."""
    assert f"• {kozel}" in rules_text(lang, PRESETS["kozel"]())
    assert f"• {donkey}" in rules_text(lang, PRESETS["donkey"]())


@pytest.mark.parametrize(("lang", "verb"), [("ru", "выходит!"), ("uk", "виходить!")])
def test_going_out_is_said_the_same_for_women_and_men(lang: str, verb: str) -> None:
    """Telegram does not tell a player's gender: past tense would guess it (вышел/вышла)."""
    table = table_of(["Маша", "Лёша"], pairs=False, lang=lang)
    ended = eggs_won_by(0, 2)
    assert f"<b>Лёша</b> {verb}" in round_result_text(table, ended)


@pytest.mark.parametrize(("lang", "average"), [("en", "92.5"), ("ru", "92,5"), ("uk", "92,5")])
def test_an_average_is_written_with_the_languages_decimal_mark(lang: str, average: str) -> None:
    """/top and /stats wrote "в среднем: 92.5" in Russian and Ukrainian, whose decimal mark is
    a comma."""
    row = StandingRow(1, 7, "Olya", 2, 1, 1, 0, 92.5, 3)
    top = top_text(lang, "kozel", [row], page=0, total=1, size=10)
    game = GameRecord("kozel", 2, 1, 1, 0, 92.5, 3, 1)
    stats = record_text(lang, UserRecord(7, "Olya", 2, 1, (game,)), [], UTC)
    assert average in top and average in stats, (top, stats)
    assert ("92.5" in top + stats) == (lang == "en")


@pytest.mark.parametrize(
    ("lang", "average"),
    [("en", "avg 92.5 points"), ("ru", "в среднем: 92,5 очка"), ("uk", "у середньому: 92,5 очка")],
)
@pytest.mark.parametrize("game", ["kozel", "sea_goat"])
def test_tops_average_says_points_as_stats_does(lang: str, average: str, game: str) -> None:
    """/top wrote a bare "avg 92.5", where /stats says "average: 92.5 points": an average
    of what, a newcomer could not tell."""
    row = StandingRow(1, 7, "Olya", 2, 1, 1, 0, 92.5, 3)
    assert average in top_text(lang, game, [row], page=0, total=1, size=10)


def serg_went_out(game: str) -> RoundEnded:
    """Serg (seat 3) went out; his partner Alex (seat 1) still holds [0|2], which the rules
    ignore, so their pair's hand is 0 (Kozel RULES.md §2.7.2, Sea Goat §3.2.1)."""
    hands = [[Tile(0, 0), Tile(4, 4)], [Tile(0, 2)], [Tile(2, 2)], []]
    return RoundEnded(
        round=1,
        result="out",
        winner=3,
        fisherman=None,
        hands=hands,
        hand_values=[12, 0],
        amounts=[12, 0] if game == "kozel" else [0, 12],
        scores=[0, 0] if game == "kozel" else [0, 12],
        memory=[12, 0] if game == "kozel" else None,
        opened=[False, False] if game == "kozel" else None,
        pot=0 if game == "kozel" else None,
    )


@pytest.mark.parametrize(
    ("game", "lang", "said"),
    [
        ("kozel", "en", "Alex and Serg: went out, the partner's tiles do not count → "),
        ("kozel", "ru", "Alex и Serg: вышли, камни партнёра не считаются → "),
        ("kozel", "uk", "Alex і Serg: вийшли, камені партнера не рахуються → "),
        # Sea Goat's winners collect: their line says from what (``test_render_amounts``)
        ("sea_goat", "en", "Alex and Serg: the opponents hold 12 → "),
        ("sea_goat", "ru", "Alex и Serg: у соперников на руках 12 → "),
    ],
)
def test_a_pair_that_went_out_is_not_shown_holding_0_beside_the_partners_tiles(
    game: str, lang: str, said: str
) -> None:
    """The result listed Alex's [0|2] and then "Alex & Serg: 0 in hand → +0": the rules ignore
    the tiles of the partner of whoever went out, but a 0 beside them read as a miscount."""
    table = table_of(["Masha", "Alex", "Olya", "Serg"], True, lang, PRESETS[game]())
    text = html.unescape(round_result_text(table, serg_went_out(game))).replace("<b>", "")
    assert "Alex: [0|2]" in text
    pair = said.partition(":")[0]
    line = next(line for line in text.splitlines() if line.startswith(f"{pair}: "))
    assert line.startswith(said)
    assert line.endswith("→ 0</b>" if game == "kozel" else "→ +12</b>")  # 0 as fives games
    # the side that still holds its tiles says what it holds, as before
    masha_and_olya = pair.replace("Alex", "Masha").replace("Serg", "Olya")
    other = next(line for line in text.splitlines() if line.startswith(f"{masha_and_olya}: "))
    assert " 12 " in other


def fish_for_one(sides: int) -> RoundEnded:
    """A fish in Kozel (``fish_mode = for_one``, RULES.md §2.7.3): side 0 holds 16, side 1 14,
    and side 0 is charged all 30."""
    return RoundEnded(
        round=3,
        result="fish",
        winner=None,
        fisherman=1,
        eggs=False,
        hands=[[Tile(6, 6)], [Tile(3, 3)], [Tile(2, 2)], [Tile(4, 4)]][: 2 * sides],
        hand_values=[16, 14],
        amounts=[30, 0],
        scores=[47, 0],
        memory=[0, 0],
        opened=[True, False],
        pot=0,
    )


@pytest.mark.parametrize(
    ("lang", "pair_text", "one_text"),
    [
        (
            "en",
            "Masha and Olya hold more in hand than their opponents and take all 30 points.",
            "Masha has the heaviest hand and takes all 30 points.",
        ),
        (
            "ru",
            "На руках у пары Masha и Olya больше, чем у соперников: им записываются все очки (30).",
            "Все очки (30) записываются тому, у кого больше всех на руках: Masha.",
        ),
        (
            "uk",
            "На руках у пари Masha і Olya більше, ніж у суперників: їм записуються всі очки (30).",
            "Усі очки (30) записуються тому, у кого найбільше на руках: Masha.",
        ),
    ],
)
def test_a_fish_says_who_takes_all_the_points(lang: str, pair_text: str, one_text: str) -> None:
    """After a fish the result read "Masha & Olya: 16 in hand → +30" and nothing said why 16
    made 30: under ``for_one`` the heaviest hand takes every hand's points. In Russian and
    Ukrainian "записываются все 30" left out what the 30 were: now it says points. The one
    player's line said "ему/йому", a man's word for whoever it is: it names no pronoun now."""
    pair = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, lang=lang)
    assert pair_text in html.unescape(round_result_text(pair, fish_for_one(2)))
    alone = table_of(["Masha", "Alex"], pairs=False, lang=lang)
    text = html.unescape(round_result_text(alone, fish_for_one(1)))
    assert one_text in text
    assert text.index(one_text) < text.index("Masha: [6|6]")  # said with how the round ended
    # when every side writes its own hand, nobody takes all
    everyone = table_of(["Masha", "Alex"], lang=lang, rules=RuleSet(fish_mode="for_everyone"))
    fish = dataclasses.replace(fish_for_one(1), amounts=[16, 14])
    assert one_text not in html.unescape(round_result_text(everyone, fish))


def recent_match(game: str, score: int) -> RecentMatch:
    return RecentMatch(1, -100, "Двор", game, 1_700_000_000.0, "target", score, "lost", -3)


@pytest.mark.parametrize(
    ("lang", "score", "words"),
    [
        ("ru", 1, "1 очко"),
        ("ru", 43, "43 очка"),
        ("ru", 75, "75 очков"),
        ("ru", -3, "-3 очка"),
        ("uk", 21, "21 очко"),
        ("uk", 43, "43 очки"),
        ("uk", 135, "135 очок"),
        ("en", 1, "1 point"),
        ("en", 75, "75 points"),
    ],
)
def test_a_recent_matchs_points_agree_with_their_number(lang: str, score: int, words: str) -> None:
    """/stats wrote a past match's points as "75 очк." in Russian and "135 оч." in Ukrainian
    (and "1 points" in English), where a native writes the noun in the number's form."""
    game = GameRecord("bulgarian_fives", 1, 1, 0, 0, 75.0, -3, 1)
    text = record_text(
        lang, UserRecord(7, "Olya", 1, 1, (game,)), [recent_match("muggins", score)], UTC
    )
    assert f": {words}, " in text, text


@pytest.mark.parametrize(
    ("lang", "unchanged"),
    [("en", "rating unchanged"), ("ru", "рейтинг без изменений"), ("uk", "рейтинг без змін")],
)
def test_a_match_that_left_the_rating_as_it_was_says_so(lang: str, unchanged: str) -> None:
    """/stats read "rating +0" of a match whose change rounded to nothing."""
    game = GameRecord("muggins", 2, 1, 0, 0, 75.0, 3, 1)
    recent = [
        dataclasses.replace(recent_match("muggins", 61), rating_delta=0),
        dataclasses.replace(recent_match("muggins", 75), rating_delta=3),
    ]
    text = record_text(lang, UserRecord(7, "Olya", 2, 1, (game,)), recent, UTC)
    first, second = text.splitlines()[-2:]
    assert first.endswith(f", {unchanged}"), first
    assert second.endswith(" +3"), second


@pytest.mark.parametrize(("lang", "average"), [("ru", "75,0 очка"), ("uk", "75,0 очка")])
def test_an_average_of_points_reads_as_a_fraction_does(lang: str, average: str) -> None:
    """A decimal takes the genitive singular ("75,0 очка"): /stats wrote the abbreviation
    "очк." (ru) or "оч." (uk) beside it."""
    game = GameRecord("bulgarian_fives", 1, 1, 0, 0, 75.0, -3, 1)
    text = record_text(lang, UserRecord(7, "Olya", 1, 1, (game,)), [], UTC)
    assert f"в среднем: {average} ·" in text or f"у середньому: {average} ·" in text, text


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("ru", "• 0-0 стоит 25, только если он на руках один; рядом с другими — 0"),
        ("uk", "• 0-0 коштує 25, лише якщо він на руках один; поруч з іншими — 0"),
    ],
)
def test_a_lone_0_0_is_spoken_of_as_the_tile_it_is(lang: str, line: str) -> None:
    """Traditional's lobby and /rules said "0-0 стоит 25 только одна на руках" ("сама" in
    Ukrainian): feminine, where every other line calls 0-0 "один" (a камень)."""
    assert line in rules_text(lang, PRESETS["traditional"]())


@pytest.mark.parametrize(
    ("lang", "heaviest", "lightest"),
    [
        (
            "en",
            "• Fish: the heaviest hand (in pairs, the pair heaviest together) takes all the "
            "points; a tie is eggs",
            "• Fish: the lightest hand (in pairs, the pair lightest together) writes nothing, "
            "the others their own",
        ),
        (
            "ru",
            "• Рыба: все очки пишет тот, у кого на руках больше всех (в парах — пара, у которой "
            "больше на двоих); поровну — яйца",
            "• Рыба: тот, у кого меньше всех на руках (в парах — пара, у которой меньше на "
            "двоих), ничего не пишет, остальные — свои",
        ),
        (
            "uk",
            "• Риба: усі очки пише той, у кого на руках найбільше (у парах — пара, у якої "
            "найбільше на двох); порівну — яйця",
            "• Риба: той, у кого найменше на руках (у парах — пара, у якої найменше на двох), "
            "нічого не пише, решта — свої",
        ),
    ],
)
def test_kozels_fish_rule_says_pairs_compare_their_hands_together(
    lang: str, heaviest: str, lightest: str
) -> None:
    """A pairs table's lobby and /rules read "Рыба: все очки пишет тот, у кого на руках больше
    всех", where the pair heavier together takes them (RULES.md §2.10), whoever of the four
    holds the heaviest hand: the result then named a pair that held no such hand. It says so,
    as Sea Goat's and Traditional's fish lines do; and so does "the lightest writes nothing"."""
    assert heaviest in rules_text(lang, RuleSet(), players=4)
    assert lightest in rules_text(lang, RuleSet(fish_mode="lowest_wins"), players=4)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "(202 in pairs)"), ("ru", "(в парах до 202)"), ("uk", "(у парах до 202)")],
)
def test_sea_goats_line_in_the_lobby_says_pairs_play_to_202(lang: str, words: str) -> None:
    """A pairs table of Sea Goat showed "до 125" under its name, and "the holder wins at 202"
    two lines below (RULES.md §3.2 rule 5: pairs play to 202)."""
    assert words in game_line(lang, "sea_goat")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Лёша and Серж have lost 2 rounds, the most a team may: the match is over."),
        ("ru", "Лёша и Серж проиграли 2 раунда — это лимит: матч окончен."),
        ("uk", "Лёша і Серж програли 2 раунди — це ліміт: матч закінчено."),
    ],
)
def test_general_s_goat_ended_by_lost_rounds_says_the_match_is_over(lang: str, said: str) -> None:
    """It read "проиграла все раунды, что могла" (as the English once did, "lost the rounds it
    could"), and did not say the match was over, as the General's end does. Then "Другая пара
    проиграла предельное число раундов" read stiffly and named neither the pair nor the count,
    left to the scores below."""
    rules = PRESETS["generals_goat"]()
    table = table_of(["Маша", "Лёша", "Оля", "Серж"], pairs=True, lang=lang, rules=rules)
    ended = MatchEnded(losers=[1], scores=[1, 2], ended_by="losses", winners=[0])
    assert said in match_result_text(table, ended)


@pytest.mark.parametrize(
    ("lang", "pairs", "said"),
    [
        ("en", False, "🤝 A draw: both players reached the target at once."),
        ("en", True, "🤝 A draw: both pairs reached the target at once."),
        ("ru", False, "🤝 Ничья: оба игрока дошли до цели одновременно."),
        ("ru", True, "🤝 Ничья: обе пары дошли до цели одновременно."),
        ("uk", False, "🤝 Нічия: обидва гравці дійшли до мети одночасно."),
        ("uk", True, "🤝 Нічия: обидві пари дійшли до мети одночасно."),
    ],
)
def test_a_draw_at_the_target_says_both_players_or_both_pairs(
    lang: str, pairs: bool, said: str
) -> None:
    """The Ukrainian Telephone scores its target at a round's end (RULES.md §3.5), so both sides
    can pass it at once: the draw said "both sides", a word the table never uses."""
    names = ["Маша", "Лёша", "Оля", "Серж"] if pairs else ["Маша", "Лёша"]
    table = table_of(names, pairs=pairs, lang=lang, rules=PRESETS["telephone_ua"]())
    ended = MatchEnded(losers=[], scores=[230, 235], ended_by="draw", winners=[])
    assert re.sub("<[^>]+>", "", match_result_text(table, ended)).splitlines()[0] == said


def test_the_ukrainian_fisherman_has_one_name() -> None:
    """A fish named its man "рибак" while Sea Goat's options and results called him "рибалка"."""
    texts = catalog("uk").values()
    assert [text for text in texts if "рибалк" in text.lower()] == []
    assert any("рибак" in text.lower() for text in texts)


def lightest_wins_fish() -> RoundEnded:
    """A round nobody could go out of: Lyosha (seat 1) closed it and holds the lightest hand."""
    return RoundEnded(
        round=4,
        result="fish",
        winner=1,
        fisherman=1,
        hands=[[Tile(6, 5), Tile(4, 4)], [Tile(0, 1)]],
        hand_values=[19, 1],
        amounts=[0, 25],
        scores=[0, 25],
    )


@pytest.mark.parametrize(
    ("game", "lang", "head"),
    [
        ("sea_goat", "ru", "🐟 Раунд 4: <b>рыба!</b> Рыбак — Лёша."),
        ("traditional", "uk", "🐟 Раунд 4: <b>риба!</b> Рибак — Лёша."),
        ("sea_goat", "en", "🐟 Round 4: <b>fish!</b> Лёша closed the game."),
        ("muggins", "ru", "🧱 Раунд 4: <b>тупик</b> — никто не может сходить."),
    ],
)
def test_a_blocked_round_of_sea_goat_or_traditional_is_a_fish(
    game: str, lang: str, head: str
) -> None:
    """Sea Goat's and Traditional's rules say what a fish scores ("Рыба: выигрывает тот, у кого
    меньше всех на руках"), but their results said "🧱 тупик", the fives games' word."""
    rules = PRESETS[game]()
    table = table_of(["Маша", "Лёша"], lang=lang, rules=rules)
    lines = round_result_text(table, lightest_wins_fish()).splitlines()
    assert lines[0] == head
    assert "Лёша" in lines[1]  # and whose hand was lightest


#: Partners whose names need escaping, as every name does.
PARTNERS = ["Al", "Bo", "Zoë <3", "Cy"]


def partners_share_the_lightest_hand() -> RoundEnded:
    """A Muggins pair block (RULES.md §3.6) where Al and his partner are each left with 3 pips,
    the lightest hands, and win it for their side (rules revision 4)."""
    return RoundEnded(
        round=5,
        result="fish",
        winner=0,
        fisherman=0,
        hands=[[Tile(1, 2)], [Tile(0, 5)], [Tile(0, 3)], [Tile(3, 5), Tile(2, 3)]],
        hand_values=[6, 18],
        amounts=[3, 0],
        scores=[43, 20],
        won_by="lightest_partners",
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Al and Zoë &lt;3 both have the lightest hand (3 pips each) and take the round."),
        ("ru", "Al и Zoë &lt;3: у обоих по 3 на руках, меньше всех — победа в раунде."),
        ("uk", "Al і Zoë &lt;3: в обох по 3 на руках, найменше — перемога в раунді."),
    ],
)
def test_partners_who_share_the_lightest_hand_are_both_named(lang: str, said: str) -> None:
    """The result said "Al has the lightest hand", leaving out Zoë, who held as few pips: the
    pair won the block."""
    for game in ("muggins", "all_threes"):
        table = table_of(PARTNERS, pairs=True, lang=lang, rules=PRESETS[game]())
        lines = round_result_text(table, partners_share_the_lightest_hand()).splitlines()
        assert lines[1] == said


def tied_block(players: int, pairs: bool) -> RoundEnded:
    """A block nobody wins: Al (seat 0) and Bo (seat 1), opponents, are each left with 6 pips,
    the fewest (RULES.md §3.4, §3.6, §3.9: a tie at a block scores nothing)."""
    hands = [[Tile(1, 1), Tile(1, 3)], [Tile(1, 5)], [Tile(3, 5)], [Tile(3, 3), Tile(4, 4)]]
    values = [6, 6, 8, 14]
    sides = [values[0] + values[2], values[1] + values[3]] if pairs else values[:players]
    return RoundEnded(
        round=4,
        result="fish",
        winner=None,
        fisherman=2,
        hands=hands[:players],
        hand_values=sides,
        amounts=[0] * len(sides),
        scores=[10] * len(sides),
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Al and Bo share the lightest hand (6 pips each): nobody takes the round."),
        (
            "ru",
            "Al и Bo: у каждого по 6 на руках — меньше всех, но поровну, так что раунд никто не"
            " берёт.",
        ),
        (
            "uk",
            "Al і Bo: у кожного по 6 на руках — найменше, але порівну, тож раунд ніхто не бере.",
        ),
    ],
)
@pytest.mark.parametrize(
    ("game", "players", "pairs"),
    [("telephone", 4, False), ("english_fives", 3, False), ("muggins", 4, True)],
)
def test_a_block_tied_for_the_lightest_hand_says_nobody_takes_it(
    game: str, players: int, pairs: bool, lang: str, said: str
) -> None:
    """A block where two sides share the fewest pips scores nothing: the result said only
    "blocked", then "6 in hand → 0" beside every name, and never why the lightest got nothing."""
    names = ["Al", "Bo", "Cy", "Di"][:players]
    table = table_of(names, pairs=pairs, lang=lang, rules=PRESETS[game]())
    lines = round_result_text(table, tied_block(players, pairs)).splitlines()
    assert lines[1] == said


def test_a_write_off_block_names_no_lightest_hand() -> None:
    """The Ukrainian Telephone pays nobody at a block (RULES.md §3.5): every side writes off its
    own hand, so a tie for the fewest pips is nothing to explain."""
    table = table_of(["Al", "Bo"], rules=PRESETS["telephone_ua"]())
    lines = round_result_text(table, tied_block(2, False)).splitlines()
    assert lines[1] == ""


def lighter_pair_fish() -> RoundEnded:
    """A pair fish that Al (4 pips) and Zoë (4) win with 8 together against Bo's 1 and Cy's 10:
    the fewest pips were Bo's, the lightest pair theirs."""
    return RoundEnded(
        round=5,
        result="fish",
        winner=0,
        fisherman=0,
        hands=[[Tile(1, 3)], [Tile(0, 1)], [Tile(0, 4)], [Tile(4, 6)]],
        hand_values=[8, 11],
        amounts=[3, 0],
        scores=[43, 20],
        won_by="lightest_pair",
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "Al and Zoë &lt;3 are the lightest pair (8 points in hand together) and take the"
            " round.",
        ),
        ("ru", "Меньше всех на руках у пары Al и Zoë &lt;3: 8 на двоих — победа в раунде."),
        ("uk", "Найменше на руках у пари Al і Zoë &lt;3: 8 на двох — перемога в раунді."),
    ],
)
@pytest.mark.parametrize("game", ["traditional", "sea_goat"])
def test_a_pair_that_wins_a_fish_by_its_total_is_the_lightest_pair(
    game: str, lang: str, said: str
) -> None:
    """Traditional and Sea Goat in pairs give a fish to the side whose hands weigh least
    together (RULES.md §3.1, §3.2.1): "Al has the lightest hand" was untrue where Bo held less."""
    table = table_of(PARTNERS, pairs=True, lang=lang, rules=PRESETS[game]())
    lines = round_result_text(table, lighter_pair_fish()).splitlines()
    assert lines[1] == said
    alone = table_of(["Al", "Bo"], lang=lang, rules=PRESETS[game]())
    fish = dataclasses.replace(
        lighter_pair_fish(), hands=[[Tile(1, 3)], [Tile(4, 6)]], won_by="lightest"
    )
    lines = round_result_text(alone, dataclasses.replace(fish, hand_values=[4, 10])).splitlines()
    assert lines[1] == t(lang, "result.lightest", name="Al")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Al and Zoë &lt;3 are the lightest pair (28 points in hand together)"),
        ("ru", "Меньше всех на руках у пары Al и Zoë &lt;3: 28 на двоих"),
        ("uk", "Найменше на руках у пари Al і Zoë &lt;3: 28 на двох"),
    ],
)
def test_a_pair_s_hands_together_are_counted_as_the_game_counts_them_not_as_pips(
    lang: str, said: str
) -> None:
    """A Traditional pair fish that Al's lone 0-0 (worth 25, RULES.md §1.10) and Zoë's 1-2 win
    with 28 against 31: it read "28 pips together", where their tiles show 3 pips."""
    fish = dataclasses.replace(
        lighter_pair_fish(),
        hands=[[Tile(0, 0)], [Tile(5, 6)], [Tile(1, 2)], [Tile(4, 6), Tile(5, 5)]],
        hand_values=[28, 31],
    )
    table = table_of(PARTNERS, pairs=True, lang=lang, rules=PRESETS["traditional"]())
    assert said in round_result_text(table, fish).splitlines()[1]


def bulgarian_block(
    lang: str, hands: list[str], scores: tuple[int, int], block_winner: str = "lowest_pips"
) -> str:
    """The line under the head of a Bulgarian fives round that Al (seat 0) blocks with 6-6, as
    the engine ends it (RULES.md §3.8): who won it, and by what."""
    match = scoring_table("bulgarian_fives", bg_block_winner=block_winner)
    layout_position(match, hands=hands, lays=SIXES, turn=P0, scores=scores)
    ended = next(e for e in match.act(P0, Play(tile("6-6"))) if isinstance(e, RoundEnded))
    table = table_of(["Al", "Bo"], lang=lang, rules=match.rules)
    table.match = match
    return round_result_text(table, ended).splitlines()[1]


LITERAL = "literal_most_points"


@pytest.mark.parametrize(
    ("hands", "scores", "block_winner", "said"),
    [
        (
            ["6-6 1-2", "0-4"],
            (0, 0),
            "lowest_pips",
            "Al has the lightest hand and takes the round.",
        ),
        (
            ["6-6 0-2 1-1", "0-4"],
            (0, 0),
            "lowest_pips",
            "Equal pips in hand: Bo holds fewer tiles and takes the round.",
        ),
        (
            ["6-6 0-3", "1-2"],
            (0, 0),
            "lowest_pips",
            "Equal pips and tiles in hand: Al played the last tile and takes the round.",
        ),
        (
            ["6-6 1-2", "0-4 5-5"],
            (10, 30),
            LITERAL,
            "Bo has more points in the match and takes the round.",
        ),
        (
            ["6-6 1-2 0-2", "0-4"],
            (30, 30),
            LITERAL,
            "Equal points in the match: Bo holds fewer tiles and takes the round.",
        ),
        (
            ["6-6 1-2", "0-4"],
            (30, 30),
            LITERAL,
            "Equal points in the match and tiles in hand: Al played the last tile and takes the"
            " round.",
        ),
    ],
)
def test_a_bulgarian_block_says_what_won_it(
    hands: list[str], scores: tuple[int, int], block_winner: str, said: str
) -> None:
    """§3.8: a block goes to the fewer pips (or with ``literal_most_points`` to more match
    points), then fewer tiles, then the last tile's player; the result said "has the lightest
    hand" whatever decided it, even of Bo holding 14 pips to Al's 3."""
    assert bulgarian_block("en", hands, scores, block_winner) == said


@pytest.mark.parametrize(
    ("lang", "most", "tiles_"),
    [
        (
            "ru",
            "Больше очков в матче у игрока Bo — победа в раунде.",
            "На руках поровну, но меньше камней у игрока Bo — победа в раунде.",
        ),
        (
            "uk",
            "Більше очок у матчі у гравця Bo — перемога в раунді.",
            "На руках порівну, але менше каменів у гравця Bo — перемога в раунді.",
        ),
    ],
)
def test_a_bulgarian_block_says_what_won_it_in_russian_and_ukrainian(
    lang: str, most: str, tiles_: str
) -> None:
    assert bulgarian_block(lang, ["6-6 1-2", "0-4 5-5"], (10, 30), LITERAL) == most
    assert bulgarian_block(lang, ["6-6 0-2 1-1", "0-4"], (0, 0)) == tiles_


def test_ukrainian_traditional_names_the_lowest_double_as_its_line_does() -> None:
    """Traditional (to 300) said "заходить найменший дубль" under its name and "Заходить
    молодший дубль … молодший камінь" two lines below, a Russian calque beside the Ukrainian."""
    rules = PRESETS["traditional_ht"]()
    lines = "\n".join([game_line("uk", "traditional_ht"), *rules_text("uk", rules)])
    assert "• Заходить найменший дубль, 0-0 першим, інакше найменший камінь" in lines
    assert "молодш" not in lines


def test_ukrainian_standings_count_the_times_a_player_was_the_goat() -> None:
    """/top and /stats read "козлом: 1", an instrumental with no word to hang on."""
    row = StandingRow(1, 7, "Оля", 2, 1, 1, 0, 92.5, 3)
    top = top_text("uk", "kozel", [row], page=0, total=1, size=10)
    game = GameRecord("kozel", 2, 1, 1, 0, 92.5, 3, 1)
    stats = record_text("uk", UserRecord(7, "Оля", 2, 1, (game,)), [], UTC)
    assert "· разів козлом: 1 ·" in top and "· разів козлом: 1 ·" in stats, (top, stats)


@pytest.mark.parametrize(
    ("lang", "count"),
    [
        ("en", ("donkeys 1", "times the donkey: 1")),
        ("ru", ("в ослах: 1",) * 2),
        ("uk", ("разів ослом: 1",) * 2),
    ],
)
def test_donkeys_standings_count_the_times_a_player_was_the_donkey(
    lang: str, count: tuple[str, str]
) -> None:
    """Donkey's /top and /stats counted a player's lost matches as plain losses («поражений»),
    where Kozel's count the times he was the goat: Donkey's loser is the donkey (RULES.md
    §3.3), and his past match is marked 🫏 as /history marks it."""
    row = StandingRow(1, 7, "Оля", 2, 1, 1, 0, 92.5, 3)
    top = top_text(lang, "donkey", [row], page=0, total=1, size=10)
    game = GameRecord("donkey", 2, 1, 1, 0, 92.5, 3, 1)
    lost = RecentMatch(1, -100, "Двор", "donkey", 1_700_000_000.0, "goat", 101, "lost", -3)
    stats = record_text(lang, UserRecord(7, "Оля", 2, 1, (game,)), [lost], UTC)
    assert f"· {count[0]} ·" in top and f"· {count[1]} ·" in stats, (top, stats)
    assert "101" in stats.splitlines()[-1] and "🫏" in stats.splitlines()[-1], stats


@pytest.mark.parametrize(
    ("lang", "game", "named"),
    [
        ("en", "telephone", "<b>spinner</b>"),
        ("en", "telephone_ua", "<b>spinner</b>"),
        ("ru", "telephone", "<b>дом</b> (крест)"),
        ("ru", "telephone_ua", "<b>домом</b> (крестом)"),
        ("uk", "telephone", "<b>дім</b> (хрест)"),
        ("uk", "telephone_ua", "<b>домом</b> (хрестом)"),
    ],
)
def test_telephones_house_is_named_as_the_cross_its_options_speak_of(
    lang: str, game: str, named: str
) -> None:
    """Telephone's /rules called the first double the house ("дом") and its options, just
    below, the cross ("Все четыре стороны креста…"), as do the buttons that choose an arm: a
    reader could not tell they were one tile. English said "house" and "spinner" so."""
    summary = usual_summary(lang, game)
    options = "\n".join(rules_text(lang, PRESETS[game]()))
    cross = {"en": "spinner", "ru": "крест", "uk": "хрест"}[lang]
    assert named in summary and cross in options


def olya_went_out() -> RoundEnded:
    """Kozel, three players: Olya went out; Masha's 10 is under the 13 that opens a score, Alex
    opened his long ago and writes his 20 (RULES.md §2.8)."""
    return RoundEnded(
        round=4,
        result="out",
        winner=2,
        fisherman=None,
        eggs=False,
        hands=[[Tile(4, 6)], [Tile(5, 5), Tile(4, 6)], []],
        hand_values=[10, 20, 0],
        amounts=[10, 20, 0],
        scores=[0, 45, 0],
        memory=[10, 0, 0],
        opened=[False, True, False],
        pot=0,
    )


@pytest.mark.parametrize(
    ("memory", "lang", "said"),
    [
        (
            "remember",
            "en",
            "Masha: 10 in hand → 10 remembered (a round of 13 or more opens the score)",
        ),
        ("discard", "en", "Masha: 10 in hand → 10 thrown away (under 13)"),
        (
            "remember",
            "ru",
            "Masha: на руках 10 → 10 запомнено (счёт открывает раунд на 13 и больше)",
        ),
        ("discard", "uk", "Masha: на руках 10 → 10 згорає (менше 13)"),
    ],
)
def test_points_under_13_are_not_shown_as_written(memory: str, lang: str, said: str) -> None:
    """The result said "Masha: 10 in hand → +10" and, just below, "Masha: 0 (remembered 10)":
    under 13 nothing is written (RULES.md §2.8), so the +10 read as a miscount."""
    rules = RuleSet().with_options(memory=memory)
    table = table_of(["Masha", "Alex", "Olya"], lang=lang, rules=rules)
    text = html.unescape(round_result_text(table, olya_went_out()))
    lines = text.replace("<b>", "").replace("</b>", "").splitlines()
    assert said in lines
    assert [line for line in lines if line.startswith("Alex: ") and line.endswith("→ +20")]


#: The longest name Telegram allows (64 characters, first and last), each character an emoji
#: that Telegram counts as two (UTF-16 code units).
EMOJI_NAME = "😀" * 64 + " " + "🐐" * 64


@pytest.mark.parametrize("lang", ["en", "ru", "uk"])
def test_a_round_result_of_emoji_names_fits_a_message_whole(lang: str) -> None:
    """Four names of 128 emoji at a pair fish, each hand of six tiles, the pairs' remembered
    points wiped: the result outgrew Telegram's 4096 characters (as it counts them: two for an
    emoji), and the sender cut it mid-name, taking its formatting off. The hands give way, and
    who fished, what each pair got and the score stay."""
    table = table_of([EMOJI_NAME] * 4, pairs=True, lang=lang)
    six = [[Tile(a, b) for b in range(6)] for a in range(4)]
    fish = dataclasses.replace(fish_for_one(2), hands=six, memory=[12, 25], scores=[77, 25])
    text = round_result_text(table, fish)
    assert utf16_len(html.unescape(re.sub(r"<[^>]*>", "", text))) <= 4096
    assert fit(text) == text  # nothing for the sender to cut
    lines = html.unescape(text).splitlines()
    assert t(lang, "result.hands_elsewhere") in lines
    assert not any(line.endswith("[0|5]") for line in lines)  # no hand, rather than some
    assert lines[0].startswith("🐟 ") and "<b>" in text
    pair = spoken_list(lang, [EMOJI_NAME, EMOJI_NAME])
    assert lines[-1].startswith(f"{pair}: 25")  # the score


def test_a_round_result_of_short_names_keeps_the_hands() -> None:
    table = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True)
    text = html.unescape(round_result_text(table, fish_for_one(2)))
    assert "Masha: [6|6]" in text.splitlines()
    assert t("en", "result.hands_elsewhere") not in text


def sea_goat_eggs() -> RoundEnded:
    """A Sea Goat fish where Lyosha and Dasha tie for the lightest hand: eggs (RULES.md
    §3.2.5), their 34 pips carried to the next round's winner in the game's own state."""
    return RoundEnded(
        round=66,
        result="fish",
        winner=None,
        fisherman=0,
        hands=[[Tile(1, 5)], [Tile(3, 4), Tile(3, 5)], [Tile(3, 3)], [Tile(1, 1), Tile(1, 4)]],
        hand_values=[6, 15, 6, 7],
        amounts=[0, 0, 0, 0],
        scores=[0, 0, 0, 62],
        outcome="eggs",
        sea=SeaState(pot=34).to_dict(),
    )


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "🥚 Eggs in the pot: 34"), ("ru", "🥚 Яйца на кону: 34")]
)
def test_sea_goats_eggs_say_what_is_in_the_pot(lang: str, said: str) -> None:
    """Sea Goat's eggs said only "🥚 Equal hands: eggs.", and its board nothing: the 34 in the
    pot were first heard of when the next winner's line added them."""
    table = table_of(["Zoë", "Вася", "Лёша", "Даша"], lang=lang, rules=PRESETS["sea_goat"]())
    result = html.unescape(round_result_text(table, sea_goat_eggs()))
    assert result.splitlines()[-1] == said
    match = table.match
    assert match is not None and match.tally.sea is not None
    match.tally = dataclasses.replace(match.tally, sea=SeaState(pot=34))
    assert said in html.unescape(board_text(table)).splitlines()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "No deal is left to take them: the pot (42) goes to nobody."),
        ("ru", "Раздач больше не будет: то, что на кону (42), не достаётся никому."),
        ("uk", "Роздач більше не буде: те, що на кону (42), не дістається нікому."),
    ],
)
def test_eggs_in_the_last_deal_of_sport_domino_go_to_nobody_and_say_so(
    lang: str, said: str
) -> None:
    """Sport domino ends after its deals whatever is in the pot (RULES.md §3.11): eggs in the
    last deal said "42 points wait in the pot", and the result and the final board showed them
    waiting, for a deal that never came."""
    rules = PRESETS["sport"]()
    table = table_of(["Masha", "Alex", "Olya", "Serg"], pairs=True, lang=lang, rules=rules)
    table.match, _ = Match.new(4, True, rules, seed=2)
    ended = play_out(table, seed=2)
    last = table.round_ends[-1]
    assert last.eggs and last.round == rules.sport_deals and last.pot == 42
    result = html.unescape(re.sub(r"<[^>]*>", "", round_result_text(table, last)))
    assert said in result.splitlines()[0]
    pot = t(lang, "board.pot", pot=42)
    assert pot not in result
    assert pot not in html.unescape(board_text(table))
    assert pot not in html.unescape(match_result_text(table, ended))


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "{name} closed the game. 26 points wait in the pot."),
        ("ru", "Рыбак — {name}. На кону: 26."),
        ("uk", "Рибак — {name}. На кону: 26."),
    ],
)
def test_eggs_name_the_fisherman_who_leads_the_next_round(lang: str, said: str) -> None:
    """Eggs are a fish too, and the fisherman leads the next round (RULES.md §2.6): a fish's
    result names him, the eggs' did not, so the next board's lead came from nowhere."""
    table = table_of(["Masha", "Alex", "Olya"], lang=lang)
    table.match, _ = Match.new(3, False, RuleSet(), seed=20)
    play_out(table, seed=20)
    eggs = next(end for end in table.round_ends if end.eggs)
    assert eggs.fisherman is not None and eggs.pot == 26
    fisherman = table.seats[eggs.fisherman].name
    head = html.unescape(re.sub(r"<[^>]*>", "", round_result_text(table, eggs))).splitlines()[0]
    assert head.endswith(said.format(name=fisherman))


@pytest.mark.parametrize(
    ("lang", "eggs", "deal", "rnd"),
    [
        ("en", "• Eggs go to ", "next deal", "round"),
        ("ru", "• Яйца достаются ", "раздач", "раунд"),
        ("uk", "• Яйця дістаються ", "роздачі", "раунд"),
    ],
)
def test_sport_dominos_eggs_option_speaks_of_deals_as_its_board_does(
    lang: str, eggs: str, deal: str, rnd: str
) -> None:
    """Sport domino plays deals ("deal 3 of 8"), yet its lobby and /rules said its eggs go to
    whoever collects the most "next round"."""
    rules = PRESETS["sport"]()
    for value in ("pot_to_max_next", "pot_to_next_winner"):
        lines = rules_text(lang, rules.with_options(eggs=value))
        (line,) = [line for line in lines if line.startswith(eggs)]
        assert deal in line and rnd not in line, line


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "🥚 Nobody takes the eggs: the most collected is a tie."),
        ("ru", "🥚 Яйца никто не забирает: больше всех набрали поровну."),
        ("uk", "🥚 Яєць ніхто не забирає: найбільше набрали порівну."),
    ],
)
def test_eggs_nobody_takes_for_a_tie_say_why(lang: str, said: str) -> None:
    """The round after eggs, two players collect the most alike (3 each), so the pot waits on
    (RULES.md §2.7.4): the result said nothing of the eggs, which were simply still there."""
    table = table_of(["Masha", "Alex", "Olya"], lang=lang)
    table.match, _ = Match.new(3, False, RuleSet(), seed=39)
    play_out(table, seed=39)
    lines = pot_kept_lines(table)
    assert said in lines
    taken = [end for end in table.round_ends if end.pot_awarded_to is not None]
    for end in taken:  # and a round that does give them away says nothing of the sort
        assert said not in html.unescape(round_result_text(table, end))


def pot_kept_lines(table: Table) -> list[str]:
    """The result of the first round after eggs that left the pot where it was."""
    after = next(
        end
        for before, end in zip(table.round_ends, table.round_ends[1:], strict=False)
        if before.eggs and not end.eggs and end.pot
    )
    assert after.pot_awarded_to is None
    return html.unescape(re.sub(r"<[^>]*>", "", round_result_text(table, after))).splitlines()


def test_eggs_for_the_next_winner_nobody_takes_after_a_fish_say_why() -> None:
    """``eggs = pot_to_next_winner``: a fish after eggs whose lightest hands tie has no winner
    to take them (RULES.md §2.7.4, FLAG), and says so."""
    rules = RuleSet().with_options(eggs="pot_to_next_winner")
    table = table_of(["Masha", "Alex", "Olya"], rules=rules)
    table.match, _ = Match.new(3, False, rules, seed=209)
    play_out(table, seed=209)
    assert "🥚 Nobody takes the eggs: the lightest hands are a tie." in pot_kept_lines(table)


def donkey_fish(*, eggs: bool) -> RoundEnded:
    """A Donkey round that Lyosha (seat 1) blocked, the heavier hand Masha's, or both equal."""
    return RoundEnded(
        round=3,
        result="fish",
        winner=None,
        fisherman=1,
        eggs=eggs,
        hands=[[Tile(6, 5)], [Tile(4, 4) if eggs else Tile(0, 1)]],
        hand_values=[11, 8 if eggs else 1],
        amounts=[0, 0] if eggs else [12, 0],
        scores=[0, 0] if eggs else [12, 0],
        pot=12 if eggs else None,
    )


@pytest.mark.parametrize(
    ("game", "eggs", "head"),
    [
        ("donkey", False, "🐟 Round 3: fish! Лёша blocked the game."),
        (
            "donkey",
            True,
            "🥚 Round 3: a drawn fish — eggs! Лёша blocked the game.",
        ),
        ("kozel", False, "🐟 Round 3: fish! Лёша closed the game."),
    ],
)
def test_a_donkey_fish_is_not_said_closed(game: str, eggs: bool, head: str) -> None:
    """Donkey's fish read "Лёша closed the game", where "closed" is a double laid face down
    (RULES.md §3.3): its maker blocked the game. Kozel players say "closed the game"."""
    table = table_of(["Маша", "Лёша"], lang="en", rules=PRESETS[game]())
    text = round_result_text(table, donkey_fish(eggs=eggs))
    assert html.unescape(re.sub(r"<[^>]*>", "", text)).splitlines()[0].startswith(head)


@pytest.mark.parametrize(
    ("lang", "head"),
    [
        (
            "en",
            "🥚 Round 9: a drawn fish — eggs! Зина closed the game. 38 points wait in the pot.",
        ),
        (
            "ru",
            "🥚 Раунд 9: рыба вничью — яйца! Рыбак — Зина. На кону: 38.",
        ),
        (
            "uk",
            "🥚 Раунд 9: риба внічию — яйця! Рибак — Зина. На кону: 38.",
        ),
    ],
)
def test_eggs_say_the_fish_is_drawn_whatever_ties(lang: str, head: str) -> None:
    """Eggs at a table of four read "рыба, а на руках поровну" above Маша's 8 beside three
    10s: by default only the heaviest hands tie (RULES.md §2.7.3 ``for_one``), under
    ``lowest_wins`` all of them, and at a pairs table the pairs' sums. The head says only that
    the fish is drawn, which each of them is."""
    table = table_of(["Маша", "Саша", "Петя", "Зина"], lang=lang)
    eggs = RoundEnded(
        round=9,
        result="fish",
        winner=None,
        fisherman=3,
        eggs=True,
        hands=[[Tile(3, 5)], [Tile(1, 3), Tile(1, 5)], [Tile(5, 5)], [Tile(0, 0)]],
        hand_values=[8, 10, 10, 10],
        amounts=None,
        scores=[0, 97, 0, 0],
        memory=[0, 0, 15, 10],
        opened=[False, True, False, False],
        pot=38,
    )
    text = html.unescape(re.sub(r"<[^>]*>", "", round_result_text(table, eggs)))
    assert text.splitlines()[0] == head
