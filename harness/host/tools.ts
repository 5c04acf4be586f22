import type { Message } from "../contract/types.ts";
import { describeError, isThenable } from "../trace/recorder.ts";
import type { ScriptedToolCall } from "../../scenarios/format.ts";
import { cloneMessages } from "./clone.ts";
import type { HostRuntime, SessionRuntime } from "./runtime.ts";

/**
 * Offer the engine's tools (TOOL-3): a bare `{name, description, parameters}` or an
 * OpenAI-wrapped `{type: "function", function: {...}}` schema; one without a name is skipped with a
 * warning; a name the host already owns (or a duplicate) is skipped, so the original owner keeps it.
 */
export async function offerEngineTools(runtime: HostRuntime): Promise<void> {
  const outcome = await runtime.recorder.callHook(runtime.engine, "get_tool_schemas", [], { session: null });
  const offered = new Set(runtime.settings.hostTools);
  const engineTools = new Set<string>();
  if (!outcome.ok) {
    warn(runtime, `Context engine get_tool_schemas failed: ${describeError(outcome.error)}; no engine tools offered`, "TOOL-3");
  } else if (Array.isArray(outcome.value)) {
    for (const schema of outcome.value) {
      const name = schemaName(schema);
      if (name === null) {
        warn(runtime, "Context engine returned a tool schema with no resolvable name; skipping", "TOOL-3");
        continue;
      }
      if (offered.has(name)) {
        warn(runtime, `Context engine tool '${name}' collides with an existing tool; the original owner keeps it`, "TOOL-3");
        continue;
      }
      offered.add(name);
      engineTools.add(name);
    }
  }
  runtime.engineTools = engineTools;
  runtime.offeredTools = [...offered];
}

function schemaName(schema: unknown): string | null {
  if (schema === null || typeof schema !== "object") return null;
  const record = schema as { name?: unknown; type?: unknown; function?: unknown };
  const inner = record.type === "function" && record.function !== null && typeof record.function === "object" ? (record.function as { name?: unknown }) : record;
  return typeof inner.name === "string" && inner.name.length > 0 ? inner.name : null;
}

/**
 * Answer one tool call: engine tools go to `handle_tool_call` (an exception becomes an error JSON
 * result, TOOL-3), every other tool is answered from the script.
 */
export async function answerToolCall(
  runtime: HostRuntime,
  session: SessionRuntime,
  call: ScriptedToolCall,
  turn: number,
): Promise<Message> {
  let result: string;
  let routedTo: "engine" | "script";
  if (runtime.engineTools.has(call.name)) {
    routedTo = "engine";
    result = await callEngineTool(runtime, session, call);
  } else {
    routedTo = "script";
    result = typeof call.result === "string" ? call.result : JSON.stringify(call.result);
  }
  runtime.recorder.record({ type: "tool-call", session: session.id, turn, id: call.id, name: call.name, routedTo, arguments: call.arguments, result });
  const content = routedTo === "script" && typeof call.result !== "string" ? call.result : result;
  return { role: "tool", tool_call_id: call.id, name: call.name, content };
}

async function callEngineTool(runtime: HostRuntime, session: SessionRuntime, call: ScriptedToolCall): Promise<string> {
  const args = parseArguments(call.arguments);
  const pending = runtime.recorder.callHook(runtime.engine, "handle_tool_call", [call.name, args, { messages: cloneMessages(session.history) }], {
    session: session.id,
    digestArgs: [call.name, args, { messages: session.history }],
    detail: { name: call.name },
  });
  const outcome = isThenable(pending) ? await pending : pending;
  if (!outcome.ok) {
    const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    return JSON.stringify({ error: `Context engine tool '${call.name}' failed: ${message}` });
  }
  if (typeof outcome.value === "string") return outcome.value;
  // Not a string (TOOL-2): the model still gets text; a value JSON cannot carry becomes an error result.
  try {
    return JSON.stringify(outcome.value) ?? "null";
  } catch (error) {
    warn(runtime, `Context engine tool '${call.name}' returned a value that is not JSON (${describeError(error)}); answered with an error result`, "TOOL-2", session.id);
    return JSON.stringify({ error: `Context engine tool '${call.name}' returned a value that is not JSON` });
  }
}

/** Arguments as the model emitted them; malformed JSON reaches the engine as an empty object. */
function parseArguments(text: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function warn(runtime: HostRuntime, message: string, rule: string | null, session: string | null = null): void {
  runtime.recorder.record({ type: "warning", session, message, rule });
}
