import { estimateMessageTokensRough } from "../contract/tokens.ts";
import type { Message } from "../contract/types.ts";
import { isPersistedMessage } from "./persisted-message.ts";

const known = new WeakMap<Message, number>();

/**
 * The rough token estimate of a history, as estimateTokensRough gives it, remembering each
 * persisted message's share: the host estimates the same history at every turn's preflight and
 * again when a pass starts, and a persisted message never changes. Messages not yet persisted are
 * estimated afresh each time.
 */
export function historyTokensRough(history: readonly Message[]): number {
  let total = 0;
  for (const message of history) {
    let tokens = known.get(message);
    if (tokens === undefined) {
      tokens = estimateMessageTokensRough(message);
      if (isPersistedMessage(message)) known.set(message, tokens);
    }
    total += tokens;
  }
  return total;
}
