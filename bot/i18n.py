"""Translations. Every word a person reads comes from ``bot/locales/<lang>.toml``.

Messages are HTML; values passed in are escaped unless wrapped in ``Html``, so a player called
``Zoë & <Co>`` shows exactly as typed. Translate first, then format.
"""

from __future__ import annotations

import datetime as dt
import html
import tomllib
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ru", "uk")
FALLBACK = "en"
_LOCALES = Path(__file__).with_name("locales")


class Html(str):
    """Text that is already valid Telegram HTML and must not be escaped again."""

    __slots__ = ()


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(_flatten(value, f"{name}."))
        else:
            flat[name] = str(value)
    return flat


@cache
def catalog(lang: str) -> dict[str, str]:
    with (_LOCALES / f"{lang}.toml").open("rb") as fh:
        return _flatten(tomllib.load(fh))


def section(lang: str, head: str) -> list[str]:
    """The keys under ``head`` (``games.kozel.summary``), less the head, in the order the catalog
    writes them: ``lang``'s, else English's."""
    prefix = f"{head}."
    for name in (lang, FALLBACK):
        keys = [key.removeprefix(prefix) for key in catalog(name) if key.startswith(prefix)]
        if keys:
            return keys
    raise KeyError(f"no messages under {head!r}")


def language_for(code: str | None, default: str = FALLBACK) -> str:
    """Map a Telegram ``language_code`` (``ru``, ``uk-UA``, ``en-GB``) to a catalog we have."""
    if code:
        base = code.split("-")[0].lower()
        if base in LANGUAGES:
            return base
        if base in ("be", "kk", "ky", "tg", "uz"):  # neighbours who read Russian more than English
            return "ru"
    return default


class Localized:
    """Words that read differently in each language, written once the reader is known: a tap's
    answer is read by the tapper alone, in their language, and the same words replying to a
    command by the whole group, in its language. As a value of ``t``, it is written in the
    message's language (a game's name in a refusal)."""

    __slots__ = ("_say",)

    def __init__(self, say: Callable[[str], str]) -> None:
        self._say = say

    def __call__(self, lang: str) -> str:
        return self._say(lang)


def said(key: str, /, **values: Any) -> Localized:
    """The message ``key`` with ``values``, in whichever language it is read."""
    return Localized(lambda lang: t(lang, key, **values))


def _escape(value: Any) -> str:
    if isinstance(value, Html):
        return value
    return html.escape(str(value), quote=False)


def t(lang: str, key: str, /, **values: Any) -> Html:
    """The message ``key`` in ``lang`` (falling back to English), with ``values`` filled in."""
    text = catalog(lang).get(key) or catalog(FALLBACK).get(key)
    if text is None:
        raise KeyError(f"no message {key!r}")
    written = {k: v(lang) if isinstance(v, Localized) else v for k, v in values.items()}
    return Html(text.format(**{k: _escape(v) for k, v in written.items()}))


def spoken_list(lang: str, items: Sequence[str]) -> str:
    """``items`` as ``lang`` lists them: "A", "A and B", "A, B and C". Plain text stays plain
    (escaped where it is written), and HTML stays HTML."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {catalog(lang)['language.and']} {items[-1]}"


def decimal(lang: str, value: float) -> str:
    """``value`` to one decimal place, with the language's decimal mark ("92.5", "92,5")."""
    return f"{value:.1f}".replace(".", catalog(lang)["language.decimal_mark"])


def plural(lang: str, key: str, count: int, /, **values: Any) -> Html:
    """Pick the plural form of ``key`` (``.one``/``.few``/``.many``) for ``count``; a negative
    count takes its size's form ("−2 очка", as "2 очка")."""
    size = abs(count)
    if lang in ("ru", "uk"):
        tail, tens = size % 10, size % 100
        if tail == 1 and tens != 11:
            form = "one"
        elif 2 <= tail <= 4 and not 12 <= tens <= 14:
            form = "few"
        else:
            form = "many"
    else:
        form = "one" if size == 1 else "many"
    return t(lang, f"{key}.{form}", count=count, **values)


def day(lang: str, timestamp: float, zone: dt.tzinfo) -> str:
    """The calendar day of ``timestamp`` in ``zone`` (the bot's ``KOZEL_TIMEZONE``), as ``lang``
    writes dates ("27.11.2026", "2026-11-27")."""
    moment = dt.datetime.fromtimestamp(timestamp, zone)
    return t(
        lang,
        "language.date",
        day=f"{moment.day:02d}",
        month=f"{moment.month:02d}",
        year=moment.year,
    )
