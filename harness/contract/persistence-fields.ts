import type { Message } from "./types.ts";

/** Host bookkeeping fields that never reach the provider and that token estimates ignore (WIRE-1, WIRE-2). */
export const PERSISTENCE_ONLY_MESSAGE_FIELDS: ReadonlySet<string> = new Set([
  "timestamp",
  "display_kind",
  "display_metadata",
  "_row_id",
  "message_uid",
  "_absorbed_message_uids",
  "_tool_call_uids",
  "_tool_call_uid",
]);

export function hasPersistenceFields(message: Message): boolean {
  for (const key in message) if (PERSISTENCE_ONLY_MESSAGE_FIELDS.has(key)) return true;
  return false;
}

/** A wire copy of one message: the persistence-only fields removed, everything else shared. */
export function stripPersistenceFields(message: Message): Message {
  const copy: Message = { role: message.role };
  for (const key in message) {
    if (!PERSISTENCE_ONLY_MESSAGE_FIELDS.has(key)) copy[key] = message[key];
  }
  return copy;
}

export function stripAll(messages: readonly Message[]): Message[] {
  return messages.map(stripPersistenceFields);
}
