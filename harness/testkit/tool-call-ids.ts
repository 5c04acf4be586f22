import { sha256Hex } from "../util/sha256.ts";

/**
 * The one vocabulary of tool-call id styles every piece of test data uses (scenarios, probes,
 * engines' tests, benchmarks): how a model names its tool calls, and so how provider ids repeat.
 * - `unique`: provider-minted ids, never repeated;
 * - `deterministic`: `call_<12hex>` from sha256 of `name:arguments:index`, so identical calls repeat ids;
 * - `constant`: one id for every call (a llama.cpp-style server);
 * - `per-response`: `call_0`, `call_1`, … restarting each response, so ids recur across turns.
 */
export type ToolCallIdStyle = "unique" | "deterministic" | "constant" | "per-response";
export const TOOL_CALL_ID_STYLES: readonly ToolCallIdStyle[] = ["unique", "deterministic", "constant", "per-response"];

export const CONSTANT_TOOL_CALL_ID = "call_0";

/** The id a host derives when the API omits one: identical calls give identical ids. */
export function deterministicCallId(name: string, args: string, index: number): string {
  return `call_${sha256Hex(`${name}:${args}:${index}`).slice(0, 12)}`;
}

/** The provider id of the call at `index` within one response; `fresh()` gives a never-used id for `unique`. */
export function toolCallId(style: ToolCallIdStyle, call: { name: string; args: string; index: number }, fresh: () => string): string {
  switch (style) {
    case "deterministic":
      return deterministicCallId(call.name, call.args, call.index);
    case "constant":
      return CONSTANT_TOOL_CALL_ID;
    case "per-response":
      return `call_${call.index}`;
    case "unique":
      return fresh();
  }
}
