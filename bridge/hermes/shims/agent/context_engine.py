"""The context-engine contract as the newest Hermes hosts define it, written for ctxbench.

A real `abc.ABC`: `name` is an abstract property and `update_from_response`, `should_compress` and
`compress` are abstract, so a subclass missing one of them cannot be constructed. Every optional
hook has the host's documented default. Self-contained: standard library only, and `update_model`
resolves per-model thresholds here instead of importing the host's compressor.
"""

import copy
import json
import re
from abc import ABC, abstractmethod

MEMORY_CONTEXT_MAX_CHARS = 6000
_MEMORY_HEAD_CHARS = 4000
_MEMORY_TAIL_CHARS = 1500
_MEMORY_TRUNCATED = "\n...[memory provider context truncated]...\n"

_SECRET_PATTERNS = [
    (re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=-]{8,}"), r"\1 [REDACTED]"),
    (re.compile(r"\b(sk|pk|rk|ghp|gho|xox[abpr])[-_][A-Za-z0-9_-]{8,}"), "[REDACTED]"),
    (re.compile(r"(?i)\b(api[_-]?key|token|secret|password|passwd)\b(\s*[:=]\s*)[\"']?[^\s\"',;]+"), r"\1\2[REDACTED]"),
    (re.compile(r"(://)[^/\s:@]+:[^/\s@]+@"), r"\1[REDACTED]@"),
]


class ContextSelectionBlocked(Exception):
    """Raised by a select_context that refuses to route this request (newer hosts feature-detect it)."""


def sanitize_memory_context(text):
    """Redact secrets and URL credentials, then cap at MEMORY_CONTEXT_MAX_CHARS (head + marker + tail)."""
    if not text:
        return ""
    cleaned = str(text)
    for pattern, replacement in _SECRET_PATTERNS:
        cleaned = pattern.sub(replacement, cleaned)
    if len(cleaned) > MEMORY_CONTEXT_MAX_CHARS:
        cleaned = cleaned[:_MEMORY_HEAD_CHARS] + _MEMORY_TRUNCATED + cleaned[-_MEMORY_TAIL_CHARS:]
    return cleaned


def resolve_model_threshold(model, model_thresholds):
    """The threshold percent of the longest key of `model_thresholds` found in the model name, or None."""
    if not model or not isinstance(model_thresholds, dict):
        return None
    best = None
    for key, value in model_thresholds.items():
        if not isinstance(key, str) or key.lower() not in str(model).lower():
            continue
        if best is None or len(key) > len(best[0]):
            best = (key, value)
    if best is None:
        return None
    try:
        return float(best[1])
    except (TypeError, ValueError):
        return None


def automatic_compaction_status_message(engine, *, phase, default_message, **context):
    """The user-visible status line of an automatic compaction, as the engine wants it (None hides it)."""
    if not getattr(engine, "emit_automatic_compaction_status", True):
        return None
    hook = getattr(engine, "get_automatic_compaction_status_message", None)
    if not callable(hook):
        return default_message
    try:
        return hook(phase=phase, default_message=default_message, **context)
    except Exception:
        return default_message


class ContextEngine(ABC):
    """Base class of every context engine: when and how to compact, and what each request sees."""

    last_prompt_tokens = 0
    last_completion_tokens = 0
    last_total_tokens = 0
    threshold_tokens = 0
    context_length = 0
    compression_count = 0

    threshold_percent = 0.75
    protect_first_n = 3
    protect_last_n = 6

    emit_automatic_compaction_status = True
    model_thresholds = None

    @property
    @abstractmethod
    def name(self):
        """Short identifier, e.g. 'lcm'; must match the config.yaml value that selects the engine."""

    @abstractmethod
    def update_from_response(self, usage):
        """Record the usage dict of the latest provider response in the last_* counters."""

    @abstractmethod
    def should_compress(self, prompt_tokens=None):
        """True when compaction should fire this turn."""

    @abstractmethod
    def compress(self, messages, current_tokens=None, focus_topic=None, force=False, memory_context=""):
        """Return a new, valid OpenAI-format message list (possibly shorter)."""

    # Optional hooks: the host's documented defaults.

    def should_compress_preflight(self, messages):
        return False

    def should_compress_info(self, prompt_tokens=None):
        return self.should_compress(prompt_tokens), None

    def should_defer_preflight_to_real_usage(self, rough_tokens):
        return False

    def has_content_to_compress(self, messages):
        return True

    def prune_tool_results_only(self, messages, current_tokens=None):
        return messages, 0

    def pending_compression_operation(self, messages):
        return None

    def select_context(self, request_messages, *, conversation_messages=None, incoming_message=None, budget_tokens=0):
        return None

    def on_turn_complete(self, messages, usage=None, **kwargs):
        return None

    def get_automatic_compaction_status_message(self, *, phase, default_message, **context):
        return default_message

    def on_session_start(self, session_id, **kwargs):
        return None

    def on_session_end(self, session_id, messages):
        return None

    def on_session_reset(self):
        self.last_prompt_tokens = 0
        self.last_completion_tokens = 0
        self.last_total_tokens = 0
        self.compression_count = 0

    def get_tool_schemas(self):
        return []

    def handle_tool_call(self, name, args, **kwargs):
        return json.dumps({"error": f"Unknown context engine tool: {name}"})

    def get_status(self):
        last = max(0, int(self.last_prompt_tokens or 0))
        window = self.context_length or 0
        return {
            "last_prompt_tokens": last,
            "threshold_tokens": self.threshold_tokens,
            "context_length": window,
            "usage_percent": min(100.0, last / window * 100) if window else 0.0,
            "compression_count": self.compression_count,
        }

    def update_model(self, model, context_length, base_url="", api_key="", provider="", api_mode=""):
        if not hasattr(self, "_config_threshold_percent"):
            self._config_threshold_percent = self.threshold_percent
        percent = self._config_threshold_percent
        override = resolve_model_threshold(model, self.model_thresholds)
        if override is not None:
            percent = override
        self._base_threshold_percent = percent
        self.threshold_percent = percent
        self.context_length = context_length
        self.threshold_tokens = int(context_length * percent)

    def clone_for_agent(self):
        return copy.deepcopy(self)
