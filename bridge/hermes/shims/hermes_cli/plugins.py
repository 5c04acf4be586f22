"""ctxbench's stand-in for Hermes' plugin manager. Engines register host hooks here (through
`ctx.register_hook` or by appending to `get_plugin_manager()._hooks` directly, as hermes-lcm does);
the bridge fires `post_llm_call` and `pre_llm_call` where the host would."""

import logging
import threading

_log = logging.getLogger("hermes_cli.plugins")


class PluginManager:
    def __init__(self):
        self._hooks = {}
        self._plugin_commands = {}
        self._cli_commands = {}
        self._tools = {}
        self._context_engine = None
        self._lock = threading.Lock()

    def register_hook(self, name, callback):
        with self._lock:
            self._hooks.setdefault(name, []).append(callback)

    def invoke_hook(self, name, **kwargs):
        results = []
        for callback in list(self._hooks.get(name, ())):
            try:
                value = callback(**kwargs)
            except Exception as error:
                _log.warning("Plugin hook %s failed: %s", name, error)
                continue
            if value is not None:
                results.append(value)
        return results

    def hook_counts(self):
        return {name: len(callbacks) for name, callbacks in self._hooks.items() if isinstance(callbacks, list) and callbacks}


_manager = PluginManager()


def get_plugin_manager():
    return _manager


def get_plugin_context_engine():
    return _manager._context_engine


def invoke_hook(name, **kwargs):
    return _manager.invoke_hook(name, **kwargs)
