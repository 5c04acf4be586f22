"""The fork server: one interpreter that has started and imported the bridge, forked for every engine
process instead of starting a new interpreter (most of a short-lived bridge process's CPU time).

Started as `main.py --fork-server`; it reads commands on stdin and writes events on stdout, one JSON
object per line:
  {"fork": ID, "path": SOCKET, "secret": HEX}
      ->  {"forked": ID, "pid": PID} or {"forked": ID, "error": TEXT}
          then, when that process ends, {"exit": PID, "code": N|null, "signal": NAME|null}
The forked child connects to SOCKET twice (its channel, sending b"c" and the secret first, then its
stderr, b"e" and the secret: the host takes no connection without it for the fork's) and returns
from fork_server() with those on fd 0, 1 and 2, so main.py runs the bridge in it exactly as in a
process of its own. The server holds no thread and no engine code: every child starts from
the state a new bridge process has just before serve(). stdin's end (the host going away) kills the
children that are left."""

import json
import os
import select
import signal
import socket
import sys


def fork_server():
    """Serve fork commands until stdin ends; returns only in a forked child, ready to serve()."""
    die_with_parent = _parent_death_signal()
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wake_write)
    children = set()
    pending = b""
    while True:
        try:
            ready = select.select([0, wake_read], [], [])[0]
        except InterruptedError:
            continue
        if wake_read in ready:
            os.read(wake_read, 4096)
            _reap(children)
        if 0 not in ready:
            continue
        chunk = os.read(0, 65536)
        if not chunk:
            _end(children)
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            try:
                command = json.loads(line)
                fork_id, path, secret = command["fork"], command["path"], command["secret"].encode("ascii")
            except (ValueError, KeyError, TypeError, AttributeError, UnicodeEncodeError):
                continue
            try:
                pid = os.fork()
            except OSError as error:
                _send({"forked": fork_id, "error": str(error)})
                continue
            if pid == 0:
                _become_child(path, secret, wake_read, wake_write, die_with_parent)
                return
            children.add(pid)
            _send({"forked": fork_id, "pid": pid})


def _become_child(path, secret, wake_read, wake_write, die_with_parent):
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.close(wake_read)
    os.close(wake_write)
    die_with_parent()
    try:
        channel = _connect(path, b"c" + secret)
        errors = _connect(path, b"e" + secret)
    except OSError:
        os._exit(70)
    os.dup2(channel.fileno(), 0)
    os.dup2(channel.fileno(), 1)
    os.dup2(errors.fileno(), 2)
    channel.close()
    errors.close()
    del sys.argv[1:]


def _connect(path, greeting):
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(path)
    connection.sendall(greeting)
    return connection


def _parent_death_signal():
    """What a fork calls first, on Linux: SIGKILL when the fork server goes (killed itself, it could
    not end its children). Loaded once here, not in every fork (ctypes takes a couple of ms)."""
    if not sys.platform.startswith("linux"):
        return lambda: None
    try:
        import ctypes

        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except Exception:
        return lambda: None
    server = os.getpid()

    def die_with_parent():
        try:
            prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        except Exception:
            pass
        if os.getppid() != server:
            os._exit(70)

    return die_with_parent


def _reap(children):
    for pid in list(children):
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            children.discard(pid)
            continue
        if done == 0:
            continue
        children.discard(pid)
        if os.WIFSIGNALED(status):
            number = os.WTERMSIG(status)
            try:
                name = signal.Signals(number).name
            except ValueError:
                name = f"SIG{number}"
            _send({"exit": pid, "code": None, "signal": name})
        else:
            _send({"exit": pid, "code": os.WEXITSTATUS(status), "signal": None})


def _end(children):
    for pid in children:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    os._exit(0)


def _send(event):
    data = (json.dumps(event) + "\n").encode("ascii")
    while data:
        data = data[os.write(1, data):]
