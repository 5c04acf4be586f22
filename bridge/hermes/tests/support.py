"""Drive a real bridge process the way the host does, validating every line both ways."""

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import unittest

from .schema_check import Validator

BRIDGE = os.path.join(os.path.dirname(__file__), "..", "main.py")
VALIDATOR = Validator()
ENGINE_RAISED = -32000
LOAD_FAILED = -32001
# The engine protocol version these tests speak (docs/engine-protocol.md).
PROTOCOL = 2


def write_plugin(root, name, files):
    """A plugin directory `root/name` holding `files` (relative path -> source text)."""
    directory = os.path.join(root, name)
    for relative, text in files.items():
        path = os.path.join(directory, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(textwrap.dedent(text).lstrip())
    return directory


SIMPLE_ENGINE = '''
from agent.context_engine import ContextEngine

class Simple(ContextEngine):
    @property
    def name(self):
        return "simple"

    def update_from_response(self, usage):
        self.last_prompt_tokens = usage.get("prompt_tokens", 0)
        self.last_completion_tokens = usage.get("completion_tokens", 0)
        self.last_total_tokens = usage.get("total_tokens", 0)

    def should_compress(self, prompt_tokens=None):
        return (self.last_prompt_tokens if prompt_tokens is None else prompt_tokens) >= self.threshold_tokens

    def compress(self, messages, current_tokens=None, focus_topic=None):
        self.compression_count += 1
        return messages[:1] + messages[-2:]
'''


class Bridge:
    """One bridge child. `llm` answers llm.call requests (params -> result dict, or an error dict)."""

    def __init__(self, llm=None, env=None):
        self.home = tempfile.mkdtemp(prefix="ctxbench-bridge-test-")
        environment = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
        environment.update(env or {})
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-B", BRIDGE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self.home,
            env=environment,
        )
        self.llm = llm
        self.inbox = queue.Queue()
        self.notifications = []
        self.stderr = []
        self._ids = 0
        self._pending = {}
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self):
        for raw in self.process.stdout:
            message = json.loads(raw)
            self.inbox.put(message)
        self.inbox.put(None)

    def _read_stderr(self):
        for raw in self.process.stderr:
            self.stderr.append(raw.decode("utf-8", "replace"))

    def send(self, message):
        VALIDATOR.check("hostToEngine", message)
        self.process.stdin.write((json.dumps(message) + "\n").encode())
        self.process.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def start(self, method, params):
        self._ids += 1
        self._pending[self._ids] = method
        self.send({"jsonrpc": "2.0", "id": self._ids, "method": method, "params": params})
        return self._ids

    def wait(self, request_id, timeout=20.0):
        """The response to one request; answers the bridge's own requests meanwhile."""
        deadline = time.monotonic() + timeout
        stash = getattr(self, "_stash", {})
        self._stash = stash
        while request_id not in stash:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no answer to request {request_id} within {timeout} s; stderr: {''.join(self.stderr)[-2000:]}")
            try:
                message = self.inbox.get(timeout=remaining)
            except queue.Empty:
                continue
            if message is None:
                raise AssertionError(f"the bridge exited ({self.process.wait()}): {''.join(self.stderr)[-2000:]}")
            VALIDATOR.check("engineToHost", message)
            if "method" in message and "id" in message:
                self._answer_llm(message)
            elif "method" in message:
                self.notifications.append(message)
            else:
                stash[message["id"]] = message
        message = stash.pop(request_id)
        method = self._pending.pop(request_id)
        if "result" in message:
            VALIDATOR.check(f"result.{method}", message["result"])
        elif message["error"]["code"] == ENGINE_RAISED:
            VALIDATOR.check("error.engineRaised", message["error"]["data"])
        elif message["error"]["code"] == LOAD_FAILED:
            VALIDATOR.check("error.loadFailed", message["error"]["data"])
        return message

    def call(self, method, params, timeout=20.0):
        return self.wait(self.start(method, params), timeout)

    def result(self, method, params, timeout=20.0):
        message = self.call(method, params, timeout)
        if "error" in message:
            raise AssertionError(f"{method} failed: {message['error']}")
        return message["result"]

    def _answer_llm(self, message):
        params = message["params"]
        answer = self.llm(params) if self.llm else {"content": f"summary of {len(params['messages'])} messages"}
        reply = {"jsonrpc": "2.0", "id": message["id"]}
        if "error" in answer:
            reply["error"] = {"code": -32010, "message": answer["error"], "data": {"kind": answer["error"]}}
        else:
            reply["result"] = answer
        self.send(reply)

    def load(self, directory, selection, mode="directory", config=None, manifest=None):
        plugin = {"mode": mode, "directory": directory, "selection": selection}
        if manifest is not None:
            plugin["manifest"] = manifest
        return self.call("initialize", {"protocol": PROTOCOL, "plugin": plugin, "home": self.home, "config": config or {"context": {"engine": selection}}})

    def hook(self, handle, hook, params=None, context=None, timeout=20.0):
        message = {"handle": handle, "hook": hook, "params": params or {}}
        if context is not None:
            message["context"] = context
        return self.call("hook", message, timeout)

    def close(self):
        if not self.process.stdin.closed:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
        if self.process.poll() is None:
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdout, self.process.stderr):
            stream.close()
        shutil.rmtree(self.home, ignore_errors=True)


class BridgeTest(unittest.TestCase):
    def setUp(self):
        self.plugins = tempfile.mkdtemp(prefix="ctxbench-plugins-")
        self.addCleanup(shutil.rmtree, self.plugins, True)

    def bridge(self, **options):
        bridge = Bridge(**options)
        self.addCleanup(bridge.close)
        return bridge

    def loaded(self, files, name="simple", selection=None, mode="directory", config=None, manifest=None, **options):
        """A bridge with the plugin `files` loaded and one engine created; returns (bridge, description)."""
        directory = write_plugin(self.plugins, name, files)
        bridge = self.bridge(**options)
        answer = bridge.load(directory, selection or name, mode, config, manifest)
        self.assertIn("result", answer, answer)
        return bridge, bridge.result("create", {})
