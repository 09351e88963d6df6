"""``/ws/play/<table>/``: each connection sees its own seat only, acts for it only, and is
told the engine's reason for every refusal; a whole game through the sockets leaks no card."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import channels.consumer
import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from play import consumers, services
from play.models import HandAction, OnlineHand, Table
from play.selectors import table_rows
from scoring.engine import game_progress, parse_cards
from scoring.models import Game, Hand
from tests.play.sockets import Conn, open_conn, play_through
from tests.scoring.factories import UserFactory
from tests.websockets import connect

pytestmark = [pytest.mark.django_db(transaction=True)]

_CARD = re.compile(r"^(?:6|7|8|9|10|J|Q|K|A)[CDHS]$")


@pytest.fixture(autouse=True)
def _no_pause(settings: Any) -> None:
    settings.PLAY_COMPUTER_DELAY = (0.0, 0.0)


def _four_people(**options: Any) -> tuple[Table, list[Any], Any]:
    users = [UserFactory.create() for _ in range(5)]
    table = services.table_create(by=users[0], **options)
    for n in range(4):
        services.table_sit(table=table, user=users[n], seat=n)
    return table, users[:4], users[4]


async def _everyone(table: Table, users: list[Any], watcher: Any) -> list[Conn]:
    conns = [await open_conn(table.pk, u, n) for n, u in enumerate(users)]
    conns.append(await open_conn(table.pk, watcher, None))
    return conns


async def _close(conns: list[Conn]) -> None:
    for c in conns:
        await c.socket.disconnect()


async def _send(conn: Conn, move: dict[str, Any], conns: list[Conn]) -> None:
    version = conn.state["version"]
    await conn.socket.send_json_to(move)
    for c in conns:
        await c.until_version(version + 1)


async def _refused(conn: Conn, move: dict[str, Any]) -> dict[str, Any]:
    await conn.socket.send_json_to({**move, "ref": 7})
    answer = await conn.receive()
    while answer["event"] == "watching":  # a count of spectators may arrive at any time
        answer = await conn.receive()
    assert answer["event"] == "refused"
    assert answer["ref"] == 7
    return answer


async def _to_the_cut(table: Table, conns: list[Conn], deck: str | None = None) -> OnlineHand:
    await _send(conns[0], {"type": "start"}, conns)
    hand = await database_sync_to_async(OnlineHand.objects.get)(table=table)
    if deck is not None:
        hand.deck = deck.split()
        await database_sync_to_async(hand.save)()
    cutter = services.cutter_of(hand.dealer)
    await _send(conns[cutter], {"type": "cut", "at": 4}, conns)
    await database_sync_to_async(hand.refresh_from_db)()
    return hand


async def test_each_connection_sees_its_own_cards_and_a_spectator_none() -> None:
    table, users, watcher = await database_sync_to_async(_four_people)()
    conns = await _everyone(table, users, watcher)
    hand = await _to_the_cut(table, conns)
    assert hand.deal is not None
    for seat in range(4):
        view = conns[seat].state["hand"]["view"]
        assert view["hand"] == hand.deal[seat][:6]  # six seen, the kitty face down
        assert view["kitty"] is None
    spectator = conns[4].state["hand"]["view"]
    assert spectator["hand"] == []
    assert spectator["hand_sizes"] == [9, 9, 9, 9]
    await _close(conns)


async def test_nobody_may_watch_a_private_table_without_its_invite() -> None:
    table, _users, watcher = await database_sync_to_async(_four_people)(public=False)
    _socket, accepted, code = await connect(f"/ws/play/{table.pk}/", watcher)
    assert not accepted
    assert code == 4404
    conn = await open_conn(table.pk, watcher, None, f"?invite={table.invite_token}")
    await conn.socket.disconnect()
    _missing, accepted, _ = await connect("/ws/play/999999/", watcher)
    assert not accepted


async def test_every_refusal_carries_the_engines_reason() -> None:
    table, users, watcher = await database_sync_to_async(_four_people)()
    conns = await _everyone(table, users, watcher)
    assert (await _refused(conns[4], {"type": "start"}))["code"] == "not_seated"
    await _send(conns[0], {"type": "start"}, conns)
    hand = await database_sync_to_async(OnlineHand.objects.get)(table=table)
    cutter = services.cutter_of(hand.dealer)
    wrong = conns[(cutter + 1) % 4]
    assert "cuts the deck" in (await _refused(wrong, {"type": "cut", "at": 9}))["reason"]
    bad = await _refused(conns[cutter], {"type": "cut", "at": 40})
    assert bad["code"] == "bad_cut"
    assert (await _refused(conns[0], {"type": "start"}))["code"] == "game_running"
    await _send(conns[cutter], {"type": "cut", "at": 9}, conns)
    first = (hand.dealer + 1) % 4
    other = conns[(first + 1) % 4]
    assert (await _refused(other, {"type": "pass"}))["reason"] == (
        f"it is seat {first}'s turn to call"
    )
    assert (await _refused(conns[first], {"type": "pass", "seat": (first + 1) % 4}))[
        "code"
    ] == "not_your_seat"
    assert (await _refused(conns[first], {"type": "juggle"}))["code"] == "bad_move"
    assert (await _refused(conns[first], {"type": "call", "trump": "X"}))["code"] == "bad_suit"
    assert (await _refused(conns[first], {"type": "call"}))["code"] == "missing_field"
    assert (await _refused(conns[first], {"type": "play", "card": "JH"}))["code"] == "not_playing"
    assert (await _refused(conns[first], {"type": "continue"}))["code"] == "hand_not_over"
    await _send(conns[first], {"type": "call", "trump": "S"}, conns)
    view = conns[first].state["hand"]["view"]
    assert view["kitty"] is not None  # trump named: every kitty turned up
    held = set(view["hand"])
    await database_sync_to_async(hand.refresh_from_db)()
    assert hand.deal is not None
    not_held = hand.deal[(first + 1) % 4][0]
    assert not_held not in held
    refused = await _refused(conns[first], {"type": "play", "card": not_held})
    assert refused["code"] == "card_not_held"
    assert (await _refused(conns[first], {"type": "throw_in", "seat": 5}))["code"] in (
        "bad_seat",
        "not_your_seat",
    )
    await _close(conns)


async def test_runs_and_a_dimmed_cards_reason_through_the_sockets() -> None:
    # The deck is laid so the first to call holds runs in clubs and the next player one club
    # among diamonds: a diamond is refused while a club is led, with the reason shown.
    table, users, watcher = await database_sync_to_async(_four_people)()
    conns = await _everyone(table, users, watcher)
    deck = (
        "6C 7C 8C 9C 6D 7D 6H 7H 8H 6S 7S 8S "
        "10C JC QC 8D 9D 10D 9H 10H JH 9S 10S JS "
        "KC AC JD QD KD AD QH KH AH QS KS AS"
    )
    # the cut at 4 moves the first four cards under: put them at the end so the deal is as laid
    cards = deck.split()
    hand = await _to_the_cut(table, conns, " ".join(cards[-4:] + cards[:-4]))
    assert hand.deal is not None
    first = (hand.dealer + 1) % 4
    assert parse_cards(" ".join(hand.deal[first]))[0].suit.value == "C"
    await _send(conns[first], {"type": "call", "trump": "C"}, conns)
    view = conns[first].state["hand"]["view"]
    assert {"type": "announce_run", "seat": first} in view["legal_actions"]
    await _send(conns[first], {"type": "announce_run"}, conns)
    lead = next(c for c in view["hand"])
    await _send(conns[first], {"type": "play", "card": lead}, conns)
    follower = conns[(first + 1) % 4]
    why = follower.state["hand"]["view"]["why_not"]
    assert why, follower.state["hand"]["view"]
    dimmed, reason = next(iter(why.items()))
    assert dimmed.endswith("D")
    assert "must follow suit" in reason
    refused = await _refused(follower, {"type": "play", "card": dimmed})
    assert refused["reason"] == reason
    shows = [
        a for a in conns[first].state["hand"]["view"]["legal_actions"] if a["type"] == "show_run"
    ]
    assert shows
    await _send(conns[first], shows[0], conns)
    assert conns[4].state["hand"]["view"]["runs_shown"][0]["seat"] == first
    await _close(conns)


async def test_two_racing_moves_one_taken_the_other_refused() -> None:
    table, users, watcher = await database_sync_to_async(_four_people)()
    conns = await _everyone(table, users, watcher)
    hand = await _to_the_cut(table, conns)
    first = (hand.dealer + 1) % 4
    second = await open_conn(table.pk, users[first], first)  # the same person, two tabs
    version = conns[first].state["version"]
    await conns[first].socket.send_json_to({"type": "call", "trump": "H"})
    await second.socket.send_json_to({"type": "call", "trump": "S"})
    got: list[dict[str, Any]] = []
    for conn in (conns[first], second):
        while not await conn.socket.receive_nothing(timeout=0.5):
            got.append(await conn.receive())
    refusals = [m for m in got if m["event"] == "refused"]
    assert sum(m["event"] == "state" and m["version"] == version + 1 for m in got) == 2
    assert [r["reason"] for r in refusals] == ["trump has already been named"]
    actions = await database_sync_to_async(HandAction.objects.count)()
    assert actions == 1
    await second.socket.disconnect()
    await _close(conns)


def _cards_in(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, str):
        if _CARD.match(value):
            found.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            found |= _cards_in(k) | _cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= _cards_in(v)
    return found


def _check_no_leak(conns: list[Conn], table: Table) -> int:
    """Every card each connection was sent was its own to see, or on the table by then."""
    hands = {
        (h.game_id, h.number): (h, [a.action for a in h.actions.order_by("seq")])
        for h in OnlineHand.objects.filter(table=table)
    }
    rules = table.engine_ruleset
    checked = 0
    for conn in conns:
        for message in conn.received:
            if message.get("event") != "state":
                continue
            allowed: set[str] = set()
            game = message["game"]
            if game:
                allowed |= {card for _, card in game["flips"]}
            if message["hand"] and message["hand"]["view"] is not None:
                online, log = hands[(game["id"], message["hand"]["number"])]
                done = log[: message["hand"]["actions"]]
                seat = conn.seat
                for action in done:
                    if action["type"] == "play":
                        allowed.add(action["card"])
                    if action["type"] == "show_run":
                        allowed |= set(action["cards"])
                if seat is not None and online.deal is not None:
                    dealt = online.deal[seat]
                    allowed |= set(dealt[:6])
                    called = any(a["type"] == "call" for a in done)
                    passed = any(a["type"] == "pass" and a["seat"] == seat for a in done)
                    if called or (rules.pass_reveals_kitty and passed):
                        allowed |= set(dealt[6:])
            leaked = _cards_in(message) - allowed
            assert not leaked, (conn.seat, leaked, message)
            checked += 1
    return checked


def _stored_as_replayed(table: Table) -> Game:
    table.refresh_from_db()
    game = table.game
    assert game is not None
    assert game.status == Game.Status.FINISHED
    results = []
    for online in OnlineHand.objects.filter(game=game).order_by("number"):
        final = services.hand_replayed(online)
        assert services.hand_stored_state(online) == final
        assert online.hand is not None
        assert online.hand.result == final.result().to_json()
        results.append(final.result())
    stored = Hand.objects.active().filter(game=game).count()
    assert stored == len(results)
    progress = game_progress(game.engine_ruleset, game.first_dealer or 0, results)
    assert progress.over
    assert progress.totals == (game.score_a, game.score_b)
    return game


async def test_a_whole_game_through_the_sockets_shows_no_hidden_card_to_anyone() -> None:
    table, users, watcher = await database_sync_to_async(_four_people)(
        ruleset={"target": 250, "pass_reveals_kitty": True, "dealer_may_pass": True}
    )
    conns = await _everyone(table, users, watcher)
    await play_through(conns, random.Random(5))
    checked = await database_sync_to_async(_check_no_leak)(conns, table)
    assert checked > 100
    await database_sync_to_async(_stored_as_replayed)(table)
    await _close(conns)


async def _random_game(seed: int) -> None:
    table, users, watcher = await database_sync_to_async(_four_people)(
        ruleset={"target": 150, "forced_at": 100}
    )
    conns = await _everyone(table, users, watcher)
    await play_through(conns, random.Random(seed))
    await database_sync_to_async(_stored_as_replayed)(table)
    await _close(conns)


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 10**6))
def test_random_legal_play_through_the_sockets_stores_what_the_engine_replays(
    seed: int,
) -> None:
    async_to_sync(_random_game)(seed)


async def test_spectators_are_counted_while_they_watch() -> None:
    table, users, watcher = await database_sync_to_async(_four_people)()
    player = await open_conn(table.pk, users[0], 0)
    assert player.state["watching"] == 0
    spectator = await open_conn(table.pk, watcher, None)
    assert spectator.state["watching"] == 1
    assert await player.receive() == {"event": "watching", "watching": 1}
    lobby = await database_sync_to_async(Client().get)("/play/")
    assert "1 watching" in lobby.content.decode()
    await spectator.socket.disconnect()
    assert await player.receive() == {"event": "watching", "watching": 0}
    assert player.state["version"] == spectator.state["version"]  # no view changed
    await player.socket.disconnect()


async def test_the_connections_here_share_one_read_of_a_version_made_elsewhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, _, _ = await database_sync_to_async(_four_people)()
    reads: list[int] = []

    def counted(pk: int) -> Any:
        reads.append(pk)
        return table_rows(pk)

    await database_sync_to_async(table.refresh_from_db)()
    monkeypatch.setattr(consumers, "table_rows", counted)
    # the seats were taken by table_sit, not a move made here: nothing of the table is kept
    found = await asyncio.gather(*(consumers._rows(table.pk, table.version) for _ in range(4)))
    assert reads == [table.pk]
    assert all(rows is found[0] for rows in found)
    assert found[0].table.version == table.version
    assert await consumers._rows(table.pk, table.version) is found[0]  # read already
    await consumers._rows(table.pk, 0)  # a connection opening reads the table afresh
    assert reads == [table.pk, table.pk]


async def test_moves_and_views_wait_for_no_thread_but_their_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, users, watcher = await database_sync_to_async(_four_people)()
    conns = await _everyone(table, users, watcher)
    shared: list[str] = []

    async def closing_in_the_shared_thread() -> None:
        shared.append("closed")

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", closing_in_the_shared_thread)
    await _to_the_cut(table, conns)  # three moves, each sent to five connections
    assert shared == []
    await _close(conns)


def test_on_postgresql_the_tables_database_work_has_threads_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from django.conf import settings as django_settings

    def name() -> str:
        return threading.current_thread().name

    found = {}
    for engine in ("sqlite3", "postgresql"):
        default = {**django_settings.DATABASES["default"], "ENGINE": f"django.db.backends.{engine}"}
        monkeypatch.setitem(django_settings.DATABASES, "default", default)
        found[engine] = async_to_sync(consumers._db(name))().startswith("play-db")
    assert found == {"sqlite3": False, "postgresql": True}
