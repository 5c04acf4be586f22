import { ROLES } from "./types.ts";

/** What can be wrong with an OpenAI-format message sequence (CMP-2). */
export type SequenceFindingKind =
  | "non-object-message"
  | "missing-role"
  | "unknown-role"
  | "invalid-content"
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
 * `warning` is reported but pairable (a provider may repeat an id inside one response, TCU-3).
 */
export interface SequenceFinding {
  kind: SequenceFindingKind;
  severity: "error" | "warning";
  index: number;
  detail: string;
}

interface OpenCall {
  id: string;
  answered: boolean;
}

interface OpenBatch {
  index: number;
  calls: OpenCall[];
}

/**
 * Every problem of a message list, in message order. Results pair with the nearest preceding
 * unanswered call of their id (ids repeat across turns and inside one response, TCU-3), never across
 * a user message; a result that pairs with an assistant other than the one right before the run of
 * tool messages it sits in splits that assistant's batch.
 */
export function validateSequence(messages: readonly unknown[]): SequenceFinding[] {
  const findings: SequenceFinding[] = [];
  const add = (kind: SequenceFindingKind, index: number, detail: string, severity: "error" | "warning" = "error") =>
    findings.push({ kind, severity, index, detail });
  let open: OpenBatch[] = [];
  let contiguous: OpenBatch | null = null;

  const closeTurn = () => {
    for (const batch of open) {
      for (const call of batch.calls) {
        if (!call.answered) add("unanswered-call", batch.index, `tool call "${call.id}" has no result before the next user message or the end`);
      }
    }
    open = [];
  };

  messages.forEach((message, index) => {
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      add("non-object-message", index, `expected a message object, got ${describe(message)}`);
      contiguous = null;
      return;
    }
    const record = message as Record<string, unknown>;
    const role = record["role"];
    if (role === undefined) {
      add("missing-role", index, "message has no role");
      contiguous = null;
      return;
    }
    if (typeof role !== "string" || !(ROLES as readonly string[]).includes(role)) {
      add("unknown-role", index, `role ${JSON.stringify(role)} is not one of ${ROLES.join(", ")}`);
      contiguous = null;
      return;
    }
    checkContent(record["content"], index, add);
    if (role === "tool") {
      pairResult(record["tool_call_id"], index, open, contiguous, add);
      return;
    }
    contiguous = null;
    if (role === "user") closeTurn();
    if (role === "assistant" && record["tool_calls"] !== undefined && record["tool_calls"] !== null) {
      const calls = readCalls(record["tool_calls"], index, add);
      if (calls.length > 0) {
        const batch: OpenBatch = { index, calls };
        open.push(batch);
        contiguous = batch;
      }
    }
  });
  closeTurn();
  return findings.sort((a, b) => a.index - b.index);
}

/** True when the list has no error-level finding. */
export function isValidSequence(messages: readonly unknown[]): boolean {
  return validateSequence(messages).every((finding) => finding.severity !== "error");
}

type Add = (kind: SequenceFindingKind, index: number, detail: string, severity?: "error" | "warning") => void;

function pairResult(toolCallId: unknown, index: number, open: OpenBatch[], contiguous: OpenBatch | null, add: Add): void {
  if (typeof toolCallId !== "string" || toolCallId === "") {
    add("missing-tool-call-id", index, "tool result has no tool_call_id");
    return;
  }
  for (let b = open.length - 1; b >= 0; b--) {
    const batch = open[b]!;
    const call = batch.calls.find((candidate) => candidate.id === toolCallId && !candidate.answered);
    if (!call) continue;
    call.answered = true;
    if (batch !== contiguous) {
      add("split-batch", index, `result for "${toolCallId}" is separated from its assistant message at index ${batch.index}`);
    }
    return;
  }
  add("orphaned-result", index, `tool result "${toolCallId}" answers no unanswered call of an earlier assistant message in this turn`);
}

function readCalls(toolCalls: unknown, index: number, add: Add): OpenCall[] {
  if (!Array.isArray(toolCalls)) {
    add("malformed-tool-calls", index, `tool_calls is ${describe(toolCalls)}, not a list`);
    return [];
  }
  const calls: OpenCall[] = [];
  const seen = new Set<string>();
  toolCalls.forEach((call: unknown, position) => {
    if (call === null || typeof call !== "object" || Array.isArray(call)) {
      add("malformed-tool-call", index, `tool_calls[${position}] is ${describe(call)}, not an object`);
      return;
    }
    const { id, function: fn } = call as { id?: unknown; function?: unknown };
    if (typeof id !== "string" || id === "") {
      add("malformed-tool-call", index, `tool_calls[${position}] has no id`);
      return;
    }
    if (seen.has(id)) add("duplicate-call-id", index, `tool call id "${id}" appears more than once in this message`, "warning");
    seen.add(id);
    calls.push({ id, answered: false });
    if (fn === null || typeof fn !== "object") {
      add("malformed-tool-call", index, `tool call "${id}" has no function`);
      return;
    }
    const { name, arguments: args } = fn as { name?: unknown; arguments?: unknown };
    if (typeof name !== "string" || name === "") add("malformed-tool-call", index, `tool call "${id}" has no function name`);
    if (typeof args !== "string") {
      add("invalid-arguments-json", index, `arguments of tool call "${id}" are ${describe(args)}, not a JSON string`);
    } else if (!isJson(args)) {
      add("invalid-arguments-json", index, `arguments of tool call "${id}" are not valid JSON`);
    }
  });
  return calls;
}

function checkContent(content: unknown, index: number, add: Add): void {
  if (content === undefined || content === null || typeof content === "string") return;
  if (Array.isArray(content) && content.every((part) => part !== null && typeof part === "object" && typeof (part as { type?: unknown }).type === "string")) {
    return;
  }
  add("invalid-content", index, `content is ${describe(content)}; expected a string, null or a list of typed parts`);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value) ?? ""}`.trim();
}
