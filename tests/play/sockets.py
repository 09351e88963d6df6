"""Driving tables through their WebSockets in tests: connect everyone, play legal moves from
what each connection was sent, and keep every message each connection received."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from channels.testing import WebsocketCommunicator

from tests.websockets import connect


@dataclass
class Conn:
    """One open connection and everything it received."""

    socket: WebsocketCommunicator
    seat: int | None
    received: list[dict[str, Any]] = field(default_factory=list)

    @property
    def state(self) -> dict[str, Any]:
        return next(m for m in reversed(self.received) if m.get("event") == "state")

    async def receive(self, timeout: float = 5) -> dict[str, Any]:
        message: dict[str, Any] = await self.socket.receive_json_from(timeout=timeout)
        self.received.append(message)
        return message

    async def drain(self, timeout: float = 0.05) -> None:
        """Read everything waiting."""
        while not await self.socket.receive_nothing(timeout=timeout):
            await self.receive()

    async def until_version(self, version: int, timeout: float = 5) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            assert message.get("event") != "refused", message
            if message.get("event") == "state" and message["version"] >= version:
                return message


async def open_conn(table_pk: int, user: Any, seat: int | None, query: str = "") -> Conn:
    socket, accepted, code = await connect(f"/ws/play/{table_pk}/{query}", user)
    assert accepted, code
    conn = Conn(socket, seat)
    first = await conn.receive()
    assert first["event"] == "state"
    assert first["you"] == seat
    return conn


def random_move(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A legal move for the connection's seat from its view (None: nothing to do now)."""
    seat = state["you"]
    phase = state["phase"]
    hand = state["hand"]
    if phase in ("seating", "game_over"):
        return {"type": "start"} if seat == 0 and phase == "seating" else None
    if phase == "cutting":
        return {"type": "cut", "at": rng.randint(4, 32)} if hand["cutter"] == seat else None
    if phase == "hand_over":
        return {"type": "continue"} if seat == 0 else None
    view = hand["view"]
    options: list[dict[str, Any]] = [a for a in view["legal_actions"] if a["type"] != "throw_in"]
    declarations = [a for a in options if a["type"] in ("bella", "announce_run", "show_run")]
    if declarations:
        return declarations[0]
    if view["phase"] == "done":
        return None
    if view["to_act"] == seat:
        if view["phase"] == "calling":
            return rng.choice(options)
        return {"type": "play", "card": rng.choice(view["legal_plays"])}
    return None


async def play_through(conns: list[Conn], rng: random.Random, limit: int = 20000) -> None:
    """Legal moves, sent by the connection whose seat owes one, until the game is over;
    after each, every connection receives the new state."""
    for _ in range(limit):
        states = [c.state for c in conns]
        top = max(s["version"] for s in states)
        assert all(s["version"] == top for s in states), [s["version"] for s in states]
        if states[0]["phase"] == "game_over":
            return
        chosen = None
        for conn, state in zip(conns, states, strict=True):
            if conn.seat is None:
                continue
            found = random_move(state, rng)
            if found is not None and (chosen is None or found["type"] == "bella"):
                chosen = (conn, found)
        assert chosen is not None, states[0]
        conn, found = chosen
        await conn.socket.send_json_to(found)
        for c in conns:
            await c.until_version(top + 1)
    raise AssertionError("the game did not end")
