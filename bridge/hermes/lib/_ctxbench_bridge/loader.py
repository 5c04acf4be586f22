"""Loading a plugin the way the Hermes host does.

directory mode (plugins/context_engine/<name>/): the package is registered as
`plugins.context_engine.<name>`, every sibling `*.py` is executed first (a failing sibling is only
logged), then `__init__.py`; an instance comes from `register(ctx)` on a fresh collector, else from
the first ContextEngine subclass in `dir(module)` constructed with no arguments.

general mode (a plugin.yaml plugin): the package is imported as `hermes_plugins.<slug>` without
pre-executing siblings, `register(ctx)` gets the general plugin context, whose
`register_context_engine` keeps one engine that must be a ContextEngine; every agent then gets
`engine.clone_for_agent()`.

builtin-compressor mode: the host checkout's `agent.context_compressor.ContextCompressor`,
constructed with its positional model argument.
"""

import importlib
import importlib.util
import inspect
import logging
import os
import sys
import types
from types import SimpleNamespace

_log = logging.getLogger("ctxbench.bridge")


class LoadError(Exception):
    """The plugin did not give an engine; `stage` says where (import, register, construct, clone, none)."""

    def __init__(self, stage, message):
        super().__init__(message)
        self.stage = stage


def _describe(error):
    return f"{type(error).__name__}: {error}"


def _namespace(name):
    module = sys.modules.get(name)
    if module is None:
        module = types.ModuleType(name)
        module.__path__ = []
        sys.modules[name] = module
    return module


def _exec_package(name, directory, pre_execute_siblings, warnings):
    init = os.path.join(directory, "__init__.py")
    if not os.path.isfile(init):
        raise LoadError("import", f"{directory}: no __init__.py")
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[directory])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if pre_execute_siblings:
        for entry in sorted(os.listdir(directory)):
            stem, ext = os.path.splitext(entry)
            child = f"{name}.{stem}"
            if ext != ".py" or stem == "__init__" or child in sys.modules:
                continue
            sibling = importlib.util.spec_from_file_location(child, os.path.join(directory, entry))
            loaded = importlib.util.module_from_spec(sibling)
            sys.modules[child] = loaded
            try:
                sibling.loader.exec_module(loaded)
                setattr(module, stem, loaded)
            except BaseException as error:  # upstream only logs a failing sibling
                sys.modules.pop(child, None)
                warnings.append(f"sibling module {entry} failed to load: {_describe(error)}")
    try:
        spec.loader.exec_module(module)
    except BaseException as error:
        sys.modules.pop(name, None)
        if isinstance(error, SystemExit):
            raise LoadError("import", f"{init}: the plugin exited the interpreter while importing (SystemExit {error.code!r})")
        raise LoadError("import", f"{init}: failed to import: {_describe(error)}")
    return module


def context_engine_base():
    module = sys.modules.get("agent.context_engine")
    if module is None:
        try:
            module = importlib.import_module("agent.context_engine")
        except Exception:
            return None
    return getattr(module, "ContextEngine", None)


class DirectoryCollector:
    """The directory loader's `ctx`: keeps the engine unchecked, forwards commands, ignores the rest."""

    def __init__(self, registrations):
        self.engine = None
        self._registrations = registrations

    def register_context_engine(self, engine):
        if self.engine is None:
            self.engine = engine
        else:
            self._registrations["warnings"].append("a second register_context_engine() was ignored")

    def register_command(self, name, handler=None, description="", args_hint=""):
        if not name:
            self._registrations["warnings"].append("register_command() with an empty name was refused")
            return
        self._registrations["commands"].append(str(name))

    def register_tool(self, *args, **kwargs):
        self._registrations["tools"].append(str(kwargs.get("name") or (args[0] if args else "?")))

    def register_hook(self, name, *args, **kwargs):
        self._registrations["ignoredHooks"].append(str(name))

    def register_cli_command(self, *args, **kwargs):
        pass

    def register_memory_provider(self, *args, **kwargs):
        pass


class PluginContext:
    """The general plugin system's richer `ctx`."""

    def __init__(self, manifest, registrations, base, manager, ask_llm, config):
        self.manifest = SimpleNamespace(**manifest)
        self.profile_name = "default"
        self.llm = SimpleNamespace(call=ask_llm, complete=ask_llm)
        self._registrations = registrations
        self._base = base
        self._manager = manager
        self._config = config

    def register_context_engine(self, engine):
        if self._manager._context_engine is not None:
            self._registrations["warnings"].append(
                f"Plugin '{self.manifest.name}' tried to register a context engine, but one is already registered. Only one context engine plugin is allowed."
            )
            return None
        if self._base is None or not isinstance(engine, self._base):
            self._registrations["warnings"].append(f"Plugin '{self.manifest.name}' registered {type(engine).__name__}, which is not a ContextEngine; ignored")
            return None
        self._manager._context_engine = engine
        return engine

    def register_hook(self, name, callback):
        self._manager.register_hook(name, callback)

    def register_tool(self, name, toolset=None, schema=None, handler=None, **kwargs):
        self._registrations["tools"].append(str(name))

    def register_command(self, name, handler=None, description="", args_hint="", **kwargs):
        self._registrations["commands"].append(str(name))

    def register_cli_command(self, *args, **kwargs):
        pass

    def dispatch_tool(self, name, args=None, **kwargs):
        return '{"error": "ctxbench: no tools are dispatched to plugins"}'

    def inject_message(self, *args, **kwargs):
        self._registrations["warnings"].append("inject_message() is not supported by ctxbench's host; ignored")

    def get_config(self):
        return self._config

    def __getattr__(self, name):
        if name.startswith("register_"):
            return lambda *args, **kwargs: None
        raise AttributeError(name)


def new_registrations():
    return {"via": None, "commands": [], "tools": [], "ignoredHooks": [], "warnings": []}


class Plugin:
    """A loaded plugin that makes engine instances."""

    def __init__(self, mode, directory, selection, manifest, hermes_agent, model, ask_llm, config):
        self.mode = mode
        self.directory = directory
        self.selection = selection
        self.manifest = manifest or {}
        self.hermes_agent = hermes_agent
        self.model = model
        self._ask_llm = ask_llm
        self._config = config
        self.module = None
        self.module_name = None
        self.warnings = []
        self.registrations = new_registrations()
        self._singleton = None

    def load(self):
        if self.mode == "directory":
            _namespace("plugins")
            _namespace("plugins.context_engine")
            self.module_name = f"plugins.context_engine.{os.path.basename(os.path.normpath(self.directory))}"
            self.module = _exec_package(self.module_name, self.directory, True, self.warnings)
        elif self.mode == "general":
            _namespace("hermes_plugins")
            slug = str(self.manifest.get("name") or os.path.basename(os.path.normpath(self.directory))).replace("-", "_")
            self.module_name = f"hermes_plugins.{slug}"
            self.module = _exec_package(self.module_name, self.directory, False, self.warnings)
            self._register_general()
        elif self.mode == "builtin-compressor":
            try:
                self.module = importlib.import_module("agent.context_compressor")
            except BaseException as error:
                raise LoadError("import", f"agent.context_compressor from {self.hermes_agent}: {_describe(error)}")
        else:
            raise LoadError("import", f"unknown plugin mode {self.mode!r}")

    def _register_general(self):
        register = getattr(self.module, "register", None)
        if not callable(register):
            raise LoadError("register", f"{self.directory}: the plugin has no register(ctx)")
        from hermes_cli import plugins as plugin_manager

        manager = plugin_manager.get_plugin_manager()
        context = PluginContext(self.manifest, self.registrations, context_engine_base(), manager, self._ask_llm, self._config)
        try:
            register(context)
        except BaseException as error:
            raise LoadError("register", f"{self.directory}: register() raised {_describe(error)}")
        engine = manager._context_engine
        if engine is None:
            raise LoadError("none", f"{self.directory}: register() registered no context engine")
        name = getattr(engine, "name", None)
        if name != self.selection:
            raise LoadError("none", f"{self.directory}: the plugin registered the engine {name!r}, not {self.selection!r}")
        self._singleton = engine
        self.registrations["via"] = "register"

    def create(self):
        """A fresh engine instance, as the host makes one per agent."""
        if self.mode == "directory":
            return self._from_module()
        if self.mode == "general":
            try:
                return self._singleton.clone_for_agent()
            except BaseException as error:
                raise LoadError("clone", f"context engine {self.selection!r} could not be safely copied for this agent ({_describe(error)})")
        return self._builtin_compressor()

    def _from_module(self):
        causes = []
        register = getattr(self.module, "register", None)
        if callable(register):
            collector = DirectoryCollector(self.registrations)
            try:
                register(collector)
            except BaseException as error:
                if isinstance(error, SystemExit):
                    raise LoadError("register", f"register() exited the interpreter (SystemExit {error.code!r})")
                causes.append(f"register() raised {_describe(error)}")
            if collector.engine is not None:
                self.registrations["via"] = "register"
                return collector.engine
            if not causes:
                causes.append("register() registered no context engine")
        base = context_engine_base()
        if base is not None:
            for attribute in dir(self.module):
                candidate = getattr(self.module, attribute, None)
                if not (isinstance(candidate, type) and issubclass(candidate, base) and candidate is not base):
                    continue
                try:
                    engine = candidate()
                except BaseException as error:  # upstream skips a constructor that raises
                    if isinstance(error, SystemExit):
                        raise LoadError("construct", f"constructing {attribute} exited the interpreter (SystemExit {error.code!r})")
                    causes.append(f"constructing {attribute} raised {_describe(error)}")
                    continue
                self.registrations["via"] = "subclass"
                return engine
        raise LoadError("none", f"{self.directory}: loaded but no engine instance found ({'; '.join(causes) or 'no register(ctx) and no ContextEngine subclass'})")

    def _builtin_compressor(self):
        cls = getattr(self.module, "ContextCompressor", None)
        if cls is None:
            raise LoadError("none", "agent.context_compressor has no ContextCompressor")
        kwargs = {}
        try:
            params = inspect.signature(cls).parameters
        except (TypeError, ValueError):
            params = {}
        if "quiet_mode" in params:
            kwargs["quiet_mode"] = True
        if "config_context_length" in params:
            kwargs["config_context_length"] = int(self._config.get("model_context_length") or 128000)
        try:
            return cls(self.model, **kwargs)
        except BaseException as error:
            raise LoadError("construct", f"ContextCompressor({self.model!r}) raised {_describe(error)}")
