import type { Message } from "../contract/types.ts";

/** Breakpoints after the system prompt: upstream's "system_and_3" layout. */
const TRAILING_BREAKPOINTS = 3;

/**
 * The prompt-cache plan, derived last on the selected and sanitized list (SEL-3): a breakpoint on
 * the leading system prompt and on each of the last three non-system messages, as indices.
 */
export function planCacheBreakpoints(messages: readonly Message[]): number[] {
  const trailing: number[] = [];
  for (let index = messages.length - 1; index >= 0 && trailing.length < TRAILING_BREAKPOINTS; index--) {
    if (messages[index]!.role !== "system") trailing.push(index);
  }
  trailing.reverse();
  if (messages.length > 0 && messages[0]!.role === "system") trailing.unshift(0);
  return trailing;
}
