"""select_context's request_messages sent by reference (docs/engine-protocol.md, "Messages by
reference"): the messages the host sent once are kept here by number, and each call gets separate
copies of them, as a full send would give it.

The kept messages are never handed to the engine, so they are also the arguments as they were
before the call: comparing them with what the engine holds afterwards (`==`, in C, where a leaf the
engine did not replace is the very same object) tells in-place changes apart without a snapshot."""

import marshal

FEATURE = "message-refs"
_CONTAINERS = (dict, list)


class RefError(Exception):
    pass


class KeptMessages:
    def __init__(self):
        self._kept = {}

    def resolve(self, arguments):
        """Replace a by-reference `request_messages` (and a derived `conversation_messages`) with
        new lists for the engine; returns the arguments as they were, by name, for the watch.
        Runs on the reader thread, in the order the host sent its requests."""
        refs = arguments.get("request_messages")
        if not (isinstance(refs, dict) and "$refs" in refs):
            return {}
        if refs.get("reset"):
            self._kept.clear()
        define = refs.get("define") or {}
        if not isinstance(define, dict):
            raise RefError("define must be an object of numbered messages")
        for key, message in define.items():
            if not isinstance(message, dict) or not key.isdigit():
                raise RefError(f"define: message {key!r} is not an object numbered by the host")
            # The lists and dicts a message holds (tool_calls) are copied from their marshal bytes, in C;
            # its strings are shared, as they cannot change.
            nested = {name: value for name, value in message.items() if type(value) in _CONTAINERS}
            self._kept[int(key)] = (message, marshal.dumps(nested) if nested else None)
        try:
            kept = [self._kept[number] for number in refs["$refs"]]
        except (KeyError, TypeError) as missing:
            raise RefError(f"request_messages names message {missing}, which the host never sent")
        request = [message.copy() if blob is None else {**message, **marshal.loads(blob)} for message, blob in kept]
        arguments["request_messages"] = request
        before = {"request_messages": [message for message, _blob in kept]}
        derived = arguments.get("conversation_messages")
        if isinstance(derived, dict) and derived.get("$derive") == "request_messages":
            extras = derived.get("extra") or []
            # Each its own copy of the kept message (nested values too, as the host's copies are), then its extras.
            arguments["conversation_messages"] = [{**message, **own} if blob is None else {**message, **marshal.loads(blob), **own} for (message, blob), own in zip(kept, extras)]
            # The extras as sent, apart from the engine's: one marshal round trip, in C (parsed JSON always marshals).
            originals = marshal.loads(marshal.dumps(extras))
            before["conversation_messages"] = [{**message, **own} for (message, _blob), own in zip(kept, originals)]
        return before

    def __len__(self):
        return len(self._kept)
