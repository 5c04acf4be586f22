"""When the bridge's process collects garbage: between calls where it can, not inside them.

A steady select_context makes a thousand new message dicts a call (refs.py), so CPython's young
generation fills every call or two and its collection (and every tenth call, the next generation's)
lands inside whichever call allocates next. Two things move that cost out of the host's wait:

- `freeze_startup()`, once the plugin is imported and its first engine built: what exists then
  (the plugin's modules, classes, the engine's start-up state) lives as long as the process, so it
  is moved out of the collector's sight (`gc.freeze`) after a full collection, and no later full
  collection scans it again;
- `collect_when_idle(pending)`, after a call is answered: when no request is waiting and the young
  generation is partly full, it is collected now, so the next call starts with it empty.

The collector stays on for the engine's code, and objects made after start-up are collected as
before. What changes: a reference cycle among the objects alive at the freeze is never collected
(reference counting still frees everything else), and young objects are collected earlier."""

import gc

# Young-generation allocations worth a collection between calls (CPython collects at 700).
_IDLE_THRESHOLD = 100

_frozen = False


def freeze_startup():
    global _frozen
    if _frozen:
        return
    _frozen = True
    gc.collect()
    gc.freeze()


def collect_when_idle(pending):
    if gc.isenabled() and gc.get_count()[0] > _IDLE_THRESHOLD and not pending():
        gc.collect(0)
