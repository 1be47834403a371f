"""model_config: --model-arg parsing, configuration files, which source wins, and secrets refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shape_asserts.asking.model_config import (
    ModelConfig,
    describe_change,
    parse_model_args,
    read_models_file,
    read_pyproject,
    resolve,
)
from shape_asserts.exceptions import ModelConfigError

# --- --model-arg ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "value"),
    [
        ("top_p=0.5", 0.5),
        ("seed=7", 7),
        ("logprobs=true", True),
        ("stop=null", None),
        ("reasoning_effort=high", "high"),
        ('extra_body={"thinking": {"budget_tokens": 1024}}', {"thinking": {"budget_tokens": 1024}}),
        ('stop=["\\n\\n", "END"]', ["\n\n", "END"]),
        ("user=a=b", "a=b"),  # only the first '=' splits
        ("seed=NaN", "NaN"),  # JSON's non-finite constants stay text: no NaN is sent as a number
    ],
)
def test_a_model_arg_value_is_read_as_json_where_it_parses_else_as_text(item, value):
    assert parse_model_args([item], "--model-arg") == {item.partition("=")[0]: value}


def test_a_later_model_arg_of_the_same_key_wins():
    assert parse_model_args(["seed=1", "top_p=0.5", "seed=2"], "--model-arg") == {"seed": 2, "top_p": 0.5}


@pytest.mark.parametrize("item", ["top_p", "=0.5", "top p=0.5", "1x=2", ""])
def test_a_malformed_model_arg_is_refused_naming_the_option_and_the_form(item):
    with pytest.raises(ModelConfigError, match=r"--model-arg takes KEY=VALUE.*top_p=0\.5"):
        parse_model_args([item], "--model-arg")


def test_a_model_arg_without_a_value_is_refused_with_an_example():
    with pytest.raises(ModelConfigError, match=r"--model-arg seed= has no value; give one, as in seed="):
        parse_model_args(["seed="], "--model-arg")


@pytest.mark.parametrize(("key", "option"), [("temperature", "--temperature"), ("max_tokens", "--max-tokens")])
def test_a_model_arg_with_an_option_of_its_own_points_to_that_option(key, option):
    with pytest.raises(ModelConfigError, match=f"{key} has an option of its own; use {option}"):
        parse_model_args([f"{key}=1"], "--model-arg")


@pytest.mark.parametrize(
    ("key", "says"),
    [
        ("messages", "prompt"),
        ("api_base", "--api-base"),
        ("timeout", "--request-timeout"),
        ("n", "--samples"),
        ("fallbacks", "asks the one model"),
        ("context_window_fallbacks", "asks the one model"),
        ("mock_response", "answers come from the model"),
        ("retry_policy", "--max-retries"),
        ("model_list", "asks the one model"),
        ("context_window_fallback_dict", "asks the one model"),
        ("custom_llm_provider", "prefix"),
        ("deployment_id", "over Azure"),
        ("model_id", "inference profile"),  # red-team sweep 59: Opus asked, priced as Nova Micro
        ("candidate_count", "--samples"),  # Gemini's n
        ("best_of", "--samples"),  # red-team sweep 60: gpt-3.5-turbo-instruct billed 20 answers a call
        ("retry_policy", "--max-retries"),
    ],
)
def test_a_key_the_harness_sets_is_refused_with_what_sets_it(key, says):
    """(``fallbacks``: litellm asked the models listed inside one call, retrying a 5xx the run
    does not retry, recording another model's answer as the asked one's, with its own api_base.)"""
    with pytest.raises(ModelConfigError, match=f"{key} is set by the harness.*{says}"):
        parse_model_args([f"{key}=1"], "--model-arg")


@pytest.mark.parametrize(
    ("key", "says"),
    [("n", "--samples"), ("stream", "read whole"), ("model", "--model"), ("fallbacks", "asks the one model")],
)
def test_a_key_the_harness_sets_is_refused_inside_extra_body_too(key, says):
    """extra_body's keys join the request's body as they are: ``{"n": 8}`` there had the provider
    bill eight answers a call while the run recorded one and held one answer's worst case."""
    with pytest.raises(ModelConfigError, match=f"extra_body.{key} is set by the harness.*{says}"):
        parse_model_args([f'extra_body={{"{key}": 8, "verbosity": "low"}}'], "--model-arg")
    assert parse_model_args(['extra_body={"verbosity": "low"}'], "--model-arg") == {"extra_body": {"verbosity": "low"}}


# --- secrets -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "named"),
    [
        ("api_key=abc", "api_key"),
        ("apiKey=abc", "apiKey"),
        ("aws_secret_access_key=abc", "aws_secret_access_key"),
        ("access_token=abc", "access_token"),
        ('extra_headers={"Authorization": "Bearer abc"}', "extra_headers.Authorization"),
        ('extra_headers={"X-Api-Key": "abc"}', "extra_headers.X-Api-Key"),
        ('extra_body={"nested": {"password": "p"}}', "extra_body.nested.password"),
        ("user=sk-proj-abcdefgh1234", "user"),
        ('extra_body={"x": ["Bearer abcdef"]}', "extra_body.x.0"),
        # plurals, other spellings, and other providers' key shapes, anywhere in the value
        ('extra_headers={"X-Api-Keys": "abc"}', "extra_headers.X-Api-Keys"),
        ('extra_headers={"Authorisation": "abc"}', "extra_headers.Authorisation"),
        ("db_pwd=abc", "db_pwd"),
        ("user=hf_abcdefghijklmnopqrstuvwxyz123456", "user"),
        ("user=AKIAABCDEFGHIJKLMNOP", "user"),
        ("user=glpat-abcdefghij", "user"),
        ("user=team sk-proj-abcdefgh1234", "user"),
        ("user=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc", "user"),
        ('extra_headers={"X-Forward": "Basic dXNlcjpwYXNzd29yZA=="}', "extra_headers.X-Forward"),
        # (seventh sweep) a digit on the word, words run together, and more providers' shapes
        ('extra_headers={"X-API-KEY2": "abc"}', "extra_headers.X-API-KEY2"),
        ('extra_headers={"xapikey": "abc"}', "extra_headers.xapikey"),
        ("db_pass=abc", "db_pass"),
        ("sessionid=abc", "sessionid"),
        ('extra_body={"sa": "-----BEGIN PRIVATE KEY-----MIIEvQIBADANBgkqhkiG9w0"}', "extra_body.sa"),
        ("user=ASIAY34FZKBOKMUTVV7A", "user"),
        ("user=ya29.a0AfB_byC1234567890abcdefghij", "user"),
        ("user=csk-8j2k4m5n6p7q8r9s0t1v2w3x4y5z", "user"),
        ('extra_headers={"X-Up": "Token 0123456789abcdef0123456789"}', "extra_headers.X-Up"),
        ("user=sk_live_abcdefghij12", "user"),
    ],
)
def test_an_argument_that_looks_like_a_secret_is_refused_by_name_and_never_shown(item, named):
    with pytest.raises(ModelConfigError) as err:
        parse_model_args([item], "--model-arg")

    said = str(err.value)
    assert named in said and "set it in the environment instead" in said
    assert "abc" not in said.replace(named, "") and "sk-proj" not in said and "Bearer" not in said


def test_an_argument_holding_a_secret_environment_value_is_refused(monkeypatch):
    monkeypatch.setenv("MY_SERVICE_TOKEN", "plain-looking-value-42")

    with pytest.raises(ModelConfigError, match="its value looks like a key or token"):
        parse_model_args(["user=plain-looking-value-42"], "--model-arg")


@pytest.mark.parametrize(
    "item", ["max_completion_tokens=100", 'thinking={"type": "enabled", "budget_tokens": 1024}', "top_logprobs=2"]
)
def test_token_counts_are_not_taken_for_tokens(item):
    assert parse_model_args([item], "--model-arg")


# --- configuration files -------------------------------------------------------------------------


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "models.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_models_file_gives_each_table_its_model_and_every_other_key_as_an_argument(tmp_path):
    path = _file(
        tmp_path,
        '[models.low]\nmodel = "openai/gpt-5"\nreasoning_effort = "low"\n\n'
        '[models.high]\nmodel = "openai/gpt-5"\nreasoning_effort = "high"\nextra_body = { verbosity = "low" }\n',
    )

    configs = read_models_file(path)

    assert list(configs) == ["low", "high"]
    assert configs["high"].model == "openai/gpt-5"
    assert configs["high"].args == {"reasoning_effort": "high", "extra_body": {"verbosity": "low"}}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[models.x]\ntop_p = 0.9\n", r"\[models\.x\] has no model; add model = "),
        ('[models.x]\nmodel = ""\n', r"\[models\.x\] has no model"),
        ('[models.x\nmodel = "m"\n', r"is not valid TOML: .*line 1"),
        ('[model.x]\nmodel = "m"\n', r"unknown top-level key\(s\) model; the file holds only \[models\.NAME\]"),
        ("models = 3\n", r"models must be tables, written \[models\.NAME\]"),
        ('[models]\nx = "gpt-4o"\n', r"\[models\.x\] must be a table"),
        ('[models."a b"]\nmodel = "m"\n', r"a configuration's name is letters, digits"),
        ('[models.x]\nmodel = "m"\ntemperature = 3\n', r"temperature must be a number from 0 to 2, got 3"),
        ('[models.x]\nmodel = "m"\nmax_tokens = 0\n', r"max_tokens must be a whole number ≥ 1, got 0"),
        ('[models.x]\nmodel = "m"\napi_key = "k"\n', r"\[models\.x\] api_key: refused, since its name"),
        ('[models.x]\nmodel = "m"\nwhen = 2024-01-01\n', r"when is a date; an argument is a string"),
        ('[models.x]\nmodel = "m"\ntop_p = nan\n', r"top_p is nan, which JSON cannot send"),
        # red-team C2: named like the baseline's model, asking another, it passed the gate as that
        # model and rewrote its recordings as stale
        (
            '[models."reference/exact"]\nmodel = "reference/noisy"\n',
            r"named like a model \(provider/name\) must ask that model, not reference/noisy",
        ),
    ],
)
def test_a_bad_models_file_is_one_error_naming_the_file_the_table_and_the_fix(tmp_path, text, says):
    path = _file(tmp_path, text)

    with pytest.raises(ModelConfigError, match=says) as err:
        read_models_file(path)
    assert str(path) in str(err.value)


def test_a_configuration_named_like_its_own_model_is_allowed(tmp_path):
    configs = read_models_file(_file(tmp_path, '[models."openai/gpt-4o"]\nmodel = "openai/gpt-4o"\ntemperature = 0\n'))
    assert configs["openai/gpt-4o"].args == {"temperature": 0}


def test_a_missing_models_file_says_so(tmp_path):
    with pytest.raises(ModelConfigError, match=r"models\.toml does not exist; name a TOML file"):
        read_models_file(tmp_path / "models.toml")


def test_pyproject_configurations_live_under_tool_shape_asserts_models(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text(
        '[project]\nname = "x"\n\n[tool.shape-asserts.models.fast]\nmodel = "gpt-4o-mini"\nseed = 1\n', encoding="utf-8"
    )

    assert read_pyproject(path) == {
        "fast": ModelConfig("fast", "gpt-4o-mini", {"seed": 1}, f"{path} [tool.shape-asserts.models.fast]")
    }
    assert read_pyproject(tmp_path / "absent.toml") == {}


# --- which source wins ---------------------------------------------------------------------------


def test_a_configuration_key_wins_over_a_model_arg_which_adds_to_it():
    config = ModelConfig("hi", "openai/gpt-5", {"top_p": 0.9, "reasoning_effort": "high"})

    sent = resolve("hi", {"hi": config}, {"top_p": 0.5, "seed": 7}, None, 4096)

    assert sent.model == "openai/gpt-5"
    assert dict(sent.args) == {"reasoning_effort": "high", "seed": 7, "top_p": 0.9}


def test_a_configuration_temperature_and_token_limit_win_over_the_options():
    config = ModelConfig("hot", "gpt-4o", {"temperature": 1.5, "max_tokens": 100})

    sent = resolve("hot", {"hot": config}, {}, 0.2, 4096)
    plain = resolve("gpt-4o", {"hot": config}, {"seed": 7}, 0.2, 4096)

    assert (sent.temperature, sent.max_tokens, dict(sent.args)) == (1.5, 100, {})
    assert (plain.model, plain.temperature, plain.max_tokens, dict(plain.args)) == ("gpt-4o", 0.2, 4096, {"seed": 7})


def test_the_reference_drawers_are_sent_no_argument():
    config = ModelConfig("ref", "reference/exact", {"top_p": 0.9})

    assert dict(resolve("ref", {"ref": config}, {"seed": 7}, None, 4096).args) == {}
    assert dict(resolve("reference/noisy", {}, {"seed": 7}, None, 4096).args) == {}


def test_a_change_of_arguments_is_said_key_by_key():
    said = describe_change({"top_p": 0.9, "seed": 7, "stop": ["x"]}, {"top_p": 0.5, "seed": 7, "user": "me"})

    assert said == 'stop ["x"] dropped, top_p 0.9 → 0.5, user "me" added'
    assert describe_change({"seed": 1}, {"seed": True}) == "seed 1 → true"  # JSON's view: 1 is not true


def test_a_secret_in_a_recordings_arguments_is_not_shown_when_they_change():
    """An old or tampered recording's api_key was printed whole in the stale message (terminal,
    JUnit XML) when this run's arguments differ (red-team m4)."""
    said = describe_change({"api_key": "sk-SECRETFIXTURE123456789", "extra": {"token": "abc"}}, {})

    assert "SECRETFIXTURE" not in said and "abc" not in said
    assert said == "api_key (a value not shown) dropped, extra (a value not shown) dropped"


def test_a_models_file_that_is_no_regular_file_is_refused_unread(tmp_path):
    """A pipe waited for a writer for ever; ``/dev/zero`` ate memory until killed."""
    import os

    os.mkfifo(tmp_path / "models.fifo")
    (tmp_path / "zero.toml").symlink_to("/dev/zero")
    for name in ("models.fifo", "zero.toml"):
        with pytest.raises(ModelConfigError, match="could not be read: it is not a regular file"):
            read_models_file(tmp_path / name)


def test_an_unknown_key_under_tool_shape_asserts_stops_the_run(tmp_path):
    """A misspelt [tool.shape-asserts.model.X] was ignored: --model=X then asked X bare, without
    the configuration's arguments, recorded and paid for it."""
    path = tmp_path / "pyproject.toml"
    path.write_text('[tool.shape-asserts.model.exact]\nmodel = "openai/exact"\ntemperature = 0\n', encoding="utf-8")
    with pytest.raises(ModelConfigError, match="unknown key 'model'"):
        read_pyproject(path)


def test_a_change_of_many_long_argument_names_is_said_bounded():
    """Red-team sweep 50: a recording's arguments were named whole in the stale message: 2,000 keys
    of 4,000 characters made a line of 4 MB in the terminal and the JUnit XML."""
    recorded = {f"k{i:06d}" + "x" * 4_000: 1 for i in range(2_000)}
    said = describe_change(recorded, {})
    assert len(said) < 1_000
    assert said.endswith(f"and {2_000 - 8:,} more")
    assert said.startswith("k000000" + "x" * 52 + "… 1 dropped")


def test_arguments_too_large_for_a_results_line_are_refused_at_start(tmp_path):
    """Red-team sweep 52: a configuration's arguments of 1 MB (the models file may hold 4 MiB)
    made every results line longer than a reader takes: the run read back none of its own
    results, and its gate failed with the cases "not run"."""
    big = "x" * 70_000
    path = _file(tmp_path, f'[models.big]\nmodel = "openai/m"\nextra_body = {{ note = "{big}" }}\n')
    with pytest.raises(ModelConfigError, match=r"\[models.big\]: the arguments take 70,\d{3} characters as JSON"):
        read_models_file(path)
    with pytest.raises(ModelConfigError, match="over 65,536"):
        parse_model_args([f"user={big}"], "--model-arg")
    assert parse_model_args(["user=" + "y" * 60_000], "--model-arg")  # large, and still carried


@pytest.mark.parametrize("key", ["aws_bedrock_runtime_endpoint", "vertex_ai_url", "proxy_base_url", "API_BASE"])
def test_an_argument_naming_a_server_is_refused_for_api_base(key):
    """Red-team sweep 56: ``aws_bedrock_runtime_endpoint`` sent the call, and the AWS keys, to a
    server the run neither judged (local or not) nor masked."""
    with pytest.raises(ModelConfigError, match=f"{key} names where the call goes, which is --api-base's"):
        parse_model_args([f"{key}=http://10.0.0.1:8080"], "--model-arg")


@pytest.mark.parametrize(
    "arg",
    [
        "candidateCount=8",  # Gemini's own spelling of candidate_count
        "bestOf=4",
        'extra_body={"generationConfig": {"candidateCount": 8}}',
        'extra_body={"parameters": {"best_of": 4}}',  # Hugging Face's
        "num_return_sequences=3",
    ],
)
def test_an_argument_billing_several_answers_is_refused_however_spelled_and_nested(arg):
    """Red-team sweep 61: candidateCount=8 passed the refusal of candidate_count, and so did
    extra_body.generationConfig.candidateCount: Gemini billed 8 candidates where one was held."""
    with pytest.raises(ModelConfigError, match="--samples"):
        parse_model_args([arg], "--model-arg")


def test_a_schemas_property_named_like_a_multiplier_is_not_refused():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    tools = [{"type": "function", "function": {"name": "draw", "parameters": schema}}]
    assert parse_model_args([f"tools={json.dumps(tools)}"], "--model-arg") == {"tools": tools}
