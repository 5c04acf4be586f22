"""ctxbench's stand-in for Hermes' constants module: the home directory is the engine's sandbox."""

import os
from pathlib import Path

from _ctxbench_bridge import runtime

OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"


def get_hermes_home():
    return Path(os.environ.get("HERMES_HOME") or runtime.home())


def get_config_path():
    return get_hermes_home() / "config.yaml"


def hermes_home_key():
    return str(get_hermes_home())


def __getattr__(name):
    runtime.record_missing_member(__name__, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
