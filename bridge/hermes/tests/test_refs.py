"""select_context's request_messages by reference: kept by number, copied anew for every call."""

from .support import BridgeTest, write_plugin
from .test_calls import MESSAGES, engine_with

TOOL_CALL = {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "t", "arguments": "{}"}}]}
REMEMBERS = (
    "def select_context(self, request_messages, *, conversation_messages=None, incoming_message=None, budget_tokens=0):\n"
    "    previous = getattr(self, 'seen', None)\n"
    "    self.fresh = previous is None or all(a is not b for a, b in zip(previous, request_messages))\n"
    "    self.nested_fresh = previous is None or previous[-1].get('tool_calls') is None or previous[-1]['tool_calls'] is not request_messages[-1]['tool_calls']\n"
    "    self.seen = request_messages\n"
    "    self.count = len(request_messages)\n"
    "    if budget_tokens == 1:\n"
    "        request_messages[1]['content'] = 'rewritten'\n"
    "        request_messages[-1]['tool_calls'][0]['function']['arguments'] = '{\"x\": 1}'\n"
    "    return request_messages[-1:] if budget_tokens == 2 else None\n"
)
REQUEST = MESSAGES + [TOOL_CALL]


def by_reference(numbers, define=None, reset=False):
    refs = {"$refs": numbers, "define": {str(key): value for key, value in (define or {}).items()}}
    if reset:
        refs["reset"] = True
    return refs


class MessageRefsTest(BridgeTest):
    def setUp(self):
        super().setUp()
        directory = write_plugin(self.plugins, "simple", engine_with(REMEMBERS))
        self.link = self.bridge()
        self.initialized = self.link.load(directory, "simple")["result"]
        self.handle = self.link.result("create", {})["handle"]

    def select(self, refs, budget=0):
        return self.link.hook(self.handle, "select_context", {"request_messages": refs, "budget_tokens": budget})

    def select_on_own_engine(self, name, body, params):
        """One select_context call on a fresh engine whose select_context runs `body` (lines of Python)."""
        signature = "def select_context(self, request_messages, *, conversation_messages=None, incoming_message=None, budget_tokens=0):\n"
        link = self.bridge()
        link.load(write_plugin(self.plugins, name, engine_with(signature + "".join(f"    {line}\n" for line in body))), name)
        handle = link.result("create", {})["handle"]
        return link.hook(handle, "select_context", params)["result"]

    def test_the_bridge_announces_the_feature(self):
        self.assertIn("message-refs", self.initialized["features"])

    def test_messages_sent_once_reach_every_later_call_as_new_objects_equal_to_them(self):
        first = self.select(by_reference([1, 2, 3, 4, 5], dict(enumerate(REQUEST, start=1))))["result"]
        self.assertEqual(first["attrs"]["count"], 5)
        second = self.select(by_reference([1, 2, 3, 4, 5], {}), budget=2)["result"]
        self.assertTrue(second["attrs"]["fresh"])
        self.assertTrue(second["attrs"]["nested_fresh"])
        self.assertEqual(second["value"], [TOOL_CALL])
        repeated = self.select(by_reference([1, 1, 5], {}))["result"]
        self.assertEqual(repeated["attrs"]["count"], 3)

    def test_in_place_changes_are_reported_with_where_and_the_kept_messages_stay_as_sent(self):
        self.select(by_reference([1, 2, 3, 4, 5], dict(enumerate(REQUEST, start=1))))
        changed = self.select(by_reference([1, 2, 3, 4, 5], {}), budget=1)["result"]
        [change] = changed["mutated"]
        self.assertEqual(change["param"], "request_messages")
        self.assertEqual(change["paths"], ["$[1].content", "$[4].tool_calls[0].function.arguments"])
        self.assertEqual(change["value"][1]["content"], "rewritten")
        again = self.select(by_reference([1, 2, 3, 4, 5], {}), budget=2)["result"]
        self.assertNotIn("mutated", again)
        self.assertEqual(again["value"], [TOOL_CALL])

    def test_a_derived_conversation_is_rebuilt_from_the_copies_and_watched(self):
        self.select(by_reference([1, 2], {1: MESSAGES[0], 2: MESSAGES[1]}))
        derived = {"$derive": "request_messages", "extra": [{"message_uid": "u0"}, {"message_uid": "u1"}]}
        answer = self.link.hook(self.handle, "select_context", {"request_messages": by_reference([1, 2]), "conversation_messages": derived})["result"]
        self.assertNotIn("mutated", answer)

    def test_a_nested_extra_the_engine_changes_in_place_is_reported_where_it_changed(self):
        derived = {"$derive": "request_messages", "extra": [{"tool_calls": [{"id": "c1", "type": "function"}]}]}
        answer = self.select_on_own_engine(
            "nested",
            ["conversation_messages[0]['tool_calls'][0]['id'] = 'changed'", "return None"],
            {"request_messages": by_reference([1], {1: MESSAGES[0]}), "conversation_messages": derived},
        )
        [change] = answer["mutated"]
        self.assertEqual((change["param"], change["paths"]), ("conversation_messages", ["$[0].tool_calls[0].id"]))

    def test_a_nested_list_of_a_kept_message_is_the_conversations_own_copy(self):
        derived = {"$derive": "request_messages", "extra": [{"message_uid": "u0"}]}
        answer = self.select_on_own_engine(
            "kept",
            [
                "self.separate = conversation_messages[0]['tool_calls'] is not request_messages[0]['tool_calls']",
                "conversation_messages[0]['tool_calls'][0]['id'] = 'changed'",
                "return None",
            ],
            {"request_messages": by_reference([1], {1: TOOL_CALL}), "conversation_messages": derived},
        )
        self.assertTrue(answer["attrs"]["separate"])
        [change] = answer["mutated"]
        self.assertEqual((change["param"], change["paths"]), ("conversation_messages", ["$[0].tool_calls[0].id"]))

    def test_a_message_named_twice_gives_two_separate_copies(self):
        answer = self.select_on_own_engine(
            "twice",
            [
                "first, second = request_messages",
                "self.separate = first is not second and first['tool_calls'] is not second['tool_calls'] and first['tool_calls'][0] is not second['tool_calls'][0]",
                "return None",
            ],
            {"request_messages": by_reference([1, 1], {1: TOOL_CALL})},
        )
        self.assertTrue(answer["attrs"]["separate"])

    def test_reset_drops_what_was_kept_and_an_unknown_number_is_a_one_line_error(self):
        self.select(by_reference([1], {1: MESSAGES[0]}))
        self.assertIn("result", self.select(by_reference([2], {2: MESSAGES[1]}, reset=True)))
        failed = self.select(by_reference([1]))
        self.assertEqual(failed["error"]["code"], -32602)
        self.assertIn("never sent", failed["error"]["message"])
        self.assertIn("result", self.select(by_reference([2])))
