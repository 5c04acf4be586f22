"""Threads calls run on, as the upstream host's: each conversation context has its own thread (the
conversation thread), compaction passes run on a pool, so calls of different sessions overlap.
Calls without a context run on the main thread, which also reads the requests (relay.py), where
Python has an interval timer (POSIX)."""

import queue
import threading
from concurrent.futures import ThreadPoolExecutor

from . import relay

POOL_SIZE = 8


class Lane:
    def __init__(self, name):
        self._queue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def submit(self, task):
        self._queue.put(task)

    def _run(self):
        while True:
            self._queue.get()()


class Lanes:
    def __init__(self):
        self._lanes = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=POOL_SIZE, thread_name_prefix="compress-ctx")
        self._relay = None

    def serve(self, read_one):
        """Read requests on this, the main thread, the conversation thread of calls without a context."""
        if not relay.usable():
            # No interval timer: calls without a context keep a lane thread of their own.
            while True:
                read_one()
        self._relay = relay.Relay(read_one, "conversation-main")
        self._relay.run()

    def lend_reader(self):
        """The calling thread is about to wait for the host: someone else must read its answer."""
        if self._relay is not None:
            self._relay.lend()

    def conversation(self, context):
        key = context or "main"
        with self._lock:
            lane = self._lanes.get(key)
            if lane is None:
                lane = self._lanes[key] = Lane(f"conversation-{key}")
        return lane

    def submit(self, context, pooled, task):
        if pooled:
            self._pool.submit(task)
        elif self._relay is not None and (context or "main") == "main":
            self._relay.submit(task)
        else:
            self.conversation(context).submit(task)
