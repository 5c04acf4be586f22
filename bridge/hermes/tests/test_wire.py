"""The protocol's JSON: compact and ASCII-escaped, markers for what JSON cannot carry."""

import json
import os
import sys
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "lib")]

from _ctxbench_bridge import wire  # noqa: E402


class DumpsTest(unittest.TestCase):
    def test_plain_values_are_exactly_the_standard_encoders_text(self):
        values = [
            {"jsonrpc": "2.0", "id": 7, "result": {"type": "bool", "value": False, "json": True, "attrs": {"ratio": 0.75, "n": 2**70, "on": True}, "attrTypes": {}}},
            ["é", "\ud800", "\n", None, 1.5, -0.0, [], {}],
            (1, 2),
            {1: "int key", True: "bool key"},
            "text",
        ]
        for value in values:
            self.assertEqual(wire.dumps(value), json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False))

    def test_what_json_cannot_carry_becomes_markers_in_place(self):
        self.assertEqual(json.loads(wire.dumps({"ratio": float("nan")})), {"ratio": {"$native": "float", "repr": "nan"}})
        marked = json.loads(wire.dumps({"when": [object()]}))
        self.assertEqual(marked["when"][0]["$native"], "object")

    def test_a_value_seen_twice_is_not_a_circular_one(self):
        shared = {"a": [1]}
        self.assertEqual(wire.dumps([shared, shared]), '[{"a":[1]},{"a":[1]}]')

    def test_threads_encoding_at_once_each_get_their_own_text(self):
        texts = {}

        def encode(n):
            texts[n] = [wire.dumps({"n": n, "items": list(range(n))}) for _ in range(200)]

        workers = [threading.Thread(target=encode, args=(n,)) for n in range(8)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        for n, encoded in texts.items():
            self.assertEqual(set(encoded), {json.dumps({"n": n, "items": list(range(n))}, separators=(",", ":"))})


if __name__ == "__main__":
    unittest.main()
