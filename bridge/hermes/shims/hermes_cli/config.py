"""ctxbench's stand-in for Hermes' config module: the home is the sandbox, the config is the run's."""

import copy

import hermes_constants
from _ctxbench_bridge import runtime


def get_hermes_home():
    return hermes_constants.get_hermes_home()


def get_config_path():
    return hermes_constants.get_config_path()


def load_config():
    return copy.deepcopy(runtime.config())


def load_config_readonly():
    return load_config()


def __getattr__(name):
    runtime.record_missing_member(__name__, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
