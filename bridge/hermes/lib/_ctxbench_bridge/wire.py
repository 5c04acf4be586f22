"""JSON for the protocol: compact, ASCII-escaped (so lone surrogates survive), and never invalid. Values JSON cannot carry (objects,
NaN, coroutines) become {"$native": <type>, "repr": <text>} markers instead of breaking the line."""

import json
import math

_plain = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def type_name(value):
    """The Python type of a value as a report shows it: builtins bare, others module-qualified."""
    kind = type(value)
    if kind.__module__ == "builtins":
        return kind.__qualname__
    return f"{kind.__module__}.{kind.__qualname__}"


def native_marker(value):
    try:
        text = repr(value)
    except Exception as error:  # a __repr__ that raises is the engine's, not ours
        text = f"<repr failed: {type(error).__name__}>"
    return {"$native": type_name(value), "repr": text[:200]}


def _default(value):
    return native_marker(value)


_tolerant = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), allow_nan=False, default=_default)

try:
    from json.encoder import c_encode_basestring_ascii, c_make_encoder
except ImportError:  # an interpreter without the C accelerator
    c_make_encoder = c_encode_basestring_ascii = None
# _plain's own C encoder, made once: JSONEncoder.encode makes a new one, and a dict of markers for
# circular references, on every call. Without markers it keeps no state, so every thread shares it;
# a circular value ends in RecursionError here and takes the full path, which names it.
_reused = c_make_encoder(None, None, c_encode_basestring_ascii, None, ":", ",", False, False, False) if c_make_encoder and c_encode_basestring_ascii else None


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return native_marker(value)
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def dumps(value):
    """Encode anything: plain JSON when possible, markers for what JSON cannot carry."""
    if _reused is not None:
        try:
            return "".join(_reused(value, 0))
        except (TypeError, ValueError, OverflowError, RecursionError):
            pass
    try:
        return _plain.encode(value)
    except (TypeError, ValueError, OverflowError):
        pass
    try:
        return _tolerant.encode(value)
    except ValueError:
        return _tolerant.encode(_finite(value))
    except RecursionError:
        return _plain.encode(native_marker(value))


_SCALARS = (bool, int, str, type(None))


def is_plain_json(value):
    kind = type(value)
    if kind in _SCALARS or (kind is float and math.isfinite(value)):
        return True
    try:
        _plain.encode(value)
        return True
    except (TypeError, ValueError, OverflowError, RecursionError):
        return False
