"""What ``/rules`` and the ⚙️ Rules editor say of an option is what the engine plays (RULES.md):
the words of a choice are checked against the engine's own answer for it."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, t
from bot.render.lobby import choices, describe
from bot.render.summary import summary
from engine import Match
from engine.games import game_of
from engine.leads import traditional_lead
from engine.line import Line
from engine.rules import PRESETS, traditional
from engine.scoring import traditional as scoring
from engine.tiles import Tile
from tests.bot.summaries import usual_summary

#: How each language names the double that leads under ``trad_lead = highest_double``, and the
#: one a leader who is not the highest would be.
HIGHEST_DOUBLE = {"en": "highest double", "ru": "старший дубль", "uk": "найстарший дубль"}
LOWEST_DOUBLE = {"en": "lowest double", "ru": "младший дубль", "uk": "найменший дубль"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_zero_first_says_the_highest_double_leads_when_nobody_holds_0_0(lang: str) -> None:
    """§3.1 ``zero_first``: "If nobody holds 0-0, fall back to highest_double", as it plays."""
    rules = traditional().with_options(trad_lead="zero_first")
    hands = [[Tile(2, 2), Tile(1, 3)], [Tile(4, 4), Tile(1, 2)]]
    assert traditional_lead(hands, rules, 0) == (1, [Tile(4, 4)], "highest_double")
    words = describe(lang, "trad_lead", "zero_first", "traditional")
    assert HIGHEST_DOUBLE[lang] in words
    assert LOWEST_DOUBLE[lang] not in words


#: How each language says which tile leads a Traditional round where no double leads.
HIGHEST_TILE_LEADS = {"en": "else the highest tile", "ru": "иначе старший камень"}
HIGHEST_TILE_LEADS["uk"] = "інакше найстарший камінь"
LOWEST_TILE_LEADS = {
    "en": "else the lowest tile that is not a double",
    "ru": "иначе младший камень, не считая дублей",
    "uk": "інакше найменший камінь, не рахуючи дублів",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_traditional_lead_says_which_tile_leads_when_no_double_does(lang: str) -> None:
    """§3.1, TR-4: with no double dealt the holder of the highest tile leads (``highest_double``,
    and ``zero_first`` after it); ``lowest_double_no_00`` falls to the lowest non-double, 0-0
    never leading. The options named only the doubles."""
    no_double = [[Tile(1, 2), Tile(4, 5)], [Tile(5, 6), Tile(0, 3)]]
    only_zero = [[Tile(0, 0), Tile(4, 5)], [Tile(1, 2), Tile(0, 3)]]
    for lead in ("highest_double", "zero_first"):
        rules = traditional().with_options(trad_lead=lead)
        assert traditional_lead(no_double, rules, 0) == (1, [Tile(5, 6)], "highest_tile")
        assert HIGHEST_TILE_LEADS[lang] in describe(lang, "trad_lead", lead, "traditional")
    rules = traditional().with_options(trad_lead="lowest_double_no_00")
    assert traditional_lead(only_zero, rules, 0) == (1, [Tile(1, 2)], "lowest_tile_no_00")
    words = describe(lang, "trad_lead", "lowest_double_no_00", "traditional")
    assert LOWEST_TILE_LEADS[lang] in words


#: How each language says that in pairs a fish goes to the pair lightest together.
LIGHTEST_PAIR = {
    "en": "in pairs, the pair lightest together",
    "ru": "в парах — пара, у которой меньше на двоих",
    "uk": "у парах — пара, у якої найменше на двох",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_traditional_says_a_pair_fish_goes_to_the_pair_lightest_together(lang: str) -> None:
    """§3.1 "Teams": partners' hands are summed, so a fish goes to the pair whose hands weigh
    least together, though an opponent may hold fewer alone (Bo's 1 against Al's 4 and Zoë's
    4); /rules said "the lightest hand" (and so did Sea Goat's, §3.2.1)."""
    assert scoring.fish(scoring.side_totals([4, 1, 4, 10], pairs=True), traditional()) == (0, 3)
    for game in ("traditional", "traditional_ht", "sea_goat"):
        rules = PRESETS[game]()
        assert game_of(rules).pairs_block_by_total
        said = (
            [describe(lang, "sg_fish", rules.sg_fish, game)]
            if game == "sea_goat"
            else [
                usual_summary(lang, game),
                describe(lang, "trad_fish", "difference", game),
                describe(lang, "trad_fish", "per_player", game),
            ]
        )
        for words in said:
            assert LIGHTEST_PAIR[lang] in words, (game, words)


def test_the_editor_offers_every_traditional_target_the_spec_names() -> None:
    """§3.1 Target: "DEFAULT 100. Other values given: 150 …; 200 or 500 …; 300"."""
    assert set(choices("target", "traditional")) >= {100, 150, 200, 300, 500}


#: How each language says that a blocked round's winner has his own pips taken off.
LESS_OWN = {"en": "less the winner's own", "ru": "минус свои", "uk": "мінус свої"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_muggins_bonus_says_a_blocked_winners_own_pips_come_off(lang: str) -> None:
    """§3.6 M-e: at a block the winner holding 3 against 5, 11 and 13 gets round5(29 − 3)/5 = 5,
    not round5(29)/5 = 6; the game's /rules and its bonus option said only "the others' pips".
    The full bonus (M-f) takes nothing off, and says nothing of it."""
    for game, option in (("muggins", "muggins_bonus"), ("all_threes", "threes_bonus")):
        rules = PRESETS[game]()
        bonus = game_of(rules).bonus("fish", rules)
        assert bonus is not None and bonus.paid(29, 3) == (5 if game == "muggins" else 9)
        assert LESS_OWN[lang] in usual_summary(lang, game), game
        assert LESS_OWN[lang] in describe(lang, option, rules.option(option), game), game
    assert LESS_OWN[lang] in describe(lang, "threes_bonus", "fives", "all_threes")
    assert LESS_OWN[lang] not in describe(lang, "muggins_bonus", "full", "muggins")


#: How each language says, in Bulgarian Fives' /rules, who leads when nobody holds a double.
HIGHEST_TILE = {
    "en": "if neither holds a double, the highest tile",
    "ru": "если дублей ни у кого нет — старший камень",
    "uk": "якщо дублів ні в кого нема — найстарший камінь",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bulgarian_fives_says_the_highest_tile_leads_when_nobody_holds_a_double(lang: str) -> None:
    """§3.8 Lead: "the holder of the highest double leads it; otherwise the holder of the
    highest-ranked non-double" (every round); its /rules named only the double."""
    rules = PRESETS["bulgarian_fives"]()
    game = game_of(rules)
    doubles = [[Tile(2, 2), Tile(5, 6)], [Tile(4, 4), Tile(1, 2)]]
    assert game.first_lead(doubles, rules, 0) == (1, [Tile(4, 4)], "highest_double")
    no_double = [[Tile(4, 5), Tile(1, 2)], [Tile(3, 6), Tile(0, 1)]]
    assert game.first_lead(no_double, rules, 0) == (
        1,
        [Tile(3, 6)],
        "highest_tile",
    )  # 3-6 outranks 4-5
    summary = usual_summary(lang, "bulgarian_fives")
    assert HIGHEST_DOUBLE[lang] in summary and HIGHEST_TILE[lang] in summary


#: How each language's Bulgarian Fives /rules names the block's winner, by ``bg_block_winner``.
BLOCK_WINNER = {
    "lowest_pips": {
        "en": "the lighter hand wins the block",
        "ru": "В тупике выигрывает тот, у кого на руках меньше",
        "uk": "У глухому куті виграє той, у кого на руках менше",
    },
    "literal_most_points": {
        "en": "the player with more points wins the block",
        "ru": "В тупике выигрывает тот, у кого больше очков",
        "uk": "У глухому куті виграє той, у кого більше очок",
    },
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("played", ["lowest_pips", "literal_most_points"])
def test_bulgarian_fives_summary_names_the_block_winner_the_table_plays(
    lang: str, played: str
) -> None:
    """§3.8 ``bg_block_winner``: under ``literal_most_points`` a block goes to more match points,
    as the option's line under the summary says; the summary said the lighter hand wins whatever
    the table chose, later "by default" the lighter hand. It names the table's winner alone."""
    rules = PRESETS["bulgarian_fives"]().with_options(bg_block_winner=played)
    said = "\n".join(summary(lang, "bulgarian_fives", rules))
    other = next(value for value in BLOCK_WINNER if value != played)
    assert BLOCK_WINNER[played][lang] in said
    assert BLOCK_WINNER[other][lang] not in said


#: How each language says the double of the suit that closes the line need not be played.
BUT_THE_DOUBLE = {"en": "but the double", "ru": "кроме дубля", "uk": "крім дубля"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_closure_fish_says_the_double_may_still_be_in_a_hand(lang: str) -> None:
    """§1.9: the line is a fish once both ends show 3 and the six other 3s are down, wherever
    3-3 is. The rule said "a number whose tiles are all already played", and a fish called
    while Masha still held [3|3] read as the bot's mistake."""
    line = Line.from_chain([(3, 1), (1, 2), (2, 3), (3, 5), (5, 4), (4, 3), (3, 6), (6, 0), (0, 3)])
    assert line.closed_on() == 3  # [3|3] is in nobody's chain: still in a hand
    words = describe(lang, "fish_closure_rule", True, "kozel")
    assert BUT_THE_DOUBLE[lang] in words


#: How each language tells a player with nothing to play and nothing to draw to knock.
OR_KNOCK = {"en": "or knock", "ru": "или стучи", "uk": "або стукай"}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "game", ["telephone", "telephone_ua", "muggins", "all_threes", "english_fives"]
)
def test_the_scoring_games_say_a_player_knocks_when_there_is_nothing_to_draw(
    lang: str, game: str
) -> None:
    """Telephone dealt to four (and the Ukrainian one to two pairs) hands out all 28 tiles
    (RULES.md §1.4): there is no bazaar, and whoever cannot move knocks, as the board then says;
    in the other fives games the bazaar runs dry. /rules said only "no tile — draw from the
    bazaar", and a table of four looked for a bazaar it never had."""
    match, _ = Match.new(4, game == "telephone_ua", PRESETS[game](), seed=1)
    assert match.round is not None
    if game.startswith("telephone"):
        assert match.round.bazaar == []
    assert OR_KNOCK[lang] in usual_summary(lang, game)


#: How each language names the round's winner when nobody can move (the fives games' words).
LIGHTEST_AT_A_BLOCK = {
    "en": "or the lightest hand when nobody can move",
    "ru": "а в тупике — у кого меньше на руках",
    "uk": "а в глухому куті — в кого менше на руках",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_telephone_says_who_wins_a_block(lang: str) -> None:
    """§3.4 leaves a blocked Telephone round to the engine (FLAG): the lightest hand takes the
    winner's bonus (tests/engine/test_scoring_examples.py). /rules named only "whoever goes
    out", and the group's "Alex has the lightest hand and takes the round" came unannounced."""
    assert LIGHTEST_AT_A_BLOCK[lang] in usual_summary(lang, "telephone")
    assert LIGHTEST_AT_A_BLOCK[lang] in usual_summary(lang, "muggins")


#: Where the Bulgarian game's 14 undealt tiles lie, as each language's board names the place.
FOURTEEN_LEFT = {"en": "14 in the bazaar", "ru": "14 на базаре", "uk": "14 на базарі"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bulgarian_fives_calls_the_undealt_tiles_what_the_board_calls_them(lang: str) -> None:
    """The board and the moves say "Bazaar: 14 tiles", "drew from the bazaar"; the English
    /rules alone said "14 in the stock", a word the game never used again."""
    bazaar = t(lang, "board.bazaar.many", count=14).split(":")[0].lower()  # "bazaar", "базар"
    assert bazaar in FOURTEEN_LEFT[lang]
    assert FOURTEEN_LEFT[lang] in usual_summary(lang, "bulgarian_fives")
