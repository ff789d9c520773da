"""Seat codes: one secret token per seat and per game, the only key to a seat's private screen.

A token is ``secrets.token_urlsafe`` of :data:`TOKEN_BYTES` random bytes (192 bits). It is
looked up in constant time against every live token (``hmac.compare_digest``, never a
dict lookup on the secret), acts only for its own seat, can be revoked and reissued by the
host, and ends with its game. A token is never written to a log: :func:`redact` is what
a log line may show of one.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Iterable

TOKEN_BYTES = 24  # 192 random bits (at least 128 are required)


def redact(token: str) -> str:
    """What a log line may say about a token: its length only."""
    return f"<seat code, {len(token)} characters>"


class SeatKeys:
    """The live seat codes of one game. ``make`` is the secret source (``secrets.token_urlsafe``)."""

    def __init__(self, seats: Iterable[int], *,
                 make: Callable[[int], str] = secrets.token_urlsafe) -> None:
        self._make = make
        self.seats = tuple(sorted(set(seats)))
        self._tokens: dict[int, str] = {}
        self.issued: dict[int, int] = {}
        """How many codes each seat has had (the first is 1): the TV shows it after a reissue."""
        self.ended = False
        self._over: dict[int, str] = {}
        """The codes live when the game ended: they open nothing, but name their seat's end."""
        for seat in self.seats:
            self.reissue(seat)

    def token(self, seat: int) -> str | None:
        """The seat's live code (for its join link on the TV); None once revoked or ended."""
        return self._tokens.get(seat)

    def reissue(self, seat: int) -> str:
        """Revoke the seat's code and make a new one: the old one stops working at once."""
        if seat not in self.seats:
            raise ValueError(f"there is no seat {seat} in this game (seats {self.seats[0]}-{self.seats[-1]})")
        if self.ended:
            raise ValueError("the game is over: its seat codes have ended")
        token = self._make(TOKEN_BYTES)
        if len(token) < 22:  # 128 bits in URL-safe base64
            raise ValueError("a seat code needs at least 128 random bits")
        self._tokens[seat] = token
        self.issued[seat] = self.issued.get(seat, 0) + 1
        return token

    def revoke(self, seat: int) -> None:
        self._tokens.pop(seat, None)

    def end(self) -> None:
        """The game ended: every code stops working."""
        self._over = dict(self._tokens)
        self._tokens.clear()
        self.ended = True

    def seat_of(self, token: object) -> int | None:
        """The seat a code belongs to, or None. Compares against every live code in constant time."""
        return self._find(token, self._tokens)

    def ended_seat_of(self, token: object) -> int | None:
        """The seat whose code this was when the game ended (its phone may see the end), or None."""
        return self._find(token, self._over)

    @staticmethod
    def _find(token: object, tokens: dict[int, str]) -> int | None:
        if not isinstance(token, str) or not token or len(token) > 128:
            return None
        probe = token.encode("utf-8", "replace")
        found = None
        for seat, live in tokens.items():
            if hmac.compare_digest(probe, live.encode("ascii")):
                found = seat
        return found
