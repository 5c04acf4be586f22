"""ctxbench's stand-in for the Hermes auxiliary LLM client: `call_llm` asks the host over the engine
protocol, and the host answers with its deterministic summarizer (or a scripted failure), so the
summaries an engine builds are reproducible and no network is touched."""

import contextlib
from types import SimpleNamespace

from _ctxbench_bridge import runtime


class AuxiliaryTimeoutError(TimeoutError):
    """The auxiliary call did not answer in time (scripted by the host)."""


class AuxiliaryConnectionError(ConnectionError):
    """The auxiliary provider could not be reached (scripted by the host)."""


class AuxiliaryAuthenticationError(Exception):
    """The auxiliary provider refused the credentials (HTTP 401, scripted by the host)."""

    status_code = 401


class AuxiliaryRateLimitError(Exception):
    """The auxiliary provider refused for quota (HTTP 429, scripted by the host)."""

    status_code = 429


class AuxiliaryExplicitCancellation(BaseException):
    cause = "explicit_host_cancel"


_ERRORS = {
    "timeout": AuxiliaryTimeoutError,
    "connection": AuxiliaryConnectionError,
    "auth": AuxiliaryAuthenticationError,
    "quota": AuxiliaryRateLimitError,
}


def _response(content, model):
    message = SimpleNamespace(role="assistant", content=content, tool_calls=None)
    choice = SimpleNamespace(index=0, message=message, finish_reason="stop")
    return SimpleNamespace(id="ctxbench-aux", model=model or "ctxbench/summarizer", choices=[choice], usage=None)


def call_llm(task=None, messages=None, **kwargs):
    """Answer one auxiliary request; returns an object with `choices[0].message.content`."""
    params = {
        "task": task,
        "messages": messages if isinstance(messages, list) else [],
        "model": kwargs.get("model"),
        "temperature": kwargs.get("temperature"),
        "max_tokens": kwargs.get("max_tokens"),
        "timeout": kwargs.get("timeout"),
    }
    reply = runtime.ask_host_llm(params)
    failure = reply.get("error")
    if failure:
        raise _ERRORS.get(failure.get("kind"), RuntimeError)(failure.get("message") or failure.get("kind"))
    return _response(reply.get("content"), params["model"])


async def async_call_llm(task=None, messages=None, **kwargs):
    return call_llm(task=task, messages=messages, **kwargs)


def _is_connection_error(error):
    return isinstance(error, (ConnectionError, TimeoutError))


@contextlib.contextmanager
def aux_interrupt_protection(active=True, cancel_check=None, cancel_event=None):
    yield


def __getattr__(name):
    runtime.record_missing_member(__name__, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r} (ctxbench provides call_llm only)")
