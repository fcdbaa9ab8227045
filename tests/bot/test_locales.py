"""The catalogs in ``bot/locales``: complete, consistent with English, valid Telegram HTML."""

from __future__ import annotations

import ast
import html
import re
import string
import tomllib
from html.parser import HTMLParser
from pathlib import Path
from typing import get_args, get_type_hints

import pytest

from bot.games import OFFERED, chooser, who_plays
from bot.handlers.info import help_text
from bot.i18n import FALLBACK, LANGUAGES, _flatten, catalog, plural, section, t
from bot.render.lobby import TABLE_SETTINGS, choices
from bot.render.summary import value_key
from bot.table import Recent
from engine import errors
from engine.games import GAMES
from engine.layout import End
from tests.bot.summaries import usual_summary

BOT = Path(__file__).resolve().parents[2] / "bot"
LOCALES = BOT / "locales"
FORMS = {"en": ("one", "many")}
SLAVIC_FORMS = ("one", "few", "many")
ALLOWED_TAGS = {"b", "i", "u", "s", "code", "pre", "a"}
ENTITY = re.compile(r"&(?:lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")
TAG = re.compile(r"</?[a-z]+(?:\s[^<>]*)?>")


def forms(lang: str) -> tuple[str, ...]:
    return FORMS.get(lang, SLAVIC_FORMS)


def raw(lang: str) -> dict[str, object]:
    with (LOCALES / f"{lang}.toml").open("rb") as fh:
        return tomllib.load(fh)


def plural_tables(table: dict[str, object], prefix: str = "") -> set[str]:
    """Dotted names of the tables that hold plural forms (English: exactly one/many)."""
    found: set[str] = set()
    for key, value in table.items():
        if isinstance(value, dict):
            if set(value) == set(FORMS["en"]):
                found.add(f"{prefix}{key}")
            else:
                found |= plural_tables(value, f"{prefix}{key}.")
    return found


PLURALS = plural_tables(raw(FALLBACK))
ENGLISH = _flatten(raw(FALLBACK))


def expected_keys(lang: str) -> set[str]:
    keys = {k for k in ENGLISH if k.rpartition(".")[0] not in PLURALS}
    keys |= {f"{table}.{form}" for table in PLURALS for form in forms(lang)}
    return keys


def english_for(key: str) -> str | None:
    """The English value a translation of ``key`` must match (``few`` follows ``many``)."""
    table, _, form = key.rpartition(".")
    if form == "few" and table in PLURALS:
        key = f"{table}.many"
    return ENGLISH.get(key)  # None: an extra key, which test_same_keys_as_english reports


def placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def dummy(text: str) -> str:
    return text.format(**{name: f"V{i}" for i, name in enumerate(sorted(placeholders(text)))})


class TelegramHtml(HTMLParser):
    """Collects problems: tags Telegram does not know, and unbalanced ones."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ALLOWED_TAGS:
            self.problems.append(f"tag <{tag}> is not allowed")
        if tag == "a" and not any(name == "href" for name, _ in attrs):
            self.problems.append("<a> without href")
        self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.problems.append(f"self-closing <{tag}/>")

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()


def html_problems(text: str) -> list[str]:
    problems = []
    bare = TAG.sub("", ENTITY.sub("", text))
    if "<" in bare or ">" in bare:
        problems.append("a bare < or > outside a tag")
    if "&" in bare:
        problems.append("a bare & outside an entity")
    parser = TelegramHtml()
    parser.feed(text)
    parser.close()
    problems += parser.problems
    problems += [f"<{tag}> is never closed" for tag in parser.stack]
    return problems


def test_english_has_plural_tables() -> None:
    assert {"board.tiles", "board.bazaar"} <= PLURALS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_same_keys_as_english(lang: str) -> None:
    keys = set(catalog(lang))
    expected = expected_keys(lang)
    assert (sorted(expected - keys), sorted(keys - expected)) == ([], []), "(missing, extra)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_empty_values(lang: str) -> None:
    assert [k for k, v in catalog(lang).items() if not v.strip()] == []


def same_placeholders(lang: str, key: str, value: str) -> bool:
    """Whether ``value``, the message ``key``, fills English's placeholders. A plural form fills
    its ``many`` form's, the count included (Russian's ``one`` also says 21 and 31), but English's
    ``one`` may say its count in words ("once", "a tile")."""
    found = placeholders(value)
    table, _, form = key.rpartition(".")
    if table not in PLURALS:
        return key not in ENGLISH or found == placeholders(ENGLISH[key])
    if (lang, form) == (FALLBACK, "one"):
        found.add("count")
    return found == placeholders(ENGLISH[f"{table}.many"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_same_placeholders_as_english(lang: str) -> None:
    wrong = [key for key, value in catalog(lang).items() if not same_placeholders(lang, key, value)]
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_values_are_telegram_html(lang: str) -> None:
    bad = {key: html_problems(dummy(value)) for key, value in catalog(lang).items()}
    assert {key: found for key, found in bad.items() if found} == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_same_tags_as_english(lang: str) -> None:
    def tags(text: str) -> list[str]:
        return sorted(re.findall(r"</?([a-z]+)", text))

    wrong = []
    for key, value in catalog(lang).items():
        english = english_for(key)
        if english is not None and tags(value) != tags(english):
            wrong.append(key)
    assert wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_command_descriptions_fit_telegram(lang: str) -> None:
    commands = {k: v for k, v in catalog(lang).items() if k.startswith("commands.")}
    assert commands
    assert {k: v for k, v in commands.items() if not 3 <= len(v) <= 256} == {}


def test_language_names() -> None:
    names = {lang: catalog(lang)["language.name"] for lang in LANGUAGES}
    assert names["ru"] == "🇷🇺 Русский"
    assert names["uk"] == "🇺🇦 Українська"
    assert len(set(names.values())) == len(LANGUAGES)


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (1, "1 камень"),
        (2, "2 камня"),
        (5, "5 камней"),
        (11, "11 камней"),
        (12, "12 камней"),
        (21, "21 камень"),
        (22, "22 камня"),
        (25, "25 камней"),
        (111, "111 камней"),
    ],
)
def test_russian_plural(count: int, expected: str) -> None:
    assert plural("ru", "board.tiles", count) == expected


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, "1 камінь"), (3, "3 камені"), (14, "14 каменів"), (21, "21 камінь"), (0, "0 каменів")],
)
def test_ukrainian_plural(count: int, expected: str) -> None:
    assert plural("uk", "board.tiles", count) == expected


@pytest.mark.parametrize(("count", "expected"), [(1, "1 tile"), (2, "2 tiles"), (0, "0 tiles")])
def test_english_plural(count: int, expected: str) -> None:
    assert plural("en", "board.tiles", count) == expected


@pytest.mark.parametrize(
    ("key", "lang", "count", "expected"),
    [
        ("hand.knocked", "en", 1, "You knocked once: nothing fitted."),
        ("hand.knocked", "en", 3, "You knocked 3 times: nothing fitted."),
        ("hand.knocked", "ru", 1, "Пришлось постучать 1 раз: ходить было нечем."),
        ("hand.knocked", "ru", 3, "Пришлось постучать 3 раза: ходить было нечем."),
        ("hand.knocked", "ru", 5, "Пришлось постучать 5 раз: ходить было нечем."),
        ("hand.knocked", "uk", 1, "Довелося постукати 1 раз: ходити було нічим."),
        ("hand.knocked", "uk", 3, "Довелося постукати 3 рази: ходити було нічим."),
        ("hand.knocked", "uk", 5, "Довелося постукати 5 разів: ходити було нічим."),
        ("board.recent.drew", "en", 1, "Masha drew a tile from the bazaar"),
        ("board.recent.drew", "en", 4, "Masha drew 4 tiles from the bazaar"),
        ("board.recent.drew", "ru", 2, "Masha берёт с базара 2 камня"),
        ("board.recent.drew", "uk", 5, "Masha бере з базару 5 каменів"),
    ],
)
def test_a_count_of_knocks_and_draws_reads_in_words(
    key: str, lang: str, count: int, expected: str
) -> None:
    """The DM said "You knocked ×1" / "Стук ×3", the board "Masha drew from the bazaar ×4": a
    count reads as the language says it."""
    assert plural(lang, key, count, name="Masha") == expected


# --- every key the code asks for exists -------------------------------------------------------

SOURCES = sorted(p for p in BOT.rglob("*.py"))
SECTIONS = {key.split(".")[0] for key in ENGLISH}
LITERAL = re.compile(r"""["']([a-z_]+(?:\.[a-z0-9_]+)+)["']""")
FSTRING_PREFIX = re.compile(r"""\bf["']([a-z_]+\.[a-z0-9_.]*)\{""")


def used_literals() -> set[str]:
    found: set[str] = set()
    for path in SOURCES:
        for key in LITERAL.findall(path.read_text(encoding="utf-8")):
            if key.split(".")[0] in SECTIONS:
                found.add(key)
    return found


def used_prefixes() -> set[str]:
    found: set[str] = set()
    for path in SOURCES:
        found.update(FSTRING_PREFIX.findall(path.read_text(encoding="utf-8")))
    return found


def module_tuple(path: Path, name: str) -> tuple[str, ...]:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return value
    raise AssertionError(f"{name} not found in {path}")


def illegal_action_codes() -> set[str]:
    codes: set[str] = set()
    pending: list[type[errors.IllegalAction]] = [errors.IllegalAction]
    while pending:
        cls = pending.pop()
        codes.add(cls.code)
        pending.extend(cls.__subclasses__())
    return codes


def has(lang: str, key: str) -> bool:
    keys = catalog(lang)
    return key in keys or all(f"{key}.{form}" in keys for form in forms(lang))


def test_the_scan_finds_keys() -> None:
    literals, prefixes = used_literals(), used_prefixes()
    assert {"help.text", "err.unknown_button", "board.tiles"} <= literals
    assert {"err.", "board.recent.", "rules.", "commands.", "hand.on_"} <= prefixes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_literal_keys_exist(lang: str) -> None:
    assert sorted(k for k in used_literals() if not has(lang, k)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_dynamic_prefixes_exist(lang: str) -> None:
    keys = catalog(lang)
    assert sorted(p for p in used_prefixes() if not any(k.startswith(p) for k in keys)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_error_codes_have_messages(lang: str) -> None:
    codes = illegal_action_codes()
    assert len(codes) > 5
    assert sorted(c for c in codes if f"err.{c}" not in catalog(lang)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rule_choice_is_described(lang: str) -> None:
    keys = catalog(lang)
    missing = [
        f"rules.{name}.{value_key(value)}"
        for game in OFFERED
        for name in (*TABLE_SETTINGS, *GAMES[game].settable)
        for value in choices(name, game)
        if f"rules.{name}.{value_key(value)}" not in keys and f"rules.{name}.other" not in keys
    ]
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_recent_kinds_and_hand_ends(lang: str) -> None:
    kinds = set(get_args(get_type_hints(Recent)["kind"]))
    assert kinds >= {"played", "knocked", "drew"}
    assert sorted(k for k in kinds if not has(lang, f"board.recent.{k}")) == []
    assert {f"hand.on_{end}" for end in get_args(End)} <= set(catalog(lang))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_is_named_described_and_explained(lang: str) -> None:
    keys = catalog(lang)
    wanted = {f"game.{game}" for game in chooser()}
    wanted |= {f"players.{who_plays(game)}" for game in chooser()}
    assert sorted(wanted - set(keys)) == []
    # /rules' summary, a line a key: some lines whatever the table plays (bot/render/summary.py)
    lines = {game: section(lang, f"games.{game}.summary") for game in chooser()}
    assert [game for game, names in lines.items() if all("." in name for name in names)] == []
    # the chooser's and the lobby's line, a sentence a key: some of it at every table
    for game in chooser():
        assert section(lang, f"games.{game}.about"), game


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bot_commands_have_descriptions(lang: str) -> None:
    app = BOT / "menus.py"
    names = {*module_tuple(app, "GROUP_COMMANDS"), *module_tuple(app, "PRIVATE_COMMANDS")}
    assert names
    assert sorted(n for n in names if f"commands.{n}" not in catalog(lang)) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_formats(lang: str) -> None:
    """``t`` fills every message with its placeholders and the result stays valid HTML."""
    for key, value in catalog(lang).items():
        values = {name: "<&>" for name in placeholders(value)}
        text = t(lang, key, **values)
        assert html_problems(text) == [], key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_lists_every_command_of_the_menus(lang: str) -> None:
    app = BOT / "menus.py"
    names = {*module_tuple(app, "GROUP_COMMANDS"), *module_tuple(app, "PRIVATE_COMMANDS")}
    listed = set(re.findall(r"/([a-z]+)", catalog(lang)["help.text"]))
    assert sorted(names - listed - {"start", "help"}) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_dms_help_lists_every_command_of_the_dms_menu(lang: str) -> None:
    """Each command of the DM's menu has a line of its own in the DM's /help."""
    names = set(module_tuple(BOT / "menus.py", "PRIVATE_COMMANDS"))
    listed = set(re.findall(r"^/([a-z]+) —", catalog(lang)["help.private"], re.M))
    assert sorted(names - listed - {"start"}) == []


# --- names are shown as typed -------------------------------------------------------------------

#: Prepositions that put the word after them in a case other than the nominative.
DECLINING = {
    "ru": ("у", "на", "к", "от", "для", "с", "о", "об", "про", "без", "при"),
    "uk": ("у", "в", "на", "до", "від", "для", "з", "із", "зі", "про", "без", "при"),
}


@pytest.mark.parametrize("lang", sorted(DECLINING))
def test_a_name_never_follows_a_preposition_that_declines_it(lang: str) -> None:
    """A player's name is shown as typed, in the nominative: "у Олег", "на Олег" read wrong, so
    a preposition that needs another case never stands right before a name."""
    before = "|".join(DECLINING[lang])
    name = re.compile(rf"(?<!\w)(?:{before}) \{{(?:name|names|opener)\}}", re.IGNORECASE)
    assert {k: v for k, v in catalog(lang).items() if name.search(v)} == {}


@pytest.mark.parametrize("lang", sorted(DECLINING))
def test_a_games_name_never_follows_a_preposition_that_declines_it(lang: str) -> None:
    """A game's name is shown in the nominative too: "В «Английская пятёрка» играют" reads
    wrong, where "в игру «Английская пятёрка»" reads right (a name that is feminine or
    animate, «Козёл», changes after «в» as well)."""
    before = "|".join((*DECLINING[lang], "в", "у"))
    game = re.compile(rf"(?<!\w)(?:{before}) «?\{{game\}}", re.IGNORECASE)
    assert {k: v for k, v in catalog(lang).items() if game.search(v)} == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_help_names_every_game_the_lobby_offers(lang: str) -> None:
    """/help named Telephone, Muggins, All Threes and the two Fives as the lobby's other games,
    long after Donkey, Sea Goat, Traditional, General's Goat and Sport domino joined them."""
    shown = html.unescape(help_text(lang))
    assert [game for game in chooser() if catalog(lang)[f"game.{game}"] not in shown] == []


#: The Russian an English text may show: the game's own name, glossed where /help gives it.
GLOSSED_NAMES = {"Козёл"}


def test_an_english_player_reads_no_cyrillic_but_the_games_glossed_name() -> None:
    """Sea Goat's "на сто" stood in Cyrillic on the English board, results and rules, which an
    English-speaking player cannot read: it is "na sto", said once what it means."""
    cyrillic = re.compile(r"[\u0400-\u04ff]+")
    found = {key: set(cyrillic.findall(value)) - GLOSSED_NAMES for key, value in ENGLISH.items()}
    assert {key: words for key, words in found.items() if words} == {}
    assert '(Козёл, "Goat")' in ENGLISH["help.text"]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("ru", "Ты больше не за столом; теперь твоими камнями ходит компьютер."),
        ("uk", "Ти більше не за столом; тепер твоїми каменями ходить комп’ютер."),
    ],
)
def test_leaving_the_table_is_said_the_same_to_women_and_men(lang: str, said: str) -> None:
    """The DM to whoever left read "Ты вышел" / "Ти вийшов": Telegram does not tell a player's
    gender, so a past tense in the second person guesses it (вышел/вышла)."""
    assert t(lang, "table.you_left") == said
    for key in ("table.you_left", "table.you_left_ended"):
        assert not re.search(r"\b(вышел|вийшов)\b", t(lang, key))


#: Ukrainian's apostrophe (комп’ютер, п’ять): the typographic one, as most of the catalog wrote it.
#: A typewriter ' and the modifier letter ʼ are the ways it strays.
UKRAINIAN_APOSTROPHE = "\u2019"


def test_ukrainian_writes_its_apostrophe_one_way() -> None:
    """The word "комп'ютер" stood with a typewriter apostrophe in the timeout notice, and the
    games "П'ятірочка" and "Болгарська п'ятірка" in every list of games, where the rest of the
    catalog writes ’. Read as a player sees a message: the tags (whose attributes may quote with
    ') left out and the entities (&#39;) read."""
    shown = {key: html.unescape(TAG.sub("", value)) for key, value in catalog("uk").items()}
    stray = {key: text for key, text in shown.items() if "'" in text or "\u02bc" in text}
    assert stray == {}
    assert UKRAINIAN_APOSTROPHE in shown["game.muggins"]


def test_english_calls_the_four_sided_double_the_spinner() -> None:
    """Telephone's summaries called the first double the "house" (the Russian «дом» word for
    word), where its board's buttons, /rules and the other games' texts say "spinner"."""
    house = re.compile(r"\bhouses?\b(?! rules)", re.IGNORECASE)
    assert {key: text for key, text in ENGLISH.items() if house.search(text)} == {}


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_match_is_called_by_one_word(lang: str) -> None:
    """Russian said "Матч начался", "Текущий матч" and /stats' "матчей", but "партия окончена"
    at its end and "выигрывает партию" in /rules: one match went by two names."""
    party = re.compile(r"\bпарт[иі]\w*", re.IGNORECASE)
    assert {key: text for key, text in catalog(lang).items() if party.search(text)} == {}


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_translation_says_every_number_its_english_says(lang: str) -> None:
    """The special bones' rule said in Russian and Ukrainian only what leading or going out with
    6-6 and 0-0 gives, not that a lone 6-6 counts 50 and a lone 0-0 25, as the English does:
    a number left out is a rule left out."""

    def numbers(text: str) -> list[str]:
        return sorted(re.findall(r"\d+", re.sub(r"\{\w*\}", "", text)))

    wrong = {
        key: text
        for key, text in catalog(lang).items()
        if (english := english_for(key)) is not None and numbers(text) != numbers(english)
    }
    assert wrong == {}


@pytest.mark.parametrize(("lang", "fisherman"), [("ru", "рыбак"), ("uk", "рибак")])
def test_the_partners_lead_says_who_leads_after_a_fish(lang: str, fisherman: str) -> None:
    """RULES.md §2.3: after a fish the fisherman leads, not the winner's partner; the English
    option said so, the Russian and Ukrainian did not."""
    assert fisherman in catalog(lang)["rules.next_lead.winner_partner"]


@pytest.mark.parametrize(("game", "sums"), [("muggins", "5, 10, 15…"), ("all_threes", "3, 6, 9…")])
def test_the_scoring_games_rules_say_what_a_sum_of_the_ends_scores(game: str, sums: str) -> None:
    """/rules muggins read "add up the open ends: 5, 10, 15… score you that many points"."""
    summary = usual_summary("en", game)
    assert f"add up the open ends: a sum of {sums} scores that many points." in summary


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_bot_says_ty_to_players_everywhere(lang: str) -> None:
    """A closed forum topic told the group "Откройте её снова и отправьте /new" /
    "Відкрийте … надішліть", where every other message, to the group as to one player, says
    «ты» ("Отправь /new")."""
    polite = re.compile(r"\b(?:\w+(?:йте|ите|ьте|іть|їть)|вы|вас|вам|ваш\w*|ви|ваш\w*)\b", re.I)
    found = {key: polite.findall(text) for key, text in catalog(lang).items()}
    assert {key: words for key, words in found.items() if words} == {}


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_tile_is_called_by_one_word(lang: str) -> None:
    """The lot said "вытянул старшую кость" / "найстаршу кістку" and a Sea Goat rule "Особые
    кости", where the hand, the board and every other rule call a tile «камень» / «камінь»."""
    bone = re.compile(r"\b(?:кост|кіст|кістк)\w*", re.IGNORECASE)
    assert {key: text for key, text in catalog(lang).items() if bone.search(text)} == {}


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_knocking_is_one_verb(lang: str) -> None:
    """The button read "✊ Стукнуть" / "✊ Стукнути" (to hit someone, or to snitch), where the
    board says "стучит", the DM "Пришлось постучать" and the rules "стучать": a player knocks."""
    assert not re.search(r"\bстукн", " ".join(catalog(lang).values()), re.IGNORECASE)
    assert t(lang, "hand.knock") == {"ru": "✊ Постучать", "uk": "✊ Постукати"}[lang]


@pytest.mark.parametrize(
    ("lang", "stray"),
    [
        # "самая лёгкая рука", "самой тяжёлой руке": English's lightest hand word for word, where
        # the results say "Меньше всех на руках у игрока …"
        pytest.param("ru", r"(?:лёгк|тяжёл)\w* рук", id="ru-hand"),
        pytest.param("uk", r"(?:легш|важч)\w* рук", id="uk-hand"),
        # Traditional's and Sea Goat's "линия", where every other text lays a «цепочка»
        pytest.param("ru", r"\bлини[яиюей]\b", id="ru-line"),
        pytest.param("uk", r"\bліні[яїюєй]\b", id="uk-line"),
        # Donkey's "предел" and Sport's "без предела" beside Kozel's "лимит"
        pytest.param("ru", r"\bпредел[ауе]?\b", id="ru-limit"),
        pytest.param("uk", r"\bмеж[аіуею]\b", id="uk-limit"),
    ],
)
def test_a_thing_of_the_game_goes_by_one_name(lang: str, stray: str) -> None:
    """The same thing was named two ways in /rules, the games' summaries and the results."""
    found = {key: text for key, text in catalog(lang).items() if re.search(stray, text, re.I)}
    assert found == {}


#: How each language says, in the lobby's line of one who asks to change pair and in /help,
#: that a place freeing in the pair asked for is taken at once.
PLACE_FREES = {
    "en": ("if a place frees there, {name} takes it at once", "you take it at once"),
    "ru": ("если там освободится место, {name} сразу его займёт", "сразу его займёшь"),
    "uk": ("якщо там звільниться місце, {name} одразу його займе", "одразу його займеш"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_ask_to_change_pair_says_a_place_that_frees_is_taken_at_once(lang: str) -> None:
    """The lobby grants an ask to change pair as soon as a place frees in the pair asked for
    (``Lobby._remove_seat``); only the asker's toast said so, and the lobby's line and /help
    left the others, and the asker later, to think another tap was needed."""
    asks, helps = PLACE_FREES[lang]
    assert asks in t(lang, "lobby.asks_swap", name="{name}", number=1)
    assert helps in catalog(lang)["help.text"]
