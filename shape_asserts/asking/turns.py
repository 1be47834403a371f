"""How many calls of a run may be in flight at once, and narrowing that to one for a slow local server.

A server on this machine may answer one request at a time (llama.cpp and Ollama with one slot).
Sixteen calls sent at once then queue there, and the later ones pass ``--request-timeout`` while
waiting their turn, not while being answered. A call that times out that way is not the model's
failure: the run asks it again, and from then on sends one call at a time (:meth:`Turns.narrow`).
A call during which no other was in flight had the server to itself: its timeout is final.

A server may go on answering the calls the run gave up on (:attr:`Turns.abandoned`). The first
call sent alone after that may wait behind them, so it is given the time they may take besides its
own (:meth:`Turns.timeout`); once a call alone has ended, they are done.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

__all__ = ["Turn", "Turns"]


@dataclass
class Turn:
    """One call's turn: whether another call was in flight at any time during it (it may have
    queued behind that one at the server) or none was (it had the server to itself)."""

    shared: bool = False


class Turns:
    """The run's ``--concurrency``, which a queueing local server narrows to one call at a time."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self._taken: list[Turn] = []
        #: Calls that timed out queued at the server, which it may still be answering.
        self.abandoned = 0
        self._changed = asyncio.Condition()

    async def take(self) -> Turn:
        """Wait for a turn, and take it."""
        async with self._changed:
            await self._changed.wait_for(lambda: len(self._taken) < self.limit)
            turn = Turn()
            self._taken.append(turn)
            if len(self._taken) > 1:  # every call in flight now shares the server with another
                for each in self._taken:
                    each.shared = True
            return turn

    async def give(self, turn: Turn) -> None:
        """End a turn taken with :meth:`take`."""
        async with self._changed:
            self._taken.remove(turn)
            # wake only as many waiters as there are free turns: waking all of them, each give
            # would resume every queued call (thousands in a large run) to find no turn
            self._changed.notify(max(0, self.limit - len(self._taken)))

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
