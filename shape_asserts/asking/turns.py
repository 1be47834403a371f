"""How many calls of a run may be in flight at once, and narrowing that to one for a slow local server.

A server on this machine may answer one request at a time (llama.cpp and Ollama with one slot).
Sixteen calls sent at once then queue there, and the later ones pass ``--request-timeout`` while
waiting their turn, not while being answered. A call that times out that way is not the model's
failure: the run asks it again, and from then on sends one call at a time (:meth:`Turns.narrow`).
A call during which no other was in flight had the server to itself: its timeout is final.

A server may go on answering the calls the run gave up on (:attr:`Turns.abandoned`). The first
call sent alone after that may wait behind them, so it is given the time they may take besides its
own (:meth:`Turns.timeout`); once a call alone has ended, they are done.

A turn is a place at the server: a call that waits for anything else (a rate limit, the room
``--max-cost`` leaves, a sample another run is asking) gives it back meanwhile (:meth:`Turns.aside`).
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Awaitable
from dataclasses import dataclass

__all__ = ["Turn", "Turns"]


@dataclass(eq=False)  # (each turn is its own, however alike: given back by identity)
class Turn:
    """One call's turn: whether another call was in flight at any time during it (it may have
    queued behind that one at the server) or none was (it had the server to itself)."""

    shared: bool = False


class Turns:
    """The run's ``--concurrency``, which a queueing local server narrows to one call at a time.

    Turns are handed out in the order the calls asked for them: the calls are planned in the order
    the tests run, and a test waits for its own case, so a call passed over would hold its test
    (and the tests queued behind it on that worker) until the end of the asking.
    """

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self._taken: list[Turn] = []
        self._waiting: collections.deque[tuple[asyncio.Future[Turn], Turn]] = collections.deque()
        #: Calls that timed out queued at the server, which it may still be answering.
        self.abandoned = 0

    async def take(self, turn: Turn | None = None) -> Turn:
        """Wait for a turn, and take it: a new one, or ``turn`` again (given back while its call
        waited: :meth:`aside`)."""
        turn = turn or Turn()
        if len(self._taken) < self.limit and not self._waiting:
            return self._start(turn)
        handed: asyncio.Future[Turn] = asyncio.get_running_loop().create_future()
        self._waiting.append((handed, turn))
        try:
            return await handed
        except asyncio.CancelledError:
            if handed.done() and not handed.cancelled():  # handed a turn as it was cancelled
                self.give(handed.result())
            raise

    def give(self, turn: Turn) -> None:
        """End a turn taken with :meth:`take` (if it is still taken): the next calls waiting, in
        order, take the free turns."""
        if turn in self._taken:
            self._taken.remove(turn)
        while self._waiting and len(self._taken) < self.limit:
            handed, waiting = self._waiting.popleft()
            if not handed.done():  # not cancelled while it waited
                handed.set_result(self._start(waiting))

    async def aside(self, turn: Turn, wait: Awaitable[None]) -> None:
        """Give ``turn`` back while its call waits on ``wait``, so other calls go meanwhile; then
        take it again, behind the calls already waiting for one.

        A call waiting for anything but the server sets its turn aside (a wait before another
        attempt, for the room ``--max-cost`` leaves, for a sample another run is asking): held, it
        could be the turn the call it waits for needs to go on, and neither would."""
        self.give(turn)
        await wait
        await self.take(turn)

    def _start(self, turn: Turn) -> Turn:
        self._taken.append(turn)
        if len(self._taken) > 1:  # every call in flight now shares the server with another
            for each in self._taken:
                each.shared = True
        return turn

    def narrow(self) -> bool:
        """A call timed out queued behind others: one call at a time from now on; whether this
        changed the limit (said once)."""
        self.abandoned += 1
        narrowed = self.limit > 1
        self.limit = 1
        return narrowed

    def timeout(self, timeout: float, turn: Turn) -> float:
        """The seconds the call in ``turn`` may take: ``timeout``, and a whole ``timeout`` more for
        each call the server may still be answering when this one is sent alone."""
        return timeout if turn.shared else timeout * (1 + self.abandoned)

    def ended_alone(self, timed_out: bool) -> None:
        """A call sent alone ended: the calls given up before it are done; if it timed out, it is
        the one the server may still be answering."""
        self.abandoned = 1 if timed_out else 0
