"""Which host internals the engine reached for, and which optional packages this interpreter has.

Every `import` statement naming a watched top-level module goes through a wrapper of
`builtins.__import__` (so imports answered from `sys.modules` count too), and a meta-path finder
sees `importlib.import_module` calls; both record the module and where it came from."""

import builtins
import importlib.util
import os
import sys
import threading

WATCHED = frozenset({
    "agent", "hermes_cli", "hermes_constants", "hermes_state", "hermes_time", "run_agent",
    "tools", "gateway", "model_tools", "toolsets", "plugins", "openai",
})
OPTIONAL_PACKAGES = ("tiktoken", "yaml", "regex", "numpy")


def optional_packages():
    found = {}
    for name in OPTIONAL_PACKAGES:
        try:
            found[name] = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found[name] = False
    return found


class ImportRecorder:
    def __init__(self, roots, on_new):
        """`roots` maps an origin label ("shim", "checkout") to a directory; `on_new` gets each new record."""
        self._roots = [(label, os.path.realpath(path) + os.sep) for label, path in roots.items() if path]
        self._on_new = on_new
        self._seen = {}
        self._lock = threading.Lock()
        self._own_prefix = None
        self.active = False

    def ignore_prefix(self, prefix):
        """The plugin's own package (it lives under `plugins.context_engine.*`) is not a host internal."""
        self._own_prefix = prefix

    @property
    def records(self):
        with self._lock:
            return [{"module": name, "outcome": outcome} for name, outcome in self._seen.items()]

    def watched(self, name):
        if not self.active or name.partition(".")[0] not in WATCHED:
            return False
        own = self._own_prefix
        return own is None or not (name == own or name.startswith(own + "."))

    def origin(self, module):
        path = getattr(module, "__file__", None)
        if not path:
            return "namespace"
        real = os.path.realpath(path)
        for label, root in self._roots:
            if real.startswith(root):
                return label
        return "installed"

    def record(self, name, outcome):
        with self._lock:
            if self._seen.get(name) == outcome:
                return
            self._seen[name] = outcome
        self._on_new({"module": name, "outcome": outcome})

    def install(self):
        original = builtins.__import__
        recorder = self

        def recording_import(name, globals=None, locals=None, fromlist=(), level=0):
            if level or not recorder.watched(name):
                return original(name, globals, locals, fromlist, level)
            try:
                module = original(name, globals, locals, fromlist, level)
            except ImportError:
                recorder.record(name, "missing")
                raise
            loaded = sys.modules.get(name)
            recorder.record(name, recorder.origin(loaded))
            for item in fromlist or ():
                child = f"{name}.{item}"
                if item != "*" and child in sys.modules:
                    recorder.record(child, recorder.origin(sys.modules[child]))
            return module

        builtins.__import__ = recording_import
        sys.meta_path.insert(0, _Finder(self))


class _Finder:
    """Sees module lookups that bypass `__import__` (importlib.import_module); finds nothing itself."""

    def __init__(self, recorder):
        self._recorder = recorder

    def find_spec(self, fullname, path, target=None):
        if not self._recorder.watched(fullname):
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            try:
                spec = finder.find_spec(fullname, path, target)
            except Exception:
                spec = None
            if spec is not None:
                origin = spec.origin if spec.origin not in (None, "namespace", "built-in", "frozen") else None
                self._recorder.record(fullname, self._recorder.origin(type("M", (), {"__file__": origin})) if origin else "namespace")
                return None
        self._recorder.record(fullname, "missing")
        return None
