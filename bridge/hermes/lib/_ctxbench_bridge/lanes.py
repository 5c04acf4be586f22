"""Threads calls run on, as the upstream host's: each conversation context has its own thread (the
conversation thread), compaction passes run on a pool, so calls of different sessions overlap."""

import queue
import threading
from concurrent.futures import ThreadPoolExecutor

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
        else:
            self.conversation(context).submit(task)
