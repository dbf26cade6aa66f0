"""Discord's rate limits: headers on every response, per-channel buckets for posting, the
global limit, and Discord's 429s."""

from __future__ import annotations

from tests.fakediscord.fixtures import FakeClub
from tests.fakediscord.ratelimits import GLOBAL_LIMIT, ROUTE_LIMITS, RateLimiter
from tests.fakediscord.rest import RequestLog
from tests.fakediscord.rest_client import Api

POST = ("POST", "/channels/{channel_id}/messages")


async def test_every_response_carries_its_bucket(fake_club: FakeClub, api: Api) -> None:
    """Limit, remaining, reset and bucket on successes and errors alike."""
    channel = fake_club.channel
    status, _ = await api.post_message(channel, {"content": "one"})
    assert status == 200
    headers = api.headers
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "4"
    assert 4.9 <= float(headers["X-RateLimit-Reset-After"]) <= 5.0
    assert headers["X-RateLimit-Bucket"] == ROUTE_LIMITS[POST].bucket
    reset = float(headers["X-RateLimit-Reset"])
    assert abs(reset - (fake_club.fake.world.now() + 5.0)) < 0.5
    status, _ = await api.post_message(channel, {"content": ""})
    assert status == 400 and api.headers["X-RateLimit-Remaining"] == "3"
    status, _ = await api.call("GET", "/users/@me")
    assert status == 200 and api.headers["X-RateLimit-Limit"] == "50"
    assert api.headers["X-RateLimit-Bucket"] != ROUTE_LIMITS[POST].bucket


async def test_posting_is_limited_per_channel(fake_club: FakeClub, api: Api) -> None:
    """The sixth post in five seconds in one channel gets a 429 with `retry_after`; another
    channel is not slowed; once the window has passed, posting works again."""
    fake, channel = fake_club.fake, fake_club.channel
    other = fake_club.guild.add_channel("other")
    for number in range(5):
        status, _ = await api.post_message(channel, {"content": f"post {number}"})
        assert status == 200
    status, body = await api.post_message(channel, {"content": "one too many"})
    assert status == 429
    assert body["message"] == "You are being rate limited." and body["global"] is False
    assert 0 < body["retry_after"] <= 5.0
    assert api.headers["X-RateLimit-Scope"] == "user" and api.headers["Via"] == "1.1 google"
    assert api.headers["X-RateLimit-Remaining"] == "0"
    assert int(api.headers["Retry-After"]) >= body["retry_after"]
    assert "X-RateLimit-Global" not in api.headers
    assert [m.content for m in channel.messages][-1] == "post 4"
    status, _ = await api.post_message(other, {"content": "elsewhere"})
    assert status == 200
    fake.advance_time(5.0)
    status, _ = await api.post_message(channel, {"content": "later"})
    assert status == 200 and api.headers["X-RateLimit-Remaining"] == "4"
    assert fake.requests.count(RequestLog("POST", f"/channels/{channel.id}/messages", 429)) == 1
    assert fake.rest.limiter.refused == [("POST", f"/channels/{channel.id}/messages", "user")]


def test_the_global_limit_counts_every_route_but_interactions() -> None:
    """Fifty requests a second across routes; the next one is a global 429; interaction
    callbacks and their follow-ups do not count; a new second starts afresh."""
    limiter = RateLimiter()
    now = 1000.0
    routes = [("GET", "/channels/{channel_id}", {"channel_id": str(n)}) for n in range(30)]
    routes += [("GET", "/guilds/{guild_id}", {"guild_id": str(n)}) for n in range(20)]
    assert len(routes) == GLOBAL_LIMIT
    for method, template, params in routes:
        assert limiter.check(method, template, template, params, now).refusal is None
    callback = "/interactions/{interaction_id}/{token}/callback"
    assert limiter.check("POST", callback, "/interactions/1/t/callback", {}, now).refusal is None
    webhook = "/webhooks/{application_id}/{token}"
    params = {"application_id": "1", "token": "t"}
    assert limiter.check("POST", webhook, "/webhooks/1/t", params, now).refusal is None
    verdict = limiter.check("GET", "/users/@me", "/users/@me", {}, now + 0.5)
    refusal = verdict.refusal
    assert refusal is not None and refusal.status == 429
    assert refusal.headers["X-RateLimit-Global"] == "true"
    assert refusal.headers["X-RateLimit-Scope"] == "global"
    assert limiter.refused == [("GET", "/users/@me", "global")]
    assert limiter.check("GET", "/users/@me", "/users/@me", {}, now + 1.0).refusal is None


def test_buckets_are_shared_by_routes_with_one_limit() -> None:
    """Adding and removing reactions share a bucket (one per 250 ms per channel)."""
    limiter = RateLimiter()
    react = "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me"
    params = {"channel_id": "7", "message_id": "8", "emoji": "x"}
    first = limiter.check("PUT", react, "/p", params, 0.0)
    assert first.refusal is None and first.headers["X-RateLimit-Remaining"] == "0"
    assert limiter.check("DELETE", react, "/p", params, 0.1).refusal is not None
    elsewhere = {**params, "channel_id": "9"}
    assert limiter.check("DELETE", react, "/p", elsewhere, 0.1).refusal is None
    assert limiter.check("DELETE", react, "/p", params, 0.25).refusal is None
