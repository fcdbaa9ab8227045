"""``python -m engine selfplay|arena ...``: matches between computer players from the shell.

``selfplay`` writes one match as JSON Lines; ``arena`` plays many and prints how each kind of
player fared (see ``engine.arena``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .ai import PLAYERS
from .arena import play_arena, report
from .games import check_settable, game_of
from .rules import PRESETS, RuleSet, option_choices, parse_option
from .selfplay import play_match


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("selfplay", help="play a match between computer players")
    arena = sub.add_parser("arena", help="play many matches and compare the players")
    for command in (play, arena):
        command.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
        command.add_argument(
            "--pairs", action="store_true", help="4 players as two teams {0,2} v {1,3}"
        )
        command.add_argument("--seed", type=int, default=0)
        command.add_argument("--game", default="kozel", choices=option_choices("game"))
        command.add_argument(
            "--set", action="append", default=[], metavar="OPTION=VALUE", help="a rule option"
        )
        command.add_argument(
            "--ai",
            default="greedy",
            help=f"comma-separated, one per seat or one for all: {', '.join(PLAYERS)}",
        )
    arena.add_argument("--matches", type=int, default=100)
    return parser.parse_args(argv)


def rules_from(game: str, settings: Sequence[str]) -> RuleSet:
    """The game's preset (its DEFAULTs, ``rules.PRESETS``) with the ``--set`` options over it:
    only those the game has (``Game.settable``)."""
    options: dict[str, Any] = {}
    for item in settings:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--set expects option=value, got {item!r}")
        name = name.strip()
        check_settable(game, name)
        options[name] = parse_option(name, value.strip(), game)
    return PRESETS[game]().with_options(**options)


def seat_names(ai: str, players: int) -> list[str]:
    names = [n.strip() for n in ai.split(",")]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ValueError(f"--ai names {len(names)} players, the table has {players}")
    unknown = [n for n in names if n not in PLAYERS]
    if unknown:
        raise ValueError(f"unknown computer player(s): {', '.join(unknown)}")
    return names


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        rules = rules_from(args.game, args.set)
        names = seat_names(args.ai, args.players)
        game_of(rules).check_table(args.players, args.pairs)
        if args.command == "arena" and args.matches < 1:
            raise ValueError("--matches must be at least 1")
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.command == "arena":
        out.write(
            f"arena: {args.matches} matches of {args.game}, {args.players} players"
            f"{' in pairs' if args.pairs else ' each for themselves'}, seed {args.seed}, "
            f"seats rotated; rules: {', '.join(args.set) or 'default'}\n"
        )
        records = play_arena(
            args.players, args.pairs, rules, names, matches=args.matches, seed=args.seed
        )
        report(records, out)
        return 0
    ai = [PLAYERS[n] for n in names]
    for event in play_match(args.players, args.pairs, rules, args.seed, ai):
        out.write(json.dumps(event.to_dict(), ensure_ascii=False, separators=(",", ":")) + "\n")
    return 0
