"""Newline-delimited JSON-RPC 2.0 on private copies of fd 0 and fd 1.

The engine never sees the protocol's descriptors: fd 0 becomes /dev/null and fd 1 a copy of fd 2,
so `print`, `os.write(1, …)` and child processes the engine starts all land on stderr."""

import itertools
import json
import os
import select
import sys
import threading

from . import wire


class Channel:
    def __init__(self):
        # Large reads: a 500-message request is a third of a megabyte on one line.
        self._reader = os.fdopen(os.dup(0), "rb", buffering=1 << 20)
        self._writer = os.fdopen(os.dup(1), "wb")
        quiet = os.open(os.devnull, os.O_RDONLY)
        os.dup2(quiet, 0)
        os.close(quiet)
        os.dup2(2, 1)
        sys.stdin = open(os.devnull, "r")
        sys.stdout = sys.stderr
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._waiting = {}

    def read_line(self):
        """The next incoming line; b"" when the host closed the channel."""
        return self._reader.readline()

    def pending(self):
        """Whether the host has written something not yet read (what is already in our buffer aside)."""
        try:
            return bool(select.select([self._reader], [], [], 0)[0])
        except (OSError, ValueError):
            return True

    def send(self, message):
        data = (wire.dumps(message) + "\n").encode("ascii")
        with self._lock:
            self._writer.write(data)
            self._writer.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def respond(self, request_id, result):
        self.send({"jsonrpc": "2.0", "id": request_id, "result": result})

    def fail(self, request_id, code, message, data=None):
        error = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        self.send({"jsonrpc": "2.0", "id": request_id, "error": error})

    def request(self, method, params, timeout):
        """Ask the host and block this thread for its answer; None when it does not come in time."""
        request_id = f"b{next(self._ids)}"
        done = threading.Event()
        slot = {"event": done, "reply": None}
        self._waiting[request_id] = slot
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        answered = done.wait(timeout)
        self._waiting.pop(request_id, None)
        return slot["reply"] if answered else None

    def deliver(self, message):
        """A response from the host to one of our requests."""
        slot = self._waiting.get(message.get("id"))
        if slot is not None:
            slot["reply"] = message
            slot["event"].set()


def parse(line):
    return json.loads(line.decode("utf-8"))
