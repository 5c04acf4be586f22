"""What the engine is, decided the way Python (and the upstream host) decide it."""

import inspect
import math

from . import wire

# Optional hooks whose override the host checks, in the upstream way.
OPTIONAL_HOOKS = (
    "select_context", "on_turn_complete", "should_compress_preflight", "should_compress_info",
    "should_defer_preflight_to_real_usage", "has_content_to_compress", "prune_tool_results_only",
    "pending_compression_operation", "get_automatic_compaction_status_message", "on_session_start",
    "on_session_end", "on_session_reset", "get_tool_schemas", "handle_tool_call", "get_status",
    "update_model", "clone_for_agent",
)
REQUIRED_MEMBERS = ("update_from_response", "should_compress", "compress")
# Hooks the host calls with keyword arguments it filters or that engines commonly narrow.
SIGNED_HOOKS = ("compress", "select_context", "on_turn_complete", "on_session_start", "update_model", "handle_tool_call", "should_compress")
COMPRESS_CANDIDATES = ("current_tokens", "focus_topic", "force", "memory_context", "bypass_cooldown")
# Budget fields and configuration the host reads directly.
CONTRACT_ATTRS = (
    "last_prompt_tokens", "last_completion_tokens", "last_total_tokens", "threshold_tokens",
    "context_length", "compression_count", "threshold_percent", "protect_first_n", "protect_last_n",
    "emit_automatic_compaction_status",
)
_SCALARS = (bool, int, float, str, type(None))
_MAX_ATTR_TEXT = 512


def overrides(engine, base, hook):
    """The host's test: callable and not the base class's very function; an instance attribute counts."""
    try:
        member = getattr(engine, hook, None)
        if member is None or not callable(member):
            return False
        function = getattr(member, "__func__", None)
        if function is None:
            return True
        return base is None or function is not getattr(base, hook, None)
    except Exception:
        return True


def js_type(value, present=True):
    """The `typeof` a TypeScript engine's member would have, for checks written in those terms."""
    if not present:
        return "undefined"
    if callable(value):
        return "function"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


def signature_of(function):
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError) as error:
        return {"error": f"{type(error).__name__}: {error}"}
    params = []
    var_keyword = var_positional = False
    for param in signature.parameters.values():
        if param.kind is param.VAR_KEYWORD:
            var_keyword = True
        elif param.kind is param.VAR_POSITIONAL:
            var_positional = True
        params.append({"name": param.name, "kind": param.kind.name.lower(), "hasDefault": param.default is not param.empty})
    return {"params": params, "varKeyword": var_keyword, "varPositional": var_positional}


def accepted_compress_keywords(function):
    """Which of the host's compress keywords this signature takes (upstream's signature filtering)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return ["current_tokens"]
    params = signature.parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return list(COMPRESS_CANDIDATES)
    keywordable = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [name for name in COMPRESS_CANDIDATES if name in params and params[name].kind in keywordable]


_PLAIN = (bool, int, str, type(None))


def _attr_value(value, types, key):
    kind = type(value)
    if kind in _PLAIN and (kind is not str or len(value) <= _MAX_ATTR_TEXT):
        return value
    if isinstance(value, _SCALARS):
        if isinstance(value, float) and not math.isfinite(value):
            return wire.native_marker(value)
        if isinstance(value, str) and len(value) > _MAX_ATTR_TEXT:
            return value[:_MAX_ATTR_TEXT]
        kind = wire.type_name(value)
        # JSON cannot tell 6000.0 from 6000, nor an int subclass from an int: say so.
        if kind not in ("bool", "int", "str", "NoneType", "float") or (kind == "float" and value.is_integer()):
            types[key] = kind
        return value
    types[key] = wire.type_name(value)
    return wire.native_marker(value)


def snapshot(engine):
    """The contract's fields plus the engine's own public scalar attributes, and the native types JSON hides."""
    attrs, types = {}, {}
    for key in CONTRACT_ATTRS:
        try:
            value = getattr(engine, key)
        except Exception:
            continue
        kind = type(value)
        # An int, a bool or None goes as it is, without a call (this runs after every hook).
        attrs[key] = value if kind is int or kind is bool or value is None else _attr_value(value, types, key)
    try:
        own = vars(engine)
    except TypeError:
        own = {}
    for key, value in list(own.items()):
        if key in attrs or not isinstance(key, str) or (key.startswith("_") and not key.startswith("_last_")):
            continue
        if isinstance(value, _SCALARS):
            kind = type(value)
            attrs[key] = value if kind is int or kind is bool or value is None else _attr_value(value, types, key)
    return attrs, types


def read_name(engine):
    try:
        return engine.name, None
    except Exception as error:
        return None, f"{type(error).__name__}: {error}"


def qualified(cls):
    return f"{cls.__module__}.{cls.__qualname__}"


def describe(engine, base, handle, via):
    """The handshake's description of one engine instance."""
    cls = type(engine)
    name, name_error = read_name(engine)
    is_subclass = bool(base is not None and isinstance(cls, type) and issubclass(cls, base))
    members = {}
    for member in REQUIRED_MEMBERS:
        present = hasattr(engine, member)
        members[member] = js_type(getattr(engine, member, None), present)
    attrs, types = snapshot(engine)
    signatures = {}
    for hook in SIGNED_HOOKS:
        function = getattr(engine, hook, None)
        if callable(function):
            signatures[hook] = signature_of(function)
    compress = getattr(engine, "compress", None)
    return {
        "handle": handle,
        "via": via,
        "name": name if isinstance(name, str) else None,
        "nameError": name_error,
        "nameType": wire.type_name(name) if name_error is None else None,
        "class": {
            "module": cls.__module__,
            "qualname": cls.__qualname__,
            "mro": [qualified(c) for c in cls.__mro__],
            "isSubclassOfABC": is_subclass,
            "isInstanceOfABC": bool(base is not None and isinstance(engine, base)),
            "abstractMissing": sorted(getattr(cls, "__abstractmethods__", ()) or ()),
        },
        "contract": {
            "isContextEngine": is_subclass,
            "members": members,
            "nameType": "error" if name_error is not None else js_type(name),
        },
        "overrides": {hook: overrides(engine, base, hook) for hook in OPTIONAL_HOOKS},
        "signatures": signatures,
        "compressKeywords": accepted_compress_keywords(compress) if callable(compress) else [],
        "attrs": attrs,
        "attrTypes": types,
    }


def changed_paths(before, after, path="$", out=None, limit=20):
    """Where two JSON-like values differ, as $-rooted paths (at most `limit`)."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(before, dict) and isinstance(after, dict):
        for key in list(before.keys()) + [k for k in after.keys() if k not in before]:
            if key not in after or key not in before:
                out.append(f"{path}.{key}")
            else:
                changed_paths(before[key], after[key], f"{path}.{key}", out, limit)
            if len(out) >= limit:
                break
    elif isinstance(before, list) and isinstance(after, (list, tuple)):
        for index in range(max(len(before), len(after))):
            if index >= len(before) or index >= len(after):
                out.append(f"{path}[{index}]")
            else:
                changed_paths(before[index], after[index], f"{path}[{index}]", out, limit)
            if len(out) >= limit:
                break
    elif before != after or type(before) is not type(after):
        out.append(path)
    return out
