"""The channel survives what engines do: printing, reading stdin, hanging, exiting."""

import json
import time
import unittest

from .support import SIMPLE_ENGINE, Bridge, BridgeTest, write_plugin
from .test_calls import MESSAGES, engine_with


class ChannelTest(BridgeTest):
    def test_prints_and_fd_writes_and_stdin_reads_go_nowhere_near_the_protocol(self):
        bridge, engine = self.loaded(engine_with(
            "def compress(self, messages, current_tokens=None, focus_topic=None):\n"
            "    import os, sys\n"
            "    print('print on stdout')\n"
            "    sys.stdout.write('write on stdout\\n')\n"
            "    os.write(1, b'raw fd 1\\n')\n"
            "    self.stdin = sys.stdin.read()\n"
            "    return messages[-1:]"
        ))
        answer = bridge.hook(engine["handle"], "compress", {"messages": MESSAGES})
        self.assertEqual(answer["result"]["attrs"]["stdin"], "")
        time.sleep(0.2)
        output = "".join(bridge.stderr)
        for text in ("print on stdout", "write on stdout", "raw fd 1"):
            self.assertIn(text, output)

    def test_a_bad_line_is_answered_and_the_channel_goes_on(self):
        bridge, engine = self.loaded(engine_with("pass"))
        bridge.process.stdin.write(b"{not json\n")
        bridge.process.stdin.flush()
        reply = bridge.inbox.get(timeout=5)
        self.assertEqual(reply["error"]["code"], -32700)
        bridge.process.stdin.write(b'{"jsonrpc": "2.0", "id": 500, "method": "nonsense", "params": {}}\n')
        bridge.process.stdin.flush()
        self.assertEqual(bridge.inbox.get(timeout=5)["error"]["code"], -32601)
        self.assertIn("result", bridge.hook(engine["handle"], "get_status", {}))

    def test_an_unknown_handle(self):
        bridge, _engine = self.loaded(engine_with("pass"))
        self.assertEqual(bridge.hook(99, "get_status", {})["error"]["code"], -32002)

    def test_a_hung_pass_does_not_block_other_calls(self):
        bridge, engine = self.loaded(engine_with("def compress(self, messages, current_tokens=None, focus_topic=None):\n    while True:\n        pass"))
        bridge.start("hook", {"handle": engine["handle"], "hook": "compress", "params": {"messages": MESSAGES}})
        started = time.monotonic()
        self.assertIn("result", bridge.hook(engine["handle"], "should_compress", {"prompt_tokens": 1}, timeout=5))
        self.assertLess(time.monotonic() - started, 2)

    def test_the_bridge_exits_when_the_host_goes_away_even_with_a_thread_spinning(self):
        bridge, engine = self.loaded(engine_with("def compress(self, messages, current_tokens=None, focus_topic=None):\n    while True:\n        pass"))
        bridge.start("hook", {"handle": engine["handle"], "hook": "compress", "params": {"messages": MESSAGES}})
        time.sleep(0.2)
        bridge.process.stdin.close()
        self.assertEqual(bridge.process.wait(5), 0)

    def test_os_exit_in_a_hook_ends_the_process(self):
        bridge, engine = self.loaded(engine_with("def compress(self, messages, current_tokens=None, focus_topic=None):\n    import os\n    os._exit(7)"))
        bridge.start("hook", {"handle": engine["handle"], "hook": "compress", "params": {"messages": MESSAGES}})
        self.assertEqual(bridge.process.wait(5), 7)

    def test_sys_exit_in_a_hook_is_an_exception_of_that_call(self):
        bridge, engine = self.loaded(engine_with("def compress(self, messages, current_tokens=None, focus_topic=None):\n    raise SystemExit(3)"))
        answer = bridge.hook(engine["handle"], "compress", {"messages": MESSAGES})
        self.assertEqual(answer["error"]["data"]["type"], "SystemExit")
        self.assertIn("result", bridge.hook(engine["handle"], "get_status", {}))

    def test_shutdown_runs_the_engines_shutdown_and_exits(self):
        bridge, engine = self.loaded(engine_with("def shutdown(self):\n    import os\n    open(os.path.join(os.environ['HERMES_HOME'], 'closed'), 'w').close()"))
        self.assertEqual(bridge.result("shutdown", {}), {})
        self.assertEqual(bridge.process.wait(5), 0)
        import os

        self.assertTrue(os.path.exists(os.path.join(bridge.home, "closed")))

    def test_hermes_home_is_the_sandbox_and_the_config_is_the_runs(self):
        bridge, engine = self.loaded(engine_with(
            "def on_session_start(self, session_id, **kwargs):\n"
            "    from hermes_cli.config import get_hermes_home, load_config\n"
            "    import os\n"
            "    self.home_ok = str(get_hermes_home()) == os.environ['HERMES_HOME']\n"
            "    self.level = load_config()['lcm']['context_threshold']\n"
            "    self.on_disk = open(os.path.join(get_hermes_home(), 'config.yaml')).read()"
        ), config={"context": {"engine": "simple"}, "lcm": {"context_threshold": 0.6}})
        attrs = bridge.hook(engine["handle"], "on_session_start", {"session_id": "s"})["result"]["attrs"]
        self.assertTrue(attrs["home_ok"])
        self.assertEqual(attrs["level"], 0.6)
        self.assertIn("context_threshold: 0.6", attrs["on_disk"])

    def test_a_protocol_version_the_bridge_does_not_speak(self):
        directory = write_plugin(self.plugins, "simple", {"__init__.py": SIMPLE_ENGINE})
        bridge = self.bridge()
        # Version 1 rebuilt a derived conversation sharing the request's nested lists: refused.
        answer = bridge.call("initialize", {"protocol": 1, "plugin": {"mode": "directory", "directory": directory, "selection": "simple"}, "home": bridge.home, "config": {}})
        self.assertEqual(answer["error"]["code"], -32602)


if __name__ == "__main__":
    unittest.main()
