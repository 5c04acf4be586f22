"""Plugins load as the upstream host loads them: directory path, general path, failures named."""

import os
import unittest

from .support import LOAD_FAILED, PROTOCOL, SIMPLE_ENGINE, BridgeTest, write_plugin


class DirectoryPathTest(BridgeTest):
    def test_register_ctx_with_sibling_modules_and_relative_imports(self):
        bridge, engine = self.loaded({
            "__init__.py": "from .engine import Simple\nfrom . import helpers\n\ndef register(ctx):\n    ctx.register_context_engine(Simple())\n",
            "engine.py": SIMPLE_ENGINE,
            "helpers.py": "VALUE = 1\n",
        })
        self.assertEqual(engine["name"], "simple")
        self.assertEqual(engine["via"], "register")
        self.assertEqual(engine["class"]["module"], "plugins.context_engine.simple.engine")
        self.assertTrue(engine["class"]["isSubclassOfABC"])
        self.assertEqual(engine["class"]["mro"][1], "agent.context_engine.ContextEngine")

    def test_siblings_are_executed_first_and_a_failing_one_is_only_reported(self):
        directory = write_plugin(self.plugins, "simple", {
            "__init__.py": "import sys\nfrom .engine import Simple\nassert 'plugins.context_engine.simple.aaa' in sys.modules\n",
            "engine.py": SIMPLE_ENGINE,
            "aaa.py": "X = 1\n",
            "broken.py": "raise RuntimeError('sibling boom')\n",
        })
        bridge = self.bridge()
        answer = bridge.load(directory, "simple")
        self.assertIn("result", answer, answer)
        self.assertTrue(any("broken.py" in warning and "sibling boom" in warning for warning in answer["result"]["warnings"]))
        self.assertEqual(bridge.result("create", {})["via"], "subclass")

    def test_without_register_the_first_subclass_in_dir_order_is_constructed_skipping_one_that_raises(self):
        bridge, engine = self.loaded({
            "__init__.py": SIMPLE_ENGINE + "\n\nclass ABroken(Simple):\n    def __init__(self):\n        raise ValueError('needs arguments')\n",
        })
        self.assertEqual(engine["class"]["qualname"], "Simple")
        self.assertEqual(engine["via"], "subclass")

    def test_each_create_is_a_fresh_instance(self):
        bridge, first = self.loaded({"__init__.py": SIMPLE_ENGINE + "\n\ndef register(ctx):\n    ctx.register_context_engine(Simple())\n"})
        second = bridge.result("create", {})
        self.assertNotEqual(first["handle"], second["handle"])

    def test_an_import_error_is_a_load_failure_naming_the_file(self):
        directory = write_plugin(self.plugins, "simple", {"__init__.py": "import definitely_not_installed_module\n"})
        answer = self.bridge().load(directory, "simple")
        self.assertEqual(answer["error"]["code"], LOAD_FAILED)
        self.assertEqual(answer["error"]["data"]["stage"], "import")
        self.assertIn("__init__.py", answer["error"]["message"])
        self.assertIn("definitely_not_installed_module", answer["error"]["message"])

    def test_exiting_the_interpreter_at_import_is_a_load_failure(self):
        directory = write_plugin(self.plugins, "simple", {"__init__.py": "import sys\nsys.exit(0)\n"})
        answer = self.bridge().load(directory, "simple")
        self.assertEqual(answer["error"]["code"], LOAD_FAILED)
        self.assertIn("exited the interpreter", answer["error"]["message"])

    def test_a_module_with_no_engine(self):
        bridge, _ = None, None
        directory = write_plugin(self.plugins, "simple", {"__init__.py": "X = 1\n"})
        bridge = self.bridge()
        self.assertIn("result", bridge.load(directory, "simple"))
        answer = bridge.call("create", {})
        self.assertEqual(answer["error"]["code"], LOAD_FAILED)
        self.assertEqual(answer["error"]["data"]["stage"], "none")

    def test_the_directory_collector_does_not_type_check(self):
        bridge, engine = self.loaded({
            "__init__.py": "class Duck:\n    name = 'simple'\n    def update_from_response(self, usage): pass\n    def should_compress(self, prompt_tokens=None): return False\n    def compress(self, messages, current_tokens=None, focus_topic=None): return messages\n\ndef register(ctx):\n    ctx.register_context_engine(Duck())\n",
        })
        self.assertFalse(engine["class"]["isSubclassOfABC"])
        self.assertFalse(engine["contract"]["isContextEngine"])
        self.assertEqual(engine["contract"]["members"], {"update_from_response": "function", "should_compress": "function", "compress": "function"})

    def test_no_bytecode_is_written_into_the_plugin(self):
        directory = write_plugin(self.plugins, "simple", {"__init__.py": "from .engine import Simple\n", "engine.py": SIMPLE_ENGINE})
        bridge = self.bridge()
        bridge.load(directory, "simple")
        bridge.result("create", {})
        self.assertEqual(sorted(os.listdir(directory)), ["__init__.py", "engine.py"])


class GeneralPathTest(BridgeTest):
    FILES = {
        "__init__.py": "from .engine import Simple\n\ndef register(ctx):\n    assert ctx.manifest.name == 'hermes-simple'\n    ctx.register_tool('t', 'toolset', {}, lambda **kw: '{}')\n    ctx.register_context_engine(Simple())\n",
        "engine.py": SIMPLE_ENGINE,
    }

    def test_a_manifest_name_that_differs_from_the_engine_name(self):
        directory = write_plugin(self.plugins, "hermes-simple", self.FILES)
        bridge = self.bridge()
        answer = bridge.load(directory, "simple", mode="general", manifest={"name": "hermes-simple", "version": "1.0", "description": "d"})
        self.assertIn("result", answer, answer)
        self.assertEqual(answer["result"]["module"], "hermes_plugins.hermes_simple")
        engine = bridge.result("create", {})
        self.assertEqual(engine["name"], "simple")
        self.assertEqual(engine["registrations"]["tools"], ["t"])

    def test_the_engine_must_carry_the_selected_name(self):
        directory = write_plugin(self.plugins, "hermes-simple", self.FILES)
        answer = self.bridge().load(directory, "other", mode="general", manifest={"name": "hermes-simple", "version": None, "description": ""})
        self.assertEqual(answer["error"]["code"], LOAD_FAILED)
        self.assertIn("'simple', not 'other'", answer["error"]["message"])

    def test_the_general_context_refuses_a_non_engine_and_a_second_engine(self):
        directory = write_plugin(self.plugins, "two", {
            "__init__.py": "from .engine import Simple\n\ndef register(ctx):\n    ctx.register_context_engine(object())\n    ctx.register_context_engine(Simple())\n    ctx.register_context_engine(Simple())\n",
            "engine.py": SIMPLE_ENGINE,
        })
        bridge = self.bridge()
        bridge.load(directory, "simple", mode="general", manifest={"name": "two", "version": None, "description": ""})
        engine = bridge.result("create", {})
        warnings = engine["registrations"]["warnings"]
        self.assertTrue(any("not a ContextEngine" in warning for warning in warnings), warnings)
        self.assertTrue(any("already registered" in warning for warning in warnings), warnings)

    def test_every_agent_gets_a_clone_of_the_registered_engine(self):
        directory = write_plugin(self.plugins, "hermes-simple", self.FILES)
        bridge = self.bridge()
        bridge.load(directory, "simple", mode="general", manifest={"name": "hermes-simple", "version": None, "description": ""})
        first, second = bridge.result("create", {}), bridge.result("create", {})
        self.assertNotEqual(first["handle"], second["handle"])


class HostModulesTest(BridgeTest):
    def test_imports_of_host_internals_are_recorded_with_their_origin(self):
        bridge, engine = self.loaded({
            "__init__.py": "from hermes_cli.config import get_hermes_home\nfrom .engine import Simple\ntry:\n    import hermes_state\nexcept ImportError:\n    pass\n",
            "engine.py": SIMPLE_ENGINE,
        })
        recorded = {}
        for note in bridge.notifications:
            if note["method"] == "imports":
                for record in note["params"]["modules"]:
                    recorded[record["module"]] = record["outcome"]
        self.assertEqual(recorded.get("hermes_cli.config"), "shim")
        self.assertEqual(recorded.get("agent.context_engine"), "shim")
        self.assertEqual(recorded.get("hermes_state"), "missing")
        self.assertNotIn("plugins.context_engine.simple.engine", recorded)

    def test_optional_packages_are_reported(self):
        directory = write_plugin(self.plugins, "simple", {"__init__.py": SIMPLE_ENGINE})
        answer = self.bridge().load(directory, "simple")
        self.assertEqual(set(answer["result"]["optionalPackages"]), {"tiktoken", "yaml", "regex", "numpy"})
        flags = answer["result"]["runtime"]["flags"]
        self.assertTrue(flags["noUserSite"])
        self.assertTrue(flags["dontWriteBytecode"])


if __name__ == "__main__":
    unittest.main()


class HermesAgentCheckoutTest(BridgeTest):
    CHECKOUT = __import__("os").path.join(__import__("os").path.dirname(__file__), "..", "..", "..", "test", "fixtures", "hermes-agent")

    def test_the_checkouts_own_modules_and_only_the_llm_seam_stubbed(self):
        bridge = self.bridge()
        answer = bridge.call("initialize", {
            "protocol": PROTOCOL,
            "plugin": {"mode": "builtin-compressor", "directory": self.CHECKOUT, "selection": "compressor"},
            "home": bridge.home,
            "config": {},
            "hermesAgent": self.CHECKOUT,
            "model": "openai/gpt-test",
        })
        self.assertIn("result", answer, answer)
        stubbed = [stub["module"] for stub in answer["result"]["stubs"]]
        self.assertIn("agent.auxiliary_client", stubbed)
        self.assertNotIn("agent.context_engine", stubbed)
        engine = bridge.result("create", {})
        self.assertEqual(engine["name"], "compressor")
        self.assertEqual(engine["class"]["mro"][:2], ["agent.context_compressor.ContextCompressor", "agent.context_engine.ContextEngine"])
        self.assertEqual(engine["attrs"]["context_length"], 128000)
        origins = {}
        for note in bridge.notifications:
            if note["method"] == "imports":
                for record in note["params"]["modules"]:
                    origins[record["module"]] = record["outcome"]
        self.assertEqual(origins["agent.context_engine"], "checkout")
        self.assertEqual(origins["agent.model_metadata"], "checkout")
        messages = [{"role": "system", "content": "s"}] + [{"role": "user" if i % 2 == 0 else "assistant", "content": f"m{i}"} for i in range(12)]
        result = bridge.hook(engine["handle"], "compress", {"messages": messages})["result"]
        self.assertIn("[CONTEXT COMPACTION] summary of 1 messages", result["value"][1]["content"])
