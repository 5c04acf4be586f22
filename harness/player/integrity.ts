import { createRequire } from "node:module";
import * as net from "node:net";
import * as stream from "node:stream";
import type { IntegrityFinding } from "./protocol.ts";

// The reflection primitives the comparison uses, taken before any engine code runs.
const ownKeys = Reflect.ownKeys;
const descriptorOf = Object.getOwnPropertyDescriptor;
const same = Object.is;
const requireBuiltin = createRequire(import.meta.url);

/** Objects whose properties the harness relies on while it plays and records. */
function watchedObjects(): Array<[string, object]> {
  const typed = Object.getPrototypeOf(Uint8Array.prototype) as object;
  return [
    ["Object", Object],
    ["Object.prototype", Object.prototype],
    ["Function.prototype", Function.prototype],
    ["Array", Array],
    ["Array.prototype", Array.prototype],
    ["String", String],
    ["String.prototype", String.prototype],
    ["Number", Number],
    ["Number.prototype", Number.prototype],
    ["Boolean.prototype", Boolean.prototype],
    ["Symbol", Symbol],
    ["JSON", JSON],
    ["Math", Math],
    ["Reflect", Reflect],
    ["Promise", Promise],
    ["Promise.prototype", Promise.prototype],
    ["Map.prototype", Map.prototype],
    ["Set.prototype", Set.prototype],
    ["WeakMap.prototype", WeakMap.prototype],
    ["WeakSet.prototype", WeakSet.prototype],
    ["RegExp.prototype", RegExp.prototype],
    ["Error", Error],
    ["Error.prototype", Error.prototype],
    ["Date", Date],
    ["Date.prototype", Date.prototype],
    ["TypedArray.prototype", typed],
    ["Uint8Array.prototype", Uint8Array.prototype],
    ["Buffer", Buffer],
    ["Buffer.prototype", Buffer.prototype],
    ["node:crypto", requireBuiltin("node:crypto") as object],
    ["node:fs", requireBuiltin("node:fs") as object],
    ["net.Socket.prototype", net.Socket.prototype],
    ["stream.Writable.prototype", stream.Writable.prototype],
    ["stream.Readable.prototype", stream.Readable.prototype],
  ];
}

/** Globals the harness calls by name. */
const WATCHED_GLOBALS = ["Object", "Array", "String", "Number", "JSON", "Math", "Reflect", "Promise", "Map", "Set", "WeakMap", "Symbol", "Error", "TypeError", "Date", "Buffer", "AbortController", "structuredClone", "setTimeout", "clearTimeout", "setImmediate", "queueMicrotask", "performance"] as const;

type Entry = { value: unknown; get: unknown; set: unknown };
type Snapshot = Map<string, Map<PropertyKey, Entry>>;

function entryOf(target: object, key: PropertyKey): Entry | undefined {
  const descriptor = descriptorOf(target, key);
  return descriptor === undefined ? undefined : { value: descriptor.value, get: descriptor.get, set: descriptor.set };
}

function take(): Snapshot {
  const snapshot: Snapshot = new Map();
  for (const [name, target] of watchedObjects()) {
    const entries = new Map<PropertyKey, Entry>();
    for (const key of ownKeys(target)) entries.set(key, entryOf(target, key)!);
    snapshot.set(name, entries);
  }
  const globals = new Map<PropertyKey, Entry>();
  for (const key of WATCHED_GLOBALS) {
    // Node defines some globals lazily (an accessor that becomes a value on first use): use each first.
    void (globalThis as Record<string, unknown>)[key];
    const entry = entryOf(globalThis, key);
    if (entry !== undefined) globals.set(key, entry);
  }
  snapshot.set("globalThis", globals);
  return snapshot;
}

const keyName = (key: PropertyKey) => (typeof key === "symbol" ? `[${key.description ?? "symbol"}]` : String(key));

/**
 * The intrinsics as they were before the engine was imported. `compare` names every property of
 * a watched object that is no longer the very same value (or accessor), was added or was removed.
 * Used by the player after the load and after each run: a run recorded after a change cannot be
 * trusted (the harness's own code ran on the engine's replacements) and becomes `error`.
 */
export class IntrinsicsWatch {
  readonly #baseline: Snapshot = take();
  readonly #reported = new Set<string>();

  /** New changes since the baseline (each reported once), attributed to `during`. */
  compare(during: string): IntegrityFinding[] {
    const findings: IntegrityFinding[] = [];
    const now = take();
    for (const [name, before] of this.#baseline) {
      const after = now.get(name)!;
      const prefix = name === "globalThis" ? "" : `${name}.`;
      const report = (key: PropertyKey, change: IntegrityFinding["change"]) => {
        const target = `${prefix}${keyName(key)}`;
        if (this.#reported.has(`${change}:${target}`)) return;
        this.#reported.add(`${change}:${target}`);
        findings.push({ kind: "intrinsic-replaced", target, change, during });
      };
      for (const [key, entry] of before) {
        const current = after.get(key);
        if (current === undefined) report(key, "removed");
        else if (!same(current.value, entry.value) || current.get !== entry.get || current.set !== entry.set) report(key, "replaced");
      }
      if (name === "globalThis") continue;
      for (const key of after.keys()) if (!before.has(key)) report(key, "added");
    }
    return findings;
  }

  /** Whether any change has been seen so far. */
  get tainted(): boolean {
    return this.#reported.size > 0;
  }
}
