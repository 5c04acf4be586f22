"""ctxbench's Hermes bridge. The host runs it as `python3 -s -B -P bridge/hermes/main.py` with a
scrubbed environment and PYTHONHASHSEED=0 (see harness/engine-protocol/hermes.ts); with
`--fork-server` it is the server that forks those processes (lib/_ctxbench_bridge/forks.py)."""
import os
import sys

if sys.version_info < (3, 10):
    sys.stderr.write("ctxbench: Python %d.%d is too old for the Hermes bridge (3.10 or later is needed)\n" % sys.version_info[:2])
    sys.exit(64)

sys.dont_write_bytecode = True
_here = os.path.dirname(os.path.abspath(__file__))
# Python 3.10 has no -P: the script's own directory must not shadow a plugin's imports.
sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != _here]
sys.path.insert(0, os.path.join(_here, "lib"))

from _ctxbench_bridge.server import serve  # noqa: E402

if sys.argv[1:] == ["--fork-server"]:
    from _ctxbench_bridge.forks import fork_server

    fork_server()
serve()
