"""The world the plugin sees: the import path (our shims, or a hermes-agent checkout with only the
LLM seam stubbed) and the run's config written where Hermes keeps it."""

import importlib.util
import json
import os
import sys
import types


def arrange_path(hermes_agent, shims):
    """Our shims first; with a hermes-agent checkout, its real modules and only our LLM seam."""
    stubs = []
    if hermes_agent:
        sys.path.insert(0, hermes_agent)
        agent = types.ModuleType("agent")
        agent.__path__ = [os.path.join(hermes_agent, "agent")]
        agent.__file__ = os.path.join(shims, "agent", "__init__.py")
        sys.modules["agent"] = agent
        for seam in ("auxiliary_client", "agent_runtime_helpers"):
            if seam == "agent_runtime_helpers" and os.path.isfile(os.path.join(hermes_agent, "agent", f"{seam}.py")):
                continue
            spec = importlib.util.spec_from_file_location(f"agent.{seam}", os.path.join(shims, "agent", f"{seam}.py"))
            module = importlib.util.module_from_spec(spec)
            sys.modules[f"agent.{seam}"] = module
            spec.loader.exec_module(module)
            setattr(agent, seam, module)
            stubs.append({"module": f"agent.{seam}", "why": "the LLM seam" if seam == "auxiliary_client" else "missing from the checkout"})
        for name, why in (("requests", "network"), ("yaml", "config parsing")):
            if importlib.util.find_spec(name) is None:
                sys.modules[name] = _unusable_module(name, why)
                stubs.append({"module": name, "why": f"not installed ({why}); any use raises"})
        for name in ("hermes_constants", "hermes_cli"):
            if not os.path.exists(os.path.join(hermes_agent, f"{name}.py")) and not os.path.isdir(os.path.join(hermes_agent, name)):
                stubs.append({"module": name, "why": "missing from the checkout; ctxbench's stand-in used"})
        sys.path.append(shims)
    else:
        sys.path.insert(0, shims)
    return stubs


def _unusable_module(name, why):
    class _Unusable(types.ModuleType):
        def __getattr__(self, attribute):
            if attribute.startswith("__"):
                raise AttributeError(attribute)
            raise ConnectionError(f"{name}.{attribute}: ctxbench stubs {name} ({why}); it cannot be used here")

    return _Unusable(name)


def write_config(home, config):
    if not config:
        return
    with open(os.path.join(home, "config.yaml"), "w", encoding="utf-8") as out:
        out.write(_yaml(config, 0))


def _yaml(value, indent):
    """A block-style YAML emitter for the run's config (dicts, lists, scalars)."""
    pad = "  " * indent
    lines = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                lines.append(f"{pad}{key}:\n{_yaml(item, indent + 1)}")
            else:
                lines.append(f"{pad}{key}: {_scalar(item)}\n")
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)) and item:
                lines.append(f"{pad}-\n{_yaml(item, indent + 1)}")
            else:
                lines.append(f"{pad}- {_scalar(item)}\n")
    return "".join(lines)


def _scalar(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (dict, list)):
        return "{}" if isinstance(value, dict) else "[]"
    return json.dumps(str(value))
