"""Contract hooks called the way the upstream host calls them, with what JSON cannot carry.

The protocol names each hook's parameters (the TypeScript contract's vocabulary); this module
turns them into the Python call the Hermes host makes: `compress` gets only the keywords its
signature accepts, `on_session_start` gets `hermes_home`, `update_model` gets all six keywords.
Around the call it records identity (`result is messages`) and in-place mutation of arguments."""

import json
import marshal

from . import facts, wire

# Hooks upstream runs on a pooled worker thread (everything else runs on the conversation's thread).
POOLED = frozenset({"compress"})


def _update_model_kwargs(options):
    kwargs = {"model": "", "context_length": 0, "base_url": "", "api_key": "", "provider": "", "api_mode": ""}
    kwargs.update(options or {})
    return kwargs


def _compress(engine, p):
    function = engine.compress
    accepted = set(facts.accepted_compress_keywords(function))
    candidates = {"current_tokens": p.get("current_tokens"), "focus_topic": p.get("focus_topic"), "force": bool(p.get("force", False))}
    if p.get("bypass_cooldown"):
        candidates["bypass_cooldown"] = True
    if p.get("memory_context"):
        candidates["memory_context"] = p["memory_context"]
    return function(p["messages"], **{key: value for key, value in candidates.items() if key in accepted})


def _on_session_start(engine, p):
    info = dict(p.get("info") or {})
    if "home" in info:
        info["hermes_home"] = info.pop("home")
    return engine.on_session_start(p["session_id"], **info)


def _should(engine, p, method):
    function = getattr(engine, method)
    return function(p["prompt_tokens"]) if "prompt_tokens" in p else function()


def _optional_tokens(function, first, p):
    return function(first, current_tokens=p["current_tokens"]) if "current_tokens" in p else function(first)


CALLS = {
    "update_model": (lambda e, p: e.update_model(**_update_model_kwargs(p.get("options"))), ()),
    "on_session_start": (_on_session_start, ("info",)),
    "update_from_response": (lambda e, p: e.update_from_response(p["usage"]), ("usage",)),
    "should_compress": (lambda e, p: _should(e, p, "should_compress"), ()),
    "should_compress_info": (lambda e, p: _should(e, p, "should_compress_info"), ()),
    "should_compress_preflight": (lambda e, p: e.should_compress_preflight(p["messages"]), ("messages",)),
    "compress": (_compress, ("messages",)),
    "prune_tool_results_only": (lambda e, p: _optional_tokens(e.prune_tool_results_only, p["messages"], p), ("messages",)),
    "has_content_to_compress": (lambda e, p: e.has_content_to_compress(p["messages"]), ("messages",)),
    "select_context": (
        lambda e, p: e.select_context(
            p["request_messages"],
            conversation_messages=p.get("conversation_messages"),
            incoming_message=p.get("incoming_message"),
            budget_tokens=p.get("budget_tokens", 0),
        ),
        ("request_messages", "conversation_messages", "incoming_message"),
    ),
    "on_turn_complete": (lambda e, p: e.on_turn_complete(p["messages"], usage=p.get("usage"), **(p.get("info") or {})), ("messages", "usage")),
    "get_tool_schemas": (lambda e, p: e.get_tool_schemas(), ()),
    "handle_tool_call": (lambda e, p: e.handle_tool_call(p["name"], p["args"], **(p.get("options") or {})), ("args", "options")),
    "on_session_end": (lambda e, p: e.on_session_end(p["session_id"], p["messages"]), ("messages",)),
    "on_session_reset": (lambda e, p: e.on_session_reset(), ()),
    "get_status": (lambda e, p: e.get_status(), ()),
    "clone_for_agent": (lambda e, p: e.clone_for_agent(), ()),
}


def translate(hook, value):
    """Python's answer in the contract's terms where the two differ (should_compress_info's tuple)."""
    if hook == "should_compress_info" and isinstance(value, (tuple, list)) and len(value) == 2 and isinstance(value[0], bool):
        should, reason = value
        return {"blocked": (not should) and reason is not None, "reason": reason, "should_compress": should}
    return value


class Watch:
    """Arguments as they were before the call, to tell afterwards which ones the engine changed.

    The snapshot is `marshal` bytes (C speed, ten times json's) of all the watched arguments at
    once, so the leaves they share (a conversation copy's strings are its request message's) are
    written once: equal bytes after the call mean nothing changed. Different bytes are confirmed
    argument by argument, comparing the unmarshalled originals with the arguments (marshal also
    records how often an object is referenced, so a reference the engine kept changes the bytes,
    not the values)."""

    def __init__(self, params, names, known=None):
        # Arguments whose state before the call is already kept apart (refs.py): compared with `==`.
        self._known = [(name, params[name], before) for name, before in (known or {}).items() if name in names]
        names = [name for name in names if name not in (known or {})]
        self._names = [name for name in names if isinstance(params.get(name), (list, dict))]
        self._values = tuple(params[name] for name in self._names)
        self._bytes = None
        self._texts = None
        if self._values:
            try:
                self._bytes = marshal.dumps(self._values)
            except ValueError:  # something marshal cannot write: fall back to JSON text
                self._texts = [wire.dumps(value) for value in self._values]

    def same_as(self, value):
        for name, original, _before in self._known:
            if value is original:
                return name
        for name, original in zip(self._names, self._values):
            if value is original:
                return name
        return None

    def mutations(self):
        changed = []
        for name, original, before in self._known:
            if not _same(before, original):
                after = json.loads(wire.dumps(original))
                changed.append({"param": name, "value": after, "paths": facts.changed_paths(before, after)})
        return changed + self._marshalled_mutations()

    def _marshalled_mutations(self):
        if not self._values:
            return []
        if self._bytes is not None:
            try:
                if marshal.dumps(self._values) == self._bytes:
                    return []
            except ValueError:
                pass
            befores = marshal.loads(self._bytes)
            unchanged = [_same(before, original) for before, original in zip(befores, self._values)]
        else:
            befores = [json.loads(text) for text in self._texts]
            unchanged = [wire.dumps(original) == text for original, text in zip(self._values, self._texts)]
        changed = []
        for name, before, original, same in zip(self._names, befores, self._values, unchanged):
            if same:
                continue
            after = json.loads(wire.dumps(original))
            changed.append({"param": name, "value": after, "paths": facts.changed_paths(before, after)})
        return changed


def _same(before, after):
    try:
        return before == after
    except Exception:
        return False


def underive(params):
    """`conversation_messages` sent as differences from `request_messages` (docs/engine-protocol.md):
    each becomes a new dict, the request message's keys (nested values copied anew) then its own."""
    derived = params.get("conversation_messages")
    request = params.get("request_messages")
    if isinstance(derived, dict) and derived.get("$derive") == "request_messages" and isinstance(request, list):
        params["conversation_messages"] = [{**own_copy(base), **own} for base, own in zip(request, derived.get("extra") or [])]


def own_copy(message):
    """A new dict of `message` whose nested lists and dicts are new too (JSON data always marshals)."""
    if any(type(value) in _CONTAINERS for value in message.values()):
        return marshal.loads(marshal.dumps(message))
    return message.copy()


_CONTAINERS = (dict, list)


class _Unwatched:
    """The watch of a hook with no argument the engine could change in place (should_compress)."""

    def same_as(self, value):
        return None

    def mutations(self):
        return []


_UNWATCHED = _Unwatched()


def prepare(engine, hook, params, known=None):
    """The call to make and the watch over its arguments (taken before the call); `known`: the
    arguments' state before the call where it is kept already (messages sent by reference)."""
    underive(params)
    function, tracked = CALLS[hook]
    return (lambda: function(engine, params)), Watch(params, tracked, known) if tracked else _UNWATCHED
