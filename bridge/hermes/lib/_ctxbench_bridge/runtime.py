"""State the host-facing shims share with the bridge: the sandbox home, the run's config, the way
to ask the host's LLM, and the record of host internals the engine reached for."""

_state = {"home": "", "config": {}, "llm": None, "imports": None}


def configure(home, config, llm, imports):
    _state.update(home=home, config=config, llm=llm, imports=imports)


def home():
    return _state["home"]


def config():
    return _state["config"]


def ask_host_llm(params):
    """The host's answer to one auxiliary LLM request: {"content": str} or {"error": {"kind", "message"}}."""
    llm = _state["llm"]
    if llm is None:
        return {"error": {"kind": "connection", "message": "no host is attached to this bridge"}}
    return llm(params)


def record_missing_member(module, name):
    imports = _state["imports"]
    if imports is not None and not name.startswith("__"):
        imports.record(f"{module}.{name}", "missing-member")
