"""``asking/turns.py``: the run's concurrency, narrowed for a local server that queues its calls."""

from __future__ import annotations

import asyncio

from shape_asserts.asking.turns import Turns


def test_a_call_alone_is_not_shared_and_one_beside_another_marks_both():
    async def go():
        turns = Turns(4)
        first = await turns.take()
        assert not first.shared
        second = await turns.take()
        assert first.shared and second.shared
        turns.give(first)
        turns.give(second)
        third = await turns.take()
        assert not third.shared

    asyncio.run(go())


def test_narrowing_lets_one_call_at_a_time_and_gives_the_first_alone_the_abandoned_calls_time():
    async def go():
        turns = Turns(16)
        a, b = await turns.take(), await turns.take()
        assert turns.narrow() and not turns.narrow()  # said once
        turns.give(a)
        turns.give(b)
        alone = await turns.take()
        waiting = asyncio.ensure_future(turns.take())
        await asyncio.sleep(0.01)
        assert not waiting.done()  # one at a time
        assert turns.timeout(10.0, alone) == 30.0  # two calls given up may still hold the server
        turns.ended_alone(timed_out=False)
        assert turns.timeout(10.0, alone) == 10.0
        turns.give(alone)
        await asyncio.wait_for(waiting, 1)

    asyncio.run(go())


def test_a_call_alone_that_timed_out_is_the_one_the_next_may_wait_behind():
    turns = Turns(1)
    turns.ended_alone(timed_out=True)
    assert turns.abandoned == 1


def test_a_shared_calls_timeout_is_never_lengthened():
    async def go():
        turns = Turns(2)
        turns.narrow()
        turns.limit = 2  # as if two were allowed again
        a, b = await turns.take(), await turns.take()
        assert turns.timeout(5.0, a) == 5.0 and turns.timeout(5.0, b) == 5.0

    asyncio.run(go())


def test_turns_are_handed_out_in_the_order_calls_asked_for_them():
    """A call passed over holds its test to the end of the asking: the order is kept whatever the
    order calls end in, and when one ends as others are about to start."""

    async def go():
        turns = Turns(3)
        started: list[int] = []

        async def call(i: int) -> None:
            turn = await turns.take()
            started.append(i)
            await asyncio.sleep(0.001 * ((7 * i) % 5))  # calls end in a scrambled order
            turns.give(turn)

        await asyncio.gather(*(call(i) for i in range(60)))
        assert started == list(range(60))

    asyncio.run(go())


def test_a_call_cancelled_while_waiting_takes_no_turn_with_it():
    async def go():
        turns = Turns(1)
        first = await turns.take()
        cancelled = asyncio.ensure_future(turns.take())
        waiting = asyncio.ensure_future(turns.take())
        await asyncio.sleep(0)
        cancelled.cancel()
        await asyncio.sleep(0)
        turns.give(first)
        second = await asyncio.wait_for(waiting, 1)
        turns.give(second)
        assert await asyncio.wait_for(turns.take(), 1) is not None

    asyncio.run(go())


def test_a_turn_set_aside_lets_the_calls_waiting_go_and_is_taken_again_behind_them():
    """A call waiting before another attempt (a 429's wait) gives its turn back meanwhile: with
    ten models in a run, one model's rate limit must not hold every turn asleep."""

    async def go():
        turns = Turns(1)
        retrying = await turns.take()
        order = []

        async def other():
            turn = await turns.take()
            order.append("other")
            turns.give(turn)

        waiting = asyncio.ensure_future(other())
        await asyncio.sleep(0.01)
        assert order == []  # one turn, held
        await turns.aside(retrying, asyncio.sleep(0.05))
        order.append("retrying")
        await waiting
        assert order == ["other", "retrying"]
        turns.give(retrying)
        turns.give(retrying)  # (given back twice: the second does nothing)
        again = await asyncio.wait_for(turns.take(), 1)
        turns.give(again)

    asyncio.run(go())
