/** A message the store has written (it carries the row's timestamp and uid); the host never edits one again. */
export function isPersistedMessage(value: object): boolean {
  const message = value as { timestamp?: unknown; message_uid?: unknown; role?: unknown };
  return typeof message.timestamp === "number" && typeof message.message_uid === "string" && typeof message.role === "string";
}
