"""select_context's request_messages sent by reference (docs/engine-protocol.md, "Messages by
reference"): the messages the host sent once are kept here by number, and each call gets separate
copies of them, as a full send would give it.

The kept messages are never handed to the engine, so they are also the arguments as they were
before the call: comparing them with what the engine holds afterwards (`==`, in C, where a leaf the
engine did not replace is the very same object) tells in-place changes apart without a snapshot.

Copies are the bulk of a call's work (a 500-message request and its conversation are a thousand
new dicts), and a request mostly starts with the messages of the one before. So once a call is
answered, `refill` makes the copies of that call's messages ahead, while the host is busy with the
answer; the next request that starts with those messages takes them and copies only the rest. A
copy made ahead is as new as one made on demand: nothing but this module sees it before it is
handed out, once."""

import marshal
import threading

FEATURE = "message-refs"
_CONTAINERS = (dict, list)
# Messages copied ahead between two looks at the channel (a look is a system call; a slice, some 50 µs).
_REFILL_SLICE = 64


class RefError(Exception):
    pass


def _fresh(kept):
    return [message.copy() if blob is None else {**message, **marshal.loads(blob)} for message, blob in kept]


class KeptMessages:
    def __init__(self):
        self._kept = {}
        # Bumped whenever a number's message is replaced or dropped: copies made before are stale.
        self._generation = 0
        # (generation, numbers, [copies of those messages, in order], ...): made ahead, not handed out.
        self._ahead = None
        self._lock = threading.Lock()

    def resolve(self, arguments):
        """Replace a by-reference `request_messages` (and a derived `conversation_messages`) with
        new lists for the engine; returns the arguments as they were, by name, for the watch.
        Runs on the reader thread, in the order the host sent its requests."""
        refs = arguments.get("request_messages")
        if not (isinstance(refs, dict) and "$refs" in refs):
            return {}
        define = refs.get("define") or {}
        if not isinstance(define, dict):
            raise RefError("define must be an object of numbered messages")
        if refs.get("reset"):
            self._kept.clear()
            self._generation += 1
        for key, message in define.items():
            if not isinstance(message, dict) or not key.isdigit():
                raise RefError(f"define: message {key!r} is not an object numbered by the host")
            number = int(key)
            if number in self._kept:
                self._generation += 1
            # The lists and dicts a message holds (tool_calls) are copied from their marshal bytes, in C;
            # its strings are shared, as they cannot change.
            nested = {name: value for name, value in message.items() if type(value) in _CONTAINERS}
            self._kept[number] = (message, marshal.dumps(nested) if nested else None)
        numbers = refs["$refs"]
        try:
            kept = [self._kept[number] for number in numbers]
        except (KeyError, TypeError) as missing:
            raise RefError(f"request_messages names message {missing}, which the host never sent")
        derived = arguments.get("conversation_messages")
        derive = isinstance(derived, dict) and derived.get("$derive") == "request_messages"
        copies = self._copies(numbers, kept, 2 if derive else 1)
        arguments["request_messages"] = copies[0]
        before = {"request_messages": [message for message, _blob in kept]}
        if derive:
            extras = derived.get("extra") or []
            conversation = copies[1][: len(extras)]
            if not any(extras):
                before["conversation_messages"] = before["request_messages"][: len(extras)]
            else:
                # Each its own copy of the kept message (nested values too, as the host's copies are), then its extras.
                for message, own in zip(conversation, extras):
                    if own:
                        message.update(own)
                # The extras as sent, apart from the engine's: one marshal round trip, in C (parsed JSON always marshals).
                originals = marshal.loads(marshal.dumps(extras))
                before["conversation_messages"] = [{**message, **own} if own else message for (message, _blob), own in zip(kept, originals)]
            arguments["conversation_messages"] = conversation
        return before

    def _copies(self, numbers, kept, lists):
        """`lists` new lists of copies of `kept`: the copies made ahead where the request starts with their messages, the rest now."""
        with self._lock:
            ahead, self._ahead = self._ahead, None
        start = 0
        if ahead is not None and ahead[0] == self._generation and len(ahead) - 2 >= lists:
            made = ahead[1]
            if numbers[: len(made)] == made:
                start = len(made)
        if start == 0:
            return [_fresh(kept) for _ in range(lists)]
        rest = kept[start:]
        return [ahead[2 + index] + _fresh(rest) if rest else ahead[2 + index] for index in range(lists)]

    def refill(self, numbers, lists, interrupted=None):
        """After a call is answered: copies of its messages for the next request (`lists` of them:
        2 when its conversation is derived from the request). Made a slice at a time, stopping when
        `interrupted()` says a request is waiting: the copies of the first messages still serve it."""
        generation = self._generation
        try:
            kept = [self._kept[number] for number in numbers]
        except KeyError:
            return
        made = [[] for _ in range(lists)]
        done = 0
        while done < len(kept):
            if interrupted is not None and interrupted():
                break
            part = kept[done : done + _REFILL_SLICE]
            for copies in made:
                copies += _fresh(part)
            done += len(part)
        if done == 0:
            return
        ahead = (generation, list(numbers[:done]), *made)
        with self._lock:
            if generation == self._generation:
                self._ahead = ahead

    def __len__(self):
        return len(self._kept)
