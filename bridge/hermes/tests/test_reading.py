"""The main thread reads requests and runs the calls without a context (relay.py): a call it runs
never holds up the reader, and those calls all run on that one thread."""

import time

from .support import BridgeTest
from .test_calls import engine_with

RECORDS_THREAD = (
    "def on_session_start(self, session_id, **kwargs):\n"
    "    import threading, time\n"
    "    self.thread = threading.get_ident()\n"
    "    self.thread_name = threading.current_thread().name\n"
    "    if session_id.startswith('sleep'):\n"
    "        time.sleep(float(session_id[5:]))\n"
    "    elif session_id.startswith('spin'):\n"
    "        until = time.monotonic() + float(session_id[4:])\n"
    "        while time.monotonic() < until:\n"
    "            pass\n"
)


class ReadingTest(BridgeTest):
    def start(self, bridge, engine, session_id, context=None):
        message = {"handle": engine["handle"], "hook": "on_session_start", "params": {"session_id": session_id}}
        if context is not None:
            message["context"] = context
        return bridge.start("hook", message)

    def attrs(self, bridge, request_id):
        answer = bridge.wait(request_id)
        self.assertIn("result", answer, answer)
        return answer["result"]["attrs"]

    def test_a_call_without_context_that_asks_the_host_gets_its_answer(self):
        asking = (
            "def select_context(self, request_messages, **kwargs):\n"
            "    from agent.auxiliary_client import call_llm\n"
            "    self.summary = call_llm(task='compression', messages=[{'role': 'user', 'content': 'x'}], timeout=5).choices[0].message.content\n"
            "    return None"
        )
        bridge, engine = self.loaded(engine_with(asking), llm=lambda params: {"content": "answered"})
        started = time.monotonic()
        answer = bridge.hook(engine["handle"], "select_context", {"request_messages": [{"role": "user", "content": "x"}]})
        self.assertEqual(answer["result"]["attrs"]["summary"], "answered")
        self.assertLess(time.monotonic() - started, 2, "the host's answer waited for the call that asked for it")

    def test_a_sleeping_call_without_context_overlaps_another_sessions_call(self):
        bridge, engine = self.loaded(engine_with(RECORDS_THREAD))
        started = time.monotonic()
        outside = self.start(bridge, engine, "sleep0.4")
        inside = self.start(bridge, engine, "sleep0.4", context="conversation-a")
        self.attrs(bridge, inside)
        self.attrs(bridge, outside)
        self.assertLess(time.monotonic() - started, 0.75, "two 0.4 s calls of different sessions ran one after the other")

    def test_a_spinning_call_without_context_does_not_hold_up_another_sessions_call(self):
        bridge, engine = self.loaded(engine_with(RECORDS_THREAD))
        outside = self.start(bridge, engine, "spin1.0")
        started = time.monotonic()
        self.attrs(bridge, self.start(bridge, engine, "quick", context="conversation-a"))
        self.assertLess(time.monotonic() - started, 0.6, "a call of another session waited for a spinning one")
        self.attrs(bridge, outside)

    def test_calls_without_context_run_on_one_thread_before_and_after_long_ones(self):
        bridge, engine = self.loaded(engine_with(RECORDS_THREAD))
        sessions = ["quick", "sleep0.05", "quick", "spin0.05", "quick", "quick"]
        threads = {(attrs["thread"], attrs["thread_name"]) for attrs in (self.attrs(bridge, self.start(bridge, engine, s)) for s in sessions)}
        self.assertEqual(len(threads), 1, threads)
        self.assertEqual(next(iter(threads))[1], "conversation-main")
        other = self.attrs(bridge, self.start(bridge, engine, "quick", context="conversation-a"))["thread"]
        self.assertNotEqual(other, next(iter(threads))[0])

    def test_an_engine_that_takes_sigalrm_keeps_it_and_still_overlaps(self):
        takes_alarm = RECORDS_THREAD + (
            "def get_status(self):\n"
            "    import signal\n"
            "    signal.signal(signal.SIGALRM, lambda signum, frame: setattr(self, 'rang', True))\n"
            "    signal.setitimer(signal.ITIMER_REAL, 0.05)\n"
            "    return {}\n"
        )
        bridge, engine = self.loaded(engine_with(takes_alarm))
        bridge.hook(engine["handle"], "get_status", {})
        time.sleep(0.1)
        self.assertTrue(self.attrs(bridge, self.start(bridge, engine, "quick"))["rang"])
        started = time.monotonic()
        outside = self.start(bridge, engine, "sleep0.4")
        self.attrs(bridge, self.start(bridge, engine, "quick", context="conversation-a"))
        self.assertLess(time.monotonic() - started, 0.3, "a call of another session waited for a sleeping one")
        self.attrs(bridge, outside)

    def test_an_engine_that_borrows_sigalrm_within_a_call_and_gives_it_back_still_overlaps(self):
        borrows_alarm = RECORDS_THREAD + (
            "def get_status(self):\n"
            "    import signal, time\n"
            "    rang = []\n"
            "    previous = signal.signal(signal.SIGALRM, lambda signum, frame: rang.append(True))\n"
            "    signal.setitimer(signal.ITIMER_REAL, 0.01)\n"
            "    time.sleep(0.05)\n"
            "    signal.signal(signal.SIGALRM, previous)\n"
            "    self.rang = bool(rang)\n"
            "    return {}\n"
        )
        bridge, engine = self.loaded(engine_with(borrows_alarm))
        self.assertTrue(bridge.hook(engine["handle"], "get_status", {})["result"]["attrs"]["rang"])
        for _ in range(70):
            self.attrs(bridge, self.start(bridge, engine, "quick"))
        started = time.monotonic()
        outside = self.start(bridge, engine, "sleep0.4")
        self.attrs(bridge, self.start(bridge, engine, "quick", context="conversation-a"))
        self.assertLess(time.monotonic() - started, 0.3, "a call of another session waited for a sleeping one")
        self.attrs(bridge, outside)
