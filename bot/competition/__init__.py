"""Ratings and tournament algorithms: pure functions on plain values, no I/O, no Discord.

- `glicko2`: Glicko-2 ratings, one game at a time.
"""

from __future__ import annotations
