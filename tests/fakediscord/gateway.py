"""The websocket gateway: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME, dispatches.

Sharding as Discord does it: IDENTIFY may carry `shard: [id, count]` (none means
`[0, 1]`); a session then receives the events and interactions of the servers with
`(guild_id >> 22) % count == id` only, and direct messages only on shard 0. An invalid
shard closes with 4010, a shard holding more servers than one session may with 4011.

Identifying is rate limited as Discord documents it: shards fall into `max_concurrency`
buckets (`shard_id % max_concurrency`), and each bucket may identify once per 5 seconds
(on the fake's clock); an IDENTIFY beyond that gets op 9 Invalid Session (`d: false`) and
starts no session, so the client must wait and identify again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.fakediscord.state import (
    INTENT_GUILD_PRESENCES,
    INTENT_GUILDS,
    PRIVILEGED_INTENTS,
    FakeGuild,
)

if TYPE_CHECKING:
    from tests.fakediscord.world import World

log = logging.getLogger(__name__)

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

HISTORY = 5000
"""Dispatches kept per session so that a RESUME can replay what the bot missed."""
MAX_GUILDS_PER_SHARD = 2500
"""Discord refuses a session that would hold more servers than this (4011)."""
IDENTIFY_WINDOW = 5.0
"""Seconds in which each `max_concurrency` bucket of shards may identify once."""

Shard = tuple[int, int]
"""(shard id, shard count) as IDENTIFY names it."""


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def receives(shard: Shard, guild_id: int | None) -> bool:
    """Whether a session on `shard` gets the events of server `guild_id` (None: a DM)."""
    number, count = shard
    if guild_id is None:
        return number == 0
    return (guild_id >> 22) % count == number


def _routing_guild(event: str, data: dict[str, Any]) -> int | None:
    """The server a dispatch belongs to (None: a direct message, or no server)."""
    raw = data.get("id") if event in ("GUILD_CREATE", "GUILD_DELETE") else data.get("guild_id")
    return None if raw is None else int(raw)


class Session:
    """A gateway session: survives reconnects until the bot closes cleanly or re-identifies."""

    def __init__(self, intents: int, shard: Shard = (0, 1)) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.history: deque[tuple[int, str]] = deque(maxlen=HISTORY)
        self.connection: Connection | None = None
        self.expect_resume = False
        """True after the fake itself dropped the socket or asked for a reconnect."""


class Connection:
    """One websocket; frames go out through a queue so that their order is kept."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: Session | None = None
        self.close_code: int | None = None
        """Who closed first decides: the code the fake sent, or the one the client sent."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write())

    def send(self, data: dict[str, Any] | str) -> None:
        """Queue a frame."""
        self.queue.put_nowait(data if isinstance(data, str) else _dumps(data))

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None or self.ws.closed:
                return
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    async def close(self, code: int, message: str = "") -> None:
        """Close the websocket with `code`."""
        self.close_code = self.close_code or code
        self.queue.put_nowait(None)
        await self.ws.close(code=code, message=message.encode())


class Gateway:
    """The gateway the bot connects to; of each shard, the newest session receives its
    servers' dispatches (one session on shard [0, 1] receives everything)."""

    def __init__(
        self,
        world: World,
        *,
        heartbeat_interval: int,
        privileged_intents: int,
        max_guilds_per_shard: int = MAX_GUILDS_PER_SHARD,
    ) -> None:
        self.world = world
        self.heartbeat_interval = heartbeat_interval
        self.privileged_intents = privileged_intents
        self.max_guilds_per_shard = max_guilds_per_shard
        self.url = ""
        self.sessions: dict[str, Session] = {}
        self.current: dict[Shard, Session] = {}
        """The newest session of each shard."""
        self.connections: set[Connection] = set()
        self.identifies = 0
        self.resumes = 0
        self.identified_shards: list[Shard] = []
        """The shard of every IDENTIFY, in order."""
        self.last_identify: dict[int, float] = {}
        """When each bucket (`shard_id % max_concurrency`) last identified (fake clock)."""
        self.refused_identifies: list[Shard] = []
        """The shard of every IDENTIFY refused for coming too soon (op 9), in order."""

    def identify_wait(self) -> float:
        """Seconds (on the fake's clock) until every bucket may identify again."""
        now = self.world.now()
        return max([0.0, *(last + IDENTIFY_WINDOW - now for last in self.last_identify.values())])

    def _receivers(self, guild_id: int | None) -> list[Session]:
        return [s for shard, s in self.current.items() if receives(shard, guild_id)]

    @staticmethod
    def _live(session: Session) -> bool:
        return session.connection is not None or session.expect_resume

    @property
    def deliverable(self) -> bool:
        """Whether some bot receives dispatches now, or after the resume the fake asked for."""
        return any(self._live(session) for session in self.current.values())

    def deliverable_to(self, guild_id: int | None) -> bool:
        """Whether the shard of server `guild_id` (None: DMs) has a bot now (or soon)."""
        return any(self._live(session) for session in self._receivers(guild_id))

    @property
    def intents(self) -> int:
        """The connected bot's intents (of all its sessions)."""
        found = 0
        for session in self.current.values():
            found |= session.intents
        return found

    def dispatch(self, event: str, data: dict[str, Any], intent: int = INTENT_GUILDS) -> bool:
        """Send a dispatch to the shard of its server; False if no bot is there for it.

        Like Discord, a session keeps what it missed for a RESUME; but a bot that went
        away (discord.py closes with 4000 even on `close()`) may never come back.
        """
        sessions = self._receivers(_routing_guild(event, data))
        for session in sessions:
            if not intent or session.intents & intent:
                self._send(session, event, data)
        return any(self._live(session) for session in sessions)

    def _send(self, session: Session, event: str, data: dict[str, Any]) -> None:
        """One dispatch to one session (kept for its RESUME)."""
        session.seq += 1
        text = _dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": data})
        session.history.append((session.seq, text))
        if session.connection is not None:
            session.connection.send(text)

    def guild_available(self, guild: FakeGuild, *, joined: bool = False) -> None:
        """GUILD_CREATE for a guild added while the bot is connected (to its shard);
        `joined`: the bot was invited into it, so without `unavailable` (discord.py then
        calls `on_guild_join`, not `on_guild_available`)."""
        for session in self._receivers(guild.id):
            payload = self._guild_payload(guild, session)
            if joined:
                del payload["unavailable"]
            self._send(session, "GUILD_CREATE", payload)

    def is_ready(self, shards: Iterable[int] | None = None) -> bool:
        """Whether sessions for these shard ids (None: any) are connected with their READY
        and GUILD_CREATEs sent."""
        live = {s.shard[0] for s in self.current.values() if s.connection is not None}
        if shards is None:
            return bool(live)
        return set(shards) <= live

    def is_connected(self, shards: Iterable[int] | None = None) -> bool:
        """Whether a session of one of these shard ids (None: any) has a live websocket."""
        wanted = None if shards is None else set(shards)
        return any(
            s.connection is not None and (wanted is None or s.shard[0] in wanted)
            for s in self.current.values()
        )

    def _guild_payload(self, guild: FakeGuild, session: Session) -> dict[str, Any]:
        bot_id = self.world.bot_user.id
        return guild.payload(
            bot_id=bot_id, all_members=bool(session.intents & INTENT_GUILD_PRESENCES)
        )

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """The websocket endpoint (both the gateway URL and `resume_gateway_url`)."""
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws)
        self.connections.add(connection)
        connection.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval}})
        try:
            while True:
                message = await ws.receive()
                if message.type is WSMsgType.CLOSE:
                    connection.close_code = connection.close_code or int(message.data or 1005)
                    break
                if message.type in (WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                    break
                if message.type is not WSMsgType.TEXT:
                    await connection.close(4002, "Decode error")
                    break
                try:
                    frame = json.loads(message.data)
                except ValueError:
                    await connection.close(4002, "Decode error")
                    break
                await self._receive(connection, frame)
        finally:
            self._closed(connection, connection.close_code)
        return ws

    async def _receive(self, connection: Connection, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        data = frame.get("d")
        if op == HEARTBEAT:
            connection.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif connection.session is None:
            await connection.close(4003, "Not authenticated.")
        elif op == REQUEST_GUILD_MEMBERS:
            assert connection.session is not None
            self._members_chunk(connection.session, data or {})
        elif op in (PRESENCE_UPDATE, VOICE_STATE_UPDATE):
            return
        else:
            await connection.close(4001, "Unknown opcode.")

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        if connection.session is not None:
            await connection.close(4005, "Already authenticated.")
            return
        if data.get("token") != self.world.token:
            await connection.close(4004, "Authentication failed.")
            return
        intents = int(data.get("intents") or 0)
        if intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await connection.close(4014, "Disallowed intent(s).")
            return
        shard = _shard_of(data.get("shard", [0, 1]))
        if shard is None:
            await connection.close(4010, "Invalid shard.")
            return
        world = self.world
        bucket, now = shard[0] % world.max_concurrency, world.now()
        if now - self.last_identify.get(bucket, -IDENTIFY_WINDOW) < IDENTIFY_WINDOW:
            self.refused_identifies.append(shard)
            connection.send({"op": INVALID_SESSION, "d": False})
            return
        guilds = [
            g
            for g in world.guilds.values()
            if world.bot_user.id in g.members and receives(shard, g.id)
        ]
        if len(guilds) > self.max_guilds_per_shard:
            await connection.close(4011, "Sharding required.")
            return
        self.last_identify[bucket] = now
        session = Session(intents, shard)
        self.sessions[session.id] = session
        self._attach(connection, session)
        self.identifies += 1
        self.identified_shards.append(shard)
        user = world.bot_user.payload()
        user.update(verified=True, mfa_enabled=False, email=None)
        ready = {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url.replace("/gateway", "/resume"),
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth_session_id_hash": "",
            "user_settings": {},
            "_trace": ["fakediscord"],
        }
        if "shard" in data:
            ready["shard"] = list(shard)
        self._send(session, "READY", ready)
        for guild in guilds:
            self._send(session, "GUILD_CREATE", self._guild_payload(guild, session))
        self.world.emit("gateway_identified", session)

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.world.token:
            await connection.close(4004, "Authentication failed.")
            return
        seq = int(data.get("seq") or 0)
        oldest = session.history[0][0] if session and session.history else 1
        if session is None or (session.history and seq + 1 < oldest):
            connection.send({"op": INVALID_SESSION, "d": False})
            return
        old = session.connection
        if old is not None and old is not connection:
            await old.close(4000, "Session resumed elsewhere.")
        self._attach(connection, session)
        session.expect_resume = False
        self.resumes += 1
        for number, text in session.history:
            if number > seq:
                connection.send(text)
        self._send(session, "RESUMED", {"_trace": ["fakediscord"]})
        self.world.emit("gateway_resumed", session)

    def _attach(self, connection: Connection, session: Session) -> None:
        connection.session = session
        session.connection = connection
        self.current[session.shard] = session

    def _members_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id") or 0))
        if guild is None:
            return
        query = str(data.get("query") or "").lower()
        wanted = {int(u) for u in data.get("user_ids") or []}
        limit = int(data.get("limit") or 0) or len(guild.members)
        members = [
            m.payload()
            for m in guild.members.values()
            if (m.user.id in wanted if wanted else m.user.name.lower().startswith(query))
        ][:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if wanted:
            chunk["not_found"] = [str(u) for u in wanted if u not in guild.members]
        self._send(session, "GUILD_MEMBERS_CHUNK", chunk)

    def _closed(self, connection: Connection, code: int | None) -> None:
        self.connections.discard(connection)
        connection.queue.put_nowait(None)
        session = connection.session
        if session is None or session.connection is not connection:
            return
        session.connection = None
        if code in (1000, 1001):
            # A clean close ends the session: the bot must identify again.
            self.sessions.pop(session.id, None)
            if self.current.get(session.shard) is session:
                del self.current[session.shard]
        self.world.emit("gateway_closed", connection)

    @property
    def connected(self) -> bool:
        """Whether some current session has a live websocket."""
        return self.is_connected()

    def _connected_sessions(self, shard: int | None) -> list[Session]:
        return [
            s
            for s in self.current.values()
            if s.connection is not None and (shard is None or s.shard[0] == shard)
        ]

    async def disconnect(self, code: int = 4000, *, shard: int | None = None) -> None:
        """Drop the bot's websockets (of one shard id, if given): it reconnects and
        resumes, as after a network blip."""
        for session in self._connected_sessions(shard):
            assert session.connection is not None
            session.expect_resume = code not in (1000, 1001, 4004, 4010, 4011, 4012, 4013, 4014)
            await session.connection.close(code, "Disconnected by the test.")

    def request_reconnect(self, *, shard: int | None = None) -> None:
        """Send op 7 RECONNECT (to one shard id's session, if given): the bot resumes."""
        for session in self._connected_sessions(shard):
            assert session.connection is not None
            session.expect_resume = True
            session.connection.send({"op": RECONNECT, "d": None})

    async def close(self) -> None:
        """Close every websocket (the fake is stopping)."""
        for connection in list(self.connections):
            with contextlib.suppress(Exception):
                await connection.close(1001, "Going away.")
            connection.writer.cancel()


def _shard_of(value: object) -> Shard | None:
    """IDENTIFY's `shard`, if valid: two whole numbers, 0 <= id < count."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    number, count = value
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (number, count)):
        return None
    if count < 1 or not 0 <= number < count:
        return None
    return (number, count)
