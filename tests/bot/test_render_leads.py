"""Why a round must be led with its tile, as the group's board and the leader's hand say it: the
rule that chose the tile, worded for the case the deal made (RULES.md §2.3, §2.6, §2.7.5, §3.1,
§3.2.5, §3.5, §3.8, §3.10). The board and the hand said "Must lead: [2|2]" and left the players
to guess why that tile, and why him, when no one held 1-1."""

from __future__ import annotations

import dataclasses

import pytest

from bot.render.board import board_text
from bot.render.hand import leads_text, live_hand, placed_text
from bot.table import Table
from engine import Round, RuleSet, Tile
from engine.events import Played
from engine.rules import PRESETS
from tests.bot.tables import table_of

NAMES = ["Masha", "Alex", "Olya", "Petya"]


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(x) for x in text.split()]


def dealt(
    rules: RuleSet,
    hands: list[str],
    leader: int,
    lead: str,
    *,
    restarted: bool | None = None,
    lang: str = "en",
) -> Table:
    """A table whose round was dealt ``hands`` and is led by ``leader`` with ``lead``: the match's
    first round, or a later one, ``restarted`` as the first was or not."""
    players = len(hands)
    table = table_of(NAMES[:players], pairs=rules.game == "generals_goat", lang=lang, rules=rules)
    match = table.match
    assert match is not None
    if restarted is not None:
        match.next_leader, match.restart_chain = leader, restarted
    layout = match.game.layout(match.rules)
    match.round = Round(1, [tiles(h) for h in hands], [], leader, tiles(lead), layout=layout)
    return table


def board_line(table: Table) -> str:
    """The board's line that says how the round must be led."""
    return next(x for x in board_text(table).splitlines() if x.startswith(("Must lead", "Заход")))


def hand_line(table: Table) -> str:
    """The line of the leader's hand that says what to lead."""
    assert table.match is not None and table.match.round is not None
    seat = dataclasses.replace(table.seats[table.match.round.leader], language=table.language)
    text = live_hand(table, seat)[0]
    return next(x for x in text.splitlines() if x.startswith(("Lead with", "Заходи", "Заходь")))


KOZEL = RuleSet()
TWO_THREE = "telephone_ua"


@pytest.mark.parametrize(
    ("rules", "hands", "leader", "lead", "board"),
    [
        pytest.param(
            KOZEL,
            ["0-1 3-5", "1-1 2-2"],
            1,
            "1-1",
            "Must lead: [1|1] (the first round starts with 1-1)",
            id="kozel-1-1",
        ),
        pytest.param(
            KOZEL,
            ["0-0 5-5 1-2", "3-3 0-4"],
            1,
            "3-3",
            "Must lead: [3|3] (no one holds 1-1, so the lowest double from 2-2 up leads)",
            id="kozel-next-double",
        ),
        pytest.param(
            KOZEL,
            ["0-1 3-5", "0-0 2-4"],
            1,
            "0-0",
            "Must lead: [0|0] (no one holds a double from 1-1 to 6-6, so 0-0 leads)",
            id="kozel-0-0",
        ),
        pytest.param(
            KOZEL,
            ["4-6 0-1", "3-6 4-5"],
            0,
            "4-6",
            "Must lead: [4|6] (no one holds a double, so the highest tile leads)",
            id="kozel-no-double",
        ),
        pytest.param(
            KOZEL.with_options(special_bones=True),
            ["0-0 6-6 1-2", "0-1 3-4"],
            1,
            "3-4",
            "Must lead: [3|4] (leading 0-0 or 6-6 is never compulsory, so the next tile in the"
            " order leads)",
            id="kozel-special-bones",
        ),
        pytest.param(
            KOZEL.with_options(first_lead="lowest_incl_00"),
            ["2-2 0-1", "0-0 1-2"],
            1,
            "0-0",
            "Must lead: [0|0] (whoever holds the lowest double leads)",
            id="kozel-lowest-double",
        ),
        pytest.param(
            KOZEL.with_options(first_lead="lowest_incl_00"),
            ["1-2 4-6", "0-2 5-6"],
            1,
            "0-2",
            "Must lead: [0|2] (no one holds a double, so the lowest tile leads)",
            id="kozel-lowest-tile",
        ),
        pytest.param(
            PRESETS[TWO_THREE](),
            ["1-1 0-4", "2-3 5-5"],
            1,
            "2-3",
            "Must lead: [2|3] (the first round starts with 3-2)",
            id="telephone-3-2",
        ),
        pytest.param(
            PRESETS[TWO_THREE](),
            ["2-2 0-4", "1-1 5-5"],
            1,
            "1-1",
            "Must lead: [1|1] (no one holds 3-2, so Kozel's order decides: 1-1, 2-2 … 6-6, 0-0,"
            " then the highest tile)",
            id="telephone-no-3-2",
        ),
        pytest.param(
            PRESETS["bulgarian_fives"](),
            ["6-6 1-2", "5-5 3-4"],
            0,
            "6-6",
            "Must lead: [6|6] (whoever holds the highest double leads)",
            id="bulgarian-double",
        ),
        pytest.param(
            PRESETS["bulgarian_fives"](),
            ["4-5 1-2", "3-6 0-1"],
            1,
            "3-6",
            "Must lead: [3|6] (no one holds a double, so the highest tile leads)",
            id="bulgarian-no-double",
        ),
        pytest.param(
            PRESETS["traditional"]().with_options(trad_lead="zero_first"),
            ["6-6 2-2", "0-0 4-5"],
            1,
            "0-0",
            "Must lead: [0|0] (whoever holds 0-0 leads)",
            id="traditional-0-0-first",
        ),
        pytest.param(
            PRESETS["traditional"]().with_options(trad_lead="lowest_double_no_00"),
            ["6-6 2-2", "0-0 1-3"],
            0,
            "2-2",
            "Must lead: [2|2] (whoever holds the lowest double from 1-1 up leads)",
            id="traditional-lowest-double-no-0-0",
        ),
        pytest.param(
            PRESETS["traditional"]().with_options(trad_lead="lowest_double_no_00"),
            ["0-0 1-3", "0-2 1-2"],
            1,
            "0-2",
            "Must lead: [0|2] (no one holds a double from 1-1 up, so the lowest tile leads)",
            id="traditional-only-0-0",
        ),
    ],
)
def test_the_first_lead_says_the_rule_that_chose_it(
    rules: RuleSet, hands: list[str], leader: int, lead: str, board: str
) -> None:
    table = dealt(rules, hands, leader, lead)
    assert board_line(table) == board
    why = board.partition(" (")[2].removesuffix(")")
    assert hand_line(table) == f"Lead with [{lead.replace('-', '|')}]: {why}."


def test_general_goats_every_round_starts_with_1_1() -> None:
    """§3.10: 1-1 leads every round, not only the first."""
    hands = ["0-1 3-5", "1-1 2-2", "0-0 4-4", "5-6 6-6"]
    table = dealt(PRESETS["generals_goat"](), hands, 1, "1-1", restarted=True)
    assert board_line(table) == "Must lead: [1|1] (every round starts with 1-1)"


@pytest.mark.parametrize(
    ("rules", "hands", "leader", "lead", "board"),
    [
        pytest.param(
            KOZEL.with_options(restart_1_1_after_unrecorded=True),
            ["0-1 3-5", "1-1 2-2"],
            1,
            "1-1",
            "Must lead: [1|1] (after an unrecorded round, 1-1 leads again)",
            id="kozel-unrecorded",
        ),
        pytest.param(
            KOZEL.with_options(restart_1_1_after_unrecorded=True),
            ["0-1 4-4", "2-2 3-5"],
            1,
            "2-2",
            "Must lead: [2|2] (no one holds 1-1, so the lowest double from 2-2 up leads)",
            id="kozel-unrecorded-no-1-1",
        ),
        pytest.param(
            PRESETS["sea_goat"]().with_options(sg_eggs="ua"),
            ["1-1 3-5", "0-1 2-2"],
            0,
            "1-1",
            "Must lead: [1|1] (eggs are played out from 1-1)",
            id="sea-goat-eggs",
        ),
    ],
)
def test_a_round_restarted_from_1_1_says_why_not_that_it_is_the_first(
    rules: RuleSet, hands: list[str], leader: int, lead: str, board: str
) -> None:
    """§2.6 ``restart_1_1_after_unrecorded``, §3.2.5 ``sg_eggs = ua``: a later round led by the
    1-1 chain again is not the first round, and says the rule that restarted it; where no one
    holds 1-1, that the chain passed on."""
    assert board_line(dealt(rules, hands, leader, lead, restarted=True)) == board


def test_a_later_lead_of_a_double_says_the_leader_must_lead_one() -> None:
    """§2.6 ``lead_tile = double_if_held``: the leader chooses among his doubles."""
    hands = ["0-1 3-5", "2-2 4-4 1-3", "0-2 1-5", "0-3 2-5"]
    table = dealt(PRESETS["pair_kozel_team"](), hands, 1, "2-2 4-4", restarted=False)
    why = "the leader must lead a double when holding one"
    assert board_line(table) == f"Must lead: [2|2][4|4] ({why})"
    assert hand_line(table) == f"Lead with [2|2][4|4]: {why}."


@pytest.mark.parametrize(
    ("lang", "first", "fallback", "hand"),
    [
        (
            "ru",
            "Заход с [1|1]: первый раунд начинают с 1-1",
            "Заход с [3|3]: 1-1 ни у кого нет, заходит младший дубль от 2-2 и выше",
            "Заходи с [3|3]: 1-1 ни у кого нет, заходит младший дубль от 2-2 и выше.",
        ),
        (
            "uk",
            "Заходять з [1|1]: перший раунд починають з 1-1",
            "Заходять з [3|3]: 1-1 ні в кого немає, заходить найменший дубль від 2-2 і вище",
            "Заходь з [3|3]: 1-1 ні в кого немає, заходить найменший дубль від 2-2 і вище.",
        ),
    ],
)
def test_the_reason_is_said_in_the_tables_language(
    lang: str, first: str, fallback: str, hand: str
) -> None:
    assert board_line(dealt(KOZEL, ["0-1 3-5", "1-1 2-2"], 1, "1-1", lang=lang)) == first
    table = dealt(KOZEL, ["0-0 5-5 1-2", "3-3 0-4"], 1, "3-3", lang=lang)
    assert board_line(table) == fallback
    assert hand_line(table) == hand


def test_a_lead_the_rules_no_longer_give_goes_without_a_reason() -> None:
    """A round whose lead its rules would not choose now (they were upgraded since it was
    dealt) still says which tile, but no reason that might not be the one that applied."""
    table = dealt(KOZEL, ["0-0 5-5 1-2", "3-3 0-4"], 0, "0-0")  # the chain would lead 3-3
    assert board_line(table) == "Must lead: [0|0]"
    assert hand_line(table) == "Lead with [0|0]."


@pytest.mark.parametrize(
    ("lang", "forced", "free"),
    [
        ("en", "▶️ You lead with [1|1]: the first round starts with 1-1.", "▶️ You lead."),
        ("ru", "▶️ Ты заходишь с [1|1]: первый раунд начинают с 1-1.", "▶️ Заходишь ты."),
        ("uk", "▶️ Ти заходиш з [1|1]: перший раунд починають з 1-1.", "▶️ Заходиш ти."),
    ],
)
def test_a_leader_away_at_the_deal_reads_that_he_leads(lang: str, forced: str, free: str) -> None:
    """The leader reads his "🃏 New deal" only when he is away (the computer plays his turn):
    of himself, where "▶️ Alex leads." named him as if someone else."""
    table = dealt(KOZEL, ["0-1 3-5", "1-1 2-2"], 1, "1-1")
    assert leads_text(table, lang, reader=1) == forced
    assert leads_text(table, lang, reader=0).startswith("▶️ Alex")
    table = dealt(KOZEL, ["0-1 3-5", "1-1 2-2"], 1, "1-1", restarted=False)
    assert table.match is not None and table.match.round is not None
    table.match.round.lead_tiles = None
    assert leads_text(table, lang, reader=1) == free


@pytest.mark.parametrize(
    ("lang", "forced", "free"),
    [
        ("en", "▶️ Alex leads with [1|1]: the first round starts with 1-1.", "▶️ Alex leads."),
        ("ru", "▶️ Alex заходит с [1|1]: первый раунд начинают с 1-1.", "▶️ Заходит Alex."),
        ("uk", "▶️ Alex заходить з [1|1]: перший раунд починають з 1-1.", "▶️ Заходить Alex."),
    ],
)
def test_the_others_new_deal_says_who_leads(lang: str, forced: str, free: str) -> None:
    """The others' "🃏 New deal" names the leader, with the tile and the rule where the rules
    choose it, in their own language; a free lead, the leader alone."""
    assert leads_text(dealt(KOZEL, ["0-1 3-5", "1-1 2-2"], 1, "1-1"), lang) == forced
    table = dealt(KOZEL, ["0-1 3-5", "1-1 2-2"], 1, "1-1", restarted=False)
    assert table.match is not None and table.match.round is not None
    table.match.round.lead_tiles = None  # a later round: its leader leads what he likes
    assert leads_text(table, lang) == free


@pytest.mark.parametrize(
    ("lang", "other", "leader"),
    [
        (
            "en",
            [
                "▶️ The bot led for Masha, as the rules allow no other lead: [5|5] · <b>+10</b>.",
                "You play next.",
            ],
            [
                "▶️ The bot led for you, as the rules allow no other lead: [5|5] · <b>+10</b>.",
                "Alex plays next.",
            ],
        ),
        (
            "ru",
            [
                "▶️ Бот зашёл за игрока Masha — другого захода правила не дают: [5|5] · <b>+10</b>.",
                "Следующий ход — твой.",
            ],
            [
                "▶️ Бот зашёл за тебя — другого захода правила не дают: [5|5] · <b>+10</b>.",
                "Следующим ходит Alex.",
            ],
        ),
        (
            "uk",
            [
                "▶️ Бот зайшов за гравця Masha — іншого заходу правила не дають: "
                "[5|5] · <b>+10</b>.",
                "Наступний хід — твій.",
            ],
            [
                "▶️ Бот зайшов за тебе — іншого заходу правила не дають: [5|5] · <b>+10</b>.",
                "Наступним ходить Alex.",
            ],
        ),
    ],
)
def test_a_placed_lead_is_told_as_done_with_who_plays_next(
    lang: str, other: list[str], leader: list[str]
) -> None:
    """Bulgarian fives' lead is placed for its leader (§3.8): the other's "🃏 New deal" said
    "▶️ Masha leads." of a lead already down, his turn come. Both say the bot led, for whom,
    with what it scored, and who plays next, in their own language."""
    table = dealt(PRESETS["bulgarian_fives"](), ["5-5 0-1", "2-3 1-4"], 0, "5-5")
    match = table.match
    assert match is not None
    lead = match.placed_lead()
    assert lead is not None
    placed = match.act(0, lead)[0]
    assert isinstance(placed, Played)
    for seat, said in zip(table.seats, (leader, other), strict=True):
        shown = dataclasses.replace(seat, language=lang)
        assert placed_text(table, shown, placed).splitlines() == said
