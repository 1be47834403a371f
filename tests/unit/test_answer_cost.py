"""The cost of an answer: litellm's stamped price, else its completion_cost once per unpriced model."""

from __future__ import annotations

import types

import pytest

from shape_asserts.asking import call


class PriceList:
    """A stand-in for litellm's pricing: knows some models, counts every lookup."""

    def __init__(self, prices: dict[str, float]) -> None:
        self.prices = prices
        self.asked: list[str] = []

    def completion_cost(self, completion_response):
        self.asked.append(completion_response.model)
        if completion_response.model not in self.prices:
            raise ValueError(f"This model isn't mapped yet. model={completion_response.model}")
        return self.prices[completion_response.model]


USED = types.SimpleNamespace(prompt_tokens=120, completion_tokens=40, total_tokens=160)


def response(model: str, stamped: float | None = None, usage=USED):
    choice = types.SimpleNamespace(message=types.SimpleNamespace(content="[]"), finish_reason="stop")
    hidden = {"response_cost": stamped} if stamped is not None else {}
    return types.SimpleNamespace(choices=[choice], usage=usage, model=model, _hidden_params=hidden)


@pytest.fixture(autouse=True)
def _fresh_unpriced(monkeypatch):
    monkeypatch.setattr(call, "_UNPRICED", set())


def test_an_unpriced_model_is_looked_up_once_and_its_cost_stays_unknown():
    prices = PriceList({})
    answers = [call._to_answer(prices, response("openai/local-thing"), 0.1) for _ in range(5)]
    assert [a.cost_usd for a in answers] == [None] * 5
    assert prices.asked == ["openai/local-thing"]


def test_a_priced_model_is_priced_every_time_and_an_unpriced_one_does_not_stop_it():
    prices = PriceList({"gpt-known": 0.002})
    call._to_answer(prices, response("openai/local-thing"), 0.1)
    costs = [call._to_answer(prices, response("gpt-known"), 0.1).cost_usd for _ in range(3)]
    assert costs == [0.002] * 3
    assert prices.asked == ["openai/local-thing", "gpt-known", "gpt-known", "gpt-known"]


def test_a_cost_litellm_stamped_while_logging_is_used_without_a_lookup():
    prices = PriceList({})
    assert call._to_answer(prices, response("openai/local-thing", stamped=0.5), 0.1).cost_usd == 0.5
    assert prices.asked == []


@pytest.mark.parametrize(
    "usage",
    [
        None,  # the server sent none
        types.SimpleNamespace(prompt_tokens=0, completion_tokens=0, total_tokens=0),  # litellm's reading of none
        types.SimpleNamespace(prompt_tokens=-5_000_000, completion_tokens=40, total_tokens=-4_999_960),
        types.SimpleNamespace(prompt_tokens=120.5, completion_tokens=40, total_tokens=160.5),
        types.SimpleNamespace(prompt_tokens=120, completion_tokens=None, total_tokens=120),
    ],
    ids=["none", "zeros", "negative", "fractional", "no-completion"],
)
def test_a_reply_that_does_not_say_what_it_used_has_no_price(usage):
    """Whatever litellm made of it (it prices missing usage at $0, negative counts below zero):
    the run counts such a reply at its call's worst case instead (test_max_cost_holds)."""
    prices = PriceList({"gpt-known": -0.5})
    answer = call._to_answer(prices, response("gpt-known", stamped=-0.5, usage=usage), 0.1)
    assert answer.cost_usd is None
    assert all(isinstance(v, int) and v >= 0 for v in answer.usage.values())


def test_a_count_of_more_tokens_than_any_call_uses_is_not_believed():
    """litellm prices 10^30 completion tokens at some 10^23 dollars, which the run would print and
    add up; such a reply is counted at its call's worst case, as one that says nothing."""
    absurd = types.SimpleNamespace(prompt_tokens=120, completion_tokens=10**30, total_tokens=10**30 + 120)
    prices = PriceList({"gpt-known": 7.5e23})
    answer = call._to_answer(prices, response("gpt-known", stamped=7.5e23, usage=absurd), 0.1)
    assert answer.cost_usd is None
    assert answer.usage == {"prompt_tokens": 120}
    most = types.SimpleNamespace(prompt_tokens=120, completion_tokens=call.MOST_TOKENS_BELIEVED, total_tokens=None)
    assert call._to_answer(prices, response("gpt-known", stamped=1.0, usage=most), 0.1).cost_usd == 1.0


def test_a_negative_price_is_no_price():
    prices = PriceList({"gpt-known": -0.5})
    assert call._to_answer(prices, response("gpt-known"), 0.1).cost_usd is None
