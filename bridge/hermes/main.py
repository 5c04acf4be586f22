"""ctxbench's Hermes bridge. Run as: python3 -I -B bridge/hermes/main.py (the host does this)."""
import os
import sys

if sys.version_info < (3, 10):
    sys.stderr.write("ctxbench: Python %d.%d is too old for the Hermes bridge (3.10 or later is needed)\n" % sys.version_info[:2])
    sys.exit(64)

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))

from _ctxbench_bridge.server import serve  # noqa: E402

serve()
