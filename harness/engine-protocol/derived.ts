import { sameJson } from "./json-equal.ts";

/**
 * `conversation_messages` sent as differences from `request_messages`. The host passes
 * select_context the request (wire copies of the transcript) and copies of the transcript itself,
 * which share every leaf value but the identity fields: sending both in full doubles the largest
 * message of the protocol. Where each conversation message holds every key of its request message,
 * it is sent as `{"$derive": "request_messages", "extra": [...]}`: the keys whose values are written
 * as JSON differently from the request message's, or that the request lacks (`message_uid`). A nested
 * list the host copied (`tool_calls`) is not sent again: the engine side rebuilds each message as a
 * new object — the request message's keys with new copies of its nested values, then its extras —
 * so the conversation's nested values are its own, as the host's copies are (protocol 2).
 */
export interface DerivedMessages {
  $derive: "request_messages";
  extra: Array<Record<string, unknown>>;
}

export function deriveFromRequest(request: readonly unknown[], conversation: readonly unknown[]): DerivedMessages | null {
  if (request.length !== conversation.length) return null;
  const extra: Array<Record<string, unknown>> = [];
  for (let index = 0; index < request.length; index++) {
    const base = request[index];
    const full = conversation[index];
    if (!isRecord(base) || !isRecord(full)) return null;
    const own: Record<string, unknown> = {};
    for (const key in base) {
      if (!(key in full)) return null;
    }
    for (const key in full) {
      const value = full[key];
      if (value === undefined) continue;
      if (!(key in base)) own[key] = value;
      else if (base[key] !== value && (value === null || typeof value !== "object" || !sameJson(value, base[key]))) own[key] = value;
    }
    extra.push(own);
  }
  return { $derive: "request_messages", extra };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The conversation messages again, as new objects with nested values of their own (for an engine side written in TypeScript). */
export function underive(request: readonly unknown[], derived: DerivedMessages): Array<Record<string, unknown>> {
  return derived.extra.map((own, index) => {
    const message: Record<string, unknown> = { ...(request[index] as Record<string, unknown>) };
    for (const key in message) if (message[key] !== null && typeof message[key] === "object") message[key] = structuredClone(message[key]);
    return Object.assign(message, own);
  });
}

export function isDerived(value: unknown): value is DerivedMessages {
  return isRecord(value) && value["$derive"] === "request_messages" && Array.isArray(value["extra"]);
}
