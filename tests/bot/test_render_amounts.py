"""A round's result says what each side got and from what, so that a player checking it
against the scores finds they add up."""

from __future__ import annotations

import dataclasses
import html
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.render.results import round_result_text
from bot.table import Table
from engine import RuleSet, Tile
from engine.ai import PLAYERS
from engine.events import RoundEnded
from engine.rules import PRESETS
from engine.scoring.sea_goat import SeaState
from engine.selfplay import play_match
from tests.bot.tables import table_of

NAMES = ["Masha", "Alex", "Olya", "Serg"]


def plain(text: str) -> list[str]:
    return html.unescape(text).replace("<b>", "").replace("</b>", "").splitlines()


def round_ends(rules: RuleSet, players: int, pairs: bool, seed: int) -> Iterator[RoundEnded]:
    greedy = [PLAYERS["greedy"]] * players
    for event in play_match(players, pairs, rules, seed, greedy):
        if isinstance(event, RoundEnded):
            yield event


def side_lines(table: Table, ended: RoundEnded) -> dict[int, str]:
    """Each side's line of the result (the one with an arrow), by side."""
    lines = plain(round_result_text(table, ended))
    assert table.match is not None
    return {
        side: next(
            line
            for line in lines
            if line.startswith(f"{table.side_name(side, table.language)}: ") and " → " in line
        )
        for side in range(table.match.sides)
    }


def last_number(line: str) -> int:
    return int(re.findall(r"[+−]?\d+", line)[-1].replace("−", "-"))


@pytest.mark.parametrize(
    ("game", "players", "pairs"),
    [("kozel", 3, False), ("kozel", 4, True), ("pair_kozel_team", 4, True)],
)
def test_every_kozel_result_adds_up_to_the_score(game: str, players: int, pairs: bool) -> None:
    """RULES.md §2.8: when a score opens, the points remembered before are written with the
    round's amount. The result said "Masha: 30 in hand → +30" where the score went from 0 to 38,
    and said nothing when remembered points were wiped. Whole matches, round by round: each
    side's line ends on what its score moved by, or says its points were not written."""
    opened_with_memory = wiped = 0
    for seed in range(6):
        table = table_of(NAMES[:players], pairs=pairs, rules=PRESETS[game]())
        before = [0] * (2 if pairs else players)
        for ended in round_ends(table.rules, players, pairs, seed):
            table.round_ends.append(ended)
            if ended.amounts is None:  # eggs: nothing written
                continue
            for side, line in side_lines(table, ended).items():
                moved = ended.scores[side] - before[side]
                if "remembered" in line and ", and " not in line:
                    assert moved == 0, line
                else:
                    assert last_number(line) == moved, line
                opened_with_memory += ", and " in line
                wiped += "wiped" in line
            before = list(ended.scores)
    assert opened_with_memory and wiped  # the matches did open scores, and wipe memories


def kozel_end(round: int, winner: int, hands: list[list[Tile]], **fields: Any) -> RoundEnded:
    """A Kozel round that ``winner`` ended by going out, no eggs: ``fields`` says the rest
    (``hand_values``, ``amounts``, ``scores``, ``memory``, ``opened``...)."""
    fields.setdefault("pot", 0)
    return RoundEnded(
        round=round,
        result="out",
        winner=winner,
        fisherman=None,
        eggs=False,
        hands=hands,
        **fields,
    )


def opens_with_memory() -> tuple[RoundEnded, RoundEnded]:
    """Kozel, two players: Masha remembered 8 after round 2, and opens her score with 30 in
    round 3; Alex, open at 20, went out and writes nothing."""
    earlier = kozel_end(
        2,
        1,
        [[Tile(3, 5)], []],
        hand_values=[8, 0],
        amounts=[8, 0],
        scores=[0, 20],
        memory=[8, 0],
        opened=[False, True],
    )
    now = kozel_end(
        3,
        1,
        [[Tile(6, 6), Tile(4, 4), Tile(1, 1)], []],
        hand_values=[30, 0],
        amounts=[30, 0],
        scores=[38, 20],
        memory=[0, 0],
        opened=[True, True],
    )
    return earlier, now


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Masha: 30 in hand → +30, and 8 remembered: +38"),
        ("ru", "Masha: на руках 30 → +30 и ещё 8 из памяти: +38"),
        ("uk", "Masha: на руках 30 → +30 і ще 8 з пам’яті: +38"),
    ],
)
def test_a_score_that_opens_says_the_remembered_points_it_adds(lang: str, said: str) -> None:
    """The line said "→ +30" and the score jumped by 38 (RULES.md §2.8)."""
    table = table_of(NAMES[:2], lang=lang)
    earlier, now = opens_with_memory()
    table.round_ends += [earlier, now]
    lines = plain(round_result_text(table, now))
    assert said in lines
    # said once: the score line below says 38, the line of a side that was open says no more
    assert sum("8" in line for line in lines if line.startswith("Masha: ") and "→" in line) == 1


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Masha: 0 in hand → 0; what was remembered (8) is wiped"),
        ("ru", "Masha: на руках 0 → 0; память обнуляется (было 8)"),
        ("uk", "Masha: на руках 0 → 0; пам’ять обнуляється (було 8)"),
    ],
)
def test_remembered_points_wiped_by_a_round_that_writes_nothing_are_said(
    lang: str, said: str
) -> None:
    """The board showed "Masha: 0 (remembered 8)", and after Masha went out just "Masha: 0",
    while her line said "→ +0": the memory is wiped by a round that writes nothing (§2.8). In
    English "the 1 remembered are wiped" did not agree with its number: now it needs none."""
    table = table_of(NAMES[:2], lang=lang)
    earlier, _ = opens_with_memory()
    out = kozel_end(
        3,
        0,
        [[], [Tile(2, 3)]],
        hand_values=[0, 5],
        amounts=[0, 5],
        scores=[0, 25],
        memory=[0, 0],
        opened=[False, True],
    )
    table.round_ends += [earlier, out]
    lines = plain(round_result_text(table, out))
    assert said in lines
    assert any(line.startswith("Alex: ") and line.endswith("→ +5") for line in lines)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "Masha: 10 in hand → 10 more remembered, 18 in all"
            " (a round of 13 or more opens the score)",
        ),
        (
            "ru",
            "Masha: на руках 10 → ещё 10 запомнено, всего в памяти 18"
            " (счёт открывает раунд на 13 и больше)",
        ),
        (
            "uk",
            "Masha: на руках 10 → ще 10 запам’ятано, усього в пам’яті 18"
            " (рахунок відкриває раунд на 13 і більше)",
        ),
    ],
)
def test_points_remembered_on_top_of_others_say_the_total_the_board_shows(
    lang: str, said: str
) -> None:
    """The line said "10 remembered" and the board just below "(remembered 18)"."""
    table = table_of(NAMES[:2], lang=lang)
    earlier, _ = opens_with_memory()
    more = kozel_end(
        3,
        1,
        [[Tile(4, 6)], []],
        hand_values=[10, 0],
        amounts=[10, 0],
        scores=[0, 20],
        memory=[18, 0],
        opened=[False, True],
    )
    table.round_ends += [earlier, more]
    assert said in plain(round_result_text(table, more))


def test_kozel_writes_0_for_a_side_that_wrote_nothing_as_the_fives_games_do() -> None:
    """Kozel wrote "→ +0" for the player who went out, Muggins "→ 0" for its losers."""
    kozel = table_of(NAMES[:2])
    _, now = opens_with_memory()
    assert "Alex: 0 in hand → 0" in plain(round_result_text(kozel, now))


def scoring_end(
    winner: int, hands: list[list[Tile]], values: list[int], amounts: list[int]
) -> RoundEnded:
    """Round 2 of a scoring game, which ``winner`` won: going out if his hand is empty, else
    at a block made by seat 1 (seat 0 where he is 1); the scores are no matter."""
    out = not hands[winner]
    return RoundEnded(
        round=2,
        result="out" if out else "fish",
        winner=winner,
        fisherman=None if out else 1 - winner % 2,
        hands=hands,
        hand_values=values,
        amounts=amounts,
        scores=[30, 40],
    )


def muggins_pair_out(game: str = "muggins") -> RoundEnded:
    """Masha (seat 0) went out; her partner Olya holds 21, the opponents 6 and 5: a Muggins
    bonus of round5(11) / 5 = 2 (RULES.md §3.6), the partner's hand ignored."""
    hands = [[], [Tile(1, 5)], [Tile(6, 6), Tile(4, 5)], [Tile(2, 3)]]
    return scoring_end(0, hands, [21, 11], [2, 0])


@pytest.mark.parametrize(
    ("lang", "winners", "losers"),
    [
        (
            "en",
            "Masha and Olya: the opponents hold 11, rounded to 10, divided by 5 → +2",
            "Alex and Serg: 11 in hand → 0",
        ),
        (
            "ru",
            "Masha и Olya: у соперников на руках 11, округляем до 10, делим на 5 → +2",
            "Alex и Serg: на руках 11 → 0",
        ),
        (
            "uk",
            "Masha і Olya: у суперників на руках 11, округлюємо до 10, ділимо на 5 → +2",
            "Alex і Serg: на руках 11 → 0",
        ),
    ],
)
def test_a_winning_pair_is_paid_from_the_opponents_hands(
    lang: str, winners: str, losers: str
) -> None:
    """The pair that went out read "Masha & Olya: 21 in hand → +2": Olya's 21, which the rules
    ignore, where the 2 came from the opponents' 11 (RULES.md §3.6)."""
    table = table_of(NAMES, pairs=True, lang=lang, rules=PRESETS["muggins"]())
    lines = plain(round_result_text(table, muggins_pair_out()))
    assert winners in lines and losers in lines


def test_a_pair_that_wins_a_block_has_only_the_winners_hand_taken_off() -> None:
    """At a block the Muggins winner's own hand comes off the opponents' (§3.6), not his
    partner's."""
    hands = [[Tile(6, 6)], [Tile(5, 6)], [Tile(0, 1)], [Tile(4, 6)]]
    block = scoring_end(2, hands, [13, 21], [4, 0])
    table = table_of(NAMES, pairs=True, rules=PRESETS["muggins"]())
    lines = plain(round_result_text(table, block))
    said = "Masha and Olya: the opponents hold 21, less 1 in Olya's hand: 20, divided by 5 → +4"
    assert said in lines


@pytest.mark.parametrize(
    ("game", "result", "said"),
    [
        ("english_fives", "out", "Alex: for going out → +10"),
        (
            "english_fives",
            "fish",
            "Alex: the opponent holds 18, less own 1: 17, rounded to 15 → +15",
        ),
        ("bulgarian_fives", "out", "Alex: the opponent holds 18, rounded down to 15 → +15"),
        (
            "bulgarian_fives",
            "fish",
            "Alex: the opponent holds 18, rounded down to 15, less own 1 → +14",
        ),
        ("telephone", "out", "Alex: the opponent holds 18, rounded up to 20, divided by 5 → +4"),
        ("traditional", "out", "Alex: the opponent holds 18 → +18"),
        ("traditional", "fish", "Alex: the opponent holds 18, less own 1 → +17"),
        ("all_threes", "out", "Alex: the opponent holds 18, divided by 3 → +6"),
        (
            "all_threes",
            "fish",
            "Alex: the opponent holds 18, less own 1: 17, rounded to 18, divided by 3 → +6",
        ),
        ("muggins_full", "fish", "Alex: the opponent holds 18, rounded to 20 → +20"),
    ],
)
def test_each_scoring_games_winner_says_what_he_was_paid_from(
    game: str, result: str, said: str
) -> None:
    """The line "Alex: 1 in hand → +15" named the winner's own hand, where he was paid from his
    opponent's (§3.1, §3.4, §3.7-§3.9); the loser's line says his own hand, as before. And it
    says the rounding and the division the game's rules apply, where "the opponent holds 18 →
    +4" left the player to guess how 18 became 4."""
    table = table_of(NAMES[:2], rules=rules_of(game))
    lines = plain(round_result_text(table, bonus_end(result, said)))
    assert said in lines
    assert "Masha: 18 in hand → 0" in lines


def rules_of(game: str) -> RuleSet:
    """A preset's rules; "muggins_full": Muggins with the opponents' pips paid in full."""
    if game == "muggins_full":
        return PRESETS["muggins"]().with_options(muggins_bonus="full")
    return PRESETS[game]()


def bonus_end(result: str, said: str) -> RoundEnded:
    """Alex (seat 1) won against Masha's 18: went out, or blocked holding 1; he scored the
    amount at the end of the line ``said``."""
    hands = [[Tile(6, 4), Tile(5, 3)], [] if result == "out" else [Tile(0, 1)]]
    amount = int(said.rsplit("+", 1)[1])
    return scoring_end(1, hands, [18, 0 if result == "out" else 1], [0, amount])


@pytest.mark.parametrize(
    ("lang", "game", "result", "said"),
    [
        (
            "ru",
            "telephone",
            "out",
            "Alex: у соперника на руках 18, округляем вверх до 20, делим на 5 → +4",
        ),
        (
            "uk",
            "telephone",
            "out",
            "Alex: у суперника на руках 18, округлюємо вгору до 20, ділимо на 5 → +4",
        ),
        (
            "ru",
            "bulgarian_fives",
            "fish",
            "Alex: у соперника на руках 18, округляем вниз до 15, минус свои 1 → +14",
        ),
        (
            "uk",
            "bulgarian_fives",
            "fish",
            "Alex: у суперника на руках 18, округлюємо вниз до 15, мінус свої 1 → +14",
        ),
        (
            "ru",
            "english_fives",
            "fish",
            "Alex: у соперника на руках 18, минус свои 1: 17, округляем до 15 → +15",
        ),
        (
            "uk",
            "english_fives",
            "fish",
            "Alex: у суперника на руках 18, мінус свої 1: 17, округлюємо до 15 → +15",
        ),
    ],
)
def test_the_rounding_is_said_in_every_language(
    lang: str, game: str, result: str, said: str
) -> None:
    table = table_of(NAMES[:2], lang=lang, rules=rules_of(game))
    assert said in plain(round_result_text(table, bonus_end(result, said)))


def test_the_ukrainian_telephones_write_offs_are_each_sides_own() -> None:
    """Nobody is paid in the Telephone to 225 (§3.5): each side writes off its own hand."""
    ended = scoring_end(1, [[Tile(6, 4), Tile(5, 3)], []], [18, 0], [-15, 0])
    table = table_of(NAMES[:2], rules=PRESETS["telephone_ua"]())
    lines = plain(round_result_text(table, ended))
    assert "Masha: 18 in hand → −15" in lines and "Alex: 0 in hand → 0" in lines


def test_a_ukrainian_telephone_partners_lone_0_0_is_not_said_ignored() -> None:
    """The pairs of the Telephone to 225 write off both hands together (§3.5), the partner's of
    the one who went out too: a partner left with [0|0] alone (0 pips) read "went out, the
    partner's tiles do not count", where the round before his [6|6] had cost his pair 10."""
    hands = [[], [Tile(1, 4)], [Tile(0, 0)], [Tile(2, 3)]]
    ended = dataclasses.replace(scoring_end(0, hands, [0, 10], [0, -10]), scores=[40, 30])
    table = table_of(NAMES, pairs=True, rules=PRESETS["telephone_ua"]())
    lines = plain(round_result_text(table, ended))
    assert "Masha and Olya: 0 in hand → 0" in lines
    assert not any("do not count" in line for line in lines)


@pytest.mark.parametrize(
    ("game", "players", "pairs"),
    [
        ("muggins", 4, True),
        ("muggins", 3, False),
        ("all_threes", 2, False),
        ("traditional", 4, True),
        ("telephone", 3, False),
        ("english_fives", 4, False),
        ("bulgarian_fives", 2, False),
    ],
)
def test_a_played_rounds_winner_is_paid_from_the_others_hands(
    game: str, players: int, pairs: bool
) -> None:
    """Whole matches: the winner's line names what the others held, never his own hand, and
    each step it says (his own taken off, the rounding, the division) leads to his amount."""
    table = table_of(NAMES[:players], pairs=pairs, rules=PRESETS[game]())
    assert table.match is not None
    paid = 0
    for ended in round_ends(table.rules, players, pairs, seed=5):
        if ended.winner is None:
            continue
        side = table.match.side_of(ended.winner)
        line = side_lines(table, ended)[side]
        others = sum(v for other, v in enumerate(ended.hand_values) if other != side)
        assert "in hand →" not in line, line
        if "going out" not in line:
            assert re.search(rf"holds? {others}\b", line), line
            assert worked_out(line) == last_number(line), line
        paid += 1
    assert paid


def worked_out(line: str) -> int:
    """The amount a player reckons from the steps an English winner's line says, in order:
    "the opponents hold 29, less 3 in Olya's hand: 26, rounded to 25, divided by 5 → +5"."""
    steps = line.split(" → ", maxsplit=1)[0].split(": ", 1)[1]
    count = 0
    for step in re.split(r", |: ", steps):
        number = int(re.findall(r"\d+", step)[-1])
        if "hold" in step:
            count = number
        elif step.startswith("less"):
            count -= number
        elif step.startswith("rounded"):
            assert abs(number - count) < 5, step
            count = number
        elif step.startswith("divided by"):
            assert count % number == 0, step
            count //= number
        else:  # what the count came to, before it is rounded or divided
            assert int(step) == count, step
    return count


@pytest.mark.parametrize(
    ("lang", "pairs", "said"),
    [
        ("en", False, "Alex takes the eggs: 20 of the 25."),
        ("en", True, "Alex and Serg take the eggs: 20 of the 25."),
        ("ru", False, "Alex забирает яйца: 20 из 25."),
        ("uk", True, "Alex і Serg забирають яйця: 20 з 25."),
    ],
)
def test_the_eggs_taken_say_how_much_of_the_amount_they_were(
    lang: str, pairs: bool, said: str
) -> None:
    """ "Alex: 5 in hand → +25" and "Alex takes the eggs." left the group to recall the 20 in the
    pot, a round ago (RULES.md §2.7.4)."""
    names = NAMES if pairs else NAMES[:2]
    eggs = RoundEnded(
        round=7,
        result="fish",
        winner=None,
        fisherman=0,
        eggs=True,
        hands=[[Tile(1, 1), Tile(4, 4)], [Tile(0, 0)], [], []][: len(names)],
        hand_values=[10, 10],
        amounts=None,
        scores=[56, 24],
        memory=[0, 0],
        opened=[True, True],
        pot=20,
    )
    taken = kozel_end(
        8,
        0,
        [[], [Tile(2, 3)], [Tile(1, 1)], []][: len(names)],
        hand_values=[0, 5],
        amounts=[0, 25],
        scores=[56, 49],
        memory=[0, 0],
        opened=[True, True],
        pot_awarded_to=1,
    )
    table = table_of(names, pairs=pairs, lang=lang)
    table.round_ends += [eggs, taken]
    assert said in plain(round_result_text(table, taken))


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "🎯 Special doubles (6-6 or 0-0 led, or laid last): +50 to each who lost the round.",
        ),
        (
            "ru",
            "🎯 Особые дубли (6-6 или 0-0 в заходе или последним ходом): +50 каждому, "
            "кто проиграл раунд.",
        ),
        (
            "uk",
            "🎯 Особливі дублі (6-6 або 0-0 на заході чи останнім ходом): +50 кожному, "
            "хто програв раунд.",
        ),
    ],
)
def test_the_special_doubles_bonus_is_said(lang: str, said: str) -> None:
    """Pair Kozel with special bones (RULES.md §2.7.5): "Alex & Serg: 16 in hand → +66" left
    the 50 for a 6-6 led or laid last unexplained."""
    ended = kozel_end(
        1,
        2,
        [[Tile(1, 4)], [Tile(1, 1)], [], [Tile(0, 5), Tile(3, 5)]],
        hand_values=[0, 16],
        amounts=[0, 66],
        scores=[0, 66],
        memory=[0, 0],
        opened=[False, True],
    )
    table = table_of(NAMES, pairs=True, lang=lang, rules=PRESETS["pair_kozel_team"]())
    lines = plain(round_result_text(table, ended))
    assert said in lines
    plain_kozel = table_of(NAMES, pairs=True, lang=lang)
    assert said not in plain(round_result_text(plain_kozel, ended))


def sea_goat_win(
    round: int, pot: int, outcome: str | None = None, amount: int = 35, holds: int = 35
) -> RoundEnded:
    """Sea Goat, two players: Alex went out and wrote ``amount``, Masha's hand is worth
    ``holds``; ``pot``: the eggs it carries to the next round."""
    return RoundEnded(
        round=round,
        result="out",
        winner=1,
        fisherman=None,
        hands=[[Tile(6, 6), Tile(5, 6), Tile(1, 1)], []],
        hand_values=[holds, 0],
        amounts=[0, amount],
        scores=[0, amount],
        outcome=outcome,
        sea=SeaState(pot=pot).to_dict(),
    )


@pytest.mark.parametrize(
    ("lang", "said", "with_eggs"),
    [
        (
            "en",
            "Alex: the opponent holds 35 → +35",
            "Alex: the opponent holds 35, plus the eggs: 20 → +55",
        ),
        (
            "ru",
            "Alex: у соперника на руках 35 → +35",
            "Alex: у соперника на руках 35, плюс яйца: 20 → +55",
        ),
        (
            "uk",
            "Alex: у суперника на руках 35 → +35",
            "Alex: у суперника на руках 35, плюс яйця: 20 → +55",
        ),
    ],
)
def test_sea_goats_winner_says_he_collects_the_losers_hands(
    lang: str, said: str, with_eggs: str
) -> None:
    """Sea Goat's winner collects (RULES.md §3.2.1 rule 1): "Alex: 0 in hand → +35" named his
    empty hand. The eggs carried in join the hands (§3.2.5): "0 in hand → +55" left the 20
    unexplained. A win that writes every score off collected the hands all the same."""
    table = table_of(NAMES[:2], lang=lang, rules=PRESETS["sea_goat"]())
    plain_win = sea_goat_win(2, pot=0)
    table.round_ends += [sea_goat_win(1, pot=0), plain_win]
    assert said in plain(round_result_text(table, plain_win))
    after_eggs = sea_goat_win(4, pot=0, amount=55)
    table.round_ends += [sea_goat_win(3, pot=20), after_eggs]
    assert with_eggs in plain(round_result_text(table, after_eggs))
    written_off = sea_goat_win(5, pot=0, outcome="writeoff", amount=0)
    written_off = dataclasses.replace(written_off, amounts=[-55, 0])  # Masha held the 55
    assert said.replace("+35", "0") in plain(round_result_text(table, written_off))


def test_a_sea_goat_match_won_at_once_shows_no_hands_arithmetic() -> None:
    """Out on 0-0 or 6-6 wins the match at once (§3.2.2) and records nothing: the winner
    collected no hands, so no line says "the opponent holds 35 → 0"; nor "Alex: 0 in hand → 0",
    which said nothing: the note says how the match was won, and the score follows."""
    table = table_of(NAMES[:2], rules=PRESETS["sea_goat"]())
    won = sea_goat_win(2, pot=20, outcome="instant_win", amount=0)
    table.round_ends += [sea_goat_win(1, pot=20), won]
    lines = plain(round_result_text(table, won))
    assert not any("holds" in line or "in hand →" in line for line in lines)
    note = lines.index("⚡ Out on 0-0 or 6-6: the match is won at once!")
    assert lines[note + 1 :] == [
        "",
        "Masha: [6|6][5|6][1|1]",
        "Alex: —",
        "",
        "Score:",
        "Masha: 0 of 125",
        "Alex: 0 of 125",
        "🥚 Eggs in the pot: 20",
    ]


@pytest.mark.parametrize(
    ("lang", "said", "written_off"),
    [
        (
            "en",
            "💯 The round played na sto (“for a hundred”) is lost: every score is written off.",
            "Masha: the score of 40 is written off → −40",
        ),
        ("ru", "💯 Раунд на сто проигран: всё списано.", "Masha: счёт 40 списан → −40"),
        ("uk", "💯 Раунд на сто програно: усе списано.", "Masha: рахунок 40 списано → −40"),
    ],
)
def test_a_lost_na_sto_says_what_was_written_off_not_0_in_hand_to_0(
    lang: str, said: str, written_off: str
) -> None:
    """Masha held 40 and led 6-6 "на сто"; Alex went out (RULES.md §3.2.1 rule 7): every score
    is written off. The result read "Alex: на руках 0 → 0" and "Masha: на руках 35 → −40",
    arithmetic that added up to nothing; it says what was written off, and no more."""
    table = table_of(NAMES[:2], lang=lang, rules=PRESETS["sea_goat"]())
    lost = dataclasses.replace(
        sea_goat_win(3, pot=0, outcome="na_sto_lost", amount=0), amounts=[-40, 0]
    )
    table.round_ends += [sea_goat_win(1, pot=0), sea_goat_win(2, pot=0, amount=5), lost]
    lines = plain(round_result_text(table, lost))
    assert said in lines
    assert [line for line in lines if "→" in line] == [written_off]


def test_eggs_carried_in_count_toward_the_25_that_starts_a_record() -> None:
    """With no holder, 25 starts the record (§3.2.1 rule 3), the eggs carried in counted: 14
    in hand and 10 in the pot are 24, which the note said was 14."""
    table = table_of(NAMES[:2], rules=PRESETS["sea_goat"]())
    short = sea_goat_win(2, pot=0, amount=0, holds=14)
    table.round_ends += [sea_goat_win(1, pot=10, amount=0), short]
    lines = plain(round_result_text(table, short))
    assert "📝 24 is under 25: nothing is recorded." in lines
    assert "Alex: the opponent holds 14, plus the eggs: 10 → 0" in lines


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Masha: 18 in hand → −5, down to 0 (never below zero)"),
        ("ru", "Masha: на руках 18 → −5, до 0 (ниже нуля не бывает)"),
        ("uk", "Masha: на руках 18 → −5, до 0 (нижче нуля не буває)"),
    ],
)
def test_a_write_off_that_stops_at_zero_says_so(lang: str, said: str) -> None:
    """The Ukrainian Telephone writes off floor5 of the pips held, never below 0 (RULES.md
    §3.5): with 5 to lose, "18 in hand → −5" read as a miscount of 15."""
    ended = scoring_end(1, [[Tile(6, 4), Tile(5, 3)], []], [18, 0], [-5, 0])
    ended = dataclasses.replace(ended, scores=[0, 40])
    table = table_of(NAMES[:2], lang=lang, rules=PRESETS["telephone_ua"]())
    assert said in plain(round_result_text(table, ended))


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Masha: 24 in hand → 0: the score is 0, nothing to write off"),
        ("ru", "Masha: на руках 24 → 0: счёт 0, списывать нечего"),
        ("uk", "Masha: на руках 24 → 0: рахунок 0, списувати нічого"),
    ],
)
def test_a_write_off_from_a_score_of_zero_says_there_was_nothing_to_write_off(
    lang: str, said: str
) -> None:
    """The Ukrainian Telephone writes off floor5 of the pips held (RULES.md §3.5): a side
    whose score was 0 read "24 in hand → 0", as if its 20 had been forgotten. A hand under 5
    has nothing to write off whatever the score, and reads as before."""
    ended = scoring_end(1, [[Tile(6, 6), Tile(6, 6)], [Tile(1, 2)]], [24, 3], [0, 0])
    ended = dataclasses.replace(ended, scores=[0, 0])
    table = table_of(NAMES[:2], lang=lang, rules=PRESETS["telephone_ua"]())
    lines = plain(round_result_text(table, ended))
    assert said in lines
    assert ("Alex: 3 in hand → 0" if lang == "en" else "Alex: на руках 3 → 0") in lines


@pytest.mark.parametrize(
    ("lang", "why"),
    [
        ("en", " (a round of 13 or more opens the score)"),
        ("ru", " (счёт открывает раунд на 13 и больше)"),
        ("uk", " (рахунок відкриває раунд на 13 і більше)"),
    ],
)
def test_why_points_are_remembered_is_said_once_a_result(lang: str, why: str) -> None:
    """Three players who each kept under 13 read the same "(a round of 13 or more opens the
    score)" three times in a row: now the first of their lines says it."""
    table = table_of(NAMES, lang=lang)
    first = kozel_end(
        1,
        3,
        [[Tile(4, 6)], [Tile(2, 3)], [Tile(0, 5)], []],
        hand_values=[10, 5, 5, 0],
        amounts=[10, 5, 5, 0],
        scores=[0, 0, 0, 0],
        memory=[10, 5, 5, 0],
        opened=[False] * 4,
    )
    table.round_ends.append(first)
    lines = side_lines(table, first)
    assert lines[0].endswith(why)
    assert not any(why in lines[side] for side in (1, 2, 3))
    assert "".join(plain(round_result_text(table, first))).count(why) == 1
