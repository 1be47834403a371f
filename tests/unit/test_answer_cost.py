"""The cost of an answer: the asked model's list price for the tokens the reply says it used."""

from __future__ import annotations

import types

import pytest

from shape_asserts.asking import call
from shape_asserts.asking import prices as price_module


class PriceList:
    """A stand-in for litellm's price list: knows some models' prices per token, counts every lookup."""

    def __init__(self, prices: dict[str, tuple[float, float]]) -> None:
        self.prices = prices
        self.asked: list[str] = []

    def get_model_info(self, model):
        self.asked.append(model)
        if model not in self.prices:
            raise ValueError(f"This model isn't mapped yet. model={model}")
        per_prompt, per_answer = self.prices[model]
        return {"key": model, "input_cost_per_token": per_prompt, "output_cost_per_token": per_answer}

    @property
    def model_cost(self):
        return {model: {"key": model} for model in self.prices}


USED = types.SimpleNamespace(prompt_tokens=120, completion_tokens=40, total_tokens=160)
GPT_4O = {"openai/gpt-4o": (2.5e-6, 1e-5), "gpt-4o-mini": (1.5e-7, 6e-7)}


def response(model: str, stamped: float | None = None, usage=USED):
    choice = types.SimpleNamespace(message=types.SimpleNamespace(content="[]"), finish_reason="stop")
    hidden = {"response_cost": stamped} if stamped is not None else {}
    return types.SimpleNamespace(choices=[choice], usage=usage, model=model, _hidden_params=hidden)


@pytest.fixture(autouse=True)
def _fresh_prices(monkeypatch):
    monkeypatch.setattr(price_module, "_PRICES", {})


def test_an_answer_costs_the_asked_models_list_price_for_the_tokens_it_used():
    prices = PriceList(GPT_4O)
    answer = call._to_answer(prices, "openai/gpt-4o", response("gpt-4o-2024-08-06"), 0.1)
    assert answer.cost_usd == pytest.approx(120 * 2.5e-6 + 40 * 1e-5)


def test_neither_the_model_a_reply_names_nor_a_price_it_states_is_believed():
    """A proxy, a router or a hostile server answering for gpt-4o may name gpt-4o-mini (17 times
    cheaper, which litellm priced the reply by) or state its own price (``usage.cost``: 0, which
    litellm stamped): the cap then let every call through."""
    prices = PriceList(GPT_4O)
    for reply in (response("gpt-4o-mini"), response("openai/gpt-4o", stamped=0.0)):
        answer = call._to_answer(prices, "openai/gpt-4o", reply, 0.1)
        assert answer.cost_usd == pytest.approx(120 * 2.5e-6 + 40 * 1e-5)


def test_an_unpriced_model_is_looked_up_once_and_its_cost_stays_unknown():
    prices = PriceList({})
    answers = [
        call._to_answer(prices, "openai/local-thing", response("local-thing", stamped=0.5), 0.1) for _ in range(5)
    ]
    assert [a.cost_usd for a in answers] == [None] * 5
    assert prices.asked == ["openai/local-thing"]


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
    """The run counts such a reply at its call's worst case instead (test_max_cost_holds)."""
    answer = call._to_answer(PriceList(GPT_4O), "openai/gpt-4o", response("gpt-4o", usage=usage), 0.1)
    assert answer.cost_usd is None
    assert all(isinstance(v, int) and v >= 0 for v in answer.usage.values())


def test_a_count_of_more_tokens_than_any_call_uses_is_not_believed():
    """10^30 completion tokens cost some 10^25 dollars at gpt-4o's price, which the run would
    print and add up; such a reply is counted at its call's worst case, as one that says nothing."""
    absurd = types.SimpleNamespace(prompt_tokens=120, completion_tokens=10**30, total_tokens=10**30 + 120)
    prices = PriceList(GPT_4O)
    answer = call._to_answer(prices, "openai/gpt-4o", response("gpt-4o", usage=absurd), 0.1)
    assert answer.cost_usd is None
    assert answer.usage == {"prompt_tokens": 120}
    most = types.SimpleNamespace(prompt_tokens=120, completion_tokens=call.MOST_TOKENS_BELIEVED, total_tokens=None)
    assert call._to_answer(prices, "openai/gpt-4o", response("gpt-4o", usage=most), 0.1).cost_usd is not None


@pytest.mark.parametrize("bad", [-2.5e-6, float("nan"), float("inf")])
def test_a_price_list_entry_that_is_no_price_prices_nothing(bad):
    answer = call._to_answer(PriceList({"m": (bad, 1e-5)}), "m", response("m"), 0.1)
    assert answer.cost_usd is None


class FullPriceList:
    """A stand-in with a price list as litellm's: tiers, a speed, a search fee, regional entries;
    the model asked is the one listed under ``info``."""

    def __init__(self, info: dict, model_cost: dict | None = None) -> None:
        self.info = {"key": "listed", **info}
        self.model_cost = {"listed": self.info, **(model_cost or {})}

    def get_model_info(self, model):
        return self.info


def _worst(monkeypatch, litellm, model="openai/gpt-4o"):
    monkeypatch.setattr(call, "load_litellm", lambda: litellm)
    monkeypatch.setattr(price_module, "_PRICES", {})  # (read once per model: each list here is another)
    return call.worst_cost(model, [{"role": "user", "content": "x" * 100}], 1000)


def test_a_calls_worst_case_is_reckoned_at_the_costliest_price_the_list_has_for_its_model(monkeypatch):
    """Red-team sweeps 55 and 56: a call billed above its list price (a priority tier however it is
    spelled, Anthropic's fast mode, a region's price, a search's fee) outran --max-cost, which
    held each call at list. Its worst case is now the costliest the list has, whatever it asked."""
    listed = {"input_cost_per_token": 1e-6, "output_cost_per_token": 4e-6}
    base = _worst(monkeypatch, FullPriceList(listed))
    prompt_bytes = len('{"role": "user", "content": "' + "x" * 100 + '"}')  # each byte counted a token
    assert base == pytest.approx(prompt_bytes * 1e-6 + 1000 * 4e-6)
    tiered = {**listed, "input_cost_per_token_priority": 2e-6, "output_cost_per_token_priority": 8e-6}
    assert _worst(monkeypatch, FullPriceList(tiered)) == pytest.approx(2 * base)
    fast = {**listed, "provider_specific_entry": {"fast": 2.0, "us": 1.1}}
    assert _worst(monkeypatch, FullPriceList(fast)) == pytest.approx(2.2 * base)
    fee = {
        **listed,
        "search_context_cost_per_query": {"search_context_size_low": 0.005, "search_context_size_high": 0.012},
    }
    assert _worst(monkeypatch, FullPriceList(fee)) == pytest.approx(base + 0.012)
    regions = {"bedrock/ap-northeast-1/m": {"input_cost_per_token": 3e-6, "output_cost_per_token": 12e-6}}
    assert _worst(monkeypatch, FullPriceList(listed, regions), "bedrock/m") == pytest.approx(3 * base)
    cheaper = {**listed, "input_cost_per_token_batches": 5e-7, "output_cost_per_token_flex": 2e-6}
    assert _worst(monkeypatch, FullPriceList(cheaper)) == pytest.approx(base)  # never below list


@pytest.mark.parametrize(("stamped", "counted"), [(0.0, 0.0007), (0.002, 0.002), (float("nan"), 0.0007), (1e9, 0.0007)])
def test_litellms_own_figure_raises_an_answers_cost_but_never_lowers_it(stamped, counted):
    """litellm's figure knows what the call was billed above list for (the tier a server served,
    a region, a speed, a search); taken where it is more, never where it is less (a hostile
    server's "cost": 0, a reply naming a cheaper model), nor when it is no price."""
    answer = call._to_answer(PriceList(GPT_4O), "openai/gpt-4o", response("gpt-4o", stamped=stamped), 0.1)
    assert answer.cost_usd == pytest.approx(counted)


def test_an_answer_costs_the_price_of_the_region_it_was_billed_in():
    """Red-team sweep 57: Bedrock prices regions apart (ap-northeast-1 1.2 times us-east-1), and
    litellm's own figure ignores the region: each answer was counted 17% under its bill."""
    listed = {"input_cost_per_token": 1e-6, "output_cost_per_token": 4e-6}
    regions = {"bedrock/ap-northeast-1/m": {"input_cost_per_token": 1.2e-6, "output_cost_per_token": 4.8e-6}}
    prices = FullPriceList(listed, regions)
    base = call._to_answer(prices, "bedrock/converse/m", response("m"), 0.1).cost_usd
    there = call._to_answer(prices, "bedrock/converse/m", response("m"), 0.1, 0, "ap-northeast-1").cost_usd
    assert base == pytest.approx(120 * 1e-6 + 40 * 4e-6) and there == pytest.approx(1.2 * base)
    assert call.billed_region({"aws_region_name": "eu-west-1"}) == "eu-west-1"


def test_a_calls_worst_case_counts_the_arguments_sent_with_its_prompt(monkeypatch):
    """Red-team sweep 57: tool definitions are read and billed as prompt; 62 kB of them made each
    call cost 3.5 times the worst case held for it."""
    monkeypatch.setattr(
        call, "load_litellm", lambda: FullPriceList({"input_cost_per_token": 1e-6, "output_cost_per_token": 4e-6})
    )
    messages = [{"role": "user", "content": "x"}]
    bare = call.worst_cost("openai/m", messages, 100)
    tools = {"tools": [{"type": "function", "function": {"name": "f", "description": "y" * 10_000}}]}
    assert bare is not None and call.worst_cost("openai/m", messages, 100, tools) >= bare + 10_000 * 1e-6


def test_a_calls_worst_case_prices_the_arguments_as_answer_where_that_is_dearer(monkeypatch):
    """What an argument carries may be billed as answer: a predicted output's rejected tokens are
    (OpenAI's ``prediction``), at four times the prompt's price here, and dense text holds more
    than a token in four bytes."""
    monkeypatch.setattr(
        call, "load_litellm", lambda: FullPriceList({"input_cost_per_token": 1e-6, "output_cost_per_token": 4e-6})
    )
    messages = [{"role": "user", "content": "x"}]
    bare = call.worst_cost("openai/m", messages, 100)
    predicted = {"prediction": {"type": "content", "content": "7" * 10_000}}
    assert bare is not None and call.worst_cost("openai/m", messages, 100, predicted) >= bare + 10_000 * 4e-6


def test_a_route_named_model_finds_its_regional_prices(monkeypatch):
    """Red-team sweep 57: bedrock/converse/<name> looked for bedrock/converse/<region>/<name>, so
    its worst case missed the dearer regions."""
    listed = {"input_cost_per_token": 1e-6, "output_cost_per_token": 4e-6}
    regions = {"bedrock/ap-northeast-1/m": {"input_cost_per_token": 3e-6, "output_cost_per_token": 12e-6}}
    assert _worst(monkeypatch, FullPriceList(listed, regions), "bedrock/converse/m") == pytest.approx(
        3 * _worst(monkeypatch, FullPriceList(listed), "bedrock/converse/m")
    )


def test_litellms_figure_is_priced_in_the_region_too():
    """Red-team sweep 57: litellm's figure knew the priority tier but not the region (its base
    price), the regional list price knew the region but not the tier: each answer at
    ap-northeast-1's priority was counted 17% under its bill. The figure is scaled by the region."""
    listed = {"input_cost_per_token": 1e-6, "output_cost_per_token": 4e-6}
    regions = {"bedrock/ap-northeast-1/m": {"input_cost_per_token": 1.2e-6, "output_cost_per_token": 4.8e-6}}
    priority_at_base = 2 * (120 * 1e-6 + 40 * 4e-6)
    answer = call._to_answer(
        FullPriceList(listed, regions), "bedrock/m", response("m", stamped=priority_at_base), 0.1, 0, "ap-northeast-1"
    )
    assert answer.cost_usd == pytest.approx(1.2 * priority_at_base)


@pytest.mark.parametrize(
    ("args", "env", "region"),
    [
        ({"aws_region_name": "eu-west-1"}, {"AWS_REGION_NAME": "us-east-1"}, "eu-west-1"),
        ({}, {"AWS_REGION_NAME": "us-east-2"}, "us-east-2"),
        ({}, {"AWS_DEFAULT_REGION": "ap-south-1"}, "ap-south-1"),
    ],
)  # fmt: skip
def test_the_region_billed_is_found_where_litellm_finds_it(monkeypatch, args, env, region):
    """Red-team sweep 58: the AWS session's region (AWS_DEFAULT_REGION, ~/.aws/config) was not
    read, and each answer there was counted at the base price. (A model ARN's region went with
    ``model_id``, which is refused: it asks another model.)"""
    for var in ("AWS_REGION_NAME", "AWS_REGION", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    price_module._session_region.cache_clear()
    try:
        assert call.billed_region(args) == region
    finally:
        price_module._session_region.cache_clear()


def test_a_calls_worst_case_prices_its_answer_in_the_dearest_kind_listed(monkeypatch):
    """Red-team sweep 58: modalities=["text", "audio"] had gpt-audio bill its answer at $64 a
    million tokens against the $10 held for it: five times --max-cost."""
    listed = {"input_cost_per_token": 2.5e-6, "output_cost_per_token": 1e-5}
    audio = {**listed, "output_cost_per_audio_token": 6.4e-5, "output_cost_per_second": 1.0}
    text_only = _worst(monkeypatch, FullPriceList(listed))
    assert _worst(monkeypatch, FullPriceList(audio)) > text_only + 1000 * (6.4e-5 - 1e-5) * 0.999


class MadeUpEntry(FullPriceList):
    """litellm for a name it does not list: an entry of its own making, priced 0, under the
    name asked, which its table does not hold."""

    def get_model_info(self, model):
        return {**self.info, "key": model}


def test_a_model_litellm_does_not_list_has_no_price():
    """Red-team sweep 59: for gemini/gemini-3-pro-preview, openai/gpt-9 and other names it does
    not list, litellm made up an entry priced 0; the cap took it as free and said nothing."""
    made_up = MadeUpEntry({"input_cost_per_token": 0, "output_cost_per_token": 0})
    assert price_module.list_prices(made_up, "gemini/gemini-3-pro-preview") is None
    listed_at_nothing = FullPriceList({"input_cost_per_token": 0.0, "output_cost_per_token": 0.0})
    assert price_module.list_prices(listed_at_nothing, "ollama/llama3") is None
    # red-team sweep 62: azure/model-router's answers are priced 0 (the model it routes to bills them)
    router = FullPriceList({"input_cost_per_token": 1.4e-7, "output_cost_per_token": 0.0})
    assert price_module.list_prices(router, "azure/model-router") is None


def test_a_model_priced_by_prompt_length_is_held_at_its_dearest_tier(monkeypatch):
    """Red-team sweep 59: dashscope/qwen3-max and 48 more are priced by tiers alone; their prices
    read 0, and nothing was held for their calls."""
    tiers = [
        {"input_cost_per_token": 2.4e-6, "output_cost_per_token": 1.2e-5, "range": [32000.0, 128000.0]},
        {"input_cost_per_token": 1.2e-6, "output_cost_per_token": 6e-6, "range": [0, 32000.0]},
    ]
    tiered = FullPriceList({"input_cost_per_token": 0, "output_cost_per_token": 0, "tiered_pricing": tiers})
    prices = price_module.list_prices(tiered, "dashscope/qwen3-max")
    assert prices is not None and (prices.prompt, prices.answer) == (1.2e-6, 6e-6)
    assert (prices.most_prompt, prices.most_answer) == (2.4e-6, 1.2e-5)
    one_tier = FullPriceList({"input_cost_per_token": 2.4e-6, "output_cost_per_token": 1.2e-5})
    assert _worst(monkeypatch, tiered) == pytest.approx(_worst(monkeypatch, one_tier))


LISTED = {"input_cost_per_token": 2e-6, "output_cost_per_token": 8e-6}


@pytest.mark.parametrize(
    ("info", "args", "why"),
    [
        (None, {}, "litellm lists no price for it"),
        ({**LISTED, "citation_cost_per_token": 2e-6}, {}, "searches of its own"),
        (LISTED, {"web_search_options": {"search_context_size": "high"}}, "web_search_options has the provider run"),
        (LISTED, {"tools": [{"type": "web_search_20250305", "name": "web_search"}]}, "tools has the provider run"),
        (LISTED, {"tools": [{"googleSearch": {}}]}, "tools has the provider run"),
        (LISTED, {"extra_body": {"tools": [{"type": "code_execution"}]}}, "extra_body.tools has"),
        # red-team sweep 60: litellm's Gemini code reads the tool's key, whatever its type says
        (LISTED, {"tools": [{"type": "function", "googleSearch": {}}]}, "tools has"),
        (LISTED, {"tools": [{"type": "function", "function": {"name": "f", "googleSearch": {}}}]}, "tools has"),
        (LISTED, {"functions": [{"name": "f", "googleSearch": {}}]}, "functions has"),
        # red-team sweeps 59-61 each found a provider's own argument billing past the worst case;
        # under the cap only arguments it accounts for are sent
        (LISTED, {"extra_body": {"generationConfig": {"temperature": 0}}}, "what extra_body.generationConfig does"),
        (LISTED, {"inferenceConfig": {"topP": 0.5}, "num_ctx": 8192}, "what inferenceConfig, num_ctx do"),
        # red-team sweep 62: claude-opus-4-6's fast mode has no price in the list; a header may ask
        # for another kind of service
        (LISTED, {"speed": "fast"}, "what speed does"),
        (LISTED, {"service_tier": "priority"}, "what service_tier does"),
        (LISTED, {"extra_headers": {"x-amzn-bedrock-performanceconfig-latency": "optimized"}}, "extra_headers"),
    ],
)  # fmt: skip
def test_what_the_cap_cannot_count_is_named(info, args, why):
    """Red-team sweep 59: a deep-research model ran 30 searches a call, billed with the pages
    they read, against one search held; a web search asked by an argument is billed the same way."""
    prices = None if info is None else price_module.list_prices(FullPriceList(info), "perplexity/m")
    reason = price_module.uncapped(prices, 1000, args, local=False)
    assert reason is not None and why in reason
    # at a server on this machine a model without a price costs nothing; a priced one is paid for
    # behind a proxy there, and its searches and tools are not counted there either
    assert (price_module.uncapped(prices, 1000, args, local=True) is None) is (info is None)


def test_a_call_the_cap_can_count_is_not_refused():
    prices = price_module.list_prices(FullPriceList(LISTED), "openai/m")
    tools = {"tools": [{"type": "function", "function": {"name": "draw", "parameters": {}}}], "temperature": 0}
    assert price_module.uncapped(prices, 1000, tools, local=False) is None
    anthropic = {"tools": [{"name": "draw", "description": "points", "input_schema": {"type": "object"}}]}
    functions = {"functions": [{"name": "draw", "parameters": {"type": "object"}}]}
    assert price_module.uncapped(prices, 1000, anthropic, local=False) is None
    assert price_module.uncapped(prices, 1000, functions, local=False) is None


def test_a_model_whose_length_limit_litellm_drops_is_held_at_its_longest_answer(monkeypatch):
    """Red-team sweep 59 (seen): litellm drops max_tokens for v0's models (drop_params), so their
    answers run to the model's own limit (512,000 tokens at $75 a million for v0-1.5-lg)."""
    listed = {"input_cost_per_token": 1e-6, "output_cost_per_token": 4e-6, "max_output_tokens": 50_000}
    obeys = {**listed, "supported_openai_params": ["max_tokens", "temperature"]}
    drops = {**listed, "supported_openai_params": ["temperature", "stream"]}
    held = _worst(monkeypatch, FullPriceList(obeys))
    assert _worst(monkeypatch, FullPriceList(drops)) == pytest.approx(held + 49_000 * 4e-6)  # (asked 1,000)
    no_longest = price_module.list_prices(FullPriceList({**drops, "max_output_tokens": None}), "v0/m")
    assert "litellm drops --max-tokens" in (price_module.uncapped(no_longest, 1000, {}, local=False) or "")


@pytest.mark.parametrize(
    "args",
    [
        {"maxTokens": 64000},  # Bedrock Converse's inferenceConfig spelling: litellm sends it over ours
        {"max_gen_len": 64000},  # Meta's on Bedrock
        {"extra_body": {"generationConfig": {"max_output_tokens": 64000}}},  # merged into Gemini's own
        {"extra_body": {"inferenceConfig": {"maxTokens": 64000}}},
    ],
)
def test_an_answer_limit_is_read_however_it_is_spelled_and_nested(args):
    """Red-team sweep 61: Gemini's generationConfig inside extra_body and Bedrock's maxTokens
    replaced --max-tokens 300 at the provider, while the cap held 300 tokens a call: 8.5 and 15
    times the cap."""
    assert price_module.answer_limit(300, args) == 64000
    schema = {"tools": [{"type": "function", "function": {"name": "f", "parameters": {"max_tokens": 9}}}]}
    assert price_module.answer_limit(300, schema) == 300  # (a schema's property, not a setting)
