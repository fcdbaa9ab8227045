"""Recorded matches and the questions people ask about them: standings, records, history."""

from __future__ import annotations

import pytest

from storage import EndedBy, MatchAlreadyRecorded, NotFound, PlayerResult, Storage

from .conftest import seed_chat


def result(
    user_id: int | None, seat: int, score: int, *, goat: bool = False, delta: int = 0
) -> PlayerResult:
    return PlayerResult(
        user_id=user_id,
        seat=seat,
        side=seat,
        score=score,
        outcome="lost" if goat else "won",
        rating_delta=delta,
    )


async def play_match(storage: Storage, chat_id: int, *results: PlayerResult) -> int:
    """A finished table in the chat with the given results; returns the match id."""
    opener = next(r.user_id for r in results if r.user_id is not None)
    table = await storage.create_table(chat_id, opener, players=len(results))
    await storage.update_table(table.table_id, status="playing")
    return await storage.record_match(table.table_id, "goat", 5, results)


@pytest.fixture
async def league(storage: Storage) -> Storage:
    """Chat -100: four matches between users 1-4 (and a computer player)."""
    await seed_chat(storage, -100, 1, 2, 3, 4)
    # user: matches, goats, wins, scores, rating
    # 1: 4 matches, 0 goats, 4 wins, 10+20+30+40 -> avg 25, rating 8+8+7+6 = 29
    # 2: 4 matches, 2 goats, 2 wins, 101+0+105+50 -> avg 64, rating 0+10+0+5 = 15
    # 3: 2 matches, 1 goat, 1 wins, 5+110 -> avg 57.5, rating 10+0 = 10
    # 4: 1 match, 0 goats, 1 win, 60 -> avg 60, rating 4
    await play_match(
        storage, -100, result(1, 0, 10, delta=8), result(2, 1, 101, goat=True), result(None, 2, 70)
    )
    await play_match(
        storage,
        -100,
        result(1, 0, 20, delta=8),
        result(2, 1, 0, delta=10),
        result(3, 2, 110, goat=True),
    )
    await play_match(
        storage,
        -100,
        result(1, 0, 30, delta=7),
        result(2, 1, 105, goat=True),
        result(3, 2, 5, delta=10),
    )
    await play_match(
        storage,
        -100,
        result(1, 0, 40, delta=6),
        result(2, 1, 50, delta=5),
        result(4, 2, 60, delta=4),
    )
    return storage


async def test_record_match_finishes_the_table(storage: Storage) -> None:
    await seed_chat(storage, -100, 1, 2)
    table = await storage.create_table(-100, 1, players=2)
    await storage.update_table(table.table_id, status="playing", turn_deadline=99.0)
    match_id = await storage.record_match(
        table.table_id, "timeout", 3, [result(1, 0, 30, delta=7), result(2, 1, 80, goat=True)]
    )
    assert match_id > 0
    finished = await storage.get_table(table.table_id)
    assert finished is not None and finished.status == "finished"
    assert finished.finished_at is not None and finished.turn_deadline is None
    assert await storage.get_active_table(-100) is None
    with pytest.raises(MatchAlreadyRecorded):
        await storage.record_match(table.table_id, "goat", 3, [result(1, 0, 0)])
    with pytest.raises(NotFound):
        await storage.record_match(999, "goat", 1, [])
    with pytest.raises(ValueError, match="ended_by"):
        await storage.record_match(table.table_id, "boredom", 1, [])  # type: ignore[arg-type]


async def test_failed_results_roll_back_the_whole_record(storage: Storage) -> None:
    await seed_chat(storage, -100, 1)
    table = await storage.create_table(-100, 1, players=2)
    with pytest.raises(ValueError, match="bad match results"):  # seat 0 twice
        await storage.record_match(table.table_id, "goat", 1, [result(1, 0, 0), result(None, 0, 5)])
    still = await storage.get_table(table.table_id)
    assert still is not None and still.status == "lobby"
    assert await storage.count_chat_players(-100) == 0


async def test_standings_by_rating(league: Storage) -> None:
    rows = await league.chat_standings(-100)
    assert [(r.rank, r.user_id, r.rating) for r in rows] == [
        (1, 1, 29),
        (2, 2, 15),
        (3, 3, 10),
        (4, 4, 4),
    ]
    ann = rows[0]
    assert (ann.display_name, ann.matches, ann.losses, ann.wins) == ("Player 1", 4, 0, 4)
    assert ann.avg_points == pytest.approx(25.0)
    assert rows[2].avg_points == pytest.approx(57.5)


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ("matches", [1, 2, 3, 4]),  # 4, 4 (tie broken by rating), 2, 1
        ("losses", [2, 3, 1, 4]),  # 2, 1, then 0 and 0 (more matches first)
        ("wins", [1, 2, 3, 4]),  # 4, 2, 1 (rating 10) ahead of 1 (rating 4)
        ("avg_points", [1, 3, 4, 2]),  # 25, 57.5, 60, 64: fewer points is better
        ("most_points", [2, 4, 3, 1]),  # the scoring games' way round
        ("rating", [1, 2, 3, 4]),
    ],
)
async def test_standings_orders(league: Storage, order: str, expected: list[int]) -> None:
    rows = await league.chat_standings(-100, order_by=order)  # type: ignore[arg-type]
    assert [r.user_id for r in rows] == expected


async def test_standings_pagination(league: Storage) -> None:
    assert await league.count_chat_players(-100) == 4
    page1 = await league.chat_standings(-100, "avg_points", limit=3, offset=0)
    page2 = await league.chat_standings(-100, "avg_points", limit=3, offset=3)
    assert [r.user_id for r in page1] == [1, 3, 4]
    assert [(r.rank, r.user_id) for r in page2] == [(4, 2)]
    assert await league.chat_standings(-100, limit=3, offset=6) == []


@pytest.mark.parametrize(
    ("limit", "offset", "message"),
    [
        (-1, 0, "limit must be positive, not -1"),  # SQLite would read it as "no limit"
        (0, 0, "limit must be positive, not 0"),
        (3, -3, "offset must not be negative, not -3"),  # SQLite would read it as 0
    ],
)
async def test_standings_refuse_bad_pages(
    league: Storage, limit: int, offset: int, message: str
) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        await league.chat_standings(-100, limit=limit, offset=offset)


async def test_standings_refuse_unknown_orders(league: Storage) -> None:
    with pytest.raises(ValueError, match="cannot order"):
        await league.chat_standings(-100, order_by="rating; DROP TABLE users")  # type: ignore[arg-type]


async def test_other_chats_and_computer_players_are_not_listed(league: Storage) -> None:
    assert await league.chat_standings(-200) == []
    assert await league.count_chat_players(-200) == 0
    assert all(r.user_id is not None for r in await league.chat_standings(-100, limit=100))


async def test_user_record_across_two_chats(league: Storage) -> None:
    await seed_chat(league, -200, 1, 5)
    await play_match(
        league, -200, result(1, 0, 101, goat=True, delta=-2), result(5, 1, 0, delta=10)
    )
    record = await league.user_record(1)
    assert (record.display_name, record.matches, record.chats) == ("Player 1", 5, 2)
    [kozel] = record.games
    assert (kozel.game, kozel.matches, kozel.losses, kozel.wins, kozel.draws) == (
        "kozel",
        5,
        1,
        4,
        0,
    )
    assert (kozel.rating, kozel.chats) == (27, 2)
    assert kozel.avg_points == pytest.approx((10 + 20 + 30 + 40 + 101) / 5)
    nobody = await league.user_record(42)
    assert (nobody.matches, nobody.chats, nobody.games) == (0, 0, ())


async def test_recent_matches_newest_first(league: Storage) -> None:
    await seed_chat(league, -200, 2)
    await league.upsert_chat(-200, "Dominoes & beer", "supergroup")
    await play_match(league, -200, result(2, 0, 101, goat=True, delta=0), result(None, 1, 3))
    recent = await league.recent_matches(2, limit=3)
    assert [m.chat_title for m in recent] == ["Dominoes & beer", "Chat -100", "Chat -100"]
    assert [m.score for m in recent] == [101, 50, 105]
    assert recent[0].outcome == "lost" and recent[0].ended_by == "goat"
    assert recent[1].rating_delta == 5
    assert recent[0].finished_at > recent[1].finished_at
    assert len(await league.recent_matches(2)) == 5
    assert await league.recent_matches(42) == []
    with pytest.raises(ValueError, match=r"^limit must be positive, not -1$"):
        await league.recent_matches(2, limit=-1)


async def play_game(
    storage: Storage, chat_id: int, game: str, ended_by: EndedBy, *results: PlayerResult
) -> int:
    table = await storage.create_table(chat_id, 1, game=game, players=len(results))
    return await storage.record_match(table.table_id, ended_by, 4, results)


async def test_each_game_has_standings_of_its_own(league: Storage) -> None:
    """A muggins win and a Telephone draw never show in the group's Kozel table, nor Kozel's
    matches in theirs; the rating is summed per game."""
    kozel = await league.chat_standings(-100)
    await play_game(
        league,
        -100,
        "muggins",
        "target",
        PlayerResult(4, 0, 0, 100, "won", 6),
        PlayerResult(1, 1, 1, 40, "lost", -6),
    )
    await play_game(
        league,
        -100,
        "telephone_ua",
        "draw",
        PlayerResult(4, 0, 0, 230, "draw", 0),
        PlayerResult(2, 1, 1, 240, "draw", 0),
    )
    assert await league.chat_standings(-100) == kozel
    assert await league.count_chat_players(-100) == 4
    muggins = await league.chat_standings(-100, game="muggins")
    assert [(r.user_id, r.matches, r.wins, r.losses, r.rating) for r in muggins] == [
        (4, 1, 1, 0, 6),
        (1, 1, 0, 1, -6),
    ]
    most = await league.chat_standings(-100, "most_points", game="muggins")
    assert [r.avg_points for r in most] == [100.0, 40.0]
    drawn = await league.chat_standings(-100, game="telephone_ua")
    assert [(r.user_id, r.draws, r.wins, r.losses) for r in drawn] == [(2, 1, 0, 0), (4, 1, 0, 0)]
    assert await league.count_chat_players(-100, game="muggins") == 2
    assert await league.chat_games(-100) == ["telephone_ua", "muggins", "kozel"]
    assert await league.chat_games(-200) == []

    four = await league.user_record(4)
    assert (four.matches, four.chats) == (3, 1)
    records = {r.game: r for r in four.games}
    assert list(records) == ["telephone_ua", "muggins", "kozel"]  # one each: the latest first
    assert (records["kozel"].matches, records["kozel"].rating) == (1, 4)
    assert (records["muggins"].wins, records["muggins"].rating) == (1, 6)
    assert records["telephone_ua"].draws == 1
    [latest, *_] = await league.recent_matches(4)
    assert (latest.game, latest.ended_by, latest.outcome) == ("telephone_ua", "draw", "draw")


async def test_a_chats_history_lists_its_latest_matches_newest_first_with_every_seat(
    league: Storage,
) -> None:
    await seed_chat(league, -200, 5, 6)
    await play_match(league, -200, result(5, 0, 3), result(6, 1, 104, goat=True))
    history = await league.chat_history(-100, limit=3)
    assert len(history) == 3  # the oldest of the four is left out
    newest = history[0]
    assert [(s.seat, s.display_name, s.score) for s in newest.seats] == [
        (0, "Player 1", 40),
        (1, "Player 2", 50),
        (2, "Player 4", 60),
    ]
    assert [s.score for s in history[2].seats] == [20, 0, 110]
    assert [s.outcome for s in history[2].seats] == ["won", "won", "lost"]
    oldest = (await league.chat_history(-100))[-1]
    assert [s.display_name for s in oldest.seats][2] is None  # a computer
    assert (newest.game, newest.ended_by) == ("kozel", "goat")
    [other] = await league.chat_history(-200)
    assert [s.display_name for s in other.seats] == ["Player 5", "Player 6"]


async def test_a_chat_without_matches_has_no_history(storage: Storage) -> None:
    await seed_chat(storage, -100)
    assert await storage.chat_history(-100) == []
    with pytest.raises(ValueError, match="limit"):
        await storage.chat_history(-100, limit=0)
