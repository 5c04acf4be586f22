"""The engine protocol's engine side (docs/engine-protocol.md): dispatches host requests to the
plugin's engines on the threads upstream would use and answers with values and native facts."""

import inspect
import logging
import os
import sys
import threading
import traceback

from . import PROTOCOL_VERSION, collector, environment, facts, hooks, imports, loader, refs, runtime, wire
from .channel import Channel, parse
from .lanes import Lanes

# JSON-RPC error codes (docs/engine-protocol.md).
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
ENGINE_RAISED = -32000
LOAD_FAILED = -32001
UNKNOWN_HANDLE = -32002
NOT_INITIALIZED = -32003

_LLM_TIMEOUT_S = 120.0
_PLAIN_SCALARS = (bool, int, str, type(None))
_SHIMS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "shims")


class ProtocolError(Exception):
    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code = code
        self.data = data


class Server:
    def __init__(self, channel):
        self.channel = channel
        self.lanes = Lanes()
        self.engines = {}
        self._handles_by_id = {}
        self._next_handle = 1
        self._lock = threading.Lock()
        self.plugin = None
        self.recorder = None
        self.base = None
        self._hook_counts = {}
        self._cancelled = set()
        self.kept = refs.KeptMessages()

    # ---- plumbing -------------------------------------------------------------------------

    def serve(self):
        self.lanes.serve(self._read_one)

    def _read_one(self):
        line = self.channel.read_line()
        if not line:
            os._exit(0)
        try:
            message = parse(line)
        except ValueError as error:
            self.channel.fail(None, PARSE_ERROR, f"not JSON: {error}")
            return
        self.dispatch(message)

    def dispatch(self, message):
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self.channel.fail(message.get("id") if isinstance(message, dict) else None, INVALID_REQUEST, "not a JSON-RPC 2.0 message")
            return
        if "method" not in message:
            self.channel.deliver(message)
            return
        method, request_id, params = message["method"], message.get("id"), message.get("params") or {}
        if not isinstance(params, dict):
            self.channel.fail(request_id, INVALID_PARAMS, "params must be an object")
            return
        if method in ("setattr", "release", "cancel"):
            getattr(self, f"_notify_{method}")(params)
            return
        if method == "shutdown" and request_id is not None:
            self._shutdown(request_id)
            return
        handler = getattr(self, f"_do_{method.replace('.', '_')}", None)
        if handler is None or request_id is None:
            if request_id is not None:
                self.channel.fail(request_id, METHOD_NOT_FOUND, f"unknown method {method!r}")
            return
        refill = None
        if method == "hook" and isinstance(params.get("params"), dict):
            # Messages by reference are resolved here, on the reader thread, in the host's order.
            hook_params = params["params"]
            numbers = (hook_params.get("request_messages") or {}).get("$refs") if isinstance(hook_params.get("request_messages"), dict) else None
            try:
                known = self.kept.resolve(hook_params)
            except refs.RefError as error:
                self.channel.fail(request_id, INVALID_PARAMS, str(error))
                return
            if known:
                handler = lambda hook_params, known=known: self._do_hook(hook_params, known)  # noqa: E731
                lists = 2 if "conversation_messages" in known else 1
                refill = lambda: self.kept.refill(numbers, lists, self.channel.pending)  # noqa: E731
        context = params.get("context")
        pooled = method == "hook" and params.get("hook") in hooks.POOLED
        self.lanes.submit(context if isinstance(context, str) else None, pooled, lambda: self._answer(request_id, handler, params, refill))

    def _answer(self, request_id, handler, params, refill=None):
        try:
            result = handler(params)
        except ProtocolError as error:
            self.channel.fail(request_id, error.code, str(error), error.data)
        except Exception as error:  # a bug of the bridge itself: say so rather than hang the host
            self.channel.fail(request_id, -32603, f"bridge error: {type(error).__name__}: {error}", {"traceback": traceback.format_exc()[-4000:]})
        else:
            self._announce_hooks()
            self.channel.respond(request_id, result)
        if refill is not None:
            try:
                refill()
            except Exception:  # copies made ahead are an optimisation: the next call copies on demand
                traceback.print_exc(file=sys.stderr)
        collector.collect_when_idle(self.channel.pending)

    def _announce_hooks(self):
        plugins = sys.modules.get("hermes_cli.plugins")
        manager = getattr(plugins, "get_plugin_manager", None) if plugins else None
        if manager is None:
            return
        try:
            hooks_now = {name: len(callbacks) for name, callbacks in manager()._hooks.items() if isinstance(callbacks, list) and callbacks}
        except Exception:
            return
        if hooks_now != self._hook_counts:
            self._hook_counts = hooks_now
            self.channel.notify("hooks", {"hooks": dict(hooks_now)})

    def _ask_llm(self, params):
        timeout = params.get("timeout")
        wait = float(timeout) if isinstance(timeout, (int, float)) and timeout > 0 else _LLM_TIMEOUT_S
        self.lanes.lend_reader()
        reply = self.channel.request("llm.call", params, wait)
        if reply is None:
            return {"error": {"kind": "timeout", "message": f"the host did not answer within {wait:g} s"}}
        if "error" in reply:
            error = reply["error"] or {}
            data = error.get("data") or {}
            return {"error": {"kind": data.get("kind") or "connection", "message": error.get("message")}}
        return reply.get("result") or {}

    def _engine(self, params):
        handle = params.get("handle")
        engine = self.engines.get(handle)
        if engine is None:
            raise ProtocolError(UNKNOWN_HANDLE, f"no engine with handle {handle!r}")
        return engine

    def _adopt(self, engine, via):
        with self._lock:
            known = self._handles_by_id.get(id(engine))
            if known is not None and self.engines.get(known) is engine:
                return known, False
            handle = self._next_handle
            self._next_handle += 1
            self.engines[handle] = engine
            self._handles_by_id[id(engine)] = handle
        return handle, True

    # ---- notifications --------------------------------------------------------------------

    def _notify_setattr(self, params):
        engine = self.engines.get(params.get("handle"))
        if engine is not None:
            try:
                setattr(engine, params["name"], params.get("value"))
            except Exception as error:
                print(f"ctxbench bridge: the host could not set {params.get('name')!r}: {error}", file=sys.stderr)

    def _notify_release(self, params):
        engine = self.engines.pop(params.get("handle"), None)
        if engine is not None:
            self._handles_by_id.pop(id(engine), None)

    def _notify_cancel(self, params):
        # Python cannot stop a thread: the host discards the answer; we only note it.
        self._cancelled.add(params.get("id"))

    # ---- requests -------------------------------------------------------------------------

    def _do_initialize(self, params):
        if self.plugin is not None:
            raise ProtocolError(INVALID_REQUEST, "already initialized")
        if params.get("protocol") != PROTOCOL_VERSION:
            raise ProtocolError(INVALID_PARAMS, f"protocol {params.get('protocol')!r} is not supported (this bridge speaks {PROTOCOL_VERSION})")
        plugin = params.get("plugin") or {}
        home = params.get("home") or os.getcwd()
        config = params.get("config") or {}
        hermes_agent = params.get("hermesAgent")
        os.makedirs(home, exist_ok=True)
        # A process may be started before its sandbox is known (a spare): it moves into it now.
        os.chdir(home)
        os.environ["HERMES_HOME"] = home
        environment.write_config(home, config)
        self.recorder = imports.ImportRecorder({"shim": _SHIMS, "checkout": hermes_agent}, lambda record: self.channel.notify("imports", {"modules": [record]}))
        runtime.configure(home, config, self._ask_llm, self.recorder)
        stubs = environment.arrange_path(hermes_agent, _SHIMS)
        self.recorder.install()
        self.plugin = loader.Plugin(
            plugin.get("mode") or "directory",
            plugin.get("directory") or "",
            plugin.get("selection") or "",
            plugin.get("manifest"),
            hermes_agent,
            params.get("model") or "ctxbench/sim",
            lambda **kwargs: self._ask_llm(kwargs),
            config,
        )
        if self.plugin.mode == "directory":
            self.recorder.ignore_prefix(f"plugins.context_engine.{os.path.basename(os.path.normpath(self.plugin.directory))}")
        self.recorder.active = True
        try:
            self.plugin.load()
        except loader.LoadError as error:
            raise ProtocolError(LOAD_FAILED, str(error), {"stage": error.stage})
        self.base = loader.context_engine_base()
        return {
            "protocol": PROTOCOL_VERSION,
            "runtime": {
                "language": "python",
                "version": ".".join(str(part) for part in sys.version_info[:3]),
                "implementation": sys.implementation.name,
                "executable": sys.executable,
                "flags": {
                    "isolated": bool(sys.flags.isolated),
                    "noUserSite": bool(sys.flags.no_user_site),
                    "dontWriteBytecode": bool(sys.dont_write_bytecode),
                    "hashRandomization": bool(sys.flags.hash_randomization),
                },
            },
            "module": self.plugin.module_name,
            "hostModules": self.recorder.records,
            "optionalPackages": imports.optional_packages(),
            "stubs": stubs,
            "warnings": list(self.plugin.warnings),
            "features": [refs.FEATURE],
        }

    def _do_create(self, params):
        if self.plugin is None:
            raise ProtocolError(NOT_INITIALIZED, "initialize first")
        try:
            engine = self.plugin.create()
        except loader.LoadError as error:
            raise ProtocolError(LOAD_FAILED, str(error), {"stage": error.stage})
        handle, _ = self._adopt(engine, self.plugin.registrations["via"])
        collector.freeze_startup()
        return self._description(engine, handle)

    def _description(self, engine, handle):
        description = facts.describe(engine, self.base, handle, self.plugin.registrations["via"] if self.plugin else None)
        registrations = dict(self.plugin.registrations)
        description["registrations"] = registrations
        try:
            schemas = engine.get_tool_schemas()
            description["toolSchemas"] = schemas if wire.is_plain_json(schemas) else wire.native_marker(schemas)
        except Exception as error:
            description["toolSchemas"] = None
            description["toolSchemasError"] = f"{type(error).__name__}: {error}"
        return description

    def _do_hook(self, params, known=None):
        engine = self._engine(params)
        hook = params.get("hook")
        if hook not in hooks.CALLS:
            raise ProtocolError(INVALID_PARAMS, f"unknown hook {hook!r}")
        arguments = params.get("params") or {}
        try:
            call, watch = hooks.prepare(engine, hook, arguments, known)
        except KeyError as missing:
            raise ProtocolError(INVALID_PARAMS, f"{hook} needs the parameter {missing}")
        return self._run(engine, hook, call, watch, lambda value: hooks.translate(hook, value))

    def _do_invoke(self, params):
        engine = self._engine(params)
        method = params.get("method")
        if not isinstance(method, str) or method.startswith("__"):
            raise ProtocolError(INVALID_PARAMS, "method must name a public attribute")
        args = params.get("args") or []
        kwargs = params.get("kwargs") or {}
        watch = hooks.Watch({str(i): value for i, value in enumerate(args)} | {f"kw:{k}": v for k, v in kwargs.items()}, [str(i) for i in range(len(args))] + [f"kw:{k}" for k in kwargs])

        def call():
            member = getattr(engine, method)
            return member(*args, **kwargs) if callable(member) else member

        return self._run(engine, method, call, watch, lambda value: value)

    def _do_getattr(self, params):
        engine = self._engine(params)
        name = params.get("name")
        if not isinstance(name, str):
            raise ProtocolError(INVALID_PARAMS, "name must be a string")
        try:
            value = getattr(engine, name)
        except Exception as error:
            raise ProtocolError(ENGINE_RAISED, f"{type(error).__name__}: {error}", _error_data(error, engine))
        return {"value": value if wire.is_plain_json(value) else wire.native_marker(value), "type": wire.type_name(value), "json": wire.is_plain_json(value)}

    def _do_fire(self, params):
        """Run the host hooks plugins registered (post_llm_call, pre_llm_call) where the host would."""
        event = params.get("event")
        kwargs = params.get("kwargs") or {}
        plugins = sys.modules.get("hermes_cli.plugins")
        if plugins is None or not isinstance(event, str):
            return {"results": [], "errors": []}
        manager = plugins.get_plugin_manager()
        results, errors = [], []
        for callback in list(manager._hooks.get(event, ()) or ()):
            try:
                value = callback(**kwargs)
            except Exception as error:
                errors.append(f"{type(error).__name__}: {error}")
                continue
            if value is not None:
                results.append(value)
        answer = {"results": results, "errors": errors}
        engine = self.engines.get(params.get("handle"))
        if engine is not None:
            answer["attrs"], answer["attrTypes"] = facts.snapshot(engine)
        return answer

    def _run(self, engine, name, call, watch, translate):
        try:
            value = call()
        except BaseException as error:
            if isinstance(error, (KeyboardInterrupt, GeneratorExit)):
                raise
            data = _error_data(error, engine)
            mutations = watch.mutations()
            if mutations:
                data["mutated"] = mutations
            raise ProtocolError(ENGINE_RAISED, f"{type(error).__name__}: {error}", data)
        result = {"type": wire.type_name(value)}
        if type(value) in _PLAIN_SCALARS:
            # The common answer (a bool, a count, None): no awaitable, engine or input object to look for.
            result.update(value=value, json=True)
        elif inspect.isawaitable(value) or inspect.isgenerator(value):
            # The host is synchronous: it never awaits an engine's answer (nor runs a generator).
            _discard(value)
            result.update(value=wire.native_marker(value), json=False, awaitable=inspect.isawaitable(value))
        elif self.base is not None and isinstance(value, self.base) or _looks_like_engine(value):
            if value is engine:
                result.update(value=None, json=True, sameAs="self")
            else:
                handle, _ = self._adopt(value, "clone")
                result.update(value=None, json=True, engine=self._description(value, handle))
        else:
            same = watch.same_as(value)
            if same is not None:
                result.update(sameAs=same, json=True)
            else:
                translated = translate(value)
                plain = wire.is_plain_json(translated)
                result.update(value=translated if plain else _encoded(translated), json=plain or isinstance(translated, (list, tuple, dict)))
        mutations = watch.mutations()
        if mutations:
            result["mutated"] = mutations
        result["attrs"], result["attrTypes"] = facts.snapshot(engine)
        return result

    def _shutdown(self, request_id):
        for engine in list(self.engines.values()):
            closer = getattr(engine, "shutdown", None)
            if callable(closer):
                worker = threading.Thread(target=_quietly, args=(closer,), daemon=True)
                worker.start()
                worker.join(2.0)
        self.channel.respond(request_id, {})
        sys.stderr.flush()
        os._exit(0)


def _quietly(function):
    try:
        function()
    except Exception:
        pass


def _encoded(value):
    import json

    return json.loads(wire.dumps(value))


def _looks_like_engine(value):
    return hasattr(value, "compress") and hasattr(value, "should_compress") and hasattr(value, "update_from_response") and not isinstance(value, type)


def _discard(value):
    close = getattr(value, "close", None)
    if callable(close):
        try:
            close()
        except Exception:
            pass


def _error_data(error, engine):
    attrs, types = facts.snapshot(engine)
    return {
        "type": type(error).__name__,
        "message": str(error),
        "traceback": "".join(traceback.format_exception(type(error), error, error.__traceback__))[-4000:],
        "attrs": attrs,
        "attrTypes": types,
    }


def serve():
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    Server(Channel()).serve()
