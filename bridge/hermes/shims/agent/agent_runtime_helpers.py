"""ctxbench's stand-in for the host helper the built-in compressor imports lazily."""

import re

_THINK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>\s*", re.DOTALL | re.IGNORECASE)


def strip_think_blocks(text):
    return _THINK.sub("", text) if isinstance(text, str) else text
