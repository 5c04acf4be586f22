"""ctxbench's stand-in for the Hermes CLI package (config and plugin manager only)."""
