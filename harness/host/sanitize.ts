import { ROLES, type ContentPart, type Message, type MessageContent, type ToolCall } from "../contract/types.ts";

const KNOWN_ROLES: ReadonlySet<string> = new Set(ROLES);

/** The content the host gives a tool call that has no result, so the request stays valid. */
export const UNANSWERED_TOOL_RESULT = "[No result: the tool call was not answered before this request]";

/**
 * The request sanitizers, in upstream's order: drop unknown roles, drop orphaned tool results,
 * answer unanswered calls, merge consecutive user messages. They run on the selected list (SEL-3)
 * and never edit a message in place: a changed message is a new object, and a list that needs no
 * repair is returned as the same array.
 */
export function sanitizeRequest(messages: Message[]): Message[] {
  let out = dropUnknownRoles(messages);
  out = repairToolPairs(out);
  return mergeConsecutiveUsers(out);
}

export function dropUnknownRoles(messages: Message[]): Message[] {
  let clean = true;
  for (const message of messages) if (!KNOWN_ROLES.has(message.role)) clean = false;
  return clean ? messages : messages.filter((message) => KNOWN_ROLES.has(message.role));
}

/**
 * A tool result must answer a call of an earlier assistant message in the same exchange; a call
 * must have a result before the next non-tool message. Orphans are dropped, gaps get a synthetic result.
 */
export function repairToolPairs(messages: Message[]): Message[] {
  if (isToolPairingClean(messages)) return messages;
  const out: Message[] = [];
  let open: string[] = [];
  const flushOpen = () => {
    for (const id of open) out.push({ role: "tool", tool_call_id: id, content: UNANSWERED_TOOL_RESULT });
    open = [];
  };
  for (const message of messages) {
    if (message.role === "tool") {
      const at = open.indexOf(String(message.tool_call_id));
      if (at === -1) continue;
      open.splice(at, 1);
      out.push(message);
      continue;
    }
    flushOpen();
    out.push(message);
    if (message.role === "assistant") open = callIds(message.tool_calls);
  }
  flushOpen();
  return out;
}

function isToolPairingClean(messages: readonly Message[]): boolean {
  let open: string[] | null = null;
  for (const message of messages) {
    if (message.role === "tool") {
      if (open === null) return false;
      const at = open.indexOf(String(message.tool_call_id));
      if (at === -1) return false;
      open.splice(at, 1);
      continue;
    }
    if (open !== null && open.length > 0) return false;
    open = message.role === "assistant" && Array.isArray(message.tool_calls) ? callIds(message.tool_calls) : null;
  }
  return open === null || open.length === 0;
}

function callIds(calls: ToolCall[] | undefined): string[] {
  if (!Array.isArray(calls)) return [];
  const ids: string[] = [];
  for (const call of calls) if (call && typeof call.id === "string") ids.push(call.id);
  return ids;
}

/** Two user messages in a row become one: text joined by a blank line, part lists concatenated. */
export function mergeConsecutiveUsers(messages: Message[]): Message[] {
  let adjacent = false;
  for (let index = 1; index < messages.length; index++) {
    if (messages[index]!.role === "user" && messages[index - 1]!.role === "user") adjacent = true;
  }
  if (!adjacent) return messages;
  const out: Message[] = [];
  for (const message of messages) {
    const previous = out[out.length - 1];
    if (previous !== undefined && previous.role === "user" && message.role === "user") {
      out[out.length - 1] = { ...previous, content: joinContent(previous.content, message.content) };
    } else {
      out.push(message);
    }
  }
  return out;
}

function joinContent(first: Message["content"], second: Message["content"]): MessageContent {
  if (typeof first === "string" && typeof second === "string") return `${first}\n\n${second}`;
  return [...asParts(first), ...asParts(second)];
}

function asParts(content: Message["content"]): ContentPart[] {
  if (Array.isArray(content)) return content;
  if (typeof content === "string" && content !== "") return [{ type: "text", text: content }];
  return [];
}
