"""Copies of kept messages made ahead (refs.KeptMessages.refill): as new, and as right, as copies made on demand."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "lib")]

from _ctxbench_bridge import refs  # noqa: E402

SYSTEM = {"role": "system", "content": "s"}
USER = {"role": "user", "content": "a"}
CALL = {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "t", "arguments": "{}"}}]}


def request(numbers, define=None, extras=None, reset=False):
    refs_value = {"$refs": list(numbers), "define": {str(key): value for key, value in (define or {}).items()}}
    if reset:
        refs_value["reset"] = True
    arguments = {"request_messages": refs_value}
    if extras is not None:
        arguments["conversation_messages"] = {"$derive": "request_messages", "extra": extras}
    return arguments


class CopiesMadeAheadTest(unittest.TestCase):
    def setUp(self):
        self.kept = refs.KeptMessages()

    def call(self, numbers, define=None, extras=None, reset=False):
        """One call as the server makes it: resolve, (the engine runs), then refill."""
        arguments = request(numbers, define, extras, reset)
        before = self.kept.resolve(arguments)
        self.kept.refill(list(numbers), 2 if extras is not None else 1)
        return arguments, before

    def assertSeparate(self, first, second):
        for a, b in zip(first, second):
            self.assertIsNot(a, b)
            if "tool_calls" in a:
                self.assertIsNot(a["tool_calls"], b["tool_calls"])
                self.assertIsNot(a["tool_calls"][0], b["tool_calls"][0])

    def test_the_next_request_gets_new_objects_equal_to_the_messages_and_only_the_new_message_copied_now(self):
        first, _ = self.call([1, 2, 3], {1: SYSTEM, 2: USER, 3: CALL}, extras=[{}, {}, {}])
        second, before = self.call([1, 2, 3, 4], {4: USER | {"content": "b"}}, extras=[{}, {}, {}, {"message_uid": "u4"}])
        self.assertEqual(second["request_messages"], [SYSTEM, USER, CALL, USER | {"content": "b"}])
        self.assertEqual(second["conversation_messages"], [SYSTEM, USER, CALL, USER | {"content": "b", "message_uid": "u4"}])
        self.assertSeparate(first["request_messages"], second["request_messages"])
        self.assertSeparate(second["request_messages"], second["conversation_messages"])
        self.assertEqual(before["conversation_messages"][3], USER | {"content": "b", "message_uid": "u4"})

    def test_an_engines_in_place_edit_of_one_call_never_reaches_the_next(self):
        first, _ = self.call([1, 2], {1: USER, 2: CALL}, extras=[{}, {}])
        first["request_messages"][0]["content"] = "edited"
        first["conversation_messages"][1]["tool_calls"][0]["function"]["arguments"] = '{"x":1}'
        second, _ = self.call([1, 2], extras=[{}, {}])
        self.assertEqual(second["request_messages"], [USER, CALL])
        self.assertEqual(second["conversation_messages"], [USER, CALL])

    def test_a_request_that_does_not_start_with_the_last_ones_messages_is_copied_now(self):
        self.call([1, 2, 3], {1: SYSTEM, 2: USER, 3: CALL})
        moved, _ = self.call([3, 1])
        self.assertEqual(moved["request_messages"], [CALL, SYSTEM])

    def test_a_number_defined_again_or_dropped_by_a_reset_never_gives_its_old_message(self):
        self.call([1, 2], {1: SYSTEM, 2: USER})
        redefined, _ = self.call([1, 2], {2: CALL})
        self.assertEqual(redefined["request_messages"], [SYSTEM, CALL])
        after_reset, _ = self.call([1, 2], {1: USER, 2: SYSTEM}, reset=True)
        self.assertEqual(after_reset["request_messages"], [USER, SYSTEM])

    def test_copies_made_ahead_for_the_request_alone_do_not_serve_a_derived_conversation(self):
        self.call([1], {1: CALL})
        both, _ = self.call([1], extras=[{"message_uid": "u1"}])
        self.assertEqual(both["conversation_messages"], [CALL | {"message_uid": "u1"}])
        self.assertSeparate(both["request_messages"], both["conversation_messages"])

    def test_each_copy_made_ahead_is_handed_out_once(self):
        self.call([1], {1: CALL})
        first, second = request([1]), request([1])
        self.kept.resolve(first)  # takes the copies made ahead; no refill after it
        self.kept.resolve(second)
        self.assertEqual(second["request_messages"], [CALL])
        self.assertSeparate(first["request_messages"], second["request_messages"])

    def test_a_refill_stopped_by_a_waiting_request_still_serves_it_with_what_it_made(self):
        many = {number: USER | {"content": f"m{number}"} for number in range(1, 201)}
        self.kept.resolve(request(many, many))
        looks = iter([False, True])
        self.kept.refill(list(many), 1, lambda: next(looks))
        made_ahead = self.kept._ahead[2]
        self.assertEqual(len(made_ahead), refs._REFILL_SLICE)
        served = request(many)
        self.kept.resolve(served)
        self.assertEqual(served["request_messages"], list(many.values()))
        self.assertIs(served["request_messages"][0], made_ahead[0])
        self.kept.refill(list(many), 1, lambda: True)
        self.assertIsNone(self.kept._ahead)


if __name__ == "__main__":
    unittest.main()
