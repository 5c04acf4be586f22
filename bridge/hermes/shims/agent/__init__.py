"""ctxbench's stand-in for the Hermes host's `agent` package (empty on purpose: the host's own
`agent/__init__.py` pulls in modules a context engine never needs)."""
