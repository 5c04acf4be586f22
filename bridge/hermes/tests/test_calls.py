"""Hooks are called as the upstream host calls them, and answers carry what JSON cannot."""

import threading
import time
import unittest

from .support import ENGINE_RAISED, SIMPLE_ENGINE, BridgeTest

MESSAGES = [{"role": "system", "content": "s"}, {"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}, {"role": "user", "content": "c"}]


def engine_with(body, base="Simple"):
    return {"__init__.py": SIMPLE_ENGINE + f"\n\nclass Engine({base}):\n" + "\n".join("    " + line for line in body.strip("\n").split("\n")) + "\n\ndef register(ctx):\n    ctx.register_context_engine(Engine())\n"}


class OverridesTest(BridgeTest):
    def test_inherited_hooks_are_not_overrides_and_defined_ones_are(self):
        _bridge, engine = self.loaded(engine_with("def on_turn_complete(self, messages, usage=None, **kwargs):\n    pass"))
        self.assertFalse(engine["overrides"]["select_context"])
        self.assertTrue(engine["overrides"]["on_turn_complete"])

    def test_an_instance_attribute_function_counts_as_overridden(self):
        _bridge, engine = self.loaded(engine_with("def __init__(self):\n    self.select_context = lambda request, **kw: None"))
        self.assertTrue(engine["overrides"]["select_context"])

    def test_signatures_and_the_compress_keywords_the_host_will_pass(self):
        _bridge, engine = self.loaded(engine_with("def compress(self, messages, current_tokens=None, force=False):\n    return messages"))
        self.assertEqual(engine["compressKeywords"], ["current_tokens", "force"])
        names = [param["name"] for param in engine["signatures"]["compress"]["params"]]
        self.assertEqual(names, ["messages", "current_tokens", "force"])
        _bridge, wide = self.loaded(engine_with("def compress(self, messages, **kwargs):\n    return messages"), name="wide")
        self.assertEqual(wide["compressKeywords"], ["current_tokens", "focus_topic", "force", "memory_context", "bypass_cooldown"])


class ConventionsTest(BridgeTest):
    def test_compress_gets_only_the_keywords_its_signature_accepts(self):
        bridge, engine = self.loaded(engine_with("def compress(self, messages, current_tokens=None):\n    self.got = current_tokens\n    return messages[-1:]"))
        answer = bridge.hook(engine["handle"], "compress", {"messages": MESSAGES, "current_tokens": 99, "focus_topic": "x", "force": True})
        self.assertIn("result", answer, answer)
        self.assertEqual(answer["result"]["value"], MESSAGES[-1:])
        self.assertEqual(answer["result"]["attrs"]["got"], 99)

    def test_on_session_start_gets_hermes_home(self):
        bridge, engine = self.loaded(engine_with("def on_session_start(self, session_id, **kwargs):\n    self.where = kwargs['hermes_home']\n    self.sid = session_id"))
        answer = bridge.hook(engine["handle"], "on_session_start", {"session_id": "s1", "info": {"home": "/sandbox", "platform": "cli"}})
        self.assertEqual((answer["result"]["attrs"]["where"], answer["result"]["attrs"]["sid"]), ("/sandbox", "s1"))

    def test_update_model_gets_all_six_keywords(self):
        bridge, engine = self.loaded(engine_with("def update_model(self, model, context_length, base_url, api_key, provider, api_mode):\n    self.context_length = context_length\n    self.mode = api_mode"))
        answer = bridge.hook(engine["handle"], "update_model", {"options": {"model": "m", "context_length": 8000}})
        self.assertEqual(answer["result"]["attrs"]["context_length"], 8000)
        self.assertEqual(answer["result"]["attrs"]["mode"], "")

    def test_should_compress_info_becomes_the_contract_shape(self):
        bridge, engine = self.loaded(engine_with("def should_compress_info(self, prompt_tokens=None):\n    return False, 'cooling down'"))
        answer = bridge.hook(engine["handle"], "should_compress_info", {})
        self.assertEqual(answer["result"]["value"], {"blocked": True, "reason": "cooling down", "should_compress": False})

    def test_select_context_keywords_and_tool_call_messages(self):
        bridge, engine = self.loaded(engine_with(
            "def select_context(self, request_messages, *, conversation_messages=None, incoming_message=None, budget_tokens=0):\n"
            "    return [incoming_message] if budget_tokens == 4000 else None\n"
            "def handle_tool_call(self, name, args, **kwargs):\n"
            "    import json\n"
            "    return json.dumps({'n': len(kwargs['messages'])})"
        ))
        chosen = bridge.hook(engine["handle"], "select_context", {"request_messages": MESSAGES, "conversation_messages": MESSAGES, "incoming_message": MESSAGES[-1], "budget_tokens": 4000})
        self.assertEqual(chosen["result"]["value"], [MESSAGES[-1]])
        tool = bridge.hook(engine["handle"], "handle_tool_call", {"name": "t", "args": {}, "options": {"messages": MESSAGES}})
        self.assertEqual(tool["result"]["value"], '{"n": 4}')


class NativeFactsTest(BridgeTest):
    def test_the_very_input_object_is_named_not_sent(self):
        bridge, engine = self.loaded(engine_with("def compress(self, messages, current_tokens=None, focus_topic=None):\n    del messages[1]\n    return messages"))
        answer = bridge.hook(engine["handle"], "compress", {"messages": MESSAGES})["result"]
        self.assertEqual(answer["sameAs"], "messages")
        self.assertNotIn("value", answer)
        [change] = answer["mutated"]
        self.assertEqual(change["param"], "messages")
        self.assertEqual(change["value"], [MESSAGES[0]] + MESSAGES[2:])
        self.assertIn("$[1].content", change["paths"])

    def test_in_place_mutation_of_a_keyword_argument_says_where(self):
        bridge, engine = self.loaded(engine_with(
            "def select_context(self, request_messages, *, conversation_messages=None, incoming_message=None, budget_tokens=0):\n"
            "    conversation_messages[0]['content'] = 'rewritten'\n"
            "    return None"
        ))
        answer = bridge.hook(engine["handle"], "select_context", {"request_messages": MESSAGES, "conversation_messages": MESSAGES, "incoming_message": MESSAGES[-1]})["result"]
        self.assertEqual([(c["param"], c["paths"]) for c in answer["mutated"]], [("conversation_messages", ["$[0].content"])])

    def test_bool_and_int_and_coroutine_and_tuple_are_told_apart(self):
        bridge, engine = self.loaded(engine_with(
            "def should_compress(self, prompt_tokens=None):\n"
            "    return 1 if prompt_tokens else True\n"
            "async def should_compress_preflight(self, messages):\n"
            "    return True\n"
            "def select_context(self, request_messages, **kwargs):\n"
            "    return tuple(request_messages)"
        ))
        handle = engine["handle"]
        self.assertEqual(bridge.hook(handle, "should_compress", {})["result"]["type"], "bool")
        as_int = bridge.hook(handle, "should_compress", {"prompt_tokens": 5})["result"]
        self.assertEqual((as_int["type"], as_int["value"]), ("int", 1))
        coroutine = bridge.hook(handle, "should_compress_preflight", {"messages": MESSAGES})["result"]
        self.assertEqual((coroutine["type"], coroutine["json"], coroutine["awaitable"]), ("coroutine", False, True))
        self.assertEqual(coroutine["value"]["$native"], "coroutine")
        self.assertEqual(bridge.hook(handle, "select_context", {"request_messages": MESSAGES})["result"]["type"], "tuple")

    def test_values_json_cannot_carry_become_markers(self):
        bridge, engine = self.loaded(engine_with("def get_status(self):\n    return {'when': object(), 'ratio': float('nan')}"))
        value = bridge.hook(engine["handle"], "get_status", {})["result"]["value"]
        self.assertEqual(value["when"]["$native"], "object")
        self.assertEqual(value["ratio"]["$native"], "float")

    def test_attribute_types_json_hides(self):
        bridge, engine = self.loaded(engine_with("def update_model(self, model, context_length, **kwargs):\n    self.context_length = context_length\n    self.threshold_tokens = context_length * 0.5"))
        answer = bridge.hook(engine["handle"], "update_model", {"options": {"model": "m", "context_length": 8000}})["result"]
        self.assertEqual(answer["attrs"]["threshold_tokens"], 4000.0)
        self.assertEqual(answer["attrTypes"], {"threshold_tokens": "float"})

    def test_a_clone_is_a_new_handle_and_self_is_named(self):
        bridge, engine = self.loaded(engine_with("pass"))
        clone = bridge.hook(engine["handle"], "clone_for_agent", {})["result"]
        self.assertNotEqual(clone["engine"]["handle"], engine["handle"])
        bridge2, same = self.loaded(engine_with("def clone_for_agent(self):\n    return self"), name="same")
        self.assertEqual(bridge2.hook(same["handle"], "clone_for_agent", {})["result"]["sameAs"], "self")

    def test_an_exception_names_its_type_and_carries_the_state(self):
        bridge, engine = self.loaded(engine_with("def compress(self, messages, current_tokens=None, focus_topic=None):\n    self.compression_count += 1\n    raise KeyError('message_uid')"))
        error = bridge.hook(engine["handle"], "compress", {"messages": MESSAGES})["error"]
        self.assertEqual(error["code"], ENGINE_RAISED)
        self.assertEqual(error["message"], "KeyError: 'message_uid'")
        self.assertEqual(error["data"]["attrs"]["compression_count"], 1)
        self.assertIn("raise KeyError", error["data"]["traceback"])

    def test_host_writes_go_across(self):
        bridge, engine = self.loaded(engine_with("pass"))
        bridge.notify("setattr", {"handle": engine["handle"], "name": "last_prompt_tokens", "value": -1})
        self.assertEqual(bridge.hook(engine["handle"], "get_status", {})["result"]["attrs"]["last_prompt_tokens"], -1)

    def test_any_method_by_name(self):
        bridge, engine = self.loaded(engine_with("def record_rejected_compaction(self, reason):\n    self.rejected = reason\n    return 'noted'"))
        answer = bridge.result("invoke", {"handle": engine["handle"], "method": "record_rejected_compaction", "args": ["would-grow"], "kwargs": {}})
        self.assertEqual((answer["value"], answer["attrs"]["rejected"]), ("noted", "would-grow"))


class ThreadsTest(BridgeTest):
    SLOW = (
        "def compress(self, messages, current_tokens=None, focus_topic=None):\n"
        "    import threading, time\n"
        "    self.thread = threading.current_thread().name\n"
        "    time.sleep(0.4)\n"
        "    return messages[-1:]\n"
        "def on_session_start(self, session_id, **kwargs):\n"
        "    import threading\n"
        "    self.start_thread = threading.current_thread().name"
    )

    def test_passes_of_two_sessions_overlap_on_pool_threads(self):
        bridge, engine = self.loaded(engine_with(self.SLOW))
        started = time.monotonic()
        first = bridge.start("hook", {"handle": engine["handle"], "hook": "compress", "params": {"messages": MESSAGES}})
        second = bridge.start("hook", {"handle": engine["handle"], "hook": "compress", "params": {"messages": MESSAGES}})
        answers = [bridge.wait(first), bridge.wait(second)]
        self.assertLess(time.monotonic() - started, 0.75, "two 0.4 s passes ran one after the other")
        self.assertTrue(all(a["result"]["attrs"]["thread"].startswith("compress-ctx") for a in answers))

    def test_other_hooks_run_on_the_thread_of_their_context(self):
        bridge, engine = self.loaded(engine_with(self.SLOW))
        inside = bridge.hook(engine["handle"], "on_session_start", {"session_id": "s"}, context="conversation-a")["result"]["attrs"]["start_thread"]
        outside = bridge.hook(engine["handle"], "on_session_start", {"session_id": "s"})["result"]["attrs"]["start_thread"]
        again = bridge.hook(engine["handle"], "on_session_start", {"session_id": "s"}, context="conversation-a")["result"]["attrs"]["start_thread"]
        self.assertEqual(inside, again)
        self.assertNotEqual(inside, outside)


class LlmTest(BridgeTest):
    SUMMARIZER = (
        "def compress(self, messages, current_tokens=None, focus_topic=None):\n"
        "    from agent.auxiliary_client import call_llm\n"
        "    try:\n"
        "        reply = call_llm(task='compression', messages=[{'role': 'user', 'content': 'sum'}], temperature=0.3, timeout=5)\n"
        "        self.summary = reply.choices[0].message.content\n"
        "    except Exception as error:\n"
        "        self.summary = type(error).__name__ + ':' + str(getattr(error, 'status_code', ''))\n"
        "    return messages[-1:]"
    )

    def test_call_llm_is_answered_by_the_host(self):
        seen = []
        bridge, engine = self.loaded(engine_with(self.SUMMARIZER), llm=lambda params: seen.append(params) or {"content": "the host's summary"})
        attrs = bridge.hook(engine["handle"], "compress", {"messages": MESSAGES})["result"]["attrs"]
        self.assertEqual(attrs["summary"], "the host's summary")
        self.assertEqual((seen[0]["task"], seen[0]["temperature"], seen[0]["timeout"]), ("compression", 0.3, 5))

    def test_scripted_failures_raise_what_engines_catch(self):
        for kind, expected in [("timeout", "AuxiliaryTimeoutError:"), ("connection", "AuxiliaryConnectionError:"), ("auth", "AuxiliaryAuthenticationError:401")]:
            bridge, engine = self.loaded(engine_with(self.SUMMARIZER), name=f"s{kind}", llm=lambda params, kind=kind: {"error": kind})
            self.assertEqual(bridge.hook(engine["handle"], "compress", {"messages": MESSAGES})["result"]["attrs"]["summary"], expected)
        bridge, engine = self.loaded(engine_with(self.SUMMARIZER), name="sempty", llm=lambda params: {"content": ""})
        self.assertEqual(bridge.hook(engine["handle"], "compress", {"messages": MESSAGES})["result"]["attrs"]["summary"], "")


class HostHooksTest(BridgeTest):
    def test_hooks_appended_to_the_plugin_manager_are_announced_and_fired(self):
        bridge, engine = self.loaded({
            "__init__.py": SIMPLE_ENGINE + (
                "\nfrom hermes_cli.plugins import get_plugin_manager\n"
                "SEEN = []\n"
                "def register(ctx):\n"
                "    ctx.register_context_engine(Simple())\n"
                "    get_plugin_manager()._hooks.setdefault('post_llm_call', []).append(lambda **kw: SEEN.append(kw['session_id']) or 'ingested')\n"
            ),
        })
        hooks = [note["params"]["hooks"] for note in bridge.notifications if note["method"] == "hooks"]
        self.assertEqual(hooks[-1], {"post_llm_call": 1})
        fired = bridge.result("fire", {"event": "post_llm_call", "kwargs": {"session_id": "s1", "conversation_history": MESSAGES}})
        self.assertEqual(fired, {"results": ["ingested"], "errors": []})


if __name__ == "__main__":
    unittest.main()


class DerivedConversationTest(BridgeTest):
    def test_conversation_messages_sent_as_differences_are_rebuilt_as_separate_dicts(self):
        bridge, engine = self.loaded(engine_with(
            "def select_context(self, request_messages, *, conversation_messages=None, incoming_message=None, budget_tokens=0):\n"
            "    self.rebuilt = conversation_messages == [dict(m, message_uid='u' + str(i)) for i, m in enumerate(request_messages)]\n"
            "    self.separate = all(a is not b for a, b in zip(conversation_messages, request_messages))\n"
            "    conversation_messages[0]['content'] = 'changed'\n"
            "    return None"
        ))
        extra = [{"message_uid": f"u{i}"} for i in range(len(MESSAGES))]
        answer = bridge.hook(engine["handle"], "select_context", {"request_messages": MESSAGES, "conversation_messages": {"$derive": "request_messages", "extra": extra}})["result"]
        self.assertTrue(answer["attrs"]["rebuilt"])
        self.assertTrue(answer["attrs"]["separate"])
        self.assertEqual([change["param"] for change in answer["mutated"]], ["conversation_messages"])

    def test_a_nested_list_not_sent_again_is_the_conversations_own_copy(self):
        bridge, engine = self.loaded(engine_with(
            "def select_context(self, request_messages, *, conversation_messages=None, incoming_message=None, budget_tokens=0):\n"
            "    self.equal = conversation_messages[0]['tool_calls'] == request_messages[0]['tool_calls']\n"
            "    self.separate = conversation_messages[0]['tool_calls'] is not request_messages[0]['tool_calls']\n"
            "    conversation_messages[0]['tool_calls'][0]['id'] = 'changed'\n"
            "    return None"
        ))
        request = [{"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function"}]}]
        answer = bridge.hook(engine["handle"], "select_context", {"request_messages": request, "conversation_messages": {"$derive": "request_messages", "extra": [{"message_uid": "u0"}]}})["result"]
        self.assertTrue(answer["attrs"]["equal"])
        self.assertTrue(answer["attrs"]["separate"])
        [change] = answer["mutated"]
        self.assertEqual((change["param"], change["paths"]), ("conversation_messages", ["$[0].tool_calls[0].id"]))
