"""ctxbench's Hermes bridge: serves one Python context-engine plugin over the engine protocol."""

PROTOCOL_VERSION = 2
