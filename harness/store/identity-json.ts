import type { ToolCallUids } from "../contract/types.ts";

/**
 * Column encodings of the identity fields, byte-compatible with the upstream store, which writes
 * them with Python's default JSON separators (", " and ": ") and sorted map keys.
 */
export function encodeUidList(uids: readonly string[] | undefined): string | null {
  if (uids === undefined || uids.length === 0) return null;
  return `[${uids.map((uid) => JSON.stringify(uid)).join(", ")}]`;
}

/**
 * The `tool_call_uids` column of whatever a message carries: the same text as
 * `encodeToolCallUids(toolCallUidMap(raw))`, without building the cleaned map first.
 */
export function encodeToolCallUidColumn(raw: unknown): string | null {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const record = raw as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  let encoded = "";
  for (const key of keys) {
    const value = record[key];
    let text: string;
    if (typeof value === "string" && value.length > 0) text = JSON.stringify(value);
    else if (Array.isArray(value)) {
      const slots = value.map((slot) => (typeof slot === "string" && slot.length > 0 ? JSON.stringify(slot) : "null"));
      if (slots.every((slot) => slot === "null")) continue;
      text = `[${slots.join(", ")}]`;
    } else continue;
    encoded += `${encoded.length === 0 ? "{" : ", "}${JSON.stringify(key)}: ${text}`;
  }
  return encoded.length === 0 ? null : `${encoded}}`;
}

export function encodeToolCallUids(map: ToolCallUids | undefined): string | null {
  if (map === undefined) return null;
  const keys = Object.keys(map).sort();
  if (keys.length === 0) return null;
  const entries = keys.map((key) => {
    const value = map[key];
    const encoded = Array.isArray(value)
      ? `[${value.map((slot) => (slot === null ? "null" : JSON.stringify(slot))).join(", ")}]`
      : JSON.stringify(value);
    return `${JSON.stringify(key)}: ${encoded}`;
  });
  return `{${entries.join(", ")}}`;
}

/** Unique non-empty strings, in first-seen order; anything malformed contributes nothing. */
export function uidList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  for (const item of value) if (typeof item === "string" && item.length > 0) seen.add(item);
  return [...seen];
}

export function decodeUidList(column: string | null): string[] {
  if (column === null) return [];
  try {
    return uidList(JSON.parse(column));
  } catch {
    return [];
  }
}

/**
 * A uid map's entry for a provider tool-call id, own properties only: ids are model output, and
 * "constructor", "toString" or "__proto__" must not find Object.prototype's members.
 */
export function uidEntry(map: ToolCallUids, id: string): ToolCallUids[string] | undefined {
  return Object.hasOwn(map, id) ? map[id] : undefined;
}

/** Sets a uid map's entry as an own property, so an id "__proto__" is an entry, not the prototype. */
export function setUidEntry(map: ToolCallUids, id: string, value: ToolCallUids[string]): void {
  // Assignment makes an own property for every other key; only __proto__ is an accessor.
  if (id === "__proto__") Object.defineProperty(map, id, { value, writable: true, enumerable: true, configurable: true });
  else map[id] = value;
}

/** A well-formed uid map, or null: values are uid strings or per-occurrence slot lists. */
export function toolCallUidMap(value: unknown): ToolCallUids | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const map: ToolCallUids = {};
  for (const [key, raw] of Object.entries(value)) {
    if (typeof raw === "string" && raw.length > 0) setUidEntry(map, key, raw);
    else if (Array.isArray(raw)) {
      const slots = raw.map((slot) => (typeof slot === "string" && slot.length > 0 ? slot : null));
      if (slots.some((slot) => slot !== null)) setUidEntry(map, key, slots);
    }
  }
  return map;
}

/**
 * `value` itself when it already is what toolCallUidMap would make of it (a plain object whose
 * every value is a uid or a slot list holding one), else toolCallUidMap(value): for callers that
 * neither keep nor change the map, and for freshly parsed maps. A stored column is almost always
 * clean, and copying a map of provider ids costs a new hidden class per key.
 */
export function readToolCallUidMap(value: unknown): ToolCallUids | null {
  return isCleanUidMap(value) ? (value as ToolCallUids) : toolCallUidMap(value);
}

/** Whether toolCallUidMap would return an equal copy of `value` (same keys, same order, same values). */
export function isCleanUidMap(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const raw = record[key];
    if (typeof raw === "string") {
      if (raw.length === 0) return false;
    } else if (Array.isArray(raw)) {
      let mapped = false;
      for (let i = 0; i < raw.length; i++) {
        const slot: unknown = raw[i];
        if (typeof slot === "string" && slot.length > 0) mapped = true;
        else if (slot !== null) return false;
      }
      if (!mapped || Object.getPrototypeOf(raw) !== Array.prototype) return false;
    } else return false;
  }
  return true;
}

export function decodeToolCallUids(column: string | null): ToolCallUids | null {
  if (column === null) return null;
  try {
    const map = readToolCallUidMap(JSON.parse(column));
    return map !== null && Object.keys(map).length > 0 ? map : null;
  } catch {
    return null;
  }
}
