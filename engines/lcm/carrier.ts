import type { Message } from "../../harness/contract/types.ts";
import { sha256Hex } from "./text.ts";

/** A summary as the active context shows it: the node it came from and its text. */
export interface CarriedNode {
  id: string;
  depth: number;
  messageCount: number;
  summary: string;
}

export const CARRIER_MARKER = "[LCM SUMMARY — lossless context]";
const CARRIER_INTRO =
  `${CARRIER_MARKER} Earlier turns of this conversation were compacted into the summaries below. ` +
  "Nothing was lost: every original message is stored. Search it with lcm_grep, read a node with " +
  "lcm_describe, and restore a node's messages with lcm_expand. The latest user message below wins over these summaries.";
const CARRIER_END = "[END OF LCM SUMMARY]";
const NODE_PATTERN = /<summary node="(lcm_[0-9a-f]{16})" depth="(\d+)" messages="(\d+)">\n([\s\S]*?)\n<\/summary>/g;

export function isCarrier(message: Message): boolean {
  return typeof message.content === "string" && message.content.startsWith(CARRIER_MARKER);
}

/**
 * One user message holding every uncondensed summary, oldest first, each naming its node. It
 * carries a uid of its own (UID-6) so later passes and restores recognise it.
 */
export function renderCarrier(nodes: readonly CarriedNode[]): Message {
  const sections = nodes.map(
    (node) => `<summary node="${node.id}" depth="${node.depth}" messages="${node.messageCount}">\n${escapeSummary(node.summary)}\n</summary>`,
  );
  return {
    role: "user",
    content: [CARRIER_INTRO, ...sections, CARRIER_END].join("\n\n"),
    message_uid: sha256Hex(`lcm-carrier:${nodes.map((n) => n.id).join(",")}`).slice(0, 32),
  };
}

/** The nodes a carrier names, in order. */
export function parseCarrier(message: Message): CarriedNode[] {
  if (!isCarrier(message)) return [];
  const nodes: CarriedNode[] = [];
  for (const match of (message.content as string).matchAll(NODE_PATTERN)) {
    nodes.push({ id: match[1] as string, depth: Number(match[2]), messageCount: Number(match[3]), summary: unescapeSummary(match[4] as string) });
  }
  return nodes;
}

/** Node ids named anywhere in a message list (carriers only). */
export function carriedNodeIds(messages: readonly Message[]): string[] {
  return messages.flatMap((m) => parseCarrier(m).map((n) => n.id));
}

// A summary quoting "</summary>" must not end its section early.
function escapeSummary(text: string): string {
  return text.replaceAll("</summary>", "<\\/summary>");
}
function unescapeSummary(text: string): string {
  return text.replaceAll("<\\/summary>", "</summary>");
}
