"""The fork server (main.py --fork-server): forks that serve the protocol, exits reported, no orphans."""

import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

from .support import BRIDGE

PARSE_ERROR = -32700


class ForkServer:
    def __init__(self, test):
        self.dir = tempfile.mkdtemp(prefix="cxb-forks-")
        test.addCleanup(self._remove)
        self.process = subprocess.Popen(
            [sys.executable, "-s", "-B", BRIDGE, "--fork-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        test.addCleanup(self._stop)
        self.count = 0

    def fork(self):
        """A fork's pid, channel and stderr sockets."""
        self.count += 1
        path = os.path.join(self.dir, f"{self.count}.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(2)
        listener.settimeout(10)
        secret = os.urandom(16).hex()
        self.process.stdin.write((json.dumps({"fork": self.count, "path": path, "secret": secret}) + "\n").encode())
        self.process.stdin.flush()
        sockets = {}
        for _ in range(2):
            connection, _ = listener.accept()
            connection.settimeout(10)
            greeting = b""
            while len(greeting) < 1 + len(secret):
                greeting += connection.recv(1 + len(secret) - len(greeting))
            assert greeting[1:] == secret.encode(), greeting
            sockets[greeting[:1]] = connection
        listener.close()
        event = self.event()
        assert event == {"forked": self.count, "pid": event["pid"]}, event
        return event["pid"], sockets[b"c"], sockets[b"e"]

    def event(self, timeout=10):
        ready = select.select([self.process.stdout], [], [], timeout)[0]
        if not ready:
            raise AssertionError("the fork server said nothing")
        return json.loads(self.process.stdout.readline())

    def _stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.process.stdin.close()
        self.process.stdout.close()

    def _remove(self):
        for name in os.listdir(self.dir):
            os.unlink(os.path.join(self.dir, name))
        os.rmdir(self.dir)


def gone(pid, within=5.0):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


class ForkServerTest(unittest.TestCase):
    def test_a_fork_serves_the_protocol_and_its_exit_is_reported(self):
        server = ForkServer(self)
        pid, channel, errors = server.fork()
        self.addCleanup(channel.close)
        self.addCleanup(errors.close)
        channel.sendall(b"not json\n")
        reply = json.loads(channel.makefile("rb").readline())
        self.assertEqual(reply["error"]["code"], PARSE_ERROR)
        # The host closing the channel ends the bridge (exit 0), which the server reports.
        channel.shutdown(socket.SHUT_WR)
        self.assertEqual(server.event(), {"exit": pid, "code": 0, "signal": None})

    def test_forks_are_separate_processes_and_a_killed_one_is_reported_by_signal(self):
        server = ForkServer(self)
        first, channel_a, errors_a = server.fork()
        second, channel_b, errors_b = server.fork()
        for connection in (channel_a, errors_a, channel_b, errors_b):
            self.addCleanup(connection.close)
        self.assertNotEqual(first, second)
        os.kill(first, signal.SIGKILL)
        self.assertEqual(server.event(), {"exit": first, "code": None, "signal": "SIGKILL"})
        self.assertFalse(gone(second, within=0.2))

    def test_the_end_of_stdin_kills_the_forks_left(self):
        server = ForkServer(self)
        pid, channel, errors = server.fork()
        self.addCleanup(channel.close)
        self.addCleanup(errors.close)
        server.process.stdin.close()
        self.assertTrue(gone(pid))
        self.assertEqual(server.process.wait(10), 0)

    @unittest.skipUnless(sys.platform.startswith("linux"), "the parent-death signal is Linux's")
    def test_a_fork_dies_with_a_killed_server(self):
        server = ForkServer(self)
        pid, channel, errors = server.fork()
        self.addCleanup(channel.close)
        self.addCleanup(errors.close)
        server.process.kill()
        self.assertTrue(gone(pid))


if __name__ == "__main__":
    unittest.main()
