import { ROLES } from "./types.ts";

/** What can be wrong with an OpenAI-format message sequence (CMP-1, CMP-2). */
export type SequenceFindingKind =
  | "non-object-message"
  | "missing-role"
  | "unknown-role"
  | "invalid-content"
  | "invalid-name"
  | "malformed-tool-calls"
  | "malformed-tool-call"
  | "duplicate-call-id"
  | "invalid-arguments-json"
  | "missing-tool-call-id"
  | "orphaned-result"
  | "split-batch"
  | "unanswered-call";

/**
 * One problem, at the index of the message that shows it. `error` makes the sequence invalid;
 * `warning` is reported but pairable (a provider id repeated inside one response, TCU-3; a content
 * part of a type this validator does not know).
 */
export interface SequenceFinding {
  kind: SequenceFindingKind;
  severity: "error" | "warning";
  index: number;
  /** The field of the message that is wrong (`content[1].type`, `tool_calls[0].function.name`), or null for the whole message. */
  field: string | null;
  /** What a provider expects there. */
  expected: string | null;
  /** The provider tool-call id involved, when there is one. */
  callId: string | null;
  /** One sentence naming the element, the field and what was expected. */
  detail: string;
}

/**
 * Kinds a provider refuses outright, message by message: a request holding one is rejected (HTTP
 * 400) whatever the sanitizers do, and the store cannot keep some of them. Pairing problems are
 * repaired by the sanitizers instead (upstream), so they are not in this set.
 */
export const UNSENDABLE_KINDS: ReadonlySet<SequenceFindingKind> = new Set([
  "non-object-message",
  "missing-role",
  "invalid-content",
  "invalid-name",
  "malformed-tool-calls",
  "malformed-tool-call",
]);

/** The rule a finding breaks: the message's own shape is CMP-1, its tool calls and their pairing CMP-2. */
export function ruleOfFinding(kind: SequenceFindingKind): "CMP-1" | "CMP-2" {
  return kind === "non-object-message" || kind === "missing-role" || kind === "unknown-role" || kind === "invalid-content" || kind === "invalid-name" ? "CMP-1" : "CMP-2";
}

interface OpenCall {
  id: string;
  answered: boolean;
}

interface OpenBatch {
  index: number;
  calls: OpenCall[];
}

/** What a content part of a known type needs (OpenAI chat format): null, or [what is wrong, what was expected]. */
const PART_FIELDS: Readonly<Record<string, (part: Record<string, unknown>) => [string, string] | null>> = {
  text: (part) => (typeof part["text"] === "string" ? null : [`"text" ${describe(part["text"])}`, "a string"]),
  image_url: (part) => {
    const image = part["image_url"];
    if (image === null || typeof image !== "object" || Array.isArray(image)) return [`"image_url" ${describe(image)}`, 'an object with a "url" string'];
    const url = (image as { url?: unknown }).url;
    return typeof url === "string" ? null : [`"image_url.url" ${describe(url)}`, "a string"];
  },
  input_audio: (part) => {
    const audio = part["input_audio"] as { data?: unknown; format?: unknown } | null | undefined;
    return audio !== null && typeof audio === "object" && typeof audio.data === "string" && typeof audio.format === "string"
      ? null
      : [`"input_audio" ${describe(audio)}`, 'an object with "data" and "format" strings'];
  },
  file: (part) => (part["file"] !== null && typeof part["file"] === "object" && !Array.isArray(part["file"]) ? null : [`"file" ${describe(part["file"])}`, "an object"]),
  refusal: (part) => (typeof part["refusal"] === "string" ? null : [`"refusal" ${describe(part["refusal"])}`, "a string"]),
};

type Add = (finding: Omit<SequenceFinding, "severity" | "callId" | "field" | "expected"> & Partial<SequenceFinding>) => void;

/**
 * Every problem of a message list, in message order, as a provider would see it. Results pair with
 * the nearest preceding unanswered call of their id (ids repeat across turns and inside one
 * response, TCU-3), never across a user message; a result that pairs with an assistant other than
 * the one right before the run of tool messages it sits in splits that assistant's batch.
 */
export function validateSequence(messages: readonly unknown[]): SequenceFinding[] {
  const findings: SequenceFinding[] = [];
  const add: Add = (finding) => findings.push({ severity: "error", field: null, expected: null, callId: null, ...finding });
  let open: OpenBatch[] = [];
  let contiguous: OpenBatch | null = null;

  const closeTurn = () => {
    for (const batch of open) {
      for (const call of batch.calls) {
        if (!call.answered) {
          add({ kind: "unanswered-call", index: batch.index, callId: call.id, field: "tool_calls", expected: "a tool result for every call before the next user message", detail: `element ${batch.index}: tool call "${call.id}" has no result before the next user message or the end` });
        }
      }
    }
    open = [];
  };

  messages.forEach((message, index) => {
    const { role, calls } = inspectMessage(message, index, add);
    if (role === "tool") {
      pairResult((message as Record<string, unknown>)["tool_call_id"], index, `element ${index} (role tool)`, open, contiguous, add);
      return;
    }
    contiguous = null;
    if (role === "user") closeTurn();
    if (calls !== null && calls.length > 0) {
      const batch: OpenBatch = { index, calls };
      open.push(batch);
      contiguous = batch;
    }
  });
  closeTurn();
  return findings.sort((a, b) => a.index - b.index);
}

/** The findings about one message on its own (shape, content, tool calls), without its place in a sequence. */
export function validateMessage(message: unknown, index: number): SequenceFinding[] {
  const findings: SequenceFinding[] = [];
  inspectMessage(message, index, (finding) => findings.push({ severity: "error", field: null, expected: null, callId: null, ...finding }));
  return findings;
}

/** Checks one message's shape; returns its role (null when unusable) and the calls an assistant opens. */
function inspectMessage(message: unknown, index: number, add: Add): { role: string | null; calls: OpenCall[] | null } {
  const none = { role: null, calls: null };
  if (message === null || typeof message !== "object" || Array.isArray(message)) {
    add({ kind: "non-object-message", index, expected: "a message object", detail: `element ${index} is ${describe(message)}; expected a message object` });
    return none;
  }
  const record = message as Record<string, unknown>;
  const role = record["role"];
  if (role === undefined) {
    add({ kind: "missing-role", index, field: "role", expected: `one of ${ROLES.join(", ")}`, detail: `element ${index} has no role; expected one of ${ROLES.join(", ")}` });
    return none;
  }
  if (typeof role !== "string" || !(ROLES as readonly string[]).includes(role)) {
    const kind = typeof role === "string" && role !== "" ? "unknown-role" : "missing-role";
    add({ kind, index, field: "role", expected: `one of ${ROLES.join(", ")}`, detail: `element ${index}: role is ${describe(role)}; expected one of ${ROLES.join(", ")}` });
    return none;
  }
  const at = `element ${index} (role ${role})`;
  const hasCalls = role === "assistant" && Array.isArray(record["tool_calls"]) && record["tool_calls"].length > 0;
  checkContent(record["content"], role, hasCalls, index, at, add);
  if (record["name"] !== undefined && typeof record["name"] !== "string") {
    add({ kind: "invalid-name", index, field: "name", expected: "a string", detail: `${at}: name is ${describe(record["name"])}; expected a string` });
  }
  if (role === "tool" && (typeof record["tool_call_id"] !== "string" || record["tool_call_id"] === "")) {
    add({ kind: "missing-tool-call-id", index, field: "tool_call_id", expected: "the id of the call it answers", detail: `${at}: tool_call_id is ${describe(record["tool_call_id"])}; expected the id of the call it answers` });
  }
  const calls = role === "assistant" && record["tool_calls"] !== undefined && record["tool_calls"] !== null ? readCalls(record["tool_calls"], index, at, add) : null;
  return { role, calls };
}

/** True when the list has no error-level finding. */
export function isValidSequence(messages: readonly unknown[]): boolean {
  return validateSequence(messages).every((finding) => finding.severity !== "error");
}

/** The first finding that makes a list unsendable (UNSENDABLE_KINDS), or null; looks at each message alone, so it is linear and cheap. */
export function firstUnsendable(messages: readonly unknown[]): SequenceFinding | null {
  for (let index = 0; index < messages.length; index++) {
    const found = validateMessage(messages[index], index).find((finding) => finding.severity === "error" && UNSENDABLE_KINDS.has(finding.kind));
    if (found) return found;
  }
  return null;
}

function pairResult(toolCallId: unknown, index: number, at: string, open: OpenBatch[], contiguous: OpenBatch | null, add: Add): void {
  if (typeof toolCallId !== "string" || toolCallId === "") return; // named by inspectMessage
  for (let b = open.length - 1; b >= 0; b--) {
    const batch = open[b]!;
    const call = batch.calls.find((candidate) => candidate.id === toolCallId && !candidate.answered);
    if (!call) continue;
    call.answered = true;
    if (batch !== contiguous) {
      add({
        kind: "split-batch",
        index,
        callId: toolCallId,
        field: "tool_call_id",
        expected: `right after its assistant message at element ${batch.index} or its other results`,
        detail: `${at}: the result for "${toolCallId}" is separated from its assistant message at element ${batch.index}; a parallel batch's results must follow it directly`,
      });
    }
    return;
  }
  add({
    kind: "orphaned-result",
    index,
    callId: toolCallId,
    field: "tool_call_id",
    expected: "an unanswered call of an earlier assistant message in this turn",
    detail: `${at}: tool result "${toolCallId}" answers no unanswered call of an earlier assistant message in this turn`,
  });
}

function readCalls(toolCalls: unknown, index: number, at: string, add: Add): OpenCall[] {
  if (!Array.isArray(toolCalls)) {
    add({ kind: "malformed-tool-calls", index, field: "tool_calls", expected: "a non-empty list of calls", detail: `${at}: tool_calls is ${describe(toolCalls)}; expected a non-empty list of calls` });
    return [];
  }
  if (toolCalls.length === 0) {
    add({ kind: "malformed-tool-calls", index, field: "tool_calls", expected: "a non-empty list of calls, or no tool_calls field", detail: `${at}: tool_calls is an empty list; expected a non-empty list of calls, or no tool_calls field` });
    return [];
  }
  const calls: OpenCall[] = [];
  const seen = new Set<string>();
  toolCalls.forEach((call: unknown, position) => {
    const field = `tool_calls[${position}]`;
    const malformed = (sub: string, problem: string, expected: string, callId: string | null = null) =>
      add({ kind: "malformed-tool-call", index, field: `${field}${sub}`, expected, callId, detail: `${at}: ${field}${sub} ${problem}; expected ${expected}` });
    if (call === null || typeof call !== "object" || Array.isArray(call)) {
      malformed("", `is ${describe(call)}`, "a call object");
      return;
    }
    const { id, type, function: fn } = call as { id?: unknown; type?: unknown; function?: unknown };
    if (typeof id !== "string" || id === "") {
      malformed(".id", `is ${describe(id)}`, "a non-empty string");
      return;
    }
    if (seen.has(id)) {
      add({ kind: "duplicate-call-id", severity: "warning", index, field: `${field}.id`, expected: "ids unique within one response", callId: id, detail: `${at}: tool call id "${id}" appears more than once in this message` });
    }
    seen.add(id);
    calls.push({ id, answered: false });
    if (type !== undefined && type !== "function") malformed(".type", `is ${describe(type)}`, '"function"', id);
    if (fn === null || typeof fn !== "object" || Array.isArray(fn)) {
      malformed(".function", `is ${describe(fn)}`, "an object with name and arguments", id);
      return;
    }
    const { name, arguments: args } = fn as { name?: unknown; arguments?: unknown };
    if (typeof name !== "string" || name === "") malformed(".function.name", `is ${describe(name)}`, "a non-empty string", id);
    if (typeof args !== "string") {
      malformed(".function.arguments", `is ${describe(args)}`, "a JSON string", id);
    } else if (!isJson(args)) {
      add({ kind: "invalid-arguments-json", index, field: `${field}.function.arguments`, expected: "valid JSON", callId: id, detail: `${at}: the arguments of tool call "${id}" are not valid JSON` });
    }
  });
  return calls;
}

/** Content a provider accepts: a string; null only on an assistant message with tool calls; or a non-empty list of typed parts. */
function checkContent(content: unknown, role: string, hasCalls: boolean, index: number, at: string, add: Add): void {
  if (typeof content === "string") return;
  const expected = hasCalls ? "a string, null or a list of typed parts" : "a string or a list of typed parts";
  if (content === undefined || content === null) {
    if (role === "assistant" && hasCalls) return;
    add({ kind: "invalid-content", index, field: "content", expected, detail: `${at}: content is ${describe(content)}; expected ${expected}${role === "assistant" ? " (null only beside tool calls)" : ""}` });
    return;
  }
  if (!Array.isArray(content)) {
    add({ kind: "invalid-content", index, field: "content", expected, detail: `${at}: content is ${describe(content)}; expected ${expected}` });
    return;
  }
  content.forEach((part: unknown, position) => {
    const field = `content[${position}]`;
    if (part === null || typeof part !== "object" || Array.isArray(part)) {
      add({ kind: "invalid-content", index, field, expected: "a part object with a type", detail: `${at}: ${field} is ${describe(part)}; expected a part object with a type` });
      return;
    }
    const record = part as Record<string, unknown>;
    const type = record["type"];
    if (typeof type !== "string" || type === "") {
      add({ kind: "invalid-content", index, field: `${field}.type`, expected: 'a part type such as "text"', detail: `${at}: ${field} has type ${describe(type)}; expected a part type such as "text" (a part without "type" is another provider's format)` });
      return;
    }
    const needs = PART_FIELDS[type];
    if (needs === undefined) {
      add({ kind: "invalid-content", severity: "warning", index, field: `${field}.type`, expected: `one of ${Object.keys(PART_FIELDS).join(", ")}`, detail: `${at}: ${field} has the part type "${type}", which this validator does not know` });
      return;
    }
    const problem = needs(record);
    if (problem !== null) add({ kind: "invalid-content", index, field, expected: problem[1], detail: `${at}: ${field} (type "${type}") has ${problem[0]}; expected ${problem[1]}` });
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "an empty list" : "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}
