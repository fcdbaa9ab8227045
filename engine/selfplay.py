"""Play whole matches with computer players and write the transcript as JSON Lines."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from .ai import PLAYERS, Player
from .events import Event
from .match import Match
from .rules import RuleSet, parse_option


def play_match(
    players: int, pairs: bool, rules: RuleSet, seed: int, ai: Sequence[Player]
) -> Iterator[Event]:
    """Yield every event of one match; the same arguments always give the same match."""
    match, events = Match.new(players, pairs, rules, seed)
    yield from events
    rng = random.Random(seed)
    while not match.is_over:
        seat = match.current_seat
        assert seat is not None
        yield from match.act(seat, ai[seat](match, seat, rng))


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("selfplay", help="play a match between computer players")
    play.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    play.add_argument("--pairs", action="store_true", help="4 players as two teams {0,2} v {1,3}")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument(
        "--set", action="append", default=[], metavar="OPTION=VALUE", help="a rule option"
    )
    play.add_argument(
        "--ai",
        default="greedy",
        help=f"comma-separated, one per seat or one for all: {', '.join(PLAYERS)}",
    )
    return parser.parse_args(argv)


def rules_from(settings: Sequence[str]) -> RuleSet:
    options: dict[str, Any] = {}
    for item in settings:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--set expects option=value, got {item!r}")
        options[name.strip()] = parse_option(name.strip(), value.strip())
    return RuleSet(**options)


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        rules = rules_from(args.set)
        names = [n.strip() for n in args.ai.split(",")]
        if len(names) == 1:
            names *= args.players
        if len(names) != args.players:
            raise ValueError(f"--ai names {len(names)} players, the table has {args.players}")
        unknown = [n for n in names if n not in PLAYERS]
        if unknown:
            raise ValueError(f"unknown computer player(s): {', '.join(unknown)}")
        if args.pairs and args.players != 4:
            raise ValueError("--pairs needs --players 4")
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for event in play_match(
        args.players, args.pairs, rules, args.seed, [PLAYERS[n] for n in names]
    ):
        out.write(json.dumps(event.to_dict(), ensure_ascii=False, separators=(",", ":")) + "\n")
    return 0
