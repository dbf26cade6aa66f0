"""Glicko-2 ratings, as in Glickman's "Example of the Glicko-2 system" (2013).

A rating is (rating, deviation, volatility) on the familiar Glicko scale. `update` runs
one rating period of the paper; Tabula rates every game on its own, as a period of one
game, and passes how many periods of time went by since the player was last rated, so
that a player who has been away comes back with a wider deviation (the approach Lichess
uses). `rate_game` does exactly that for one game between two players.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

SCALE = 173.7178
"""Glicko-2's conversion factor between the Glicko scale and its internal scale."""
DEFAULT_RATING = 1500.0
"""The rating of a player who has never played a rated game."""
DEFAULT_DEVIATION = 350.0
"""The deviation of a newcomer: nothing is known yet (Glickman's recommendation)."""
DEFAULT_VOLATILITY = 0.06
"""A newcomer's volatility (Glickman's recommendation)."""
DEFAULT_TAU = 0.5
"""The system constant τ limiting how fast volatility changes (paper: 0.3 to 1.2)."""
MAX_DEVIATION = DEFAULT_DEVIATION
"""A deviation never grows beyond a newcomer's, however long a player stays away."""
PROVISIONAL_DEVIATION = 110.0
"""A rating is provisional while its deviation is above this (Lichess uses the same).

At 110 the 95% interval is about ±220 points; a newcomer usually needs some ten games
against established players to get there.
"""
RATING_PERIOD = timedelta(days=5)
"""The time one rating period stands for when a deviation grows with inactivity.

With the default volatility a settled player (deviation 60) who stops playing becomes
provisional again after about 78 periods, a little over a year.
"""
CONVERGENCE = 1e-6
"""The tolerance ε of the volatility iteration (the paper's value)."""

_MAX_ITERATIONS = 1000
"""A safety bound on the volatility iteration, which converges in a handful of steps."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's Glicko-2 rating in one game."""

    rating: float = DEFAULT_RATING
    """The rating on the Glicko scale (1500 for a newcomer)."""
    deviation: float = DEFAULT_DEVIATION
    """The rating deviation (RD): how uncertain the rating is."""
    volatility: float = DEFAULT_VOLATILITY
    """How erratic the player's results are (σ)."""

    def __post_init__(self) -> None:
        """Reject values Glicko-2 cannot work with."""
        if not math.isfinite(self.rating):
            raise ValueError(f"a rating must be a finite number, not {self.rating}")
        if not (math.isfinite(self.deviation) and self.deviation > 0):
            raise ValueError(f"a rating deviation must be positive, not {self.deviation}")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise ValueError(f"a volatility must be positive, not {self.volatility}")

    @property
    def is_provisional(self) -> bool:
        """True while the deviation is above `PROVISIONAL_DEVIATION`."""
        return self.deviation > PROVISIONAL_DEVIATION

    @property
    def mu(self) -> float:
        """The rating on Glicko-2's internal scale (μ)."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The deviation on Glicko-2's internal scale (φ)."""
        return self.deviation / SCALE

    def display(self) -> str:
        """The rating rounded for players, with `?` when provisional ("1464", "1500?")."""
        return f"{round(self.rating)}{'?' if self.is_provisional else ''}"

    @classmethod
    def from_internal(cls, mu: float, phi: float, volatility: float) -> Rating:
        """A rating from Glicko-2's internal scale (μ, φ, σ)."""
        return cls(mu * SCALE + DEFAULT_RATING, phi * SCALE, volatility)


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of a rating period, from the rated player's side."""

    opponent: Rating
    """The opponent's rating before the period."""
    score: float
    """The player's score: 1 for a win, 0.5 for a draw, 0 for a loss."""

    def __post_init__(self) -> None:
        """Reject scores outside 0..1."""
        if not 0 <= self.score <= 1:
            raise ValueError(f"a score must lie between 0 and 1, not {self.score}")


def g(phi: float) -> float:
    """Glicko-2's g(φ): how much a game against an uncertain opponent counts."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score `player` is expected to make against `opponent` (the paper's E)."""
    return 1 / (1 + math.exp(-g(opponent.phi) * (player.mu - opponent.mu)))


def after_inactivity(player: Rating, periods: float) -> Rating:
    """The rating after `periods` rating periods without a game: only the deviation grows."""
    if not periods >= 0:
        raise ValueError(f"a number of rating periods cannot be negative, not {periods}")
    # Step 6 on the Glicko scale: RD² grows by (σ·SCALE)² per period.
    growth = periods * (player.volatility * SCALE) ** 2
    return replace(player, deviation=min(math.sqrt(player.deviation**2 + growth), MAX_DEVIATION))


def update(
    player: Rating,
    results: Sequence[GameResult],
    *,
    tau: float = DEFAULT_TAU,
    periods: float = 1.0,
) -> Rating:
    """The rating after one rating period with these games (the paper's steps 2–8).

    `periods` is how many rating periods of time the update stands for; the paper's
    single period is 1, and a game rated on its own passes the time since the player
    was last rated (see `idle_periods`). Without games only the deviation grows.
    """
    if not tau > 0:
        raise ValueError(f"τ must be positive, not {tau}")
    if not results:
        return after_inactivity(player, periods)
    if not periods >= 0:
        raise ValueError(f"a number of rating periods cannot be negative, not {periods}")
    v, delta = estimates(player, results)
    # Steps 5 to 8: the new volatility, the pre-period deviation, the new rating.
    new_sigma = new_volatility(player.phi, player.volatility, v, delta, tau)
    phi_star = _grown(player.phi, new_sigma, periods)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = player.mu + new_phi * new_phi * delta / v
    return Rating.from_internal(new_mu, new_phi, new_sigma)


def estimates(player: Rating, results: Sequence[GameResult]) -> tuple[float, float]:
    """The paper's steps 3 and 4: the estimated variance v and improvement Δ of a period."""
    weights = [g(result.opponent.phi) for result in results]
    expected = [expected_score(player, result.opponent) for result in results]
    v = 1 / sum(w * w * e * (1 - e) for w, e in zip(weights, expected, strict=True))
    surprise = sum(
        w * (result.score - e) for w, e, result in zip(weights, expected, results, strict=True)
    )
    return v, v * surprise


def new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """The paper's step 5: solve for σ' with the Illinois variant of regula falsi."""
    a = math.log(sigma * sigma)
    phi2, delta2 = phi * phi, delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= CONVERGENCE:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate_game(
    first: Rating,
    second: Rating,
    first_score: float,
    *,
    tau: float = DEFAULT_TAU,
    first_periods: float = 1.0,
    second_periods: float = 1.0,
) -> tuple[Rating, Rating]:
    """Both players' new ratings after one game between them, each as a one-game period.

    `first_score` is 1, 0.5 or 0 from the first player's side; each side's `periods`
    is the time since that player was last rated, in rating periods (`idle_periods`).
    """
    return (
        update(first, [GameResult(second, first_score)], tau=tau, periods=first_periods),
        update(second, [GameResult(first, 1 - first_score)], tau=tau, periods=second_periods),
    )


def idle_periods(
    last_rated: datetime | None, now: datetime, *, period: timedelta = RATING_PERIOD
) -> float:
    """How many rating periods went by since `last_rated` (1 for a player never rated)."""
    if last_rated is None:
        return 1.0
    return max(0.0, (now - last_rated) / period)


def format_change(before: Rating, after: Rating) -> str:
    """A rating change for a result message: "1500? → 1662? (+162)"."""
    change = round(after.rating) - round(before.rating)
    return f"{before.display()} → {after.display()} ({change:+d})"


def _grown(phi: float, sigma: float, periods: float) -> float:
    """φ after `periods` periods of volatility σ (the paper's step 6), at most the maximum."""
    return min(math.sqrt(phi * phi + periods * sigma * sigma), MAX_DEVIATION / SCALE)
