"""The agent.context_engine shim behaves as the contract's ABC."""

import copy
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "shims"), os.path.join(HERE, "..", "lib")]

from agent import context_engine  # noqa: E402
from agent.context_engine import ContextEngine  # noqa: E402


class Minimal(ContextEngine):
    @property
    def name(self):
        return "minimal"

    def update_from_response(self, usage):
        self.last_prompt_tokens = usage["prompt_tokens"]

    def should_compress(self, prompt_tokens=None):
        return False

    def compress(self, messages, current_tokens=None, focus_topic=None):
        return messages


class AbstractBaseTest(unittest.TestCase):
    def test_is_a_real_abc_with_an_abstract_name_property(self):
        self.assertEqual(ContextEngine.__abstractmethods__, frozenset({"name", "update_from_response", "should_compress", "compress"}))
        self.assertIsInstance(ContextEngine.__dict__["name"], property)

    def test_a_subclass_missing_an_abstract_member_cannot_be_constructed(self):
        class NoCompress(ContextEngine):
            name = "x"

            def update_from_response(self, usage):
                pass

            def should_compress(self, prompt_tokens=None):
                return False

        with self.assertRaises(TypeError) as raised:
            NoCompress()
        self.assertIn("compress", str(raised.exception))

    def test_a_complete_subclass_is_an_instance(self):
        self.assertIsInstance(Minimal(), ContextEngine)

    def test_class_attributes_of_the_contract(self):
        engine = Minimal()
        expected = {"last_prompt_tokens": 0, "last_completion_tokens": 0, "last_total_tokens": 0, "threshold_tokens": 0, "context_length": 0, "compression_count": 0, "threshold_percent": 0.75, "protect_first_n": 3, "protect_last_n": 6}
        self.assertEqual({key: getattr(engine, key) for key in expected}, expected)
        self.assertTrue(engine.emit_automatic_compaction_status)


class DefaultsTest(unittest.TestCase):
    def setUp(self):
        self.engine = Minimal()

    def test_optional_hooks_are_no_ops(self):
        self.assertIsNone(self.engine.select_context([{"role": "user", "content": "x"}], conversation_messages=[], incoming_message=None, budget_tokens=0))
        self.assertIsNone(self.engine.on_turn_complete([], usage=None, turn_id="t"))
        self.assertFalse(self.engine.should_compress_preflight([]))
        self.assertTrue(self.engine.has_content_to_compress([]))
        self.assertFalse(self.engine.should_defer_preflight_to_real_usage(10))
        self.assertIsNone(self.engine.pending_compression_operation([]))
        self.assertEqual(self.engine.get_tool_schemas(), [])
        messages = [{"role": "user", "content": "x"}]
        self.assertEqual(self.engine.prune_tool_results_only(messages), (messages, 0))
        self.assertEqual(self.engine.should_compress_info(5), (False, None))
        self.assertEqual(self.engine.get_automatic_compaction_status_message(phase="idle", default_message="compacting"), "compacting")

    def test_select_context_keywords_are_keyword_only(self):
        with self.assertRaises(TypeError):
            self.engine.select_context([], [], None, 0)

    def test_unknown_tool_answers_json(self):
        self.assertEqual(self.engine.handle_tool_call("nope", {}), '{"error": "Unknown context engine tool: nope"}')

    def test_session_reset_zeroes_counters(self):
        self.engine.last_prompt_tokens = self.engine.last_completion_tokens = self.engine.last_total_tokens = 9
        self.engine.compression_count = 4
        self.engine.on_session_reset()
        self.assertEqual((self.engine.last_prompt_tokens, self.engine.last_completion_tokens, self.engine.last_total_tokens, self.engine.compression_count), (0, 0, 0, 0))

    def test_status_clamps_the_minus_one_sentinel(self):
        self.engine.update_model("m", 1000)
        self.engine.last_prompt_tokens = -1
        status = self.engine.get_status()
        self.assertEqual(status["last_prompt_tokens"], 0)
        self.assertEqual(status["threshold_tokens"], 750)

    def test_update_model_sets_window_and_threshold(self):
        self.engine.update_model(model="m", context_length=200000, base_url="", api_key="", provider="", api_mode="")
        self.assertEqual((self.engine.context_length, self.engine.threshold_tokens), (200000, 150000))

    def test_update_model_applies_the_longest_matching_model_threshold(self):
        self.engine.model_thresholds = {"gpt": 0.5, "gpt-5.5": 0.85}
        self.engine.update_model("openai/gpt-5.5-codex", 1000)
        self.assertEqual(self.engine.threshold_tokens, 850)
        self.engine.update_model("claude", 1000)
        self.assertEqual(self.engine.threshold_tokens, 750, "the config's percent is back for a model without an override")

    def test_clone_is_a_deep_copy(self):
        self.engine.threshold_percent = 0.6
        clone = self.engine.clone_for_agent()
        self.assertIsNot(clone, self.engine)
        self.assertEqual(clone.threshold_percent, 0.6)
        clone.context_length = 5
        self.assertEqual(self.engine.context_length, 0)


class HelpersTest(unittest.TestCase):
    def test_memory_context_is_redacted_and_capped(self):
        text = "key sk-abcdefghijklmnop and https://user:pass@example.com " + "x" * 7000
        cleaned = context_engine.sanitize_memory_context(text)
        self.assertNotIn("sk-abcdefghijklmnop", cleaned)
        self.assertNotIn("user:pass", cleaned)
        self.assertIn("[memory provider context truncated]", cleaned)
        self.assertLessEqual(len(cleaned), context_engine.MEMORY_CONTEXT_MAX_CHARS + 60)

    def test_status_message_respects_the_engine(self):
        engine = Minimal()
        self.assertEqual(context_engine.automatic_compaction_status_message(engine, phase="idle", default_message="m"), "m")
        engine.emit_automatic_compaction_status = False
        self.assertIsNone(context_engine.automatic_compaction_status_message(engine, phase="idle", default_message="m"))

    def test_deepcopy_default_clone_is_independent(self):
        engine = Minimal()
        engine.state = {"n": [1]}
        clone = copy.deepcopy(engine)
        clone.state["n"].append(2)
        self.assertEqual(engine.state["n"], [1])


if __name__ == "__main__":
    unittest.main()
