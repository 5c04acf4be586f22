import type { Message } from "../../harness/contract/types.ts";
import { clipText, sha256Hex, uidOf } from "./text.ts";

export const EXTERNALIZED_MARKER = "[LCM: large tool output moved to the lossless store]";

/**
 * Tool results too large for the fresh tail (one output can exceed the whole threshold): the
 * context keeps a shortened copy, an engine-authored row with a uid of its own (UID-6), and the
 * original, under its own uid, goes to the store with the pass, where lcm_grep finds any part of it.
 */
export function externalizeLargeResults(tail: readonly Message[], maxChars: number): { tail: Message[]; originals: Message[] } {
  const originals: Message[] = [];
  const shortened = tail.map((message) => {
    const content = message.content;
    if (message.role !== "tool" || typeof content !== "string" || content.length <= maxChars) return message;
    originals.push(message);
    const uid = uidOf(message);
    const note = `${EXTERNALIZED_MARKER} ${content.length} characters; the full text is stored${uid ? ` (message ${uid})` : ""}. Find any part of it with lcm_grep.`;
    const copy: Message = { ...message, content: `${note}\n${clipText(content, Math.floor(maxChars / 4))}` };
    if (uid) copy.message_uid = sha256Hex(`lcm-externalized:${uid}`).slice(0, 32);
    return copy;
  });
  return { tail: shortened, originals };
}
