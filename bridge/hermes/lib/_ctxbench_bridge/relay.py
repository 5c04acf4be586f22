"""The reading role, passed between the main thread and a standby reader.

The main thread is the conversation thread of calls without a context, and it reads requests:
such a call runs the moment it is read, with no wake-up of another thread in its round trip. The
reader must never be held up by a running call (an llm.call answer arrives on stdin, calls of
other sessions must overlap, docs/engine-protocol.md "Threads"), so a call the main thread runs
while reading lends the role to the standby reader: when it asks the host something (`lend`) and
when it has run for LEND_AFTER_S (a timer signal, handled on the main thread). The standby reads
until the main thread waits for work again, and gives the role back with its next call."""

import _signal
import queue
import signal
import sys
import threading
import traceback

# A call the main thread runs while reading lends the role after running this long (up to twice it):
# longer than a 500-message select_context, so the steady state never pays for a lend.
LEND_AFTER_S = 0.005


def usable():
    """A relay needs an interval timer and the main thread (where Python runs signal handlers)."""
    return hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM") and threading.current_thread() is threading.main_thread()


# The C functions, ints in hand: signal.getsignal's enum conversion costs more than the rest of a no-op call's bookkeeping.
_SIGALRM = int(getattr(signal, "SIGALRM", 0))
_ITIMER_REAL = getattr(signal, "ITIMER_REAL", 0)


class Relay:
    def __init__(self, read_one, name):
        """`read_one()` reads one line and routes it (a call for the main thread comes back to `submit`).
        Made on the main thread, when `usable()`."""
        self._read_one = read_one
        self._main_reads = True
        self._queue = queue.SimpleQueue()
        self._state = threading.Lock()
        self._lending = threading.Lock()
        self._idle = False
        self._running = False
        self._calls = 0
        self._armed = False
        self._armed_for = 0
        self._wake_standby = threading.Semaphore(0)
        self._handler = self._on_alarm  # one bound method, to know it again in signal.getsignal
        signal.signal(signal.SIGALRM, self._handler)
        self._owner = threading.current_thread()
        self._owner.name = name
        threading.Thread(target=self._standby, name="protocol-reader", daemon=True).start()

    def run(self):
        """The main thread's loop: read while it holds the role, else run the calls queued for it."""
        while True:
            if self._main_reads:
                self._read_one()
                continue
            with self._state:
                try:
                    task = self._queue.get_nowait()
                except queue.Empty:
                    self._idle = True
                    task = None
            self._run(task if task is not None else self._queue.get())

    def submit(self, task):
        """A call for the main thread, from whichever thread read it."""
        if self._main_reads:
            self._run(task)
            return
        with self._state:
            if self._idle:
                # The main thread waits for work: it takes the reading role back with this call.
                self._idle = False
                self._main_reads = True
            self._queue.put(task)

    def lend(self):
        """Hand the reading role to the standby if the main thread holds it while running a call."""
        if not (self._running and self._main_reads) or threading.current_thread() is not self._owner:
            return
        # The timer's handler runs on this same thread, between any two bytecodes: never twice at once.
        if not self._lending.acquire(False):
            return
        try:
            if self._main_reads:
                self._main_reads = False
                self._wake_standby.release()
        finally:
            self._lending.release()

    def _run(self, task):
        inline = self._main_reads
        if inline:
            self._calls += 1
            self._running = True
            if _signal.getsignal(_SIGALRM) is not self._handler:
                # The engine took SIGALRM: nothing would tell a long call, so the standby reads at once.
                self._armed = False
                self.lend()
            elif not self._armed or ((self._calls & 63) == 0 and _signal.getitimer(_ITIMER_REAL)[0] == 0):
                # (Now and then: is the timer still there? An engine's own setitimer replaces it.)
                self._arm()
        try:
            task()
        except BaseException:  # KeyboardInterrupt in a hook: that call goes unanswered, the thread goes on
            traceback.print_exc(file=sys.stderr)
        finally:
            if inline:
                self._running = False

    def _arm(self):
        # One timer for many calls (a system call per call would cost more than the rest of the
        # bookkeeping): it is left running; a call that is still the same one when it strikes lends.
        self._armed = True
        self._armed_for = self._calls
        _signal.setitimer(_ITIMER_REAL, LEND_AFTER_S)

    def _on_alarm(self, _signum, _frame):
        self._armed = False
        if not self._running:
            return
        if self._armed_for == self._calls:
            self.lend()
        else:
            self._arm()

    def _standby(self):
        while True:
            self._wake_standby.acquire()
            while not self._main_reads:
                self._read_one()
